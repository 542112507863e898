"""Which blocks are the page's main content: a gradient-boosted block classifier, or trafilatura's own choice.

The model (``extract/models/blocks.pkl``, rebuilt by ``scripts/train_extract_model.py``) is a scikit-learn
``HistGradientBoostingClassifier`` over extract/features.py's rows, trained in-project on the WCXB dev split
(Foley 2026, CC-BY-4.0: 1,497 real pages of seven types with human-reviewed main content); a block's label is
whether its words are in the page's ground truth. The threshold on its probability and every choice behind the
model were made by 5-fold cross-validation grouped by site on that split (the figures are in the README and
the script's report). WCXB's own test split was never used.

It is stored with pickle, scikit-learn's own persistence, because inference must be fast: scikit-learn's compiled
tree walk scores a stage of 200 trees over an article's 91 blocks (mean) in about 2 ms, one compiled call per tree;
a numpy walk of all 200 trees at once took 7.6 ms on 190 blocks and treelite's GTIL 5.7 ms against sklearn's 4.3 ms
(measured 2026-12-05, issue 28). The file records the scikit-learn version it was written with; another minor
version is refused with a clear error (pickled estimators are only guaranteed to load in the version that wrote
them). Load only model files you trust: a pickle can run code.

Two block models share the file (issue 28). The *quick* model reads the same features with trafilatura's verdict left
out (every ``kept`` column zero), so trafilatura's extraction, the largest single cost of a page, need not run; the
*full* model reads trafilatura's verdict. A page goes to the full model (and trafilatura runs) only where the quick
model is unsure: more than ``route["limit"]`` of the page's words lie in blocks whose quick probability is within
``route["band"]`` of its threshold, or it keeps nothing, or the page is in a script the models never saw. Band and
limit are chosen by the same grouped cross-validation as the thresholds: the fewest routed pages whose cascade F1 is
not below the full model's alone (the script's report has the whole grid).

``selector: trafilatura`` keeps the blocks trafilatura's own extraction kept, rendered by winnow: the
comparison point, and the choice when the model file is unwanted.
"""

from __future__ import annotations

import functools
import pickle
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from extract.features import FEATURE_NAMES, context_features
from extract.segment import Block

MODEL_PATH = Path(__file__).parent / "models" / "blocks.pkl"
MODEL_FORMAT = "winnow-blocks"
MODEL_FORMAT_VERSION = 2  # 2: the quick model and its routing rule (issue 28)
REBUILD_COMMAND = ".venv/bin/python scripts/train_extract_model.py"


class BlockModelError(RuntimeError):
    """The block model file is missing, unreadable or does not match this code."""


@dataclass
class BlockModel:
    estimator: Any  # a fitted sklearn HistGradientBoostingClassifier over FEATURE_NAMES
    threshold: float  # P(main content) at which a block is kept, chosen by grouped cross-validation
    trafilatura: dict[str, Any]  # the trafilatura settings whose verdicts the model was trained on (the kept feature)
    # the second stage (stacking): FEATURE_NAMES plus CONTEXT_NAMES, the first stage's probabilities around a block
    second: Any = None
    # a threshold per page type (extract/page_type.py's choice), each chosen by grouped cross-validation
    type_thresholds: dict[str, float] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)
    # the quick model (trafilatura's verdict left out; its own thresholds) and when a page goes past it to this one
    quick: BlockModel | None = None
    route: dict[str, float] = field(default_factory=dict)  # {"band": ..., "limit": ...}

    def threshold_for(self, page_type: str | None) -> float:
        return self.type_thresholds.get(page_type or "", self.threshold)

    def probabilities(self, features: np.ndarray, blocks: Sequence[Block]) -> np.ndarray:
        if len(features) == 0:
            return np.zeros(0)
        probs = self.estimator.predict_proba(features)[:, 1]
        if self.second is None:
            return probs
        return self.second.predict_proba(np.hstack((features, context_features(blocks, probs))))[:, 1]


def unsure_share(probs: np.ndarray, words: np.ndarray, threshold: float, band: float) -> float:
    """The share of the page's words in blocks whose probability lies within ``band`` of ``threshold``."""
    total = float(words.sum())
    if total <= 0:
        return 0.0
    return float(words[np.abs(probs - threshold) < band].sum()) / total


def block_words(blocks: Sequence[Block]) -> np.ndarray:
    return np.array([len(b.plain.split()) for b in blocks], dtype=np.float64)


def _stage(model: BlockModel) -> dict[str, Any]:
    return {"estimator": model.estimator, "second": model.second, "threshold": model.threshold,
            "type_thresholds": model.type_thresholds}


def save_model(model: BlockModel, path: Path = MODEL_PATH) -> None:
    import sklearn

    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {"format": MODEL_FORMAT, "format_version": MODEL_FORMAT_VERSION, "sklearn_version": sklearn.__version__,
           "feature_names": list(FEATURE_NAMES), "threshold": model.threshold, "trafilatura": model.trafilatura,
           "metadata": model.metadata, "estimator": model.estimator, "second": model.second,
           "type_thresholds": model.type_thresholds,
           "quick": _stage(model.quick) if model.quick is not None else None, "route": model.route}
    path.write_bytes(pickle.dumps(doc, protocol=5))


def _minor(version: str) -> tuple[str, ...]:
    return tuple(version.split(".")[:2])


def load_model(path: Path = MODEL_PATH) -> BlockModel:
    def fail(why: str) -> BlockModelError:
        return BlockModelError(f"block model {path}: {why}; rebuild it with `{REBUILD_COMMAND}` "
                               "(needs ../shared/data/wcxb/dev), or use `selector: trafilatura`")

    try:
        import sklearn
    except ImportError:
        raise fail("scikit-learn is not installed (`pip install scikit-learn~=1.9.1`)") from None
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise fail("missing") from None
    except OSError as exc:
        raise fail(f"unreadable ({exc})") from None
    # one OpenMP thread for the trees: extraction scores one page's blocks at a time in each process (parallelism
    # comes from processes), and on a busy machine OpenMP's spinning threads made one page's predict take seconds
    # instead of milliseconds (measured on the 2-core development machine under load); set for the process
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="openmp")
    try:
        doc = pickle.loads(data)
    except Exception as exc:  # a truncated or foreign file: any unpickling error means the same thing here
        raise fail(f"not a model file ({type(exc).__name__}: {exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != MODEL_FORMAT:
        raise fail("not a winnow block model")
    if doc.get("format_version") not in (1, MODEL_FORMAT_VERSION):  # 1: a full model alone (every page routed)
        raise fail(f"format version {doc.get('format_version')!r}, expected {MODEL_FORMAT_VERSION}")
    if _minor(str(doc.get("sklearn_version"))) != _minor(sklearn.__version__):
        raise fail(f"written by scikit-learn {doc.get('sklearn_version')}, this is {sklearn.__version__}")
    if tuple(doc.get("feature_names", ())) != FEATURE_NAMES:
        raise fail("its feature names differ from extract/features.py's FEATURE_NAMES")
    quick = None
    if doc.get("quick") is not None:
        q = doc["quick"]
        quick = BlockModel(q["estimator"], float(q["threshold"]), {}, q.get("second"),
                           {k: float(v) for k, v in q.get("type_thresholds", {}).items()})
    return BlockModel(doc["estimator"], float(doc["threshold"]), dict(doc["trafilatura"]), doc.get("second"),
                      {k: float(v) for k, v in doc.get("type_thresholds", {}).items()}, dict(doc["metadata"]),
                      quick, {k: float(v) for k, v in (doc.get("route") or {}).items()})


@functools.cache  # thread-safe; two threads' first calls may both read the file, harmlessly
def shipped_model(path: Path = MODEL_PATH) -> BlockModel:
    """The model at ``path``, read once per process."""
    return load_model(path)
