"""WCXB (Web Content Extraction Benchmark, Foley 2026, v1.0, CC-BY-4.0): loading the dev split and scoring.

The data is ``../shared/data/wcxb/dev`` (never copied into the project): 1,497 real pages of seven types,
``html/<id>.html.gz`` and ``ground-truth/<id>.json``. Scoring follows WCXB's own ``evaluate.py``: lower-case
``\\w+`` tokens, bag-of-words (multiset) precision, recall and F1 per page, then the mean over pages, overall and
per page type (``_internal.page_type.primary``, ``category`` read as ``collection``). A page whose ground truth is
empty (19 single-page apps whose HTML holds no content) scores 1 when the prediction is empty too, else 0, as in
evaluate.py. The two pages without a ``main_content`` key (4802, 4893) are skipped, as the data README says.
WCXB's test split is that benchmark's held-out set and is never used here.
"""

from __future__ import annotations

import gzip
import json
import re
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
WCXB_DEV = ROOT.parent / "shared" / "data" / "wcxb" / "dev"
PAGE_TYPES = ("article", "forum", "product", "collection", "listing", "documentation", "service")
_TOKEN = re.compile(r"\w+")


@dataclass(frozen=True)
class WcxbPage:
    id: str
    url: str
    page_type: str
    gold: str
    path: Path

    def html(self) -> bytes:
        return gzip.decompress(self.path.read_bytes())


def load_pages(root: Path = WCXB_DEV) -> list[WcxbPage]:
    """The scored pages of the split at ``root``, in id order."""
    pages = []
    for path in sorted((root / "ground-truth").glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        truth = doc.get("ground_truth")
        if not isinstance(truth, dict) or "main_content" not in truth:
            continue
        kind = ((doc.get("_internal") or {}).get("page_type") or {})
        kind = kind.get("primary", "article") if isinstance(kind, dict) else (kind or "article")
        kind = "collection" if kind == "category" else kind
        pages.append(WcxbPage(path.stem, doc.get("url") or "", kind, truth.get("main_content") or "",
                              root / "html" / f"{path.stem}.html.gz"))
    return pages


def site_of(url: str) -> str:
    """The registered domain, roughly (the last two host labels; three under a two-letter country code's
    ``co``/``com``/``org``...): the grouping unit of cross-validation, so one site never trains and tests."""
    host = (urlsplit(url).hostname or "").lower().removeprefix("www.")
    labels = host.split(".")
    if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in ("co", "com", "org", "net", "ac", "gov", "edu"):
        return ".".join(labels[-3:])
    return ".".join(labels[-2:])


def word_prf(predicted: str, reference: str) -> tuple[float, float, float]:
    """WCXB evaluate.py's word precision, recall and F1 of one page."""
    pred = _TOKEN.findall(predicted.lower()) if predicted else []
    ref = _TOKEN.findall(reference.lower()) if reference else []
    if not ref:
        return (1.0, 1.0, 1.0) if not pred else (0.0, 0.0, 0.0)
    if not pred:
        return 0.0, 0.0, 0.0
    overlap = sum((Counter(pred) & Counter(ref)).values())
    precision, recall = overlap / len(pred), overlap / len(ref)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def score(predictions: dict[str, str], pages: list[WcxbPage]) -> dict[str, dict[str, float]]:
    """{"all" | page type: {"f1", "precision", "recall", "pages"}}: means over pages, as evaluate.py reports."""
    by_type: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    for page in pages:
        prf = word_prf(predictions.get(page.id, ""), page.gold)
        by_type[page.page_type].append(prf)
        by_type["all"].append(prf)
    out = {}
    for kind in ("all", *PAGE_TYPES):
        rows = by_type.get(kind)
        if rows:
            out[kind] = {"f1": round(statistics.fmean(r[2] for r in rows), 4),
                         "precision": round(statistics.fmean(r[0] for r in rows), 4),
                         "recall": round(statistics.fmean(r[1] for r in rows), 4), "pages": len(rows)}
    return out


def format_row(name: str, scores: dict[str, dict[str, float]]) -> str:
    cells = " ".join(f"{k[:5]} {scores[k]['f1']:.3f}" for k in PAGE_TYPES if k in scores)
    return f"{name:<44} all {scores['all']['f1']:.4f}  {cells}"
