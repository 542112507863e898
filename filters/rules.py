"""The shape shared by the heuristic rule filters: a Step whose ``check`` yields every failed rule.

``check(text, lang)`` is a generator of ``(reason, detail)``: ``process`` drops on the first one
(cheap rules come first, so most documents stop early), and ``failures`` lists all of them, which
is what the golden tests use to show that a text trips exactly one rule. ``kind`` chooses the record
kind the step reads: ``document`` (the text), ``interleaved`` (its text segments, joined).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from filters.text import TEXT_KINDS, check_kind, main_text
from pipelines.step import Drop, Step


class RuleFilter(Step):
    """Base of the heuristic filters; subclasses implement ``check``."""

    kinds: tuple[str, ...] = TEXT_KINDS

    def __init__(self, kind: str = "document") -> None:
        self.input_kind = check_kind(kind, self.kinds)

    def check(self, text: str, lang: str | None) -> Iterator[tuple[str, str]]:
        raise NotImplementedError

    def failures(self, text: str, lang: str | None = None) -> list[str]:
        """Every rule ``text`` fails, in rule order (for tests and threshold tuning)."""
        return [reason for reason, _ in self.check(text, lang)]

    def process(self, record: Any) -> Any:
        for reason, detail in self.check(main_text(record), record.lang):
            raise Drop(reason, detail)
        return record


def ratio(part: float, whole: float) -> float:
    return part / whole if whole else 0.0
