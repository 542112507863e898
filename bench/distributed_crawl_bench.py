"""``winnow crawl --workers 2`` against one plain ``winnow crawl``: pages/s on the same multi-host site (issue 16).

``--hosts`` sites, each on its own loopback address (127.0.0.2, .3, ...: Scrapy's download slots are per host
name, so two ports of one address would be one host), each an index page linking ``--pages-per-host`` pages. Both
crawls use the same settings: 1 request per host at a time, ``DOWNLOAD_DELAY=--delay`` (with Scrapy's default
0.5-1.5x jitter), no AutoThrottle, 16 concurrent requests in all. Each round crawls the site once each way, the
order alternating between rounds, into fresh folders; the servers' hit logs are reset between crawls.

Reported per crawl: pages (from crawl-stats.json), the wall time of the whole command (for --workers: starting
Ray and the actors included) and the crawl window (first to last page request in the servers' logs), pages/s over
each, and the ratio of --workers 2 to the plain crawl. Every page must be fetched exactly once by either.

What to expect: a plain crawl already fetches from all hosts at once (one download slot each), so when the
per-host delay is the bottleneck (hosts / delay well under what one process can parse and write) two processes
cannot fetch faster: the hosts' delays do not shrink. Two workers pay off where one crawl process is CPU-bound:
many hosts, or short delays, with a spare core. Run both: ``--delay 0.3`` (delay-bound) and ``--delay 0.001``
(latency- or CPU-bound, with ``--hosts 16``).

Measured (2026-12, 2 cores shared with the site server and other jobs; two rounds, medians; pages/s over the crawl
window, then over the whole command): 8 hosts x 60 pages at 0.3 s: 21.0 plain, 20.8 with 2 workers (0.99x; 0.76x
whole command, Ray's start included); 8 x 600 at 1 ms: 169 vs 173 (1.02x; 0.82x); 16 x 300 at 1 ms: 268 vs 332
(1.25x; 0.78x); 16 x 1,000 at 1 ms: 256 vs 333 (1.28x; 1.11x). 48 hosts x 60 pages at 0.5 s, two rounds, with a
third crawl each round, one process at CONCURRENT_REQUESTS=32 (``--also-plain-at 32``): 70 plain, 72 with 2 workers
(1.03x; 0.78x whole command), 71 for one process at 32 (1.02x): the one process was not short of request slots
either; all three crawls took about 41 s for a floor of 61 pages x 0.5 s = 30.5 s per host.

Usage: ``.venv/bin/python bench/distributed_crawl_bench.py [--hosts 8] [--pages-per-host 60] [--delay 0.3]
[--rounds 1] [--concurrency 16] [--also-plain-at N] [--json FILE]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from crawler.site_server import Route, SiteServer  # noqa: E402

WINNOW = str(Path(sys.executable).parent / "winnow")
ROBOTS = Route(body="User-agent: *\nAllow: /\n", content_type="text/plain")


def page(title: str, links: list[str] = ()) -> str:
    text = " ".join(f"{title} is a page about rivers and bread, sentence {i}." for i in range(20))
    anchors = "".join(f'<a href="{href}">{href}</a> ' for href in links)
    return f"<html><head><title>{title}</title></head><body><p>{text}</p>{anchors}</body></html>"


def site(name: str, pages: int) -> dict[str, Route]:
    routes = {"/robots.txt": ROBOTS, "/": Route(body=page(f"{name} index", [f"/p{i}.html" for i in range(pages)]))}
    routes.update({f"/p{i}.html": Route(body=page(f"{name} page {i}")) for i in range(pages)})
    return routes


def settings(delay: float, concurrency: int) -> list[str]:
    out = []
    for item in (f"CONCURRENT_REQUESTS={concurrency}", "CONCURRENT_REQUESTS_PER_DOMAIN=1", f"DOWNLOAD_DELAY={delay}",
                 "AUTOTHROTTLE_ENABLED=False", "LOG_LEVEL=WARNING"):
        out += ["-s", item]
    return out


def crawl_once(servers: list[SiteServer], out: Path, workers: int, delay: float, pages_per_host: int,
               concurrency: int) -> dict:
    for server in servers:
        server.hits.clear()
    cmd = [WINNOW, "crawl", *[s.url("/") for s in servers], "--output", str(out), "--allow-private", "--render",
           "never", "--max-pages", "1000000", "--max-depth", "2", "--no-progress", *settings(delay, concurrency)]
    if workers:
        cmd += ["--workers", str(workers)]
    start = time.monotonic()
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    wall = time.monotonic() - start
    if result.returncode != 0:
        raise SystemExit(f"crawl failed ({result.returncode}): {result.stderr[-3000:]}")
    stats = json.loads((out / "crawl-stats.json").read_text())
    hits = [(s.base, h) for s in servers for h in s.hits if h.path == "/" or h.path.startswith("/p")]  # pages only
    times = [h.time for _, h in hits]
    per_path = Counter((base, h.path) for base, h in hits)
    expected = len(servers) * (pages_per_host + 1)  # and each index
    assert len(per_path) == expected and max(per_path.values()) == 1, "every page once"
    pages = stats["winnow/pages"]
    window = max(times) - min(times)
    return {"workers": workers or 1, "concurrency": concurrency, "pages": pages, "wall_s": round(wall, 2),
            "crawl_window_s": round(window, 2),
            "pages_per_s_wall": round(pages / wall, 2), "pages_per_s_window": round(pages / window, 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hosts", type=int, default=8)
    parser.add_argument("--pages-per-host", type=int, default=60)
    parser.add_argument("--delay", type=float, default=0.3, help="DOWNLOAD_DELAY in seconds (default 0.3)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=16,
                        help="CONCURRENT_REQUESTS of each crawl process (default 16, Scrapy's and winnow's)")
    parser.add_argument("--also-plain-at", type=int, metavar="N",
                        help="also crawl with one process at CONCURRENT_REQUESTS=N each round (e.g. 2 x --concurrency)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    servers = [SiteServer(host=f"127.0.0.{2 + i}") for i in range(args.hosts)]
    for server in servers:
        server.routes = site(server.base, args.pages_per_host)
        server.start()
    runs = []
    try:
        with tempfile.TemporaryDirectory(prefix="dist-bench-") as tmp:
            for rnd in range(args.rounds):
                order = [(0, args.concurrency), (2, args.concurrency)]
                if args.also_plain_at:
                    order.append((0, args.also_plain_at))
                if rnd % 2:
                    order.reverse()
                for workers, concurrency in order:
                    run = crawl_once(servers, Path(tmp) / f"r{rnd}-w{workers}-c{concurrency}", workers, args.delay,
                                     args.pages_per_host, concurrency)
                    run["round"] = rnd
                    runs.append(run)
                    print(json.dumps(run), flush=True)
    finally:
        for server in servers:
            server.stop()

    def median(key: str, workers: int, concurrency: int) -> float:
        values = sorted(r[key] for r in runs if r["workers"] == workers and r["concurrency"] == concurrency)
        return values[len(values) // 2]

    summary = {"hosts": args.hosts, "pages_per_host": args.pages_per_host, "delay_s": args.delay,
               "concurrency": args.concurrency, "rounds": args.rounds, "runs": runs}
    for key in ("pages_per_s_wall", "pages_per_s_window"):
        plain = median(key, 1, args.concurrency)
        summary[f"{key}_ratio_workers2_vs_1"] = round(median(key, 2, args.concurrency) / plain, 3)
        if args.also_plain_at:
            summary[f"{key}_ratio_plain_at_{args.also_plain_at}_vs_1"] = round(
                median(key, 1, args.also_plain_at) / plain, 3)
    print(json.dumps({k: v for k, v in summary.items() if k != "runs"}, indent=2))
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
