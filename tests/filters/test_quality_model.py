"""The signals quality model: the shipped model keeps prose and technical pages and drops junk of every class,
its threshold comes from the file, and `winnow quality train --signals` makes a model the step runs."""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path

import pytest

from filters.quality_model import DEFAULT_MODEL, QualityModel, load
from filters.signals import NAMES, compute
from filters.training.junk import GENERATORS, Vocabulary, generate
from pipelines.app.cli import main
from pipelines.records import Document
from pipelines.step import Drop
from tests.filters.golden import CLEAN, CLEAN_LINES
from tests.filters.test_parts import TUTORIAL

# Real page shapes: the expected extraction of the extract fixtures (a forum thread, a math article, a product
# page, a Sphinx tutorial with code and tables).
EXPECTED = Path(__file__).resolve().parents[1] / "extract" / "fixtures" / "expected"
GOOD = [p.read_text(encoding="utf-8") for p in sorted(EXPECTED.glob("*.md"))]
VOCAB = Vocabulary(sentences=CLEAN_LINES + [line for line in TUTORIAL.splitlines() if line.endswith(".")],
                   words=CLEAN.replace(".", "").split(),
                   spam=["casino", "bonus", "poker", "slots", "loans", "pills", "replica", "watches", "dating"])


def docs(texts: list[str], lang: str = "en") -> list[Document]:
    return [Document(id=str(i), url=None, source="t", text=t, lang=lang) for i, t in enumerate(texts)]


def test_signals_are_named_and_finite_where_defined() -> None:
    values = compute(TUTORIAL, "en")
    assert len(values) == len(NAMES) and values == compute(TUTORIAL, "en")
    named = dict(zip(NAMES, values, strict=True))
    assert 0 < named["stop_words"] < 1 and named["lorem_words"] < 0.05 and named["repeated_bigrams"] > 0
    no_list = dict(zip(NAMES, compute(TUTORIAL, "xx"), strict=True))
    assert no_list["stop_words"] != no_list["stop_words"]  # NaN: no stop list for the language, not zero


def test_shipped_model_keeps_good_pages_and_drops_generated_junk() -> None:
    step = QualityModel()
    step.bind()
    step.setup()
    bundle = load(str(DEFAULT_MODEL))
    assert step.threshold() == bundle["threshold"] and "calib split" in bundle["threshold_source"]
    assert step.threshold(words=10) == bundle["short_threshold"] and step.threshold(words=500) == bundle["threshold"]
    assert len(GOOD) == 4
    good = docs(GOOD)
    assert all(not isinstance(r, Drop) for r in step.process_batch(good)), [d.quality_score for d in good]
    junk = generate(VOCAB, per_class=3, seed=7)
    results = step.process_batch(docs([text for _, text in junk]))
    dropped = {cls: 0 for cls in GENERATORS}
    for (cls, _), result in zip(junk, results, strict=True):
        dropped[cls] += isinstance(result, Drop) and result.reason == "low_quality"
    # the junk of the training generator's families, from this tiny vocabulary: most of it
    assert sum(dropped.values()) >= 0.6 * len(junk), dropped


def test_min_score_overrides_the_stored_threshold() -> None:
    step = QualityModel(min_score=1.0)
    results = step.process_batch(docs([CLEAN]))
    assert isinstance(results[0], Drop) and results[0].reason == "low_quality"
    assert QualityModel(min_score=0.0).process_batch(docs([CLEAN]))[0].quality_score is not None


def test_a_page_is_judged_at_its_page_types_threshold() -> None:
    bundle = load(str(DEFAULT_MODEL))
    general, types = bundle["threshold"], bundle["type_thresholds"]
    # articles have a bar of their own, above the general one; no type's is below it
    assert types["article"] > general and all(t >= general for t in types.values())
    step = QualityModel()
    assert step.threshold(500, "article") == types["article"]
    assert step.threshold(500, None) == general == step.threshold(500, "no such type")
    assert step.threshold(10, "article") == bundle["short_threshold"]  # short texts: the short-text threshold
    assert QualityModel(by_page_type=False).threshold(500, "article") == general
    # the real page shapes, each as the page type it is, are kept
    shapes = dict(zip(["forum", "article", "product", "documentation"], GOOD, strict=True))
    pages = [Document(id=t, url=None, source="t", text=text, lang="en", page_type=t) for t, text in shapes.items()]
    results = step.process_batch(pages)
    assert all(not isinstance(r, Drop) for r in results), [(d.page_type, d.quality_score) for d in pages]


def test_a_page_just_under_its_types_threshold_is_dropped_with_both_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    import filters.quality_model as module

    step = QualityModel()
    score = step.process_batch(docs([CLEAN]))[0].quality_score
    bundle = load(str(DEFAULT_MODEL))
    patched = {**bundle, "type_thresholds": {**bundle["type_thresholds"], "article": min(1.0, score + 0.01)}}
    monkeypatch.setattr(module, "load", lambda path: patched)
    page = Document(id="a", url=None, source="t", text=CLEAN, lang="en", page_type="article")
    result = step.process_batch([page])[0]
    assert isinstance(result, Drop) and result.reason == "low_quality" and " < " in result.detail
    # the same text as a listing or as no page (a JSONL input) is judged at their thresholds, which it passes
    for page_type in ("listing", None):
        doc = Document(id="b", url=None, source="t", text=CLEAN, lang="en", page_type=page_type)
        assert step.process_batch([doc])[0] is doc


@pytest.mark.parametrize("kwargs", [{"min_score": 2}, {"min_score": "high"}, {"model": "/no/such/model.pkl"},
                                    {"kind": "image_text"}, {"by_page_type": "yes"}])
def test_bad_arguments_fail_at_construction(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        QualityModel(**kwargs)


def test_a_model_of_other_features_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "old.pkl"
    path.write_bytes(pickle.dumps({"model": None, "features": ["a", "b"], "threshold": 0.5}))
    with pytest.raises(ValueError, match="features differ"):
        QualityModel(model=str(path)).setup()


def test_a_missing_or_unreadable_model_file_is_a_clear_error_naming_it(tmp_path: Path) -> None:
    from filters.quality_model import load

    missing = tmp_path / "gone.pkl"
    with pytest.raises(FileNotFoundError, match=r"gone\.pkl"):
        load(str(missing))
    broken = tmp_path / "broken.pkl"
    broken.write_bytes(b"not a pickle at all")
    with pytest.raises(ValueError, match=r"broken\.pkl"):
        load(str(broken))


class StaleEstimator:
    """Unpickles as an estimator of another scikit-learn version does: with scikit-learn's version warning."""

    def __init__(self, version: str) -> None:
        self.version = version

    def __setstate__(self, state: dict) -> None:
        import warnings

        from sklearn.exceptions import InconsistentVersionWarning

        self.__dict__.update(state)
        warnings.warn(InconsistentVersionWarning(estimator_name="StaleEstimator", current_sklearn_version="9.9",
                                                 original_sklearn_version=state["version"]), stacklevel=1)


def test_a_model_written_by_another_scikit_learn_is_refused_naming_the_file(tmp_path: Path) -> None:
    import sklearn

    from filters.quality_model import FEATURES, load

    major, minor = (int(x) for x in sklearn.__version__.split(".")[:2])
    other = f"{major}.{minor + 1}.0"
    path = tmp_path / "newer.pkl"
    path.write_bytes(pickle.dumps({"model": None, "features": list(FEATURES), "threshold": 0.5,
                                   "sklearn_version": other}))
    with pytest.raises(ValueError, match=rf"newer\.pkl was written by scikit-learn {other}"):
        load(str(path))
    # an estimator pickled by another version: scikit-learn's own warning is turned into the same clear error
    stale = tmp_path / "stale.pkl"
    stale.write_bytes(pickle.dumps({"model": StaleEstimator(other), "features": list(FEATURES), "threshold": 0.5}))
    with pytest.raises(ValueError, match=rf"stale\.pkl was written by scikit-learn {other}"):
        load(str(stale))


def test_pages_with_no_prose_are_scored_without_crashing_and_kept_or_dropped_with_a_reason() -> None:
    step = QualityModel()
    step.bind()
    step.setup()
    code_only = "```python\nimport numpy as np\nx = np.linspace(0, 1, 50)\nprint(x.mean())\n```"
    table_only = "| year | value |\n|---|---|\n" + "\n".join(f"| {1990 + i} | {i * 3.5} |" for i in range(30))
    empty = ""
    results = step.process_batch(docs([code_only, table_only, empty]))
    assert len(results) == 3
    for result in results:
        if isinstance(result, Drop):
            assert result.reason == "low_quality" and result.detail
        else:
            assert result.quality_score is not None


@pytest.mark.slow  # one of the inner loop's slowest (scripts/test.sh --fast)
def test_train_signals_from_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(0)
    good, junk = tmp_path / "good.jsonl", tmp_path / "junk.jsonl"
    with good.open("w") as f:
        for i in range(60):
            lines = rng.sample(CLEAN_LINES, k=min(len(CLEAN_LINES), rng.randint(5, 9)))
            f.write(json.dumps({"id": f"g{i}", "text": "\n\n".join(lines)}) + "\n")
    with junk.open("w") as f:
        for i, (_, text) in enumerate(generate(VOCAB, per_class=9, seed=1)):
            f.write(json.dumps({"id": f"j{i}", "text": text}) + "\n")
    model = tmp_path / "mine.pkl"
    assert main(["quality", "train", "--signals", "--positive", str(good), "--negative", str(junk),
                 "-o", str(model), "--target-retention", "0.95"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["good"] == 60 and result["junk"] == 9 * len(GENERATORS) and model.is_file()
    assert result["good_kept"] >= 0.95
    step = QualityModel(model=str(model))
    step.setup()
    assert step.threshold() == result["threshold"]
    assert not isinstance(step.process_batch(docs([CLEAN]))[0], Drop)
    assert main(["quality", "train", "--signals", "--positive", str(good), "--negative", str(junk),
                 "-o", str(model), "--target-retention", "2"]) == 2


def _mattr_by_counter(content: list[str], window: int = 50) -> float:
    """The moving-average type-token ratio the slow way: a Counter slid over the words (the reference)."""
    from collections import Counter

    n = len(content)
    if n < 10:
        return float("nan")
    if n <= window:
        return len(set(content)) / n
    counts = Counter(content[:window])
    total = len(counts)
    for i in range(window, n):
        counts[content[i]] += 1
        old = content[i - window]
        counts[old] -= 1
        if not counts[old]:
            del counts[old]
        total += len(counts)
    return total / (n - window + 1) / window


def test_content_diversity_equals_the_sliding_counter():
    import math
    import random

    from filters.signals import _diversity

    rng = random.Random(5)
    for _ in range(400):
        vocab = [f"w{k}" for k in range(rng.randint(1, 120))]
        content = [rng.choice(vocab) for _ in range(rng.randint(0, 400))]
        window = rng.choice((3, 10, 50))
        want, got = _mattr_by_counter(content, window), _diversity(content, window)
        assert (math.isnan(want) and math.isnan(got)) or want == got, (len(content), window)


def test_the_shipped_model_loads_without_scikit_learn() -> None:
    """Its trees are ONNX graphs (pipelines/trees.py): a filter process does not import scikit-learn and SciPy."""
    import subprocess
    import sys

    code = ("import sys; from filters.quality_model import QualityModel; QualityModel().setup(); "
            "print(any(m.split('.')[0] in ('sklearn', 'scipy') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "False"


def test_a_zip_model_reads_back_as_written_and_a_damaged_one_is_a_clear_error(tmp_path: Path) -> None:
    import zipfile

    from filters.quality_model import save_bundle

    bundle = load(str(DEFAULT_MODEL))
    again = tmp_path / "again.zip"
    save_bundle({k: v for k, v in bundle.items() if k not in ("features", "sklearn_version")}, again)
    assert again.read_bytes() == DEFAULT_MODEL.read_bytes()
    damaged = tmp_path / "damaged.zip"
    with zipfile.ZipFile(DEFAULT_MODEL) as src, zipfile.ZipFile(damaged, "w") as dst:
        for name in src.namelist():
            dst.writestr(name, b"\x08\x07 not a graph" if name == "fold-1.onnx" else src.read(name))
    with pytest.raises(ValueError, match=r"damaged\.zip cannot be read"):
        load(str(damaged))
    not_zip = tmp_path / "plain.zip"
    not_zip.write_bytes(b"PK but no zip")
    with pytest.raises(ValueError, match=r"plain\.zip cannot be read \(BadZipFile"):
        load(str(not_zip))
