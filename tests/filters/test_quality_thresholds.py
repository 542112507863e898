"""How scripts/train_quality_model.py sets a page type's own threshold: sure of its retention (Clopper-Pearson), never
below the general one, and only where it drops no more real good calib pages than real junk ones."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np


def _script():  # scripts/ is not a package: load the file as a module
    path = Path(__file__).resolve().parents[2] / "scripts" / "train_quality_model.py"
    spec = importlib.util.spec_from_file_location("train_quality_model", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_a_sure_threshold_needs_pages_enough() -> None:
    script = _script()
    scores = np.linspace(0.0, 1.0, 205)
    # 205 pages at 97%: one page below is still sure enough, two are not
    assert script.sure_threshold(scores, 0.97) == scores[1]
    assert script.sure_threshold(np.linspace(0, 1, 18), 0.97) is None  # 18 pages cannot make anyone 95% sure
    assert script.sure_threshold(np.linspace(0, 1, 39), 0.90) == 0.0  # the lowest page, none below it


def test_a_types_threshold_is_stored_only_where_it_pays_for_itself() -> None:
    script = _script()
    rng = np.random.default_rng(0)
    general = 0.3
    # articles: 300 good pages score 0.5-1.0, 20 junk pages 0.32-0.45 read as articles; documentation: 300 good
    # pages, 20 of them in 0.32-0.4, no junk; forum: too few pages
    art = np.concatenate([rng.uniform(0.5, 1.0, 300), rng.uniform(0.32, 0.45, 20)])
    doc = np.concatenate([rng.uniform(0.32, 0.4, 20), rng.uniform(0.6, 1.0, 280)])
    forum = rng.uniform(0.5, 1.0, 10)
    scores = np.concatenate([art, doc, forum])
    good = np.concatenate([np.ones(300, bool), np.zeros(20, bool), np.ones(300, bool), np.ones(10, bool)])
    types = np.array(["article"] * 320 + ["documentation"] * 300 + ["forum"] * 10, dtype=object)
    long = np.ones(len(scores), bool)
    by_type, report = script.type_thresholds(scores, good, types, long, general)
    # above every junk page; the few lowest good articles the retention allows (3% of 300, sure) fall below it
    assert set(by_type) == {"article"} and by_type["article"] > 0.45
    article = report["article"]
    assert article["junk_gained_over_general"] == 20 and 0 < article["good_lost_over_general"] <= 9
    assert article["good_kept"] >= 0.97
    assert not report["documentation"]["kept"] and report["documentation"]["good_lost_over_general"] > 0
    assert "forum" not in report
    # short texts are not judged by type
    assert script.type_thresholds(scores, good, types, np.zeros(len(scores), bool), general) == ({}, {})
