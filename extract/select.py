"""Which blocks are the page's main content: a gradient-boosted block classifier, or trafilatura's own choice.

The model (``extract/models/blocks.zip``, rebuilt by ``scripts/train_extract_model.py``) is a scikit-learn
``HistGradientBoostingClassifier`` over extract/features.py's rows, trained in-project on the WCXB dev split
(Foley 2026, CC-BY-4.0: 1,497 real pages of seven types with human-reviewed main content); a block's label is
whether its words are in the page's ground truth. The threshold on its probability and every choice behind the
model were made by 5-fold cross-validation grouped by site on that split (the figures are in the README and
the script's report). WCXB's own test split was never used.

The file is a zip of ``model.json`` (format, feature names, thresholds, routing rule, how the model was made) and
the trees of each stage as an ONNX graph, scored with onnxruntime (pipelines/trees.py: 3.9x faster than scikit-learn's
own walk on the e2e benchmark's pages, the same decisions, and no scikit-learn in the extraction processes). Being
data, not a pickle, it loads in any scikit-learn version and runs no code; a missing, damaged or foreign file, or
one of another format version, is a clear error naming it.

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
import json
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from extract.features import FEATURE_NAMES, context_features
from extract.segment import Block
from pipelines.trees import Trees, to_onnx

MODEL_PATH = Path(__file__).parent / "models" / "blocks.zip"
MODEL_FORMAT = "winnow-blocks"
MODEL_FORMAT_VERSION = 3  # 2: the quick model and its routing rule; 3: a zip of ONNX graphs (issue 28)
REBUILD_COMMAND = ".venv/bin/python scripts/train_extract_model.py"


class BlockModelError(RuntimeError):
    """The block model file is missing, unreadable or does not match this code."""


@dataclass
class BlockModel:
    # a fitted sklearn HistGradientBoostingClassifier over FEATURE_NAMES (training), or the same trees read from
    # the model file (pipelines/trees.py's Trees); either gives predict_proba
    estimator: Any
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


_STAGES = {"quick": "quick.onnx", "quick_second": "quick_second.onnx", "full": "full.onnx",
           "full_second": "full_second.onnx"}  # the trees of each stage, one ONNX graph each (pipelines/trees.py)


def _onnx(estimator: Any) -> bytes:
    return estimator.onnx_bytes if isinstance(estimator, Trees) else to_onnx(estimator)


def _thresholds(model: BlockModel) -> dict[str, Any]:
    return {"threshold": model.threshold, "type_thresholds": model.type_thresholds, "stage2": model.second is not None}


def _member(name: str) -> zipfile.ZipInfo:
    # no clock in the bytes: the same model gives the same file
    return zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))


def save_model(model: BlockModel, path: Path = MODEL_PATH) -> None:
    """Write ``model`` (scikit-learn estimators, as training leaves them, or trees read from a file) as a zip of
    ``model.json`` (thresholds, routing rule, settings, how it was made) and one ONNX graph per stage. Writing
    scikit-learn's trees as ONNX needs the ``onnx`` package (``pip install -e .[train]``)."""
    import sklearn

    doc = {"format": MODEL_FORMAT, "format_version": MODEL_FORMAT_VERSION, "feature_names": list(FEATURE_NAMES),
           "trained_with": {"scikit-learn": sklearn.__version__}, "trafilatura": model.trafilatura,
           "metadata": model.metadata, "route": model.route, "full": _thresholds(model),
           "quick": _thresholds(model.quick) if model.quick is not None else None}
    graphs = {"full": model.estimator, "full_second": model.second}
    if model.quick is not None:
        graphs.update(quick=model.quick.estimator, quick_second=model.quick.second)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    # stored, not deflated: the graphs are mostly float64 thresholds and leaf values, which barely compress, and
    # stored members read without a decompressor's copy
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr(_member("model.json"), json.dumps(doc, indent=1, sort_keys=True))
        for name, estimator in graphs.items():
            if estimator is not None:
                zf.writestr(_member(_STAGES[name]), _onnx(estimator))
    tmp.replace(path)


def load_model(path: Path = MODEL_PATH) -> BlockModel:
    def fail(why: str) -> BlockModelError:
        return BlockModelError(f"block model {path}: {why}; rebuild it with `{REBUILD_COMMAND}` "
                               "(needs ../shared/data/wcxb/dev), or use `selector: trafilatura`")

    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        raise fail("onnxruntime is not installed (`pip install onnxruntime~=1.32.0`)") from None
    try:
        with zipfile.ZipFile(path) as zf:
            doc = json.loads(zf.read("model.json"))
            graphs = {name: zf.read(member) for name, member in _STAGES.items() if member in zf.namelist()}
    except FileNotFoundError:
        raise fail("missing") from None
    except KeyError:
        raise fail("not a winnow block model (no model.json in it)") from None
    except (OSError, zipfile.BadZipFile, ValueError) as exc:  # unreadable, not a zip, truncated, bad JSON
        raise fail(f"unreadable ({type(exc).__name__}: {exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != MODEL_FORMAT:
        raise fail("not a winnow block model")
    if doc.get("format_version") != MODEL_FORMAT_VERSION:
        raise fail(f"format version {doc.get('format_version')!r}, expected {MODEL_FORMAT_VERSION}")
    if tuple(doc.get("feature_names", ())) != FEATURE_NAMES:
        raise fail("its feature names differ from extract/features.py's FEATURE_NAMES")

    def stage(name: str, settings: dict[str, Any], trafilatura: dict[str, Any], **more: Any) -> BlockModel:
        if name not in graphs or (settings.get("stage2") and f"{name}_second" not in graphs):
            raise fail(f"the {name} stage's trees are missing")
        try:
            first = Trees(graphs[name])
            second = Trees(graphs[f"{name}_second"]) if settings.get("stage2") else None
        except Exception as exc:  # onnxruntime refuses a damaged or foreign graph with its own exception types
            raise fail(f"the {name} stage's trees cannot be read ({type(exc).__name__}: {exc})") from None
        return BlockModel(first, float(settings["threshold"]), trafilatura, second,
                          {k: float(v) for k, v in settings.get("type_thresholds", {}).items()}, **more)

    quick = stage("quick", doc["quick"], {}) if doc.get("quick") else None
    return stage("full", doc["full"], dict(doc["trafilatura"]), metadata=dict(doc["metadata"]), quick=quick,
                 route={k: float(v) for k, v in (doc.get("route") or {}).items()})


@functools.cache  # thread-safe; two threads' first calls may both read the file, harmlessly
def shipped_model(path: Path = MODEL_PATH) -> BlockModel:
    """The model at ``path``, read once per process."""
    return load_model(path)
