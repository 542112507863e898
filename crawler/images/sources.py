"""The rows of a ``winnow run`` output folder that reference an image, read in batches.

Two outputs reference images (pipelines/records.py): ``image_text`` (one pair per row: ``id``, ``doc_id``,
``image_url``, ``alt``, ``caption``, and the pair's ``text`` and ``text_source`` where the output has them) and
``interleaved`` (one document per row, its ``segments`` with ``kind == "image"``). Each becomes an ``ImageRef`` whose
``id`` is the one ``images`` rows carry: the pair's id, or ``"<interleaved id>/<segment index>"``. Only the needed
columns are read (for ``interleaved``, the segments' ``kind``, ``image_url`` and ``alt``, not their text),
``BATCH_ROWS`` rows at a time, so memory does not grow with the output.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow.parquet as pq

BATCH_ROWS = 1024
OUTPUTS = ("image_text", "interleaved")
COMMON = ["id", "url", "source", "training_allowed", "policy_signals", "dropped_by"]
COLUMNS = {
    "image_text": [*COMMON, "doc_id", "image_url", "alt", "caption"],
    "interleaved": [*COMMON, "segments.list.element.kind", "segments.list.element.image_url",
                    "segments.list.element.alt"],
}
# the pair's chosen text (extraction's ``pair_text``), read where the output has it: older outputs do not
OPTIONAL = {"image_text": ["text", "text_source"], "interleaved": []}
_NEEDED = {"image_text": {*COMMON, "doc_id", "image_url", "alt", "caption"}, "interleaved": {*COMMON, "segments"}}


class SourceError(ValueError):
    """OUT is not a winnow output, or one of its shards cannot be read; the message says which."""


@dataclass(slots=True)
class ImageRef:
    """One image reference: a row of ``images`` to be, before its image is fetched."""

    id: str
    output: str  # "image_text" | "interleaved"
    image_url: str | None
    page_url: str | None
    source: str
    doc_id: str | None
    segment: int | None
    alt: str | None
    caption: str | None
    training_allowed: bool | None
    text: str | None = None  # the pair's text (the alt, or the caption where the alt is junk); null from older outputs
    text_source: str | None = None
    policy_signals: list[str] = field(default_factory=list)
    dropped_by: str | None = None  # set in an annotate-mode output: the run dropped this row


def find_shards(out: Path) -> dict[str, list[Path]]:
    """``{output: shards}`` of a run's output folder; SourceError when it is not one or a shard is unreadable."""
    if not out.is_dir():
        raise SourceError(f"{out} is not a folder (expected a `winnow run` output folder)")
    present = [name for name in OUTPUTS if (out / name).is_dir()]
    if not present:
        raise SourceError(f"{out} is not a winnow output: it has no image_text/ or interleaved/ folder")
    shards = {name: sorted((out / name).glob("*.parquet")) for name in present}
    for name, paths in shards.items():
        for path in paths:
            try:
                columns = set(pq.read_schema(path).names)
            except (OSError, ValueError) as exc:  # ArrowInvalid is a ValueError
                raise SourceError(f"cannot read {path}: {str(exc).splitlines()[0]}") from None
            missing = _NEEDED[name] - columns
            if missing:
                raise SourceError(f"{path} is not a winnow {name} shard: no column(s) {', '.join(sorted(missing))}")
    return shards


def read_refs(shards: dict[str, list[Path]], batch_rows: int = BATCH_ROWS) -> Iterator[ImageRef]:
    """Every image reference, shard by shard, in row order."""
    for output, paths in shards.items():
        for path in paths:
            try:
                parquet = pq.ParquetFile(path)
                present = set(parquet.schema_arrow.names)
                columns = COLUMNS[output] + [c for c in OPTIONAL[output] if c in present]
                batches = parquet.iter_batches(batch_size=batch_rows, columns=columns)
                for batch in batches:
                    rows = batch.to_pylist()
                    yield from (_pair(row) for row in rows) if output == "image_text" else _segments(rows)
            except (OSError, ValueError) as exc:
                raise SourceError(f"cannot read {path}: {str(exc).splitlines()[0]}") from None


def _common(row: dict) -> dict:
    return {"page_url": row["url"], "source": row["source"], "training_allowed": row["training_allowed"],
            "policy_signals": list(row["policy_signals"] or []), "dropped_by": row["dropped_by"]}


def _pair(row: dict) -> ImageRef:
    return ImageRef(id=row["id"], output="image_text", image_url=row["image_url"], doc_id=row["doc_id"], segment=None,
                    alt=row["alt"], caption=row["caption"], text=row.get("text"), text_source=row.get("text_source"),
                    **_common(row))


def _segments(rows: list[dict]) -> Iterator[ImageRef]:
    for row in rows:
        common = _common(row)
        for index, segment in enumerate(row["segments"] or []):
            if segment["kind"] == "image":
                yield ImageRef(id=f"{row['id']}/{index}", output="interleaved", image_url=segment["image_url"],
                               doc_id=row["id"], segment=index, alt=segment["alt"], caption=None, **common)
