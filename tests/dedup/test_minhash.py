import numpy as np
import pyarrow as pa
import pytest
from datasketch import MinHash

from dedup.minhash import (
    MinHashParams,
    band_keys,
    char_mode,
    choose_bands,
    detection_probability,
    jaccard,
    normalize,
    shingle_hashes,
    signatures,
    unique_sorted,
)
from tests.dedup import planted

P = MinHashParams()


def per_row(shingles, counts):
    bounds = np.concatenate(([0], np.cumsum(counts)))
    return [shingles[bounds[i]:bounds[i + 1]] for i in range(len(counts))]


def test_defaults_are_finewebs():
    assert (P.bands, P.rows, P.num_perm, P.ngram) == (14, 8, 112, 5)


def test_threshold_picks_datasketchs_shape():
    assert choose_bands(0.72, 112) == (12, 9)  # STACK-NOTES: not FineWeb's 14 x 8
    assert detection_probability(0.85, 14, 8) > 0.98 > detection_probability(0.6, 14, 8)


def test_signatures_equal_datasketch_bulk():
    texts = pa.array(["The quick brown fox jumps over the lazy dog near the river bank today.",
                      "one two", "", None, "中文测试文本，这是一个很长的句子用于测试。", "x"])
    shingles, counts = shingle_hashes(texts, None, P)
    assert list(counts) == [10, 1, 0, 0, 15, 1]  # 14 words, 2, none, none, 19 characters, 1
    sig = signatures(shingles, counts, P)
    reference = MinHash.bulk([[int(h) for h in row] for row in per_row(shingles, counts)],
                             num_perm=P.num_perm, hashfunc=lambda h: h)  # datasketch's default affine32 scheme
    for mine, theirs in zip(sig, reference, strict=True):
        assert (mine == theirs.hashvalues).all()


def test_normalisation_and_shingle_counts():
    assert normalize(pa.array(["Hello,   WORLD! 2024 ｆｕｌｌ-width"])).to_pylist() == ["hello world 0 full width"]
    a, _ = shingle_hashes(pa.array(["Hello, world: one two three!"]), None, P)
    b, _ = shingle_hashes(pa.array(["hello world one two THREE"]), None, P)
    assert list(a) == list(b) and len(a) == 1
    _, counts = shingle_hashes(pa.array(["a b c d e f g", "a b", "   ", "-- !!"]), None, P)
    assert list(counts) == [3, 1, 0, 0]


def test_character_shingles_for_languages_without_spaces():
    texts = pa.array(["这是一个测试句子", "this is english", "这是一个测试句子", "ภาษาไทยไม่มีช่องว่าง"])
    assert list(char_mode(texts, ["zh", "en", None, None])) == [True, False, True, True]
    assert list(char_mode(texts, ["en", "zh-Hans", "ja", "th"])) == [False, True, True, True]
    shingles, counts = shingle_hashes(pa.array(["这是一个测试句子"]), ["zh"], P)
    assert list(counts) == [8 - 5 + 1] and len(set(shingles.tolist())) == 4


def test_mixed_modes_keep_row_order():
    texts = ["alpha beta gamma delta epsilon zeta", "这是一个测试句子", "eta theta iota kappa lambda mu"]
    together, counts = shingle_hashes(pa.array(texts), None, P)
    alone = [shingle_hashes(pa.array([t]), None, P)[0] for t in texts]
    assert [list(r) for r in per_row(together, counts)] == [list(r) for r in alone]


def test_estimate_tracks_true_jaccard():
    import random

    rng = random.Random(3)
    vocab = planted.vocabulary()
    base = planted.document(rng, vocab, 300)
    for target in (0.9, 0.7, 0.5):
        other, true_j = planted.variant(rng, vocab, base, target)
        sh, counts = shingle_hashes(pa.array([base, other]), None, P)
        sig = signatures(sh, counts, P)
        estimate = float((sig[0] == sig[1]).mean())
        assert abs(estimate - true_j) < 0.15, (target, estimate, true_j)
        a, b = unique_sorted(sh, counts)
        assert jaccard(a, b) == pytest.approx(true_j, abs=0.02)  # hash collisions aside, the same sets


def test_band_keys_depend_on_band_and_rows():
    sig = np.zeros((2, P.num_perm), dtype=np.uint32)
    sig[1, :8] = 7  # only band 0 differs
    keys = band_keys(sig, P)
    assert keys.shape == (2, 14)
    assert keys[0, 0] != keys[1, 0] and (keys[0, 1:] == keys[1, 1:]).all()
    assert len(set(keys[0].tolist())) == 14  # equal rows in different bands give different keys
