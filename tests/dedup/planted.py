"""Test corpora: documents of real words with near-duplicates planted at a chosen true Jaccard similarity.

The ground truth is computed here independently of ``dedup.minhash``: 5-word shingles as tuples of lower-cased
words, Python sets, exact Jaccard.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def vocabulary() -> list[str]:
    """Lower-case alphabetic words of the English sentences of ``langid_dev.jsonl`` (real text)."""
    words: set[str] = set()
    source = SHARED / "langid_dev.jsonl"
    if not source.exists():
        import pytest

        pytest.skip(f"needs ../shared/data (the evaluation data beside the checkout; CI has it): {source} is absent")
    with source.open() as fh:
        for line in fh:
            row = json.loads(line)
            if row["lang"] == "en":
                words.update(w.lower() for w in row["text"].split() if w.isalpha())
    return sorted(words)


def shingles(text: str, n: int = 5) -> set[tuple[str, ...]]:
    words = text.lower().split()
    if len(words) < n:
        return {tuple(words)} if words else set()
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


def jaccard(a: str, b: str) -> float:
    x, y = shingles(a), shingles(b)
    return len(x & y) / len(x | y) if x | y else 1.0


def document(rng: random.Random, vocab: list[str], words: int = 200) -> str:
    return " ".join(rng.choice(vocab) for _ in range(words))


def variant(rng: random.Random, vocab: list[str], base: str, target: float) -> tuple[str, float]:
    """A copy of ``base`` with words replaced until its true Jaccard falls to about ``target``."""
    words = base.split()
    positions = list(range(len(words)))
    rng.shuffle(positions)
    out = list(words)
    best = (base, 1.0)
    for pos in positions:
        out[pos] = rng.choice(vocab)
        text = " ".join(out)
        j = jaccard(base, text)
        best = (text, j)
        if j <= target + 0.005:
            break
    return best


def day(n: int) -> datetime:
    return datetime(2024, 1, 1, tzinfo=UTC) + timedelta(days=n)
