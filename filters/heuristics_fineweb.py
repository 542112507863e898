"""FineWeb's own quality rules (Penedo et al. 2024, "The FineWeb Datasets", section 3.3, custom filters;
the defaults of datatrove's FineWebQualityFilter, ../shared/STACK-NOTES.md).

A document is dropped when (drop reason in brackets):

- fewer than 12% of its lines end in punctuation (``few_punctuated_lines``);
- more than 67% of its lines are at most 30 characters long (``short_lines``);
- characters in duplicated lines are more than 1% of its characters, newlines excluded (``dup_line_chars``);
- newlines per word exceed 0.3: lists rather than prose (``many_newlines``).

Every rule reads the prose lines only (filters/parts.py; ``prose_only: false``: the whole text, as
published): code lines rarely end in punctuation, are often short, repeat (``}``, ``end``), and a
listing is many newlines for few words, so each rule would count a listing as a list of fragments.

Terminal punctuation includes the CJK and Devanagari full stops (filters/text.py), and the word
count is CJK-aware, so unspaced scripts are not all "lists".
"""

from __future__ import annotations

from collections.abc import Iterator

from filters.rules import RuleFilter, parts_of, ratio
from filters.text import duplicates, ends_with_punctuation, lines, word_count
from pipelines.arguments import check_number


class FineWebQuality(RuleFilter):
    default_name = "fineweb_quality"
    reasons = ("few_punctuated_lines", "short_lines", "dup_line_chars", "many_newlines")

    def __init__(
        self,
        kind: str = "document",
        drop: str | list[str] = "all",
        prose_only: bool = True,
        min_punctuated_lines: float = 0.12,
        max_short_lines: float = 0.67,
        short_line_length: int = 30,
        max_dup_line_chars: float = 0.01,
        max_newlines_per_word: float = 0.3,
    ) -> None:
        super().__init__(kind, drop, prose_only)
        self.min_punctuated_lines = check_number("min_punctuated_lines", min_punctuated_lines, 0, 1)
        self.max_short_lines = check_number("max_short_lines", max_short_lines, 0, 1)
        self.short_line_length = int(check_number("short_line_length", short_line_length, 0, integer=True))
        self.max_dup_line_chars = check_number("max_dup_line_chars", max_dup_line_chars, 0, 1)
        self.max_newlines_per_word = check_number("max_newlines_per_word", max_newlines_per_word, 0)

    def check(self, text: str, lang: str | None) -> Iterator[tuple[str, str]]:
        text = parts_of(text, self.prose_only).prose
        ls = lines(text)
        if not ls:
            yield "few_punctuated_lines", "no lines"
            return
        punct = sum(ends_with_punctuation(line) for line in ls) / len(ls)
        if punct < self.min_punctuated_lines:
            yield "few_punctuated_lines", f"{punct:.2f}"
        short = sum(len(line) <= self.short_line_length for line in ls) / len(ls)
        if short > self.max_short_lines:
            yield "short_lines", f"{short:.2f}"
        _, dup_chars = duplicates(ls)
        dup = ratio(dup_chars, len(text.replace("\n", "")))
        if dup > self.max_dup_line_chars:
            yield "dup_line_chars", f"{dup:.3f}"
        n_words = word_count(text, lang)
        newlines = ratio(text.count("\n"), n_words) if n_words else float(text.count("\n") > 0)
        if newlines > self.max_newlines_per_word:
            yield "many_newlines", f"{newlines:.2f}"
