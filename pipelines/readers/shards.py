"""winnow's own output shards as input of their own kind (issue 17).

A Parquet file whose schema metadata says ``winnow.kind`` is ``image_text``, ``interleaved`` or ``image`` (every
shard ``winnow run`` and ``winnow images fetch`` write) is read back as tables of that kind, every column kept, so
that a second pipeline can start where a first one ended: ``winnow run images --input OUT/image_text`` fetches and
scores the pairs of an earlier run. ``source`` becomes ``<shard>@<row>`` (0-based, as for Parquet documents): the
runner counts every row against the input its source names. Text shards (kind ``document``) keep going through
the documents reader, which reads any Parquet corpus with a ``text`` column.

Rows that an earlier run wrote as tombstones (annotate mode: ``dropped_by`` set) were dropped there; they are
left out here and their number is logged, so that this run's statistics count only this run's drops. A damaged
row group ends the file with one ``read.corrupt_input`` tombstone, as the documents reader does, after every row
read before it; a file that is not Parquet at all is one such tombstone.
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Iterator

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipelines import storage
from pipelines.records import KIND_KEY, conform, schema_of
from pipelines.storage_errors import StorageDenied, StorageError, StorageNotFound

log = logging.getLogger(__name__)

SHARD_KINDS = ("image_text", "interleaved", "image")
_DETAIL_MAX = 200


@functools.lru_cache(maxsize=4096)
def _kind_in_footer(path: str, mtime_ns: int, size: int) -> str | None:
    try:
        meta = pq.read_schema(path).metadata or {}
    except Exception:  # not Parquet, or damaged: the documents reader turns it into a tombstone
        return None
    kind = meta.get(KIND_KEY, b"").decode("utf-8", "replace")
    return kind if kind in SHARD_KINDS else None


@functools.lru_cache(maxsize=4096)
def _remote_kind(url: str) -> str | None:
    try:
        meta = storage.read_schema(url).metadata or {}
    except StorageError as exc:
        if isinstance(exc, StorageNotFound | StorageDenied):
            return None  # not there or not ours to read: the reader turns it into its tombstone
        raise
    except Exception:
        return None
    kind = meta.get(KIND_KEY, b"").decode("utf-8", "replace")
    return kind if kind in SHARD_KINDS else None


def shard_kind(path: str) -> str | None:
    """The record kind of a winnow shard at ``path`` (``image_text``, ``interleaved``, ``image``), or None for
    anything else (a plain Parquet corpus, a text shard, a file that is not there or not Parquet)."""
    if storage.is_remote(path):
        return _remote_kind(path)
    try:
        st = os.stat(path)
    except OSError:
        return None
    return _kind_in_footer(os.path.abspath(path), st.st_mtime_ns, st.st_size)


def iter_shard_tables(path: str, kind: str, name: str, batch_rows: int) -> Iterator[pa.Table]:
    """Tables of ``kind`` (at most ``batch_rows`` rows each) from one shard; never raises for bad data."""
    try:
        parquet = storage.parquet_file(path)
    except StorageError:
        raise  # the store's failure, not the file's damage (read_input decides)
    except Exception as exc:
        yield _corrupt(kind, name, 0, exc)
        return
    row = 0
    skipped = 0
    # One row group at a time, so that damage in a later group costs only the rows from there on.
    for group in range(parquet.num_row_groups):
        batches = parquet.iter_batches(batch_size=batch_rows, row_groups=[group])
        while True:
            try:
                batch = next(batches)
            except StopIteration:
                break
            except StorageError:
                raise
            except Exception as exc:
                yield _corrupt(kind, name, row, exc)
                return
            table = pa.Table.from_batches([batch])
            # This run's provenance, as the documents reader writes it: the runner counts each row against the
            # input named in its source. The earlier run's source stays reachable through the id.
            sources = pa.array([f"{name}@{row + i}" for i in range(table.num_rows)], pa.string())
            row += table.num_rows
            table = table.set_column(table.column_names.index("source"), "source", sources) \
                if "source" in table.column_names else table.append_column("source", sources)
            if "dropped_by" in table.column_names:
                live = pc.is_null(table.column("dropped_by"))
                skipped += table.num_rows - pc.sum(live.cast(pa.int64())).as_py()
                table = table.filter(live)
            if table.num_rows:
                yield conform(table, kind)
    if skipped:
        log.info("%s: %d rows an earlier run had dropped (annotate mode) left out", name, skipped)


def _corrupt(kind: str, name: str, row: int, exc: BaseException) -> pa.Table:
    detail = " ".join(f"{type(exc).__name__}: {exc}".split())[:_DETAIL_MAX]
    source = f"{name}@{row}"
    row_values = {f.name: None for f in schema_of(kind)}
    row_values.update(id=source, source=source, dropped_by="read.corrupt_input", drop_detail=detail)
    if "policy_signals" in row_values:
        row_values["policy_signals"] = []
    return pa.Table.from_pylist([row_values], schema=schema_of(kind))
