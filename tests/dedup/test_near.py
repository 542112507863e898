import random

import pyarrow as pa
import pytest

from dedup.near import MinHashDedup
from pipelines.dataset import LocalDataset
from pipelines.records import Document, InterleavedDoc, Segment, from_table, to_table
from tests.dedup import planted

RUNNERS = ["local", pytest.param("ray", marks=[pytest.mark.ray, pytest.mark.slow])]
REASON = "minhash_dedup.near_duplicate"


def doc(i, text, day=None, dropped=None, lang=None):
    return Document(id=i, url=f"http://h/{i}", source=f"f@{i}", fetched_at=planted.day(day) if day else None,
                    text=text, lang=lang, dropped_by=dropped)


def stage(tmp_path=None, wave="w1", done=(), annotate=False, **kw):
    s = MinHashDedup(**kw)
    s.bind(annotate=annotate)
    if tmp_path is not None:
        s.bind_state(str(tmp_path), wave, set(done))
    return s


def run(s, records, runner="local", request=None, batch=7, kind="document"):
    tables = [to_table(records[i:i + batch], kind) for i in range(0, len(records), batch)]
    if runner == "local":
        ds = LocalDataset(tables)
    else:
        request.getfixturevalue("ray_local")
        from pipelines.ray_data import RayDataset

        ds = RayDataset.from_tables(tables)
    return sorted((r for t in s.run(ds).tables() for r in from_table(t)), key=lambda r: r.id)


def dropped(rows):
    return {r.id: r.drop_detail for r in rows if r.dropped_by == REASON}


@pytest.fixture(scope="module")
def corpus():
    """20 distinct documents and, for 10 of them, variants at planted true Jaccard levels."""
    rng = random.Random(5)
    vocab = planted.vocabulary()
    bases = [planted.document(rng, vocab, 200) for _ in range(20)]
    records = [doc(f"b{i:02d}", t, day=2) for i, t in enumerate(bases)]
    truth = {}
    for i, target in enumerate([0.95, 0.9, 0.85, 0.7, 0.5, 0.3, 0.95, 0.9, 0.85, 0.3]):
        text, j = planted.variant(rng, vocab, bases[i], target)
        records.append(doc(f"v{i:02d}", text, day=3))
        truth[f"v{i:02d}"] = (f"b{i:02d}", j)
    rng.shuffle(records)
    return records, truth


@pytest.mark.parametrize("runner", RUNNERS)
@pytest.mark.parametrize("verify", [None, 0.8])
def test_planted_near_duplicates_found_and_distinct_kept(corpus, runner, verify, request):
    records, truth = corpus
    rows = run(stage(verify=verify), records, runner, request)
    assert len(rows) == len(records)
    got = dropped(rows)
    for vid, (bid, j) in truth.items():
        if j >= 0.84:
            assert got.get(vid) == f"near duplicate of {bid}", (vid, j)
        if j < 0.6 or (verify and j < 0.8):
            assert vid not in got, (vid, j)
    assert not any(i.startswith("b") for i in got)  # distinct documents, and the earlier copies, are kept
    assert all(r.text is None for r in rows if r.dropped_by)  # thin tombstones


@pytest.mark.parametrize("runner", RUNNERS)
def test_same_kept_set_whatever_the_order_and_batching(corpus, runner, request):
    records, _ = corpus
    first = run(stage(verify=0.8), records, runner, request, batch=5)
    shuffled = list(records)
    random.Random(1).shuffle(shuffled)
    again = run(stage(verify=0.8), shuffled, runner, request, batch=13)
    assert [(r.id, r.dropped_by, r.drop_detail) for r in first] == [(r.id, r.dropped_by, r.drop_detail) for r in again]


def test_keeper_is_earliest_then_smallest_id_and_undated_last():
    text = "the same words again and again for a good long while in this text"
    rows = run(stage(), [doc("c", text, day=5), doc("b", text + " x", day=5), doc("a", text + " y"),
                         doc("d", text + " z", day=9)])
    assert dropped(rows) == {"a": "near duplicate of b", "c": "near duplicate of b", "d": "near duplicate of b"}


def test_tombstones_empty_texts_and_annotate():
    text = "one two three four five six seven eight nine ten eleven twelve"
    rows = run(stage(annotate=True), [doc("a", text, day=1), doc("b", text + " more", day=2),
                                      doc("c", text, dropped="exact_dedup.exact_duplicate"), doc("e", ""),
                                      doc("f", "!!! ---")])
    by = {r.id: r for r in rows}
    assert by["b"].dropped_by == REASON and by["b"].text  # annotate keeps the text for tuning
    assert by["c"].dropped_by == "exact_dedup.exact_duplicate"
    assert by["e"].dropped_by is None and by["f"].dropped_by is None and by["a"].dropped_by is None


def test_empty_and_single_document_inputs(tmp_path):
    assert run(stage(tmp_path), []) == []
    (only,) = run(stage(tmp_path, wave="w2"), [doc("a", "just one document here")])
    assert only.dropped_by is None


def test_chinese_near_duplicates_by_characters():
    rng = random.Random(2)
    chars = "的一是不了人我在有他这为之大来以个中上们到说国和地也子时道出而要于就下得可你年生"
    base = "".join(rng.choice(chars) for _ in range(300))
    near = base[:150] + "改" + base[151:]
    rows = run(stage(), [doc("a", base, day=1, lang="zh"), doc("b", near, day=2, lang="zh"),
                         doc("c", "".join(rng.choice(chars) for _ in range(300)), day=1)])
    assert dropped(rows) == {"b": "near duplicate of a"}


@pytest.mark.parametrize("verify", [None, 0.8])
def test_later_waves_and_runs_match_against_earlier_ones(corpus, tmp_path, verify):
    records, truth = corpus
    bases = [r for r in records if r.id.startswith("b")]
    variants = [r for r in records if r.id.startswith("v")]
    run(stage(tmp_path, "w1", verify=verify), bases)
    rows = run(stage(tmp_path, "w2", done={"w1"}, verify=verify), variants)
    for vid, (bid, j) in truth.items():
        if j >= 0.84:
            assert dropped(rows).get(vid) == f"near duplicate of {bid}, written earlier"
        if j < 0.6:
            assert vid not in dropped(rows)
    # Uncommitted waves do not count; another output's committed waves do (--dedup-against).
    assert dropped(run(stage(tmp_path, "w3", done=set(), verify=verify), variants[:3])) == {}
    other = tmp_path / "other"
    s = stage(other, "x1", verify=verify)
    s.bind_against([(str(tmp_path), {"w1"})])
    assert set(dropped(run(s, variants))) == set(dropped(rows))


def test_earlier_index_with_other_parameters_is_refused(tmp_path):
    run(stage(tmp_path, "w1"), [doc("a", "some words to index in the first wave of all")])
    s = stage(tmp_path / "new", "w2", bands=10, rows=10)
    with pytest.raises(ValueError, match="parameters"):
        s.bind_against([(str(tmp_path), {"w1"})])


def test_interleaved_documents_by_joined_text():
    text = "an article with images between its paragraphs and enough words to shingle well"
    def inter(i, day, extra):
        return InterleavedDoc(id=i, url=None, source=i, fetched_at=planted.day(day), segments=[
            Segment(kind="text", text=text), Segment(kind="image", image_url=f"http://img/{i}.png"),
            Segment(kind="text", text="the second paragraph follows here" + extra)])
    s = MinHashDedup(kind="interleaved")
    s.bind()
    other = InterleavedDoc(id="c", url=None, source="c", segments=[Segment(kind="text", text="something else")])
    rows = run(s, [inter("a", 1, ""), inter("b", 2, " too"), other], kind="interleaved")
    assert {r.id: r.dropped_by for r in rows} == {"a": None, "b": REASON, "c": None}
    assert next(r for r in rows if r.id == "b").segments == []


def test_bad_parameters():
    for kw in ({"bands": 20, "rows": 8}, {"bands": 14}, {"threshold": 0.8, "bands": 4, "rows": 4},
               {"verify": 1.5}, {"kind": "page"}):
        with pytest.raises(ValueError):
            MinHashDedup(**({"num_perm": 112} if "bands" in kw and "rows" in kw else {}) | kw)
    assert MinHashDedup(threshold=0.72).params.bands == 12


def test_table_shape_is_kept():
    records = [doc("a", "alpha beta gamma delta epsilon zeta"), doc("b", "alpha beta gamma delta epsilon zeta eta")]
    (table,) = list(stage().run(LocalDataset([to_table(records, "document")])).tables())
    assert table.schema == to_table(records, "document").schema and isinstance(table, pa.Table)
