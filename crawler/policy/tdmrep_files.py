"""Each host's ``/.well-known/tdmrep.json`` (W3C TDM Reservation Protocol), fetched once per crawl.

Used by the page crawl (crawler/spider.py) and the image fetch (crawler/images/spider.py). The file is fetched
through the engine, past robots.txt (the protocol's own location, like robots.txt itself) and without retries; a
host that does not answer, or answers anything but 200, has no file, and its pages' and images' own signals still
count. Callers that ask while the fetch is under way wait for that one fetch. Parsing is crawler/policy/tdmrep.py.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from urllib.parse import urlsplit

from scrapy import Request

from crawler.policy.tdmrep import TdmRep

log = logging.getLogger(__name__)


class TdmRepFiles:
    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self._files: dict[str, asyncio.Future[TdmRep | None]] = {}

    async def for_url(self, url: str) -> TdmRep | None:
        """The TDMRep file of ``url``'s host, or None when it has none."""
        parts = urlsplit(url)
        root = f"{parts.scheme}://{parts.netloc}"
        future = self._files.get(root)
        if future is None:
            future = asyncio.get_running_loop().create_future()
            self._files[root] = future
            future.set_result(await self._fetch(root))
        return await future

    async def _fetch(self, root: str) -> TdmRep | None:
        request = Request(f"{root}/.well-known/tdmrep.json", priority=10, dont_filter=True,
                          meta={"dont_obey_robotstxt": True, "dont_retry": True, "handle_httpstatus_all": True})
        try:
            response = await self.crawler.engine.download_async(request)
        except Exception as exc:  # unreachable: no TDMRep file
            log.debug("tdmrep.json for %s: %s", root, exc)
            return None
        if response.status != 200:
            return None
        self.crawler.stats.inc_value("winnow/tdmrep/files")
        return TdmRep.parse(response.body)
