"""F1 and docs/s of LLM main-content selection (``extract/llm.py``, mode "select") on
../shared/data/extraction_bench, with plain ``trafilatura.extract(html)`` on the same pages in the same run.

    flock -x /tmp/winnow-bench.lock .venv/bin/python bench/extract_llm_bench.py [--pages N]
        [--endpoint local|http://host:port --model NAME] [--json bench/results/extract_llm_bench.json]

Score (../shared/data/README.md, from the article-extraction-benchmark): tokens are ``\\w+`` matches,
4-token shingles counted as multisets; per page tp = shared shingles, fp = predicted only, fn = gold
only, normalised to sum 1; precision and recall are the means over pages of tp/(tp+fp) and tp/(tp+fn),
and F1 is computed from the two means. A page with no prediction (extractor returned nothing or the
LLM fell back) scores precision 0 and recall 0: a failure is counted, not skipped. The scorer is the
same as bench/extract_bench.py's.

Also reported, as references for reading the LLM figure: "all_blocks" (every block of the page, i.e.
what a model that selects everything would get) and "llm_or_trafilatura" (the LLM text where it
produced one, else trafilatura's: what the pipeline's fallback behaviour yields if select were routed
for every page). LLM docs/s counts only the requests, not the server's start-up (reported apart).
"""

from __future__ import annotations

import argparse
import gzip
import json
import platform
import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import trafilatura

from extract.blocks import assemble, page_blocks
from extract.llm import LLMExtractor, LLMJob, LLMPlan
from pipelines.readers.charset import decode_html

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "extraction_bench"
_TOKEN = re.compile(r"\w+")


def shingles(text: str | None, n: int = 4) -> Counter[tuple[str, ...]]:
    tokens = _TOKEN.findall(text or "")
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def page_counts(gold: str, pred: str | None) -> tuple[float, float, float]:
    """Normalised (tp, fp, fn) of one page."""
    g, p = shingles(gold), shingles(pred)
    tp = sum((g & p).values())
    fp = sum((p - g).values())
    fn = sum((g - p).values())
    total = tp + fp + fn
    return (tp / total, fp / total, fn / total) if total else (0.0, 0.0, 0.0)


def score(golds: list[str], preds: list[str | None]) -> dict[str, float]:
    precisions, recalls = [], []
    for gold, pred in zip(golds, preds, strict=True):
        tp, fp, fn = page_counts(gold, pred)
        if tp + fp + fn == 0:  # neither side has a shingle: a perfect (empty) answer, as bench/extract_bench.py
            precisions.append(1.0)
            recalls.append(1.0)
            continue
        precisions.append(tp / (tp + fp) if tp + fp else 0.0)
        recalls.append(tp / (tp + fn) if tp + fn else 0.0)
    p = sum(precisions) / len(precisions)
    r = sum(recalls) / len(recalls)
    return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(2 * p * r / (p + r) if p + r else 0.0, 4)}


def load(pages: int) -> list[tuple[str, str, str, str]]:
    truth = json.loads((DATA / "ground-truth.json").read_text("utf-8"))
    out = []
    for page_id in sorted(truth)[:pages]:
        raw = gzip.decompress((DATA / "html" / f"{page_id}.html.gz").read_bytes())
        out.append((page_id, truth[page_id].get("url") or "", decode_html(raw).text, truth[page_id]["articleBody"]))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=60, help="first N pages (sorted by id) of the 60")
    ap.add_argument("--endpoint", default="local")
    ap.add_argument("--model", default=None)
    ap.add_argument("--n-ctx", type=int, default=4096)
    ap.add_argument("--n-threads", type=int, default=2, help="llama.cpp threads of the embedded server")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--json", default=str(Path(__file__).resolve().parent / "results" / "extract_llm_bench.json"))
    args = ap.parse_args()

    pages = load(args.pages)
    golds = [gold for _, _, _, gold in pages]
    print(f"{len(pages)} pages", flush=True)

    t0 = time.perf_counter()
    traf = [trafilatura.extract(html, url=url or None) for _, url, html, _ in pages]
    traf_s = time.perf_counter() - t0

    all_blocks = []
    n_blocks = []
    for _, _, html, _ in pages:
        blocks = page_blocks(html)
        n_blocks.append(len(blocks))
        all_blocks.append(assemble(blocks, range(len(blocks))))

    ex = LLMExtractor(endpoint=args.endpoint, model=args.model, concurrency=args.concurrency, n_ctx=args.n_ctx,
                      n_threads=args.n_threads if args.endpoint == "local" else None, timeout_s=args.timeout,
                      retries=1)
    jobs = [LLMJob(url or None, html, LLMPlan("select", None, "route")) for _, url, html, _ in pages]
    t_start = time.perf_counter()
    with ex.open_services():
        start_s = time.perf_counter() - t_start
        ex.setup()
        t1 = time.perf_counter()
        outcomes = ex.run(jobs)
        llm_s = time.perf_counter() - t1
    llm = [o.text for o in outcomes]
    flags = Counter(f for o in outcomes for f in o.flags)

    result = {
        "pages": len(pages),
        "data": "../shared/data/extraction_bench (first N ids in sorted order)",
        "machine": f"{platform.machine()}, {__import__('os').cpu_count()} CPUs, Python {platform.python_version()}",
        "llm": {
            "endpoint": args.endpoint,
            "model": ex.model,
            "n_ctx": args.n_ctx,
            "n_threads": args.n_threads if args.endpoint == "local" else None,
            "concurrency": args.concurrency,
            **score(golds, llm),
            "docs_per_s": round(len(pages) / llm_s, 4),
            "seconds": round(llm_s, 1),
            "server_start_s": round(start_s, 2),
            "pages_with_text": sum(t is not None for t in llm),
            "flags": dict(sorted(flags.items())),
            "blocks_per_page_mean": round(sum(n_blocks) / len(n_blocks), 1),
        },
        "trafilatura_plain": {**score(golds, traf), "docs_per_s": round(len(pages) / traf_s, 2),
                              "call": "trafilatura.extract(html, url=url)"},
        "all_blocks": score(golds, all_blocks),
        "llm_or_trafilatura": score(golds, [t if t is not None else d for t, d in zip(llm, traf, strict=True)]),
        "per_page": [
            {"id": pid[:12], "blocks": nb, "llm_f1": _f1(gold, t), "trafilatura_f1": _f1(gold, d),
             "llm_flags": o.flags}
            for (pid, _, _, gold), nb, t, d, o in zip(pages, n_blocks, llm, traf, outcomes, strict=True)
        ],
    }
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n", "utf-8")
    summary = {k: v for k, v in result.items() if k != "per_page"}
    print(json.dumps(summary, indent=2))
    return 0


def _f1(gold: str, pred: str | None) -> float:
    tp, fp, fn = page_counts(gold, pred)
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return round(2 * p * r / (p + r) if p + r else 0.0, 3)


if __name__ == "__main__":
    sys.exit(main())
