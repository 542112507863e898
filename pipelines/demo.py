"""``winnow demo``: the whole path on the site the project ships, offline, in one command.

The bundled site (``crawler/demo_site/``) is served on 127.0.0.1 by crawler/site_server.py, crawled with
``winnow crawl`` (robots.txt, training opt-outs, rendering where a page needs JavaScript; ``--allow-private`` since
the site is on loopback, and a 0.2 s per-host delay instead of the default 1 s: it is our own server), and the crawl
is run through the ``default`` pipeline (embedded local Ray unless ``--local``), which writes the three outputs,
``stats.json`` and ``report.html``. The crawl runs in its own process (a Twisted reactor starts once per process);
the pipeline runs in this one. Everything lands in ``OUTPUT`` (``out/demo`` by default): ``crawl/`` and
``corpus/``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import TextIO

from crawler.site_server import DEMO_SITE, SiteServer
from pipelines.config import load_config
from pipelines.readers import expand_inputs
from pipelines.records import OUTPUT_DIRS
from pipelines.runner import RunOptions, run

DEMO_MAX_PAGES = 100
DEMO_DELAY_S = 0.2
MARKER = ".winnow-demo"  # marks a folder the demo made, so that a rerun may clear it and nothing else


class DemoError(RuntimeError):
    """The demo could not run (an output folder that is not a demo's, a crawl that failed)."""


# What a demo folder holds (site-url: what scripts/demo.sh left before `winnow demo` existed).
DEMO_ENTRIES = frozenset({"crawl", "corpus", "site-url", MARKER})


def _prepare(output: Path) -> None:
    if output.exists() and not (output / MARKER).exists() and any(
            p.name not in DEMO_ENTRIES for p in output.iterdir()):
        raise DemoError(f"{output} exists and was not made by `winnow demo`: give another --output")
    shutil.rmtree(output, ignore_errors=True)
    output.mkdir(parents=True)
    (output / MARKER).write_text("made by winnow demo; cleared by the next one\n")


def _crawl(url: str, crawl_dir: Path) -> None:
    cmd = [sys.executable, "-m", "pipelines.cli", "crawl", url, "--output", str(crawl_dir), "--allow-private",
           "--max-pages", str(DEMO_MAX_PAGES), "--no-progress", "-s", f"DOWNLOAD_DELAY={DEMO_DELAY_S}",
           "-s", "LOG_LEVEL=WARNING"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise DemoError(f"the demo crawl failed (rc {done.returncode}):\n{done.stderr[-2000:]}")
    if done.stdout.strip():
        print(done.stdout.strip().splitlines()[-1])


def run_demo(output: Path, local: bool = False, out: TextIO = sys.stdout) -> dict:
    """Serve, crawl, run the default pipeline; print a summary; return the run's stats."""
    started = time.monotonic()
    _prepare(output)
    crawl_dir, corpus = output / "crawl", output / "corpus"
    with SiteServer(root=DEMO_SITE) as site:
        print(f"demo site at {site.url('/')}", file=out)
        _crawl(site.url("/"), crawl_dir)
    crawled = time.monotonic()
    inputs = expand_inputs([str(crawl_dir)])
    if not inputs:
        raise DemoError(f"the demo crawl wrote no WARC file into {crawl_dir}")
    stats = run(RunOptions(config=load_config("default"), inputs=inputs, output=corpus, local=local, progress=False))
    outputs = stats.get("outputs", {})
    rows = {name: outputs.get(name, {}).get("rows", 0) for name in OUTPUT_DIRS.values()}
    print(f"\ncrawl {crawled - started:.0f} s, pipeline {time.monotonic() - crawled:.0f} s "
          f"({'--local' if local else 'embedded Ray'})", file=out)
    for name, count in rows.items():
        print(f"  {corpus / name}: {count} rows", file=out)
    print(f"  report: {corpus / 'report.html'}", file=out)
    print("open them with pandas:", file=out)
    for name in OUTPUT_DIRS.values():
        if (corpus / name).is_dir():
            print(f'  pd.read_parquet("{corpus / name}")', file=out)
    print(f"or: winnow inspect {corpus}", file=out)
    return stats
