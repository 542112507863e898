"""robots.txt rules per origin with an expiry: RFC 9309 §2.4 caching, §2.3.1.4 for unreachable hosts.

Fresh rules are kept ``ttl`` seconds (24 h: §2.4, "SHOULD NOT use the cached version for more than 24 hours").
An unreachable outcome is kept only ``unreachable_retry`` seconds (5 min), so the host is retried soon instead of
being disallowed for a day; when a host that had usable rules becomes unreachable, those rules stay in force for
up to ``STALE_MAX_SECONDS`` (30 days, §2.3.1.4's example period), retried at the same pace.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from crawler.policy.robots import RobotsRules

DEFAULT_CACHE_SECONDS = 24 * 3600.0  # RFC 9309 §2.4
DEFAULT_UNREACHABLE_RETRY_SECONDS = 300.0
STALE_MAX_SECONDS = 30 * 24 * 3600.0  # RFC 9309 §2.3.1.4 ("for example, 30 days")


@dataclass(slots=True)
class _Entry:
    rules: RobotsRules
    fetched_at: float  # when these rules were last fetched successfully
    expires_at: float


def is_unreachable(rules: RobotsRules) -> bool:
    return rules.reason.startswith("unreachable")


class RobotsCache:
    """Rules per origin with an expiry (RFC 9309 §2.4), shorter for unreachable outcomes (§2.3.1.4)."""

    def __init__(
        self,
        ttl: float = DEFAULT_CACHE_SECONDS,
        unreachable_retry: float = DEFAULT_UNREACHABLE_RETRY_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ttl = ttl
        self.unreachable_retry = unreachable_retry
        self.clock = clock
        self._entries: dict[str, _Entry] = {}

    def get(self, key: str) -> RobotsRules | None:
        """Fresh rules, or None when they must be (re)fetched."""
        entry = self._entries.get(key)
        if entry is None or self.clock() >= entry.expires_at:
            return None
        return entry.rules

    def peek(self, key: str) -> RobotsRules | None:
        """The last rules stored, fresh or not."""
        entry = self._entries.get(key)
        return entry.rules if entry else None

    def store(self, key: str, rules: RobotsRules) -> RobotsRules:
        """Store a fetch outcome and return the rules to apply, which are the previous ones when the host has
        just become unreachable and its last good copy is under 30 days old."""
        now = self.clock()
        if is_unreachable(rules):
            previous = self._entries.get(key)
            if previous and not is_unreachable(previous.rules) and now - previous.fetched_at <= STALE_MAX_SECONDS:
                previous.expires_at = now + self.unreachable_retry
                return previous.rules
            self._entries[key] = _Entry(rules, now, now + self.unreachable_retry)
            return rules
        self._entries[key] = _Entry(rules, now, now + self.ttl)
        return rules
