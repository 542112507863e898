"""``winnow demo``: the whole path on the site the project ships, offline, in one command.

The bundled site (``crawler/demo_site/``) is served on 127.0.0.1 by crawler/site_server.py, crawled with
``winnow crawl`` (robots.txt, training opt-outs, rendering where a page needs JavaScript; ``--allow-private`` since
the site is on loopback, and a 0.2 s per-host delay instead of the default 1 s: it is our own server), and the crawl
is run through the ``default`` pipeline (embedded local Ray unless ``--local``), which writes the three outputs,
``stats.json`` and ``report.html``; then the bundled ``images`` chain fetches the images of its image-text pairs and
interleaved documents from the same server (robots.txt and opt-out headers honoured) and checks and deduplicates
them. The crawl and each fetch run in their own process (a Twisted reactor starts once per process); the pipelines
run in this one. Everything lands in ``OUTPUT`` (``out/demo`` by default): ``crawl/``, ``corpus/`` and
``images/``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import TextIO

import yaml

from crawler.site_server import DEMO_SITE, SiteServer
from pipelines.config import load_config, resolve_path
from pipelines.readers import expand_inputs
from pipelines.records import OUTPUT_DIRS
from pipelines.runner import RunOptions, run

DEMO_MAX_PAGES = 100
DEMO_DELAY_S = 0.2
MARKER = ".winnow-demo"  # marks a folder the demo made, so that a rerun may clear it and nothing else


class DemoError(RuntimeError):
    """The demo could not run (an output folder that is not a demo's, a crawl that failed)."""


# What a demo folder holds (site-url: what scripts/demo.sh left before `winnow demo` existed).
DEMO_ENTRIES = frozenset({"crawl", "corpus", "images", "images.yaml", "site-url", MARKER})


def _prepare(output: Path) -> None:
    if output.exists() and not (output / MARKER).exists() and any(
            p.name not in DEMO_ENTRIES for p in output.iterdir()):
        raise DemoError(f"{output} exists and was not made by `winnow demo`: give another --output")
    shutil.rmtree(output, ignore_errors=True)
    output.mkdir(parents=True)
    (output / MARKER).write_text("made by winnow demo; cleared by the next one\n")


def _crawl(url: str, crawl_dir: Path) -> None:
    cmd = [sys.executable, "-m", "pipelines.app.cli", "crawl", url, "--output", str(crawl_dir), "--allow-private",
           "--max-pages", str(DEMO_MAX_PAGES), "--no-progress", "-s", f"DOWNLOAD_DELAY={DEMO_DELAY_S}",
           "-s", "LOG_LEVEL=WARNING"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise DemoError(f"the demo crawl failed (rc {done.returncode}):\n{done.stderr[-2000:]}")
    if done.stdout.strip():
        print(done.stdout.strip().splitlines()[-1])


def images_config(folder: Path) -> Path:
    """The bundled ``images`` chain for the demo's own server: loopback allowed, its 0.2 s delay."""
    raw = yaml.safe_load(resolve_path("images").read_text())
    for entry in raw["steps"]:
        if entry["use"].endswith(".FetchImages"):
            entry.setdefault("with", {}).update(allow_private=True, settings={"DOWNLOAD_DELAY": DEMO_DELAY_S,
                                                                              "LOG_LEVEL": "WARNING"})
    path = folder / "images.yaml"
    path.write_text("# the bundled images chain, for the demo's loopback site (winnow demo)\n"
                    + yaml.safe_dump(raw, sort_keys=False))
    return path


def run_demo(output: Path, local: bool = False, out: TextIO = sys.stdout) -> dict:
    """Serve, crawl, run the default pipeline, then the image lane on its pairs; print a summary; return the default
    run's stats."""
    started = time.monotonic()
    _prepare(output)
    crawl_dir, corpus, images = output / "crawl", output / "corpus", output / "images"
    # The site stays up through both runs: the image lane fetches the images from it.
    with SiteServer(root=DEMO_SITE) as site:
        print(f"demo site at {site.url('/')}", file=out)
        _crawl(site.url("/"), crawl_dir)
        crawled = time.monotonic()
        inputs = expand_inputs([str(crawl_dir)])
        if not inputs:
            raise DemoError(f"the demo crawl wrote no WARC file into {crawl_dir}")
        stats = run(RunOptions(config=load_config("default"), inputs=inputs, output=corpus, local=local,
                               progress=False))
        ran = time.monotonic()
        lane_inputs = [str(corpus / name) for name in ("image_text", "interleaved") if (corpus / name).is_dir()]
        lane = run(RunOptions(config=load_config(str(images_config(output))), inputs=expand_inputs(lane_inputs),
                              output=images, local=local, progress=False)) if lane_inputs else {}
    outputs = {**stats.get("outputs", {}), **lane.get("outputs", {})}
    print(f"\ncrawl {crawled - started:.0f} s, pipeline {ran - crawled:.0f} s, image lane "
          f"{time.monotonic() - ran:.0f} s ({'--local' if local else 'embedded Ray'})", file=out)
    folders = [corpus / name for name in OUTPUT_DIRS.values() if name != "images"] + [images / "images"]
    for folder in folders:
        print(f"  {folder}: {outputs.get(folder.name, {}).get('rows', 0)} rows", file=out)
    print(f"  reports: {corpus / 'report.html'}, {images / 'report.html'}", file=out)
    print("open them with pandas:", file=out)
    for folder in folders:
        if folder.is_dir():
            print(f'  pd.read_parquet("{folder}")', file=out)
    print(f"  (images joins image_text on id: pd.read_parquet(\"{corpus / 'image_text'}\")"
          f".merge(pd.read_parquet(\"{images / 'images'}\"), on=\"id\"))", file=out)
    print(f"or: winnow inspect {corpus}; winnow inspect {images}", file=out)
    return stats
