"""How a page is extracted: one options object for ``extract_page``, ``extract_pages`` and the ``ExtractPage`` step
(its YAML keys are these fields). Checked when made, so a wrong value in a config fails at start-up, naming it.

- ``selector``: ``model`` (the block classifier; docs/reference.md, Extraction) or ``trafilatura`` (its own choice);
- ``threshold``: the model's probability threshold (default: the one stored per page type with the model);
- ``favor_precision``, ``fast``: trafilatura's own modes, with ``selector: trafilatura`` only;
- ``quick``: the quick block model decides the pages it is sure of (default); ``false`` sends every page through
  trafilatura and the full model, as before issue 28 (slower, the same cross-validated F1; docs/reference.md);
- ``include_tables``; ``min_chars``: a page with less main text is dropped (``too_short``);
- ``max_html_bytes``: larger pages are dropped unparsed (``too_large``);
- ``time_limit_s``: per page, in a worker process that is replaced when a page outlives it (pipelines/deadline.py).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from extract.core import SELECTORS
from pipelines.arguments import check_number
from pipelines.deadline import check_time_limit

DEFAULT_MAX_HTML_BYTES = 10_000_000
DEFAULT_TIME_LIMIT_S = 20.0


def check_selection(selector: str, threshold: float | None, favor_precision: bool, fast: bool) -> None:
    """Refuse settings that do not go together (a clear error before any work)."""
    if selector not in SELECTORS:
        raise ValueError(f"selector must be one of {list(SELECTORS)}, got {selector!r}")
    if threshold is not None:
        if isinstance(threshold, bool) or not isinstance(threshold, int | float) or not 0 < threshold < 1:
            raise ValueError(f"threshold must be a probability between 0 and 1 (exclusive) or null, got {threshold!r}")
        if selector != "model":
            raise ValueError("threshold applies to selector: model only")
    for name, value in (("favor_precision", favor_precision), ("fast", fast)):
        if not isinstance(value, bool):
            raise ValueError(f"{name} must be a bool, got {value!r}")
        if value and selector != "trafilatura":
            raise ValueError(f"{name} sets trafilatura's own selection and applies to selector: trafilatura only "
                             "(the block model always reads trafilatura's verdicts in the mode it was trained on)")


@dataclass(frozen=True)
class PageOptions:
    """The extraction options (module docstring)."""

    selector: str = "model"
    threshold: float | None = None
    favor_precision: bool = False
    fast: bool = False
    quick: bool = True
    include_tables: bool = True
    min_chars: int = 1
    max_html_bytes: int = DEFAULT_MAX_HTML_BYTES
    time_limit_s: float | None = DEFAULT_TIME_LIMIT_S

    def __post_init__(self) -> None:
        check_selection(self.selector, self.threshold, self.favor_precision, self.fast)
        if not isinstance(self.quick, bool):
            raise ValueError(f"quick must be a bool, got {self.quick!r}")
        if not isinstance(self.include_tables, bool):
            raise ValueError(f"include_tables must be a bool, got {self.include_tables!r}")
        check_number("min_chars", self.min_chars, 0, integer=True)
        check_number("max_html_bytes", self.max_html_bytes, 1, integer=True)
        check_time_limit(self.time_limit_s)
        if self.threshold is not None:
            object.__setattr__(self, "threshold", float(self.threshold))
        if self.time_limit_s is not None:
            object.__setattr__(self, "time_limit_s", float(self.time_limit_s))

    @classmethod
    def of(cls, options: PageOptions | None = None, **given: Any) -> PageOptions:
        """``options`` with the ``given`` fields replaced (the defaults where ``options`` is None); an unknown name
        is a ValueError listing the known ones."""
        known = [f.name for f in fields(cls)]
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise ValueError(f"unknown extraction option(s) {unknown}; the options are {known}")
        base = {f: getattr(options, f) for f in known} if options is not None else {}
        return cls(**{**base, **given})
