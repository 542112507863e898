"""Gradient-boosted trees written as ONNX and scored with onnxruntime (pipelines/trees.py, issue 28): the same scores as
scikit-learn's own walk, missing values and single-leaf trees included."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from sklearn.ensemble import HistGradientBoostingClassifier

from pipelines.trees import Trees, to_onnx


def _data(seed: int, n: int = 600) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 6))
    y = (x[:, 0] + 0.5 * x[:, 1] * x[:, 2] + rng.normal(scale=0.5, size=n) > 0).astype(int)
    x[rng.random(size=x.shape) < 0.1] = np.nan  # missing values: each split learns where they go
    x[:, 5] = np.round(x[:, 5])  # values exactly on a threshold: x <= threshold goes left, as in scikit-learn
    return x, y


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_onnx_trees_score_as_scikit_learn_does(seed: int) -> None:
    x, y = _data(seed)
    model = HistGradientBoostingClassifier(max_iter=60, max_leaf_nodes=15, random_state=seed).fit(x, y)
    trees = Trees(to_onnx(model))
    probe, _ = _data(seed + 10, 400)
    probe[:5] = np.nan  # rows with nothing known
    np.testing.assert_allclose(trees.raw(probe), model._raw_predict(probe).ravel(), rtol=0, atol=1e-12)
    np.testing.assert_allclose(trees.predict_proba(probe), model.predict_proba(probe), rtol=0, atol=1e-12)
    assert trees.predict_proba(probe[:0]).shape == (0, 2)


def test_a_tree_that_is_a_single_leaf_is_written_too() -> None:
    x, y = _data(3)
    x[:, :] = 1.0  # nothing to split on: every tree is its root leaf
    model = HistGradientBoostingClassifier(max_iter=5, random_state=0).fit(x, y)
    assert all(p.nodes["is_leaf"][0] for (p,) in model._predictors)
    np.testing.assert_allclose(Trees(to_onnx(model)).predict_proba(x[:10]), model.predict_proba(x[:10]), atol=1e-12)


def test_only_binary_classifiers_without_categorical_splits_are_written() -> None:
    x, y = _data(4)
    three = HistGradientBoostingClassifier(max_iter=5).fit(x, y + (x[:, 0] > 1))
    with pytest.raises(ValueError, match="binary"):
        to_onnx(three)
    cats = np.c_[np.nan_to_num(x[:, :2]), np.abs(np.nan_to_num(x[:, 2]) * 3).astype(int) % 4]
    categorical = HistGradientBoostingClassifier(max_iter=5, categorical_features=[2]).fit(cats, y)
    with pytest.raises(ValueError, match="categorical"):
        to_onnx(categorical)


def test_trees_cross_a_pickle_as_their_graph() -> None:
    x, y = _data(5)
    model = HistGradientBoostingClassifier(max_iter=20, random_state=0).fit(x, y)
    trees = Trees(to_onnx(model))
    again = pickle.loads(pickle.dumps(trees))
    np.testing.assert_array_equal(again.raw(x), trees.raw(x))


def test_calibrated_trees_give_scikit_learns_calibrated_probabilities() -> None:
    from sklearn.calibration import CalibratedClassifierCV

    from pipelines.trees import CalibratedTrees, calibrated_parts

    x, y = _data(6, 900)
    model = CalibratedClassifierCV(HistGradientBoostingClassifier(max_iter=40, random_state=0), method="isotonic",
                                   cv=3).fit(x, y)
    probe, _ = _data(16, 300)
    ours = CalibratedTrees(calibrated_parts(model)).predict_proba(probe)
    np.testing.assert_allclose(ours, model.predict_proba(probe), rtol=0, atol=1e-12)
    sigmoid = CalibratedClassifierCV(HistGradientBoostingClassifier(max_iter=5), method="sigmoid", cv=2).fit(x, y)
    with pytest.raises(ValueError, match="isotonic"):
        calibrated_parts(sigmoid)
