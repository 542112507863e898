"""Rebuild extraction's block classifier (extract/models/blocks.zip) from the WCXB dev split, with its report.

    .venv/bin/python scripts/train_extract_model.py [--data ../shared/data/wcxb/dev] [--folds 5] [--jobs 2]

The defaults are the shipped recipe (two stages, the quick model and its routing rule); ``--no-stage2`` and
``--no-quick`` are the ablations.

1. Every page goes through extraction's own analysis (extract/core.py ``analyse``: parse, metadata, page-type
   features, stripping, trafilatura, segmentation, block features), so training sees exactly the rows inference
   computes. A block's label is whether its words are in the page's ground truth: for blocks of four words or
   more, at least half of its word 4-grams occur in the ground truth; for shorter blocks, its words occur there
   as a run; for data tables (which ground truths write in their own order), at least half of its words. Each
   block is weighted by its share of the page's words, so every page counts about the same, as WCXB's
   mean-over-pages F1 does.
2. Cross-validation, 5 folds grouped by site (``bench.wcxb.site_of``; no site in both train and test): in each
   fold the page-type classifier (extract/page_type.py ``train``) is refitted on the training pages and its
   probabilities for the held-out pages become their page-type features (out of fold, as at inference, where
   the page was never seen); then the block model is fitted and the held-out pages are extracted (kept blocks
   rendered as extraction renders them) and scored as WCXB scores (bench/wcxb.py), for each candidate threshold.
   The threshold with the best mean F1 over all pages is the model's.
3. With ``--quick`` (the default model's recipe), a second, *quick* model is cross-validated in the same folds on the
   same rows with trafilatura's verdict left out (extract/select.py), with its own thresholds; then the routing
   rule: over a grid of (band, limit), the held-out pages the quick model is unsure of take the full model's text,
   the others the quick model's, and the rule with the fewest routed pages whose F1 is not below the full model's
   alone (overall; ``--route-tolerance`` allows a loss) is chosen. The grid is in the report.
4. The shipped model is fitted on all pages, with out-of-fold page-type probabilities as its type features
   (the distribution it meets at inference); the page-type model itself is shipped separately
   (scripts/train_page_type.py). It is written as a zip of ``model.json`` and one ONNX graph per stage
   (extract/select.py ``save_model``, pipelines/trees.py), which needs the ``onnx`` package (the ``train`` extra,
   part of ``dev``).

Deterministic (fixed seeds). ``THREADS`` OpenMP threads per fit: on 2 cores shared with other work, sklearn's thread
pool made fits many times slower than one thread.
WCXB's test split is never used. The report (per page type: F1, precision, recall, for each threshold and for
trafilatura's own choice of blocks) goes to stdout and, with ``--report``, to a JSON file.
"""

from __future__ import annotations

import argparse
import json
import pickle
import re
import sys
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from bench.wcxb import WCXB_DEV, WcxbPage, format_row, load_pages, score, site_of, word_prf  # noqa: E402
from extract.core import (  # noqa: E402
    ExtractFailure,
    ExtractOptions,
    analyse,
    kept_by_trafilatura,
    trafilatura_text,
    units,
    untrained_script,
    with_fallback,
    with_rules,
)
from extract.features import block_features, context_features  # noqa: E402
from extract.page_type import PAGE_TYPES  # noqa: E402
from extract.segment import Block  # noqa: E402
from extract.select import BlockModel, block_words, save_model, unsure_share  # noqa: E402
from pipelines.readers.charset import decode_html  # noqa: E402

# the trafilatura pass whose verdict is the kept feature: "balanced" (its default) or "fast" (no readability/jusText
# comparison); both are built, --trafilatura chooses
TRAFILATURA_MODES = {"balanced": {"favor_precision": False, "fast": False},
                     "fast": {"favor_precision": False, "fast": True}}
THRESHOLDS = (0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)
# the routing grid: a block is unsure within BAND of its threshold; a page is routed past LIMIT of its words unsure
BANDS = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3)
LIMITS = (0.0, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0)
MODEL_PARAMS: dict[str, Any] = {"max_iter": 200, "learning_rate": 0.1, "max_leaf_nodes": 31, "min_samples_leaf": 40,
                                "l2_regularization": 1.0, "early_stopping": False}
THREADS = 2  # OpenMP threads per fit: 2 on the 2-core machine when nothing else runs (1 when shared)
_TOKEN = re.compile(r"\w+")


def labels(blocks: list[Block], gold: str) -> np.ndarray:
    """1 for blocks whose words are in the ground truth (module docstring), else 0."""
    tokens = _TOKEN.findall(gold.lower())
    grams = {tuple(tokens[i:i + 4]) for i in range(len(tokens) - 3)}
    bag = Counter(tokens)
    joined = " " + " ".join(tokens) + " "
    out = np.zeros(len(blocks), dtype=np.float32)
    for i, block in enumerate(blocks):
        words = _TOKEN.findall(block.plain.lower())
        if block.kind == "table" and words:
            # ground truths write tables in their own order and joins (a row per line, cells run together), so
            # word runs rarely match; the table is content when most of its words are in the ground truth
            out[i] = sum((Counter(words) & bag).values()) / len(words) >= 0.5
        elif len(words) >= 4:
            mine = [tuple(words[j:j + 4]) for j in range(len(words) - 3)]
            out[i] = sum(g in grams for g in mine) / len(mine) >= 0.5
        elif words:
            out[i] = (" " + " ".join(words) + " ") in joined
    return out


def build(page: WcxbPage) -> dict[str, Any]:
    """One page's training rows (or ``{"id", "failed"}``)."""
    html = decode_html(page.html(), None).text
    options = ExtractOptions(selector="trafilatura")
    try:
        analysis = analyse(html, page.url, options, type_probs=False)
    except ExtractFailure as exc:
        return {"id": page.id, "failed": exc.reason}
    blocks = analysis.segmentation.blocks
    words = np.array([len(b.plain.split()) for b in blocks], dtype=np.float64)
    # the block features are computed again from these at training time (features() below), so that a change
    # of extract/features.py needs no new parse of the 1,495 pages
    fast = trafilatura_text(analysis.tree, page.url, include_tables=True, **TRAFILATURA_MODES["fast"])
    return {"id": page.id, "type_features": analysis.page_type_features,
            "kept_texts": {"balanced": analysis.kept_text, "fast": fast},
            "title": analysis.meta.title, "labels": labels(blocks, page.gold),
            "weights": words / max(words.sum(), 1.0), "blocks": blocks}


def add_features(row: dict[str, Any], type_probs: np.ndarray | None, mode: str) -> None:
    row["features"] = block_features(row["blocks"], row["kept_texts"][mode], row["title"], type_probs)
    # the quick model's rows: trafilatura's verdict left out, exactly as inference computes them when it has none
    row["quick_features"] = block_features(row["blocks"], "", row["title"], type_probs)


def build_all(pages: list[WcxbPage], jobs: int) -> dict[str, dict[str, Any]]:
    if jobs <= 1:
        return {row["id"]: row for row in map(build, pages)}
    with ProcessPoolExecutor(jobs) as pool:
        return {row["id"]: row for row in pool.map(build, pages, chunksize=8)}


def folds(pages: list[WcxbPage], n: int) -> Iterator[tuple[list[int], list[int]]]:
    from sklearn.model_selection import GroupKFold

    groups = [site_of(p.url) for p in pages]
    yield from GroupKFold(n_splits=n).split(np.zeros(len(pages)), groups=groups)


def fit(rows: list[dict[str, Any]], key: str = "features", seed: int = 0) -> Any:
    from sklearn.ensemble import HistGradientBoostingClassifier
    from threadpoolctl import threadpool_limits

    x = np.vstack([r[key] for r in rows])
    y = np.concatenate([r["labels"] for r in rows])
    w = np.concatenate([r["weights"] for r in rows])
    clf = HistGradientBoostingClassifier(random_state=seed, **MODEL_PARAMS)
    with threadpool_limits(limits=THREADS, user_api="openmp"):
        clf.fit(x, y.astype(int), sample_weight=w * len(rows) / max(w.sum(), 1e-9))
    return clf


def proba(model: Any, x: np.ndarray) -> np.ndarray:
    return model.predict_proba(x)[:, 1] if len(x) else np.zeros(0)


def with_context(row: dict[str, Any], probs: np.ndarray, key: str = "features") -> np.ndarray:
    return np.hstack((row[key], context_features(row["blocks"], probs)))


def fit_two_stages(rows: list[dict[str, Any]], inner_folds: int, site: list[str],
                   key: str = "features") -> tuple[Any, Any]:
    """Stage one on ``rows``; stage two on their features plus stage one's out-of-fold probabilities (an inner
    cross-validation grouped by site, so stage two learns from probabilities like those it meets at inference)."""
    from sklearn.model_selection import GroupKFold

    oof: list[np.ndarray | None] = [None] * len(rows)
    for inner_train, inner_test in GroupKFold(n_splits=inner_folds).split(np.zeros(len(rows)), groups=site):
        model = fit([rows[i] for i in inner_train], key)
        for i in inner_test:
            oof[i] = proba(model, rows[i][key])
    for row, probs in zip(rows, oof, strict=True):
        row["stacked"] = with_context(row, probs, key)
    return fit(rows, key), fit(rows, key="stacked")


def fit_models(rows: list[dict[str, Any]], stage2: bool, site: list[str], inner_folds: int,
               key: str = "features") -> tuple[Any, Any | None]:
    return fit_two_stages(rows, inner_folds, site, key) if stage2 else (fit(rows, key), None)


def predict(models: tuple[Any, Any | None], row: dict[str, Any], key: str = "features") -> np.ndarray:
    first, second = models
    probs = proba(first, row[key])
    return probs if second is None else proba(second, with_context(row, probs, key))


def choose_thresholds(predictions: dict[float, dict[str, str]], oof_types: dict[str, np.ndarray],
                      pages: list[WcxbPage]) -> tuple[float, dict[str, float], dict[str, str], dict[str, Any]]:
    """The best threshold overall, one per predicted page type, the texts with those, and the scores of each."""
    scores = {str(t): score(predictions[t], pages) for t in THRESHOLDS}
    best = max(THRESHOLDS, key=lambda t: scores[str(t)]["all"]["f1"])
    gold = {p.id: p for p in pages}
    predicted_type = {pid: PAGE_TYPES[int(np.argmax(oof_types[pid]))] for pid in oof_types}
    per_type: dict[str, float] = {}
    for kind in PAGE_TYPES:
        ids = [pid for pid, t in predicted_type.items() if t == kind]
        if ids:
            per_type[kind] = max(THRESHOLDS, key=lambda t, ids=ids: sum(
                word_prf(predictions[t][i], gold[i].gold)[2] for i in ids))
    typed = {pid: predictions[per_type.get(predicted_type.get(pid, ""), best)][pid] for pid in predictions[best]}
    return best, per_type, typed, scores


def choose_route(quick_probs: dict[str, np.ndarray], quick_typed: dict[str, str], full_typed: dict[str, str],
                 thresholds: dict[str, float], built: dict[str, dict[str, Any]], pages: list[WcxbPage],
                 tolerance: float) -> tuple[dict[str, float], list[dict[str, Any]], dict[str, str]]:
    """The routing rule (module docstring, step 3), the grid it was chosen from, and the cascade's texts."""
    gold = {p.id: p.gold for p in pages}
    f1_quick = {pid: word_prf(text, gold[pid])[2] for pid, text in quick_typed.items()}
    f1_full = {pid: word_prf(text, gold[pid])[2] for pid, text in full_typed.items()}
    full_f1 = sum(f1_full.values()) / len(pages)  # pages that failed to parse count as 0 on both sides
    forced: set[str] = set()  # the quick model kept nothing, or the script is untrained: trafilatura runs anyway
    for pid, text in quick_typed.items():
        if not text or untrained_script(built[pid]["blocks"]):
            forced.add(pid)
    grid: list[dict[str, Any]] = []
    for band in BANDS:
        shares = {pid: unsure_share(p, block_words(built[pid]["blocks"]), thresholds[pid], band)
                  for pid, p in quick_probs.items()}
        for limit in LIMITS:
            routed = {pid for pid, share in shares.items() if share > limit} | forced
            f1 = sum((f1_full if pid in routed else f1_quick)[pid] for pid in f1_quick) / len(pages)
            grid.append({"band": band, "limit": limit, "routed": len(routed) / len(f1_quick), "f1": round(f1, 5)})
    good = [g for g in grid if g["f1"] >= full_f1 - tolerance]
    chosen = min(good, key=lambda g: (g["routed"], -g["f1"])) if good else max(grid, key=lambda g: g["f1"])
    shares = {pid: unsure_share(p, block_words(built[pid]["blocks"]), thresholds[pid], chosen["band"])
              for pid, p in quick_probs.items()}
    texts = {pid: full_typed[pid] if (shares[pid] > chosen["limit"] or pid in forced) else quick_typed[pid]
             for pid in quick_typed}
    return {"band": chosen["band"], "limit": chosen["limit"]}, grid, texts


def text_of(blocks: list[Block], chosen: list[bool]) -> str:
    return "\n\n".join(units(blocks, chosen)[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=WCXB_DEV)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", type=Path, help="pickle of the built rows: reused when present")
    parser.add_argument("--report", type=Path, help="write the cross-validation report here (JSON)")
    parser.add_argument("--predictions", type=Path, help="write the held-out texts here (JSON: id -> text)")
    parser.add_argument("--out", type=Path, default=ROOT / "extract" / "models" / "blocks.zip")
    parser.add_argument("--no-save", action="store_true", help="cross-validate only")
    parser.add_argument("--no-cv", action="store_true", help="fit and save only, with --threshold for every type")
    parser.add_argument("--threshold", type=float, default=0.4, help="the threshold saved with --no-cv")
    parser.add_argument("--thresholds-from", type=Path,
                        help="with --no-cv: take the thresholds (overall and per page type) from an earlier --report")
    parser.add_argument("--trafilatura", choices=sorted(TRAFILATURA_MODES), default="fast",
                        help="the trafilatura pass whose verdicts the model reads")
    parser.add_argument("--stage2", action=argparse.BooleanOptionalAction, default=True,
                        help="a second classifier over the first's probabilities (the shipped recipe)")
    parser.add_argument("--no-page-types", action="store_true", help="ablation: page-type features left at zero")
    parser.add_argument("--quick", action=argparse.BooleanOptionalAction, default=True,
                        help="also the quick model (no trafilatura verdict) and the rule routing pages past it "
                             "(the shipped recipe)")
    parser.add_argument("--route-tolerance", type=float, default=0.0,
                        help="the routing rule may cost this much cross-validated F1 against the full model alone")
    args = parser.parse_args()

    from extract import page_type

    pages = [p for p in load_pages(args.data)]
    if not pages:
        sys.exit(f"no WCXB pages under {args.data}")
    t0 = time.perf_counter()
    if args.cache and args.cache.exists():
        built = pickle.loads(args.cache.read_bytes())
    else:
        built = build_all(pages, args.jobs)
        if args.cache:
            args.cache.write_bytes(pickle.dumps(built, protocol=5))
    print(f"built {len(built)} pages in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    usable = [p for p in pages if "blocks" in built[p.id]]
    failed = {p.id: built[p.id]["failed"] for p in pages if "failed" in built[p.id]}

    # out-of-fold page-type probabilities, then the block model's cross-validation
    type_labels = {p.id: p.page_type for p in usable}
    oof_types: dict[str, np.ndarray] = {}
    predictions: dict[float, dict[str, str]] = {t: dict.fromkeys(failed, "") for t in THRESHOLDS}
    for k, (train_idx, test_idx) in enumerate(folds(usable, args.folds)):
        train_pages = [usable[i] for i in train_idx]
        test_pages = [usable[i] for i in test_idx]
        type_model = page_type.train(np.vstack([built[p.id]["type_features"] for p in train_pages]),
                                     [type_labels[p.id] for p in train_pages])
        probs = page_type.predict_proba(type_model, np.vstack([built[p.id]["type_features"] for p in test_pages]))
        for page, row in zip(test_pages, probs, strict=True):
            oof_types[page.id] = row
        print(f"fold {k + 1}: page types", file=sys.stderr, flush=True)
    for page in usable:
        add_features(built[page.id], None if args.no_page_types else oof_types[page.id], args.trafilatura)
    settings = TRAFILATURA_MODES[args.trafilatura]
    best: float = args.threshold
    per_type: dict[str, float] = {}
    cv_f1 = None
    if args.thresholds_from:  # a cross-validation run's choice, so that the final fit need not repeat it
        earlier = json.loads(args.thresholds_from.read_text())
        if (earlier.get("stage2"), earlier.get("trafilatura")) != (args.stage2, settings):
            sys.exit(f"{args.thresholds_from} was cross-validated with other settings (stage2, trafilatura)")
        best, per_type, cv_f1 = earlier["threshold"], earlier["per_type_thresholds"], earlier["per_type"]["all"]["f1"]
    quick_best: float = args.threshold
    quick_per_type: dict[str, float] = {}
    route: dict[str, float] = {}
    if args.thresholds_from and args.quick:
        earlier = json.loads(args.thresholds_from.read_text())
        if "quick" not in earlier:
            sys.exit(f"{args.thresholds_from} has no quick model's thresholds: cross-validate with --quick")
        quick_best, quick_per_type = earlier["quick"]["threshold"], earlier["quick"]["per_type_thresholds"]
        route = earlier["route"]
    if not args.no_cv:
        quick_predictions: dict[float, dict[str, str]] = {t: dict.fromkeys(failed, "") for t in THRESHOLDS}
        quick_probs: dict[str, np.ndarray] = {}
        for k, (train_idx, test_idx) in enumerate(folds(usable, args.folds)):
            train_rows = [built[usable[i].id] for i in train_idx]
            site = [site_of(usable[i].url) for i in train_idx]
            models = fit_models(train_rows, args.stage2, site, 2)
            quick_models = fit_models(train_rows, args.stage2, site, 2, "quick_features") if args.quick else None
            for i in test_idx:
                row = built[usable[i].id]
                p = predict(models, row)
                kept_text = row["kept_texts"][args.trafilatura]
                for t in THRESHOLDS:
                    chosen, _ = with_fallback(row["blocks"], with_rules(row["blocks"], p >= t), kept_text)
                    predictions[t][usable[i].id] = text_of(row["blocks"], chosen)
                if quick_models is not None:
                    q = quick_probs[usable[i].id] = predict(quick_models, row, "quick_features")
                    for t in THRESHOLDS:  # no fallback: a page the quick model empties goes to the full one
                        quick_predictions[t][usable[i].id] = text_of(row["blocks"], with_rules(row["blocks"], q >= t))
            print(f"fold {k + 1}: blocks ({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)

        report: dict[str, Any] = {"pages": len(pages), "failed": failed, "folds": args.folds, "params": MODEL_PARAMS,
                                  "trafilatura": settings, "page_types": not args.no_page_types, "stage2": args.stage2,
                                  "thresholds": {}}
        trafilatura_choice = {p.id: text_of(built[p.id]["blocks"], kept_by_trafilatura(
            built[p.id]["blocks"], built[p.id]["kept_texts"]["balanced"])) for p in usable}
        report["trafilatura_blocks"] = score({**dict.fromkeys(failed, ""), **trafilatura_choice}, pages)
        print(format_row("trafilatura's blocks (selector: trafilatura)", report["trafilatura_blocks"]))
        best, per_type, typed, report["thresholds"] = choose_thresholds(predictions, oof_types, pages)
        for t in THRESHOLDS:
            print(format_row(f"model, threshold {t} (grouped CV)", report["thresholds"][str(t)]))
        report["threshold"] = best
        report["per_type_thresholds"] = per_type
        report["per_type"] = score(typed, pages)
        cv_f1 = report["per_type"]["all"]["f1"]
        print(format_row("model, a threshold per predicted type", report["per_type"]))
        print(f"threshold: {best}; per predicted type: {per_type}")
        if args.quick:
            quick_best, quick_per_type, quick_typed, quick_scores = choose_thresholds(quick_predictions, oof_types,
                                                                                      pages)
            report["quick"] = {"threshold": quick_best, "per_type_thresholds": quick_per_type,
                               "per_type": score(quick_typed, pages), "thresholds": quick_scores}
            print(format_row("quick model alone, a threshold per predicted type", report["quick"]["per_type"]))
            own = {pid: quick_per_type.get(PAGE_TYPES[int(np.argmax(oof_types[pid]))], quick_best)
                   for pid in quick_probs}
            route, grid, typed = choose_route(quick_probs, {pid: quick_typed[pid] for pid in quick_probs},
                                              {pid: typed[pid] for pid in quick_probs}, own, built, pages,
                                              args.route_tolerance)
            typed = {**dict.fromkeys(failed, ""), **typed}
            report["route"] = route
            report["route_grid"] = grid
            report["cascade"] = score(typed, pages)
            report["routed"] = next(g["routed"] for g in grid if (g["band"], g["limit"]) == (route["band"],
                                                                                            route["limit"]))
            print(format_row("cascade: quick model, unsure pages to the full one", report["cascade"]))
            print(f"route: {route}; routed {report['routed']:.3f} of pages")
            cv_f1 = report["cascade"]["all"]["f1"]
        if args.report:
            args.report.write_text(json.dumps(report, indent=2) + "\n")
        if args.predictions:  # the held-out texts with the chosen thresholds, for error analysis
            args.predictions.write_text(json.dumps(typed, ensure_ascii=False) + "\n")
        if args.no_save:
            return
    rows = [built[p.id] for p in usable]
    site = [site_of(p.url) for p in usable]
    first, second = fit_models(rows, args.stage2, site, args.folds)
    quick = None
    if args.quick:
        quick_first, quick_second = fit_models(rows, args.stage2, site, args.folds, "quick_features")
        quick = BlockModel(quick_first, quick_best, {}, second=quick_second, type_thresholds=quick_per_type)
    save_model(BlockModel(first, best, settings, second=second, type_thresholds=per_type, metadata={
        "data": "WCXB v1.0 dev split (Foley 2026, CC-BY-4.0)", "pages": len(usable), "folds": args.folds,
        "cv_f1": cv_f1, "params": MODEL_PARAMS,
        "stage2": args.stage2}, quick=quick, route=route), args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
