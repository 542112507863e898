"""Host language steering: estimate each host's share of target-language pages (``HostLanguage``).

Pure Python, no Scrapy import and no language detector: ``crawler/frontier/middleware.py`` detects each
page's language and adds the host's adjustment to request priorities. Everything here is deterministic given
the same calls in the same order. The rule and its thresholds are our own choices, explained in
``HostLanguage``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable


class HostLanguage:
    """Estimate each host's share of target-language pages from its first pages; penalise off-target hosts.

    Our own rule: a page counts as on-target when its language is a target with score >= ``min_score``;
    a page with a lower score (short or mixed text) counts as half on-target, because it is evidence of
    neither. From ``min_pages`` observed pages on, a host whose on-target share is below one half gets
    ``-max_penalty * (1 - share / 0.5)``: -40 at share 0, -8 at share 0.4 of 5 pages, 0 at a half or more
    (a bilingual host still yields target pages). Only the first ``pages_per_host`` pages are used: the
    estimate is for steering the frontier early, and detection costs time.
    """

    def __init__(
        self,
        languages: Iterable[str],
        pages_per_host: int = 5,
        min_pages: int = 3,
        min_score: float = 0.5,
        max_penalty: int = 40,
    ) -> None:
        self.languages = frozenset(lang.strip().lower() for lang in languages if lang.strip())
        self.pages_per_host = pages_per_host
        self.min_pages = max(1, min(min_pages, pages_per_host))
        self.min_score = min_score
        self.max_penalty = max_penalty
        self._langs: dict[str, Counter[str]] = {}
        self._on_target: dict[str, float] = {}
        self._adjust: dict[str, int] = {}

    def wants(self, host: str) -> bool:
        """Whether an observation of ``host`` would still be used (so callers can skip detecting)."""
        counts = self._langs.get(host)
        return counts is None or counts.total() < self.pages_per_host

    def observe(self, host: str, lang: str, score: float) -> None:
        """Record one page of ``host`` in language ``lang`` with detector confidence ``score``."""
        counts = self._langs.setdefault(host, Counter())
        if counts.total() >= self.pages_per_host:
            return
        counts[lang] += 1
        credit = 1.0 if lang in self.languages else 0.0
        if score < self.min_score:
            credit = 0.5  # too unsure to count either way
        self._on_target[host] = self._on_target.get(host, 0.0) + credit
        self._adjust[host] = self._compute(host)

    def share(self, host: str) -> float | None:
        """Estimated on-target share of ``host``'s pages, or None before ``min_pages`` pages."""
        pages = self._langs.get(host)
        if not pages or pages.total() < self.min_pages:
            return None
        return self._on_target[host] / pages.total()

    def _compute(self, host: str) -> int:
        share = self.share(host)
        if share is None or share >= 0.5 or not self.languages:
            return 0
        return -round(self.max_penalty * (1.0 - share / 0.5))

    def adjustment(self, host: str) -> int:
        """Priority adjustment for requests to ``host``: 0 until enough evidence, negative when off-target."""
        return self._adjust.get(host, 0)

    def distribution(self) -> dict[str, dict[str, int]]:
        """Observed pages per host and language: ``{host: {lang: count}}``, hosts and languages sorted."""
        return {host: dict(sorted(counts.items())) for host, counts in sorted(self._langs.items())}
