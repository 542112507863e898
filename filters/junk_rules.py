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
- ``consent_or_paywall``: consent, subscription and ad-block vocabulary is at least ``max_wall_words`` (0.06) of the
  words: the page is its cookie banner or paywall (0.056, GIMP's German manual's page on its Preferences dialog; 0.05
  until extraction's quick block model kept that page whole, issue 28). On shorter texts (under ``min_words`` of
  prose, where one word moves the share by several points): at least ``short_wall_hits`` (2) of those words and
  ``max_short_wall_words`` (0.12) of the words (0.083, Hacker News's job board, whose prose is "login" and one
  sentence above a table).
- ``keyword_stuffing``: one content word or phrase (after stop words) covers at least ``max_keyword`` (0.42) of the
  content words (0.417, a SymPy API page of 35 words naming "particle in a box" in each class's line; 0.4 until
  2026-12-07, when the documentation fallback of 2026-12-06 had given it and an astropy stub (0.400) their text;
  stuffed pages 0.35-0.6). Spaced scripts only.
- ``garbled_text``: at least ``max_odd_words`` (0.25) of the words are letter strings no language writes (random
  strings, keyboard mashes, blobs, a letter repeated: 0.15, an astropy page of unit symbols), or text decoded with the
  wrong charset makes at least ``max_mojibake`` (0.05) sequences per word (0.027).
- ``error_page``: a text of fewer than ``max_error_page_words`` (80) words of prose whose first line or one of its
  first two headings states an error or a stand-in: an HTTP status with its words ("404 Not Found", "Error 503",
  "451: Unavailable for legal reasons"), "page not found" and its translations in twelve languages, no search
  results, access denied, a parked or for-sale domain, a bot check, an age or region gate, a default server page,
  maintenance, coming soon, a directory index (no good page of the train and calib splits leads so, at any length;
  56% of the training generators' error pages do). The vocabulary signal ``error_words`` counts such phrases anywhere
  and stays the model's: it also counts "maintenance" in a page about servicing cars.
- A text of fewer than 80 words of prose that opens on a consent statement ("We value your privacy", "Nous utilisons
  des cookies", in the consent vocabulary's languages) is ``consent_or_paywall`` too, whatever its share of consent
  words: a dialog's partners and purposes dilute it.

Not a drop: ``link_list`` (at least ``max_link_words``, 0.5, of the words are link anchors, in the text or in the page
by extraction's ``link_density``) is recorded in ``quality_signals``: WCXB's listing and collection pages and the API
indexes of documentation sites are lists of links too (up to 1.0), so it is the model's to weigh.

The rules other than ``error_page`` and the short-text wall apply to texts of at least ``min_words`` (30) words of
prose: ratios over a few words decide nothing, and a code listing with a one-line introduction is not judged on that
line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

from filters.parts import split
from filters.rules import RuleFilter, record_signals
from filters.signals import compute, signal
from filters.text import main_text
from pipelines.arguments import check_number
from pipelines.step import Drop

REASONS = ("placeholder_text", "repeated_content", "consent_or_paywall", "keyword_stuffing", "garbled_text",
           "error_page", "link_list")
DEFAULT_DROP = ["placeholder_text", "repeated_content", "consent_or_paywall", "keyword_stuffing", "garbled_text",
                "error_page"]
# What an error or stand-in page leads with (winnow's list; the statuses are RFC 9110's wording, 451 RFC 7725's).
# Matched on the first line and the first two headings only (``headlines``), where a page states what it is: a page
# about HTTP or a parser's KeyError says "not found" further down.
_STATUS = (r"bad request|unauthori[sz]ed|forbidden|not found|gone|too many requests|internal server error|"
           r"bad gateway|service (?:temporarily )?unavailable|gateway time-?out|unavailable for legal reasons|error")
_ERROR_HEADLINE = re.compile(
    rf"(?:^|\b)(?:(?:error|http|status)[\s:]*[45]\d\d\b|[45]\d\d\b[\s:.|–—-]*(?:{_STATUS})\b|^[45]\d\d[.!]?$|"
    r"(?:page|file|document|article|post|product|site)?\s*(?:was |could )?not (?:be )?found|"
    r"(?:can(?:no|')t|could ?n[o']t) be found|(?:does not|doesn't|no longer) exists?|"
    r"internal server error|bad gateway|service (?:temporarily )?unavailable|access (?:is )?denied|"
    r"forbidden|(?:site|domain|page) (?:is )?(?:for sale|parked)|buy this domain|domain (?:has )?expired|"
    r"account (?:has been )?suspended|under (?:construction|maintenance)|scheduled maintenance|"
    r"down for maintenance|coming soon|index of /|checking (?:your browser|if the site)|just a moment|"
    r"(?:verify|confirm) (?:that )?you(?: are|'re) (?:a )?human|are you a (?:robot|human)|"
    r"no (?:results|matches) (?:found|for)|nothing (?:was )?found|did not match any|"
    r"default (?:welcome |web )?page|welcome to nginx|it works!|"
    r"(?:enter|confirm) your (?:date of birth|birth ?date|age)|you must be (?:of legal|\d\d|over \d\d)|"
    r"(?:not|isn't|is not) available in your (?:country|region|location)|"
    r"nicht gefunden|existiert nicht|introuvable|n'existe pas|no (?:se ha )?encontrad[ao]|no existe|"
    r"non (?:è stata )?trovat[ao]|não (?:foi )?encontrad[ao]|niet gevonden|nie znaleziono|nie istnieje|"
    r"не найден[аоы]?|не существует|bulunamadı|tidak ditemukan)(?:\b|$)", re.IGNORECASE)
# What a consent dialog leads with (the consent vocabulary's languages); a short text that opens so is the dialog.
_CONSENT_HEADLINE = re.compile(
    r"\b(?:we (?:value|respect|care about) your privacy|(?:this|our) (?:web)?site uses cookies|we use cookies|"
    r"cookie (?:settings|preferences|consent|policy)|manage (?:your )?(?:cookies|consent|privacy)|"
    r"nous respectons votre vie privée|nous utilisons des cookies|wir respektieren ihre privatsphäre|"
    r"wir verwenden cookies|diese website verwendet cookies|respetamos (?:tu|su) privacidad|utilizamos cookies|"
    r"rispettiamo la tua privacy|utilizziamo (?:i )?cookie|wij gebruiken cookies|utilizamos cookies|"
    r"respeitamos a sua privacidade|używamy (?:plików )?cookie|мы используем (?:файлы )?cookie)", re.IGNORECASE)
_HEADING = re.compile(r"^[#>*\s-]+")


def headlines(prose: str, headings: int = 2) -> list[str]:
    """Where a page states what it is: the first non-empty line of ``prose`` and its first ``headings`` Markdown
    headings (menu lines that extraction kept can come before them; a search page's "No results" is its second
    heading), without heading or list marks. Body lines after the first are not read: an API stub's "Raise KeyError if
    not found." is its second line."""
    out: list[str] = []
    seen = 0
    for line in prose.splitlines():
        text = _HEADING.sub("", line).strip()
        if not text:
            continue
        heading = line.startswith("#")
        if not out or (heading and seen < headings):
            out.append(text)
        seen += heading
        if seen >= headings:
            break
    return out


class ClearJunk(RuleFilter):
    default_name = "clear_junk"
    reads_text_memos = True  # filters/signals.py compute (pipelines/memo.py)
    reasons = REASONS

    def __init__(self, kind: str = "document", drop: str | list[str] | None = None, min_words: int = 30,
                 max_lorem: float = 0.25, max_repeated: float = 0.7, max_wall_words: float = 0.06,
                 max_keyword: float = 0.42, max_odd_words: float = 0.25, max_mojibake: float = 0.05,
                 max_link_words: float = 0.5, short_wall_hits: int = 2, max_short_wall_words: float = 0.12,
                 max_error_page_words: int = 80) -> None:
        super().__init__(kind, list(DEFAULT_DROP) if drop is None else drop)
        self.min_words = int(check_number("min_words", min_words, 0, integer=True))
        self.max_lorem = check_number("max_lorem", max_lorem, 0, 1)
        self.max_repeated = check_number("max_repeated", max_repeated, 0, 1)
        self.max_wall_words = check_number("max_wall_words", max_wall_words, 0)
        self.max_keyword = check_number("max_keyword", max_keyword, 0, 1)
        self.max_odd_words = check_number("max_odd_words", max_odd_words, 0, 1)
        self.max_mojibake = check_number("max_mojibake", max_mojibake, 0)
        self.max_link_words = check_number("max_link_words", max_link_words, 0, 1)
        self.short_wall_hits = int(check_number("short_wall_hits", short_wall_hits, 1, integer=True))
        self.max_short_wall_words = check_number("max_short_wall_words", max_short_wall_words, 0, 1)
        self.max_error_page_words = int(check_number("max_error_page_words", max_error_page_words, 0, integer=True))

    def process(self, record: Any) -> Any:
        # the page's link density (extraction) as well as the text: a link farm's anchors are plain text by now
        text = main_text(record)
        values = compute(text, record.lang, getattr(record, "link_density", None))
        signals = []
        for reason, detail in self.rules(values, split(text).prose):
            if reason in self.drop:
                raise Drop(reason, detail)
            signals.append(reason)
        record_signals(record, self._name(), signals)
        return record

    def check(self, text: str, lang: str | None) -> Iterator[tuple[str, str]]:
        yield from self.rules(compute(text, lang), split(text).prose)

    def rules(self, values: tuple[float, ...], prose: str | None = None) -> Iterator[tuple[str, str]]:
        """The rules ``values`` (filters/signals.py ``compute``) fail; on fewer than ``min_words`` words of prose only
        the short-text ones. ``prose``: the text's prose (filters/parts.py), for the rules that read its first line
        and headings; without it they are not checked."""
        words = round(math.expm1(signal(values, "log_prose_words")))  # the signals count words already
        consent = None
        if prose is not None and words < self.max_error_page_words:
            lines = headlines(prose)
            if error := next((m for line in lines if (m := _ERROR_HEADLINE.search(line))), None):
                yield "error_page", error.group(0).strip()[:40]
            consent = next((m for line in lines if (m := _CONSENT_HEADLINE.search(line))), None)
        wall = signal(values, "wall_words")
        if words < self.min_words:
            walled = round(wall * words) >= self.short_wall_hits and wall >= self.max_short_wall_words
        else:
            walled = wall >= self.max_wall_words
        if walled or consent:
            yield "consent_or_paywall", f"{wall:.3f}" if walled else consent.group(0)[:40]  # type: ignore[union-attr]
        if words < self.min_words:
            return
        lorem = signal(values, "lorem_words")
        if lorem >= self.max_lorem:
            yield "placeholder_text", f"{lorem:.2f}"
        repeated = max(signal(values, "dup_paragraph_chars"), signal(values, "dup_line_chars"))
        if repeated >= self.max_repeated:
            yield "repeated_content", f"{repeated:.2f}"
        keyword = signal(values, "top_content_ngram")
        if keyword >= self.max_keyword:  # NaN (unspaced scripts) compares False
            yield "keyword_stuffing", f"{keyword:.2f}"
        odd, mojibake = signal(values, "odd_words"), signal(values, "mojibake")
        if odd >= self.max_odd_words or mojibake >= self.max_mojibake:
            yield "garbled_text", f"odd {odd:.2f}, mojibake {mojibake:.3f}"
        links = signal(values, "link_words")
        if links >= self.max_link_words:
            yield "link_list", f"{links:.2f}"
