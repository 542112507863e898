"""Rendering throughput and browser memory: `winnow crawl --render always` vs a plain Playwright loop, same run.

The site: N pages (default 500) of varied English text (about 300 words each), each with a stylesheet, an
external script that builds a "related pages" list, and an inline script that adds a paragraph on
DOMContentLoaded, so that every page needs its JavaScript; served by crawler/site_server.py in its own process
on 127.0.0.1 (as in bench/crawl_bench.py).

1. ``loop``: the plain Playwright loop of ../shared/STACK-NOTES.md "Playwright timings", in its own process:
   one Chromium (Debian's, the crawl's launch arguments), and per URL ``new_page``, ``goto`` (waits for
   ``load``), ``content``, ``close``, one URL after the other.
2. ``winnow``: ``winnow crawl -f SEEDS --render always --max-depth 0`` with the crawl's default render settings
   (4 pooled pages; settled after 0.5 s without requests or DOM changes, or 0.1 s when no timer is pending;
   overlay, scroll and click passes; every browser request checked against robots.txt and the address guard;
   images, media and fonts aborted), WARC output included; politeness pauses off as in bench/crawl_bench.py
   (1 ms delay, no AutoThrottle, 8 per host).

With ``--rounds N`` the pair runs N times, alternating which goes first, and the medians are compared (this
machine may be shared; the 1-minute load average at the start of each run is recorded).

Reported per run: pages/s over the wall time of the process (browser start included); pages per CPU second of
the whole process tree (Python, Playwright driver, Chromium: the rate that other people's load moves least); the
peak RSS and PSS of the Chromium process tree (sampled every 0.25 s; RSS counts shared pages once per process,
PSS shares them out); and memory growth after warm-up: the least-squares slope of the tree's RSS against pages
done, from page ``--warmup`` (100) to the end, in MB per 100 pages, and the mean RSS in the first and last fifth
of that span.
For the crawl it also checks the WARC: every page archived with a rendered DOM that holds the script's text.

Targets (issue 4): winnow >= 2x the loop's pages/s; memory flat after warm-up.
Usage: ``.venv/bin/python bench/render_bench.py [--pages 500]``; results in bench/results/render_bench.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[1]
PY = sys.executable
WINNOW = str(Path(PY).parent / "winnow")
sys.path.insert(0, str(REPO))

from crawler import settings as crawl_settings  # noqa: E402
from pipelines.readers import read_input  # noqa: E402

SETTINGS = ["CONCURRENT_REQUESTS=16", "CONCURRENT_REQUESTS_PER_DOMAIN=8", "DOWNLOAD_DELAY=0.001",
            "AUTOTHROTTLE_ENABLED=False", "LOG_LEVEL=WARNING"]
WORDS = ["river", "bread", "town", "mill", "garden", "star", "bicycle", "market", "harvest", "museum", "winter",
         "water", "stone", "bridge", "school", "kitchen", "orchard", "telescope", "chain", "wheel", "flour", "salt",
         "yeast", "oven", "apple", "pear", "moon", "planet", "valley", "history", "festival", "library", "ferry",
         "harbour", "boat", "weather", "rain", "snow", "summer", "field", "road"]
MARKER = "Added by the page's own script"
SAMPLE_EVERY = 0.25

LOOP = textwrap.dedent("""
    import asyncio, json, sys
    from playwright.async_api import async_playwright

    async def main(urls_file, progress_file, launch, marker):
        urls = open(urls_file).read().split()
        async with async_playwright() as p:
            browser = await p.chromium.launch(**json.loads(launch))
            with open(progress_file, "w") as progress:
                for url in urls:
                    page = await browser.new_page()
                    await page.goto(url)
                    html = await page.content()
                    await page.close()
                    progress.write(f"{int(marker in html)}\\n")
                    progress.flush()
            await browser.close()

    asyncio.run(main(*sys.argv[1:]))
""")

APP_JS = """
document.addEventListener('DOMContentLoaded', () => {
  const list = document.createElement('ul');
  for (const a of Array.from(document.querySelectorAll('nav a')).slice(0, 5)) {
    const li = document.createElement('li'); li.textContent = 'Related: ' + a.textContent; list.appendChild(li);
  }
  document.querySelector('article').appendChild(list);
});
"""


def build_site(root: Path, n: int) -> list[str]:
    rng = random.Random(11)
    (root / "static").mkdir(parents=True)
    (root / "robots.txt").write_text("User-agent: *\nAllow: /\n")
    (root / "static" / "app.js").write_text(APP_JS)
    (root / "static" / "site.css").write_text("body{font-family:serif;max-width:40em;margin:auto}nav a{margin:0 .3em}")
    paths = []
    for i in range(n):
        links = "".join(f'<a href="/p/{j}.html">page {j}</a>' for j in sorted({(i * 7 + k * 13 + 1) % n for k in
                                                                               range(5)}))
        paras = "".join("<p>" + " ".join(rng.choice(WORDS) for _ in range(60)) + ".</p>" for _ in range(5))
        inline = (f"<script>document.addEventListener('DOMContentLoaded',()=>{{const p=document.createElement('p');"
                  f"p.textContent='{MARKER} on page {i}.';"
                  "document.querySelector('article').appendChild(p);});</script>")
        (root / "p").mkdir(exist_ok=True)
        (root / "p" / f"{i}.html").write_text(
            f"<!doctype html><html lang=en><head><title>Page {i}</title><link rel=stylesheet href=/static/site.css>"
            f"<script src=/static/app.js></script>{inline}</head><body><nav>{links}</nav>"
            f"<article><h1>Page {i}</h1>{paras}</article></body></html>")
        paths.append(f"p/{i}.html")
    return paths


class Sampler(threading.Thread):
    """RSS/PSS of the Chromium processes under ``root`` against pages done, every SAMPLE_EVERY seconds."""

    def __init__(self, root: psutil.Process, pages_done: callable) -> None:
        super().__init__(daemon=True)
        self.root = root
        self.pages_done = pages_done
        self.samples: list[tuple[float, int, float, float]] = []  # (t, pages, rss MB, pss MB)
        self.cpu: dict[int, float] = {}  # pid -> last seen user+system seconds, whole process tree
        self.stop = threading.Event()

    def run(self) -> None:
        start = time.perf_counter()
        while not self.stop.is_set():
            rss = pss = 0
            try:
                for p in [self.root, *self.root.children(recursive=True)]:
                    try:
                        times = p.cpu_times()
                        self.cpu[p.pid] = times.user + times.system
                        if "chrom" in p.name():
                            info = p.memory_full_info()
                            rss, pss = rss + info.rss, pss + info.pss
                    except psutil.Error:
                        pass
            except psutil.Error:
                pass
            if rss:
                self.samples.append((time.perf_counter() - start, self.pages_done(), rss / 2**20, pss / 2**20))
            self.stop.wait(SAMPLE_EVERY)


def memory_report(samples: list[tuple[float, int, float, float]], warmup: int) -> dict:
    if not samples:
        return {}
    after = [s for s in samples if s[1] >= warmup]
    report = {"peak_rss_mb": round(max(s[2] for s in samples)), "peak_pss_mb": round(max(s[3] for s in samples)),
              "samples": len(samples)}
    if len(after) >= 10 and after[-1][1] > after[0][1]:
        xs, ys = [s[1] for s in after], [s[2] for s in after]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)
        fifth = max(1, len(after) // 5)
        report.update({
            "rss_slope_mb_per_100_pages": round(slope * 100, 1),
            "rss_mean_first_fifth_mb": round(sum(ys[:fifth]) / fifth),
            "rss_mean_last_fifth_mb": round(sum(ys[-fifth:]) / fifth),
        })
    return report


def run(cmd: list[str], log: Path, pages_done: callable, warmup: int) -> dict:
    start = time.perf_counter()
    with log.with_suffix(".out").open("wb") as out, log.with_suffix(".err").open("wb") as err:
        proc = psutil.Popen(cmd, stdout=out, stderr=err, cwd=REPO)
        sampler = Sampler(proc, pages_done)
        sampler.start()
        proc.wait()
        sampler.stop.set()
        sampler.join()
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{cmd[:3]} failed: {log.with_suffix('.err').read_text()[-3000:]}")
    # CPU of the whole tree (Python, Playwright driver, Chromium), as last sampled: on a shared machine wall-clock
    # rates move with other people's load, CPU seconds per page much less.
    return {"seconds": round(seconds, 2), "cpu_seconds": round(sum(sampler.cpu.values()), 1),
            **memory_report(sampler.samples, warmup)}


def count_lines(path: Path, needle: str = "") -> int:
    try:
        return sum(1 for line in path.read_text().splitlines() if needle in line)
    except OSError:
        return 0


def run_loop(work: Path, seeds: Path, launch: dict, args: argparse.Namespace) -> dict:
    work.mkdir(parents=True, exist_ok=True)
    progress = work / "loop-progress.txt"
    load = os.getloadavg()[0]
    loop = run([PY, str(work.parent / "loop.py"), str(seeds), str(progress), json.dumps(launch), MARKER],
               work / "loop", lambda: count_lines(progress), args.warmup)
    loop.update({"pages_done": count_lines(progress), "script_text_found": count_lines(progress, "1"),
                 "load_avg_1min_at_start": round(load, 1)})
    loop["pages_per_s"] = round(loop["pages_done"] / loop["seconds"], 2)
    loop["pages_per_cpu_s"] = round(loop["pages_done"] / loop["cpu_seconds"], 2)
    return loop


def run_winnow(work: Path, seeds: Path, launch: dict, args: argparse.Namespace) -> dict:
    work.mkdir(parents=True, exist_ok=True)
    out = work / "crawl"
    journal = out / ".crawl" / "journal.jsonl"
    cmd = [WINNOW, "crawl", "-f", str(seeds), "--output", str(out), "--contact-url", "http://127.0.0.1/bench",
           "--max-pages", str(args.pages + 10), "--max-depth", "0", "--no-progress",
           "-s", "WINNOW_ALLOWED_NETWORKS=127.0.0.1/32", "-s", "WINNOW_RENDER=always"]
    for kv in SETTINGS:
        cmd += ["-s", kv]
    load = os.getloadavg()[0]
    winnow = run(cmd, work / "winnow", lambda: count_lines(journal, '"o":"page"'), args.warmup)
    stats = json.loads((out / "crawl-stats.json").read_text())
    rows = [r for w in sorted(out.glob("*.warc.gz")) for t in read_input(str(w)) for r in t.to_pylist()]
    winnow.update({
        "pages_done": stats.get("winnow/pages", 0),
        "rendered_records": sum(1 for r in rows if r["rendered"]),
        "script_text_found": sum(1 for r in rows if r["rendered"] and MARKER in (r["html"] or "")),
        "settled": stats.get("winnow/render/settled", 0),
        "aborted_requests": stats.get("winnow/render/aborted", 0),
        "contexts_recycled": stats.get("winnow/render/contexts_recycled", 0),
        "render_errors": {k: v for k, v in stats.items() if k.startswith("winnow/render/errors/")},
        "load_avg_1min_at_start": round(load, 1),
    })
    winnow["pages_per_s"] = round(winnow["pages_done"] / winnow["seconds"], 2)
    winnow["pages_per_cpu_s"] = round(winnow["pages_done"] / winnow["cpu_seconds"], 2)
    return winnow


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--warmup", type=int, default=100, help="pages before memory growth is measured")
    parser.add_argument("--rounds", type=int, default=1, help="loop/winnow pairs, order alternating (default 1)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (site, WARCs, logs)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="winnow-render-bench-"))
    server = None
    try:
        paths = build_site(work / "site", args.pages)
        server = subprocess.Popen([PY, "-m", "crawler.site_server", "--root", str(work / "site")],
                                  stdout=subprocess.PIPE, text=True, cwd=REPO)
        base = server.stdout.readline().strip()
        seeds = work / "seeds.txt"
        seeds.write_text("".join(base + p + "\n" for p in paths))
        launch = {"executable_path": crawl_settings.WINNOW_CHROMIUM,
                  "args": [*crawl_settings.WINNOW_CHROMIUM_ARGS,
                           f"--js-flags=--max-old-space-size={crawl_settings.WINNOW_RENDER_JS_HEAP_MB}"]}
        results: dict = {"pages": args.pages, "cpus": psutil.cpu_count(), "launch": launch, "rounds": []}
        (work / "loop.py").write_text(LOOP)
        for round_no in range(args.rounds):
            # Alternate the order: this machine may be shared, and load drifts over minutes.
            order = ("loop", "winnow") if round_no % 2 == 0 else ("winnow", "loop")
            runs = {name: (run_loop if name == "loop" else run_winnow)(work / f"r{round_no}", seeds, launch, args)
                    for name in order}
            runs["speedup_winnow_vs_loop"] = round(runs["winnow"]["pages_per_s"] / runs["loop"]["pages_per_s"], 2)
            results["rounds"].append(runs)
            print(json.dumps(runs), file=sys.stderr, flush=True)  # a round's figures survive a later failure
        for name in ("loop", "winnow"):
            for key in ("pages_per_s", "pages_per_cpu_s"):
                results[f"{name}_{key}_median"] = statistics.median(r[name][key] for r in results["rounds"])
        results["speedup_winnow_vs_loop"] = round(results["winnow_pages_per_s_median"]
                                                  / results["loop_pages_per_s_median"], 2)
        results["cpu_efficiency_winnow_vs_loop"] = round(results["winnow_pages_per_cpu_s_median"]
                                                         / results["loop_pages_per_cpu_s_median"], 2)
        print(json.dumps(results, indent=2))
        dest = REPO / "bench" / "results"
        dest.mkdir(exist_ok=True)
        (dest / "render_bench.json").write_text(json.dumps(results, indent=2) + "\n")
    finally:
        if server is not None:
            server.terminate()
        if args.keep:
            print(f"work folder: {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
