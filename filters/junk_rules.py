"""Clear-cut junk: the textbook rules that drop a document on their own in the ``default`` chain.

Every other heuristic is a signal for the quality model (filters/rules.py, filters/quality_model.py). A rule drops
only where its threshold is validated not to fire on any good kind: each threshold sits above the highest value of
every real good page of the quality corpus's train and calib splits with at least ``min_words`` (30) words of prose
(bench/quality_corpus.py: WCXB dev pages of all seven types, whole documentation sites in English, German, Russian,
Japanese and five more languages, real prose in 75 languages; ``scripts/train_quality_model.py --rules`` measures it
again after a change). Highest good value in brackets:

- ``placeholder_text``: at least ``max_lorem`` (0.25) of the words are lorem-ipsum vocabulary of four letters or more
  (0.157, a SymPy page quoting Latin; a theme demo page is 0.5-1.0). C4's ``lorem_ipsum`` (the phrase anywhere) is
  a rule of ``c4``.
- ``repeated_content``: repeated paragraphs or lines are at least ``max_repeated`` (0.7) of the prose characters: one
  block printed over and over (0.655, a WCXB article of one-line entries; Gopher drops at 0.2, which 4.6% of WCXB's
  good pages pass).
- ``consent_or_paywall``: consent, subscription and ad-block vocabulary is at least ``max_wall_words`` (0.05) of the
  words: the page is its cookie banner or paywall (0.041, a forum thread about subscriptions).
- ``keyword_stuffing``: one content word or phrase (after stop words) covers at least ``max_keyword`` (0.4) of the
  content words (0.381, an API page naming its function throughout; stuffed pages 0.35-0.6). Spaced scripts only.
- ``garbled_text``: at least ``max_odd_words`` (0.25) of the words are letter strings no language writes (random
  strings, keyboard mashes, blobs, a letter repeated: 0.15, an astropy page of unit symbols), or text decoded with the
  wrong charset makes at least ``max_mojibake`` (0.05) sequences per word (0.027).

Not a drop: ``link_list`` (at least ``max_link_words``, 0.5, of the words are link anchors, in the text or in the page
by extraction's ``link_density``) is recorded in ``quality_signals``: WCXB's listing and collection pages and the API
indexes of documentation sites are lists of links too (up to 1.0), so it is the model's to weigh.

The rules apply to texts of at least ``min_words`` (30) words of prose: ratios over a few words decide nothing, and a
code listing with a one-line introduction is not judged on that line.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from filters.rules import RuleFilter, record_signals
from filters.signals import compute, signal
from filters.text import main_text
from pipelines.arguments import check_number
from pipelines.step import Drop

REASONS = ("placeholder_text", "repeated_content", "consent_or_paywall", "keyword_stuffing", "garbled_text",
           "link_list")
DEFAULT_DROP = ["placeholder_text", "repeated_content", "consent_or_paywall", "keyword_stuffing", "garbled_text"]


class ClearJunk(RuleFilter):
    default_name = "clear_junk"
    reasons = REASONS

    def __init__(self, kind: str = "document", drop: str | list[str] | None = None, min_words: int = 30,
                 max_lorem: float = 0.25, max_repeated: float = 0.7, max_wall_words: float = 0.05,
                 max_keyword: float = 0.4, max_odd_words: float = 0.25, max_mojibake: float = 0.05,
                 max_link_words: float = 0.5) -> None:
        super().__init__(kind, list(DEFAULT_DROP) if drop is None else drop)
        self.min_words = int(check_number("min_words", min_words, 0, integer=True))
        self.max_lorem = check_number("max_lorem", max_lorem, 0, 1)
        self.max_repeated = check_number("max_repeated", max_repeated, 0, 1)
        self.max_wall_words = check_number("max_wall_words", max_wall_words, 0)
        self.max_keyword = check_number("max_keyword", max_keyword, 0, 1)
        self.max_odd_words = check_number("max_odd_words", max_odd_words, 0, 1)
        self.max_mojibake = check_number("max_mojibake", max_mojibake, 0)
        self.max_link_words = check_number("max_link_words", max_link_words, 0, 1)

    def process(self, record: Any) -> Any:
        # the page's link density (extraction) as well as the text: a link farm's anchors are plain text by now
        values = compute(main_text(record), record.lang, getattr(record, "link_density", None))
        signals = []
        for reason, detail in self.rules(values):
            if reason in self.drop:
                raise Drop(reason, detail)
            signals.append(reason)
        record_signals(record, self._name(), signals)
        return record

    def check(self, text: str, lang: str | None) -> Iterator[tuple[str, str]]:
        yield from self.rules(compute(text, lang))

    def rules(self, values: tuple[float, ...]) -> Iterator[tuple[str, str]]:
        """The rules ``values`` (filters/signals.py ``compute``) fail; none on fewer than ``min_words`` words of
        prose."""
        if round(math.expm1(signal(values, "log_prose_words"))) < self.min_words:  # the signals count words already
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
        keyword = signal(values, "top_content_ngram")
        if keyword >= self.max_keyword:  # NaN (unspaced scripts) compares False
            yield "keyword_stuffing", f"{keyword:.2f}"
        odd, mojibake = signal(values, "odd_words"), signal(values, "mojibake")
        if odd >= self.max_odd_words or mojibake >= self.max_mojibake:
            yield "garbled_text", f"odd {odd:.2f}, mojibake {mojibake:.3f}"
        links = signal(values, "link_words")
        if links >= self.max_link_words:
            yield "link_list", f"{links:.2f}"
