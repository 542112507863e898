"""The fetch process of the ``FetchImages`` stage (crawler/images/stage.py): ``python -m crawler.images.child
OPTIONS_JSON`` runs one ``fetch`` (crawler/images/run.py) with the ``FetchOptions`` the stage wrote, as
``winnow images fetch`` would, and exits with the command's status.

Why a process: Scrapy's Twisted reactor cannot be restarted in a process that ran it, and the pipeline runs one
fetch per wave. Why this module and not the command line: the crawler is a domain package and must not start the
application above it (docs/architecture.md, the import-linter layers, which a ``-m pipelines.app.cli`` string would
bypass unseen).
"""

from __future__ import annotations

import json
import logging
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from crawler.images.run import FetchOptions, fetch_command


def write_options(opts: FetchOptions, path: Path) -> None:
    """``opts`` as the JSON file a child reads (a file, not argv: ``-s`` values and networks need no quoting)."""
    fields: dict[str, Any] = asdict(opts)
    fields["source"], fields["output"] = str(opts.source), str(opts.output)
    path.write_text(json.dumps(fields, indent=1) + "\n")


def read_options(path: Path) -> FetchOptions:
    fields = json.loads(path.read_text())
    return FetchOptions(**{**fields, "source": Path(fields["source"]), "output": Path(fields["output"])})


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(f"usage: python -m crawler.images.child OPTIONS_JSON (got {argv})", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return fetch_command(read_options(Path(argv[0])))[1]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
