"""One scrapy-playwright download handler, hence one Playwright driver and one browser, for http and https.

Scrapy builds a download handler per URL scheme (``DOWNLOAD_HANDLERS``), and scrapy-playwright's handler owns
its browser: configured for both schemes as its documentation shows, a crawl that renders http and https pages
runs two drivers and two Chromium instances. Sharing one instance keeps the browser count (and memory, about
1.3 GB for 4 pages per ../shared/STACK-NOTES.md) at one, and lets crawler/render/middleware.py's page pool reuse pages
across schemes. Requests without ``meta["playwright"]`` still go to Scrapy's HTTP/1.1 handler (the parent
class of scrapy-playwright's).
"""

from __future__ import annotations

import weakref
from typing import Any

from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler

_shared: weakref.WeakKeyDictionary[Any, SharedPlaywrightHandler] = weakref.WeakKeyDictionary()


class SharedPlaywrightHandler(ScrapyPlaywrightDownloadHandler):
    """scrapy-playwright's handler, built once per crawler however many schemes name it."""

    _winnow_closed = False

    @classmethod
    def from_crawler(cls, crawler: Any) -> SharedPlaywrightHandler:
        handler = _shared.get(crawler)
        if handler is None:
            handler = _shared[crawler] = cls(crawler)
        return handler

    async def close(self) -> None:
        if self._winnow_closed:  # called once per scheme
            return
        self._winnow_closed = True
        await super().close()
