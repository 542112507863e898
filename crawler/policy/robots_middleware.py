"""Scrapy downloader middleware that applies robots.txt (RFC 9309) and records the robots side of the training verdict.

It replaces Scrapy's ``RobotsTxtMiddleware`` (Protego matches user-agent groups by prefix; see `crawler.policy.robots`).
Per request it answers, for the crawl token (``WINNOW_BOT_NAME``) and the training token
(``WINNOW_TRAINING_TOKEN``, default ``<bot>-Extended``):

- crawl disallowed -> `RobotsDisallowed` (an ``IgnoreRequest``), counted in ``winnow/robots/disallowed`` (or
  ``winnow/robots/unreachable_host`` when the host's robots.txt could not be fetched: the spider parks such a
  page and retries it when the host is due again, or leaves it to ``--resume``), with
  ``meta["winnow_skip_reason"]`` = ``robots.disallowed`` or ``robots.<unreachable reason>`` for the spider's errback;
- crawl allowed -> ``request.meta["winnow_robots"]`` = ``{"crawl_allowed", "training_allowed", "content_usage",
  "crawl_delay", "robots_status", "signals"}``. ``content_usage`` holds the Content-Usage statements matching the
  URL in the crawl token's group and, when it differs, the training token's group, one per line (a reservation in
  either counts; `crawler.policy.signals.page_verdict` combines them, most restrictive wins).

How robots.txt is fetched, and where each choice comes from:

- One fetch per origin (scheme, host, port: RFC 9309 §2.3, "the top-level path of the service"); requests to
  that origin wait for the same fetch. The fetch goes through the engine (``engine.download_async``), so the
  other downloader middlewares (user agent, address guard, politeness) apply to it as to any request; Scrapy's
  immediate retries are switched off for it (``dont_retry``) since an unreachable host is retried later anyway.
- Redirects: followed here, at most ``WINNOW_ROBOTS_MAX_REDIRECTS`` (5, RFC 9309 §2.3.1.2 "at least five"),
  across hosts; the file reached is applied to the *original* origin. More hops: "unavailable" (allow all),
  which §2.3.1.2 permits and Google does.
- Status (§2.3.1): 2xx parsed; 4xx allow all; 5xx, 429 and network errors disallow all.
- Size: the download stops after ``WINNOW_ROBOTS_MAX_BYTES`` (500 KiB, §2.5's minimum parsing limit; Google's
  limit) and the rest is ignored. The request asks for an uncompressed body, since a cut gzip stream would not
  decode.
- Caching (§2.4): ``WINNOW_ROBOTS_CACHE_SECONDS`` (24 h, the RFC's "SHOULD NOT use the cached version for more
  than 24 hours"). An unreachable outcome is kept only ``WINNOW_ROBOTS_UNREACHABLE_RETRY_SECONDS`` (5 min), so the
  host is retried rather than treated as disallowed for a day (§2.3.1.4: complete disallow while unreachable).
  When a host that had a usable robots.txt becomes unreachable, the previous rules stay in force for up to 30 days
  (§2.3.1.4's example period, and §2.4's "unless the robots.txt file is unreachable"), retried at the same pace.
- ``Crawl-delay`` for the crawl token (not in RFC 9309; the de-facto extension), capped at
  ``WINNOW_CRAWL_DELAY_MAX`` seconds (10; 0 ignores Crawl-delay), is a floor on the host's download slot delay:
  set on the live slot, in the downloader's per-slot settings (so a slot re-created after Scrapy's idle-slot
  clean-up starts with it), with the slot's jitter removed (jitter would go below it), and restored after every
  response because AutoThrottle may lower the delay in its ``response_downloaded`` handler.

Requests pass untouched when they carry ``meta["dont_obey_robotstxt"]``, are for ``/robots.txt`` itself, or use a
scheme other than http(s). Such requests get no ``winnow_robots`` meta: absent means "not checked".
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any
from urllib.parse import ParseResult, SplitResult, urlsplit

from scrapy import Request, signals
from scrapy.exceptions import IgnoreRequest, NotConfigured, StopDownload
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet.defer import Deferred
from w3lib.url import safe_url_string

from crawler.net.slot_floors import SlotFloors, raise_to_floor
from crawler.policy.robots import RobotsRules, product_token, rules_for_fetch
from crawler.policy.robots_cache import (
    DEFAULT_UNREACHABLE_RETRY_SECONDS,
    RobotsCache,
    is_unreachable,
)
from pipelines.settings import read as read_setting

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

META_KEY = "winnow_robots"
FETCH_META_KEY = "winnow_robots_fetch"  # set on our own robots.txt requests; its value is the origin
_BYTES_META_KEY = "_winnow_robots_bytes"

_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_DEFAULT_PORTS = {"http": 80, "https": 443}


class RobotsDisallowed(IgnoreRequest):
    """The request was dropped by robots.txt; ``reason`` is the rules' reason (``parsed``, ``unreachable_5xx``...)."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"robots.txt disallows {url} ({reason})")
        self.url = url
        self.reason = reason


# --------------------------------------------------------------------------------------------------------------
# Origins and the cache (no Scrapy state: unit-testable)
# --------------------------------------------------------------------------------------------------------------


def origin_of(parts: ParseResult | SplitResult) -> tuple[str, str]:
    """``(cache key, robots.txt URL)`` for a parsed URL; the key always carries the port."""
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    try:
        port = parts.port or _DEFAULT_PORTS.get(scheme)
    except ValueError:  # a malformed port: still one origin per authority string
        port = None
    host_part = f"[{host}]" if ":" in host else host
    netloc = host_part if port in (None, _DEFAULT_PORTS.get(scheme)) else f"{host_part}:{port}"
    return f"{scheme}://{host_part}:{port}", f"{scheme}://{netloc}/robots.txt"


# --------------------------------------------------------------------------------------------------------------
# The middleware
# --------------------------------------------------------------------------------------------------------------


def _valid_token(value: str, setting: str) -> str:
    if not value or product_token(value) != value.lower():
        raise ValueError(f"{setting}={value!r} is not a robots.txt product token ([A-Za-z_-]+, RFC 9309 §2.2.1)")
    return value


class RobotsPolicyMiddleware:
    """Downloader middleware: robots.txt verdicts for the crawl and training tokens, Crawl-delay as slot floor."""

    ROBOTS_PRIORITY = 1000  # ahead of pages, as Scrapy's RobotsTxtMiddleware does

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if not read_setting(settings, "WINNOW_ROBOTS_ENABLED"):
            raise NotConfigured("WINNOW_ROBOTS_ENABLED is False")
        self.crawler = crawler
        self.bot_token = _valid_token(read_setting(settings, "WINNOW_BOT_NAME") or "winnowbot", "WINNOW_BOT_NAME")
        training = read_setting(settings, "WINNOW_TRAINING_TOKEN") or f"{self.bot_token}-Extended"
        self.training_token = _valid_token(training, "WINNOW_TRAINING_TOKEN")
        self.max_bytes = read_setting(settings, "WINNOW_ROBOTS_MAX_BYTES")
        self.max_redirects = read_setting(settings, "WINNOW_ROBOTS_MAX_REDIRECTS")
        self.crawl_delay_max = read_setting(settings, "WINNOW_CRAWL_DELAY_MAX")
        self.cache = RobotsCache(
            ttl=read_setting(settings, "WINNOW_ROBOTS_CACHE_SECONDS"),
            unreachable_retry=settings.getfloat(
                "WINNOW_ROBOTS_UNREACHABLE_RETRY_SECONDS", DEFAULT_UNREACHABLE_RETRY_SECONDS
            ),
        )
        self._waiters: dict[str, list[Deferred[RobotsRules]]] = {}
        self._floors = SlotFloors()
        # bytes_received is connected only while a robots.txt download is under way (the only time the 500 KiB cut
        # acts): while any handler is connected Scrapy sends the signal for every chunk of every response. Measured
        # with `winnow images fetch` (1,500 800x600 JPEGs, one loopback host, image checks skipped): 86 images/s
        # with the handler connected for the whole crawl, 211 connected only during robots.txt fetches.
        self._robots_in_flight = 0
        # Connected after AutoThrottle's handler (extensions are built before the downloader and its middlewares),
        # so the floor is restored before the downloader reads the slot delay for the next request.
        crawler.signals.connect(self._on_response_downloaded, signal=signals.response_downloaded)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    # -- Scrapy hooks ------------------------------------------------------------------------------------------

    async def process_request(self, request: Request) -> None:
        parts = urlparse_cached(request)
        if self._exempt(request, parts):
            return None
        origin, robots_url = origin_of(parts)
        rules = await self._rules_for_origin(origin, robots_url)
        self._apply(request, origin, rules)
        return None

    def _on_bytes_received(self, data: bytes, request: Request, **_: Any) -> None:
        if FETCH_META_KEY not in request.meta:
            return
        received = request.meta.get(_BYTES_META_KEY, 0) + len(data)
        request.meta[_BYTES_META_KEY] = received
        if received > self.max_bytes:
            raise StopDownload(fail=False)  # the response keeps what arrived; the rest is ignored (§2.5)

    def _on_response_downloaded(self, request: Request, **_: Any) -> None:
        floor = self._floors.floor(request.meta.get("download_slot"))
        if floor:
            slot = self.crawler.engine.downloader.slots.get(request.meta["download_slot"])
            if slot is not None:
                raise_to_floor(slot, floor)

    # -- For other components ----------------------------------------------------------------------------------

    def rules_for(self, url: str) -> RobotsRules | None:
        """The rules last fetched for ``url``'s origin (possibly past their TTL), or None if never fetched."""
        return self.cache.peek(origin_of(urlsplit(url))[0])

    async def fetch_rules(self, url: str) -> RobotsRules:
        """The rules for ``url``'s origin, fetching robots.txt if they are not cached (during a crawl)."""
        return await self._rules_for_origin(*origin_of(urlsplit(url)))

    # -- Verdicts ----------------------------------------------------------------------------------------------

    @staticmethod
    def _exempt(request: Request, parts: ParseResult | SplitResult) -> bool:
        return bool(
            request.meta.get("dont_obey_robotstxt")
            or FETCH_META_KEY in request.meta
            or parts.scheme.lower() not in _DEFAULT_PORTS
            or (parts.path == "/robots.txt" and not parts.query)  # RFC 9309 §2.2.2: implicitly allowed
        )

    def _apply(self, request: Request, origin: str, rules: RobotsRules) -> None:
        url = request.url
        stats = self.crawler.stats
        if not rules.allowed(url, self.bot_token):
            unreachable = is_unreachable(rules)
            # an unreachable robots.txt is not a "no" from the site: the spider parks the page and retries it
            stats.inc_value("winnow/robots/unreachable_host" if unreachable else "winnow/robots/disallowed")
            request.meta["winnow_skip_reason"] = f"robots.{rules.reason}" if unreachable else "robots.disallowed"
            logger.debug("robots.txt (%s) disallows %s", rules.reason, url)
            raise RobotsDisallowed(url, rules.reason)
        training_allowed = rules.allowed(url, self.training_token)
        usage = self._content_usage(rules, url)
        delay = self._capped_delay(rules)
        request.meta[META_KEY] = {
            "crawl_allowed": True,
            "training_allowed": training_allowed,
            "content_usage": "\n".join(usage) if usage else None,
            "crawl_delay": delay,
            "robots_status": rules.reason,
            "signals": self._signals(rules, training_allowed, usage),
        }
        if not training_allowed:
            stats.inc_value("winnow/robots/training_disallowed")
        downloader = self.crawler.engine.downloader
        self._floors.update(downloader, downloader.get_slot_key(request), origin, delay)

    def _content_usage(self, rules: RobotsRules, url: str) -> list[str]:
        statements: list[str] = []
        for token in (self.bot_token, self.training_token):
            for statement in (rules.content_usage(url, token) or "").splitlines():
                if statement not in statements:
                    statements.append(statement)
        return statements

    def _signals(self, rules: RobotsRules, training_allowed: bool, usage: list[str]) -> list[str]:
        found = [f"robots:{rules.reason}"]
        if rules.truncated:
            found.append("robots:truncated")
        if not training_allowed:
            found.append(f"robots:{self.training_token}=disallow")
        # Written as crawler.policy.signals writes it (lower case, whitespace collapsed, 200 characters), so that
        # page_verdict's de-duplication folds its own copy of this signal into ours.
        found.extend(f"robots:content-usage={' '.join(s.split()).lower()[:200]}" for s in usage)
        return found

    def _capped_delay(self, rules: RobotsRules) -> float | None:
        delay = rules.crawl_delay(self.bot_token)
        if not delay or self.crawl_delay_max <= 0:
            return None
        return min(delay, self.crawl_delay_max)

    # -- Fetching ----------------------------------------------------------------------------------------------

    async def _rules_for_origin(self, origin: str, robots_url: str) -> RobotsRules:
        rules = self.cache.get(origin)
        if rules is not None:
            return rules
        waiters = self._waiters.get(origin)
        if waiters is not None:  # a fetch for this origin is under way: wait for its outcome
            waiter: Deferred[RobotsRules] = Deferred()
            waiters.append(waiter)
            return await maybe_deferred_to_future(waiter)
        self._waiters[origin] = []
        outcome: RobotsRules | None = None
        try:
            fetched = await self._download_rules(origin, robots_url)
            outcome = self.cache.store(origin, fetched)
            if outcome is not fetched:
                self.crawler.stats.inc_value("winnow/robots/stale_reused")
                logger.info("robots.txt for %s %s; keeping the previous copy", origin, fetched.reason)
            return outcome
        finally:
            # Waiters are released even if this fetch was cancelled (crawl shutdown); they then see "unreachable".
            released = outcome or RobotsRules.disallow_all("unreachable_error")
            for waiter in self._waiters.pop(origin, []):
                waiter.callback(released)

    async def _download_rules(self, origin: str, robots_url: str) -> RobotsRules:
        if self._robots_in_flight == 0:
            self.crawler.signals.connect(self._on_bytes_received, signal=signals.bytes_received)
        self._robots_in_flight += 1
        try:
            return await self._follow_robots(origin, robots_url)
        finally:
            self._robots_in_flight -= 1
            if self._robots_in_flight == 0:
                self.crawler.signals.disconnect(self._on_bytes_received, signal=signals.bytes_received)

    async def _follow_robots(self, origin: str, robots_url: str) -> RobotsRules:
        url, status = robots_url, None
        for hops in range(self.max_redirects + 1):
            try:
                response = await self.crawler.engine.download_async(self._robots_request(url, origin))
            except Exception as exc:  # network errors, and drops by other middlewares (address guard, offsite...)
                logger.info("robots.txt for %s unreachable: %r", origin, exc)
                return self._record(origin, rules_for_fetch(None, None))
            status = response.status
            target = _redirect_target(response)
            if target is None:
                return self._record(origin, rules_for_fetch(status, response.body, max_bytes=self.max_bytes))
            if hops == self.max_redirects:
                break
            if urlsplit(target).scheme not in _DEFAULT_PORTS:
                logger.info("robots.txt for %s redirects to unsupported %s", origin, target)
                return self._record(origin, rules_for_fetch(None, None))
            self.crawler.stats.inc_value("winnow/robots/redirects")
            url = target
        return self._record(origin, RobotsRules.allow_all("unavailable_redirects", status))

    def _robots_request(self, url: str, origin: str) -> Request:
        return Request(
            url,
            priority=self.ROBOTS_PRIORITY,
            callback=NO_CALLBACK,
            dont_filter=True,
            # A body cut at the byte limit must still be readable, which a truncated gzip stream is not.
            headers={"Accept-Encoding": "identity"},
            meta={
                "dont_obey_robotstxt": True,
                "dont_redirect": True,  # followed here, to count hops and keep the original origin
                "allow_offsite": True,  # robots.txt of a seed host may redirect to another host
                "handle_httpstatus_all": True,
                # No immediate retries: an unreachable robots.txt is retried after
                # WINNOW_ROBOTS_UNREACHABLE_RETRY_SECONDS instead, with the host disallowed meanwhile (§2.3.1.4).
                "dont_retry": True,
                FETCH_META_KEY: origin,
            },
        )

    def _record(self, origin: str, rules: RobotsRules) -> RobotsRules:
        stats = self.crawler.stats
        stats.inc_value("winnow/robots/fetched")
        stats.inc_value(f"winnow/robots/fetched/{rules.reason}")
        if rules.truncated:
            stats.inc_value("winnow/robots/truncated")
        delay = rules.crawl_delay(self.bot_token)
        if delay and self.crawl_delay_max > 0 and delay > self.crawl_delay_max:
            logger.info("Crawl-delay %.1fs of %s capped at %.1fs", delay, origin, self.crawl_delay_max)
        logger.info("robots.txt for %s: %s (status %s)", origin, rules.reason, rules.status)
        return rules


def _redirect_target(response: Response) -> str | None:
    if response.status not in _REDIRECT_STATUSES or b"Location" not in response.headers:
        return None
    location = response.headers[b"Location"].decode("latin-1")
    return response.urljoin(safe_url_string(location))
