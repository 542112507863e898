"""Rebuild the default chain's text model (filters/models/quality-text.ftz and quality-text.json beside it, read by
filters/quality_text.py) from real data, with its threshold chosen on real pages held apart.

    .venv/bin/python scripts/train_text_model.py [--output PATH.ftz] [--json REPORT] [--thresholds-only] [--lofo]

Data: the quality corpus (bench/quality_corpus.py) through winnow's own extraction (bench/quality_view.py), as
scripts/train_quality_model.py reads it (its ``load``: the same pages, the same exclusions).

- Learns from the ``train`` split, real text only. Good: WCXB dev pages of half the sites (seven page types),
  whole documentation sites in nine languages, real prose in 75 languages. Junk: WCXB's non-content text of those
  pages, the documentation sites' index pages, Apache httpd's and Squid's error pages. No generator's junk
  (filters/training/junk.py, bench/junk_set.py, bench/junk_eval.py): every generated family stays junk of a making
  the model never saw.
- fastText supervised (filters/quality_fasttext.py ``train``: one thread, fixed seed, a fresh process), DCLM's bigram
  features plus character 3- to 5-grams (``PARAMS``; the character n-grams let words the training never saw, and
  inflected forms in other languages, borrow what their parts learnt), product-quantised to 1.7 MB (``cutoff``).
  The text is lowercased (filters/quality_text.py ``text_for_model``).
- ``--lofo``: leave one family out: the model retrained without each real junk family it learns from (threshold
  chosen again), and the share of that family's eval pages it then drops, beside the share the full model drops: how
  much of a kind of junk it never saw it recognises.
- Threshold: on the ``calib`` split's good pages that the step would judge (the shipped signals model,
  filters/models/quality-signals.zip, passes them below ``BAND``; ``MIN_WORDS`` words or more; not a page type of
  ``SKIP_PAGE_TYPES``), the ``QUANTILE`` quantile of the text model's scores; the 10th-90th percentiles of that choice
  over ``BOOTSTRAP_DRAWS`` draws of those pages are stored beside it (``spread``). Texts that are links all through
  (link density ``LINKS_FROM`` or more) get a threshold of their own, chosen the same way on those pages
  (``links_threshold``, ``links_spread``); so do short texts, ``SHORT_FROM`` words or more but under ``MIN_WORDS``, in
  a language written with spaces (``short_threshold``, ``short_spread``, whatever their link share):
  filters/quality_text.py says why.
- Wide band: texts held to the general threshold in a language written with spaces are judged up to ``wide_band``,
  chosen first: the band widened by 0.05 (``WIDE_STEPS``) while each step drops at least ``WIDE_RATIO`` calib junk
  pieces more for each calib good page more, every threshold chosen again at each step (``wide_scan`` in the JSON).
  The general threshold is then chosen over every page it judges, the wide band's too.

The ``eval`` split is read only by ``--lofo``, to measure; bench/filters_quality.py measures the chain with the model
on it. Deterministic on one machine (fixed seeds, one thread): the shipped model came out byte for byte on the
extraction of its day (2026-12-06); extraction has changed a few training pages since (the option labels of
2026-12-07), so a retraining now gives another model. ``--thresholds-only`` keeps the model and chooses its
thresholds again on today's calib split, as the shipped JSON's were on 2026-12-07. About five minutes (the corpus's
extraction is cached under ~/.cache/winnow-bench/quality), ``--lofo`` about four more.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
import pandas as pd
from train_quality_model import dropped, load

from extract.core import FURNITURE_LINKS
from filters import quality_model
from filters.quality_fasttext import train
from filters.quality_text import (
    DEFAULT_MODEL,
    TextQuality,
    good_probability,
    load_model,
    settings_path,
    text_for_model,
)

# The calibrated signals model's P(good) under which the text model is asked: junk as likely as good, or more.
BAND = 0.5
# Gopher's minimum document length (Rae et al. 2021, appendix A): fewer words than this is too little to read.
MIN_WORDS = 50
# Under ten words a text is a heading and a line (on calib, 5 of the 8 texts in the band that short are good pages,
# mostly API stubs): not judged.
SHORT_FROM = 10
# Pages whose text is names, prices and links by nature. On the calib split they are 26 of the 235 good pages in the
# band and 3 of its 8 lowest text scores (a guitar's spec list 0.001, a shop's water bottles 0.003, headphones 0.010).
SKIP_PAGE_TYPES = ["product", "collection", "listing"]
QUANTILE = 0.02
# The band widened, for texts held to the general bar in a language written with spaces: the signals model passes
# much furniture that is prose (privacy policies, terms, author boxes, teasers) at 0.5-0.7, where a model of words
# reads it as furniture. Widened in steps of 0.05 while each step drops at least WIDE_RATIO calib junk pieces more for
# each calib good page more (the threshold chosen again each step by the same QUANTILE rule, over every page judged).
# Not in languages written without spaces, nor for short texts and texts that are links all through: their bars rest
# on 2, 84 and 10 calib good pages, too few to hold a wider band (docs/quality-figures.md, "A wider band where words
# are spaced").
WIDE_STEPS = (None, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)
WIDE_RATIO = 5
# extraction's bar for furniture that is links all through
LINKS_FROM = FURNITURE_LINKS
BOOTSTRAP_DRAWS = 200
SEED = 0
# Measured on the corpus (2026-12-06): dim 32 with character n-grams; without them, or at dim 16 and 200,000 buckets,
# the model drops less of the eval split's junk at the same threshold rule, or fails to train (NaN).
PARAMS = {"epoch": 10, "lr": 0.5, "word_ngrams": 2, "dim": 32, "bucket": 500_000, "min_count": 2, "minn": 3, "maxn": 5,
          "seed": SEED, "quantize": True, "cutoff": 50_000}
GENERATED = ("gen_a", "gen_b", "gen_c", "gen_d")


def words(texts: pd.Series) -> np.ndarray:
    return texts.str.split().str.len().to_numpy()


def signals_view(df: pd.DataFrame, signals: dict[str, Any]) -> pd.DataFrame:
    """``df`` with the shipped signals model's ``quality_score`` and whether it ``passed`` each row."""
    x = np.stack(df["x"].to_numpy())
    return df.assign(quality_score=signals["model"].predict_proba(quality_model.inputs(x))[:, 1],
                     passed=~dropped(signals, x, df["page_type"].tolist()))


def judged(df: pd.DataFrame, wide_band: float | None) -> np.ndarray:
    """The rows of ``df`` (``signals_view``) the step would ask the text model about: passed by the signals model, not
    a skipped page type, and asked as the step's own ``TextQuality.asks`` decides (below ``BAND``, long enough; up to
    ``wide_band`` where the text is held to the general bar in a language written with spaces), so that the two
    cannot drift apart."""
    settings = {"band": BAND, "wide_band": wide_band, "min_words": MIN_WORDS, "short_from": SHORT_FROM,
                "links_from": LINKS_FROM}
    asks = np.array([TextQuality.asks(SimpleNamespace(quality_score=q, lang=lang if isinstance(lang, str) else None,
                                                      link_density=None if pd.isna(links) else links), n, settings)
                     for q, lang, links, n in zip(df["quality_score"], df["lang"], df["link_density"],
                                                  words(df["text"]), strict=True)], dtype=bool)
    return df["passed"].to_numpy() & asks & ~df["page_type"].isin(SKIP_PAGE_TYPES).to_numpy()


def family(df: pd.DataFrame) -> pd.Series:
    """A row's family as the step reports it: ``errors.squid`` -> ``errors``."""
    return df["family"].str.split(".").str[0]


def build(df: pd.DataFrame, output: Path, leave_out: str | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """Train the model on the train split (without the junk family ``leave_out``), write it to ``output`` and choose
    its threshold on the calib split; the settings to store beside it, and what ``train`` reported."""
    train_rows = df[df["split"] == "train"]
    good = train_rows[train_rows["label"] == 1]
    junk = train_rows[(train_rows["label"] == 0) & ~family(train_rows).isin(GENERATED)
                      & (family(train_rows) != leave_out)]
    fit = train([text_for_model(t) for t in good["text"]], [text_for_model(t) for t in junk["text"]], output,
                **PARAMS)
    trained_on = {"good": fit["positive"], "junk": fit["negative"],
                  "good_kinds": family(good).value_counts().to_dict(),
                  "junk_families": family(junk).value_counts().to_dict()}
    return {**thresholds(df, output), "trained_on": trained_on, "params": PARAMS}, fit


def thresholds(df: pd.DataFrame, output: Path) -> dict[str, Any]:
    """The step's settings for the model at ``output``, its band and thresholds chosen on the calib split of ``df``."""
    model = load_model(output.resolve())
    signals = quality_model.load(str(quality_model.DEFAULT_MODEL))
    calib = signals_view(df[df["split"] == "calib"].reset_index(drop=True), signals)
    calib["text_score"] = good_probability(model, [text_for_model(t) for t in calib["text"]])
    scan = [settle(calib, wide) for wide in WIDE_STEPS]
    wide_band = choose_wide_band(scan)
    asked = calib[judged(calib, wide_band)].copy()
    short, links, is_good = kinds(asked)
    threshold, spread = choose(asked.loc[is_good & ~links & ~short, "text_score"].to_numpy())
    links_threshold, links_spread = choose(asked.loc[is_good & links, "text_score"].to_numpy())
    short_threshold, short_spread = choose(asked.loc[is_good & short, "text_score"].to_numpy())
    dropped_here = pd.Series(below(asked, threshold, links_threshold, short_threshold), index=asked.index)
    junk_asked = asked[~is_good]
    by_family = {str(f): {"asked": len(part), "dropped": int(dropped_here[part.index].sum())}
                 for f, part in junk_asked.groupby(family(junk_asked))}
    settings = {
        "threshold": round(threshold, 6), "band": BAND, "wide_band": wide_band, "wide_scan": scan,
        "min_words": MIN_WORDS, "skip_page_types": SKIP_PAGE_TYPES,
        "links_from": LINKS_FROM, "links_threshold": round(links_threshold, 6),
        "short_from": SHORT_FROM, "short_threshold": round(short_threshold, 6),
        "threshold_source": (f"the {QUANTILE} quantile of the text model's scores of the calib split's "
                             f"{int((is_good & ~links & ~short).sum())} good pages the step judges (signals model "
                             f"below {BAND}, or below {wide_band} in a language written with spaces; {MIN_WORDS}+ "
                             f"words, not {', '.join(SKIP_PAGE_TYPES)}) whose link density is under {LINKS_FROM}; "
                             f"wide_band: chosen by wide_scan ({WIDE_RATIO} junk pieces more for each good page "
                             f"more); links_threshold: the same of the {int((is_good & links).sum())} "
                             f"at {LINKS_FROM} or more; short_threshold: the same of the {int((is_good & short).sum())}"
                             f" of {SHORT_FROM}-{MIN_WORDS - 1} words in a language written with spaces; "
                             "scripts/train_text_model.py"),
        "spread": spread, "links_spread": links_spread, "short_spread": short_spread,
        "calib": {"good_asked": int(is_good.sum()), "good_dropped": int(dropped_here[is_good].sum()),
                  "good_asked_links": int((is_good & links).sum()), "good_asked_short": int((is_good & short).sum()),
                  "junk_asked": by_family},
    }
    return settings


def kinds(asked: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which rows are short texts, which are links all through (text inputs have no link density: not links), and
    which are good pages."""
    short = words(asked["text"]) < MIN_WORDS
    links = (asked["link_density"].fillna(0.0) >= LINKS_FROM).to_numpy() & ~short
    return short, links, (asked["label"] == 1).to_numpy()


def below(asked: pd.DataFrame, general: float, links_bar: float, short_bar: float) -> np.ndarray:
    """Which rows of ``asked`` score under their bar: ``short_bar`` for a short text, ``links_bar`` for one that is
    links all through, ``general`` for the rest."""
    short, links, _ = kinds(asked)
    return (asked["text_score"] < np.select([short, links], [short_bar, links_bar], general)).to_numpy()


def settle(calib: pd.DataFrame, wide_band: float | None) -> dict[str, Any]:
    """What the step would do on ``calib`` (``signals_view`` with ``text_score``) with ``wide_band``, its general
    threshold chosen by the same rule: the calib good pages and junk pieces its bars drop."""
    asked = calib[judged(calib, wide_band)]
    short, links, is_good = kinds(asked)
    general, links_bar, short_bar = (float(np.quantile(asked.loc[is_good & part, "text_score"], QUANTILE))
                                     for part in (~links & ~short, links, short))
    dropped_here = below(asked, general, links_bar, short_bar)
    return {"wide_band": wide_band, "threshold": round(general, 6),
            "good_dropped": int((dropped_here & is_good).sum()), "junk_dropped": int((dropped_here & ~is_good).sum())}


def choose_wide_band(scan: list[dict[str, Any]]) -> float | None:
    """The widest of ``WIDE_STEPS`` reached by steps that each drop at least ``WIDE_RATIO`` calib junk pieces more
    for each calib good page more (None: no widening pays)."""
    chosen = scan[0]
    for step in scan[1:]:
        more_good = step["good_dropped"] - chosen["good_dropped"]
        more_junk = step["junk_dropped"] - chosen["junk_dropped"]
        if more_junk < WIDE_RATIO * max(more_good, 0) or (more_good <= 0 and more_junk <= 0):
            break
        chosen = step
    return chosen["wide_band"]


def choose(scores: np.ndarray) -> tuple[float, list[float]]:
    """The ``QUANTILE`` quantile of ``scores`` and its 10th-90th percentiles over ``BOOTSTRAP_DRAWS`` draws."""
    if not len(scores):
        raise ValueError("no calib good page to choose a text model threshold on")
    rng = np.random.default_rng(SEED)
    draws = [float(np.quantile(rng.choice(scores, len(scores)), QUANTILE)) for _ in range(BOOTSTRAP_DRAWS)]
    return float(np.quantile(scores, QUANTILE)), [round(float(v), 6) for v in np.quantile(draws, [0.1, 0.9])]


def dropped_share(output: Path, threshold: float, rows: pd.DataFrame) -> float:
    """The share of ``rows`` (50+ words) the model at ``output`` scores under ``threshold``: the model alone."""
    rows = rows[words(rows["text"]) >= MIN_WORDS]
    scores = np.asarray(good_probability(load_model(output.resolve()), [text_for_model(t) for t in rows["text"]]))
    return round(float(np.mean(scores < threshold)), 3) if len(rows) else float("nan")


def lofo(df: pd.DataFrame, full: Path, full_threshold: float) -> dict[str, dict[str, Any]]:
    """Leave one family out: for each real junk family the model learns from, the model retrained without it (its
    threshold chosen again), and the share of that family's eval pages of 50+ words each model alone drops."""
    out: dict[str, dict[str, Any]] = {}
    eval_junk = df[(df["split"] == "eval") & (df["label"] == 0)]
    learnt = df[(df["split"] == "train") & (df["label"] == 0) & ~family(df).isin(GENERATED)]
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(family(learnt).unique()):
            pages = eval_junk[family(eval_junk) == name]
            path = Path(tmp) / f"without-{name}.ftz"
            settings, _ = build(df, path, leave_out=name)
            out[name] = {"eval_pages": int((words(pages["text"]) >= MIN_WORDS).sum()),
                         "dropped_without": dropped_share(path, settings["threshold"], pages),
                         "threshold_without": settings["threshold"],
                         "dropped_with": dropped_share(full, full_threshold, pages)}
            print(name, out[name], file=sys.stderr)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--output", type=Path, default=DEFAULT_MODEL, help="the model (.ftz); its JSON goes beside it")
    parser.add_argument("--lofo", action="store_true", help="also the leave-one-family-out table (reads the eval "
                        "split's junk, only to measure)")
    parser.add_argument("--thresholds-only", action="store_true", help="keep the model at --output (and what its "
                        "JSON says it learnt from): only choose its thresholds again, on today's calib split")
    parser.add_argument("--json", type=Path, help="also write the report here")
    args = parser.parse_args()
    started = time.perf_counter()
    df = load(("train", "calib"), eval_junk=args.lofo)
    if args.thresholds_only:
        stored = json.loads(settings_path(args.output).read_text(encoding="utf-8"))
        settings = {**thresholds(df, args.output), "trained_on": stored["trained_on"], "params": stored["params"]}
        fit = {"bytes": args.output.stat().st_size}
    else:
        settings, fit = build(df, args.output)
    settings_path(args.output).write_text(json.dumps(settings, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    report = {**settings, "bytes": fit["bytes"]}
    if args.lofo:
        report["lofo"] = lofo(df, args.output, settings["threshold"])
    report["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report, indent=1, sort_keys=True))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
