"""Clear-cut junk: the five rules that drop a document on their own in the ``default`` chain.

Every other heuristic is a signal for the quality model (filters/rules.py). These five are kept as rules
because each measures a thing that good pages almost never do and junk does by definition, with a
threshold set where the good pages of WCXB dev (1,427 pages with at least 100 words of ground truth,
all seven types, extracted by winnow) stop: at most 5 of them fail any rule (0.4%), while the classes
of bench/junk_set.py fail them at their median (bench/filters_fidelity.py). Signals: filters/signals.py.

- ``placeholder_text``: at least ``max_lorem`` (0.25) of the words are lorem-ipsum vocabulary (WCXB's
  highest is 0.04: real Latin and English share a few of the words; a theme demo page is 0.5-1.0).
  C4's ``lorem_ipsum`` (the phrase anywhere) stays, as a rule in ``c4``.
- ``repeated_content``: repeated paragraphs or lines are at least ``max_repeated`` (0.6) of the prose
  characters: one block printed over and over (Gopher drops at 0.2, which 4.6% of WCXB's good pages pass;
  0.6 is past WCXB's 99.5th percentile, 0.5).
- ``consent_or_paywall``: consent, subscription and ad-block vocabulary is at least ``max_wall_words``
  (0.04) of the words: the page is its cookie banner or paywall (WCXB's 99.5th percentile is 0.015).
- ``link_list``: at least ``max_link_words`` (0.5) of the prose words are Markdown link anchors: a link
  farm or directory kept with its links (inputs from extractors that write links; winnow's own extraction
  writes anchors as text, so WCXB's pages have none; of the 4,536 documentation pages the default model
  learns from, the most linked, a README's badge block, is 0.51).
- ``keyword_stuffing``: one content word or phrase (after stop words) covers at least ``max_keyword``
  (0.3) of the content words (WCXB's 99.5th percentile is 0.21; stuffed pages 0.35-0.6).

The rules apply to texts of at least ``min_words`` (30) words: ratios over a few words decide nothing.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from filters.rules import RuleFilter
from filters.signals import compute, signal
from filters.text import check_number


class ClearJunk(RuleFilter):
    default_name = "clear_junk"
    reasons = ("placeholder_text", "repeated_content", "consent_or_paywall", "link_list", "keyword_stuffing")

    def __init__(self, kind: str = "document", drop: str | list[str] = "all", min_words: int = 30,
                 max_lorem: float = 0.25, max_repeated: float = 0.6, max_wall_words: float = 0.04,
                 max_link_words: float = 0.5, max_keyword: float = 0.3) -> None:
        super().__init__(kind, drop)
        self.min_words = int(check_number("min_words", min_words, 0, integer=True))
        self.max_lorem = check_number("max_lorem", max_lorem, 0, 1)
        self.max_repeated = check_number("max_repeated", max_repeated, 0, 1)
        self.max_wall_words = check_number("max_wall_words", max_wall_words, 0)
        self.max_link_words = check_number("max_link_words", max_link_words, 0, 1)
        self.max_keyword = check_number("max_keyword", max_keyword, 0, 1)

    def check(self, text: str, lang: str | None) -> Iterator[tuple[str, str]]:
        values = compute(text, lang)
        if round(math.expm1(signal(values, "log_words"))) < self.min_words:  # the signals count words already
            return
        lorem = signal(values, "lorem_words")
        if lorem >= self.max_lorem:
            yield "placeholder_text", f"{lorem:.2f}"
        repeated = max(signal(values, "dup_paragraph_chars"), signal(values, "dup_line_chars"))
        if repeated >= self.max_repeated:
            yield "repeated_content", f"{repeated:.2f}"
        wall = signal(values, "wall_words")
        if wall >= self.max_wall_words:
            yield "consent_or_paywall", f"{wall:.3f}"
        links = signal(values, "link_words")
        if links >= self.max_link_words:
            yield "link_list", f"{links:.2f}"
        keyword = signal(values, "top_content_ngram")
        if keyword >= self.max_keyword:
            yield "keyword_stuffing", f"{keyword:.2f}"
