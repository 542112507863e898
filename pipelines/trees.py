"""Gradient-boosted trees as ONNX graphs: written from a fitted scikit-learn model at training time, scored with
onnxruntime at run time.

Why (issue 28). Extraction scores every page's blocks with two stages of 200 trees. scikit-learn walks its trees
one compiled call per tree, with Python between them: on the e2e benchmark's pages that was 7.3 ms of a page's
45 ms. onnxruntime's ``TreeEnsembleRegressor`` walks all the trees of a stage in one call: 1.9 ms per page on the
same 429 pages' blocks (measured side by side, 2026-12-05, with identical decisions). And an extraction process
that reads its model through onnxruntime imports neither scikit-learn nor SciPy: about 31 MB resident for
onnxruntime against 166 MB for ``sklearn.ensemble``, in every extraction worker. Two other compiled walks were
measured before and not taken: a numpy walk of all trees at once (7.6 ms on 190 blocks) and treelite's GTIL
(5.7 ms against scikit-learn's 4.3).

Why this module writes the graph itself: skl2onnx 1.20, the converter of record, fails on
``HistGradientBoostingClassifier`` beside protobuf 7 (which Ray's stack installs here): it writes a Python bool
into an integer attribute for every leaf, and protobuf 7 refuses it. The graph is small and its format is ONNX's
own (``ai.onnx.ml`` ``TreeEnsembleRegressor``, operator set 3): one node, the thresholds and leaf values as double
tensors, so the walk compares the same float64 values scikit-learn compares (``x <= threshold`` goes left; a
missing value goes where the tree learnt to send it) and the raw score is their sum plus the model's baseline.
The probability is the logistic of that score, computed here in float64 as scikit-learn does.

Writing needs the ``onnx`` package (the ``train`` extra); scoring needs only ``onnxruntime``.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

OPSET_ML = 5  # ai.onnx.ml's TreeEnsemble: thresholds, leaf values and the output in the input's type (double)
OPSET = 21
_INPUT = "X"
_LEQ = 0  # TreeEnsemble's nodes_modes: BRANCH_LEQ


def to_onnx(estimator: Any) -> bytes:
    """A fitted binary ``HistGradientBoostingClassifier`` as ONNX bytes: input ``X`` (float64, n x features),
    output ``raw``, the log-odds (float64, n x 1) before the logistic."""
    try:
        from onnx import TensorProto, helper
    except ImportError:
        raise ImportError("writing trees as ONNX needs the onnx package: pip install -e '.[train]'") from None
    predictors = getattr(estimator, "_predictors", None)
    if predictors is None or getattr(estimator, "n_trees_per_iteration_", 1) != 1:
        raise ValueError("only a fitted binary HistGradientBoostingClassifier can be written as ONNX trees")
    if getattr(estimator, "_preprocessor", None) is not None:
        raise ValueError("categorical features are not supported by pipelines/trees.py")
    split = {key: [] for key in ("featureids", "splits", "truenodeids", "trueleafs", "falsenodeids", "falseleafs",
                                 "missing")}
    roots: list[int] = []
    leaf_weights: list[float] = []

    def add_split(feature: int, threshold: float, missing_left: int) -> int:
        split["featureids"].append(feature)
        split["splits"].append(threshold)
        split["missing"].append(missing_left)
        for key in ("truenodeids", "trueleafs", "falsenodeids", "falseleafs"):
            split[key].append(0)
        return len(split["splits"]) - 1

    for (predictor,) in predictors:
        nodes = predictor.nodes
        if nodes["is_categorical"].any():
            raise ValueError("categorical splits are not supported by pipelines/trees.py")
        where: dict[int, tuple[bool, int]] = {}  # a scikit-learn node -> (is a leaf, its index in splits or leaves)
        for i, node in enumerate(nodes):
            if node["is_leaf"]:
                leaf_weights.append(float(node["value"]))
                where[i] = (True, len(leaf_weights) - 1)
            else:  # x <= threshold goes to scikit-learn's left child; a missing value where the tree learnt to send it
                where[i] = (False, add_split(int(node["feature_idx"]), float(node["num_threshold"]),
                                             int(node["missing_go_to_left"])))
        if where[0][0]:  # a tree that is a single leaf: the format wants a split at the root, both ways to the leaf
            root = add_split(0, 0.0, 0)
            split["trueleafs"][root] = split["falseleafs"][root] = 1
            split["truenodeids"][root] = split["falsenodeids"][root] = where[0][1]
            roots.append(root)
            continue
        roots.append(where[0][1])
        for i, node in enumerate(nodes):
            if node["is_leaf"]:
                continue
            k = where[i][1]
            for side, child in (("true", int(node["left"])), ("false", int(node["right"]))):
                is_leaf, index = where[child]
                split[f"{side}leafs"][k] = int(is_leaf)
                split[f"{side}nodeids"][k] = index
    n = len(split["splits"])
    trees = helper.make_node(
        "TreeEnsemble", [_INPUT], ["sum"], domain="ai.onnx.ml", n_targets=1, aggregate_function=1, post_transform=0,
        tree_roots=roots, nodes_featureids=split["featureids"],
        nodes_modes=helper.make_tensor("modes", TensorProto.UINT8, [n], [_LEQ] * n),
        nodes_splits=helper.make_tensor("splits", TensorProto.DOUBLE, [n], split["splits"]),
        nodes_truenodeids=split["truenodeids"], nodes_trueleafs=split["trueleafs"],
        nodes_falsenodeids=split["falsenodeids"], nodes_falseleafs=split["falseleafs"],
        nodes_missing_value_tracks_true=split["missing"], leaf_targetids=[0] * len(leaf_weights),
        leaf_weights=helper.make_tensor("leaves", TensorProto.DOUBLE, [len(leaf_weights)], leaf_weights))
    start = float(np.ravel(estimator._baseline_prediction)[0])  # the log-odds before any tree
    baseline = helper.make_tensor("baseline", TensorProto.DOUBLE, [1], [start])
    graph = helper.make_graph(
        [trees, helper.make_node("Add", ["sum", "baseline"], ["raw"])], "winnow_trees",
        [helper.make_tensor_value_info(_INPUT, TensorProto.DOUBLE, [None, int(estimator.n_features_in_)])],
        [helper.make_tensor_value_info("raw", TensorProto.DOUBLE, [None, 1])], initializer=[baseline])
    model = helper.make_model(graph, producer_name="winnow", opset_imports=[
        helper.make_opsetid("", OPSET), helper.make_opsetid("ai.onnx.ml", OPSET_ML)])
    return model.SerializeToString()


class Trees:
    """ONNX trees written by ``to_onnx``, scored with onnxruntime: ``predict_proba`` as scikit-learn's binary
    classifier gives it (an n x 2 array), so the block model holds either kind of estimator."""

    def __init__(self, onnx_bytes: bytes) -> None:
        self.onnx_bytes = onnx_bytes
        self._session: Any = None
        self._lock = threading.Lock()
        self._session_now()  # a broken file is an error when the model is read, not on the first page

    def _session_now(self) -> Any:
        with self._lock:
            if self._session is None:
                import onnxruntime as ort

                options = ort.SessionOptions()
                # one thread: extraction scores one page's blocks per call and gets its parallelism from processes
                # (one per core); more threads per process would only contend with the other workers
                options.intra_op_num_threads = 1
                options.inter_op_num_threads = 1
                options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
                options.log_severity_level = 3  # errors only: a session prints warnings on stderr otherwise
                self._session = ort.InferenceSession(self.onnx_bytes, options, providers=["CPUExecutionProvider"])
            return self._session

    def raw(self, features: np.ndarray) -> np.ndarray:
        """The log-odds of each row."""
        x = np.ascontiguousarray(features, dtype=np.float64)
        if len(x) == 0:
            return np.zeros(0)
        (out,) = self._session_now().run(None, {_INPUT: x})
        return np.asarray(out, dtype=np.float64).reshape(-1)

    def predict_proba(self, features: np.ndarray) -> np.ndarray:
        p = 1.0 / (1.0 + np.exp(-self.raw(features)))
        return np.column_stack((1.0 - p, p))

    def __getstate__(self) -> dict[str, Any]:  # a session cannot be pickled; its bytes can
        return {"onnx_bytes": self.onnx_bytes}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["onnx_bytes"])


def calibrated_parts(model: Any) -> list[dict[str, Any]]:
    """A fitted binary ``CalibratedClassifierCV`` (isotonic, over ``HistGradientBoostingClassifier``) as data: for
    each fold its trees (``onnx``, bytes) and its isotonic steps (``x``, ``y``: the calibrator's thresholds)."""
    parts = []
    for fold in getattr(model, "calibrated_classifiers_", None) or ():
        (calibrator,) = fold.calibrators
        if type(calibrator).__name__ != "IsotonicRegression" or calibrator.out_of_bounds != "clip":
            raise ValueError("only isotonic calibration (out_of_bounds='clip') is supported by pipelines/trees.py")
        parts.append({"onnx": to_onnx(fold.estimator), "x": [float(v) for v in calibrator.X_thresholds_],
                      "y": [float(v) for v in calibrator.y_thresholds_]})
    if not parts:
        raise ValueError("not a fitted CalibratedClassifierCV")
    return parts


class CalibratedTrees:
    """``calibrated_parts`` read back: ``predict_proba`` as scikit-learn's ``CalibratedClassifierCV`` gives it (each
    fold's log-odds through its isotonic steps, clipped to [0, 1], the folds' mean), without scikit-learn."""

    def __init__(self, parts: list[dict[str, Any]]) -> None:
        self.parts = parts
        self.folds = [(Trees(p["onnx"]), np.asarray(p["x"], dtype=np.float64), np.asarray(p["y"], dtype=np.float64))
                      for p in parts]

    def predict_proba(self, features: np.ndarray) -> np.ndarray:
        x = np.ascontiguousarray(features, dtype=np.float64)
        p = np.zeros(len(x))
        for trees, xs, ys in self.folds:
            # np.interp holds the end values outside [xs[0], xs[-1]]: isotonic regression's out_of_bounds="clip"
            p += np.clip(np.interp(trees.raw(x), xs, ys), 0.0, 1.0)
        p /= len(self.folds)
        return np.column_stack((1.0 - p, p))
