"""Input readers: WARC archives to Page rows, JSONL/Parquet corpora to Document rows, winnow's own shards to
their own kind.

The runner calls three functions:

- ``expand_inputs(paths)``: files, folders (searched recursively), glob patterns and ``*.paths[.gz]`` listings,
  local or in an object store, to a sorted list of absolute file paths and URLs (``readers/locate.py``);
- ``input_kind(path)``: ``"page"`` or ``"document"`` from the file name; for a Parquet file whose footer
  says it is a winnow ``image_text``, ``interleaved`` or ``image`` shard, that kind (``readers/shards.py``);
- ``input_labels(paths)``: each input's name in ``source`` and derived ids (its file name, or the end of its
  path that tells same-named inputs apart);
- ``read_input(path, batch_rows, name)``: record tables with exactly the schema of the input's kind
  (``records.PAGE_SCHEMA``, ``DOCUMENT_SCHEMA``, ...), at most ``batch_rows`` rows (and ``BATCH_CHARS``
  characters of HTML or text) each.

Reading never raises for bad data: a damaged file yields what could be read before the damage and
one ``read.corrupt_input`` tombstone, a skipped record yields a tombstone with its reason, so that
``stats.json`` accounts for every input record. Operational errors (a missing or unreadable file,
an unsupported file type) do raise: they are the caller's mistake, not the data's. Files are opened through
``pipelines.storage`` (local, object stores, HTTP), streamed. An input the store refuses or no longer has when its
turn comes (listed, then deleted; access denied to that key) is one ``read.unreadable_input`` tombstone naming the
URL and why, and the other inputs go on; a store that stops answering in the middle of a file (after
``pipelines.storage``'s retries) raises its ``StorageError``, so that the wave is not committed and a re-run reads
the file again.

Accepted file names (case-insensitive):

- pages: ``.warc``, ``.warc.gz`` (WARC 1.0/1.1, ISO 28500);
- documents: ``.jsonl`` / ``.ndjson`` / ``.jsonlines``, each optionally ``.gz``, ``.bz2``, ``.zst`` or
  ``.lz4`` compressed (the codecs ``pyarrow.input_stream(compression="detect")`` knows), and ``.parquet``.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pyarrow as pa

from pipelines import storage
from pipelines.readers.ids import stable_id
from pipelines.readers.locate import expand_one, subset
from pipelines.records import schema_of, to_table
from pipelines.storage_errors import StorageDenied, StorageNotFound

PAGE_SUFFIXES = (".warc", ".warc.gz")
_JSONL_BASES = (".jsonl", ".ndjson", ".jsonlines")
_COMPRESSIONS = ("", ".gz", ".bz2", ".zst", ".lz4")
DOCUMENT_SUFFIXES = (*(b + c for b in _JSONL_BASES for c in _COMPRESSIONS), ".parquet")
__all__ = ["expand_inputs", "input_kind", "input_labels", "read_input", "stable_id"]


def input_kind(path: str) -> str:
    """``"page"`` for WARC files, ``"document"`` for JSONL/Parquet, the kind in the footer for winnow's own
    ``image_text`` / ``interleaved`` / ``image`` shards (``pipelines.readers.shards``); ValueError for anything
    else."""
    name = storage.basename(path).lower()
    if name.endswith(PAGE_SUFFIXES):
        return "page"
    if name.endswith(DOCUMENT_SUFFIXES):
        if name.endswith(".parquet"):
            from pipelines.readers.shards import shard_kind

            return shard_kind(path) or "document"
        return "document"
    raise ValueError(
        f"unsupported input file type: {path} (supported: {', '.join(PAGE_SUFFIXES)}, "
        f"{', '.join(_JSONL_BASES)} [+ .gz/.bz2/.zst/.lz4], .parquet)"
    )


def _supported(path: str) -> bool:
    try:
        input_kind(path)
    except ValueError:
        return False
    return True


def expand_inputs(paths: list[str], base: str | None = None, first: int | None = None,
                  every: int | None = None) -> list[str]:
    """Files, folders (recursively), globs and listings, local or remote -> sorted, de-duplicated absolute paths
    and URLs (``readers/locate.py``). ``base``: where relative lines of a listing point; ``first``/``every``: a
    subset of the sorted list (every k-th, then the first N).

    Raises FileNotFoundError naming a path or pattern that matches nothing (or a folder holding no
    input files), ValueError naming a file of an unsupported type, StorageError when a store refuses or fails.
    """
    found: set[str] = set()
    for spec in paths:
        found.update(storage.absolute(p) for p in expand_one(spec, _supported, input_kind, base))
    return subset(sorted(found), first=first, every=every)


def _path_parts(path: str) -> tuple[str, ...]:
    """The parts of a path or URL, from the root (a URL's scheme and host form its first part)."""
    if storage.is_remote(path):
        url = urlsplit(path)
        return (f"{url.scheme}://{url.netloc.rsplit('@', 1)[-1]}", *[p for p in url.path.split("/") if p])
    return Path(os.path.abspath(path)).parts


def input_labels(paths: list[str]) -> dict[str, str]:
    """Each input's name in ``source`` (``<name>@<offset or line>``), in derived ids and in per-input stats: its
    file name, or where two inputs share a file name, the shortest end of its path that tells them apart
    (``a/data.jsonl`` and ``b/data.jsonl``). A bare file name for both would give them the same ids."""
    parts = {p: _path_parts(p) for p in paths}
    depth = dict.fromkeys(paths, 1)
    while True:
        labels = {p: "/".join(parts[p][-depth[p]:]).lstrip("/") for p in paths}
        seen = Counter(labels.values())
        clashing = [p for p in paths if seen[labels[p]] > 1 and depth[p] < len(parts[p])]
        if not clashing:
            return labels
        for p in clashing:
            depth[p] += 1


# A batch of pages or documents also closes at this many characters of HTML or text (issue 28): every batch in
# flight is held several times (Arrow, Python strings of up to 4 bytes a character, the pickles sent to the
# extraction workers), and the local runner keeps about four in flight (read ahead, in the step, its output ahead
# of the filters). At 256 pages of bench/e2e.py's input (about 250 KB of HTML each) that was some 200 MB of pages
# at once; at 8 Mi characters it is about 32 such pages, while a batch of short documents still fills its 256 rows.
# Two e2e input files, the run's process at its peak: 0.68 GB with 8 Mi and the smaller caches and spill budget (0.88
# GB with 16 Mi before those; 1.89 GB before issue 28's changes).
BATCH_CHARS = 8 * 2**20


def read_input(path: str, batch_rows: int = 256, name: str | None = None) -> Iterator[pa.Table]:
    """Record tables of at most ``batch_rows`` rows (and ``BATCH_CHARS`` characters of HTML or text, unless one
    record is larger); damage in the data becomes tombstone rows. ``name``: the input's label in ``source``
    (``input_labels``; default its file name)."""
    if batch_rows < 1:
        raise ValueError(f"batch_rows must be >= 1, got {batch_rows}")
    kind = input_kind(path)
    name = name or storage.basename(path)
    if not storage.is_remote(path) and not os.path.isfile(path):
        raise FileNotFoundError(f"input not found: {path}")
    started = False
    try:
        for table in _read_tables(path, kind, name, batch_rows):
            started = True
            yield table
    except (StorageNotFound, StorageDenied) as exc:
        if started:  # rows of this input went on already: the wave must not commit half of it
            raise
        yield _unreadable(kind, name, exc)


def _read_tables(path: str, kind: str, name: str, batch_rows: int) -> Iterator[pa.Table]:
    from pipelines.readers.shards import SHARD_KINDS, iter_shard_tables

    if kind in SHARD_KINDS:  # winnow's own shards: whole tables of their kind, every column kept
        yield from iter_shard_tables(path, kind, name, batch_rows)
        return
    # Imported here so that reading Parquet does not import warcio and vice versa.
    if kind == "page":
        from pipelines.readers.warc import iter_pages as rows
    else:
        from pipelines.readers.documents import iter_documents as rows
    batch: list = []
    size = 0
    for record in rows(path, name):
        batch.append(record)
        size += len(getattr(record, "html", None) or getattr(record, "text", None) or "")
        if len(batch) >= batch_rows or size >= BATCH_CHARS:
            yield _table(batch, kind)
            batch, size = [], 0
    if batch:
        yield _table(batch, kind)


def _unreadable(kind: str, name: str, exc: BaseException) -> pa.Table:
    """One ``read.unreadable_input`` tombstone: the store has no such object (any more), or refuses it."""
    import logging

    logging.getLogger(__name__).warning("input skipped: %s", exc)
    source = f"{name}@0"
    row = {f.name: None for f in schema_of(kind)}
    row.update(id=stable_id(source), source=source, dropped_by="read.unreadable_input", drop_detail=str(exc)[:200])
    for field in schema_of(kind):
        if not field.nullable and pa.types.is_list(field.type):
            row[field.name] = []
    return pa.Table.from_pylist([row], schema=schema_of(kind))


def _table(records: list, kind: str) -> pa.Table:
    """``to_table``, except that a record Arrow refuses (a value the readers did not foresee) becomes a
    ``read.bad_record`` tombstone instead of failing its whole batch, and so its wave on every re-run."""
    try:
        return to_table(records, kind)
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        pass
    out = []
    for record in records:
        try:
            to_table([record], kind)
            out.append(record)
        except (pa.ArrowException, TypeError, ValueError, OverflowError) as exc:
            detail = " ".join(f"{type(exc).__name__}: {exc}".split())[:200]
            out.append(type(record)(id=str(record.id), url=record.url if isinstance(record.url, str) else None,
                                    source=str(record.source), dropped_by="read.bad_record", drop_detail=detail))
    return to_table(out, kind)
