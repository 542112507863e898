import hashlib
import io
import random
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
import sklearn.datasets
from PIL import Image

from dedup.image_hash import hamming, perceptual_hashes
from dedup.image_keys import alt_rank, band_keys, band_slices, id_of, node_keys
from dedup.images import ImageDedup
from pipelines.dataset import LocalDataset
from pipelines.records import ImageRecord, from_table, to_table

RUNNERS = ["local", pytest.param("ray", marks=[pytest.mark.ray, pytest.mark.slow])]
EXACT = "image_dedup.duplicate"
NEAR = "image_dedup.near_duplicate"


@pytest.fixture(scope="module")
def photos():
    """scikit-learn's two sample photographs (installed with it, nothing downloaded)."""
    folder = Path(sklearn.datasets.__file__).parent / "images"
    return {n: Image.open(folder / f"{n}.jpg").convert("RGB") for n in ("china", "flower")}


def jpeg(image, quality=90, fmt="JPEG"):
    buf = io.BytesIO()
    image.save(buf, fmt, **({"quality": quality} if fmt != "PNG" else {}))
    return buf.getvalue()


def rec(i, data, alt=None, clip=None, **kw):
    image = Image.open(io.BytesIO(data))
    ph, dh = perceptual_hashes(image)
    fields = dict(id=i, url=f"http://site/{i}", source="test", output="image_text", image_url=f"http://img/{i}",
                  alt=alt, clip_score=clip, width=image.width, height=image.height, original_width=image.width,
                  original_height=image.height, image=data, sha256=hashlib.sha256(data).hexdigest(), phash=ph,
                  dhash=dh)
    return ImageRecord(**(fields | kw))


def stage(tmp_path=None, wave="w1", done=(), annotate=False, **kw):
    s = ImageDedup(**kw)
    s.bind(annotate=annotate)
    if tmp_path is not None:
        s.bind_state(str(tmp_path), wave, set(done))
    return s


def run(s, records, runner="local", request=None, batch=3):
    tables = [to_table(records[i:i + batch], "image") for i in range(0, len(records), batch)]
    if runner == "local":
        ds = LocalDataset(tables)
    else:
        request.getfixturevalue("ray_local")
        from pipelines.ray_data import RayDataset

        ds = RayDataset.from_tables(tables)
    return sorted((r for t in s.run(ds).tables() for r in from_table(t)), key=lambda r: r.id)


def drops(rows):
    return {r.id: (r.dropped_by, r.drop_detail) for r in rows if r.dropped_by}


@pytest.fixture(scope="module")
def planted(photos):
    """Distinct crops of both photos (overlapping ones among them) and planted copies of two of them."""
    china, flower = photos["china"], photos["flower"]
    crops = {"a": china.crop((0, 0, 320, 240)), "b": china.crop((320, 187, 640, 427)),
             "c": flower.crop((100, 50, 420, 290)), "d": flower.crop((260, 150, 580, 390)),  # overlaps c
             "e": china.crop((200, 100, 440, 340))}  # overlaps a and b
    base = {k: jpeg(v) for k, v in crops.items()}
    small = crops["a"].resize((160, 120), Image.Resampling.LANCZOS)
    w, h = crops["c"].size
    records = [rec(f"{k}0", data, alt=f"photo {k} of the sample set") for k, data in base.items()]
    records += [
        rec("a1", jpeg(small, 40), alt="a smaller copy of a"),  # resized 0.5x and re-encoded at quality 40
        rec("a2", jpeg(crops["a"], fmt="PNG"), alt="png copy"),  # re-encoded as PNG
        rec("c1", jpeg(crops["c"].crop((6, 5, w - 8, h - 4)), 70), alt="cropped copy of c"),  # 2-3% a side
        rec("b1", base["b"], alt="the same bytes as b"),  # exact copy
    ]
    return records


@pytest.mark.parametrize("runner", RUNNERS)
def test_exact_and_near_duplicates_found_and_distinct_images_kept(planted, runner, request):
    rows = run(stage(), planted, runner, request)
    assert len(rows) == len(planted)
    got = drops(rows)
    assert got["a1"][0] == NEAR and got["a1"][1] == "near duplicate of a0"
    assert got["a2"][0] == NEAR and got["c1"] == (NEAR, "near duplicate of c0")
    assert got["b1"][0] == EXACT and got["b1"][1] == "duplicate of b0"
    assert set(got) == {"a1", "a2", "c1", "b1"}  # the overlapping crops d0 and e0 are different images: kept
    assert all(r.image is None for r in rows if r.dropped_by) and all(r.image for r in rows if not r.dropped_by)


def test_copies_really_are_near_in_hash_and_distinct_ones_far(planted):
    by = {r.id: r for r in planted}
    assert hamming(by["a0"].phash, by["a1"].phash) <= 12 and hamming(by["a0"].dhash, by["a1"].dhash) <= 12
    assert hamming(by["c0"].phash, by["d0"].phash) > 12 or hamming(by["c0"].dhash, by["d0"].dhash) > 12


@pytest.mark.parametrize("runner", RUNNERS)
def test_same_decisions_whatever_the_order_and_batching(planted, runner, request):
    first = run(stage(), planted, runner, request, batch=2)
    shuffled = list(planted)
    random.Random(3).shuffle(shuffled)
    again = run(stage(), shuffled, runner, request, batch=5)
    assert [(r.id, r.dropped_by, r.drop_detail) for r in first] == [(r.id, r.dropped_by, r.drop_detail)
                                                                    for r in again]


def test_keeper_highest_clip_score_even_if_smaller(photos):
    big = photos["china"].crop((0, 0, 400, 300))
    rows = run(stage(), [rec("x", jpeg(big), alt="a long and good alt text here", clip=0.21),
                         rec("y", jpeg(big.resize((200, 150)), 60), alt="tiny", clip=0.33),
                         rec("z", jpeg(big, 80), alt=None, clip=None)])
    assert drops(rows) == {"x": (NEAR, "near duplicate of y"), "z": (NEAR, "near duplicate of y")}


def test_keeper_without_scores_best_alt_then_larger_then_id(photos):
    img = photos["flower"].crop((100, 50, 420, 290))
    data = jpeg(img)
    # Same bytes, many alts: the one passing DataComp's rule with the most words wins.
    rows = run(stage(), [rec("p", data, alt="IMG_0042.jpg"), rec("q", data, alt="a red flower in the sun"),
                         rec("r", data, alt="a red flower"), rec("s", data, alt=None)])
    assert {k: v[1] for k, v in drops(rows).items()} == {"p": "duplicate of q", "r": "duplicate of q",
                                                          "s": "duplicate of q"}
    # Equal alts: the larger image; then the smallest id.
    rows = run(stage(), [rec("m", jpeg(img.resize((160, 120)), 85), alt="same words for both"),
                         rec("n", jpeg(img, 85), alt="same words for both"), rec("o", jpeg(img, 85),
                                                                                 alt="same words for both")])
    assert drops(rows) == {"m": (NEAR, "near duplicate of n"), "o": (EXACT, "duplicate of n")}


def test_alt_rule_and_node_order():
    assert alt_rank("a red flower") == (True, 3)
    assert alt_rank("two words") == (False, 2)
    assert alt_rank("a b c") == (False, 3)  # 3 words but only 5 characters
    assert alt_rank(None, "caption used when alt is empty") == (True, 6)
    rows = [ImageRecord(id=i, url=None, source="t", clip_score=s, sha256="ab") for i, s in
            (("n1", -0.5), ("n2", 0.1), ("n3", None), ("n4", 0.9), ("n5", -0.01))]
    keys = node_keys(to_table(rows, "image"))
    assert [id_of(k) for k in sorted(keys)] == ["n4", "n2", "n5", "n1", "n3"]


def test_rows_without_hashes_and_dropped_rows_pass_untouched(photos):
    data = jpeg(photos["china"].crop((0, 0, 300, 200)))
    nohash = rec("n", data, sha256=None, phash=None, dhash=None)
    broken = rec("k", data, sha256=None, phash="not-a-hash", dhash=None)
    dead = rec("t", data, dropped_by="image_fetch.too_small", drop_detail="10x10")
    only_sha = rec("s", data, phash=None, dhash=None)
    rows = run(stage(), [rec("a", data, alt="the first copy of it"), nohash, broken, dead, only_sha])
    by = {r.id: r for r in rows}
    for i in ("n", "k"):
        assert by[i].dropped_by is None and by[i].image == data
    assert (by["t"].dropped_by, by["t"].drop_detail, by["t"].image) == ("image_fetch.too_small", "10x10", data)
    assert by["s"].dropped_by == EXACT  # a sha256 alone still takes part in exact dedup


def test_exact_needs_the_whole_sha256(photos):
    data = jpeg(photos["china"].crop((0, 0, 300, 200)))
    same_prefix = [rec(i, data, sha256="ab" * 8 + tail * 48, phash=None, dhash=None) for i, tail in
                   (("u", "0"), ("v", "1"))]  # one band key (its first 64 bits), different digests
    assert drops(run(stage(), same_prefix)) == {}


def test_interleaved_images_pass_through_unless_asked(photos):
    data = jpeg(photos["flower"].crop((0, 0, 320, 240)))
    rows = [rec("pair", data), rec("doc/1", data, output="interleaved"), rec("doc/3", data, output="interleaved"),
            rec("bare", data, output=None)]
    assert drops(run(stage(), rows)) == {"pair": ("image_dedup.duplicate", "duplicate of bare")}
    both = stage(outputs=["image_text", "interleaved"])
    assert set(drops(run(both, rows))) == {"doc/1", "doc/3", "pair"}
    for bad in ("image_text", [], ["text"]):
        with pytest.raises(ValueError, match="outputs"):
            ImageDedup(outputs=bad)


def test_annotate_keeps_bytes_and_exact_only_mode(planted):
    rows = run(stage(annotate=True), planted)
    assert all(r.image for r in rows)
    assert drops(run(stage(match=None), planted)) == {"b1": (EXACT, "duplicate of b0")}
    # Without the sha256 bands, same bytes are still found by their equal hashes (and called what they are); a row
    # with a sha256 only is then matched by nothing.
    assert drops(run(stage(exact=False), planted))["b1"] == (EXACT, "duplicate of b0")
    b0 = next(r for r in planted if r.id == "b0")
    only_sha = rec("b9", b0.image, phash=None, dhash=None)
    assert drops(run(stage(exact=False), [b0, only_sha])) == {}
    assert drops(run(stage(), [b0, only_sha])) == {"b9": (EXACT, "duplicate of b0")}


@pytest.mark.parametrize("match", ["phash", "dhash", "either"])
def test_other_rules_find_the_resized_copy(planted, match):
    assert drops(run(stage(match=match), planted))["a1"][0] == NEAR


def test_bands_guarantee_every_pair_within_the_threshold():
    rng = np.random.default_rng(7)
    for threshold in (0, 3, 8, 12):
        a = rng.integers(0, 2**64 - 1, size=300, dtype=np.uint64, endpoint=True)
        b = a.copy()
        for i in range(len(b)):
            for bit in rng.choice(64, size=threshold, replace=False):
                b[i] ^= np.uint64(1) << np.uint64(bit)
        ka, kb = band_keys(a, threshold + 1, "phash"), band_keys(b, threshold + 1, "phash")
        assert (ka == kb).any(axis=1).all()
    # One band too few: one flipped bit in each band leaves no band shared.
    c = a.copy()
    for shift, _ in band_slices(12):
        c ^= np.uint64(1) << np.uint64(shift)
    assert not (band_keys(a, 12, "phash") == band_keys(c, 12, "phash")).any()
    assert [w for _, w in band_slices(13)] == [5] * 12 + [4]


def test_later_waves_and_runs_match_against_earlier_ones(planted, tmp_path):
    first = [r for r in planted if r.id.endswith("0")]
    later = [r for r in planted if not r.id.endswith("0")]
    run(stage(tmp_path, "w1"), first)
    rows = run(stage(tmp_path, "w2", done={"w1"}), later)
    assert drops(rows) == {"a1": (NEAR, "near duplicate of a0, written earlier"),
                           "a2": (NEAR, "near duplicate of a0, written earlier"),
                           "c1": (NEAR, "near duplicate of c0, written earlier"),
                           "b1": (EXACT, "duplicate of b0, written earlier")}
    assert drops(run(stage(tmp_path, "w3", done=set()), later[:1])) == {}  # uncommitted waves do not count
    s = stage(tmp_path / "other", "x1")
    s.bind_against([(str(tmp_path), {"w1"})])
    assert drops(run(s, later)) == drops(rows)
    s = stage(tmp_path / "again", "x1", bands=4)
    with pytest.raises(ValueError, match="parameters"):
        s.bind_against([(str(tmp_path), {"w1"})])


def test_bad_parameters():
    for kw in ({"match": "ahash"}, {"phash_threshold": -1}, {"dhash_threshold": 64}, {"bands": 0},
               {"bands": True}, {"match": None, "exact": False}, {"buckets": 0}, {"exact": "yes"}):
        with pytest.raises(ValueError):
            ImageDedup(**kw)
    assert ImageDedup().bands == {"phash": 10}  # capped default (measured); threshold + 1 below the cap
    assert ImageDedup(match="either", dhash_threshold=5).bands == {"phash": 10, "dhash": 6}
    assert ImageDedup(match="dhash", bands=15).bands == {"dhash": 15}


def test_empty_input_and_table_shape(planted):
    assert run(stage(), []) == []
    (table,) = list(stage().run(LocalDataset([to_table(planted, "image")])).tables())
    assert table.schema == to_table(planted, "image").schema and isinstance(table, pa.Table)
