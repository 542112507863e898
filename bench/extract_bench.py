"""Extraction benchmark: winnow's extraction (all three outputs) against plain ``trafilatura.extract``.

Two datasets, each in one run, side by side (issue 12):

- ``wcxb``: ../shared/data/wcxb/dev, 1,495 scored pages of seven types (WCXB v1.0, Foley 2026, CC-BY-4.0),
  scored as WCXB's evaluate.py scores (bench/wcxb.py: bag-of-words F1 per page, mean over pages, per page type);
- ``articles``: ../shared/data/extraction_bench, 60 news/blog pages, scored as its README says (4-token shingles,
  precision and recall averaged over pages, F1 from the two means): the regression check of issue 5.

Variants:

- ``plain``: ``trafilatura.extract(html)`` with default settings, the reference;
- ``plain_precision``: ``trafilatura.extract(html, favor_precision=True)`` (winnow's default before issue 12);
- ``winnow``: ``extract.extract_pages`` with the default settings (the block model chooses the text), producing
  the Document, the image-text pairs and the interleaved document of each page, through the deadline worker
  exactly as the pipeline step runs each batch (the worker's one-off start is done before timing);
- ``winnow_full``: the same with ``quick: false``: every page through trafilatura and the full block model, as
  before issue 28 (the before-and-after of the quick model, side by side);
- ``winnow_trafilatura``: the same with ``selector="trafilatura"``: trafilatura's own choice of blocks, rendered
  by winnow (what the model adds, with everything else equal).

The targets (issue 12) are, on WCXB: winnow's F1 >= 0.87 overall and >= plain's in every page type; on the
articles: F1 >= plain; on both: docs/s >= 0.9x plain. The report gives each variant's scores, its speed ratio to
plain and the targets met, with the 1-minute load average before and after (the machine is shared: ratios from
one run are comparable, absolute docs/s less so).

Both get the page bytes (each decodes them its own way). Each round runs every variant over all pages, in an
order that rotates per round, each pass after an untimed warm-up on 5 pages; docs/s are medians over rounds,
speed ratios are taken per round (so a change in machine speed between rounds falls on both sides of a ratio),
then the median. Also per variant: the ratio of the best rounds (timeit's estimator), and the ratio of CPU
time per page (this process plus the extraction worker, user + system), which the hypervisor's steal time on a
shared machine barely moves. Writes bench/results/extract_bench.json (ignored by git).

Where the time goes (cProfile of ``extract.core.extract_raw``, one process, before issue 28's quick model; 300 WCXB
dev pages drawn at random / the 60 articles; shares of the profiled time): trafilatura's ``bare_extraction`` 39% /
27% (its verdict was a feature of every page); segmentation 16% / 15%; the block model's trees 14% / 22% (two
stages of 200 trees, one compiled call per tree: a numpy walk of all trees at once and treelite's GTIL were both
slower on a page's 100-300 rows, measured); block features 11% / 13%; page-type features 5% / 8%; parsing 4% / 6%;
metadata and content images 4% each on WCXB. CPU time per page against plain ``trafilatura.extract`` in the same
process: 0.87x / 0.63x. Hence the quick model (extract/select.py): trafilatura runs only where it is unsure.

After the quick model (cProfile, the first 800 pages of bench/e2e.py's input, 50.7 ms a page under the profiler): the
block model's trees 22% (17% in scikit-learn's walk, one call per tree and page, 5% the second stage's neighbour
features), segmentation 22%, block features 13%, trafilatura 11% (the 73 routed pages), page-type features 8%, content
images 6%, parsing 6%, metadata 6%. Hence the trees as ONNX graphs (pipelines/trees.py): scored by onnxruntime, the two
stages' trees of those pages took 1.65 ms a page against scikit-learn's 6.42, with the same decisions.

Run under the exclusive benchmark lock:
    flock -x /tmp/winnow-bench.lock .venv/bin/python bench/extract_bench.py [--datasets wcxb,articles]
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import os
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import trafilatura  # noqa: E402

from bench import wcxb  # noqa: E402
from bench.cpu import cpu_seconds  # noqa: E402
from extract.page import Extraction, extract_pages  # noqa: E402
from pipelines.step import Drop  # noqa: E402

ARTICLES = ROOT.parent / "shared" / "data" / "extraction_bench"
RESULTS = ROOT / "bench" / "results" / "extract_bench.json"
TIME_LIMIT_S = 20.0
WARM_UP_PAGES = 5
_TOKEN = re.compile(r"\w+")


def shingles(text: str, n: int = 4) -> Counter[tuple[str, ...]]:
    tokens = _TOKEN.findall(text or "")
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def score_articles(predictions: dict[str, str], gold: dict[str, str]) -> dict[str, float]:
    precisions, recalls = [], []
    for pid, gold_text in gold.items():
        g, p = shingles(gold_text), shingles(predictions.get(pid, ""))
        tp = sum((g & p).values())
        fp = sum((p - g).values())
        fn = sum((g - p).values())
        total = tp + fp + fn
        if total == 0:
            precisions.append(1.0)
            recalls.append(1.0)
            continue
        tp, fp, fn = tp / total, fp / total, fn / total
        precisions.append(tp / (tp + fp) if tp + fp else 0.0)
        recalls.append(tp / (tp + fn) if tp + fn else 0.0)
    precision, recall = statistics.fmean(precisions), statistics.fmean(recalls)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    # f1_6: the targets are compared at 6 decimals, since settings can tie at 4 (0.9711 vs 0.9711)
    return {"f1": round(f1, 4), "precision": round(precision, 4), "recall": round(recall, 4), "f1_6": round(f1, 6)}


class Variant:
    """One extraction setting over the page set: ``run_all`` returns the texts and counts into ``stats``."""

    def __init__(self, settings: str, time_limit_s: float | None = None, plain: bool = False, **options: Any) -> None:
        self.settings = settings
        self.plain = plain  # trafilatura.extract(html, **options) instead of winnow's extraction
        self.time_limit_s = time_limit_s
        self.options = options
        self.stats: Counter[str] = Counter()
        self.skipped: Counter[str] = Counter()
        self.page_types: Counter[str] = Counter()

    def run_all(self, pages: dict[str, bytes], urls: dict[str, str], count: bool = True) -> dict[str, str]:
        if self.plain:
            return {pid: trafilatura.extract(html, url=urls[pid], **self.options) or ""
                    for pid, html in pages.items()}
        results = extract_pages([(html, urls[pid]) for pid, html in pages.items()],
                                time_limit_s=self.time_limit_s, **self.options)
        return {pid: self._count(result, count) for pid, result in zip(pages, results, strict=True)}

    def _count(self, result: Extraction | Drop, count: bool) -> str:
        if not count:
            return "" if isinstance(result, Drop) else result.document.text or ""
        if isinstance(result, Drop):
            self.stats[f"dropped.{result.reason}"] += 1
            return ""
        doc, pairs, interleaved = result
        self.stats["documents"] += 1
        self.stats["image_text_pairs"] += len(pairs)
        self.stats["interleaved_docs"] += 1
        self.stats["interleaved_with_images"] += any(s.kind == "image" for s in interleaved.segments)
        self.stats["image_segments"] += sum(s.kind == "image" for s in interleaved.segments)
        self.stats["pairs_with_caption"] += sum(p.caption is not None for p in pairs)
        self.stats["model_full"] += "model_full" in result.flags  # pages the quick model sent past itself
        self.stats["content_images"] += len(pairs) + sum(result.skipped_images.values())
        self.skipped.update(result.skipped_images)
        self.page_types[doc.page_type or "none"] += 1
        return doc.text or ""

    def report(self, rounds: int) -> dict[str, Any]:
        if self.plain:
            return {}
        # counted over all rounds: report one round's worth
        return {**{k: v // rounds for k, v in self.stats.items()},
                "skipped_images": {k: v // rounds for k, v in sorted(self.skipped.items())},
                "page_types": {k: v // rounds for k, v in sorted(self.page_types.items())}}


def variants() -> dict[str, Variant]:
    return {
        "plain": Variant("trafilatura.extract(html), the reference", plain=True),
        "plain_precision": Variant("trafilatura.extract(html, favor_precision=True)", plain=True,
                                   favor_precision=True),
        "winnow": Variant("default (block model), extract_pages through the deadline worker", TIME_LIMIT_S),
        "winnow_full": Variant("quick: false (every page through trafilatura and the full model, as before issue 28)",
                               TIME_LIMIT_S, quick=False),
        "winnow_trafilatura": Variant("selector=trafilatura (trafilatura's blocks, winnow's rendering), worker",
                                      TIME_LIMIT_S, selector="trafilatura"),
    }


def steal_seconds() -> float | None:
    """The machine's total steal time (Linux /proc/stat), None elsewhere."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
        return int(fields[8]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def run_dataset(name: str, pages: dict[str, bytes], urls: dict[str, str], rounds: int,
                scorer: Callable[[dict[str, str]], dict[str, Any]]) -> dict[str, Any]:
    """Every variant over ``pages`` for ``rounds`` rounds: scores, speeds and ratios to plain."""
    contenders = variants()
    names = list(contenders)
    # each variant runs the whole page set in turn, in an order that rotates per round; ratios are taken
    # per round (between passes minutes apart at most), then the median over rounds. Interleaving page by
    # page instead was tried: it evicts each variant's working set (the worker's above all) between pages,
    # which a real run never does, and made every variant slower (plain by about 15%)
    seconds: dict[str, list[float]] = {n: [] for n in names}
    cpu: dict[str, list[float]] = {n: [] for n in names}
    texts: dict[str, dict[str, str]] = {n: {} for n in names}
    # an untimed pass over a few pages before each timed pass: the variant that ran before evicted this one's
    # working set (in the worker process above all, idle while the in-process variants run), which a real run,
    # extracting page after page, never pays
    warm_up = dict(list(pages.items())[:WARM_UP_PAGES])
    for r in range(rounds):
        spent = dict.fromkeys(names, 0.0)
        shift = r % len(names)
        for variant in names[shift:] + names[:shift]:
            contenders[variant].run_all(warm_up, urls, count=False)
            cpu_start, start = cpu_seconds(), time.perf_counter()
            out = contenders[variant].run_all(pages, urls)
            spent[variant] = time.perf_counter() - start
            cpu[variant].append(cpu_seconds() - cpu_start)
            if r == 0:
                texts[variant] = out
        for variant in names:
            seconds[variant].append(spent[variant])
        print(f"{name} round {r + 1}: " + ", ".join(f"{n} {len(pages) / spent[n]:.1f}" for n in names) + " docs/s",
              file=sys.stderr, flush=True)
    results: dict[str, Any] = {}
    for variant in names:
        speeds = [len(pages) / s for s in seconds[variant]]
        results[variant] = {"settings": contenders[variant].settings, "scores": scorer(texts[variant]),
                            "docs_per_s": round(statistics.median(speeds), 2),
                            "docs_per_s_rounds": [round(x, 2) for x in speeds],
                            "cpu_ms_per_doc": round(statistics.median(cpu[variant]) / len(pages) * 1000, 2),
                            **contenders[variant].report(rounds)}
    for variant in names[1:]:
        ratios = [p / v for p, v in zip(seconds["plain"], seconds[variant], strict=True)]
        cpu_ratios = [p / v for p, v in zip(cpu["plain"], cpu[variant], strict=True)]
        results[variant]["vs_plain"] = {
            "speed_ratio": round(statistics.median(ratios), 3),
            "speed_ratio_rounds": [round(x, 3) for x in ratios],
            "speed_ratio_best_rounds": round(min(seconds["plain"]) / min(seconds[variant]), 3),
            "docs_per_cpu_s_ratio": round(statistics.median(cpu_ratios), 3),
        }
    return {"pages": len(pages), "rounds": rounds, "results": results}


def load_articles() -> tuple[dict[str, bytes], dict[str, str], dict[str, str]]:
    truth = json.loads((ARTICLES / "ground-truth.json").read_text())
    gold = {pid: v["articleBody"] for pid, v in truth.items()}
    urls = {pid: v.get("url") or f"https://bench.invalid/{pid}" for pid, v in truth.items()}
    pages = {pid: gzip.decompress((ARTICLES / "html" / f"{pid}.html.gz").read_bytes()) for pid in truth}
    return pages, urls, gold


def targets(report: dict[str, Any]) -> dict[str, Any]:
    """Which of issue 12's targets the default meets, from the datasets that ran."""
    out: dict[str, Any] = {}
    if "wcxb" in report:
        res = report["wcxb"]["results"]
        mine, plain = res["winnow"]["scores"], res["plain"]["scores"]
        out["wcxb_f1_at_least_0.87"] = mine["all"]["f1"] >= 0.87
        out["wcxb_f1_at_least_plain_in_every_type"] = {
            kind: mine[kind]["f1"] >= plain[kind]["f1"] for kind in wcxb.PAGE_TYPES if kind in mine}
        out["wcxb_speed_at_least_0.9x"] = res["winnow"]["vs_plain"]["speed_ratio"] >= 0.9
    if "articles" in report:
        res = report["articles"]["results"]
        out["articles_f1_at_least_plain"] = res["winnow"]["scores"]["f1_6"] >= res["plain"]["scores"]["f1_6"]
        out["articles_speed_at_least_0.9x"] = res["winnow"]["vs_plain"]["speed_ratio"] >= 0.9
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", default="wcxb,articles", help="comma-separated: wcxb, articles")
    parser.add_argument("--rounds", type=int, default=5, help="rounds on the 60 articles")
    parser.add_argument("--wcxb-rounds", type=int, default=3, help="rounds on the 1,495 WCXB pages")
    parser.add_argument("--wcxb-limit", type=int, help="only the first N WCXB pages (a quick look, not the figure)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    for name in ("trafilatura", "htmldate", "courlan", "justext", "readability"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    chosen = [d.strip() for d in args.datasets.split(",") if d.strip()]
    unknown = set(chosen) - {"wcxb", "articles"}
    if unknown:
        parser.error(f"unknown datasets {sorted(unknown)}")

    report: dict[str, Any] = {"trafilatura": trafilatura.__version__,
                              "load_avg_1min": {"before": round(os.getloadavg()[0], 2)}}
    steal_before = steal_seconds()
    t0 = time.perf_counter()
    # starts the worker (which loads the models and runs a page through every stage first): not timed
    extract_pages([(b"<html><body><p>warm up the worker</p></body></html>", "https://bench.invalid/")],
                  time_limit_s=TIME_LIMIT_S)
    report["worker_start_s"] = round(time.perf_counter() - t0, 3)
    if "wcxb" in chosen:
        pages_list = wcxb.load_pages()
        if args.wcxb_limit:
            pages_list = pages_list[:args.wcxb_limit]
        pages = {p.id: p.html() for p in pages_list}
        # 5 WCXB pages have no URL; winnow's records need one to be identified, so they get a neutral one
        urls = {p.id: p.url or f"https://wcxb.invalid/{p.id}" for p in pages_list}
        report["wcxb"] = run_dataset("wcxb", pages, urls, args.wcxb_rounds,
                                     lambda texts: wcxb.score(texts, pages_list))
    if "articles" in chosen:
        pages, urls, gold = load_articles()
        report["articles"] = run_dataset("articles", pages, urls, args.rounds,
                                         lambda texts: score_articles(texts, gold))
    report["load_avg_1min"]["after"] = round(os.getloadavg()[0], 2)
    # CPU time the hypervisor gave to others while this run waited (/proc/stat "steal"), over the whole run: where
    # it is high, wall-clock ratios between rounds drift and the CPU-time ratios are the steadier
    report["steal_s"] = round(steal_seconds() - steal_before, 2) if steal_before is not None else None
    report["targets"] = targets(report)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))
    if "wcxb" in report:
        for variant, result in report["wcxb"]["results"].items():
            print(wcxb.format_row(variant, result["scores"]), file=sys.stderr)


if __name__ == "__main__":
    main()
