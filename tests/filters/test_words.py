"""``words`` and ``word_count`` against the plain definition they replace (split into tokens, strip punctuation)."""

from __future__ import annotations

import random

import pytest

from filters.text import _CJK_CHAR, _STRIP, CACHED_WORD_COUNT_CHARS, CJK_CHARS_PER_WORD, tokens, word_count, words
from tests.filters.golden import CLEAN


def reference_words(text: str) -> list[str]:
    return [w for t in tokens(text) if (w := t.strip(_STRIP))]


def reference_count(text: str) -> int:
    ws = reference_words(text)
    cjk = sum(1 for w in ws if len(w) == 1 and _CJK_CHAR.match(w))
    return len(ws) - cjk + round(cjk / CJK_CHARS_PER_WORD)


ALPHABET = [*_STRIP, " ", "\t", "\n", "\u00a0", "\u3000", "a", "b", "1", "_", "中", "日", "ひ", "カ", "・", "한", "é",
            "²", "½", "ß"]
TEXTS = [CLEAN, "Hello, world... (again)!", "«Bonjour» — dit-il.",
         "下のムラング・シャンティイも牛乳を植物性に替えています。", "x" + "." * 5000,
         "..." + "a" * 10 + "...", "e.g. U.S.A. 3.14 -- it's 'quoted'", "中文and英文mixed・text"]


@pytest.mark.parametrize("text", TEXTS)
def test_words_match_the_definition(text: str) -> None:
    assert words(text) == reference_words(text)
    assert word_count(text) == reference_count(text)


def test_words_match_the_definition_on_random_strings() -> None:
    rng = random.Random(14)
    for _ in range(5000):
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 40)))
        assert words(text) == reference_words(text), repr(text)
        assert word_count(text) == reference_count(text), repr(text)


def test_long_texts_counted_alike_from_the_cache() -> None:
    text = ("Ein langer Absatz über 中文 Zeichen, der mehrfach gezählt wird. " * 20)[:CACHED_WORD_COUNT_CHARS + 7]
    assert word_count(text) == word_count(text) == reference_count(text)
