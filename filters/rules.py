"""The shape shared by the heuristic rule filters: a Step whose ``check`` yields every failed rule.

``check(text, lang)`` is a generator of ``(reason, detail)``; ``failures`` lists all of them, which
is what the golden tests use to show that a text trips exactly one rule. ``kind`` chooses the record
kind the step reads: ``document`` (the text), ``interleaved`` (its text segments, joined).

Rules as signals. ``drop`` says which failed rules drop a document on their own: ``all`` (the
default: the published filters), or a list of reasons. A failed rule that does not drop is recorded
in the record's ``quality_signals`` as ``"<step name>.<reason>"``, for the quality model and for
tuning. The bundled ``default`` pipeline lets only clear-cut junk rules drop (Apple's foundation-model
report, 2025: "reducing our reliance on overly aggressive heuristic rules and incorporating more
model-based filtering techniques ... we were able to retain more informative content").

Prose only. With ``prose_only`` (the default) a rule reads the part of the text it was written for
(filters/parts.py: prose, without code blocks, REPL transcripts, math and tables); each rule module
says which of its rules read what. On a text that is all prose the result is the published rule's,
byte for byte (tests/filters/test_parts.py). ``prose_only: false`` applies the rules to the whole text.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from filters.parts import TextParts, split
from filters.text import TEXT_KINDS, check_kind, main_text
from pipelines.step import Drop, Step


def check_drop(drop: Any, reasons: tuple[str, ...]) -> frozenset[str]:
    """Validate a ``drop`` argument against the reasons a step can give."""
    if drop == "all":
        return frozenset(reasons)
    if not isinstance(drop, list | tuple) or not all(isinstance(r, str) for r in drop):
        raise ValueError(f"drop must be 'all' or a list of drop reasons, got {drop!r}")
    unknown = sorted(set(drop) - set(reasons))
    if unknown:
        raise ValueError(f"drop: unknown reasons {unknown}; this step's reasons: {list(reasons)}")
    return frozenset(drop)


def parts_of(text: str, prose_only: bool) -> TextParts:
    return split(text) if prose_only else TextParts(prose=text)


def record_signals(record: Any, name: str, reasons: list[str]) -> None:
    """Append failed-but-not-dropping rules to ``record.quality_signals``."""
    if reasons:
        record.quality_signals = [*(record.quality_signals or []), *(f"{name}.{r}" for r in reasons)]


class RuleFilter(Step):
    """Base of the heuristic filters; subclasses implement ``check`` and list their ``reasons``."""

    kinds: tuple[str, ...] = TEXT_KINDS
    reasons: tuple[str, ...] = ()

    def __init__(self, kind: str = "document", drop: str | list[str] = "all", prose_only: bool = True) -> None:
        self.input_kind = check_kind(kind, self.kinds)
        self.drop = check_drop(drop, self.reasons)
        if not isinstance(prose_only, bool):
            raise ValueError(f"prose_only must be a bool, got {prose_only!r}")
        self.prose_only = prose_only

    def check(self, text: str, lang: str | None) -> Iterator[tuple[str, str]]:
        raise NotImplementedError

    def failures(self, text: str, lang: str | None = None) -> list[str]:
        """Every rule ``text`` fails, in rule order (for tests and threshold tuning)."""
        return [reason for reason, _ in self.check(text, lang)]

    def process(self, record: Any) -> Any:
        signals = []
        for reason, detail in self.check(main_text(record), record.lang):
            if reason in self.drop:
                raise Drop(reason, detail)
            signals.append(reason)
        record_signals(record, self._name(), signals)
        return record


def ratio(part: float, whole: float) -> float:
    return part / whole if whole else 0.0
