"""One page in the browser: from the navigation to the DOM that is archived, bounded in actions and time.

scrapy-playwright navigates (``wait_until="commit"``, so a page that never finishes loading still comes
back) and hands the page over (``playwright_include_page``); :func:`render` then

1. waits for ``DOMContentLoaded``, then for the page to settle: no request in flight and no DOM mutation for
   ``settle_idle`` seconds (0.5 s, Playwright's own "networkidle" definition), or only ``FAST_QUIET`` (0.1 s)
   once the document has loaded and no one-shot timer is pending (see :func:`wait_quiet`), with more patience
   (``thin_patience``) while the page still shows fewer than ``THIN_WORDS`` words, since an app shell fills
   itself from timers and fetches; at most ``settle_max`` seconds. Settled = quiet reached and
   ``document.readyState == "complete"``;
2. closes overlays that hide content (fixed elements over a large part of the viewport, dialogs, cookie and
   newsletter layers): a close/dismiss control inside is clicked (never "accept": consent is not given on
   anyone's behalf), otherwise the layer is removed, and a scroll lock on ``html``/``body`` is lifted;
3. scrolls one viewport at a time, waiting after each step only while the step caused requests or DOM
   changes, until the page stops growing (at most ``max_scrolls`` steps): lazy and infinite-scroll content;
4. clicks "load more" / "show more" / expand controls (``aria-expanded="false"``, closed ``<details>``),
   never links that navigate or form submits, at most ``max_clicks`` clicks; a control whose click changed
   nothing is not clicked again;
5. takes the DOM (``page.content()``), whatever the state: a page that never settles is kept as far as it
   got, and marked (``settled`` False).

Steps 2-4 share ``interact_max`` seconds and everything shares ``page_timeout``. A crashed tab (Chromium's
renderer died: out of memory under the ``--js-flags=--max-old-space-size`` cap, or killed) yields no DOM.

The :class:`PageTracker` follows a page's requests (to know when the network is quiet), remembers the main
document's response (the raw record of a page rendered directly), notices crashes, closes popups, and runs a
watchdog that closes a tab still busy ``WATCHDOG_GRACE`` after its budget (a script that never yields blocks
every call into the page, scrapy-playwright's own ``page.content()`` included, which has no timeout).
:func:`init_page` is scrapy-playwright's ``playwright_page_init_callback``: it runs before every navigation.

A page Scrapy has fetched already (``--render auto`` renders what it assessed) is not fetched a second time:
:class:`RawDocument` in the request's meta is served to the browser as the navigation's answer (a
``page.route`` registered after scrapy-playwright's own, so it answers first), and only the page's subresources
go to the network. The rendered DOM then comes from the very bytes the WARC's response record holds (before,
a real documentation site saw each rendered page requested twice: bench/docsite_crawl.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Error as PlaywrightError

from crawler.render.scripts import (
    CLICK_JS,
    FORGET_LAST_JS,
    INIT_SCRIPT,
    MARK_DONE_JS,
    OVERLAY_JS,
    PROBE_JS,
    SCROLL_JS,
    WORDS_JS,
)

log = logging.getLogger(__name__)

THIN_WORDS = 50  # Gopher's minimum document length (Rae et al. 2021, Table A1)
POLL = 0.05  # seconds between quiet checks
STEP_MAX = 3.0  # seconds one scroll step or click may wait for what it triggered
CONTENT_GRACE = 2.0  # seconds page.content() may take after the budget is spent
WATCHDOG_GRACE = CONTENT_GRACE + 1.0  # the watchdog fires only after render() itself must have given up
FAST_QUIET = 0.1  # seconds of quiet that suffice when nothing is pending (see wait_quiet)

@dataclass(frozen=True)
class RenderLimits:
    page_timeout: float = 20.0
    settle_idle: float = 0.5
    settle_max: float = 5.0
    thin_patience: float = 2.0
    step_idle: float = 0.25
    interact_max: float = 8.0
    max_scrolls: int = 20
    max_clicks: int = 5


@dataclass
class RenderResult:
    dom: str | None
    settled: bool
    crashed: bool = False
    error: str | None = None  # timeout | crashed | unresponsive | error
    actions: Counter[str] = field(default_factory=Counter)
    url: str | None = None
    seconds: float = 0.0


class PageTracker:
    """Event bookkeeping for one page, kept across the navigations of a reused page."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.inflight: dict[Any, float] = {}
        self.last_activity = time.monotonic()
        self.crashed = False
        self.popups = 0
        self.main_response: Any = None
        self.watchdog: asyncio.Task[None] | None = None
        page.on("request", self._on_request)
        page.on("requestfinished", self._on_done)
        page.on("requestfailed", self._on_done)
        page.on("response", self._on_response)
        page.on("crash", self._on_crash)
        page.on("popup", self._on_popup)

    def reset(self) -> None:
        """Before a navigation: forget the previous document's requests."""
        self.inflight.clear()
        self.last_activity = time.monotonic()
        self.main_response = None

    def arm(self, seconds: float, meta: dict[str, Any]) -> None:
        """Close the page if it is still busy after ``seconds``.

        scrapy-playwright reads the page's content right after the navigation without a timeout, and a page
        whose script never yields (``while (true) {}``) would hold that call, and a crawl slot, forever;
        closing the tab is the one thing that works on a busy renderer (CDP ``Page.crash`` is not served).
        """
        self.disarm()
        self.watchdog = asyncio.get_running_loop().create_task(self._fire(seconds, meta))

    def disarm(self) -> None:
        if self.watchdog is not None:
            self.watchdog.cancel()
            self.watchdog = None

    async def _fire(self, seconds: float, meta: dict[str, Any]) -> None:
        await asyncio.sleep(seconds)
        self.watchdog = None
        meta["winnow_render_killed"] = True
        log.warning("render: %s still busy after %.0f s; closing its tab", self.page.url, seconds)
        with contextlib.suppress(Exception):
            await self.page.close()

    def _on_request(self, request: Any) -> None:
        now = time.monotonic()
        self.inflight[request] = now
        self.last_activity = now

    def _on_done(self, request: Any) -> None:
        self.inflight.pop(request, None)
        self.last_activity = time.monotonic()

    def _on_response(self, response: Any) -> None:
        if self.main_response is not None or 300 <= response.status < 400:
            return
        try:
            request = response.request
            if request.is_navigation_request() and request.frame.parent_frame is None:
                self.main_response = response  # the document itself, after any redirects
        except PlaywrightError:  # service-worker requests have no frame
            pass

    def _on_crash(self, _page: Any) -> None:
        self.crashed = True
        log.warning("render: tab crashed at %s", self.page.url)

    async def _on_popup(self, popup: Any) -> None:
        self.popups += 1
        with contextlib.suppress(PlaywrightError):
            await popup.close()

    def busy_since(self, mark: float | None) -> bool:
        return any(mark is None or started >= mark for started in self.inflight.values())

    def net_quiet_for(self, mark: float | None, now: float) -> float:
        if self.busy_since(mark):
            return 0.0
        return now - max(self.last_activity, mark or 0.0)


_trackers: weakref.WeakKeyDictionary[Any, PageTracker] = weakref.WeakKeyDictionary()
_prepared_contexts: weakref.WeakSet[Any] = weakref.WeakSet()
_document_routes: weakref.WeakKeyDictionary[Any, tuple[Any, Any]] = weakref.WeakKeyDictionary()
# Headers that describe the bytes on the wire, not the decoded body Scrapy hands over.
_WIRE_HEADERS = frozenset({"content-encoding", "content-length", "transfer-encoding"})


@dataclass(frozen=True)
class RawDocument:
    """A page Scrapy fetched: what the browser gets when it navigates to ``url``, instead of the network."""

    url: str
    status: int
    headers: dict[str, str]
    body: bytes

    @classmethod
    def from_response(cls, response: Any) -> RawDocument:
        headers = {}
        for key, values in response.headers.items():
            name = key.decode("latin-1")
            if name.lower() not in _WIRE_HEADERS and values:
                headers[name] = b", ".join(values).decode("latin-1")
        return cls(response.url, response.status, headers, response.body)


async def serve_document(page: Any, document: RawDocument) -> None:
    """Answer the page's next top-level navigation to ``document.url`` with ``document``, once."""
    previous = _document_routes.pop(page, None)
    if previous is not None:  # a pooled page keeps its routes: the last page's answer must not pile up
        with contextlib.suppress(Exception):
            await page.unroute(*previous)
    served = False

    def matches(url: str) -> bool:
        return not served and url == document.url

    async def answer(route: Any, request: Any) -> None:
        nonlocal served
        if served or not request.is_navigation_request() or request.frame.parent_frame is not None:
            await route.fallback()  # an iframe or a later request for the same URL: scrapy-playwright's route
            return
        served = True
        await route.fulfill(status=document.status, headers=document.headers, body=document.body)

    _document_routes[page] = (matches, answer)
    await page.route(matches, answer)


def tracker_for(page: Any) -> PageTracker:
    tracker = _trackers.get(page)
    if tracker is None:
        tracker = _trackers[page] = PageTracker(page)
    return tracker


async def _refuse_websocket(ws: Any) -> None:
    # page.route() does not see WebSockets; an unconnected WebSocketRoute never reaches the server.
    from crawler.render.subrequests import active

    policy = active()
    if policy is not None:
        policy.stats.inc_value("winnow/render/aborted/websocket")
    await ws.close(code=1008, reason="not allowed while rendering")


async def _context_route(route: Any, request: Any) -> None:
    # Pages scrapy-playwright did not open (popups, before they are closed) get the same policy.
    from crawler.render.subrequests import abort_request

    if await abort_request(request):
        await route.abort()
    else:
        await route.fallback()


async def prepare_context(context: Any) -> None:
    if context in _prepared_contexts:
        return
    _prepared_contexts.add(context)
    await context.add_init_script(INIT_SCRIPT)
    await context.route("**", _context_route)
    await context.route_web_socket("**", _refuse_websocket)


async def init_page(page: Any, request: Any) -> None:
    """``playwright_page_init_callback``: runs before each navigation scrapy-playwright makes."""
    meta = request.meta
    if meta.get("winnow_render_killed"):
        # scrapy-playwright retries a closed target on a new page; the watchdog closed it on purpose.
        await page.close()
        return
    await prepare_context(page.context)
    document = meta.get("winnow_raw_document")
    if document is not None:
        await serve_document(page, document)
    tracker = tracker_for(page)
    tracker.reset()
    meta["winnow_render_started"] = time.monotonic()
    tracker.arm(meta.get("winnow_render_timeout", RenderLimits.page_timeout) + WATCHDOG_GRACE, meta)


def _remaining(deadline: float) -> float:
    return max(0.0, deadline - time.monotonic())


async def _eval(page: Any, script: str, deadline: float) -> Any:
    """page.evaluate bounded by the deadline (a page stuck in a script loop never answers)."""
    return await asyncio.wait_for(page.evaluate(script), timeout=max(0.05, _remaining(deadline)))


async def wait_quiet(page: Any, tracker: PageTracker, idle: float, end: float, mark: float | None = None,
                     thin_patience: float | None = None) -> bool:
    """Wait until the network (requests since ``mark``, all when None) and the DOM were quiet for ``idle`` s.

    Fast path, after the idea of Angular's "stable" zone (no pending macrotasks): when the document has loaded,
    no request is in flight, no one-shot timer is pending and the DOM has been still for FAST_QUIET, nothing
    the page scheduled can change it any more, so waiting out the rest of ``idle`` would only cost time. Pages
    still showing fewer than THIN_WORDS words do not take the fast path (an app shell may wait on things that
    are not tracked) and need ``thin_patience`` of quiet instead of ``idle``.
    """
    while True:
        mut_age_ms, _count, timers, ready = await _eval(page, PROBE_JS, end)
        now = time.monotonic()
        quiet = min(tracker.net_quiet_for(mark, now), mut_age_ms / 1000.0)
        need = idle
        if quiet >= min(idle, FAST_QUIET):
            thin = bool(thin_patience) and await _eval(page, WORDS_JS, end) < THIN_WORDS
            if thin:
                need = max(idle, thin_patience or 0.0)
            elif not timers and ready == "complete":
                return True
        if quiet >= need:
            return True
        if now >= end:
            return False
        await asyncio.sleep(min(max(POLL, min(need, FAST_QUIET) - quiet), end - now))


async def _settle(page: Any, tracker: PageTracker, limits: RenderLimits, deadline: float) -> bool:
    end = min(deadline, time.monotonic() + limits.settle_max)
    try:
        await page.wait_for_load_state("domcontentloaded", timeout=max(1.0, _remaining(end) * 1000))
    except PlaywrightError:  # TimeoutError is a subclass
        return False
    quiet = await wait_quiet(page, tracker, limits.settle_idle, end, thin_patience=limits.thin_patience)
    return quiet and await _eval(page, "() => document.readyState", deadline) == "complete"


async def _scroll(page: Any, tracker: PageTracker, limits: RenderLimits, end: float, actions: Counter[str]) -> None:
    scrolled = stalled = False
    while actions["scroll"] < limits.max_scrolls and time.monotonic() < end:
        mark = time.monotonic()
        if await _eval(page, SCROLL_JS, end):
            actions["scroll"] += 1
            scrolled, stalled = True, False
        elif not scrolled or stalled:
            return  # the page fits the viewport, or the bottom stayed the bottom through one more wait
        else:
            # At the bottom: a lazy loader may still be on its way (its observer fires a frame later, later
            # still on a busy machine); one more quiet window before concluding the page stopped growing.
            stalled = True
        await wait_quiet(page, tracker, limits.step_idle, min(end, mark + STEP_MAX), mark=mark)


async def _click(page: Any, tracker: PageTracker, limits: RenderLimits, end: float, actions: Counter[str]) -> None:
    while actions["click"] < limits.max_clicks and time.monotonic() < end:
        mark = time.monotonic()
        before = (await _eval(page, PROBE_JS, end))[1]
        if not await _eval(page, CLICK_JS, end):
            return
        actions["click"] += 1
        await wait_quiet(page, tracker, limits.step_idle, min(end, mark + STEP_MAX), mark=mark)
        after = (await _eval(page, PROBE_JS, end))[1]
        # A control whose click changed nothing is exhausted; one that loaded something may be clicked again.
        await _eval(page, MARK_DONE_JS if after == before else FORGET_LAST_JS, end)
        await _scroll(page, tracker, limits, end, actions)


async def _overlays(page: Any, deadline: float, actions: Counter[str]) -> None:
    found = await _eval(page, OVERLAY_JS, deadline)
    actions["overlay_closed"] += found["closed"]
    actions["overlay_removed"] += found["removed"]


async def render(page: Any, limits: RenderLimits, started: float | None = None) -> RenderResult:
    """Settle, interact and take the DOM of a page scrapy-playwright has navigated; never raises."""
    tracker = tracker_for(page)
    started = started or time.monotonic()
    deadline = started + limits.page_timeout
    actions: Counter[str] = Counter()
    settled, error = False, None
    try:
        if tracker.crashed:
            raise PlaywrightError("Target crashed")
        settled = await _settle(page, tracker, limits, deadline)
        end = min(deadline, time.monotonic() + limits.interact_max)
        await _overlays(page, end, actions)
        await _scroll(page, tracker, limits, end, actions)
        await _click(page, tracker, limits, end, actions)
        await _overlays(page, deadline, actions)
    except TimeoutError:
        error = "timeout"
    except PlaywrightError as exc:
        error = "crashed" if tracker.crashed or "crash" in str(exc).lower() else "error"
        if error == "error":
            log.info("render: %s: %s", page.url, str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    dom = None
    if not tracker.crashed:
        try:
            dom = await asyncio.wait_for(page.content(), timeout=_remaining(deadline) + CONTENT_GRACE)
        except TimeoutError:
            error = error or "unresponsive"
        except PlaywrightError:
            error = "crashed" if tracker.crashed else (error or "error")
    tracker.disarm()
    url = None if page.is_closed() else page.url
    return RenderResult(dom=dom, settled=settled and error is None, crashed=tracker.crashed, error=error,
                        actions=actions, url=url, seconds=time.monotonic() - started)
