"""Crawl a real static documentation site and check that every page reachable by links is fetched once.

Target (the issue): a crawl of a real static documentation site with a meta-refresh index, with default flags
(plus ``--allow-private`` for 127.0.0.1): every page reachable by links fetched once, no download link fetched,
depth and skip counters explain every link not followed.

Site: Debian's package ``python-skimage-doc`` (0.19.3-8 when written; the scikit-image 0.19 Sphinx docs with
sphinx-gallery, BSD-3-Clause: 198 HTML pages, ``<a download>`` links to .py/.ipynb/.zip files, ``_sources/*.txt``
links, images, external links), fetched with ``apt-get download`` into the cache folder, unpacked with ``dpkg-deb
-x`` and served by crawler/site_server.py under ``/docs/stable/`` as doc hosts do. The one page that is ours is the
root ``/`` (and ``/index.html``), only ``<meta http-equiv="refresh" content="0; url=/docs/stable/index.html">``;
it is the seed.

Measured independently of the crawler (the files parsed with lxml): the HTML pages reachable from the root through
``<a>``/``<area>`` links on the host (resolved, fragments dropped, ``download`` and rel=nofollow links not followed,
a meta refresh followed at the same depth), their depths and the download targets. From ``winnow crawl`` (run in a
subprocess): WARC records, journal, crawl-stats.json and the requests the site server received. A page fetched
twice, a download target requested or a reachable page missed without a depth/max-pages counter to explain it
fails the run. If the defaults (--max-depth 3, --max-pages 1000) cannot cover the site, a second crawl with the
limits raised to fit it is checked too.

Usage: .venv/bin/python bench/docsite_crawl.py [--cache DIR] [--json result.json] [--keep DIR] [--defaults-only]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit, urlunsplit

import lxml.html
from warcio.archiveiterator import ArchiveIterator

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.debs import DebianDataError, debian_package, unpacked  # noqa: E402
from crawler.site_server import Route, SiteServer  # noqa: E402

PACKAGE = "python-skimage-doc"
HTML_IN_DEB = f"usr/share/doc/{PACKAGE}/html"
MOUNT = "/docs/stable/"
REFRESH = '<meta http-equiv="refresh" content="0; url=/docs/stable/index.html">'
DEFAULT_DEPTH, DEFAULT_PAGES = 3, 1000
SHOWN = ("winnow/links_skipped/", "winnow/links_already_queued",
         "winnow/gate/", "winnow/meta_refresh", "winnow/skipped/", "winnow/render",
         "winnow/pages", "winnow/robots/", "finish_reason", "elapsed_time_seconds")
_REFRESH_URL = re.compile(r"url\s*=\s*['\"]?([^'\"]+)", re.IGNORECASE)


def obtain_site(cache: Path) -> tuple[Path, str]:
    """The served root (the docs under ``docs/stable``) and the package version; downloads the package once."""
    stable = cache / "www" / MOUNT.strip("/")
    try:
        deb = debian_package(PACKAGE, cache)
    except DebianDataError as exc:
        sys.exit(str(exc))
    if not (stable / "index.html").is_file():
        with unpacked(deb, cache) as tmp:
            shutil.rmtree(stable, ignore_errors=True)
            stable.parent.mkdir(parents=True, exist_ok=True)
            (tmp / HTML_IN_DEB).rename(stable)
    return cache / "www", deb.name.split("_")[1]


def norm(url: str) -> str:
    p = urlsplit(url)
    return urlunsplit((p.scheme.lower(), p.netloc.lower(), p.path or "/", p.query, ""))


class Site:
    """The site as files: which URL is which file, its links, and what is reachable from the root (0-1 BFS)."""

    def __init__(self, www: Path, base: str) -> None:
        self.www, self.base, self.seed = www, base, base + "/"
        self.depth: dict[str, int] = {self.seed: 0}
        self.links: dict[str, set[str]] = {}  # page -> onsite links it lets a crawler follow
        self.downloads: dict[str, set[str]] = {}  # page -> its <a download> targets
        self.other: set[str] = set()  # followable onsite targets that are no HTML page (.txt, .png, 404s)
        queue = deque([self.seed])
        while queue:
            url = queue.popleft()
            follow, refresh = self.parse(url)
            self.links[url] = follow
            steps = [(t, self.depth[url]) for t in refresh] + [(t, self.depth[url] + 1) for t in follow]
            for target, d in steps:
                if target in self.depth or target in self.other:
                    continue
                if (f := self.file(target)) is None or f.suffix != ".html":
                    self.other.add(target)
                else:
                    self.depth[target] = d
                    queue.appendleft(target) if d == self.depth[url] else queue.append(target)

    def file(self, url: str) -> Path | None:
        p = urlsplit(url)
        if f"{p.scheme}://{p.netloc}" != self.base or not (p.path.startswith(MOUNT) or p.path in ("/", "/index.html")):
            return None
        path = self.www / unquote(p.path.lstrip("/"))
        path = path / "index.html" if path.is_dir() else path
        return path if path.is_file() or p.path in ("/", "/index.html") else None

    def body(self, url: str) -> bytes:
        return REFRESH.encode() if urlsplit(url).path in ("/", "/index.html") else self.file(url).read_bytes()

    def parse(self, url: str) -> tuple[set[str], list[str]]:
        doc = lxml.html.fromstring(self.body(url))
        base = urljoin(url, (doc.xpath("//base/@href") or [url])[0])
        follow: set[str] = set()
        downloads = self.downloads.setdefault(url, set())
        for a in doc.xpath("//a[@href] | //area[@href]"):
            target = norm(urljoin(base, a.get("href").strip()))
            if not target.startswith(self.base + "/"):
                continue  # offsite, mailto:, javascript:
            if a.get("download") is not None:
                downloads.add(target)
            elif "nofollow" not in (a.get("rel") or "").lower().split():
                follow.add(target)
        refresh = [norm(urljoin(url, m.group(1).strip())) for c in doc.xpath(
            "//meta[translate(@http-equiv,'REFSH','refsh')='refresh']/@content") if (m := _REFRESH_URL.search(c))]
        return follow, refresh


def read_crawl(out: Path) -> dict[str, Any]:
    responses: Counter[str] = Counter()
    bodies: dict[str, tuple[str, bytes]] = {}  # page -> (its URL, the HTML its links were taken from)
    depth: dict[str, int] = {}
    refresh: dict[str, str] = {}
    rendered: set[str] = set()
    for warc in sorted(out.rglob("*.warc.gz")):
        with warc.open("rb") as fh:
            for rec in ArchiveIterator(fh):
                uri = norm(rec.rec_headers.get_header("WARC-Target-URI") or "")
                if rec.rec_type == "response":
                    responses[uri] += 1
                    if uri not in rendered:
                        bodies[uri] = (rec.rec_headers.get_header("WARC-Target-URI"), rec.content_stream().read())
                elif rec.rec_type == "conversion":
                    rendered.add(uri)  # the crawler took this page's links from the rendered DOM
                    bodies[uri] = (rec.rec_headers.get_header("WARC-Target-URI"), rec.content_stream().read())
                elif rec.rec_type == "metadata":
                    fields = dict(line.split(": ", 1) for line in rec.content_stream().read().decode().splitlines()
                                  if ": " in line)
                    depth[uri] = int(fields.get("winnow-depth", -1))
                    if "winnow-meta-refresh" in fields:
                        refresh[uri] = fields["winnow-meta-refresh"]
    journal = [json.loads(line) for line in (out / ".crawl" / "journal.jsonl").read_text().splitlines() if line]
    stats = json.loads((out / "crawl-stats.json").read_text())
    return {"responses": responses, "bodies": bodies, "depth": depth, "refresh": refresh, "stats": stats,
            "rendered": rendered,
            "queued": [e["u"] for e in journal if e["e"] == "q"],
            "outcomes": Counter(e["o"] for e in journal if e["e"] == "f")}


def link_accounting(crawl: dict[str, Any], stats: dict[str, Any]) -> dict[str, int]:
    """The links the crawler saw (Scrapy's LinkExtractor, as the spider runs it, over the archived pages) against
    what its counters and journal say became of them: followed (queued by a link), or counted by why not."""
    from scrapy.http import HtmlResponse
    from scrapy.linkextractors import LinkExtractor

    extractor = LinkExtractor(unique=True, deny_extensions=[])
    nofollow_pages = stats.get("winnow/nofollow_pages", 0)  # links of such pages are not looked at; none here
    links = sum(len(extractor.extract_links(HtmlResponse(url, body=body, encoding="utf-8")))
                for url, body in crawl["bodies"].values()) if not nofollow_pages else -1
    counted = {k: v for k, v in stats.items() if k.startswith(("winnow/links_skipped/", "winnow/gate/"))
               or k == "winnow/links_already_queued"}
    # journal queue events: the seed, meta refresh targets, and one per page queued through a link
    by_links = len(crawl["queued"]) - 1 - stats.get("winnow/meta_refresh", 0)
    return {"links": links, "queued_by_links": by_links, **counted, "accounted": by_links + sum(counted.values())}


def check(site: Site, www: Path, flags: list[str], max_depth: int, keep: Path | None) -> dict[str, Any]:
    out = Path(tempfile.mkdtemp(prefix="docsite-crawl-", dir=keep))
    routes: dict[str, Any] = {"/": Route(body=REFRESH), "/index.html": Route(body=REFRESH)}
    with SiteServer(root=www, routes=routes, port=urlsplit(site.base).port or 0) as server:
        cmd = [str(Path(sys.executable).with_name("winnow")), "crawl", server.url("/"), "--output", str(out),
               "--allow-private", "--no-progress", *flags]
        start = time.monotonic()
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
        wall = time.monotonic() - start
        hits = [(norm(site.base + h.path), h.user_agent) for h in server.hits]
    if proc.returncode:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    crawl = read_crawl(out)
    stats, fetched = crawl["stats"], set(crawl["responses"])
    twice = {u: n for u, n in Counter(u for u, _ in hits).items() if u in site.depth and n > 1}
    targets = set().union(*site.downloads.values())
    missed = sorted(set(site.depth) - fetched)
    at_limit = {u for u, d in crawl["depth"].items() if d >= max_depth}
    capped = stats.get("winnow/gate/max_pages", 0) > 0
    # a miss is explained by depth when a fetched page at the depth limit links to it and none above the limit does
    by_depth = [u for u in missed if stats.get("winnow/links_skipped/depth", 0) > 0
                and any(u in site.links.get(p, ()) for p in at_limit)
                and not any(u in site.links.get(p, ()) for p in fetched - at_limit)]
    files: dict[Path, set[str]] = {}
    for url in fetched:
        if (f := site.file(url)) is not None:
            files.setdefault(f.resolve(), set()).add(url)
    account = link_accounting(crawl, stats)
    r: dict[str, Any] = {
        "link_accounting": account,
        "reachable_pages": len(site.depth), "pages_fetched": len(fetched),
        "reachable_fetched": len(set(site.depth) & fetched), "reachable_not_fetched": len(missed),
        "missed_explained_by_depth": len(by_depth),
        "missed_explained_by_max_pages": len(missed) - len(by_depth) if capped else 0,
        "missed_unexplained": [u for u in missed if u not in by_depth and not capped],
        "fetched_more_than_once": {u: n for u, n in crawl["responses"].items() if n > 1},
        "server_page_hits_more_than_once": twice,
        "user_agents_of_those_hits": dict(Counter(ua for u, ua in hits if u in twice)),
        "rendered_pages": sorted(crawl["rendered"]), "rendered_and_hit_twice": len(set(twice) & crawl["rendered"]),
        "download_targets": len(targets),
        "download_targets_requested": sorted(targets & ({u for u, _ in hits} | set(map(norm, crawl["queued"])))),
        "download_links_on_fetched_pages": sum(len(site.downloads.get(u, ())) for u in fetched),
        "recorded_deeper_than_shortest_path": sorted(u for u, d in crawl["depth"].items() if d > site.depth.get(u, d)),
        "same_file_under_two_urls": sorted(sorted(us) for us in files.values() if len(us) > 1),
        "root_meta_refresh_in_warc": crawl["refresh"].get(site.seed),
        "journal_outcomes": dict(crawl["outcomes"]),
        "counters": {k: v for k, v in sorted(stats.items()) if k.startswith(SHOWN)},
    }
    r["checks"] = {
        "root page in WARC with its meta refresh": site.seed in fetched and bool(r["root_meta_refresh_in_warc"]),
        "every reachable page fetched, or a miss explained": not r["missed_unexplained"],
        "no page fetched twice (WARC response records)": not r["fetched_more_than_once"],
        "no page requested twice (site server log)": not twice,
        "no download target requested": not r["download_targets_requested"],
        "links_skipped/download = download links on fetched pages":
            stats.get("winnow/links_skipped/download", 0) == r["download_links_on_fetched_pages"],
        "every link on a fetched page followed or counted": account["links"] == account["accounted"],
    }
    return {"command": " ".join(cmd), "wall_s": round(wall, 1), "output": str(out), **r}


def show(name: str, r: dict[str, Any]) -> None:
    print(f"\n== {name}: {r['command']}\n   {r['wall_s']} s, output in {r['output']}")
    for key, value in r.items():
        if isinstance(value, list | dict) and key not in ("counters", "checks", "journal_outcomes"):
            print(f"  {key:<42} {len(value):>6}  {json.dumps(value)[:240] if value else ''}")
        elif key not in ("command", "wall_s", "output", "counters", "checks"):
            print(f"  {key:<42} {value if isinstance(value, str | dict) else f'{value:>6}'}")
    for key, value in r["counters"].items():
        print(f"  {key:<42} {value}")
    for label, ok in r["checks"].items():
        print(f"  [{'PASS' if ok else 'FAIL'}] {label}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "winnow-bench" / "docsite")
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--keep", type=Path, help="put the crawl outputs here (default: a temp folder)")
    parser.add_argument("--defaults-only", action="store_true", help="no second crawl with raised limits")
    args = parser.parse_args(argv)
    www, version = obtain_site(args.cache)
    with SiteServer() as probe:  # a free port, so the site's URLs are known before the crawls
        port = probe.port
    site = Site(www, f"http://127.0.0.1:{port}")
    html = sum(1 for _ in (www / MOUNT.strip("/")).rglob("*.html"))
    deepest = max(site.depth.values())
    targets = len(set().union(*site.downloads.values()))
    print(f"{PACKAGE} {version}: {html} HTML files, {len(site.depth)} pages reachable from / (ours included), "
          f"deepest {deepest}, {targets} download targets, {len(site.other)} other link targets")
    runs = {"defaults": check(site, www, [], DEFAULT_DEPTH, args.keep)}
    if not args.defaults_only and (deepest > DEFAULT_DEPTH or len(site.depth) > DEFAULT_PAGES):
        print(f"the defaults cut the site (deepest page at depth {deepest}): crawling again with limits raised")
        pages = max(DEFAULT_PAGES, 2 * len(site.depth))
        runs["raised"] = check(site, www, ["--max-depth", str(deepest), "--max-pages", str(pages)], deepest, args.keep)
    for name, r in runs.items():
        show(name, r)
    ok = all(all(r["checks"].values()) for r in runs.values())
    if args.json:
        args.json.write_text(json.dumps({"package": PACKAGE, "version": version, "html_files": html,
                                         "reachable": len(site.depth), "deepest": deepest, "runs": runs,
                                         "ok": ok}, indent=2, default=str) + "\n")
    print("\nALL CHECKS PASS" if ok else "\nSOME CHECKS FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
