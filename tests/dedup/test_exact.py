from datetime import UTC, datetime

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from dedup.exact import ExactDedup, normalize, normalize_url, text_digest
from pipelines.dataset import LocalDataset
from pipelines.records import Document, ImageTextPair, InterleavedDoc, Segment, from_table, to_table


def doc(i, text, day=None, dropped=None):
    when = datetime(2024, 1, day, tzinfo=UTC) if day else None
    return Document(id=i, url=f"http://h/{i}", source=f"f@{i}", fetched_at=when, text=text, dropped_by=dropped)


def run(stage, *batches):
    ds = LocalDataset([to_table(list(b), "document") for b in batches])
    return [r for t in stage.run(ds).tables() for r in from_table(t)]


def stage(tmp_path=None, annotate=False):
    s = ExactDedup()
    s.bind(annotate=annotate)
    if tmp_path is not None:
        s.bind_state(str(tmp_path), "w1", set())
    return s


def test_normalisation_folds_case_punctuation_space_and_width():
    assert normalize("Hello,   World!\n") == normalize("hello world") == "hello world"
    assert text_digest("ＡＢＣ def") == text_digest("abc  DEF.")
    assert text_digest("abc") != text_digest("abd")


def test_keeps_earliest_then_smallest_id_across_batches():
    rows = run(stage(), [doc("b", "Same text.", day=3), doc("z", "Other")],
               [doc("c", "same TEXT", day=2), doc("a", "same text", day=2), doc("n", "SAME text")])
    kept = sorted(r.id for r in rows if r.dropped_by is None)
    assert kept == ["a", "z"]
    dropped = {r.id: r for r in rows if r.dropped_by}
    assert set(dropped) == {"b", "c", "n"}
    assert all(r.dropped_by == "exact_dedup.exact_duplicate" for r in dropped.values())
    assert dropped["n"].drop_detail == "duplicate of a"  # undated rows lose to dated ones
    assert dropped["b"].text is None  # thin tombstone


def test_tombstones_pass_untouched_and_annotate_keeps_text():
    rows = run(stage(annotate=True), [doc("a", "x"), doc("b", "x"), doc("c", "x", dropped="langid.low_score")])
    by_id = {r.id: r for r in rows}
    assert by_id["c"].dropped_by == "langid.low_score"
    assert by_id["b"].dropped_by == "exact_dedup.exact_duplicate" and by_id["b"].text == "x"
    assert by_id["a"].dropped_by is None


def test_index_carries_over_to_later_waves_only_when_committed(tmp_path):
    first = stage(tmp_path)
    run(first, [doc("a", "alpha"), doc("b", "beta")])
    files = list(tmp_path.glob("w1-*.parquet"))
    # one file per bucket of the digests (two texts: two buckets here)
    assert sum(pq.read_table(f).num_rows for f in files) == 2 and all("of32-" in f.name for f in files)

    later = ExactDedup()
    later.bind()
    later.bind_state(str(tmp_path), "w2", {"w1"})
    rows = run(later, [doc("c", "Alpha!"), doc("d", "gamma")])
    assert {r.id: r.drop_detail for r in rows if r.dropped_by} == {"c": "kept in an earlier wave"}

    uncommitted = ExactDedup()
    uncommitted.bind()
    uncommitted.bind_state(str(tmp_path), "w3", set())  # w1 never committed: its index does not count
    rows = run(uncommitted, [doc("e", "alpha")])
    assert all(r.dropped_by is None for r in rows)


def test_empty_input():
    assert run(stage(), []) == []


def test_key_column_removed():
    ds = LocalDataset([to_table([doc("a", "x")], "document")])
    (table,) = list(stage().run(ds).tables())
    assert "_exact_key" not in table.column_names
    assert pc.all(pc.is_null(table["dropped_by"])).as_py()


def pair(i, image_url, alt, day=None):
    when = datetime(2024, 1, day, tzinfo=UTC) if day else None
    return ImageTextPair(id=i, url=f"http://page/{i}", source=f"f@{i}", fetched_at=when, image_url=image_url, alt=alt)


def run_kind(s, records, kind):
    return [r for t in s.run(LocalDataset([to_table(records, kind)])).tables() for r in from_table(t)]


def test_url_normalisation():
    assert normalize_url("HTTP://Example.COM:80/a.png?utm_source=x&b=2&a=1#top") == "https://example.com/a.png?a=1&b=2"
    assert normalize_url("https://example.com") == "https://example.com/"
    assert normalize_url("https://example.com:8443/x") != normalize_url("https://example.com/x")


def test_image_text_pairs_by_url_and_by_url_and_alt():
    pairs = [pair("a", "http://img.example/cat.png", "A cat", day=2), pair("b", "https://IMG.example/cat.png#x",
             "a cat!", day=3), pair("c", "http://img.example/cat.png?utm_medium=feed", "Another caption", day=1),
             pair("d", "http://img.example/dog.png", "A cat", day=1)]
    by_url = ExactDedup(kind="image_text")
    by_url.bind()
    rows = run_kind(by_url, pairs, "image_text")
    assert sorted(r.id for r in rows if r.dropped_by is None) == ["c", "d"]  # one pair per image
    by_pair = ExactDedup(kind="image_text", field=["image_url", "alt"])
    by_pair.bind()
    rows = run_kind(by_pair, pairs, "image_text")
    assert {r.id: r.drop_detail for r in rows if r.dropped_by} == {"b": "duplicate of a"}


def test_interleaved_by_joined_text():
    def inter(i, text, image):
        return InterleavedDoc(id=i, url=None, source=i, segments=[
            Segment(kind="text", text=text), Segment(kind="image", image_url=image)])
    s = ExactDedup(kind="interleaved")
    s.bind()
    rows = run_kind(s, [inter("a", "Same words.", "http://x/1"), inter("b", "same words", "http://x/2"),
                        inter("c", "other words", "http://x/1")], "interleaved")
    assert {r.id: r.dropped_by for r in rows} == {"a": None, "b": "exact_dedup.exact_duplicate", "c": None}
    assert next(r for r in rows if r.id == "b").segments == []


def test_dedup_against_an_earlier_output(tmp_path):
    run(stage(tmp_path), [doc("a", "alpha"), doc("b", "beta")])
    s = ExactDedup()
    s.bind()
    s.bind_state(str(tmp_path / "new"), "x1", set())
    s.bind_against([(str(tmp_path), {"w1"}), (str(tmp_path / "missing"), {"w9"})])
    rows = run(s, [doc("c", "ALPHA"), doc("d", "delta")])
    assert {r.id: r.drop_detail for r in rows if r.dropped_by} == {"c": "kept in an earlier wave"}


def test_a_group_reads_its_own_buckets_state_and_older_unbucketed_files(tmp_path):
    from dedup.exact import _files_of_bucket

    files = ("w1-b3of32-x.parquet", "w1-b4of32-y.parquet", "w0-abcdef.parquet", "w2-b4of8-z.parquet")
    assert _files_of_bucket(files, 3, 32) == ("w1-b3of32-x.parquet", "w0-abcdef.parquet", "w2-b4of8-z.parquet")
    # a state file written before digests were bucketed still drops its texts in a later wave
    pq.write_table(pa.table({"digest": [text_digest("alpha")]}), tmp_path / "w0-0123456789abcdef.parquet")
    later = ExactDedup(buckets=4)
    later.bind()
    later.bind_state(str(tmp_path), "w5", {"w0"})
    rows = run(later, [doc("c", "alpha"), doc("d", "delta")])
    assert {r.id: r.drop_detail for r in rows if r.dropped_by} == {"c": "kept in an earlier wave"}
    assert all("of4-" in f.name for f in tmp_path.glob("w5-*.parquet"))
