import pandas as pd
import pyarrow.parquet as pq

from pipelines.records import DOCUMENT_SCHEMA, Document, to_table
from pipelines.writer import ShardWriter, shard_wave


def docs(n, dropped_every=0):
    return to_table([Document(id=f"{i:04d}", url=None, source=f"in.jsonl@{i}", text="t" * 50,
                              dropped_by="langid.low_score" if dropped_every and i % dropped_every == 0 else None)
                     for i in range(n)], "document")


def test_bounded_shards_with_declared_schema(tmp_path):
    writer = ShardWriter(str(tmp_path), "w1", max_rows=40)
    tally = writer(docs(100, dropped_every=10)).to_pylist()
    shards = sorted((tmp_path / "text").glob("part-*.parquet"))
    assert len(shards) == 3  # 90 kept rows, 40 per shard
    assert all(shard_wave(p.name) == "w1" for p in shards)
    assert sum(pq.ParquetFile(p).metadata.num_rows for p in shards) == 90
    schema = pq.read_schema(shards[0])
    assert schema.equals(DOCUMENT_SCHEMA) and schema.metadata[b"winnow.kind"] == b"document"
    assert pq.ParquetFile(shards[0]).metadata.row_group(0).column(0).compression == "ZSTD"
    counts = {(t["input"], t["dropped_by"]): t["rows"] for t in tally if t["shard"] is None}
    assert counts == {("in.jsonl", None): 90, ("in.jsonl", "langid.low_score"): 10}
    assert not list((tmp_path / "text").glob(".*"))  # no temporaries left behind
    assert len(pd.read_parquet(tmp_path / "text")) == 90


def test_same_rows_same_shard_name(tmp_path):
    writer = ShardWriter(str(tmp_path), "w1")
    first = writer(docs(5)).column("shard").to_pylist()
    second = writer(docs(5)).column("shard").to_pylist()
    assert first == second  # a retried task overwrites, never duplicates
    assert len(list((tmp_path / "text").glob("*.parquet"))) == 1


def test_annotate_writes_tombstones(tmp_path):
    ShardWriter(str(tmp_path), "w1", annotate=True)(docs(10, dropped_every=2))
    table = pq.read_table(tmp_path / "text")
    assert table.num_rows == 10
    assert table.column("dropped_by").null_count == 5
