"""End to end: `winnow crawl` against fixture sites on 127.0.0.1, then `winnow run` on its WARCs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

from crawler.site_server import Route, SiteServer
from pipelines.readers import read_input

WINNOW = str(Path(sys.executable).parent / "winnow")
FAST = ["-s", "DOWNLOAD_DELAY=0", "-s", "AUTOTHROTTLE_ENABLED=False", "--no-progress"]

ROBOTS = """\
User-agent: winnowbot
Disallow: /private/
Content-Usage: /cu/ train-ai=n

User-agent: winnowbot-Extended
Disallow: /no-training/

User-agent: *
Disallow: /
"""


def page(title: str, body: str = "", links: list[str] = (), head: str = "") -> str:
    text = " ".join(f"{title} is a page about rivers, bread and small towns, sentence {i}." for i in range(12))
    anchors = "".join(f'<li><a href="{href}">{href}</a></li>' for href in links)
    return (f"<!doctype html><html lang=en><head><title>{title}</title>{head}</head><body><nav><ul>{anchors}</ul>"
            f"</nav><article><h1>{title}</h1><p>{text}</p>{body}</article></body></html>")


class RateLimited:
    """429 with Retry-After: 1 on the first request, then the page."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, path: str) -> Route:
        self.calls += 1
        if self.calls == 1:
            return Route(status=429, body="slow down", headers={"Retry-After": "1"})
        return Route(body=page("Rate limited"))


LINKS = ["/a.html", "/private/secret.html", "/no-training/page.html", "/cu/page.html", "/header-cu.html",
         "/tdm-header.html", "/tdm-meta.html", "/tdm-file/page.html", "/noai.html", "/noimageai.html",
         "/nofollow.html", "/trap/a/b/a/b/a/b/a/b/a/b/x.html", "/redirect-private", "/rate-limited.html",
         "mailto:someone@example.test", "javascript:void(0)", "/image.png"]


def policy_site(private_port: int) -> dict:
    return {
        "/robots.txt": Route(body=ROBOTS, content_type="text/plain"),
        "/": Route(body=page("Index", links=LINKS)),
        "/a.html": Route(body=page("Plain article")),
        "/private/secret.html": Route(body=page("Secret")),
        "/no-training/page.html": Route(body=page("Crawl yes, train no")),
        "/cu/page.html": Route(body=page("Content usage by robots")),
        "/header-cu.html": Route(body=page("Content usage header"), headers={"Content-Usage": "train-ai=n"}),
        "/tdm-header.html": Route(body=page("TDM header"), headers={"tdm-reservation": "1"}),
        "/tdm-meta.html": Route(body=page("TDM meta", head='<meta name="tdm-reservation" content="1">')),
        "/tdm-file/page.html": Route(body=page("TDM file")),
        "/.well-known/tdmrep.json": Route(body=json.dumps([{"location": "/tdm-file/*", "tdm-reservation": 1}]),
                                          content_type="application/json"),
        "/noai.html": Route(body=page("No AI", head='<meta name="robots" content="noai">')),
        "/noimageai.html": Route(body=page("No image AI"), headers={"X-Robots-Tag": "noimageai"}),
        "/nofollow.html": Route(body=page("No follow", links=["/only-via-nofollow.html"],
                                          head='<meta name="robots" content="nofollow">')),
        "/only-via-nofollow.html": Route(body=page("Should not be fetched")),
        "/trap/a/b/a/b/a/b/a/b/a/b/x.html": Route(body=page("Trap")),
        "/redirect-private": Route(status=302, headers={"Location": f"http://127.0.0.2:{private_port}/x.html"}),
        "/rate-limited.html": RateLimited(),
        "/image.png": Route(body=b"\x89PNG\r\n", content_type="image/png"),
    }


def crawl(seeds, out: Path, *extra: str, timeout: int = 120) -> dict:
    cmd = [WINNOW, "crawl", *seeds, "--output", str(out), "--contact-url", "http://127.0.0.1/contact",
           "-s", "WINNOW_ALLOWED_NETWORKS=127.0.0.1/32", *FAST, *extra]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, result.stderr[-4000:]
    return json.loads((out / "crawl-stats.json").read_text())


def pages_in(out: Path) -> dict[str, dict]:
    rows = {}
    for warc in sorted(out.glob("*.warc.gz")):
        for table in read_input(str(warc)):
            for row in table.to_pylist():
                if row["dropped_by"] is None:
                    rows[row["url"]] = row
    return rows


@pytest.fixture(scope="module")
def policy_crawl(tmp_path_factory):
    out = tmp_path_factory.mktemp("crawl")
    broken_routes = {"/robots.txt": Route(status=500, body="oops"), "/b.html": Route(body=page("Host B"))}
    other = SiteServer()  # bound (so its port is known) but started by the with-statement
    with other, SiteServer(routes=broken_routes) as broken, SiteServer(routes=policy_site(other.port)) as site:
        stats = crawl([site.url("/"), broken.url("/b.html")], out)
        yield site, broken, other, out, stats


@pytest.mark.slow
def test_pages_fetched_and_skipped(policy_crawl):
    site, broken, other, out, stats = policy_crawl
    fetched = site.paths()
    assert fetched.count("/robots.txt") == 1
    for path in ["/", "/a.html", "/no-training/page.html", "/cu/page.html", "/noai.html", "/nofollow.html"]:
        assert path in fetched, path
    assert "/private/secret.html" not in fetched  # robots.txt disallows the bot
    assert "/only-via-nofollow.html" not in fetched  # meta nofollow
    assert not any(p.startswith("/trap/") for p in fetched)  # repeated path segments
    assert "/image.png" not in fetched  # HTML only
    assert fetched.count("/rate-limited.html") == 2  # 429, then after Retry-After
    assert other.paths() == []  # the redirect to 127.0.0.2 was refused by the address guard
    assert broken.paths() == ["/robots.txt"]  # robots.txt 500: the whole host is off limits
    assert stats["winnow/address_guard/blocked_address"] >= 1
    assert stats["winnow/robots/disallowed"] >= 1  # /private/
    # the broken host's page: robots.txt unreachable is no "no": parked, and left pending for --resume at the end
    assert stats["winnow/robots/unreachable_host"] == 1 and stats["winnow/robots/left_for_resume"] == 1
    assert stats["winnow/politeness/status_429"] == 1
    assert stats["winnow/pages"] == len(pages_in(out))
    assert not list(out.glob("*.open"))
    agents = {h.user_agent for h in site.hits}
    assert agents == {"winnowbot/0.1 (+http://127.0.0.1/contact)"}


@pytest.mark.slow
def test_training_verdicts(policy_crawl):
    site, _, _, out, _ = policy_crawl
    pages = {url.replace(site.base, ""): row for url, row in pages_in(out).items()}
    expected = {
        "/a.html": True, "/": True, "/rate-limited.html": True, "/nofollow.html": True, "/noimageai.html": True,
        "/no-training/page.html": False, "/cu/page.html": False, "/header-cu.html": False,
        "/tdm-header.html": False, "/tdm-meta.html": False, "/tdm-file/page.html": False, "/noai.html": False,
    }
    assert {p: pages[p]["training_allowed"] for p in expected} == expected
    assert pages["/noimageai.html"]["images_allowed"] is False
    assert pages["/a.html"]["images_allowed"] is True
    for path in ["/no-training/page.html", "/header-cu.html", "/tdm-file/page.html", "/noai.html"]:
        assert pages[path]["policy_signals"], path  # the deciding signals are recorded


@pytest.mark.slow
def test_run_honours_the_verdicts(policy_crawl, tmp_path):
    _, _, _, out, _ = policy_crawl
    # The light chain: the verdicts are the point here, and the policy site's pages are a sentence each, which the
    # default chain's quality model drops on its own account.
    subprocess.run([WINNOW, "run", "light", "--input", str(out), "--output", str(tmp_path / "o"), "--local",
                    "--no-progress"], check=True, capture_output=True, timeout=300)
    stats = json.loads((tmp_path / "o" / "stats.json").read_text())
    by = {s["step"]: s for s in stats["steps"]}
    assert by["opt_out"]["dropped"]["training_opt_out"] == 7
    docs = pd.read_parquet(tmp_path / "o" / "text")
    assert docs["training_allowed"].all()
    assert (docs["policy_signals"].map(len) >= 0).all()


def big_site(n: int) -> dict:
    routes = {"/robots.txt": Route(body="User-agent: *\nAllow: /\n", content_type="text/plain")}
    for i in range(n):
        links = [f"/p{j}.html" for j in (i + 1, i + 2, i * 2 + 1) if j < n]
        routes[f"/p{i}.html"] = Route(body=page(f"Page {i}", links=links), delay=0.02)
    return routes


def wait_for_pages(out: Path, n: int, timeout: float = 60) -> None:
    journal = out / ".crawl" / "journal.jsonl"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if journal.exists() and journal.read_text().count('"o":"page"') >= n:
            return
        time.sleep(0.05)
    raise AssertionError("crawl made no progress")


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_resume_after_kill_or_interrupt(tmp_path, sig):
    n = 60
    out = tmp_path / "crawl"
    with SiteServer(routes=big_site(n)) as site:
        cmd = [WINNOW, "crawl", site.url("/p0.html"), "--output", str(out), "--allow-private", "--max-depth", "99",
               "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=4", *FAST]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_pages(out, 15)
        os.kill(proc.pid, sig)
        proc.wait(timeout=60)
        if sig == signal.SIGINT:
            assert not list(out.glob("*.open")), "a clean stop leaves only complete WARC files"
        # Pages the journal vouches for (after a SIGKILL they sit in a *.open file until the resume repairs it).
        written = (out / ".crawl" / "journal.jsonl").read_text().count('"o":"page"')
        assert 15 <= written < n
        fetched_before = len([p for p in site.paths() if p != "/robots.txt"])
        subprocess.run([*cmd, "--resume"], check=True, capture_output=True, timeout=120)
        assert not list(out.glob("*.open")) and not list(out.glob("*.idx"))
        stats = json.loads((out / "crawl-stats.json").read_text())
        # issue 15: the stats counted the last session only
        assert stats["winnow/pages"] == n and stats["winnow/hosts"] == 1
        if sig == signal.SIGINT:  # the first session wrote its stats: they are summed in
            assert stats["sessions"] == 2 and stats["last_session"]["winnow/pages"] == n - written
        pages = pages_in(out)
        assert {u.replace(site.base, "") for u in pages} == {f"/p{i}.html" for i in range(n)}  # no page lost
        refetched = len([p for p in site.paths() if p != "/robots.txt"]) - n
        in_flight = fetched_before - written
        assert 0 <= refetched <= max(in_flight, 0) + 4  # only what was in flight (4 at a time) is fetched again


def test_refuses_to_mix_crawls(tmp_path):
    journal = tmp_path / ".crawl" / "journal.jsonl"
    journal.parent.mkdir(parents=True)
    journal.write_text('{"e":"q","u":"http://127.0.0.1:1/","d":0,"p":0,"r":null}\n')
    result = subprocess.run([WINNOW, "crawl", "http://127.0.0.1:1/", "-o", str(tmp_path), "--allow-private"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "--resume" in result.stderr


def test_public_crawl_needs_contact(tmp_path):
    result = subprocess.run([WINNOW, "crawl", "http://example.com/", "-o", str(tmp_path / "c")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "--contact-url" in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("use_sitemaps", [True, False])
def test_sitemaps_from_robots(tmp_path, use_sitemaps):
    routes = {"/": Route(body=page("Home", links=["/linked.html"])), "/linked.html": Route(body=page("Linked"))}
    with SiteServer(routes=routes) as site:
        site.routes["/robots.txt"] = Route(body=f"User-agent: *\nAllow: /\nSitemap: {site.url('/sitemap.xml')}\n",
                                           content_type="text/plain")
        site.routes["/sitemap.xml"] = Route(content_type="application/xml", body=(
            '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            f"<url><loc>{site.url('/only-in-sitemap.html')}</loc></url></urlset>"))
        site.routes["/only-in-sitemap.html"] = Route(body=page("Sitemap only"))
        extra = ["--sitemaps"] if use_sitemaps else []
        stats = crawl([site.url("/")], tmp_path / "c", "--allow-private", *extra)
        assert ("/only-in-sitemap.html" in site.paths()) is use_sitemaps
        assert "/linked.html" in site.paths()
        assert stats.get("winnow/sitemaps/read", 0) == (1 if use_sitemaps else 0)


@pytest.mark.slow
def test_links_not_followed_are_counted_by_reason(tmp_path):
    # issue 15: a documentation site's <a download> links to notebooks and data were fetched; --max-depth dropped
    # links without a trace
    body = ('<p><a download href="/nb/tutorial.ipynb">Download the notebook</a> '
            '<a download="guide.html" href="/saved.html">Save this guide</a> '
            '<a href="/data/table.csv">table</a> <a href="/data/arr.npy">array</a> '
            '<a href="/ext.html" rel="nofollow">elsewhere</a></p>')
    routes = {
        "/robots.txt": Route(body="User-agent: *\nAllow: /\n", content_type="text/plain"),
        "/": Route(body=page("Docs index", body=body, links=["/one.html"])),
        "/one.html": Route(body=page("Depth one", links=["/two.html", "/two-b.html"])),
        "/two.html": Route(body=page("Depth two")),
        "/two-b.html": Route(body=page("Depth two b")),
    }
    for path in ("/nb/tutorial.ipynb", "/saved.html", "/data/table.csv", "/data/arr.npy", "/ext.html"):
        routes[path] = Route(body=page("Should not be fetched"))
    with SiteServer(routes=routes) as site:
        stats = crawl([site.url("/")], tmp_path / "c", "--max-depth", "1")
        fetched = site.paths()
    assert sorted(p for p in fetched if p not in ("/robots.txt", "/.well-known/tdmrep.json")) == ["/", "/one.html"]
    assert stats["winnow/links_skipped/download"] == 2  # the .ipynb and the .html marked download
    assert stats["winnow/links_skipped/extension"] == 2  # .csv and .npy: never a page
    assert stats["winnow/links_skipped/nofollow"] == 1
    assert stats["winnow/links_skipped/depth"] == 2  # /one.html is at the limit: its two links are counted


@pytest.mark.slow
def test_bad_seeds_are_counted_and_the_rest_crawled(tmp_path):
    routes = {"/robots.txt": Route(body="User-agent: *\nAllow: /\n", content_type="text/plain"),
              "/": Route(body=page("Good seed", links=["/next.html"])), "/next.html": Route(body=page("Next"))}
    bad = ["http://127.0.0.1:99999/", "http://[::1", "notaurl", "ftp://127.0.0.1/file", "http://exa mple.test/"]
    with SiteServer(routes=routes) as site:
        stats = crawl([bad[0], bad[1], site.url("/"), *bad[2:]], tmp_path / "c")
        fetched = site.paths()
    assert {"/", "/next.html"} <= set(fetched)
    assert stats["winnow/pages"] == 2
    assert {k: v for k, v in stats.items() if k.startswith("winnow/seeds_skipped/")} == {
        "winnow/seeds_skipped/bad_port": 1, "winnow/seeds_skipped/bad_url": 1, "winnow/seeds_skipped/not_http": 2,
        "winnow/seeds_skipped/bad_host": 1}
    # only bad seeds: a clear error before anything starts, no traceback
    # each line of the log once (Scrapy's root handler printed every line a second time beside the CLI's)
    result = subprocess.run([WINNOW, "crawl", bad[0], site.url("/"), "--output", str(tmp_path / "e"),
                             "--allow-private", *FAST], capture_output=True, text=True, timeout=60)
    assert result.stderr.count("seed skipped (bad_port)") == 1
    assert "install_root_handler" not in result.stderr
    # LOG_LEVEL holds with the CLI's log handler (INFO by default): Scrapy's DEBUG lines were all printed
    assert " DEBUG " not in result.stderr and " INFO " in result.stderr
    result = subprocess.run([WINNOW, "crawl", site.url("/"), "--output", str(tmp_path / "w"), "--allow-private",
                             *FAST, "-s", "LOG_LEVEL=WARNING"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and " INFO " not in result.stderr and " DEBUG " not in result.stderr
    result = subprocess.run([WINNOW, "crawl", *bad, "--output", str(tmp_path / "d"), "--allow-private", *FAST],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "no usable seed URL" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.slow
def test_meta_refresh_seed_keeps_its_page_and_links(tmp_path):
    # issue 15: a seed whose index refreshed to another host gave 0 pages, rc 0, misreported as a robots failure
    elsewhere = SiteServer(routes={"/": Route(body=page("Elsewhere"))})
    refresh_off = '<meta http-equiv="refresh" content="0; url=http://127.0.0.9:9/">'
    refresh_on = '<meta http-equiv="refresh" content="3;URL=\'/stable/index.html\'">'
    routes = {
        "/robots.txt": Route(body="User-agent: *\nAllow: /\n", content_type="text/plain"),
        "/": Route(body=page("Index that moves on", links=["/guide.html"], head=refresh_off)),
        "/guide.html": Route(body=page("Guide", links=["/"], head=refresh_on)),
        "/stable/index.html": Route(body=page("Stable docs")),
    }
    with elsewhere, SiteServer(routes=routes) as site:
        stats = crawl([site.url("/")], tmp_path / "c")
        fetched = site.paths()
    assert elsewhere.paths() == []  # another host: not in the crawl's scope
    for path in ("/", "/guide.html", "/stable/index.html"):
        assert fetched.count(path) == 1, path
    assert stats["winnow/pages"] == 3
    assert stats["winnow/meta_refresh"] == 2
    assert stats["winnow/gate/offsite"] >= 1
    assert stats.get("winnow/robots/disallowed", 0) == 0
    from warcio.archiveiterator import ArchiveIterator

    refreshes = set()
    for warc in (tmp_path / "c").glob("*.warc.gz"):
        with open(warc, "rb") as fh:
            for record in ArchiveIterator(fh):
                if record.rec_type == "metadata":
                    for line in record.content_stream().read().decode().splitlines():
                        if line.startswith("winnow-meta-refresh: "):
                            refreshes.add(line.split(": ", 1)[1])
    assert refreshes == {"http://127.0.0.9:9/", site.url("/stable/index.html")}


class FailsFirst:
    """robots.txt answering 503 the first ``n`` times, then allowing everything."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.calls = 0

    def __call__(self, path: str) -> Route:
        self.calls += 1
        if self.calls <= self.n:
            return Route(status=503, body="busy")
        return Route(body="User-agent: *\nAllow: /\n", content_type="text/plain")


@pytest.mark.slow
def test_robots_5xx_host_is_retried_in_the_crawl_and_on_resume(tmp_path):
    # issue 15: a robots.txt 5xx journaled the host's pages as finished: never retried, not even by --resume
    retry = ["-s", "WINNOW_ROBOTS_UNREACHABLE_RETRY_SECONDS=1"]
    flaky = {"/robots.txt": FailsFirst(1), "/": Route(body=page("Flaky host", links=["/more.html"])),
             "/more.html": Route(body=page("More"))}
    slow_pages = {"/robots.txt": Route(body="User-agent: *\nAllow: /\n", content_type="text/plain"),
                  "/": Route(body=page("Steady host", links=["/s1.html"])),
                  "/s1.html": Route(body=page("Steady one"), delay=1.5)}
    with SiteServer(routes=flaky) as site, SiteServer(routes=slow_pages) as steady:
        # the steady host keeps the crawl busy past the retry interval: the flaky host's page is retried in it
        stats = crawl([site.url("/"), steady.url("/")], tmp_path / "a", *retry)
        fetched = site.paths()
    assert fetched.count("/robots.txt") == 2 and fetched.count("/") == 1 and "/more.html" in fetched
    assert stats["winnow/robots/deferred"] == 1 and stats["winnow/robots/retried"] == 1
    assert stats.get("winnow/robots/disallowed", 0) == 0

    down = {"/robots.txt": Route(status=500, body="down"), "/": Route(body=page("Down for now"))}
    with SiteServer(routes=down) as site:
        stats = crawl([site.url("/")], tmp_path / "b", *retry)
        port = site.port
    assert stats.get("winnow/pages", 0) == 0 and stats["winnow/robots/left_for_resume"] == 1
    up = {"/robots.txt": Route(body="User-agent: *\nAllow: /\n", content_type="text/plain"),
          "/": Route(body=page("Up again"))}
    with SiteServer(routes=up, port=port) as site:
        stats = crawl([site.url("/")], tmp_path / "b", *retry, "--resume")
        assert site.paths().count("/") == 1
    assert stats["winnow/pages"] == 1


class AlwaysBusy:
    """429 with Retry-After: 1 on every request, noting when each came."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def __call__(self, path: str) -> Route:
        self.times.append(time.monotonic())
        return Route(status=429, body="slow down", headers={"Retry-After": "1"})


@pytest.mark.slow
def test_a_paused_host_does_not_hold_the_others(tmp_path):
    # issue 15: paused requests slept outside the download slots, so one 429 host could hold every concurrent
    # download; and after the last Retry-After retry, Scrapy's RetryMiddleware sent the request twice more at once
    busy = AlwaysBusy()
    busy_routes = {"/robots.txt": Route(body="User-agent: *\nAllow: /\n", content_type="text/plain"),
                   "/": Route(body=page("Busy index", links=[f"/b{i}.html" for i in range(3)]))}
    busy_routes.update({f"/b{i}.html": busy for i in range(3)})
    healthy_routes = {"/robots.txt": Route(body="User-agent: *\nAllow: /\n", content_type="text/plain"),
                      "/": Route(body=page("Healthy index", links=[f"/h{i}.html" for i in range(30)]))}
    healthy_routes.update({f"/h{i}.html": Route(body=page(f"Healthy {i}")) for i in range(30)})
    # two addresses: Scrapy's download slots are per host name, so two ports of one address would share one
    with SiteServer(routes=busy_routes) as slow, SiteServer(routes=healthy_routes, host="127.0.0.2") as healthy:
        stats = crawl([slow.url("/"), healthy.url("/")], tmp_path / "c", "-s", "CONCURRENT_REQUESTS=4",
                      "-s", "WINNOW_RETRY_TIMES=1", "-s", "WINNOW_ALLOWED_NETWORKS=127.0.0.1/32,127.0.0.2/32")
    tries = Counter(hit.path for hit in slow.hits if hit.path.startswith("/b"))
    # each busy page: the first try and WINNOW_RETRY_TIMES retries, nothing more (no RetryMiddleware burst)
    assert tries == {f"/b{i}.html": 2 for i in range(3)}
    gaps = [b - a for a, b in zip(busy.times, busy.times[1:], strict=False)]
    order = [(hit.path, round(hit.time - slow.hits[0].time, 3)) for hit in slow.hits]
    # the host's slot waited out Retry-After between its requests (no burst after a pause)
    assert min(gaps) >= 0.8, f"gaps {[round(g, 3) for g in gaps]}; the busy host's requests: {order}"
    assert stats["winnow/politeness/gave_up"] == 3
    healthy_pages = [hit for hit in healthy.hits if hit.path.startswith("/h")]
    assert len(healthy_pages) == 30
    # the healthy host was not held behind the paused one: its pages were done while the busy host still waited
    assert max(hit.time for hit in healthy_pages) < max(hit.time for hit in slow.hits)


@pytest.mark.slow
def test_error_statuses_are_skips_with_their_status_not_failures(tmp_path):
    # issue 15: a broken link on a real docs site was counted as winnow/pages_failed (error.HttpError):
    # Scrapy's HttpErrorMiddleware turns the 404 into an error before the spider's own status check
    routes = {"/": Route(body=page("Index", links=["/gone.html", "/ok.html"])), "/ok.html": Route(body=page("Fine")),
              "/gone.html": Route(status=404, body="not here")}
    with SiteServer(routes=routes) as site:
        stats = crawl([site.url("/")], tmp_path / "c")
    assert stats["winnow/pages"] == 2 and stats["winnow/skipped/status_404"] == 1
    assert stats.get("winnow/pages_failed", 0) == 0
    journal = [json.loads(line) for line in (tmp_path / "c" / ".crawl" / "journal.jsonl").read_text().splitlines()]
    assert {e["u"].rsplit("/", 1)[1]: e["o"] for e in journal if e["e"] == "f"}["gone.html"] == "skip.status_404"
