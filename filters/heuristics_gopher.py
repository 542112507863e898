"""Gopher quality and repetition rules (Rae et al. 2021, "Scaling Language Models: Methods, Analysis &
Insights from Training Gopher", appendix A, MassiveWeb filtering; the values datatrove's
GopherQualityFilter and GopherRepetitionFilter use, ../shared/STACK-NOTES.md).

GopherQuality drops a document when (drop reason in brackets):

- it has fewer than 50 or more than 100,000 words (``too_few_words``, ``too_many_words``);
- the mean word length is below 3 or above 10 characters (``short_mean_word``, ``long_mean_word``);
- the symbol-to-word ratio, for ``#`` and the ellipsis (``...``, ``…``), is above 0.1 (``symbol_ratio``);
- more than 90% of lines start with a bullet (``bullet_lines``);
- more than 30% of lines end with an ellipsis (``ellipsis_lines``);
- fewer than 80% of words contain an alphabetic character (``few_alpha_words``);
- it has fewer than 2 occurrences of the stop words the, be, to, of, and, that, have, with (``few_stop_words``).

GopherRepetition drops a document when (reason in brackets):

- duplicate lines are more than 30% of lines (``dup_lines``), duplicate paragraphs more than 30% of
  paragraphs (``dup_paragraphs``);
- characters in duplicate lines are more than 20% of the text (``dup_line_chars``), in duplicate
  paragraphs more than 20% (``dup_paragraph_chars``);
- the most frequent word 2-, 3-, 4-gram covers more than 20%, 18%, 16% of word characters
  (``top_2gram`` .. ``top_4gram``);
- word 5..10-grams that occur more than once cover more than 15%, 14%, 13%, 12%, 11%, 10% of word
  characters (``dup_5gram`` .. ``dup_10gram``).

What each rule reads (filters/parts.py; ``prose_only: false`` gives the published rules on the whole text):
the word-count rules count every word of the text, code included (a short explanation over a long
listing is not a short page); the other quality rules read the prose only, since a code listing has no
stop words and its symbols are not the "#"/"..." of spam; the repetition rules read the prose only, so a
REPL session's repeated prompts and a listing's repeated ``}`` lines are not counted as duplicated
boilerplate, nor are the repeated cells of a table (tables are not prose either). On a text that is all
prose, every rule is the published one.

Language awareness (filters/text.py): words of Chinese and Japanese are single characters (so n-gram
rules see character n-grams) and word counts use ``word_count``; the mean-word-length rule is skipped
for unspaced languages, and the stop-word rule applies only to ``stop_word_langs`` (English: the list is
English), to documents without a language unless their script is unspaced. Adaptation for Markdown
text (trafilatura's output): a ``#`` that opens a heading line is markup, not a symbol.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from filters.rules import RuleFilter, parts_of, ratio
from filters.text import (
    count_words,
    duplicates,
    has_letter,
    is_unspaced,
    lines,
    ngram_shares,
    paragraphs,
    words,
)
from pipelines.arguments import check_number

GOPHER_STOP_WORDS = ("the", "be", "to", "of", "and", "that", "have", "with")
BULLETS = ("•", "-", "*", "·", "‣", "◦", "▪", "●", "–")
_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]", re.MULTILINE)


class GopherQuality(RuleFilter):
    default_name = "gopher_quality"
    reasons = ("too_few_words", "too_many_words", "short_mean_word", "long_mean_word", "symbol_ratio",
               "bullet_lines", "ellipsis_lines", "few_alpha_words", "few_stop_words")

    def __init__(
        self,
        kind: str = "document",
        drop: str | list[str] = "all",
        prose_only: bool = True,
        min_words: int = 50,
        max_words: int = 100_000,
        min_mean_word_length: float = 3,
        max_mean_word_length: float = 10,
        max_symbol_word_ratio: float = 0.1,
        max_bullet_lines_ratio: float = 0.9,
        max_ellipsis_lines_ratio: float = 0.3,
        min_alpha_words_ratio: float = 0.8,
        min_stop_words: int = 2,
        stop_words: list[str] | None = None,
        stop_word_langs: list[str] | None = None,
    ) -> None:
        super().__init__(kind, drop, prose_only)
        self.min_words = int(check_number("min_words", min_words, 0, integer=True))
        self.max_words = int(check_number("max_words", max_words, 1, integer=True))
        self.min_mean_word_length = check_number("min_mean_word_length", min_mean_word_length, 0)
        self.max_mean_word_length = check_number("max_mean_word_length", max_mean_word_length, 0)
        self.max_symbol_word_ratio = check_number("max_symbol_word_ratio", max_symbol_word_ratio, 0)
        self.max_bullet_lines_ratio = check_number("max_bullet_lines_ratio", max_bullet_lines_ratio, 0, 1)
        self.max_ellipsis_lines_ratio = check_number("max_ellipsis_lines_ratio", max_ellipsis_lines_ratio, 0, 1)
        self.min_alpha_words_ratio = check_number("min_alpha_words_ratio", min_alpha_words_ratio, 0, 1)
        self.min_stop_words = int(check_number("min_stop_words", min_stop_words, 0, integer=True))
        for name, value in (("stop_words", stop_words), ("stop_word_langs", stop_word_langs)):
            if value is not None and (not isinstance(value, list) or not all(isinstance(v, str) for v in value)):
                raise ValueError(f"{name} must be a list of strings, got {value!r}")
        self.stop_words = frozenset(w.lower() for w in (stop_words or GOPHER_STOP_WORDS))
        self.stop_word_langs = frozenset(stop_word_langs if stop_word_langs is not None else ["en"])

    def check(self, text: str, lang: str | None) -> Iterator[tuple[str, str]]:
        unspaced = is_unspaced(text, lang)
        whole = text
        all_words = words(whole)
        n_words = count_words(all_words)
        text = parts_of(text, self.prose_only).prose
        if n_words < self.min_words:
            yield "too_few_words", f"{n_words} < {self.min_words}"
        if n_words > self.max_words:
            yield "too_many_words", f"{n_words} > {self.max_words}"
        ws = all_words if text == whole else words(text)
        if not unspaced and ws:
            mean = sum(len(w) for w in ws) / len(ws)
            if mean < self.min_mean_word_length:
                yield "short_mean_word", f"{mean:.2f}"
            if mean > self.max_mean_word_length:
                yield "long_mean_word", f"{mean:.2f}"
        body = _HEADING.sub("", text)
        symbols = body.count("#") + body.count("...") + body.count("…")
        if ws and symbols / len(ws) > self.max_symbol_word_ratio:
            yield "symbol_ratio", f"{symbols / len(ws):.3f}"
        ls = lines(text)
        if ls:
            bullets = ratio(sum(line.startswith(BULLETS) for line in ls), len(ls))
            if bullets > self.max_bullet_lines_ratio:
                yield "bullet_lines", f"{bullets:.2f}"
            ellipsis = ratio(sum(line.endswith(("...", "…")) for line in ls), len(ls))
            if ellipsis > self.max_ellipsis_lines_ratio:
                yield "ellipsis_lines", f"{ellipsis:.2f}"
        if ws:
            alpha = sum(1 for w in ws if w.isalpha() or has_letter(w)) / len(ws)  # isalpha: the common case, fast
            if alpha < self.min_alpha_words_ratio:
                yield "few_alpha_words", f"{alpha:.2f}"
        stop_rule = lang in self.stop_word_langs if lang else not unspaced
        if stop_rule and self.min_stop_words:
            found = sum(w.lower() in self.stop_words for w in ws)
            if found < self.min_stop_words:
                yield "few_stop_words", f"{found} < {self.min_stop_words}"


TOP_NGRAM = {2: 0.20, 3: 0.18, 4: 0.16}
DUP_NGRAM = {5: 0.15, 6: 0.14, 7: 0.13, 8: 0.12, 9: 0.11, 10: 0.10}


class GopherRepetition(RuleFilter):
    default_name = "gopher_repetition"
    reads_text_memos = True  # filters/text.py ngram_shares (pipelines/memo.py)
    reasons = ("dup_lines", "dup_paragraphs", "dup_line_chars", "dup_paragraph_chars",
               *(f"top_{n}gram" for n in range(1, 21)), *(f"dup_{n}gram" for n in range(1, 21)))

    def __init__(
        self,
        kind: str = "document",
        drop: str | list[str] = "all",
        prose_only: bool = True,
        max_dup_lines: float = 0.3,
        max_dup_paragraphs: float = 0.3,
        max_dup_line_chars: float = 0.2,
        max_dup_paragraph_chars: float = 0.2,
        top_ngram: dict[int, float] | None = None,
        dup_ngram: dict[int, float] | None = None,
    ) -> None:
        super().__init__(kind, drop, prose_only)
        self.max_dup_lines = check_number("max_dup_lines", max_dup_lines, 0, 1)
        self.max_dup_paragraphs = check_number("max_dup_paragraphs", max_dup_paragraphs, 0, 1)
        self.max_dup_line_chars = check_number("max_dup_line_chars", max_dup_line_chars, 0, 1)
        self.max_dup_paragraph_chars = check_number("max_dup_paragraph_chars", max_dup_paragraph_chars, 0, 1)
        self.top_ngram = _ngram_table("top_ngram", top_ngram, TOP_NGRAM)
        self.dup_ngram = _ngram_table("dup_ngram", dup_ngram, DUP_NGRAM)

    def check(self, text: str, lang: str | None) -> Iterator[tuple[str, str]]:
        text = parts_of(text, self.prose_only).prose
        total = len(text)
        ls = lines(text)
        n, chars = duplicates(ls)
        if ratio(n, len(ls)) > self.max_dup_lines:
            yield "dup_lines", f"{n}/{len(ls)}"
        ps = paragraphs(text)
        pn, pchars = duplicates(ps)
        if ratio(pn, len(ps)) > self.max_dup_paragraphs:
            yield "dup_paragraphs", f"{pn}/{len(ps)}"
        if ratio(chars, total) > self.max_dup_line_chars:
            yield "dup_line_chars", f"{chars / total:.3f}"
        if ratio(pchars, total) > self.max_dup_paragraph_chars:
            yield "dup_paragraph_chars", f"{pchars / total:.3f}"
        top, dup = ngram_shares(text, tuple(self.top_ngram), tuple(self.dup_ngram))
        for n_, limit in self.top_ngram.items():
            if top[n_] > limit:
                yield f"top_{n_}gram", f"{top[n_]:.3f}"
        for n_, limit in self.dup_ngram.items():
            if dup[n_] > limit:
                yield f"dup_{n_}gram", f"{dup[n_]:.3f}"


def _ngram_table(name: str, value: dict[int, float] | None, default: dict[int, float]) -> dict[int, float]:
    if value is None:
        return dict(default)
    if not isinstance(value, dict) or not value:
        raise ValueError(f"{name} must be a mapping of n -> maximum share, got {value!r}")
    out = {}
    for n, limit in value.items():
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 20:
            raise ValueError(f"{name}: n must be an integer in [1, 20], got {n!r}")
        out[n] = check_number(f"{name}[{n}]", limit, 0, 1)
    return dict(sorted(out.items()))
