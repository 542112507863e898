"""winnow's own image_text / interleaved / image shards read back as input of their kind."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from pipelines.config import load_config
from pipelines.readers import expand_inputs, input_kind, read_input
from pipelines.records import ImageRecord, ImageTextPair, InterleavedDoc, Segment, kind_of, schema_of, to_table
from pipelines.runner import RunOptions, run


def pairs(n: int, start: int = 0, dropped: set[int] = frozenset()) -> list[ImageTextPair]:
    return [ImageTextPair(id=f"p{i}", url=f"http://a.test/{i}", source=f"crawl.warc.gz@{i}", doc_id=f"d{i}",
                          image_url=f"http://a.test/{i}.png", alt=f"a grey heron standing in the reeds, picture {i}",
                          width=320, height=240, lang="en", lang_score=0.9,
                          dropped_by="alt_text_quality.short" if i in dropped else None)
            for i in range(start, start + n)]


def write(path: Path, records: list, kind: str, row_group_size: int | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(to_table(records, kind), path, row_group_size=row_group_size)
    return path


def test_kind_comes_from_the_footer(tmp_path):
    pair_shard = write(tmp_path / "out" / "image_text" / "part-0.parquet", pairs(2), "image_text")
    inter = write(tmp_path / "out" / "interleaved" / "part-0.parquet",
                  [InterleavedDoc(id="d0", url="http://a.test/", source="s@0",
                                  segments=[Segment(kind="text", text="hi"), Segment(kind="image", image_url="x")])],
                  "interleaved")
    image = write(tmp_path / "images" / "part-0.parquet",
                  [ImageRecord(id="p0", url="http://a.test/", source="s@0", image=b"\x89PNG", sha256="ab")], "image")
    corpus = tmp_path / "corpus.parquet"
    pq.write_table(pa.table({"text": ["plain corpus"]}), corpus)
    garbage = tmp_path / "garbage.parquet"
    garbage.write_bytes(b"not parquet at all")
    assert input_kind(str(pair_shard)) == "image_text"
    assert input_kind(str(inter)) == "interleaved"
    assert input_kind(str(image)) == "image"
    assert input_kind(str(corpus)) == "document"
    assert input_kind(str(garbage)) == "document"  # the documents reader turns it into a corrupt_input tombstone
    assert input_kind("not-there.parquet") == "document"  # by name only, as before


def test_every_column_kept_and_earlier_tombstones_left_out(tmp_path):
    shard = write(tmp_path / "part-0.parquet", pairs(5, dropped={1, 3}), "image_text")
    tables = list(read_input(str(shard), batch_rows=2))
    table = pa.concat_tables(tables)
    assert kind_of(table) == "image_text" and table.schema.equals(schema_of("image_text"), check_metadata=True)
    assert table.column("id").to_pylist() == ["p0", "p2", "p4"]
    assert table.column("alt").to_pylist()[0].startswith("a grey heron")
    assert table.column("width").to_pylist() == [320, 320, 320]
    assert all(t.num_rows <= 2 for t in tables)


def test_image_bytes_survive(tmp_path):
    blob = bytes(range(256)) * 4
    shard = write(tmp_path / "part-0.parquet",
                  [ImageRecord(id="p0", url="http://a.test/", source="s@0", image=blob, sha256="ab", width=5)],
                  "image")
    (table,) = read_input(str(shard))
    assert table.column("image").to_pylist() == [blob]


def test_damaged_row_group_ends_the_file_with_a_tombstone(tmp_path):
    shard = write(tmp_path / "part-0.parquet", pairs(6), "image_text", row_group_size=3)
    meta = pq.ParquetFile(shard).metadata
    assert meta.num_row_groups == 2
    second = meta.row_group(1).column(0)
    data = bytearray(shard.read_bytes())
    start = second.data_page_offset
    data[start:start + 64] = b"\xff" * 64  # the second row group's first page header
    shard.write_bytes(bytes(data))
    table = pa.concat_tables(read_input(str(shard)))
    assert table.column("id").to_pylist()[:3] == ["p0", "p1", "p2"]
    last = table.slice(table.num_rows - 1).to_pylist()[0]
    assert last["dropped_by"] == "read.corrupt_input" and last["source"].startswith("part-0.parquet@")
    assert table.num_rows == 4


def test_a_run_over_image_text_shards(tmp_path):
    """A second pipeline starts from the first one's image_text output: every pair reaches the step."""
    out1 = tmp_path / "first"
    short = ImageTextPair(id="short", url="http://a.test/s", source="s@9", image_url="http://a.test/s.png", alt="img")
    write(out1 / "image_text" / "part-0.parquet", [*pairs(3), short], "image_text")
    config = tmp_path / "alt.yaml"
    config.write_text(textwrap.dedent("""\
        steps:
          - use: filters.image_alt.AltTextQuality
    """))
    out2 = tmp_path / "second"
    stats = run(RunOptions(config=load_config(str(config)), inputs=expand_inputs([str(out1 / "image_text")]),
                           output=out2, local=True, progress=False))
    kept = pd.read_parquet(out2 / "image_text")
    assert sorted(kept["id"]) == ["p0", "p1", "p2"]
    assert (kept["width"] == 320).all()
    steps = {s["step"]: s for s in stats["steps"]}
    assert steps["read"]["in"] == 4
    assert steps["alt_quality"]["in"] == 4 and steps["alt_quality"]["kept"] == 3
    assert sum(steps["alt_quality"]["dropped"].values()) == 1
