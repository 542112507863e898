"""Tests for crawler/frontier/middleware.py, the Scrapy middleware that runs the frontier logic in a crawl.

The middleware tests crawl a small site served by a stdlib ThreadingHTTPServer on 127.0.0.1 under two host
names (127.0.0.1 and localhost, so two download slots); the crawl runs in a subprocess (this file run as a
script) because a Twisted reactor cannot be restarted inside the pytest process.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.crawler.topical_texts import ASTRONOMY, COOKING, FRENCH, topical_docs

REPO = Path(__file__).resolve().parents[3]

# ---------------------------------------------------------------------------------------------------------
# Middleware: in-process unit checks
# ---------------------------------------------------------------------------------------------------------


def _middleware(settings: dict[str, Any]) -> Any:
    from scrapy import Spider
    from scrapy.utils.test import get_crawler

    from crawler.frontier.middleware import FrontierMiddleware

    crawler = get_crawler(Spider, settings)
    return crawler, FrontierMiddleware.from_crawler(crawler)


def _html(url: str, body: str) -> Any:
    from scrapy import Request
    from scrapy.http import HtmlResponse

    return HtmlResponse(url=url, body=body.encode(), encoding="utf-8", request=Request(url))


def test_middleware_sync_and_async_output() -> None:
    from scrapy import Request

    crawler, mw = _middleware({"WINNOW_MAX_URL_LENGTH": 100, "WINNOW_TOPIC_SEED_PAGES": 16})
    response = _html("https://a.example/", "<p>" + COOKING[0] + "</p>")
    mw.process_spider_input(response)
    assert "winnow_topic" in response.meta and response.meta["winnow_topic"] is None
    requests = [
        Request("https://a.example/blog/how-to-bake-sourdough-bread.html", priority=5),
        Request("https://a.example/" + "x" * 200),
        {"an": "item"},
    ]
    out = list(mw.process_spider_output(response, iter(requests)))
    assert [o if isinstance(o, dict) else o.priority for o in out] == [25, {"an": "item"}]

    async def source() -> Any:
        for request in [Request("https://a.example/a/b/a/b/a/b/"), Request("https://a.example/cart")]:
            yield request

    async def collect() -> list[Any]:
        return [o async for o in mw.process_spider_output_async(response, source())]

    out = asyncio.run(collect())
    assert [(o.url, o.priority) for o in out] == [("https://a.example/cart", -50)]
    stats = crawler.stats.get_stats()
    assert stats["winnow/frontier/trap/url_too_long"] == 1
    assert stats["winnow/frontier/trap/repeated_segments"] == 1
    assert "winnow/frontier/requests_scored" not in stats  # counted locally, reported at close
    mw.spider_closed(None, "finished")
    assert crawler.stats.get_value("winnow/frontier/requests_scored") == 2
    # start requests (seeds) are left alone
    seed = Request("https://a.example/cart?sid=1")
    assert mw.get_processed_request(seed, None) is seed and seed.priority == 0


def test_middleware_scrapy_picks_async_output_without_warnings() -> None:
    import warnings

    from scrapy.core.spidermw import SpiderMiddlewareManager

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # e.g. the deprecated spider argument
        crawler, mw = _middleware({})
        method = SpiderMiddlewareManager._get_process_spider_output(mw)
        manager = SpiderMiddlewareManager(mw, crawler=crawler)
    assert method.__name__ == "process_spider_output_async"
    assert manager.methods["process_spider_input"]


def test_middleware_observation_failure_does_not_fail_the_page() -> None:
    from scrapy import Spider
    from scrapy.utils.test import get_crawler

    from crawler.frontier.middleware import FrontierMiddleware

    def broken_detect(text: str) -> tuple[str, float]:
        raise RuntimeError("model exploded")

    crawler = get_crawler(Spider, {})
    mw = FrontierMiddleware(crawler, languages=["en"], detect=broken_detect)
    response = _html("https://a.example/", "<p>" + COOKING[1] + "</p>")
    mw.process_spider_input(response)  # must not raise
    assert response.meta["winnow_topic"] is None
    assert crawler.stats.get_value("winnow/frontier/observe_errors") == 1


def test_middleware_host_language_steers_priorities() -> None:
    from scrapy import Request, Spider
    from scrapy.utils.test import get_crawler

    from crawler.frontier.middleware import FrontierMiddleware

    crawler = get_crawler(Spider, {})
    mw = FrontierMiddleware(crawler, languages=["en"], detect=lambda text: ("de", 0.95), topics_enabled=False)
    for i in range(3):
        mw.process_spider_input(_html(f"https://de.example/{i}", "<p>Ein Text</p>"))
    (request,) = mw.process_spider_output(_html("https://x.example/", "<p>x</p>"), [Request("https://de.example/")])
    assert request.priority == -40
    mw.spider_closed(Spider("s"), "finished")
    # only process_spider_input observes pages; output processing does not
    assert crawler.stats.get_value("winnow/frontier/host_languages") == {"de.example": {"de": 3}}
    assert crawler.stats.get_value("winnow/frontier/topics") == {}


def test_middleware_languages_setting_parsing() -> None:
    from crawler.frontier.middleware import parse_languages

    assert parse_languages("en, FR,") == ["en", "fr"]
    assert parse_languages(["en", "de"]) == ["en", "de"]
    assert parse_languages(None) == [] and parse_languages("") == []
    _, mw = _middleware({"WINNOW_TOPICS_ENABLED": False})
    assert mw.topics is None and mw.host_language is None


# ---------------------------------------------------------------------------------------------------------
# Middleware: a real crawl of a loopback site
# ---------------------------------------------------------------------------------------------------------

TRAP_PATHS = {
    "long": "/long/" + "x" * 2100,
    "deep": "/" + "/".join(f"d{i}" for i in range(22)),
    "params": "/list?" + "&".join(f"p{i}=1" for i in range(12)),
    "repeat": "/a/b/a/b/a/b/page.html",
}
SORTS = ["price", "name", "date", "rating", "colour", "size", "brand", "stock"]
EN_SLUGS = [
    *(f"{w}-notes-for-curious-readers" for w in ["bread", "sauce", "pastry", "risotto", "onions", "beans", "lamb"]),
    "mousse-notes-for-curious-readers",
    *(f"{w}-guide-for-night-watchers" for w in ["saturn", "comets", "galaxies", "eclipse", "mars", "exoplanets"]),
]


def _site_page(host: str, path: str) -> tuple[int, str, str] | None:
    """(status, content type, body) of the fixture site: English articles on 127.0.0.1, French on localhost."""

    def page(text: str, links: list[str]) -> str:
        anchors = "".join(f'<a href="{href}">link</a> ' for href in links)
        head = "<head><title>t</title><script>var tracking = 1;</script></head>"
        return f"<html>{head}<body><p>{text}</p>{anchors}</body></html>"

    if host == "127.0.0.1":
        articles = [f"/articles/{slug}.html" for slug in EN_SLUGS]
        if path == "/":
            links = [*articles, *TRAP_PATHS.values(), *(f"/list?sort={s}" for s in SORTS), "/notes.txt"]
            return 200, "text/html", page("Welcome to the kitchen and observatory journal.", links)
        if path.startswith("/articles/"):
            slug = path.removeprefix("/articles/").removesuffix(".html")
            if slug not in EN_SLUGS:
                return None
            i = EN_SLUGS.index(slug)
            text = " ".join(topical_docs(COOKING if i < 8 else ASTRONOMY, 1, seed=i)[0] for _ in range(3))
            return 200, "text/html", page(text, ["/", articles[(i + 1) % len(articles)]])
        if path.startswith("/list"):
            return 200, "text/html", page("This is a sorted list of our recipes and of the star charts.", ["/"])
        if path == "/notes.txt":
            return 200, "text/plain", "plain notes"
        return 200, "text/html", page("A page that should never be fetched.", [])
    if host == "localhost":
        # The index links 3 pages, page i links page i + 3: most links are found after the first pages.
        pages = [f"/p/{i}" for i in range(10)]
        if path == "/":
            return 200, "text/html", page(" ".join(FRENCH), pages[:3])
        if path in pages:
            i = int(path.rsplit("/", 1)[1])
            links = ["/", *pages[i + 3 : i + 4]]
            return 200, "text/html", page(" ".join(topical_docs(FRENCH, 1, seed=10 + i)), links)
    return None


class _SiteHandler(BaseHTTPRequestHandler):
    log: list[tuple[float, str, str]]  # (time, host, path), set on the subclass

    def do_GET(self) -> None:
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0]
        self.log.append((time.monotonic(), host, self.path))
        time.sleep(0.01)  # a little latency, so per-slot concurrency decides the fetch order
        result = _site_page(host, self.path)
        status, ctype, body = result if result else (404, "text/html", "<html><body>not found</body></html>")
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", f"{ctype}; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:  # keep pytest output quiet
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[int, list[tuple[float, str, str]]]]:
    log: list[tuple[float, str, str]] = []
    handler = type("Handler", (_SiteHandler,), {"log": log})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], log
    server.shutdown()
    server.server_close()


def _crawl(port: int, out: Path, extra_settings: dict[str, Any] | None = None) -> dict[str, Any]:
    args = {"port": port, "out": str(out), "settings": extra_settings or {}}
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run(
        [sys.executable, __file__, json.dumps(args)], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(out.read_text())


def _crawl_with_log(site: tuple[int, list], out: Path, extra_settings: dict[str, Any] | None = None) -> dict[str, Any]:
    port, log = site
    log.clear()
    result = _crawl(port, out, extra_settings)
    result["server_log"] = list(log)
    return result


@pytest.fixture(scope="module")
def crawl(site: tuple[int, list], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _crawl_with_log(site, tmp_path_factory.mktemp("crawl") / "result.json")


def test_crawl_does_not_fetch_traps(crawl: dict[str, Any]) -> None:
    fetched = {(host, path) for _, host, path in crawl["server_log"]}
    for path in TRAP_PATHS.values():
        assert ("127.0.0.1", path) not in fetched
    sorts = sorted(path for host, path in fetched if path.startswith("/list?sort="))
    assert sorts == sorted(f"/list?sort={s}" for s in SORTS[:3])  # WINNOW_MAX_QUERY_VARIANTS = 3
    assert {f"/articles/{slug}.html" for slug in EN_SLUGS} <= {p for h, p in fetched if h == "127.0.0.1"}
    assert {f"/p/{i}" for i in range(10)} <= {p for h, p in fetched if h == "localhost"}
    stats = crawl["stats"]
    for reason in ["url_too_long", "too_many_segments", "too_many_params", "repeated_segments"]:
        assert stats[f"winnow/frontier/trap/{reason}"] >= 1, reason
    assert stats["winnow/frontier/trap/query_explosion"] == 5


def test_crawl_stats_topics_languages_and_meta(crawl: dict[str, Any]) -> None:
    stats = crawl["stats"]
    pages = crawl["pages"]
    html_pages = [p for p in pages if p["html"]]
    assert stats["winnow/frontier/pages_observed"] == len(html_pages)
    assert stats["winnow/frontier/requests_scored"] > 0
    assert stats["winnow/frontier/observe_ms_mean"] > 0
    languages = stats["winnow/frontier/host_languages"]  # the first 5 pages of each host
    assert set(languages) == {"127.0.0.1", "localhost"}
    assert sum(languages["127.0.0.1"].values()) == 5 and languages["127.0.0.1"].get("en", 0) >= 4, languages
    assert languages["localhost"] == {"fr": 5}
    topics = stats["winnow/frontier/topics"]
    assert len(topics) == 2  # WINNOW_TOPIC_CLUSTERS = 2 (ids may exceed 1 if a new topic replaced a merged one)
    assert sum(t["count"] for t in topics.values()) == len(html_pages)
    assert all(t["top_terms"] for t in topics.values())
    # every HTML page carries the meta key; pages after the seed buffer (6) have a topic id
    assert all("winnow_topic" in p["meta_keys"] for p in html_pages)
    assert sum(isinstance(p["topic"], int) for p in html_pages) >= len(html_pages) - 6
    # priorities: article pages favoured; French pages after the language evidence pushed down
    en_articles = [p for p in pages if "/articles/" in p["url"]]
    assert all(p["priority"] >= 10 for p in en_articles), en_articles
    assert min(p["priority"] for p in pages if p["url"].startswith("http://localhost")) <= -30


def _fetch_order(crawl: dict[str, Any]) -> tuple[list[str], int]:
    """Hosts in the order the server saw requests, cut to while both hosts had pages left; longest run of
    consecutive fetches from the English host in that window."""
    hosts = [host for _, host, _ in sorted(crawl["server_log"])]
    n_en, n_fr = hosts.count("127.0.0.1"), hosts.count("localhost")
    assert n_en >= 15 and n_fr == 11
    window = hosts[: 2 * n_fr]
    runs = "".join("e" if host == "127.0.0.1" else "f" for host in window).split("f")
    return window, max(len(run) for run in runs)


def test_crawl_two_hosts_progress_interleaved(crawl: dict[str, Any]) -> None:
    """DownloaderAwarePriorityQueue (Scrapy's default) + CONCURRENT_REQUESTS_PER_DOMAIN=1: both hosts advance
    together although every English article outranks every French page (by 20 to 60 points)."""
    window, longest_run = _fetch_order(crawl)
    assert window.count("localhost") >= 0.4 * len(window), window
    assert longest_run <= 3, window


def test_crawl_global_priority_queue_lets_one_host_run_ahead(
    site: tuple[int, list], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The control for the test above: with one global priority queue the English host's higher-priority
    backlog fills the downloader first, so the interleaving assertion would fail."""
    out = tmp_path_factory.mktemp("crawl-global") / "result.json"
    control = _crawl_with_log(site, out, {"SCHEDULER_PRIORITY_QUEUE": "scrapy.pqueues.ScrapyPriorityQueue"})
    window, longest_run = _fetch_order(control)
    assert longest_run > 3, window


# ---------------------------------------------------------------------------------------------------------
# The crawl helper (this file run as a script in a subprocess)
# ---------------------------------------------------------------------------------------------------------


def _crawl_main(args: dict[str, Any]) -> None:
    import scrapy
    from scrapy.crawler import CrawlerProcess
    from scrapy.http import HtmlResponse

    port = args["port"]
    pages: list[dict[str, Any]] = []

    class SiteSpider(scrapy.Spider):
        name = "frontier-test"

        async def start(self) -> Any:
            for host in ("127.0.0.1", "localhost"):
                yield scrapy.Request(f"http://{host}:{port}/")

        def parse(self, response: Any) -> Any:
            html = isinstance(response, HtmlResponse)
            pages.append(
                {
                    "url": response.url,
                    "priority": response.request.priority,
                    "html": html,
                    "topic": response.meta.get("winnow_topic"),
                    "meta_keys": sorted(response.meta),
                }
            )
            if html:
                for href in response.css("a::attr(href)").getall():
                    yield response.follow(href, callback=self.parse)

    settings = {
        "SPIDER_MIDDLEWARES": {"crawler.frontier.middleware.FrontierMiddleware": 850},
        "WINNOW_LANGUAGES": "en",
        "WINNOW_MAX_QUERY_VARIANTS": 3,
        "WINNOW_TOPIC_CLUSTERS": 2,
        "WINNOW_TOPIC_SEED_PAGES": 6,
        "CONCURRENT_REQUESTS": 8,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
        # Not 0: with the asyncio reactor and DOWNLOAD_DELAY = 0, Scrapy 2.19's downloader starts every
        # request queued in a slot at once (Downloader._process_queue schedules the download as a task, so
        # slot.transferring is still empty when it checks free_transfer_slots): up to 7 parallel
        # connections to one host were seen with CONCURRENT_REQUESTS_PER_DOMAIN = 1.
        "DOWNLOAD_DELAY": 0.02,
        "DOWNLOAD_DELAY_JITTER": 0,
        "ROBOTSTXT_OBEY": False,
        "TELNETCONSOLE_ENABLED": False,
        "LOG_LEVEL": "WARNING",
        **args["settings"],
    }
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(SiteSpider)
    process.crawl(crawler)
    process.start()
    result = {"stats": crawler.stats.get_stats(), "pages": pages}
    Path(args["out"]).write_text(json.dumps(result, default=str))


if __name__ == "__main__":
    _crawl_main(json.loads(sys.argv[1]))
