"""Routed headless rendering inside the crawl (``--render auto|always|never``, setting ``WINNOW_RENDER``).

Routing (downloader middleware :class:`RenderMiddleware`, placed after every other downloader middleware so
that only requests the address guard, robots.txt and politeness let through reach the browser):

- ``never``: the middleware is off and scrapy-playwright's handler is not installed (crawler/run.py);
- ``always``: every page request is navigated by the browser ("direct" render); the raw record is the
  browser's main document response (its body as the browser received it), see :meth:`finish_direct`;
- ``auto``: pages are fetched by Scrapy; the spider asks :meth:`maybe_render`, which applies
  ``crawler.render.detect.assess`` to the raw HTML and, when the page needs JavaScript, renders it
  (the browser is answered with the body Scrapy fetched, so only the page's subresources are requested; they go
  through the same policy, crawler/render/subrequests.py). Once ``WINNOW_RENDER_HOST_AFTER`` pages of an origin
  needed rendering and rendering paid off (``text_gain``), that origin's later pages go to the browser
  directly (reason ``host``), saving the plain fetch.

Requests carry scrapy-playwright's meta (``playwright``, ``playwright_include_page``, a context name, the
goto arguments, ``playwright_page_init_callback``) only when routed here; all others stay plain Scrapy.

Pages are pooled (crawler/render/pool.py): at most ``WINNOW_RENDER_MAX_PAGES`` open at once (4: Chromium
peaked near 1.3 GB with 4 pages, and 4 concurrent pages gave 5-6 pages/s against 2.7-3.2 for a new page per
URL, ../shared/STACK-NOTES.md "Playwright timings"), reused across URLs (opening a tab is the largest cost
there), each in its own context, replaced after ``WINNOW_RENDER_CONTEXT_PAGES`` renders so that memory and
cookies do not build up. A crashed tab is closed, never reused; a crashed browser is relaunched by
scrapy-playwright (``PLAYWRIGHT_RESTART_DISCONNECTED_BROWSER``). When the browser fails a page it was to
render directly (crash, a script that never yields, a navigation error), the page is fetched once more by
Scrapy and archived raw, marked with the failure (``winnow-render-error``).

Stats (``winnow/render/...``): ``checked`` (pages assessed), ``reason/<reason>`` (renders by reason),
``pages`` (rendered DOMs archived), ``direct``, ``settled``/``unsettled``, ``errors/<error>``,
``actions/<action>``, ``helpful``/``unhelpful``, ``hosts_direct``, ``hosts_guess_off`` and
``skipped_guess_unhelpful_host`` (``GUESS_REASON`` below), ``raw_refetched``, ``fallback_plain``,
``contexts_recycled``, ``aborted/<reason>`` (crawler/render/subrequests.py).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from scrapy import signals
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import HtmlResponse, Request, Response
from scrapy.http.request import NO_CALLBACK

from crawler.page_text import page_text, page_tree
from crawler.render.detect import NOTHING_TO_RENDER, assess_tree, text_gain, visible_words
from crawler.render.page import RawDocument, RenderLimits, RenderResult, render, tracker_for
from crawler.render.pool import PagePool
from crawler.render.subrequests import SubrequestPolicy, install, uninstall
from pipelines.settings import read as read_setting

log = logging.getLogger(__name__)

# The one detection rule that guesses (crawler/render/detect.py: a thin page outweighed by scripts; an external
# script's size is assumed): an origin whose renders for it added nothing WINNOW_RENDER_GUESS_SKIP_AFTER times (5)
# and never helped is not rendered for it any more. Seen on a real Sphinx docs site (bench/docsite_crawl.py): 12 of
# 174 pages rendered for it, all 12 without gain, 14 s of browser time; spa_root and noscript_warning are explicit
# signs of a page that needs scripts and are always rendered.
GUESS_REASON = "script_heavy"
MODES = ("auto", "always", "never")
INIT_CALLBACK = "crawler.render.page.init_page"
# No downloads, no service workers (their requests bypass page.route), a desktop viewport.
CONTEXT_KWARGS = {"accept_downloads": False, "service_workers": "block", "java_script_enabled": True,
                  "viewport": {"width": 1280, "height": 900}}
RAW_BODY_TIMEOUT = 5.0  # seconds to read the main document's body back from the browser


class RenderFailed(IgnoreRequest):
    """The browser could not render a page because of the page itself (its tab crashed, or never yielded)."""


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


@dataclass
class RenderOutcome:
    """What the spider archives for one page: the raw response and, when rendering worked, the DOM."""

    raw: Response
    reason: str
    dom: str | None = None
    settled: bool = False
    error: str | None = None
    actions: Counter[str] = field(default_factory=Counter)
    url: str | None = None
    raw_source: str = "scrapy"  # "browser": the raw record is the browser's main document response
    truncated: bool = False  # the DOM was cut at WINNOW_RENDER_MAX_DOM_BYTES

    def fields(self) -> dict[str, Any]:
        actions = " ".join(f"{k}={v}" for k, v in sorted(self.actions.items()) if v) or None
        return {"winnow-rendered": self.dom is not None, "winnow-render-reason": self.reason,
                "winnow-render-settled": self.settled if self.dom is not None else None,
                "winnow-render-error": self.error, "winnow-render-actions": actions,
                "winnow-render-raw": self.raw_source,
                "winnow-rendered-url": self.url if self.url and self.url != self.raw.url else None}


class RenderMiddleware:
    """Downloader middleware that routes page requests to the browser, and the spider's rendering helper."""

    def __init__(self, crawler: Any) -> None:
        settings = crawler.settings
        self.mode = str(read_setting(settings, "WINNOW_RENDER")).strip().lower()
        if self.mode not in MODES:
            raise ValueError(f"WINNOW_RENDER={self.mode!r}: expected one of {', '.join(MODES)}")
        if self.mode == "never":
            raise NotConfigured("rendering is off (WINNOW_RENDER=never)")
        self.crawler = crawler
        self.stats = crawler.stats
        self.limits = RenderLimits(
            page_timeout=read_setting(settings, "WINNOW_RENDER_PAGE_TIMEOUT"),
            settle_idle=read_setting(settings, "WINNOW_RENDER_SETTLE_IDLE"),
            settle_max=read_setting(settings, "WINNOW_RENDER_SETTLE_MAX"),
            thin_patience=read_setting(settings, "WINNOW_RENDER_THIN_PATIENCE"),
            step_idle=read_setting(settings, "WINNOW_RENDER_STEP_IDLE"),
            interact_max=read_setting(settings, "WINNOW_RENDER_INTERACT_MAX"),
            max_scrolls=read_setting(settings, "WINNOW_RENDER_MAX_SCROLLS"),
            max_clicks=read_setting(settings, "WINNOW_RENDER_MAX_CLICKS"))
        self.max_dom_bytes = read_setting(settings, "WINNOW_RENDER_MAX_DOM_BYTES")
        self.host_after = max(1, read_setting(settings, "WINNOW_RENDER_HOST_AFTER"))
        self.pool = PagePool(read_setting(settings, "WINNOW_RENDER_MAX_PAGES"),
                             read_setting(settings, "WINNOW_RENDER_CONTEXT_PAGES"), self.stats)
        blocked = frozenset(t.strip().lower() for t in read_setting(settings, "WINNOW_RENDER_BLOCK_RESOURCES"))
        self.policy = SubrequestPolicy(crawler, blocked)
        self.goto_kwargs = {"wait_until": "commit", "timeout": self.limits.page_timeout * 1000}
        self.skip_after = max(1, read_setting(settings, "WINNOW_RENDER_GUESS_SKIP_AFTER"))
        self._helped: Counter[str] = Counter()
        self._guesses_unhelpful: Counter[str] = Counter()
        self.direct_origins: set[str] = set()
        self.guess_off_origins: set[str] = set()  # script_heavy renders never helped there: not rendered any more
        install(self.policy)
        self.stats.set_value("winnow/render/mode", self.mode)
        crawler.signals.connect(self._closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Any) -> RenderMiddleware:
        return cls(crawler)

    def _closed(self) -> None:
        uninstall(self.policy)

    # -- routing ---------------------------------------------------------------------------------------------
    def direct_reason(self, url: str) -> str | None:
        if self.mode == "always":
            return "always"
        return "host" if origin(url) in self.direct_origins else None

    async def process_request(self, request: Request) -> None:
        meta = request.meta
        if meta.get("winnow_no_render"):
            return None
        if "winnow_render" not in meta:
            if meta.get("winnow_kind") != "page":
                return None
            reason = self.direct_reason(request.url)
            if reason is None:
                return None
            meta["winnow_render"] = reason
            meta["winnow_render_direct"] = True
        lease = await self.pool.acquire()
        meta["winnow_lease"] = lease
        meta["winnow_render_timeout"] = self.limits.page_timeout
        meta.update(playwright=True, playwright_include_page=True, playwright_context=lease.context,
                    playwright_context_kwargs=dict(CONTEXT_KWARGS), playwright_page_goto_kwargs=dict(self.goto_kwargs),
                    playwright_page_init_callback=INIT_CALLBACK)
        if lease.page is not None:
            meta["playwright_page"] = lease.page
        else:
            meta.pop("playwright_page", None)
        return None

    async def process_response(self, request: Request, response: Response) -> Response:
        # Runs before Retry/Politeness (process_response goes from the handler outwards), which may swap a 429/5xx
        # for a retry request and drop this response with the page it holds: a page that is not a 200 HTML
        # document needs no rendering anyway, so it is freed here.
        if "winnow_lease" in request.meta and (response.status != 200 or not isinstance(response, HtmlResponse)):
            await self.release(request.meta, reusable=True)
        return response

    async def process_exception(self, request: Request, exception: BaseException) -> None:
        meta = request.meta
        if "winnow_lease" in meta:
            page = meta.get("playwright_page")
            if page is not None and tracker_for(page).crashed:
                error = "crashed"
            else:
                error = "killed" if meta.get("winnow_render_killed") else "navigation"
            meta["winnow_render_error"] = error
            self.stats.inc_value(f"winnow/render/errors/{error}")
            log.info("render: %s failed in the browser (%s): %s", request.url, error,
                     str(exception).splitlines()[0] if str(exception) else type(exception).__name__)
            await self.release(meta, reusable=False)
            if error != "navigation":
                # The page's own doing, not the host's: kept out of the host's error budget and of retries.
                raise RenderFailed(f"{error}: {request.url}") from exception
        return None

    async def release(self, meta: dict[str, Any], reusable: bool, quiet: bool = False) -> None:
        lease = meta.pop("winnow_lease", None)
        page = meta.pop("playwright_page", None)
        if page is not None:
            tracker_for(page).disarm()
        if lease is not None:
            await self.pool.release(lease, page, reusable, quiet)

    # -- for the spider --------------------------------------------------------------------------------------
    @staticmethod
    def owns(response: Response) -> bool:
        """Whether ``response`` came from the browser through this middleware (a direct render)."""
        return "winnow_lease" in response.meta and bool(response.meta.get("winnow_render_direct"))

    async def release_failed(self, request: Request) -> Request | None:
        """Errback helper: free the page; a direct render that failed is fetched once more without a browser."""
        meta = request.meta
        await self.release(meta, reusable=False)  # a no-op when process_exception has released it
        # Only when the browser failed (process_exception saw it): an HTTP error status is the page's answer.
        if not meta.get("winnow_render_direct") or meta.get("winnow_no_render") or "winnow_render_error" not in meta:
            return None
        self.stats.inc_value("winnow/render/fallback_plain")
        fallback = self._plain(request, replay=True)
        fallback.meta["winnow_render_failed"] = (meta.get("winnow_render", "always"),
                                                 meta.get("winnow_render_error", "navigation"))
        return fallback

    def _plain(self, request: Request, replay: bool = False) -> Request:
        meta = {k: v for k, v in request.meta.items() if k.startswith("winnow_") and k not in _RENDER_KEYS}
        meta.update(winnow_no_render=True, winnow_replay=replay)
        return request.replace(meta=meta, dont_filter=True, headers=None)

    async def finish_direct(self, response: Response) -> RenderOutcome | None:
        """A page the browser navigated directly: render it and recover the raw response.

        Returns None (page freed, nothing rendered) when the response is not a 200 HTML page: the spider
        then skips it as it would any such page.
        """
        meta = response.meta
        page = meta.get("playwright_page")
        reason = meta.get("winnow_render", "always")
        if response.status != 200 or not isinstance(response, HtmlResponse) or page is None:
            await self.release(meta, reusable=True)
            return None
        self.stats.inc_value("winnow/render/direct")
        result = await render(page, self.limits, meta.get("winnow_render_started"))
        raw = await self._raw_from_browser(page, response)
        await self.release(meta, reusable=not result.crashed and result.error != "unresponsive", quiet=result.settled)
        if raw is not None:
            return self._outcome(raw, reason, result, "browser")
        # No body from the browser (a crashed tab, a document still streaming): the raw record is fetched by
        # Scrapy, so the archive always holds what the server sent.
        self.stats.inc_value("winnow/render/raw_refetched")
        try:
            raw = await self.crawler.engine.download_async(self._plain(response.request).replace(
                callback=NO_CALLBACK, errback=None))
        except Exception as exc:  # the page cannot be archived without its raw record
            log.info("render: raw refetch of %s failed: %r", response.url, exc)
            return None
        return self._outcome(raw, reason, result, "scrapy")

    async def _raw_from_browser(self, page: Any, response: Response) -> Response | None:
        main = tracker_for(page).main_response
        if main is None:
            return None
        try:
            body = await asyncio.wait_for(main.body(), timeout=RAW_BODY_TIMEOUT)
        except Exception:  # crashed tab, a body still streaming at the deadline, an evicted resource
            return None
        return HtmlResponse(url=main.url, status=main.status, headers=response.headers, body=body,
                            request=response.request, flags=["playwright-raw"])

    async def maybe_render(self, response: HtmlResponse) -> RenderOutcome | None:
        """``auto``: render a page fetched by Scrapy when its HTML needs JavaScript."""
        failed = response.meta.get("winnow_render_failed")
        if failed:  # the plain fetch after a direct render failed: archived raw, marked with the failure
            reason, error = failed
            return RenderOutcome(raw=response, reason=reason, error=error)
        if self.mode != "auto" or response.meta.get("winnow_no_render"):
            return None
        self.stats.inc_value("winnow/render/checked")
        root = page_tree(response)  # Scrapy's own parse of the page, which link extraction reuses
        assessment = assess_tree(root, page_text(response)) if root is not None else NOTHING_TO_RENDER
        if not assessment.needed:
            return None
        reason = assessment.reason or "auto"
        if reason == GUESS_REASON and origin(response.url) in self.guess_off_origins:
            self.stats.inc_value("winnow/render/skipped_guess_unhelpful_host")
            return None
        # The browser navigates to the page's final URL and is answered with the body Scrapy fetched (no second
        # request to the site for it: crawler/render/page.py); its subresources go through the usual policy.
        request = self._plain(response.request).replace(url=response.url, callback=NO_CALLBACK, errback=None)
        request.meta["winnow_raw_document"] = RawDocument.from_response(response)
        for key in ("winnow_no_render", "winnow_replay"):
            request.meta.pop(key, None)
        request.meta.update(winnow_render=reason, dont_retry=True)
        started = time.monotonic()
        try:
            rendered = await self.crawler.engine.download_async(request)
        except Exception:  # the raw page is still archived, marked as not rendered (process_exception logged it)
            await self.release(request.meta, reusable=False)
            error = request.meta.get("winnow_render_error", "navigation")
            return self._outcome(response, reason, RenderResult(dom=None, settled=False, error=error), count=False)
        page = rendered.meta.get("playwright_page")
        if page is None:
            await self.release(rendered.meta, reusable=False)
            return self._outcome(response, reason, RenderResult(dom=None, settled=False, error="navigation"))
        result = await render(page, self.limits, rendered.meta.get("winnow_render_started", started))
        await self.release(rendered.meta, reusable=not result.crashed and result.error != "unresponsive",
                           quiet=result.settled)
        outcome = self._outcome(response, reason, result)
        if outcome.dom is not None:
            self._note_gain(response.url, assessment.words, visible_words(outcome.dom), reason)
        return outcome

    def _note_gain(self, url: str, raw_words: int, rendered_words: int, reason: str = "") -> None:
        key = origin(url)
        if not text_gain(raw_words, rendered_words):
            self.stats.inc_value("winnow/render/unhelpful")
            if reason == GUESS_REASON:
                self._guesses_unhelpful[key] += 1
                if (self._guesses_unhelpful[key] >= self.skip_after and not self._helped[key]
                        and key not in self.guess_off_origins):
                    self.guess_off_origins.add(key)
                    self.stats.inc_value("winnow/render/hosts_guess_off")
                    log.info("render: %s renders of %s pages added nothing on %s; no more renders there for %s",
                             self.skip_after, GUESS_REASON, key, GUESS_REASON)
            return
        self.stats.inc_value("winnow/render/helpful")
        self._helped[key] += 1
        self.guess_off_origins.discard(key)
        if self._helped[key] >= self.host_after and key not in self.direct_origins:
            self.direct_origins.add(key)
            self.stats.inc_value("winnow/render/hosts_direct")
            log.info("render: %s needs JavaScript; its pages are rendered directly from now on", key)

    def _outcome(self, raw: Response, reason: str, result: RenderResult, raw_source: str = "scrapy",
                 count: bool = True) -> RenderOutcome:
        stats = self.stats
        stats.inc_value(f"winnow/render/reason/{reason}")
        for action, n in result.actions.items():
            if n:
                stats.inc_value(f"winnow/render/actions/{action}", n)
        if result.error and count:
            stats.inc_value(f"winnow/render/errors/{result.error}")
        log.debug("render: %s (%s) settled=%s error=%s actions=%s in %.2f s", raw.url, reason, result.settled,
                  result.error, dict(result.actions), result.seconds)
        dom, truncated = result.dom, False
        if dom is not None:
            stats.inc_value("winnow/render/pages")
            stats.inc_value("winnow/render/settled" if result.settled else "winnow/render/unsettled")
            stats.inc_value("winnow/render/seconds", round(result.seconds, 3))
            encoded = dom.encode("utf-8", "replace")
            if len(encoded) > self.max_dom_bytes:
                dom, truncated = encoded[: self.max_dom_bytes].decode("utf-8", "ignore"), True
                stats.inc_value("winnow/render/dom_truncated")
        return RenderOutcome(raw=raw, reason=reason, dom=dom, settled=result.settled, error=result.error,
                             actions=result.actions, url=result.url, raw_source=raw_source, truncated=truncated)


_RENDER_KEYS = frozenset({"winnow_render", "winnow_render_direct", "winnow_lease", "winnow_render_started",
                          "winnow_render_timeout", "winnow_render_killed", "winnow_render_error",
                          "winnow_render_failed", "winnow_raw_document"})
