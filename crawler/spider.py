"""The winnow spider: seeds -> HTML pages on the seeds' hosts, each with its training-use verdict.

The spider parses and follows links; policy, safety and politeness live in middlewares (robots.txt
in crawler/policy/robots_middleware.py, the address guard, Retry-After and error budgets in
crawler/net/politeness.py, priorities and traps in crawler/frontier/middleware.py, admission in
crawler/frontier/gate.py), and the WARC output in crawler/warc/pipeline.py. The verdict itself is
crawler/policy/signals.py's ``page_verdict``; this module gathers its inputs: the robots.txt verdicts the
middleware put in ``request.meta["winnow_robots"]``, the response headers and HTML, and the host's
``/.well-known/tdmrep.json`` (fetched once per host, through the same middlewares).

Rendering (crawler/render/middleware.py) is here too, at the top of ``parse``: a page the browser navigated directly
is rendered and its raw response recovered, a raw page that needs JavaScript is rendered (``--render auto``).
The verdict then takes the stricter of the raw HTML and the rendered DOM (scripts can add opt-out tags), and
links are taken from the rendered DOM (scripts can add links).
"""

from __future__ import annotations

import dataclasses
import logging
import re
import time
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import scrapy
from scrapy import signals
from scrapy.exceptions import DontCloseSpider
from scrapy.http import HtmlResponse, Request, Response
from scrapy.linkextractors import LinkExtractor
from scrapy.spidermiddlewares.httperror import HttpError
from scrapy.utils.gz import gunzip
from scrapy.utils.response import get_meta_refresh
from scrapy.utils.sitemap import Sitemap
from w3lib.url import canonicalize_url

from crawler.frontier.journal import Journal
from crawler.policy.signals import VERDICT_HEADERS, page_verdict
from crawler.policy.tdmrep import TdmRep
from crawler.policy.tdmrep_files import TdmRepFiles
from crawler.render.middleware import RenderMiddleware, RenderOutcome
from crawler.warc.writer import RenderedDom
from pipelines.settings import read as read_setting

log = logging.getLogger(__name__)

JOURNAL = Path(".crawl") / "journal.jsonl"
_REFRESH_HINT = re.compile(rb"http-equiv\s*=\s*[\"']?\s*refresh", re.IGNORECASE)


def normalize_url(url: str) -> str:
    """Canonical form for de-duplication: sorted query, no fragment (w3lib's canonicalize_url)."""
    return canonicalize_url(url, keep_fragments=False)


def has_extension(url: str, extensions: frozenset[str], multi_part: tuple[str, ...] = ()) -> bool:
    """Whether the URL's path ends in one of ``extensions`` (".pdf"; lower case), as Scrapy's
    ``url_has_any_extension`` says, by one set lookup of the last suffix instead of an ``endswith`` per extension
    (130 of them by default: 0.2 s per 2,000 pages in bench/crawl_bench.py). Extensions with more than one dot
    (".tar.gz") go in ``multi_part`` and are tested one by one."""
    path = urlsplit(url).path.lower()
    dot = path.rfind(".")
    if dot > path.rfind("/") and path[dot:] in extensions:
        return True
    return bool(multi_part) and path.endswith(multi_part)


def merge_verdicts(raw: Any, rendered: Any) -> Any:
    """The stricter of two verdicts for the same page (raw HTML and rendered DOM), signals of both."""
    extra = tuple(s for s in rendered.signals if s not in raw.signals)
    return dataclasses.replace(raw, training_allowed=raw.training_allowed and rendered.training_allowed,
                               images_allowed=raw.images_allowed and rendered.images_allowed,
                               follow_links=raw.follow_links and rendered.follow_links,
                               signals=raw.signals + tuple(f"rendered:{s}" for s in extra))


def host_root(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "", "", ""))


class WinnowSpider(scrapy.Spider):
    name = "winnow"

    def __init__(self, seeds: list[str], output_dir: str, resume: bool = False, sitemaps: bool = False,
                 skipped_seeds: dict[str, str] | None = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seeds = [normalize_url(s) for s in seeds]
        self.skipped_seeds = dict(skipped_seeds or {})  # checked by crawler/frontier/seeds.py: seed -> reason
        self.output_dir = Path(output_dir)
        self.resume = resume
        self.sitemaps = sitemaps
        self.allowed_hosts = {(urlsplit(s).hostname or "").lower() for s in self.seeds}
        self.journal = Journal(self.output_dir / JOURNAL)
        self._tdmrep_files: TdmRepFiles | None = None
        self._sitemap_hosts: set[str] = set()
        # Extensions are checked here rather than by the extractor, so that each skipped link is counted.
        self.links = LinkExtractor(unique=True, deny_extensions=[])
        self._render_mw: RenderMiddleware | bool | None = False  # looked up on first use
        # Pages whose host's robots.txt was unreachable (5xx, 429, network error): (due time, request). Not
        # journaled as finished: retried once the host's robots.txt is due to be fetched again, if the crawl is
        # still running then, and otherwise left pending in the journal for --resume.
        self._parked: list[tuple[float, Request]] = []

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> WinnowSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.bot_name = read_setting(crawler.settings, "WINNOW_BOT_NAME")
        spider.max_depth = read_setting(crawler.settings, "WINNOW_MAX_DEPTH")
        extensions = {"." + e.lower().lstrip(".") for e in read_setting(crawler.settings, "WINNOW_DENY_EXTENSIONS")}
        spider.deny_extensions = frozenset(extensions)
        spider.deny_multi_part = tuple(sorted(e for e in extensions if e.count(".") > 1))
        spider.robots_retry_s = read_setting(crawler.settings, "WINNOW_ROBOTS_UNREACHABLE_RETRY_SECONDS")
        spider.robots_retries = read_setting(crawler.settings, "WINNOW_ROBOTS_UNREACHABLE_RETRIES")
        if spider.resume:
            spider.journal.load()
        spider.journal.open()
        crawler.signals.connect(spider.idle, signal=signals.spider_idle)
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
        for seed, reason in self.skipped_seeds.items():
            log.warning("seed skipped (%s): %r", reason, seed)
            self.crawler.stats.inc_value(f"winnow/seeds_skipped/{reason}")
        for pending in self.journal.pending():
            if pending.depth < 0:
                yield self.sitemap_request(pending.url, replay=True)
            else:
                yield self.page_request(pending.url, pending.depth, pending.referrer, replay=True,
                                        priority=pending.priority)
        for seed in self.seeds:
            yield self.page_request(seed, 0, None)

    async def failed(self, failure: Any) -> AsyncIterator[Request]:
        request = failure.request
        renderer = self._renderer()
        if renderer is not None:
            fallback = await renderer.release_failed(request)
            if fallback is not None:  # the browser could not load a page it was to render directly
                yield fallback
                return
        if isinstance(failure.value, HttpError):
            # The server's own answer (404, 410, a 5xx after the retries), which HttpErrorMiddleware turns into an
            # error before parse sees it: a page skipped with its status, as parse counts other statuses, not a
            # failure of the crawl (winnow/pages_failed is for what never got an answer).
            status = failure.value.response.status
            self.crawler.stats.inc_value(f"winnow/skipped/status_{status}")
            self.journal.finish(request.meta["winnow_url"], f"skip.status_{status}")
            return
        reason = request.meta.get("winnow_skip_reason") or f"error.{type(failure.value).__name__}"
        if reason.startswith("robots.unreachable"):
            if request.meta.get("winnow_robots_retries", 0) < self.robots_retries:
                self.crawler.stats.inc_value("winnow/robots/deferred")
                self._parked.append((time.monotonic() + self.robots_retry_s, request))
                self._release_due()
            else:  # not journaled as finished: --resume tries it again
                self.crawler.stats.inc_value("winnow/robots/left_for_resume")
            return
        self.crawler.stats.inc_value("winnow/pages_failed" if reason.startswith("error.") else "winnow/pages_skipped")
        self.journal.finish(request.meta["winnow_url"], reason)

    def _release_due(self) -> int:
        """Send the parked requests that are due back to the engine; how many went."""
        now = time.monotonic()
        due = [request for at, request in self._parked if at <= now]
        if not due:
            return 0
        self._parked = [(at, request) for at, request in self._parked if at > now]
        for request in due:
            retry = request.replace(dont_filter=True)
            retry.meta.pop("winnow_skip_reason", None)
            retry.meta["winnow_robots_retries"] = request.meta.get("winnow_robots_retries", 0) + 1
            self.crawler.stats.inc_value("winnow/robots/retried")
            self.crawler.engine.crawl(retry)
        return len(due)

    def idle(self) -> None:
        """Scrapy's idle signal: parked requests that are due go out again and keep the crawl open; those not yet
        due do not keep it open (they stay pending in the journal for --resume, counted)."""
        if self._release_due():
            raise DontCloseSpider
        if self._parked:
            self.crawler.stats.inc_value("winnow/robots/left_for_resume", len(self._parked))
            self._parked = []

    # -- pages --------------------------------------------------------------------------------
    async def parse(self, response: Response) -> AsyncIterator[Any]:
        self._release_due()  # a response is a moment to send parked pages that have come due (idle() is the other)
        meta = response.meta
        url = meta["winnow_url"]
        renderer = self._renderer()
        outcome: RenderOutcome | None = None
        if renderer is not None and renderer.owns(response):
            outcome = await renderer.finish_direct(response)
            if outcome is not None:
                response = outcome.raw
            elif response.status == 200 and isinstance(response, HtmlResponse):
                self.crawler.stats.inc_value("winnow/pages_failed")
                self.journal.finish(url, "error.render_raw_unavailable")
                return
        if not isinstance(response, HtmlResponse):
            self.crawler.stats.inc_value("winnow/skipped/non_html")
            self.journal.finish(url, "skip.non_html")
            return
        if response.status != 200:
            self.crawler.stats.inc_value(f"winnow/skipped/status_{response.status}")
            self.journal.finish(url, f"skip.status_{response.status}")
            return
        if outcome is None and renderer is not None:
            outcome = await renderer.maybe_render(response)
        dom = outcome.dom if outcome is not None else None
        robots = meta.get("winnow_robots") or {}
        tdmrep = await self.tdmrep_for(response.url)
        headers = {name: [v.decode("latin-1") for v in values] for name in VERDICT_HEADERS
                   if (values := response.headers.getlist(name))}

        def verdict_for(html: str | bytes) -> Any:
            return page_verdict(
                url=response.url, bot_name=self.bot_name, crawl_allowed=robots.get("crawl_allowed", True),
                robots_signals=tuple(robots.get("signals", ())),
                training_token_allowed=robots.get("training_allowed", True),
                robots_content_usage=robots.get("content_usage"), headers=headers, html=html, tdmrep=tdmrep)

        verdict = verdict_for(response.body)
        if dom is not None:  # scripts may add opt-out meta tags: the stricter of the two documents wins
            verdict = merge_verdicts(verdict, verdict_for(dom))
        self.crawler.stats.inc_value(f"winnow/verdict/training_{'allowed' if verdict.training_allowed else 'denied'}")
        depth = meta.get("winnow_depth", 0)
        fields = {
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
        }
        # Links and refreshes inserted by scripts exist only in the rendered DOM.
        source = response if dom is None else HtmlResponse(outcome.url or response.url, body=dom.encode("utf-8"),
                                                             encoding="utf-8")
        refresh = self.meta_refresh(source)
        if refresh is not None:
            fields["winnow-meta-refresh"] = refresh
            self.crawler.stats.inc_value("winnow/meta_refresh")
        rendered = None
        if outcome is not None:
            fields.update(outcome.fields())
            if dom is not None:
                rendered = RenderedDom(html=dom, reason=outcome.reason, settled=outcome.settled,
                                       url=outcome.url, truncated=outcome.truncated)
        yield {"winnow_url": url, "request": response.request, "response": response, "fields": fields,
               "rendered": rendered}
        if refresh is not None and normalize_url(refresh) != url:
            # a redirect, not a link: followed at the same depth and whatever the page's nofollow says, as an HTTP
            # redirect would be; the gate keeps it within the crawl's hosts (winnow/gate/offsite otherwise)
            yield self.page_request(normalize_url(refresh), depth, response.url)
        if self.sitemaps and depth == 0:
            for request in self.sitemap_requests(response.url):
                yield request
        if not verdict.follow_links:
            self.crawler.stats.inc_value("winnow/nofollow_pages")
            return
        for url, reason in self.followed_links(source, depth):
            if reason is None:
                yield self.page_request(url, depth + 1, response.url)
            else:  # every link not followed is counted by why (crawl-stats.json)
                self.crawler.stats.inc_value(f"winnow/links_skipped/{reason}")

    @staticmethod
    def meta_refresh(source: HtmlResponse) -> str | None:
        """The absolute target of the page's ``<meta http-equiv="refresh">`` (the rendered DOM's when rendered;
        refreshes inside ``<script>``/``<noscript>`` do not count, as in Scrapy's middleware), or None."""
        if _REFRESH_HINT.search(source.body) is None:
            return None  # w3lib's parse strips script and noscript from the whole text first: not for every page
        try:
            _, target = get_meta_refresh(source, ignore_tags=("script", "noscript"))
        except Exception:  # w3lib on a malformed value: a refresh that cannot be read is no refresh
            return None
        return target if target and target.lower().startswith(("http://", "https://")) else None

    def followed_links(self, source: HtmlResponse, depth: int) -> Iterator[tuple[str, str | None]]:
        """Each distinct link of the page, normalised, with None (follow it) or why it is not followed:
        ``nofollow`` (rel=nofollow), ``download`` (``<a download>``: a file offered for saving, not a page),
        ``extension`` (a file type that is never HTML, ``WINNOW_DENY_EXTENSIONS``), ``depth`` (``--max-depth``
        reached). Links to pages already queued are left out (counted: ``winnow/links_already_queued``)."""
        downloads = {normalize_url(source.urljoin(href)) for href in source.xpath("//a[@download]/@href").getall()
                     } if b"download" in source.body else set()
        at_limit = self.max_depth >= 0 and depth >= self.max_depth
        queued = self.journal.queued
        already = 0
        for link in self.links.extract_links(source):
            url = normalize_url(link.url)
            if link.nofollow:
                yield url, "nofollow"
            elif url in downloads:
                yield url, "download"
            elif has_extension(url, self.deny_extensions, self.deny_multi_part):
                yield url, "extension"
            elif url in queued:
                # Queued already (this run or an earlier one): most links of a site are. Dropped here, before a
                # Request exists, rather than by the gate after every spider middleware: in bench/crawl_bench.py
                # five of a page's six links, and about 1 ms of the crawl's one thread per page.
                already += 1
            elif at_limit:
                yield url, "depth"
            else:
                yield url, None
        if already:  # one stats call per page, not per link
            self.crawler.stats.inc_value("winnow/links_already_queued", already)

    # -- tdmrep.json, once per host ---------------------------------------------------------------
    async def tdmrep_for(self, url: str) -> TdmRep | None:
        if self._tdmrep_files is None:  # the crawler is bound after __init__
            self._tdmrep_files = TdmRepFiles(self.crawler)
        return await self._tdmrep_files.for_url(url)

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

    def _renderer(self) -> RenderMiddleware | None:
        if self._render_mw is False:
            self._render_mw = next((mw for mw in self.crawler.engine.downloader.middleware.middlewares
                                    if isinstance(mw, RenderMiddleware)), None)
        return self._render_mw

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
