"""Crawl throughput: `winnow crawl` with every policy feature on vs a bare Scrapy spider, same run.

A generated site of N pages (default 5,000; varied English text from a fixed vocabulary, five links
per page, a robots.txt with groups for the bot and its training token, a tdmrep.json) is served
by crawler/site_server.py in its own process on 127.0.0.1. Both crawlers use the same Scrapy
concurrency settings (16 requests, 8 per host, a 1 ms delay (with 0 Scrapy 2.19 ignores the
per-host limit on the asyncio reactor), no AutoThrottle: the point is the
crawler's own cost, not politeness pauses), and both follow every link to the whole site.

winnow runs with robots.txt (RFC 9309 middleware), the address guard (the loopback network
allowed explicitly, so every request is still checked), TDMRep, the per-page verdict, the
frontier (priorities, trap guards, topic clustering), the journal and WARC output. The bare
spider extracts and follows links and keeps nothing.

Reported: pages/s (pages fetched / wall time of the crawl process), CPU seconds and peak RSS of the crawl
process tree (sampled every 50 ms). With ``--rounds R`` the two crawlers alternate R times (bare first) and
the medians are reported with each round's ratio: on a shared 2-core machine one round's ratio moves by
±0.1 with whatever else runs. Usage: ``.venv/bin/python bench/crawl_bench.py [--pages N] [--rounds R]``.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[1]
PY = sys.executable
WINNOW = str(Path(PY).parent / "winnow")
SETTINGS = [
    "CONCURRENT_REQUESTS=16",
    "CONCURRENT_REQUESTS_PER_DOMAIN=8",
    "DOWNLOAD_DELAY=0.001",
    "AUTOTHROTTLE_ENABLED=False",
    "LOG_LEVEL=WARNING",
]
WORDS = [
    "river",
    "bread",
    "town",
    "mill",
    "garden",
    "star",
    "bicycle",
    "market",
    "harvest",
    "museum",
    "winter",
    "water",
    "stone",
    "bridge",
    "school",
    "kitchen",
    "orchard",
    "telescope",
    "chain",
    "wheel",
    "flour",
    "salt",
    "yeast",
    "oven",
    "apple",
    "pear",
    "moon",
    "planet",
    "valley",
    "history",
    "festival",
    "library",
    "ferry",
    "harbour",
    "boat",
    "weather",
    "rain",
    "snow",
    "summer",
    "field",
    "road",
]

BARE_SPIDER = textwrap.dedent("""
    import sys
    import scrapy
    from scrapy.crawler import CrawlerProcess
    from scrapy.linkextractors import LinkExtractor

    class Bare(scrapy.Spider):
        name = "bare"
        links = LinkExtractor()

        async def start(self):
            yield scrapy.Request(sys.argv[1])

        def parse(self, response):
            for link in self.links.extract_links(response):
                yield scrapy.Request(link.url)

    settings = dict(kv.split("=", 1) for kv in sys.argv[2:])
    settings.update({"TELNETCONSOLE_ENABLED": False, "ROBOTSTXT_OBEY": False,
                     "TWISTED_REACTOR": "twisted.internet.asyncioreactor.AsyncioSelectorReactor"})
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(Bare)
    process.crawl(crawler)
    process.start()
    print(crawler.stats.get_value("response_received_count", 0))
""")


def build_site(root: Path, n: int) -> None:
    rng = random.Random(7)
    root.mkdir(parents=True)
    (root / "robots.txt").write_text(
        "User-agent: winnowbot\nAllow: /\n\nUser-agent: winnowbot-Extended\nDisallow: /p1/\n\nUser-agent: *\nAllow: /\n"
    )
    (root / ".well-known").mkdir()
    (root / ".well-known" / "tdmrep.json").write_text(json.dumps([{"location": "/p2/*", "tdm-reservation": 1}]))
    for i in range(n):
        folder = root / f"p{i % 10}"
        folder.mkdir(exist_ok=True)
        links = "".join(
            f'<a href="/p{j % 10}/{j}.html">page {j}</a> '
            for j in sorted({(i * 7 + k * 13 + 1) % n for k in range(5)} | {(i + 1) % n})
        )
        paras = "".join("<p>" + " ".join(rng.choice(WORDS) for _ in range(60)) + ".</p>" for _ in range(5))
        (folder / f"{i}.html").write_text(
            f"<!doctype html><html lang=en><head><title>Page {i}</title></head><body><nav>{links}</nav>"
            f"<article><h1>Page {i}</h1>{paras}</article></body></html>"
        )


def measure(cmd: list[str], log: Path) -> dict:
    start = time.perf_counter()
    # Output goes to files: a full pipe would stall the crawler and the measurement with it.
    out_fh, err_fh = log.with_suffix(".out").open("wb"), log.with_suffix(".err").open("wb")
    proc = psutil.Popen(cmd, stdout=out_fh, stderr=err_fh)
    peak = 0
    cpu: dict[int, float] = {}  # pid -> last CPU seconds seen (a process's last 50 ms may be missed)
    while proc.poll() is None:
        try:
            procs = [proc, *proc.children(recursive=True)]
            peak = max(peak, sum(p.memory_info().rss for p in procs if p.is_running()))
            for p in procs:
                times = p.cpu_times()
                cpu[p.pid] = times.user + times.system
        except psutil.Error:
            pass
        time.sleep(0.05)
    seconds = round(time.perf_counter() - start, 2)
    out_fh.close()
    err_fh.close()
    if proc.returncode != 0:
        raise RuntimeError(f"{cmd[:3]} failed: {log.with_suffix('.err').read_text()[-3000:]}")
    return {"seconds": seconds, "cpu_s": round(sum(cpu.values()), 2), "peak_rss_mb": round(peak / 2**20),
            "stdout": log.with_suffix(".out").read_text()}


def run_bare(work: Path, seed: str, tag: str) -> dict:
    bare = measure([PY, str(work / "bare.py"), seed, *SETTINGS], work / f"bare-{tag}")
    pages = int(bare.pop("stdout").strip().splitlines()[-1])
    return {**bare, "pages": pages}


def run_winnow(work: Path, seed: str, pages: int, tag: str) -> dict:
    out = work / f"crawl-{tag}"
    cmd = [WINNOW, "crawl", seed, "--output", str(out), "--contact-url", "http://127.0.0.1/bench",
           "--max-pages", str(pages + 10), "--max-depth", "1000", "--no-progress",
           "-s", "WINNOW_ALLOWED_NETWORKS=127.0.0.1/32"]
    for kv in SETTINGS:
        cmd += ["-s", kv]
    winnow = measure(cmd, work / f"winnow-{tag}")
    winnow.pop("stdout")
    stats = json.loads((out / "crawl-stats.json").read_text())
    result = {**winnow, "pages": stats.get("winnow/pages", 0),
              "training_denied": stats.get("winnow/verdict/training_denied", 0),
              "warc_mb": round(sum(p.stat().st_size for p in out.glob("*.warc.gz")) / 2**20, 1)}
    shutil.rmtree(out, ignore_errors=True)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=1, help="alternating rounds; medians reported (default 1)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="winnow-crawl-bench-"))
    server = None
    try:
        build_site(work / "site", args.pages)
        server = subprocess.Popen(
            [PY, "-m", "crawler.site_server", "--root", str(work / "site")], stdout=subprocess.PIPE, text=True, cwd=REPO
        )
        base = server.stdout.readline().strip()
        seed = base + "p0/0.html"
        (work / "bare.py").write_text(BARE_SPIDER)
        rounds: list[dict] = []
        for i in range(args.rounds):
            bare, winnow = run_bare(work, seed, str(i)), run_winnow(work, seed, args.pages, str(i))
            for r in (bare, winnow):
                r["pages_per_s"] = round(r["pages"] / r["seconds"], 1)
            rounds.append({"bare_scrapy": bare, "winnow": winnow,
                           "ratio": round(winnow["pages_per_s"] / bare["pages_per_s"], 3)})
            print(f"round {i + 1}: bare {bare['pages_per_s']} pages/s, winnow {winnow['pages_per_s']} pages/s, "
                  f"ratio {rounds[-1]['ratio']}", flush=True)
        results: dict = {"pages": args.pages, "rounds": len(rounds)}
        for system in ("bare_scrapy", "winnow"):
            runs = [r[system] for r in rounds]
            results[system] = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        ratio = results["winnow"]["pages_per_s"] / results["bare_scrapy"]["pages_per_s"]
        results["ratio_winnow_to_bare"] = round(ratio, 3)
        results["ratio_per_round"] = [r["ratio"] for r in rounds]
        print(json.dumps(results, indent=2))
        dest = REPO / "bench" / "results"
        dest.mkdir(exist_ok=True)
        (dest / "crawl_bench.json").write_text(json.dumps(results, indent=2) + "\n")
    finally:
        if server is not None:
            server.terminate()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
