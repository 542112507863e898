"""``winnow inspect``: what is in a shard, a shard folder or a whole output folder."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import TextIO

import pyarrow as pa
import pyarrow.parquet as pq

from pipelines.records import OUTPUT_DIRS, kind_of

PREVIEW_CHARS = 160


def shard_files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    # Hidden temporaries (".part-*.tmp") are never shards; pyarrow skips them too.
    return sorted(p for p in path.glob("*.parquet") if not p.name.startswith((".", "_")))


def inspect_path(path: Path, out: TextIO, samples: int = 3) -> None:
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist")
    subdirs = [path / d for d in OUTPUT_DIRS.values() if (path / d).is_dir()] if path.is_dir() else []
    if subdirs:  # a whole output folder
        stats = path / "stats.json"
        if stats.is_file():
            data = json.loads(stats.read_text())
            out.write(f"{path}: outputs {json.dumps(data.get('outputs', {}))}\n")
            for err in data.get("errors", []):
                out.write(f"  error: {err}\n")
        for sub in subdirs:
            inspect_path(sub, out, samples)
        return
    files = shard_files(path)
    if not files:
        out.write(f"{path}: no Parquet shards\n")
        return
    rows = sum(pq.ParquetFile(f).metadata.num_rows for f in files)
    schema = pq.read_schema(files[0])
    try:
        kind = kind_of(schema)
    except ValueError:
        kind = "unknown (not written by winnow)"
    out.write(f"\n== {path}  ({len(files)} shard(s), {rows} rows, kind: {kind})\n")
    out.write("schema:\n")
    for field in schema:
        out.write(f"  {field.name}: {field.type}\n")
    for column in ("lang", "dropped_by"):
        if column in schema.names:
            counts = _value_counts(files, column)
            shown = ", ".join(f"{k}={v}" for k, v in counts.most_common(15))
            out.write(f"{column}: {shown}\n")
    for line in _kind_summary(files, kind):
        out.write(line + "\n")
    if samples:
        out.write("sample rows:\n")
        table = pq.ParquetFile(files[0]).read_row_group(0) if rows else pa.table({})
        for row in table.slice(0, samples).to_pylist():
            out.write("  " + json.dumps(_preview(row), ensure_ascii=False, default=str) + "\n")


def _kind_summary(files: list[Path], kind: str) -> list[str]:
    """What a user checks first in each output: how images and text relate."""
    if kind == "image_text":
        table = pa.concat_tables(pq.read_table(f, columns=["doc_id", "image_url", "caption", "width"]) for f in files)
        if not table.num_rows:
            return []
        return [f"image_text: {len(set(table.column('image_url').to_pylist()))} distinct images from "
                f"{len(set(table.column('doc_id').to_pylist()))} pages; with caption "
                f"{table.num_rows - table.column('caption').null_count}, with width "
                f"{table.num_rows - table.column('width').null_count}"]
    if kind == "interleaved":
        segments = [s for f in files for s in pq.read_table(f, columns=["segments"]).column("segments").to_pylist()]
        if not segments:
            return []
        images = [sum(1 for seg in doc or [] if seg["kind"] == "image") for doc in segments]
        texts = [sum(1 for seg in doc or [] if seg["kind"] == "text") for doc in segments]
        return [f"interleaved: {len(segments)} documents, {sum(texts) / len(segments):.1f} text and "
                f"{sum(images) / len(segments):.1f} image segments per document; "
                f"{sum(1 for n in images if n)} with at least one image"]
    return []


def _preview_segments(segments: list[dict]) -> list[str]:
    return [f"[img {s['image_url']} alt={s['alt']!r}]" if s["kind"] == "image"
            else (s["text"] or "")[:60].replace("\n", " ") for s in segments[:6]] + (["…"] if len(segments) > 6 else [])


def _value_counts(files: list[Path], column: str) -> Counter[str]:
    counts: Counter[str] = Counter()
    for f in files:
        for value in pq.read_table(f, columns=[column]).column(column).to_pylist():
            counts[str(value)] += 1
    return counts


def _preview(row: dict) -> dict:
    out = {}
    for key, value in row.items():
        if key == "segments" and isinstance(value, list):
            value = _preview_segments(value)
        elif isinstance(value, str) and len(value) > PREVIEW_CHARS:
            value = value[:PREVIEW_CHARS].replace("\n", " ") + "…"
        out[key] = value
    return out
