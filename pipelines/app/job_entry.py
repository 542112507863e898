"""The entry point of a Ray job whose config was shipped in its environment (``winnow submit`` with a config file,
pipelines/app/jobs.py): ``python -m pipelines.app.job_entry run CONFIG_NAME ...`` on the cluster. Apart from jobs.py
so that the submitting side does not import the command line it starts."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from pipelines.app.cli import main
from pipelines.app.jobs import CONFIG_DIR, CONFIG_ENV, CONFIG_NAME_ENV


def job_entry(argv: Sequence[str]) -> int:
    """On the cluster: write the shipped config (``CONFIG_ENV``) beside the code, then ``winnow run`` on it."""
    argv = list(argv)
    text, name = os.environ.get(CONFIG_ENV), os.environ.get(CONFIG_NAME_ENV)
    if text is None or not name or len(argv) < 2 or argv[0] != "run":
        print(f"winnow job: expected `run CONFIG ...` with {CONFIG_ENV} and {CONFIG_NAME_ENV} set", file=sys.stderr)
        return 2
    target = Path(CONFIG_DIR) / Path(name).name  # the job's working directory: its own copy of the code
    target.parent.mkdir(exist_ok=True)
    target.write_text(text, encoding="utf-8")
    argv[1] = str(target)
    return main(argv)


if __name__ == "__main__":
    sys.exit(job_entry(sys.argv[1:]))
