"""Render parts without a browser: the sub-request policy, the page pool, outcome fields, settings."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest
from scrapy.exceptions import IgnoreRequest
from scrapy.http import HtmlResponse

from crawler.policy.robots import RobotsRules
from crawler.render import subrequests as render_policy
from crawler.render.middleware import RenderOutcome
from crawler.render.pool import PagePool
from crawler.render.subrequests import SubrequestPolicy, abort_request
from crawler.run import CrawlConfigError, CrawlOptions, build_settings


class Stats:
    def __init__(self) -> None:
        self.values: Counter[str] = Counter()

    def inc_value(self, key: str, count: int = 1) -> None:
        self.values[key] += count


class AddressGuardMiddleware:  # named like the real one: the policy finds middlewares by duck type and name
    def __init__(self, blocked: set[str]) -> None:
        self.blocked = blocked
        self.seen: list[str] = []

    async def process_request(self, request) -> None:
        self.seen.append(request.url)
        if any(host in request.url for host in self.blocked):
            raise IgnoreRequest("blocked")


class Robots:
    bot_token = "winnowbot"

    def __init__(self, text: str) -> None:
        self.rules = RobotsRules.parse(text)
        self.fetched: list[str] = []

    async def fetch_rules(self, url: str) -> RobotsRules:
        self.fetched.append(url)
        return self.rules


def make_policy(blocked=(), robots="User-agent: *\nDisallow: /private/\n") -> SubrequestPolicy:
    middlewares = [AddressGuardMiddleware(set(blocked)), Robots(robots)]
    crawler = SimpleNamespace(stats=Stats(), engine=SimpleNamespace(downloader=SimpleNamespace(
        middleware=SimpleNamespace(middlewares=middlewares))))
    return SubrequestPolicy(crawler)


@pytest.mark.parametrize(("url", "resource", "reason"), [
    ("http://site.test/app.js", "script", None),
    ("https://site.test/api/items", "fetch", None),
    ("http://site.test/private/data.json", "fetch", "robots"),
    ("http://site.test/robots.txt", "fetch", None),  # RFC 9309 §2.2.2: implicitly allowed
    ("http://site.test/logo.png", "image", "resource_image"),
    ("http://site.test/clip.mp4", "media", "resource_media"),
    ("http://site.test/font.woff2", "font", "resource_font"),
    ("file:///etc/passwd", "document", "scheme"),
    ("ftp://site.test/x", "other", "scheme"),
    ("chrome://crash", "document", "scheme"),
    ("data:text/plain,hello", "fetch", None),
    ("blob:http://site.test/uuid", "fetch", None),
    ("http://intranet.test/admin", "xhr", "address_guard"),
])
def test_policy_verdicts(url, resource, reason):
    policy = make_policy(blocked={"intranet.test"})
    assert asyncio.run(policy.verdict(url, resource)) == reason


def test_abort_request_counts_and_fails_closed():
    policy = make_policy()
    request = SimpleNamespace(url="http://site.test/private/x", resource_type="fetch")
    render_policy.install(policy)
    try:
        assert asyncio.run(abort_request(request)) is True
        assert asyncio.run(abort_request(SimpleNamespace(url="http://site.test/ok", resource_type="script"))) is False
    finally:
        render_policy.uninstall(policy)
    assert policy.stats.values == {"winnow/render/aborted/robots": 1, "winnow/render/aborted": 1}
    # No crawl has registered a policy: nothing goes through.
    assert asyncio.run(abort_request(SimpleNamespace(url="http://site.test/ok", resource_type="script"))) is True


class FakeContext:
    def __init__(self) -> None:
        self.closed = False

    async def close(self) -> None:
        self.closed = True


class FakePage:
    def __init__(self, context: FakeContext | None = None) -> None:
        self.context = context or FakeContext()
        self.closed = False
        self.blanked = 0

    def is_closed(self) -> bool:
        return self.closed

    async def close(self) -> None:
        self.closed = True

    async def goto(self, url: str) -> None:
        assert url == "about:blank"
        self.blanked += 1


def test_pool_reuses_pages_and_bounds_leases():
    async def scenario() -> None:
        pool = PagePool(max_pages=2, context_pages=100, stats=Stats())
        a = await pool.acquire()
        b = await pool.acquire()
        assert a.page is None and b.page is None
        assert {a.context, b.context} == {"winnow-render-0-0", "winnow-render-1-0"}  # a context (window) each
        third = asyncio.ensure_future(pool.acquire())
        await asyncio.sleep(0.01)
        assert not third.done()  # bounded: two leases out
        page_a = FakePage()
        await pool.release(a, page_a, reusable=True, quiet=True)
        c = await third
        assert c.page is page_a and c.context == a.context and page_a.blanked == 0  # settled: parked as it is
        await pool.release(c, page_a, reusable=True, quiet=False)
        assert page_a.blanked == 1 and not page_a.closed  # a busy one goes to about:blank first
        page_b = FakePage()
        await pool.release(b, page_b, reusable=False)  # crashed or hung: closed, never reused
        assert page_b.closed
        d = await pool.acquire()
        assert d.page is page_a  # a slot with a parked page is preferred
        await pool.release(d, page_a, reusable=True, quiet=True)
        await pool.release(d, page_a, reusable=False)  # a second release of the same lease is a no-op
        assert not page_a.closed

    asyncio.run(scenario())


def test_pool_replaces_a_slots_context_after_n_renders():
    async def scenario() -> None:
        stats = Stats()
        pool = PagePool(max_pages=1, context_pages=2, stats=stats)
        ctx = FakeContext()
        page = FakePage(ctx)
        first = await pool.acquire()
        await pool.release(first, page, reusable=True, quiet=True)
        second = await pool.acquire()
        assert second.page is page and second.context == "winnow-render-0-0"
        await pool.release(second, page, reusable=True, quiet=True)
        assert ctx.closed and stats.values["winnow/render/contexts_recycled"] == 1
        third = await pool.acquire()
        assert third.page is None and third.context == "winnow-render-0-1"

    asyncio.run(scenario())


def test_outcome_fields():
    raw = HtmlResponse("http://h.test/a", body=b"<html></html>")
    outcome = RenderOutcome(raw=raw, reason="spa_root", dom="<html>x</html>", settled=False,
                            actions=Counter(scroll=3, click=0), url="http://h.test/a#/home", raw_source="scrapy")
    assert outcome.fields() == {
        "winnow-rendered": True, "winnow-render-reason": "spa_root", "winnow-render-settled": False,
        "winnow-render-error": None, "winnow-render-actions": "scroll=3", "winnow-render-raw": "scrapy",
        "winnow-rendered-url": "http://h.test/a#/home"}
    failed = RenderOutcome(raw=raw, reason="host", error="crashed").fields()
    assert failed["winnow-rendered"] is False and failed["winnow-render-settled"] is None
    assert failed["winnow-render-error"] == "crashed"


def test_render_settings(tmp_path: Path):
    opts = dict(seeds=["http://127.0.0.1:1/"], output=tmp_path / "c", allow_private=True)
    never = build_settings(CrawlOptions(**opts, render="never"))
    handlers = dict(never.getwithbase("DOWNLOAD_HANDLERS"))
    assert "playwright" not in handlers["http"] and "playwright" not in handlers["https"]
    auto = build_settings(CrawlOptions(**opts, overrides={"WINNOW_RENDER_MAX_PAGES": "3",
                                                          "WINNOW_RENDER_JS_HEAP_MB": "256"}))
    assert auto.get("WINNOW_RENDER") == "auto"
    assert dict(auto.getwithbase("DOWNLOAD_HANDLERS"))["https"] == "crawler.render.handler.SharedPlaywrightHandler"
    launch = auto.getdict("PLAYWRIGHT_LAUNCH_OPTIONS")
    assert launch["executable_path"] == "/usr/bin/chromium" and "--no-sandbox" in launch["args"]
    assert "--js-flags=--max-old-space-size=256" in launch["args"]
    assert auto.getint("PLAYWRIGHT_MAX_PAGES_PER_CONTEXT") == 3
    assert auto.get("PLAYWRIGHT_ABORT_REQUEST") == "crawler.render.subrequests.abort_request"
    with pytest.raises(CrawlConfigError, match="--render"):
        build_settings(CrawlOptions(**opts, render="sometimes"))
    with pytest.raises(CrawlConfigError, match="Chromium"):
        build_settings(CrawlOptions(**opts, render="always", overrides={"WINNOW_CHROMIUM": str(tmp_path / "none")}))


def test_an_origin_whose_guessed_renders_never_help_is_not_rendered_for_that_guess_any_more():
    import asyncio

    from scrapy import Request
    from scrapy.http import HtmlResponse
    from scrapy.utils.test import get_crawler

    from crawler.render.middleware import GUESS_REASON, RenderMiddleware
    from crawler.render.subrequests import uninstall

    crawler = get_crawler(settings_dict={"WINNOW_RENDER": "auto", "WINNOW_RENDER_GUESS_SKIP_AFTER": 3})
    middleware = RenderMiddleware(crawler)
    try:
        docs, app = "https://docs.example/", "https://app.example/"
        for i in range(3):  # a docs site: thin pages with many external scripts, nothing added by the browser
            middleware._note_gain(f"{docs}p{i}.html", 80, 85, GUESS_REASON)
            middleware._note_gain(f"{app}p{i}.html", 0, 30, "spa_root")  # other reasons never switch anything off
        middleware._note_gain(f"{app}x.html", 10, 12, GUESS_REASON)
        assert middleware.guess_off_origins == {"https://docs.example"}
        scripts = "".join(f'<script src="/s{i}.js"></script>' for i in range(8))
        page = HtmlResponse(f"{docs}next.html", body=f"<html><body><p>A short page.</p>{scripts}</body></html>",
                            encoding="utf-8", request=Request(f"{docs}next.html"))
        assert asyncio.run(middleware.maybe_render(page)) is None  # assessed as script_heavy, not rendered
        stats = crawler.stats
        assert stats.get_value("winnow/render/skipped_guess_unhelpful_host") == 1
        assert stats.get_value("winnow/render/hosts_guess_off") == 1
        middleware._note_gain(f"{docs}app.html", 10, 400, GUESS_REASON)  # one that helped switches it back on
        assert middleware.guess_off_origins == set()
    finally:
        uninstall(middleware.policy)
