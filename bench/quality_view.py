"""The quality corpus (bench/quality_corpus.py) as the pipeline sees it: items written as a run's inputs (a WARC of the
HTML pages, a JSONL of the text documents), a chain run over them with ``winnow run --local --annotate`` in this
process, and every item's fate read back from out/text (kept, or the step and reason that dropped it, with the text,
language and scores the steps wrote).

``extracted(items)`` is the training view: extraction and language ID only (bench/configs/quality_view.yaml), so a
model learns from the text and language the steps after them will see; cached under ``CACHE`` by the items and the
extraction code and models (a change to either extracts again).
"""

from __future__ import annotations

import hashlib
import io
import json
import tempfile
import uuid
from pathlib import Path
from typing import Any

import pandas as pd
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from bench.quality_corpus import CACHE, ROOT, Item
from pipelines.config import load_config
from pipelines.runner import RunOptions, run

VIEW_CONFIG = ROOT / "bench" / "configs" / "quality_view.yaml"
# Every record's WARC-Date: dedup keeps the earliest-fetched copy, then the smallest id (dedup/near.py), and warcio's
# own date is the second the record was written, so which of two copies was kept depended on where a second ended
# while the WARC was written (a news page and its spun copy swapped from run to run). One date for all: the id decides.
# And the id (pipelines/readers/warc.py: from the WARC-Record-ID) is the item's own, not warcio's random UUID: with
# one date and random record ids the keeper was still a coin toss per run (news read 0.950 in one run, 0.967 in the
# next, of the same code).
WARC_DATE = "2026-01-01T00:00:00Z"
COLUMNS = ["url", "dropped_by", "drop_detail", "text", "lang", "lang_score", "quality_score", "quality_signals",
           "code_ratio", "page_type", "extracted_by", "link_density", "lang_source"]


def record_id(item: Item) -> str:
    """The item's WARC-Record-ID: a UUID derived from its corpus id, the same in every run."""
    return f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, 'winnow-quality-corpus:' + item.id)}>"


def write_inputs(items: list[Item], folder: Path) -> list[Path]:
    """``corpus.warc.gz`` (one response record per HTML item) and ``corpus.jsonl`` (the text items)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    pages = [i for i in items if i.html is not None]
    docs = [i for i in items if i.html is None]
    if pages:
        path = folder / "corpus.warc.gz"
        with path.open("wb") as f:
            writer = WARCWriter(f, gzip=True)
            for item in pages:
                assert item.html is not None
                http = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8"),
                                                   ("Content-Length", str(len(item.html)))], protocol="HTTP/1.1")
                writer.write_record(writer.create_warc_record(item.url, "response", payload=io.BytesIO(item.html),
                                                              length=len(item.html), http_headers=http,
                                                              warc_headers_dict={"WARC-Date": WARC_DATE,
                                                                                 "WARC-Record-ID": record_id(item)}))
        paths.append(path)
    if docs:
        path = folder / "corpus.jsonl"
        with path.open("w", encoding="utf-8") as f:
            for item in docs:
                f.write(json.dumps({"id": item.id, "url": item.url, "text": item.text}, ensure_ascii=False) + "\n")
        paths.append(path)
    return paths


def run_chain(config: str | Path, inputs: list[Path], out: Path) -> dict[str, Any]:
    """One ``winnow run CONFIG --local --annotate`` in this process; its stats."""
    return run(RunOptions(config=load_config(str(config), annotate=True), inputs=[str(p) for p in inputs],
                          output=out, local=True, annotate=True, progress=False))


def fates(items: list[Item], out: Path) -> pd.DataFrame:
    """One row per item: its labels and what the run made of it (``kept``, ``dropped_by`` as ``step.reason``)."""
    rows = pd.read_parquet(out / "text", columns=COLUMNS).drop_duplicates("url").set_index("url")
    labels = pd.DataFrame([{"id": i.id, "family": i.family, "group": i.group, "label": i.label, "split": i.split,
                            "url": i.url} for i in items]).set_index("url")
    df = labels.join(rows, how="left")
    df["dropped_by"] = df["dropped_by"].where(df["dropped_by"].notna() | df["text"].notna(), "missing")
    df["kept"] = df["dropped_by"].isna()
    df["reason"] = df["dropped_by"].fillna("kept").str.split(":").str[0]
    return df.reset_index()


def _code_digest() -> str:
    h = hashlib.blake2b(digest_size=8)
    for path in sorted([*(ROOT / "extract").rglob("*.py"), *(ROOT / "extract" / "models").iterdir(),
                        ROOT / "filters" / "langid.py", ROOT / "filters" / "parts.py", VIEW_CONFIG]):
        if path.is_file():
            h.update(path.read_bytes())
    return h.hexdigest()


def extracted(items: list[Item], cache: Path = CACHE) -> pd.DataFrame:
    """``fates`` of the items under the view chain (extraction and language ID), cached per item: a folder per
    version of the extraction code and models, one Parquet part per run, so that only new items are extracted."""
    folder = cache / f"view-{_code_digest()}"
    parts = sorted(folder.glob("part-*.parquet")) if folder.is_dir() else []
    done = pd.concat([pd.read_parquet(p) for p in parts], ignore_index=True) if parts else None
    have = set(done["id"]) if done is not None else set()
    todo = [i for i in items if i.id not in have]
    if todo:
        with tempfile.TemporaryDirectory(prefix="winnow-quality-view-") as tmp:
            inputs = write_inputs(todo, Path(tmp) / "in")
            run_chain(VIEW_CONFIG, inputs, Path(tmp) / "out")
            new = fates(todo, Path(tmp) / "out")
        folder.mkdir(parents=True, exist_ok=True)
        h = hashlib.blake2b("\n".join(i.id for i in todo).encode(), digest_size=8).hexdigest()
        new.to_parquet(folder / f"part-{h}.parquet")
        done = new if done is None else pd.concat([done, new], ignore_index=True)
    assert done is not None
    # labels as the corpus gives them now (a family or split may have been renamed since the part was written)
    labels = pd.DataFrame([{"id": i.id, "family": i.family, "group": i.group, "label": i.label, "split": i.split,
                            "url": i.url} for i in items])
    rows = done.drop_duplicates("id").drop(columns=["family", "group", "label", "split", "url"])
    return labels.merge(rows, on="id", how="left")
