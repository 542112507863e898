"""Filter fidelity (issue 13): good pages kept and junk dropped by the full ``default`` chain, language ID on
plain prose unchanged, and the chain's throughput against the published-rules ``filters`` chain; one run.

- Good content: every WCXB dev page (../shared/data/wcxb/dev, Foley 2026, CC-BY-4.0) goes through the real
  pipeline (``winnow run`` in this process, ``--local --annotate``) from a WARC the bench writes; a page is kept
  when its Document reaches out/text. Reported per page type, for pages with at least 100 words of ground truth;
  the target set is article, documentation and forum. The code-heavy set: documentation pages (>= 100 words)
  whose ground truth contains the text of one of the page's ``<pre>`` blocks (at least 40 characters), i.e.
  pages whose main content has a code block, whatever the extractor makes of it.
- Junk: bench/junk_set.py's seven classes (written apart from the training junk of filters/training/junk.py, from WCXB's
  vocabulary), as a JSONL of documents through the same chain; dropped by any step counts, and the step is shown.
- Language ID: ``filters.langid.LanguageID`` (prose only, the default) against lid.176 called directly on
  ../shared/data/langid_dev.jsonl: labels equal, largest score difference.
- Baseline: the bundled ``filters`` chain as it was before issue 13 (bench/configs/filters_before_13.yaml: the
  published rules on the whole text, each dropping; fastText quality at 0.1), through the same runs.
- Throughput: the WCXB WARC through both chains, pages/s of wall time and CPU seconds (this process and the
  extraction worker), in this process (``--local``); each chain runs ``--rounds`` times, alternating, fastest kept.

    .venv/bin/python bench/filters_fidelity.py [--json out.json] [--rounds 2] [--limit N]
"""

from __future__ import annotations

import argparse
import html
import io
import json
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pandas as pd
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from bench import wcxb
from bench.cpu import cpu_seconds
from bench.junk_set import CLASSES, junk_set
from pipelines.config import load_config
from pipelines.runner import RunOptions, run

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
BEFORE = str(Path(__file__).resolve().parent / "configs" / "filters_before_13.yaml")
CHAINS = {"default": "default", "before_13": BEFORE}
TARGET_TYPES = ("article", "documentation", "forum")
MIN_GOLD_WORDS = 100
_PRE = re.compile(r"<pre\b[^>]*>(.*?)</pre>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


def _norm(text: str) -> str:
    return " ".join(text.split())


def has_code_in_main(page: wcxb.WcxbPage) -> bool:
    gold = _norm(page.gold)
    for block in _PRE.findall(page.html().decode("utf-8", "replace")):
        code = _norm(html.unescape(_TAG.sub("", block)))
        if len(code) >= 40 and code[:40] in gold:
            return True
    return False


def write_warc(pages: list[wcxb.WcxbPage], path: Path) -> dict[str, str]:
    """One response record per page; returns url -> page id (a repeated URL gets a ``#<id>`` suffix)."""
    urls: dict[str, str] = {}
    with path.open("wb") as f:
        writer = WARCWriter(f, gzip=True)
        for page in pages:
            url = page.url or f"https://wcxb.invalid/{page.id}"
            if url in urls:
                url = f"{url}#{page.id}"
            urls[url] = page.id
            body = page.html()
            http = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8"),
                                               ("Content-Length", str(len(body)))], protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(url, "response", payload=io.BytesIO(body),
                                                          length=len(body), http_headers=http))
    return urls


def run_chain(config: str, inputs: list[Path], out: Path) -> tuple[dict[str, Any], float]:
    """One ``winnow run --local --annotate`` in this process; (stats, wall seconds)."""
    started = time.perf_counter()
    stats = run(RunOptions(config=load_config(config, annotate=True), inputs=[str(p) for p in inputs], output=out,
                           local=True, annotate=True, progress=False))
    return stats, time.perf_counter() - started


def text_rows(out: Path) -> pd.DataFrame:
    return pd.read_parquet(out / "text", columns=["id", "url", "dropped_by", "quality_score", "quality_signals",
                                                  "lang", "lang_score", "code_ratio"])


def good_content(pages: list[wcxb.WcxbPage], urls: dict[str, str], out: Path) -> dict[str, Any]:
    df = text_rows(out)
    fate: dict[str, str] = {}
    for url, dropped in zip(df["url"], df["dropped_by"].fillna("kept"), strict=True):
        pid = urls.get(url)
        if pid is not None:
            fate[pid] = dropped
    by_type: dict[str, Counter] = defaultdict(Counter)
    code_heavy: Counter = Counter()
    for page in pages:
        if len(page.gold.split()) < MIN_GOLD_WORDS:
            continue
        verdict = fate.get(page.id, "extract.no_record")
        reason = "kept" if verdict == "kept" else verdict.split(":")[0]
        by_type[page.page_type][reason] += 1
        if page.page_type == "documentation" and has_code_in_main(page):
            code_heavy[reason] += 1
    report: dict[str, Any] = {}
    for kind in wcxb.PAGE_TYPES:
        c = by_type[kind]
        n = sum(c.values())
        report[kind] = {"pages": n, "kept": round(c["kept"] / n, 4) if n else None,
                        "lost_by": dict(Counter({k: v for k, v in c.items() if k != "kept"}).most_common(6))}
    target = Counter()
    for kind in TARGET_TYPES:
        target.update(by_type[kind])
    n = sum(target.values())
    report["target_article_documentation_forum"] = {"pages": n, "kept": round(target["kept"] / n, 4)}
    n = sum(code_heavy.values())
    report["code_heavy_documentation"] = {"pages": n, "kept": round(code_heavy["kept"] / n, 4) if n else None,
                                          "lost_by": dict(Counter({k: v for k, v in code_heavy.items()
                                                                   if k != "kept"}).most_common(6))}
    return report


def junk_results(tmp: Path, config: str) -> dict[str, Any]:
    docs = junk_set()
    path = tmp / "junk.jsonl"
    with path.open("w", encoding="utf-8") as f:
        for d in docs:
            f.write(json.dumps({"id": d["id"], "text": d["text"], "url": f"https://junk.invalid/{d['id']}"}) + "\n")
    out = tmp / f"junk-{config}"
    run_chain(CHAINS[config], [path], out)
    df = text_rows(out)
    fate = dict(zip(df["id"], df["dropped_by"].fillna("kept"), strict=True))
    report = {}
    for cls in CLASSES:
        verdicts = Counter(fate.get(d["id"], "missing").split(":")[0] for d in docs if d["class"] == cls)
        n = sum(verdicts.values())
        report[cls] = {"docs": n, "dropped": round(1 - verdicts["kept"] / n, 4),
                       "by": dict(Counter({k: v for k, v in verdicts.items() if k != "kept"}).most_common(5))}
    return report


def langid_check(limit: int | None = None) -> dict[str, Any]:
    from filters.langid import LanguageID, detect
    from pipelines.records import Document

    rows = [json.loads(line) for line in (SHARED / "langid_dev.jsonl").open(encoding="utf-8")][:limit]
    docs = [Document(id=str(i), url=None, source="langid_dev", text=r["text"]) for i, r in enumerate(rows)]
    step = LanguageID()
    step.setup()
    step.process_batch(docs)
    direct = [detect(r["text"]) for r in rows]
    same = sum(d.lang == lang for d, (lang, _) in zip(docs, direct, strict=True))
    diff = max(abs(d.lang_score - s) for d, (_, s) in zip(docs, direct, strict=True))
    acc_step = sum(d.lang == r["lang"] for d, r in zip(docs, rows, strict=True)) / len(rows)
    acc_direct = sum(lang == r["lang"] for (lang, _), r in zip(direct, rows, strict=True)) / len(rows)
    return {"sentences": len(rows), "labels_equal": same, "max_score_difference": diff,
            "accuracy_step": round(acc_step, 4), "accuracy_direct": round(acc_direct, 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--limit", type=int, help="first N WCXB pages only (a quick look)")
    args = parser.parse_args()
    pages = wcxb.load_pages()[:args.limit]
    result: dict[str, Any] = {"langid": langid_check()}
    print("langid:", result["langid"], flush=True)
    with tempfile.TemporaryDirectory(prefix="winnow-fidelity-") as tmp_name:
        tmp = Path(tmp_name)
        warc = tmp / "wcxb-dev.warc.gz"
        urls = write_warc(pages, warc)
        times: dict[str, list[float]] = defaultdict(list)
        cpu: dict[str, list[float]] = defaultdict(list)
        for r in range(args.rounds):
            for config, chain in CHAINS.items():
                out = tmp / f"{config}-{r}"
                before = cpu_seconds()
                stats, seconds = run_chain(chain, [warc], out)
                cpu[config].append(cpu_seconds() - before)
                times[config].append(seconds)
                if r == 0:
                    result[f"good_content_{config}"] = good_content(pages, urls, out)
                    result[f"steps_{config}"] = {s["step"]: s["dropped"] for s in stats["steps"] if s["dropped"]}
                print(config, f"{seconds:.1f}s", flush=True)
        result["throughput"] = {c: {"pages": len(pages), "seconds": round(min(t), 2),
                                    "rounds_s": [round(x, 1) for x in t], "docs_per_s": round(len(pages) / min(t), 2),
                                    "cpu_s": round(min(cpu[c]), 1)} for c, t in times.items()}
        result["throughput"]["default_vs_before_13"] = round(min(times["before_13"]) / min(times["default"]), 4)
        result["throughput"]["default_vs_before_13_cpu"] = round(min(cpu["before_13"]) / min(cpu["default"]), 4)
        for config in CHAINS:
            result[f"junk_{config}"] = junk_results(tmp, config)
    text = json.dumps(result, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
