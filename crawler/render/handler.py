"""One scrapy-playwright download handler, hence one Playwright driver and one browser, for http and https.

Scrapy builds a download handler per URL scheme (``DOWNLOAD_HANDLERS``), and scrapy-playwright's handler owns
its browser: configured for both schemes as its documentation shows, a crawl that renders http and https pages
runs two drivers and two Chromium instances. Sharing one instance keeps the browser count (and memory, about
1.3 GB for 4 pages per ../shared/STACK-NOTES.md) at one, and lets crawler/render/middleware.py's page pool reuse pages
across schemes. Requests without ``meta["playwright"]`` still go to Scrapy's HTTP/1.1 handler (the parent
class of scrapy-playwright's).

Playwright (its Node driver) starts with the first page that goes to the browser, not with the engine as
scrapy-playwright does: with ``--render auto`` most crawls of server-rendered sites never need it, and starting
it cost about 0.5 s of wall time and 0.6 CPU-seconds per crawl (a one-page crawl: 3.2-3.9 s with ``never``,
4.1-4.3 s with ``auto``).
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler

_shared: weakref.WeakKeyDictionary[Any, SharedPlaywrightHandler] = weakref.WeakKeyDictionary()


class SharedPlaywrightHandler(ScrapyPlaywrightDownloadHandler):
    """scrapy-playwright's handler, built once per crawler however many schemes name it."""

    _winnow_closed = False
    _winnow_started: asyncio.Future[None] | None = None

    @classmethod
    def from_crawler(cls, crawler: Any) -> SharedPlaywrightHandler:
        handler = _shared.get(crawler)
        if handler is None:
            handler = _shared[crawler] = cls(crawler)
        return handler

    async def _maybe_launch_in_thread(self) -> None:
        """Connected to ``engine_started`` by scrapy-playwright; Playwright starts on first use instead."""

    async def _start_once(self) -> None:
        if self._winnow_started is None:
            self._winnow_started = asyncio.ensure_future(super()._maybe_launch_in_thread())
        await asyncio.shield(self._winnow_started)  # one start, however many pages wait for it

    async def download_request(self, request: Any) -> Any:
        if request.meta.get("playwright"):
            await self._start_once()  # a failed start fails each browser request, as scrapy-playwright's own would
        return await super().download_request(request)

    async def close(self) -> None:
        if self._winnow_closed:  # called once per scheme
            return
        self._winnow_closed = True
        await super().close()
