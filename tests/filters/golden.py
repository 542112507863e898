"""Texts for golden tests: a clean base that passes every heuristic rule, and builders for repetition."""

from __future__ import annotations

import itertools
import string

# Eight distinct English sentences (about 140 words), one per line: passes Gopher, C4 and FineWeb.
CLEAN_LINES = [
    "The river mill was built in the eighteenth century to grind grain for the surrounding farms.",
    "Its wooden wheel turned with the current, and the miller adjusted the sluice gates by hand.",
    "During the winter floods of that year, water damaged the lower floor and most of the stored flour.",
    "Villagers repaired the walls with local stone and raised the machinery above the old flood mark.",
    "Later owners replaced the wheel with a small turbine that could also produce electricity.",
    "Today a volunteer society runs the building as a museum with guided tours on weekends.",
    "Visitors can watch a working demonstration and buy bread baked from flour ground on site.",
    "The society also keeps an archive of letters, ledgers and photographs donated by families.",
]
CLEAN = "\n".join(CLEAN_LINES)


def unique_words(n: int, length: int = 6, prefix: str = "") -> list[str]:
    """``n`` distinct lowercase words of ``length`` letters (no digits)."""
    out = []
    for combo in itertools.product(string.ascii_lowercase, repeat=length - len(prefix)):
        out.append(prefix + "".join(combo))
        if len(out) == n:
            return out
    raise ValueError("not enough words")


def with_repeated_ngram(n: int, occurrences: int, total_words: int) -> str:
    """One line of ``total_words`` equal-length words in which an ``n``-gram occurs ``occurrences`` times,
    each time followed by unique words, so only n-grams up to length ``n`` repeat."""
    gram = unique_words(n, prefix="q")
    filler = iter(unique_words(total_words, prefix="f"))
    words: list[str] = []
    gap = (total_words - n * occurrences) // occurrences
    for _ in range(occurrences):
        words += gram
        words += [next(filler) for _ in range(gap)]
    while len(words) < total_words:
        words.append(next(filler))
    return " ".join(words) + "."
