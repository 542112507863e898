"""The frontier gate: the last spider middleware before the scheduler decides what enters the crawl.

A request is admitted once: it must be http(s), well formed, on one of the seed hosts, within
``--max-depth``, ``--max-pages`` and ``--max-pages-per-host``, and new to the journal (this run or
an earlier one: the journal is the crawl's memory, see crawler/frontier/journal.py). Everything refused is
counted under ``winnow/gate/<reason>``. Requests winnow makes for itself (robots.txt, tdmrep.json)
carry no ``winnow_url`` and are not gated.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

from scrapy import Request

from crawler.net.address_guard import check_url
from pipelines.settings import read as read_setting


class GateMiddleware:
    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        settings = crawler.settings
        self.max_pages = read_setting(settings, "WINNOW_MAX_PAGES")
        self.max_per_host = read_setting(settings, "WINNOW_MAX_PAGES_PER_HOST")
        self.max_depth = read_setting(settings, "WINNOW_MAX_DEPTH")
        self._pages = 0
        self._per_host: Counter[str] = Counter()
        self._primed = False

    @classmethod
    def from_crawler(cls, crawler: Any) -> GateMiddleware:
        return cls(crawler)

    def _prime(self) -> None:
        """Count what earlier runs of a resumed crawl admitted, so the caps hold across runs."""
        self._primed = True
        for pending in self.crawler.spider.journal.queued.values():
            if pending.depth >= 0:
                self._pages += 1
                self._per_host[(urlsplit(pending.url).hostname or "").lower()] += 1

    async def process_start(self, start: AsyncIterator[Any]) -> AsyncIterator[Any]:
        async for item in start:
            if not isinstance(item, Request) or self.admit(item):
                yield item

    async def process_spider_output(self, response: Any, result: AsyncIterator[Any]) -> AsyncIterator[Any]:
        async for item in result:
            if not isinstance(item, Request) or self.admit(item):
                yield item

    def _refuse(self, reason: str) -> bool:
        self.stats.inc_value(f"winnow/gate/{reason}")
        return False

    def admit(self, request: Request) -> bool:
        meta = request.meta
        url = meta.get("winnow_url")
        if url is None:
            return True
        if not self._primed:
            self._prime()
        if meta.get("winnow_replay"):
            return True  # journaled by an earlier run, still pending: it was admitted then
        spider = self.crawler.spider
        reason = check_url(url)
        if reason:
            return self._refuse(reason)
        host = (urlsplit(url).hostname or "").lower()
        if host not in spider.allowed_hosts:
            return self._refuse("offsite")
        depth = meta.get("winnow_depth", 0)
        is_page = meta.get("winnow_kind", "page") == "page"
        if is_page and self.max_depth >= 0 and depth > self.max_depth:
            return self._refuse("max_depth")
        if url in spider.journal.queued:
            return False  # seen: the common case, not worth a counter
        if is_page and self.max_pages and self._pages >= self.max_pages:
            return self._refuse("max_pages")
        if is_page and self.max_per_host and self._per_host[host] >= self.max_per_host:
            return self._refuse("max_pages_per_host")
        spider.journal.queue(url, depth if is_page else -1, request.priority, meta.get("winnow_referrer"))
        if is_page:
            self._pages += 1
            self._per_host[host] += 1
        return True
