"""C4 line cleaning and document rules (Raffel et al. 2020, "Exploring the Limits of Transfer Learning
with a Unified Text-to-Text Transformer", section 2.2; the defaults of datatrove's C4QualityFilter).

Line cleaning (the text is rewritten; a line is removed when):

- it does not end in terminal punctuation (``. ! ?``, a closing quote; CJK full stops too);
- it has fewer than 3 words (CJK-aware word count, filters/text.py);
- it contains the word "javascript" (the "please enable JavaScript" warnings);
- it contains a cookie or policy notice ("terms of use", "privacy policy", "cookie policy",
  "uses cookies", "use of cookies", "use cookies");
- it has a word longer than 1,000 characters.

Wikipedia-style citation markers (``[1]``, ``[citation needed]``, ``[edit]``) are removed from lines.

Document rules (drop reason in brackets): the phrase "lorem ipsum" (``lorem_ipsum``); a curly bracket,
which in web text mostly means code (``curly_bracket``); fewer than 5 sentences left after cleaning
(``too_few_sentences``). C4's bad-words rule is ``filters.profanity.Profanity(max_ratio=0)``.

What each rule reads (filters/parts.py; ``prose_only: false``: the whole text, as published): the line
rules clean prose lines only, judged without inline math and non-word inline code, and code blocks,
REPL transcripts, math and tables are kept verbatim (C4 would delete every code line with fewer than
3 words and every line of a listing that mentions JavaScript); ``curly_bracket`` looks at the prose
only (C4 used the bracket as a proxy for code, and a dictionary in a fenced block is code that this
pipeline means to keep; a bracket left in prose is still counted); ``lorem_ipsum`` reads the whole
text; ``too_few_sentences`` counts the sentences of the cleaned prose. ``drop`` and quality signals as
in filters/rules.py.

FineWeb (Penedo et al. 2024) keeps C4's rules but not the terminal-punctuation line rule
(``require_terminal_punctuation: false``), which would remove Markdown headings and list items.
"""

from __future__ import annotations

import re
from typing import Any

from filters.parts import prose_line
from filters.rules import check_drop, parts_of, record_signals
from filters.text import TEXT_KINDS, check_kind, ends_with_punctuation, sentence_count, word_count
from pipelines.arguments import check_number
from pipelines.step import Drop, Step

POLICY_PHRASES = ("terms of use", "privacy policy", "cookie policy", "uses cookies", "use of cookies", "use cookies")
_CITATION = re.compile(r"\[\d+\]|\[citation needed\]|\[edit\]", re.IGNORECASE)
_JAVASCRIPT = re.compile(r"javascript", re.IGNORECASE)


class C4Filter(Step):
    default_name = "c4"
    reasons = ("lorem_ipsum", "curly_bracket", "too_few_sentences")

    def __init__(
        self,
        kind: str = "document",
        drop: str | list[str] = "all",
        prose_only: bool = True,
        require_terminal_punctuation: bool = True,
        min_words_per_line: int = 3,
        max_word_length: int = 1000,
        remove_javascript_lines: bool = True,
        remove_policy_lines: bool = True,
        remove_citations: bool = True,
        drop_lorem_ipsum: bool = True,
        drop_curly_bracket: bool = True,
        min_sentences: int = 5,
    ) -> None:
        self.input_kind = check_kind(kind, TEXT_KINDS)
        self.drop = check_drop(drop, self.reasons)
        flags = {"prose_only": prose_only, "require_terminal_punctuation": require_terminal_punctuation,
                 "remove_javascript_lines": remove_javascript_lines, "remove_policy_lines": remove_policy_lines,
                 "remove_citations": remove_citations, "drop_lorem_ipsum": drop_lorem_ipsum,
                 "drop_curly_bracket": drop_curly_bracket}
        for name, value in flags.items():
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be a bool, got {value!r}")
        self.prose_only = prose_only
        self.require_terminal_punctuation = require_terminal_punctuation
        self.remove_javascript_lines = remove_javascript_lines
        self.remove_policy_lines = remove_policy_lines
        self.remove_citations = remove_citations
        self.drop_lorem_ipsum = drop_lorem_ipsum
        self.drop_curly_bracket = drop_curly_bracket
        self.min_words_per_line = int(check_number("min_words_per_line", min_words_per_line, 0, integer=True))
        self.max_word_length = int(check_number("max_word_length", max_word_length, 1, integer=True))
        self.min_sentences = int(check_number("min_sentences", min_sentences, 0, integer=True))

    # -- line cleaning ---------------------------------------------------------------------------
    def line_reason(self, line: str, lang: str | None = None) -> str | None:
        """Why C4 removes ``line`` (None: kept). ``line`` is stripped."""
        if self.require_terminal_punctuation and not ends_with_punctuation(line):
            return "no_terminal_punctuation"
        if word_count(line, lang) < self.min_words_per_line:
            return "few_words"
        if self.remove_javascript_lines and _JAVASCRIPT.search(line):
            return "javascript"
        lower = line.lower()
        if self.remove_policy_lines and any(p in lower for p in POLICY_PHRASES):
            return "policy"
        if any(len(w) > self.max_word_length for w in line.split()):
            return "long_word"
        return None

    def clean(self, text: str, lang: str | None = None) -> str:
        """``text`` with C4's line rules applied; blank-line structure of kept lines is preserved."""
        out: list[str] = []
        kinds = parts_of(text, self.prose_only).line_kinds
        for i, raw in enumerate(text.splitlines()):
            if kinds and kinds[i] != "prose":
                out.append(raw)  # code, math and tables are kept as they are
                continue
            line = _CITATION.sub("", raw).rstrip() if self.remove_citations else raw.rstrip()
            stripped = line.strip()
            if not stripped:
                if out and out[-1]:
                    out.append("")
                continue
            judged = prose_line(stripped).strip() if kinds else stripped
            if self.line_reason(judged, lang) is None:
                out.append(line)
        return "\n".join(out).strip()

    # -- document rules --------------------------------------------------------------------------
    def failures(self, text: str, lang: str | None = None) -> list[str]:
        """Every document rule ``text`` fails (after cleaning, for the sentence rule)."""
        return [reason for reason, _ in self._doc_rules(text, self.clean(text, lang))]

    def _doc_rules(self, raw: str, cleaned: str) -> list[tuple[str, str | None]]:
        fails: list[tuple[str, str | None]] = []
        if self.drop_lorem_ipsum and "lorem ipsum" in raw.lower():
            fails.append(("lorem_ipsum", None))
        if self.drop_curly_bracket and "{" in parts_of(raw, self.prose_only).prose:
            fails.append(("curly_bracket", None))
        n = sentence_count(parts_of(cleaned, self.prose_only).prose)
        if n < self.min_sentences:
            fails.append(("too_few_sentences", f"{n} < {self.min_sentences}"))
        return fails

    def process(self, record: Any) -> Any:
        if record.kind == "document":
            raw = record.text or ""
            cleaned = self.clean(raw, record.lang)
        else:
            texts = [s for s in record.segments if s.kind == "text" and s.text]
            raw = "\n\n".join(s.text for s in texts)
            for seg in texts:
                seg.text = self.clean(seg.text, record.lang)
            record.segments = [s for s in record.segments if s.kind != "text" or s.text]
            cleaned = "\n\n".join(s.text for s in record.segments if s.kind == "text")
        fails = self._doc_rules(raw, cleaned)
        for reason, detail in fails:
            if reason in self.drop:
                raise Drop(reason, detail)
        record_signals(record, self._name(), [reason for reason, _ in fails])
        if record.kind == "document":
            record.text = cleaned
        return record
