"""Bucketed state files of the dedup stages (MinHash, images), in the output's ``_state/<stage>/``.

Every wave writes, per bucket, ``<wave>-bands-b<NNN>.parquet`` (band key, document key of every document that
reached the stage alive) and, with verification, ``<wave>-shingles-<hash>.parquet`` per signature batch (document
key, its shingle hashes; one row group per bucket, so a lookup reads only its bucket's row group of each file,
and the sets never go through a shuffle). Later waves, and later runs given ``--dedup-against``, read only the
files of *committed* waves (the runner's ``_progress/`` records) and only the bucket they work on: an earlier
corpus is looked up, never re-hashed or re-shuffled. File names start with the wave id, so the runner's clean-up
of an interrupted wave removes them. ``<wave>-labels-b<NNN>.parquet`` holds one wave's decisions (dropped
document -> keeper).

The stage's parameters are written into every file's metadata; a previous output made with other parameters is
refused (its band keys would silently never match).

The state folder may be in an object store (an output on ``s3://``): every file is read and written through
``pipelines.storage``, each written whole or not at all, so Ray workers on any node share the index through the
store.
"""

from __future__ import annotations

import functools
import json
import re
from collections import defaultdict

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipelines import storage

PARAMS_KEY = b"winnow.minhash"
_NAME = re.compile(r"^(?P<wave>[^-]+)-(?P<kind>bands|shingles|labels)-(b(?P<bucket>\d+)|[0-9a-f]+)\.parquet$")
BUCKETS_KEY = b"winnow.buckets"  # row group i of a shingles file holds bucket BUCKETS[i]

BANDS_SCHEMA = pa.schema([pa.field("key", pa.uint64()), pa.field("dkey", pa.string())])
SHINGLES_SCHEMA = pa.schema([pa.field("dkey", pa.string()), pa.field("shingles", pa.list_(pa.uint32()))])


def file_name(wave: str, kind: str, bucket: int) -> str:
    return f"{wave}-{kind}-b{bucket:03d}.parquet"


def write(folder: str, name: str, table: pa.Table, params: dict[str, object]) -> None:
    """Whole or not at all (pipelines.storage.writer): a retried task overwrites its own earlier attempt."""
    meta = {**(table.schema.metadata or {}), PARAMS_KEY: json.dumps(params, sort_keys=True).encode()}
    storage.write_parquet(table.replace_schema_metadata(meta), storage.join(folder, name), compression="zstd")


def committed(folders: list[tuple[str, set[str]]], kind: str) -> dict[int, tuple[str, ...]]:
    """bucket -> the ``kind`` files of committed waves in ``folders`` (each with its set of committed waves)."""
    out: dict[int, list[str]] = defaultdict(list)
    for folder, waves in folders:
        for name in storage.list_names(folder):
            m = _NAME.match(name)
            if m and m["kind"] == kind and m["wave"] in waves:
                out[int(m["bucket"]) if m["bucket"] else -1].append(storage.join(folder, name))
    return {b: tuple(files) for b, files in out.items()}


def wave_files(folder: str, wave: str, kind: str | None = None) -> tuple[str, ...]:
    """The files of ``wave`` in ``folder`` (of one ``kind``: bands, shingles, labels), sorted."""
    prefix = f"{wave}-{kind}-" if kind else f"{wave}-"
    return tuple(storage.join(folder, n) for n in storage.list_names(folder) if n.startswith(prefix))


def remove_wave_files(folder: str, wave: str) -> None:
    """Remove what an earlier attempt at ``wave`` left in ``folder``."""
    for path in wave_files(folder, wave):
        storage.remove(path)


def has_files(folder: str) -> bool:
    return bool(storage.list_names(folder))


def write_by_bucket(folder: str, name: str, table: pa.Table, buckets: pa.Array, params: dict[str, object]) -> None:
    """``table`` sorted by bucket, one row group per bucket, the bucket list in the metadata (uncompressed: hash
    values do not compress)."""
    order = pc.sort_indices(buckets)
    table = table.take(order)
    sorted_buckets = buckets.take(order).to_numpy(zero_copy_only=False)
    starts = np.flatnonzero(np.concatenate(([True], sorted_buckets[1:] != sorted_buckets[:-1])))
    ends = np.append(starts[1:], len(sorted_buckets))
    present = [int(sorted_buckets[i]) for i in starts]
    meta = {PARAMS_KEY: json.dumps(params, sort_keys=True).encode(), BUCKETS_KEY: json.dumps(present).encode()}
    with storage.writer(storage.join(folder, name)) as fh, \
            pq.ParquetWriter(fh, table.schema.with_metadata(meta), compression="none") as writer:
        for start, end in zip(starts, ends, strict=True):
            writer.write_table(table.slice(start, end - start), row_group_size=table.num_rows + 1)


def read_bucket(paths: tuple[str, ...], bucket: int, schema: pa.Schema) -> pa.Table:
    """The row group of ``bucket`` of every file written by ``write_by_bucket``."""
    parts = []
    for p in paths:
        f = storage.parquet_file(p)
        present = json.loads((f.schema_arrow.metadata or {}).get(BUCKETS_KEY, b"[]"))
        if bucket in present:
            parts.append(f.read_row_group(present.index(bucket)).cast(schema))
    return pa.concat_tables(parts) if parts else schema.empty_table()


def check_params(files: dict[int, tuple[str, ...]], params: dict[str, object], where: str) -> None:
    """Refuse state written with other dedup parameters."""
    for paths in files.values():
        meta = storage.read_schema(paths[0]).metadata or {}
        found = json.loads(meta.get(PARAMS_KEY, b"{}"))
        if found != params:
            raise ValueError(f"{where} was made with dedup parameters {found}, this stage uses {params}: "
                             "band keys would never match; use the same parameters")
        return


def read(paths: tuple[str, ...], schema: pa.Schema) -> pa.Table:
    """The files concatenated, with ``schema``."""
    tables = [storage.read_parquet(p, schema=schema) for p in paths]
    return pa.concat_tables(tables).replace_schema_metadata(None) if tables else schema.empty_table()


@functools.lru_cache(maxsize=4)
def read_cached(paths: tuple[str, ...], schema: pa.Schema) -> pa.Table:
    """``read``, once per worker process (a wave's decisions are looked up by every batch of its documents)."""
    return read(paths, schema)


def fresh_labels(table: pa.Table, prior: str, buckets: int) -> pa.Table:
    """A component-label table (node, root) without the nodes written earlier (their keys start with ``prior``),
    with the bucket column of each node: the decisions this wave writes."""
    from dedup.components import BUCKET, buckets_of

    fresh = table.filter(pc.invert(pc.starts_with(table.column("node"), prior)))
    return fresh.append_column(BUCKET, buckets_of(fresh.column("node"), buckets))


def write_labels(work_dir: str, wave: str, table: pa.Table, params: dict) -> pa.Table:
    """One labels file per bucket of ``table`` (``fresh_labels``' output); the rows written, as ``{"n": [...]}``."""
    from dedup.components import BUCKET, LABEL_SCHEMA

    for b in pc.unique(table.column(BUCKET)).to_pylist():
        rows = table.filter(pc.equal(table.column(BUCKET), b)).select(["node", "root"]).cast(LABEL_SCHEMA)
        write(work_dir, file_name(wave, "labels", b), rows, params)
    return pa.table({"n": [table.num_rows]})
