"""Politeness under 429: does a host that keeps answering 429 slow down the crawl of a healthy host? (issue 15)

Two sites on loopback, each on its own address (Scrapy's download slots are per host name, so two ports of one
address would share a slot): a healthy one of ``--pages`` pages linked from its index, and a busy one whose
``--busy-pages`` pages all answer ``429`` with ``Retry-After: 2``. ``winnow crawl`` runs twice, in the same session:
the healthy site alone, then both sites together. Reported: the healthy site's pages/s in each run (its pages over
the time from its first to its last page request, from the server's own log), their ratio (1.0: unaffected), and
how the busy site was treated (requests per page, shortest gap between two of its requests: the Retry-After it
asked for should be waited out; the politeness counters: after ``WINNOW_HOST_ERROR_BUDGET`` (10) requests given up
in a row the host is parked and its other pages are skipped, counted).

Both runs use the same settings: 8 concurrent requests, 1 per host, a 1 ms delay, no AutoThrottle (the point is
the pause handling, not the base politeness), at most 2 retries of a 429.

Usage: ``.venv/bin/python bench/politeness_bench.py [--pages 300] [--busy-pages 40]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from crawler.site_server import Route, SiteServer  # noqa: E402

WINNOW = str(Path(sys.executable).parent / "winnow")
ROBOTS = Route(body="User-agent: *\nAllow: /\n", content_type="text/plain")
SETTINGS = ["CONCURRENT_REQUESTS=8", "CONCURRENT_REQUESTS_PER_DOMAIN=1", "DOWNLOAD_DELAY=0.001",
            "AUTOTHROTTLE_ENABLED=False", "WINNOW_RETRY_TIMES=2",
            "WINNOW_ALLOWED_NETWORKS=127.0.0.1/32,127.0.0.2/32"]


def page(title: str, links: list[str] = ()) -> str:
    text = " ".join(f"{title} is a page about rivers and bread, sentence {i}." for i in range(20))
    anchors = "".join(f'<a href="{href}">{href}</a> ' for href in links)
    return f"<html><head><title>{title}</title></head><body><p>{text}</p>{anchors}</body></html>"


def healthy_site(n: int) -> dict[str, Route]:
    routes = {"/robots.txt": ROBOTS, "/": Route(body=page("Index", [f"/p{i}.html" for i in range(n)]))}
    routes.update({f"/p{i}.html": Route(body=page(f"Page {i}")) for i in range(n)})
    return routes


def busy_site(n: int) -> dict[str, Route]:
    routes = {"/robots.txt": ROBOTS, "/": Route(body=page("Busy", [f"/b{i}.html" for i in range(n)]))}
    busy = Route(status=429, body="slow down", headers={"Retry-After": "2"})
    routes.update({f"/b{i}.html": busy for i in range(n)})
    return routes


def crawl(seeds: list[str], out: Path, max_pages: int) -> None:
    cmd = [WINNOW, "crawl", *seeds, "--output", str(out), "--no-progress", "--render", "never",
           "--max-pages", str(max_pages), "--max-depth", "2"]
    for setting in SETTINGS:
        cmd += ["-s", setting]
    subprocess.run(cmd, check=True, capture_output=True, timeout=1800)


def pages_per_s(site: SiteServer, prefix: str) -> tuple[int, float]:
    times = sorted(hit.time for hit in site.hits if hit.path.startswith(prefix))
    span = times[-1] - times[0] if len(times) > 1 else float("nan")
    return len(times), (len(times) - 1) / span if span else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--busy-pages", type=int, default=40)
    args = parser.parse_args()
    limit = 2 * (args.pages + args.busy_pages)
    result: dict = {"pages": args.pages, "busy_pages": args.busy_pages, "settings": SETTINGS}
    with tempfile.TemporaryDirectory() as tmp:
        with SiteServer(routes=healthy_site(args.pages), host="127.0.0.2") as healthy:
            crawl([healthy.url("/")], Path(tmp) / "alone", limit)
            result["alone"] = dict(zip(("pages", "pages_per_s"), pages_per_s(healthy, "/p"), strict=True))
        with SiteServer(routes=healthy_site(args.pages), host="127.0.0.2") as healthy, \
                SiteServer(routes=busy_site(args.busy_pages)) as busy:
            crawl([busy.url("/"), healthy.url("/")], Path(tmp) / "both", limit)
            result["beside_429_host"] = dict(zip(("pages", "pages_per_s"), pages_per_s(healthy, "/p"), strict=True))
            tries = Counter(hit.path for hit in busy.hits if hit.path.startswith("/b"))
            busy_hits = [hit.time for hit in busy.hits if hit.path.startswith("/b")]
            gaps = sorted(b - a for a, b in itertools.pairwise(busy_hits))
            stats = json.loads((Path(tmp) / "both" / "crawl-stats.json").read_text())
            result["busy_host"] = {"pages": len(tries), "requests_per_page": dict(Counter(tries.values())),
                                   "shortest_gap_s": round(gaps[0], 3) if gaps else None,
                                   **{k: v for k, v in stats.items() if k.startswith("winnow/politeness/")}}
    result["ratio_healthy_pages_per_s"] = round(result["beside_429_host"]["pages_per_s"]
                                                / result["alone"]["pages_per_s"], 3)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
