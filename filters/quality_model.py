"""Model-based quality decision over quality signals: ``QualityModel`` writes a calibrated
``quality_score`` (P(good content)) on every document and drops those below the model's threshold.

Where the fastText classifier (filters/quality.py, DCLM's format) judges vocabulary, and so topic and
language, this model judges how a text is made: the numbers of filters/signals.py (the Gopher, C4 and
FineWeb statistics, unthresholded, read on the prose; link density, placeholder Latin, consent and SEO
vocabulary, function-word order). A page of Python docs, a forum thread and a product description can
all score high; a link farm, a cookie wall or shuffled words score low, in any language jusText has a
stop list for.

The model: scikit-learn's HistGradientBoostingClassifier (missing signals are a branch of their own)
inside CalibratedClassifierCV (isotonic, 3 folds), so the score is a probability and a threshold means
the same across retrained models. The file is a pickle of ``{"model", "features", "threshold",
"threshold_source", "trained_on"}``; scikit-learn's minor version is pinned because a pickled estimator
loads only in the minor that wrote it. The default model (``model: default``) and how it is made:
filters/quality_model_default.py. Train one on your own labels: ``winnow quality train --signals``
(``train`` below), or keep using fastText models (DCLM's drops in) with filters/quality.py.

``min_score``: ``default`` uses the threshold stored in the model, chosen when it was trained (the file
says on what and how); a number overrides it. Drop reason: ``low_quality`` (detail: the score).
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from filters.signals import JUNK_WHEN_HIGH, NAMES, compute
from filters.text import TEXT_KINDS, check_kind, check_number, main_text
from pipelines.step import Drop, Step

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_MODEL = ROOT / "filters" / "models" / "quality-signals.pkl"
TARGET_RETENTION = 0.98


def resolve(model: str) -> Path:
    return DEFAULT_MODEL if model == "default" else Path(model)


@cache
def load(path: str) -> dict[str, Any]:
    """The model file, loaded once per process."""
    with open(path, "rb") as f:
        bundle = pickle.load(f)
    if not isinstance(bundle, dict) or "model" not in bundle or bundle.get("features") != list(NAMES):
        raise ValueError(f"{path} is not a winnow signals model for this version (features differ); retrain it")
    return bundle


def features(texts: list[str], langs: list[str | None]) -> Any:
    import numpy as np

    return np.array([compute(t, lang) for t, lang in zip(texts, langs, strict=True)], dtype=np.float64)


class QualityModel(Step):
    default_name = "quality_model"

    def __init__(self, model: str = "default", min_score: float | str = "default", kind: str = "document") -> None:
        self.input_kind = check_kind(kind, TEXT_KINDS)
        if not isinstance(model, str) or not model:
            raise ValueError(f"model must be 'default' or the path of a signals model, got {model!r}")
        if model != "default" and not Path(model).is_file():
            raise ValueError(f"model {model!r} is not a file")
        if min_score != "default":
            check_number("min_score", min_score, 0, 1)
        self.model = model
        self.min_score = min_score

    def setup(self) -> None:
        load(str(resolve(self.model)))

    def threshold(self) -> float:
        if self.min_score == "default":
            return float(load(str(resolve(self.model)))["threshold"])
        return float(self.min_score)

    def process_batch(self, records: list[Any]) -> list[Any]:
        if not records:
            return []
        bundle = load(str(resolve(self.model)))
        scores = bundle["model"].predict_proba(features([main_text(r) for r in records],
                                                        [r.lang for r in records]))[:, 1]
        threshold = self.threshold()
        out: list[Any] = []
        for record, s in zip(records, scores, strict=True):
            record.quality_score = round(float(s), 4)
            out.append(Drop("low_quality", f"{s:.3f}") if s < threshold else record)
        return out


# -- training ---------------------------------------------------------------------------------------

def fit(x: Any, y: Any, seed: int = 0) -> Any:
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.ensemble import HistGradientBoostingClassifier

    monotonic = [-1 if name in JUNK_WHEN_HIGH else 0 for name in NAMES]
    base = HistGradientBoostingClassifier(max_iter=200, learning_rate=0.1, max_leaf_nodes=15,
                                          l2_regularization=1.0, random_state=seed, monotonic_cst=monotonic)
    return CalibratedClassifierCV(base, method="isotonic", cv=3).fit(x, y)


def choose_threshold(good_scores: Any, target: float = TARGET_RETENTION) -> float:
    """The highest threshold that keeps ``target`` of the good texts' (out-of-fold) scores."""
    import numpy as np

    return float(np.quantile(np.asarray(good_scores), 1 - target, method="lower"))


def train(positive: Iterable[tuple[str, str | None]], negative: Iterable[tuple[str, str | None]],
          output: str | Path, *, folds: int = 4, target: float = TARGET_RETENTION, seed: int = 0,
          trained_on: str = "") -> dict[str, Any]:
    """Train a signals model on ``(text, lang)`` pairs; the threshold keeps ``target`` of the good texts.

    The threshold is read off out-of-fold scores (``folds``-fold, stratified): every text is scored by a
    model that did not see it, so the quantile rests on all the good texts, not on one held-out sample
    (one random quarter moved the threshold from 0.22 to 0.28). The model written is then fitted on
    everything, and the file records the out-of-fold retention and junk recall at that threshold.
    """
    import numpy as np
    from sklearn.model_selection import StratifiedKFold

    pos = [(t, lang) for t, lang in positive if t and t.strip()]
    neg = [(t, lang) for t, lang in negative if t and t.strip()]
    if len(pos) < 20 or len(neg) < 20:
        raise ValueError(f"need at least 20 texts of each class, got {len(pos)} good and {len(neg)} junk")
    rows = [(t, lang, 1) for t, lang in pos] + [(t, lang, 0) for t, lang in neg]
    x = features([r[0] for r in rows], [r[1] for r in rows])
    y = np.array([r[2] for r in rows])
    scores = np.zeros(len(y))
    for train_idx, test_idx in StratifiedKFold(folds, shuffle=True, random_state=seed).split(x, y):
        scores[test_idx] = fit(x[train_idx], y[train_idx], seed).predict_proba(x[test_idx])[:, 1]
    threshold = choose_threshold(scores[y == 1], target)
    kept = float((scores[y == 1] >= threshold).mean())
    junk_dropped = float((scores[y == 0] < threshold).mean())
    brier = float(np.mean((scores - y) ** 2))  # calibration and sharpness in one number: 0 is perfect
    source = (f"keeps {kept:.3f} of the good texts (target {target}) and drops {junk_dropped:.3f} of the junk, "
              f"out-of-fold ({folds} folds; {len(pos)} good, {len(neg)} junk; Brier score {brier:.3f})")
    final = fit(x, y, seed)
    bundle = {"model": final, "features": list(NAMES), "threshold": round(threshold, 4),
              "threshold_source": source, "trained_on": trained_on}
    Path(output).parent.mkdir(parents=True, exist_ok=True)
    with open(output, "wb") as f:
        pickle.dump(bundle, f, protocol=5)
    return {"good": len(pos), "junk": len(neg), "threshold": bundle["threshold"], "good_kept": round(kept, 4),
            "junk_dropped": round(junk_dropped, 4), "brier": round(brier, 4), "output": str(output)}
