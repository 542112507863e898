"""text.ngram_shares (vectorised, hashed n-gram keys) gives exactly what counting n-gram tuples gives."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from filters.text import DUP_NS, TOP_NS, ngram_shares, words
from tests.filters.golden import CLEAN, CLEAN_LINES
from tests.filters.test_heuristics import GOPHER_REPETITION


def top_share(ws: list[str], n: int) -> float:
    """Reference: the most frequent n-gram's characters, counted every time it occurs, over all word characters."""
    total = sum(len(w) for w in ws)
    if len(ws) < n or not total:
        return 0.0
    gram, count = Counter(tuple(ws[i:i + n]) for i in range(len(ws) - n + 1)).most_common(1)[0]
    return sum(len(w) for w in gram) * count / total if count > 1 else 0.0


def dup_share(ws: list[str], n: int) -> float:
    """Reference: characters of words covered by an n-gram occurring more than once, over all word characters."""
    total = sum(len(w) for w in ws)
    if len(ws) < n or not total:
        return 0.0
    grams = [tuple(ws[i:i + n]) for i in range(len(ws) - n + 1)]
    counts = Counter(grams)
    covered = [False] * len(ws)
    for i, gram in enumerate(grams):
        if counts[gram] > 1:
            covered[i:i + n] = [True] * n
    return sum(len(w) for w, c in zip(ws, covered, strict=True) if c) / total


def _texts() -> list[str]:
    rng = random.Random(3)
    vocab = CLEAN.replace(".", "").split()[:30]
    shuffled = [" ".join(rng.choice(vocab) for _ in range(rng.randint(0, 400))) for _ in range(40)]
    return [CLEAN, "", "one", "a a a a a a a a a a a a", *GOPHER_REPETITION.values(), *shuffled,
            "\n".join(CLEAN_LINES * 3)]


@pytest.mark.parametrize("text", _texts())
def test_matches_tuple_counting(text: str) -> None:
    ws = [w.lower() for w in words(text)]
    top, dup = ngram_shares(text)
    assert top == {n: pytest.approx(top_share(ws, n), abs=1e-12) for n in TOP_NS}
    assert dup == {n: pytest.approx(dup_share(ws, n), abs=1e-12) for n in DUP_NS}
