"""Parquet shard writer.

Shards are written with the declared schema (zstd), at most ``max_rows`` rows and about
``max_bytes`` of in-memory Arrow data each, through ``pipelines.storage.writer``: on a local disk to a
hidden temporary name and then renamed, on an object store uploaded in one ``put`` at the end, so a crash
never leaves a half-written file that looks complete. Which shards count is the runner's commit record.
A shard's name is a hash of its wave and the ids it holds, so a retried Ray task overwrites its own
earlier attempt instead of adding a second copy of the same rows.

The writer returns a small tally table for each batch (kind, dropped_by, rows, shard): the run's
statistics are computed from it, so they count exactly what reached the output.
"""

from __future__ import annotations

import hashlib

import pyarrow as pa
import pyarrow.compute as pc

from pipelines import storage
from pipelines.records import OUTPUT_DIRS, kind_of, schema_of

TALLY_SCHEMA = pa.schema(
    [
        pa.field("kind", pa.string()),
        pa.field("input", pa.string()),  # the input file a row came from (``source`` before "@")
        pa.field("dropped_by", pa.string()),
        pa.field("detail", pa.string()),  # only for read errors, so stats can name them
        pa.field("rows", pa.int64()),
        pa.field("shard", pa.string()),
        # Counts that are not rows, e.g. "pii_redacted.EMAIL": spans redacted per type in kept rows.
        pa.field("metric", pa.string()),
    ]
)
# List columns whose values are counted into metrics ("<column>.<value>") over the rows written.
COUNTED_LISTS = ("pii_redacted", "extract_flags")
SHARD_PREFIX = "part-"


def shard_wave(name: str) -> str | None:
    """``part-<wave>-<hash>.parquet`` -> ``<wave>``."""
    if not (name.startswith(SHARD_PREFIX) and name.endswith(".parquet")):
        return None
    return name[len(SHARD_PREFIX):].split("-", 1)[0]


# The config's ``output:`` settings and their defaults (pipelines/config.py checks their ranges).
SHARD_DEFAULTS = {"max_rows_per_shard": 100_000, "max_bytes_per_shard": 256 * 2**20, "compression_level": 3}


def shard_settings(output: dict) -> dict:
    """A config's ``output:`` section over ``SHARD_DEFAULTS``."""
    return {**SHARD_DEFAULTS, **{k: v for k, v in output.items() if k in SHARD_DEFAULTS}}


class ShardWriter:
    """A picklable table -> tally-table function (one per wave)."""

    def __init__(self, output_dir: str, wave: str, annotate: bool = False,
                 max_rows: int = SHARD_DEFAULTS["max_rows_per_shard"],
                 max_bytes: int = SHARD_DEFAULTS["max_bytes_per_shard"],
                 compression_level: int = SHARD_DEFAULTS["compression_level"]) -> None:
        self.output_dir = output_dir
        self.wave = wave
        self.annotate = annotate
        self.max_rows = max_rows
        self.max_bytes = max_bytes
        self.compression_level = compression_level

    def __call__(self, table: pa.Table) -> pa.Table:
        kind = kind_of(table)
        tally = _count_drops(table, kind)
        if kind not in OUTPUT_DIRS:
            # An intermediate kind left over (e.g. pages with no extract step): config validation
            # refuses such pipelines, so reaching here means a bug; count, never write.
            raise ValueError(f"records of kind {kind!r} reached the writer; it writes {sorted(OUTPUT_DIRS)}")
        rows = table if self.annotate else table.filter(pc.is_null(table.column("dropped_by")))
        # Enforce the declared schema (and its kind metadata, which a shuffle may not carry).
        schema = schema_of(kind)
        rows = rows.select(schema.names).cast(schema)
        shards = [self._write(chunk, kind) for chunk in self._chunks(rows)]
        extra = [_tally_row(kind, shard=s) for s in shards]
        kept = rows.filter(pc.is_null(rows.column("dropped_by"))) if self.annotate else rows
        for column in COUNTED_LISTS:
            if column in kept.column_names and kept.num_rows:
                values = pc.list_flatten(kept.column(column))
                for item in pc.value_counts(values).to_pylist():
                    extra.append(_tally_row(kind, rows=item["counts"], metric=f"{column}.{item['values']}"))
        if extra:
            tally = pa.concat_tables([tally, pa.Table.from_pylist(extra, schema=TALLY_SCHEMA)])
        return tally

    def _chunks(self, table: pa.Table) -> list[pa.Table]:
        if table.num_rows == 0:
            return []
        per_row = max(1, table.nbytes // table.num_rows)
        step = max(1, min(self.max_rows, self.max_bytes // per_row))
        return [table.slice(i, step) for i in range(0, table.num_rows, step)]

    def _write(self, chunk: pa.Table, kind: str) -> str:
        ids = chunk.column("id").to_pylist()
        digest = hashlib.blake2b("\n".join(ids).encode(), digest_size=8).hexdigest()
        name = f"{SHARD_PREFIX}{self.wave}-{digest}.parquet"
        storage.write_parquet(chunk, storage.join(self.output_dir, OUTPUT_DIRS[kind], name), compression="zstd",
                              compression_level=self.compression_level)
        return f"{OUTPUT_DIRS[kind]}/{name}"


def _tally_row(kind: str, rows: int = 0, shard: str | None = None, metric: str | None = None) -> dict:
    return {"kind": kind, "input": None, "dropped_by": None, "detail": None, "rows": rows, "shard": shard,
            "metric": metric}


# Drop reasons whose details are kept in the stats (errors a user must be able to find).
NAMED_ERRORS = ("read.corrupt_input", "read.unreadable_input")


def _count_drops(table: pa.Table, kind: str) -> pa.Table:
    if table.num_rows == 0:
        return TALLY_SCHEMA.empty_table()
    dropped_by = table.column("dropped_by")
    named = pc.is_in(dropped_by, pa.array(NAMED_ERRORS))
    detail = pc.if_else(named, pc.binary_join_element_wise(table.column("source"), table.column("drop_detail"),
                                                            ": "), pa.scalar(None, pa.string()))
    inputs = pc.replace_substring_regex(table.column("source"), r"@[^@]*$", "")
    keys = pa.table({"input": inputs, "dropped_by": dropped_by, "detail": detail})
    counts = keys.group_by(["input", "dropped_by", "detail"], use_threads=False).aggregate([([], "count_all")])
    n = counts.num_rows
    return pa.table(
        {
            "kind": [kind] * n,
            "input": counts.column("input"),
            "dropped_by": counts.column("dropped_by"),
            "detail": counts.column("detail"),
            "rows": counts.column("count_all").cast(pa.int64()),
            "shard": pa.nulls(n, pa.string()),
            "metric": pa.nulls(n, pa.string()),
        },
        schema=TALLY_SCHEMA,
    )
