"""The winnow spider: seeds -> HTML pages on the seeds' hosts, each with its training-use verdict.

The spider parses and follows links; policy, safety and politeness live in middlewares (robots.txt
in crawler/robots_middleware.py, the address guard, Retry-After and error budgets in
crawler/politeness.py, priorities and traps in crawler/frontier_middleware.py, admission in
crawler/gate.py), and the WARC output in crawler/warc_pipeline.py. The verdict itself is
crawler/signals.py's ``page_verdict``; this module gathers its inputs: the robots.txt verdicts the
middleware put in ``request.meta["winnow_robots"]``, the response headers and HTML, and the host's
``/.well-known/tdmrep.json`` (fetched once per host, through the same middlewares).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import scrapy
from scrapy.http import HtmlResponse, Request, Response
from scrapy.linkextractors import LinkExtractor
from scrapy.utils.gz import gunzip
from scrapy.utils.sitemap import Sitemap
from w3lib.url import canonicalize_url

from crawler.journal import Journal
from crawler.signals import page_verdict
from crawler.tdmrep import TdmRep

log = logging.getLogger(__name__)

JOURNAL = Path(".crawl") / "journal.jsonl"


def normalize_url(url: str) -> str:
    """Canonical form for de-duplication: sorted query, no fragment (w3lib's canonicalize_url)."""
    return canonicalize_url(url, keep_fragments=False)


def host_root(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "", "", ""))


class WinnowSpider(scrapy.Spider):
    name = "winnow"

    def __init__(self, seeds: list[str], output_dir: str, resume: bool = False, sitemaps: bool = False,
                 *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seeds = [normalize_url(s) for s in seeds]
        self.output_dir = Path(output_dir)
        self.resume = resume
        self.sitemaps = sitemaps
        self.allowed_hosts = {(urlsplit(s).hostname or "").lower() for s in self.seeds}
        self.journal = Journal(self.output_dir / JOURNAL)
        self._tdmrep: dict[str, asyncio.Future[TdmRep | None]] = {}
        self._sitemap_hosts: set[str] = set()
        self.links = LinkExtractor(unique=True)  # default deny_extensions: images, media, archives, office docs

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> WinnowSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.bot_name = crawler.settings.get("WINNOW_BOT_NAME")
        spider.max_depth = crawler.settings.getint("WINNOW_MAX_DEPTH", -1)
        if spider.resume:
            spider.journal.load()
        spider.journal.open()
        return spider

    def closed(self, reason: str) -> None:
        self.journal.close()

    # -- requests -----------------------------------------------------------------------------
    def page_request(self, url: str, depth: int, referrer: str | None, replay: bool = False,
                     priority: int = 0) -> Request:
        return Request(url, callback=self.parse, errback=self.failed, priority=priority, meta={
            "winnow_url": url, "winnow_depth": depth, "winnow_referrer": referrer, "winnow_kind": "page",
            "winnow_replay": replay})

    def sitemap_request(self, url: str, replay: bool = False) -> Request:
        return Request(url, callback=self.parse_sitemap, errback=self.failed, priority=-1, meta={
            "winnow_url": url, "winnow_depth": 0, "winnow_kind": "sitemap", "winnow_replay": replay,
            "dont_obey_robotstxt": False})

    async def start(self) -> AsyncIterator[Request]:
        for pending in self.journal.pending():
            if pending.depth < 0:
                yield self.sitemap_request(pending.url, replay=True)
            else:
                yield self.page_request(pending.url, pending.depth, pending.referrer, replay=True,
                                        priority=pending.priority)
        for seed in self.seeds:
            yield self.page_request(seed, 0, None)

    def failed(self, failure: Any) -> None:
        request = failure.request
        reason = request.meta.get("winnow_skip_reason") or f"error.{type(failure.value).__name__}"
        self.crawler.stats.inc_value("winnow/pages_failed" if reason.startswith("error.") else "winnow/pages_skipped")
        self.journal.finish(request.meta["winnow_url"], reason)

    # -- pages --------------------------------------------------------------------------------
    async def parse(self, response: Response) -> AsyncIterator[Any]:
        meta = response.meta
        url = meta["winnow_url"]
        if not isinstance(response, HtmlResponse):
            self.crawler.stats.inc_value("winnow/skipped/non_html")
            self.journal.finish(url, "skip.non_html")
            return
        if response.status != 200:
            self.crawler.stats.inc_value(f"winnow/skipped/status_{response.status}")
            self.journal.finish(url, f"skip.status_{response.status}")
            return
        robots = meta.get("winnow_robots") or {}
        tdmrep = await self.tdmrep_for(response.url)
        headers = {k.decode("latin-1").lower(): [v.decode("latin-1") for v in vs]
                   for k, vs in response.headers.items()}
        verdict = page_verdict(
            url=response.url, bot_name=self.bot_name, crawl_allowed=robots.get("crawl_allowed", True),
            robots_signals=tuple(robots.get("signals", ())),
            training_token_allowed=robots.get("training_allowed", True),
            robots_content_usage=robots.get("content_usage"), headers=headers, html=response.body, tdmrep=tdmrep)
        self.crawler.stats.inc_value(f"winnow/verdict/training_{'allowed' if verdict.training_allowed else 'denied'}")
        depth = meta.get("winnow_depth", 0)
        yield {
            "winnow_url": url,
            "request": response.request,
            "response": response,
            "fields": {
                "winnow-bot": self.bot_name,
                "winnow-fetched-at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "winnow-training-allowed": verdict.training_allowed,
                "winnow-images-allowed": verdict.images_allowed,
                "winnow-follow-links": verdict.follow_links,
                "winnow-signal": list(verdict.signals),
                "winnow-depth": depth,
                "winnow-referrer": meta.get("winnow_referrer"),
                "winnow-requested-url": url if url != response.url else None,
                "winnow-rendered": False,
                "winnow-topic": meta.get("winnow_topic"),
            },
        }
        if self.sitemaps and depth == 0:
            for request in self.sitemap_requests(response.url):
                yield request
        if not verdict.follow_links:
            self.crawler.stats.inc_value("winnow/nofollow_pages")
            return
        if self.max_depth >= 0 and depth >= self.max_depth:
            return
        for link in self.links.extract_links(response):
            if link.nofollow:
                continue
            yield self.page_request(normalize_url(link.url), depth + 1, response.url)

    # -- tdmrep.json, once per host ---------------------------------------------------------------
    async def tdmrep_for(self, url: str) -> TdmRep | None:
        root = host_root(url)
        future = self._tdmrep.get(root)
        if future is None:
            future = asyncio.get_running_loop().create_future()
            self._tdmrep[root] = future
            future.set_result(await self._fetch_tdmrep(root))
        return await future

    async def _fetch_tdmrep(self, root: str) -> TdmRep | None:
        request = Request(f"{root}/.well-known/tdmrep.json", meta={"dont_obey_robotstxt": True, "dont_retry": True,
                                                                   "handle_httpstatus_all": True}, priority=10)
        try:
            response = await self.crawler.engine.download_async(request)
        except Exception as exc:  # unreachable: no TDMRep file, the page's own signals still count
            log.debug("tdmrep.json for %s: %s", root, exc)
            return None
        if response.status != 200:
            return None
        self.crawler.stats.inc_value("winnow/tdmrep/files")
        return TdmRep.parse(response.body)

    # -- sitemaps (--sitemaps) ----------------------------------------------------------------
    def sitemap_requests(self, url: str) -> Iterator[Request]:
        host = host_root(url)
        if host in self._sitemap_hosts:
            return
        self._sitemap_hosts.add(host)
        robots = self._robots_middleware()
        rules = robots.rules_for(url) if robots else None
        for sitemap in (rules.sitemaps if rules else []):
            yield self.sitemap_request(sitemap)

    def _robots_middleware(self) -> Any:
        for mw in self.crawler.engine.downloader.middleware.middlewares:
            if hasattr(mw, "rules_for"):
                return mw
        return None

    def parse_sitemap(self, response: Response) -> Iterator[Request]:
        url = response.meta["winnow_url"]
        body = response.body
        try:
            if body[:2] == b"\x1f\x8b":
                body = gunzip(body)
            sitemap = Sitemap(body)
        except Exception:  # not XML, or a broken gzip: counted, the crawl goes on
            self.crawler.stats.inc_value("winnow/sitemaps/unparseable")
            self.journal.finish(url, "skip.bad_sitemap")
            return
        self.crawler.stats.inc_value("winnow/sitemaps/read")
        for entry in sitemap:
            loc = entry.get("loc")
            if not loc:
                continue
            if sitemap.type == "sitemapindex":
                yield self.sitemap_request(loc)
            elif sitemap.type == "urlset":
                yield self.page_request(normalize_url(loc), 1, url)
        self.journal.finish(url, "sitemap")
