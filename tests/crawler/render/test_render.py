"""Headless rendering inside `winnow crawl` (crawler/render*.py), end to end against fixture pages on 127.0.0.1.

Each crawl runs `winnow crawl` in a subprocess (as tests/crawler/test_crawl.py does) with Debian's Chromium.
The site: JavaScript-built pages (content injected after a delay, an infinite scroll, a load-more button), a
page whose script fetches a robots.txt-disallowed URL, a page that crashes its tab (unbounded allocation under
the V8 heap cap), a page that never finishes loading, a page whose script never yields, overlays, and plain
pages that need no browser.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import psutil
import pytest
from warcio.archiveiterator import ArchiveIterator

from crawler.page_text import tree_text
from crawler.site_server import Route, SiteServer
from pipelines.readers import read_input
from pipelines.readers.warc import parse_warc_fields

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WINNOW = str(Path(sys.executable).parent / "winnow")
FAST = ["-s", "DOWNLOAD_DELAY=0", "-s", "AUTOTHROTTLE_ENABLED=False", "--no-progress", "--allow-private",
        "-s", "WINNOW_RENDER_SETTLE_MAX=2",
        # Generous interaction budgets: CI machines may be loaded, and the assertions count scrolls and clicks.
        "-s", "WINNOW_RENDER_INTERACT_MAX=30", "-s", "WINNOW_RENDER_PAGE_TIMEOUT=60"]
TEXT = " ".join(f"Plain server text about rivers, bread and small towns, sentence {i}." for i in range(40))

DELAYED = "Injected by a timer after the page had loaded"
BATCH = "Batch {} of the endless feed"
ITEM = "Loaded item {} about mills and harbours"
BEFORE_HANG = "Written before the page stopped loading"
FETCHED = "This page fetched its data"
OVERLAY_TEXT = "Please accept our cookies"


def html(title: str, body: str, head: str = "") -> str:
    return f"<!doctype html><html lang=en><head><title>{title}</title>{head}</head><body>{body}</body></html>"


def app(title: str, script: str, extra: str = "") -> Route:
    """A single-page app: an empty mount point that its script fills."""
    return Route(body=html(title, f'<div id="root"></div>{extra}<script>{script}</script>'))


def fill(text: str, times: int = 30) -> str:
    return f'document.getElementById("root").innerHTML = "<p>" + "{text}. ".repeat({times}) + "</p>";'


SCROLL = """
let n = 0;
const feed = document.getElementById('feed'), sentinel = document.getElementById('sentinel');
new IntersectionObserver(entries => {
  if (!entries[0].isIntersecting || n >= 5) return;
  fetch('/batch?n=' + n).then(r => r.text()).then(t => {
    const d = document.createElement('div'); d.style.height = '1200px'; d.textContent = t; feed.appendChild(d);
    if (++n >= 5) sentinel.remove();
  });
}).observe(sentinel);
"""
LOAD_MORE = """
let k = 0;
document.getElementById('more').addEventListener('click', async () => {
  const r = await fetch('/items?page=' + (++k));
  const li = document.createElement('li'); li.textContent = await r.text();
  document.getElementById('list').appendChild(li);
  if (k >= 3) document.getElementById('more').remove();
});
"""
OVERLAYS = (f'<div id="cookie-banner" style="position:fixed;bottom:0;left:0;right:0;height:150px;z-index:9">'
            f'{OVERLAY_TEXT} <button>Accept all</button></div>'
            '<div class="modal" style="position:fixed;inset:0;z-index:10;background:#0008">'
            '<div>Subscribe to our newsletter <button aria-label="Close">x</button></div></div>'
            '<script>document.querySelector(".modal button").onclick = () => document.querySelector(".modal").remove();'
            'document.body.style.overflow = "hidden";</script>')
PAGES = ["/plain.html", "/delayed.html", "/scroll.html", "/more.html", "/crash.html", "/hang.html", "/fetch.html"]


def site_routes(extra_pages: tuple[str, ...] = ()) -> dict:
    links = "".join(f'<a href="{p}">{p}</a> ' for p in (*PAGES, *extra_pages))
    return {
        "/robots.txt": Route(body="User-agent: *\nDisallow: /private/\n", content_type="text/plain"),
        "/": Route(body=html("Index", f"<p>{TEXT}</p><nav>{links}</nav>")),
        "/plain.html": Route(body=html("Plain", f"<article><p>{TEXT}</p></article>")),
        "/delayed.html": app("Delayed", f"setTimeout(() => {{ {fill(DELAYED)} }}, 800);"),
        "/scroll.html": app("Scroll", SCROLL, '<div id="feed"></div><div id="sentinel">...</div>'),
        "/batch": lambda path: Route(body=BATCH.format(path.rsplit("=", 1)[-1]) + " with words about ferries.",
                                     content_type="text/plain"),
        "/more.html": app("More", LOAD_MORE, '<ul id="list"></ul><button id="more">Load more</button>'),
        "/items": lambda path: Route(body=ITEM.format(path.rsplit("=", 1)[-1]), content_type="text/plain"),
        "/crash.html": app("Crash", "const a = []; while (true) a.push(new Array(1e6).fill(Math.random()));"),
        "/hang.html": app("Hang", fill(BEFORE_HANG), '<iframe src="/forever"></iframe>'),
        "/forever": Route(body="too late", delay=30),
        "/fetch.html": app("Fetch", "fetch('/private/secret.json').catch(() => {});" + fill(FETCHED)),
        "/private/secret.json": Route(body="{}", content_type="application/json"),
        "/overlay.html": Route(body=html("Overlay", f"<article><p>{TEXT}</p></article>{OVERLAYS}")),
        "/busy.html": app("Busy", "while (true) {}"),
    }


def crawl(seeds: list[str], out: Path, *extra: str, timeout: int = 120) -> dict:
    cmd = [WINNOW, "crawl", *seeds, "--output", str(out), *FAST, *extra]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, result.stderr[-4000:]
    return json.loads((out / "crawl-stats.json").read_text())


def warc(out: Path) -> dict[str, dict[str, tuple]]:
    """url path -> record type -> (WARC headers, block) for every record of the crawl."""
    found: dict[str, dict[str, tuple]] = {}
    for path in sorted(out.glob("*.warc.gz")):
        with path.open("rb") as fh:
            for record in ArchiveIterator(fh):
                uri = record.rec_headers.get_header("WARC-Target-URI")
                if uri:
                    key = "/" + uri.split("/", 3)[-1] if uri.count("/") >= 3 else uri
                    found.setdefault(key, {})[record.rec_type] = (record.rec_headers, record.content_stream().read())
    return found


def visible(html: str) -> str:
    """The page's text as a reader sees it (scripts excluded: they quote the text they will write)."""
    from lxml import html as lxml_html

    return tree_text(lxml_html.document_fromstring(html))


def meta_fields(records: dict[str, tuple]) -> dict[str, list[str]]:
    return parse_warc_fields(records["metadata"][1])


def rows(out: Path) -> dict[str, dict]:
    found = {}
    for path in sorted(out.glob("*.warc.gz")):
        for table in read_input(str(path)):
            for row in table.to_pylist():
                found["/" + row["url"].split("/", 3)[-1]] = row
    return found


@pytest.fixture(scope="module")
def auto_and_never(tmp_path_factory):
    base = tmp_path_factory.mktemp("render")
    with SiteServer(routes=site_routes()) as site:
        # No host promotion here: every JavaScript page takes the auto route (raw fetch, then the browser).
        auto = crawl([site.url("/")], base / "auto", "-s", "WINNOW_RENDER_HOST_AFTER=99")
        auto_hits = site.paths()
        site.hits.clear()
        never = crawl([site.url("/")], base / "never", "-s", "WINNOW_RENDER=never")
        yield {"auto": (base / "auto", auto, auto_hits), "never": (base / "never", never, site.paths())}


def test_text_appears_only_when_rendered(auto_and_never):
    out, _, _ = auto_and_never["auto"]
    pages = rows(out)
    assert DELAYED in visible(pages["/delayed.html"]["html"]) and pages["/delayed.html"]["rendered"] is True
    assert all(BATCH.format(i) in pages["/scroll.html"]["html"] for i in range(5))  # five scroll steps' worth
    assert all(ITEM.format(i) in pages["/more.html"]["html"] for i in (1, 2, 3))  # three clicks
    assert FETCHED in visible(pages["/fetch.html"]["html"])
    never_out, never_stats, _ = auto_and_never["never"]
    plain = rows(never_out)
    assert set(plain) == set(pages)
    for path in ["/delayed.html", "/scroll.html", "/more.html", "/fetch.html", "/hang.html"]:
        assert plain[path]["rendered"] is False and "id=\"root\"></div>" in plain[path]["html"], path
    assert DELAYED not in visible(plain["/delayed.html"]["html"])
    assert FETCHED not in visible(plain["/fetch.html"]["html"])
    assert BATCH.format(0) not in plain["/scroll.html"]["html"]
    assert ITEM.format(1) not in plain["/more.html"]["html"]
    assert not any(k.startswith("winnow/render/") for k in never_stats)
    assert not any(k.startswith("playwright/") for k in never_stats)  # the browser was never started


def test_routing_decisions(auto_and_never):
    out, stats, hits = auto_and_never["auto"]
    pages = rows(out)
    assert pages["/"]["rendered"] is False and pages["/plain.html"]["rendered"] is False
    assert hits.count("/plain.html") == 1 and hits.count("/") == 1  # text pages: one plain fetch, no browser
    for path in ["/delayed.html", "/scroll.html", "/more.html", "/fetch.html", "/hang.html", "/crash.html"]:
        # one request: the browser is answered with the body Scrapy fetched (issue 15: it used to fetch it again)
        assert hits.count(path) == 1, path
        assert meta_fields(warc(out)[path])["winnow-render-reason"] == ["spa_root"], path
    assert stats["winnow/render/checked"] == 8
    assert stats["winnow/render/reason/spa_root"] == 6
    assert stats["winnow/render/pages"] == 5  # the crashed tab left nothing to keep
    assert stats["winnow/render/actions/scroll"] >= 5 and stats["winnow/render/actions/click"] == 3
    assert "winnow/render/direct" not in stats and "winnow/render/hosts_direct" not in stats


def test_warc_holds_raw_and_rendered_records(auto_and_never):
    out, _, _ = auto_and_never["auto"]
    records = warc(out)["/delayed.html"]
    assert set(records) == {"request", "response", "conversion", "metadata"}
    response_headers, raw = records["response"]
    conversion_headers, dom = records["conversion"]
    assert conversion_headers.get_header("WARC-Refers-To") == response_headers.get_header("WARC-Record-ID")
    assert conversion_headers.get_header("WARC-Winnow-Rendered") == "yes"
    assert DELAYED in visible(dom.decode()) and DELAYED not in visible(raw.decode())
    fields = meta_fields(records)
    assert fields["winnow-rendered"] == ["yes"] and fields["winnow-render-settled"] == ["yes"]
    assert fields["winnow-render-raw"] == ["scrapy"]
    plain = warc(out)["/plain.html"]
    assert "conversion" not in plain and meta_fields(plain)["winnow-rendered"] == ["no"]


def test_winnow_run_extracts_from_the_rendered_dom(auto_and_never, tmp_path):
    out, _, _ = auto_and_never["auto"]
    config = tmp_path / "extract.yaml"
    config.write_text("steps:\n  - use: extract.trafilatura_step.TrafilaturaExtract\n")
    subprocess.run([WINNOW, "run", str(config), "--input", str(out), "--output", str(tmp_path / "o"), "--local",
                    "--no-progress"], check=True, capture_output=True, timeout=300)
    docs = pd.read_parquet(tmp_path / "o" / "text")
    text = {url.rsplit("/", 1)[-1]: t for url, t in zip(docs["url"], docs["text"], strict=True)}
    assert DELAYED in text["delayed.html"] and FETCHED in text["fetch.html"]


def test_robots_disallowed_fetch_never_reaches_the_server(auto_and_never):
    _, stats, hits = auto_and_never["auto"]
    assert "/private/secret.json" not in hits
    assert stats["winnow/render/aborted/robots"] >= 1


def test_crashed_tab_and_never_loading_page(auto_and_never):
    out, stats, hits = auto_and_never["auto"]
    pages, records = rows(out), warc(out)
    crash = meta_fields(records["/crash.html"])
    assert pages["/crash.html"]["rendered"] is False and "conversion" not in records["/crash.html"]
    assert crash["winnow-rendered"] == ["no"] and crash["winnow-render-error"] == ["crashed"]
    assert stats["winnow/render/errors/crashed"] == 1
    # Rendered as far as it got, and marked: the iframe's document never arrived.
    hang = meta_fields(records["/hang.html"])
    assert BEFORE_HANG in visible(pages["/hang.html"]["html"])
    assert hang["winnow-rendered"] == ["yes"] and hang["winnow-render-settled"] == ["no"]
    assert records["/hang.html"]["conversion"][0].get_header("WARC-Winnow-Render-Settled") == "no"
    assert stats["winnow/render/unsettled"] >= 1 and "/forever" in hits
    for path in ["/delayed.html", "/fetch.html"]:
        assert meta_fields(records[path])["winnow-render-settled"] == ["yes"], path


def chain_routes(n: int) -> dict:
    """/app/0 -> /app/1 -> ...: each app page's only link is written by its script."""
    routes = {"/robots.txt": Route(body="User-agent: *\nAllow: /\n", content_type="text/plain")}
    for i in range(n):
        link = f'<p><a href=\\"/app/{i + 1}\\">next</a></p>' if i + 1 < n else ""
        routes[f"/app/{i}"] = app(f"App {i}", f'{fill(f"App page {i} content")} '
                                              f'document.getElementById("root").innerHTML += "{link}";')
    return routes


def test_host_rendered_directly_after_it_needed_rendering(tmp_path):
    with SiteServer(routes=chain_routes(5)) as site:
        stats = crawl([site.url("/app/0")], tmp_path / "c", "--max-depth", "9")
        hits = site.paths()
    pages, records = rows(tmp_path / "c"), warc(tmp_path / "c")
    assert [hits.count(f"/app/{i}") for i in range(5)] == [1] * 5  # raw (served to the browser), then browser only
    assert stats["winnow/render/reason/spa_root"] == 2 and stats["winnow/render/reason/host"] == 3
    assert stats["winnow/render/hosts_direct"] == 1 and stats["winnow/render/direct"] == 3
    for i in range(5):
        assert f"App page {i} content" in visible(pages[f"/app/{i}"]["html"])  # links found in the rendered DOM
        raw_source = meta_fields(records[f"/app/{i}"])["winnow-render-raw"]
        assert raw_source == (["scrapy"] if i < 2 else ["browser"])
    # A direct render's raw record is the server's document as the browser received it, not the DOM.
    _, raw = records["/app/3"]["response"]
    assert b'<div id="root"></div>' in raw and b"App page 3 content. App" not in raw


def test_always_mode_overlays_busy_page_and_crash(tmp_path):
    routes = site_routes(("/overlay.html", "/busy.html", "/missing.html", "/unavailable.html"))
    # Answers that get retried or skipped must hand their browser page back (a leak would stall the crawl).
    routes["/unavailable.html"] = Route(status=503, body="later", headers={"Retry-After": "0"})
    with SiteServer(routes=routes) as site:
        stats = crawl([site.url("/")], tmp_path / "c", "-s", "WINNOW_RENDER=always",
                      "-s", "WINNOW_RENDER_PAGE_TIMEOUT=4")
        hits = site.paths()
    pages, records = rows(tmp_path / "c"), warc(tmp_path / "c")
    assert "/private/secret.json" not in hits
    for path in ["/", "/plain.html", "/delayed.html", "/overlay.html", "/fetch.html"]:
        assert hits.count(path) == 1 and pages[path]["rendered"] is True, path
        assert meta_fields(records[path])["winnow-render-reason"] == ["always"]
    # Overlays: the newsletter modal closed through its own close button, the cookie banner removed (no
    # consent given), the scroll lock lifted.
    overlay = pages["/overlay.html"]["html"]
    assert TEXT[:60] in overlay and OVERLAY_TEXT not in overlay and "newsletter" not in overlay
    assert stats["winnow/render/actions/overlay_closed"] == 1 and stats["winnow/render/actions/overlay_removed"] == 1
    # The crashed tab and the script that never yields: archived from a plain fetch, marked.
    for path, error in [("/crash.html", "crashed"), ("/busy.html", "killed")]:
        assert hits.count(path) == 2 and pages[path]["rendered"] is False, path
        fields = meta_fields(records[path])
        assert fields["winnow-render-error"] == [error] and fields["winnow-render-reason"] == ["always"], path
    assert stats["winnow/render/fallback_plain"] == 2
    assert hits.count("/unavailable.html") >= 4 and "/missing.html" in hits
    assert "/unavailable.html" not in pages and "/missing.html" not in pages


def browser_processes(root: psutil.Process) -> list[psutil.Process]:
    found = []
    for proc in root.children(recursive=True):
        try:
            if "chrom" in proc.name() and not any(a.startswith("--type=") for a in proc.cmdline()):
                found.append(proc)
        except psutil.Error:
            pass
    return found


def test_browser_restarted_after_it_dies(tmp_path):
    routes = chain_routes(8)
    for i in range(8):
        routes[f"/app/{i}"].delay = 0.3
    out = tmp_path / "c"
    with SiteServer(routes=routes) as site:
        cmd = [WINNOW, "crawl", site.url("/app/0"), "--output", str(out), *FAST, "--max-depth", "9",
               "-s", "WINNOW_RENDER=always"]
        proc = psutil.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        journal = out / ".crawl" / "journal.jsonl"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (not journal.exists() or journal.read_text().count('"o":"page"') < 3):
            time.sleep(0.05)
        killed = browser_processes(proc)
        assert killed, "no browser process found"
        for browser in killed:
            os.kill(browser.pid, signal.SIGKILL)
        assert proc.wait(timeout=90) == 0
    stats = json.loads((out / "crawl-stats.json").read_text())
    pages = rows(out)
    assert set(pages) == {f"/app/{i}" for i in range(8)}  # nothing lost
    assert stats["playwright/browser_count"] == 2
    assert all(pages[f"/app/{i}"]["rendered"] for i in (6, 7))  # rendered by the new browser
