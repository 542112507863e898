"""`winnow demo` (pipelines/app/demo.py): the bundled site served, crawled, run through the default pipeline, and its
images fetched and deduplicated by the bundled image lane."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

WINNOW = str(Path(sys.executable).with_name("winnow"))


@pytest.mark.slow
@pytest.mark.ray
def test_demo_crawls_runs_and_reports(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    for _ in range(2):  # a second demo clears the folder the first one made
        done = subprocess.run([WINNOW, "demo", "--output", str(out)], capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr[-3000:]
    corpus = out / "corpus"
    assert list((out / "crawl").glob("*.warc.gz"))
    assert "<svg" in (corpus / "report.html").read_text()
    text = pd.read_parquet(corpus / "text")
    assert len(text) > 0 and text["training_allowed"].all()
    # the summary names each output with its rows and the line to open it
    assert f"{corpus / 'text'}: {len(text)} rows" in done.stdout
    assert f'pd.read_parquet("{corpus / "text"}")' in done.stdout
    # the image lane: the pairs' images fetched from the demo site, joinable with image_text on id
    images = pd.read_parquet(out / "images" / "images")
    pairs = pd.read_parquet(corpus / "image_text")
    joined = pairs.merge(images, on="id", suffixes=("", "_image"))
    assert len(images) > 0 and len(joined) == len(pairs)
    assert (joined["image_url"] == joined["image_url_image"]).all()
    assert images["image"].map(len).gt(0).all() and images["sha256"].str.len().eq(64).all()
    assert f"{out / 'images' / 'images'}: {len(images)} rows" in done.stdout


def test_demo_will_not_clear_a_folder_it_did_not_make(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("keep me")
    done = subprocess.run([WINNOW, "demo", "--output", str(tmp_path), "--local"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and "not made by `winnow demo`" in done.stderr and "Traceback" not in done.stderr
    assert (tmp_path / "mine.txt").read_text() == "keep me"
