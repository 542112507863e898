"""Scrapy spider middleware that runs the frontier logic in a crawl: ``crawler/frontier/priority.py``,
``crawler/frontier/traps.py``, ``crawler/frontier/host_language.py`` and ``crawler/frontier/topics.py``.

For every request a callback yields, it drops crawler traps (``TrapGuard``) and adds to ``request.priority``
the URL heuristics (``url_priority``), the host language adjustment (``HostLanguage``, when
``WINNOW_LANGUAGES`` is set) and the topic adjustment (``TopicBalancer``). For every HTML response it
observes the page before the callback runs, and stores the page's topic id in ``response.meta["winnow_topic"]``
(None before the balancer is seeded) so the callback and the WARC metadata can record it. Start requests
(seeds) pass through untouched: the user chose them.

Built on ``scrapy.spidermiddlewares.base.BaseSpiderMiddleware`` (Scrapy >= 2.13), which provides both
forms of output processing that Scrapy 2.19 accepts from a "universal" middleware: a sync
``process_spider_output`` and an async-generator ``process_spider_output_async`` (Scrapy docs, "Coroutines",
section "Universal spider middlewares"; 2.19's ``SpiderMiddlewareManager._get_process_spider_output`` picks
the async one, and raises for a middleware with only a sync one). No ``spider`` arguments: 2.19 deprecates
them.

Host diversity is not done here: Scrapy's default ``SCHEDULER_PRIORITY_QUEUE``,
``scrapy.pqueues.DownloaderAwarePriorityQueue``, keeps one priority queue per download slot (host) and
dequeues from the slot with the fewest active downloads, so one host's high-priority backlog cannot fill the
downloader (Scrapy docs, "Settings", SCHEDULER_PRIORITY_QUEUE; it refuses ``CONCURRENT_REQUESTS_PER_IP`` != 0).
With ``CONCURRENT_REQUESTS_PER_DOMAIN = 1`` hosts then advance in parallel, one request each. Caveat
measured on Scrapy 2.19 with the asyncio reactor: with ``DOWNLOAD_DELAY = 0`` the downloader starts all
requests queued in a slot at once (up to 7 parallel connections to one host seen with a per-domain limit
of 1), because ``Downloader._process_queue`` schedules each download as a task and only the task marks
the slot busy; any non-zero delay (or AutoThrottle) restores the limit.

Enable it between ``DepthMiddleware`` (900) and ``UrlLengthMiddleware`` (800), e.g. at 850: requests flow
from high to low numbers, so depth limits drop requests before they cost our checks and our 2,048-character
limit counts long URLs before Scrapy's 2,083 one silently does; only 2xx responses reach
``process_spider_input`` there (``HttpErrorMiddleware`` is 50).

Settings: ``WINNOW_LANGUAGES`` (list or comma string; unset: no language steering),
``WINNOW_MAX_URL_LENGTH`` (2048), ``WINNOW_TOPIC_CLUSTERS`` (16), ``WINNOW_TOPICS_ENABLED`` (True),
``WINNOW_TOPIC_SEED_PAGES`` (200), ``WINNOW_MAX_QUERY_VARIANTS`` (64), ``WINNOW_MAX_QUERY_PARAMS`` (10),
``WINNOW_HOST_LANGUAGE_PAGES`` (5).

Stats, as the crawl goes: ``winnow/frontier/trap/<reason>`` per dropped request,
``winnow/frontier/pages_observed``, ``winnow/frontier/observe_errors``. On close:
``winnow/frontier/requests_scored``, ``winnow/frontier/topics`` (``{topic id as str: {count, share, hosts,
top_terms}}``), ``winnow/frontier/topics_created`` (topics made after seeding, see ``TopicBalancer``),
``winnow/frontier/host_languages`` (``{host: {lang: pages}}``, ``{}`` without ``WINNOW_LANGUAGES``) and
``winnow/frontier/observe_ms_mean`` (mean milliseconds per observed page: text, language, topic).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Self

from scrapy import Request, signals
from scrapy.http import HtmlResponse
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware
from scrapy.utils.httpobj import urlparse_cached

from crawler.frontier.host_language import HostLanguage
from crawler.frontier.priority import split_url, url_priority
from crawler.frontier.topics import TopicBalancer
from crawler.frontier.traps import TrapGuard
from crawler.page_text import page_text
from pipelines.settings import read as read_setting

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.spiders import Spider

logger = logging.getLogger(__name__)

STATS_PREFIX = "winnow/frontier"
META_TOPIC = "winnow_topic"
# The page's visible text (crawler/page_text.py, shared with render detection) feeds the topic balancer
# (at most 2,000 words) and language ID, which gets the first 2,000 characters: lid.176's label is stable
# from ~200 characters (filters/langid.py).
MAX_LANGID_CHARS = 2_000


def parse_languages(value: Any) -> list[str]:
    """``WINNOW_LANGUAGES`` as a list of lower-case codes (a comma-separated string or a list)."""
    if not value:
        return []
    items = value.split(",") if isinstance(value, str) else list(value)
    return [str(item).strip().lower() for item in items if str(item).strip()]


class FrontierMiddleware(BaseSpiderMiddleware):
    """Trap guard, URL/host/topic priorities and page observation for a winnow crawl."""

    def __init__(
        self,
        crawler: Crawler,
        languages: list[str] | None = None,
        max_url_length: int = 2048,
        topic_clusters: int = 16,
        topics_enabled: bool = True,
        topic_seed_pages: int = 200,
        max_query_variants: int = 64,
        max_query_params: int = 10,
        host_language_pages: int = 5,
        detect: Callable[[str], tuple[str, float]] | None = None,
    ) -> None:
        super().__init__(crawler)
        self.stats = crawler.stats
        self.traps = TrapGuard(
            max_url_length=max_url_length, max_params=max_query_params, max_query_variants=max_query_variants
        )
        self.languages = list(languages or [])
        self.host_language: HostLanguage | None = None
        self.detect = detect
        if self.languages:
            self.host_language = HostLanguage(self.languages, pages_per_host=host_language_pages)
            if self.detect is None:
                # Imported here so a crawl without WINNOW_LANGUAGES never loads fastText; loading the model
                # now makes a missing model fail at start-up, not on the first page.
                from filters.langid import detect as langid_detect
                from filters.langid import get_model

                get_model()
                self.detect = langid_detect
        self.topics = TopicBalancer(k=topic_clusters, seed_pages=topic_seed_pages) if topics_enabled else None
        self._observe_seconds = 0.0
        self._observed = 0
        self._scored = 0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        middleware = cls(
            crawler,
            languages=parse_languages(read_setting(settings, "WINNOW_LANGUAGES")),
            max_url_length=read_setting(settings, "WINNOW_MAX_URL_LENGTH"),
            topic_clusters=read_setting(settings, "WINNOW_TOPIC_CLUSTERS"),
            topics_enabled=read_setting(settings, "WINNOW_TOPICS_ENABLED"),
            topic_seed_pages=read_setting(settings, "WINNOW_TOPIC_SEED_PAGES"),
            max_query_variants=read_setting(settings, "WINNOW_MAX_QUERY_VARIANTS"),
            max_query_params=read_setting(settings, "WINNOW_MAX_QUERY_PARAMS"),
            host_language_pages=read_setting(settings, "WINNOW_HOST_LANGUAGE_PAGES"),
        )
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        return middleware

    # --- responses: observe before the callback, so meta["winnow_topic"] is there for it

    def process_spider_input(self, response: Response) -> None:
        if not isinstance(response, HtmlResponse):
            return
        started = time.perf_counter()
        topic = None
        try:
            host = urlparse_cached(response).hostname or ""
            want_language = self.host_language is not None and self.host_language.wants(host)
            text = page_text(response) if (self.topics is not None or want_language) else ""
            if want_language and self.host_language is not None and self.detect is not None:
                lang, score = self.detect(text[:MAX_LANGID_CHARS])
                self.host_language.observe(host, lang, score)
            if self.topics is not None:
                topic = self.topics.observe(host, text)
        except Exception:
            # Bookkeeping for the frontier must never cost the page itself: count, log, carry on.
            logger.exception("Frontier could not observe %s", response.url)
            self.stats.inc_value(f"{STATS_PREFIX}/observe_errors")
        response.meta[META_TOPIC] = topic
        self._observe_seconds += time.perf_counter() - started
        self._observed += 1
        self.stats.inc_value(f"{STATS_PREFIX}/pages_observed")

    # --- requests: drop traps, set priority (BaseSpiderMiddleware calls this from both output forms)

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        if response is None:
            return request  # a start request: the user's seed
        reason = self.traps.check(request.url)
        if reason is not None:
            self.stats.inc_value(f"{STATS_PREFIX}/trap/{reason}")
            logger.debug("Frontier dropped %s (%s)", request.url, reason)
            return None
        host = split_url(request.url).hostname or ""  # parsed (and cached) by the trap check just above
        adjustment = url_priority(request.url)
        if self.host_language is not None:
            adjustment += self.host_language.adjustment(host)
        if self.topics is not None:
            adjustment += self.topics.adjustment(host)
        request.priority += adjustment
        self._scored += 1  # a stats call per request costs more than the scoring; reported at close
        return request

    # --- reporting

    def spider_closed(self, spider: Spider, reason: str) -> None:
        if self.topics is not None:
            self.topics.seed_now()  # a crawl smaller than the seed buffer still reports its topics
            topics = {str(topic): info for topic, info in self.topics.distribution().items()}
            self.stats.set_value(f"{STATS_PREFIX}/topics_created", self.topics.topics_created)
        else:
            topics = {}
        # str keys: the stats are dumped as JSON, whose object keys are strings anyway.
        self.stats.set_value(f"{STATS_PREFIX}/topics", topics)
        self.stats.set_value(f"{STATS_PREFIX}/requests_scored", self._scored)
        languages = self.host_language.distribution() if self.host_language is not None else {}
        self.stats.set_value(f"{STATS_PREFIX}/host_languages", languages)
        if self._observed:
            self.stats.set_value(
                f"{STATS_PREFIX}/observe_ms_mean", round(1000 * self._observe_seconds / self._observed, 3)
            )
