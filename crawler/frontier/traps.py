"""Crawler-trap guard: drop URLs that would make a crawl endless (``TrapGuard``).

Pure Python, no Scrapy import: ``crawler/frontier/middleware.py`` drops the requests it rejects.
Everything here is deterministic given the same calls in the same order.

Where the rules and thresholds come from
----------------------------------------
- ``repeated_segments``: Heritrix 3 ``PathologicalPathDecideRule`` rejects a URI whose path repeats the
  same segment (or block of segments) consecutively more than ``maxRepetitions`` = 2 times, e.g.
  ``/a/a/a/``. We use the same default and also catch a segment that recurs non-consecutively more than 3
  times (Google's broken-relative-link example repeats ``category`` and ``html`` four times each: Google
  Search Central, "URL structure best practices for Google Search", "Overly complex URLs",
  developers.google.com/search/docs/crawling-indexing/url-structure; a golden URL in
  tests/crawler/test_traps.py).
- ``too_many_segments``: Heritrix 3 ``TooManyPathSegmentsDecideRule`` rejects paths deeper than 20
  segments; same default.
- ``url_too_long``: default 2,048 characters (the project's choice), just below Scrapy's ``URLLENGTH_LIMIT``
  of 2,083 (the old Internet Explorer limit), so such drops are counted under our stats key.
- ``too_many_params`` (10) and ``query_explosion`` (64 distinct query "shapes" per host+path) are our own
  choices, explained in ``TrapGuard``.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter, OrderedDict
from urllib.parse import parse_qsl

from crawler.frontier.priority import split_url

_DIGIT_RUN = re.compile(r"\d+")


def _has_repeated_block(segments: list[str], max_repeats: int) -> bool:
    """True when a block of 1..n segments occurs more than ``max_repeats`` times in a row (/a/b/a/b/a/b)."""
    n = len(segments)
    times = max_repeats + 1
    for size in range(1, n // times + 1):
        for start in range(n - size * times + 1):
            block = segments[start : start + size]
            if all(segments[start + r * size : start + (r + 1) * size] == block for r in range(1, times)):
                return True
    return False


class TrapGuard:
    """Drop URLs that look like crawler traps; ``check(url)`` returns a reason or None.

    ``query_explosion`` counts distinct query-string variants per host+path, where a variant is the query
    with its parameters sorted and every digit run replaced by ``#``: ``?t=1`` ... ``?t=99999`` (a forum's
    topics, a shop's products) are one variant and never trip it, while sort/filter/facet combinations and
    session tokens (``sid=3a5e...``) make new ones. Unbounded numeric parameters (``?date=2024-01-15``,
    ``?page=N``) are left to ``url_priority``, which pushes calendars and deep pagination back.

    Stateful only for ``query_explosion``: per host, it remembers hashes of the distinct variants seen
    per path (an 8-byte hash each), at most ``max_query_variants`` per path and ``max_variants_per_host`` per
    host, least-recently-used paths forgotten first; at most ``max_hosts`` hosts, least-recently-used first.
    So memory is bounded by ``max_hosts * max_variants_per_host`` hashes (defaults: 2,048 x 2,048, about
    250 MB in the worst case, a few KB per host in practice). A forgotten path may admit another
    ``max_query_variants`` variants: a bounded leak, not a trap.
    """

    def __init__(
        self,
        max_url_length: int = 2048,
        max_segments: int = 20,
        max_params: int = 10,
        max_segment_repeats: int = 2,
        max_segment_occurrences: int = 3,
        max_query_variants: int = 64,
        max_variants_per_host: int = 2048,
        max_hosts: int = 2048,
    ) -> None:
        self.max_url_length = max_url_length
        self.max_segments = max_segments
        self.max_params = max_params
        self.max_segment_repeats = max_segment_repeats
        self.max_segment_occurrences = max_segment_occurrences
        self.max_query_variants = max_query_variants
        self.max_variants_per_host = max_variants_per_host
        self.max_hosts = max_hosts
        # host -> (path -> variant hashes), both least-recently-used first; plus a per-host hash count
        self._variants: OrderedDict[str, OrderedDict[str, set[int]]] = OrderedDict()
        self._host_sizes: dict[str, int] = {}
        self.counts: Counter[str] = Counter()

    def check(self, url: str) -> str | None:
        """The drop reason for ``url`` (``url_too_long``, ``too_many_segments``, ``too_many_params``,
        ``repeated_segments``, ``query_explosion``) or None to keep it. Records the URL's query variant."""
        reason = self._check(url)
        if reason is not None:
            self.counts[reason] += 1
        return reason

    def _check(self, url: str) -> str | None:
        if len(url) > self.max_url_length:
            return "url_too_long"
        try:
            parts = split_url(url)
        except ValueError:
            return None  # malformed URLs are the address guard's business, not a trap
        segments = [s for s in parts.path.split("/") if s]
        if len(segments) > self.max_segments:
            return "too_many_segments"
        params = parse_qsl(parts.query, keep_blank_values=True) if parts.query else []
        if len(params) > self.max_params:
            return "too_many_params"
        if len(segments) > self.max_segment_repeats:
            if _has_repeated_block(segments, self.max_segment_repeats):
                return "repeated_segments"
            if Counter(segments).most_common(1)[0][1] > self.max_segment_occurrences:
                return "repeated_segments"
        if params and self._new_variant_explodes(parts.netloc.lower(), parts.path, params):
            return "query_explosion"
        return None

    def _new_variant_explodes(self, host: str, path: str, params: list[tuple[str, str]]) -> bool:
        # Parameter order does not make a new page (?a=1&b=2 = ?b=2&a=1), nor does an id (?t=1 ~ ?t=2).
        canonical = _DIGIT_RUN.sub("#", "&".join(f"{k}={v}" for k, v in sorted(params)))
        variant = int.from_bytes(hashlib.blake2b(canonical.encode("utf-8", "replace"), digest_size=8).digest())
        paths = self._variants.get(host)
        if paths is None:
            paths = self._variants[host] = OrderedDict()
            self._host_sizes[host] = 0
            while len(self._variants) > self.max_hosts:
                old, _ = self._variants.popitem(last=False)
                del self._host_sizes[old]
        else:
            self._variants.move_to_end(host)
        seen = paths.get(path)
        if seen is None:
            seen = paths[path] = set()
        else:
            paths.move_to_end(path)
        if variant in seen:
            return False
        if len(seen) >= self.max_query_variants:
            return True
        seen.add(variant)
        self._host_sizes[host] += 1
        while self._host_sizes[host] > self.max_variants_per_host and len(paths) > 1:
            _, dropped = paths.popitem(last=False)
            self._host_sizes[host] -= len(dropped)
        return False
