"""Model-based quality decision over quality signals: ``QualityModel`` writes a calibrated
``quality_score`` (P(good content)) on every document and drops those below the model's threshold.

Where the fastText classifier (filters/quality.py, DCLM's format) judges vocabulary, and so topic and
language, this model judges how a text is made: the numbers of filters/signals.py (the Gopher, C4 and
FineWeb statistics, unthresholded, read on the prose; link density, placeholder Latin, consent and SEO
vocabulary, function-word order). A page of Python docs, a forum thread and a product description can
all score high; a link farm, a cookie wall or shuffled words score low, in any language jusText has a
stop list for.

The model: scikit-learn's HistGradientBoostingClassifier (missing signals are a branch of their own) inside
CalibratedClassifierCV (isotonic, 3 folds), so the score is a probability and a threshold means the same across
retrained models. It reads ``FEATURES``: the signals less the layout ones (``LAYOUT``, why beside it) plus lid.176's
score of the text's language. The shipped file is a zip of ``model.json`` (``features``, ``threshold``,
``short_threshold``, ``short_words``, ``type_thresholds``, ``threshold_source``, ``trained_on``, the scikit-learn
version that trained it, and each calibration fold's isotonic steps) and each fold's trees as an ONNX graph, scored
with onnxruntime (pipelines/trees.py: the same probabilities as scikit-learn's, within 1e-13, and no scikit-learn in
the run's processes). A model of your own may also be a pickle of the same dictionary with the estimator under
``"model"`` (what ``winnow quality train --signals`` writes unless its output ends in ``.zip``); scikit-learn's minor
version is pinned for those because a pickled estimator loads only in the minor that wrote it. A file from another
version, a missing file or one that cannot be read is a clear error naming it.

The default model (``model: default``, filters/models/quality-signals.zip) is made by scripts/train_quality_model.py
from real pages of every kind (WCXB's seven page types, documentation sites in nine languages, real prose in 75
languages), real non-content text and the junk of three generators; its thresholds are chosen on real pages held
apart (one for texts of ``SHORT_PROSE_WORDS`` words of prose or more, one for shorter texts), and the file says how.
Train one on your own labels: ``winnow quality train --signals`` (``train`` below), or keep using fastText models
(DCLM's drops in) with filters/quality.py.

``min_score``: ``default`` uses the thresholds stored in the model; a number overrides them (for texts of every
length and page type). ``by_page_type`` (default true): a page whose extraction gave it a page type
(extract/page_type.py) is judged at that type's stored threshold where the model has one, never below the general
one. Types score apart (on the calib split the lowest 3% of articles score about 0.46, of listings 0.34): one bar set
by listings lets through junk that reads as an article at a score no real article has. The model stores a type's
threshold only where the calib split has pages enough to be 95% sure it keeps 97% of them and the bar costs no more
real pages than it drops real junk there (article and collection today); other types, and a text without a page type
(a JSONL or Parquet input), are judged at the general threshold. Drop reason: ``low_quality`` (detail: score <
threshold). A text with no prose at all (a code listing, a table) is scored on what it has (its code share, its
length, lid.176's score) and kept or dropped as any other.
"""

from __future__ import annotations

import json
import pickle
import warnings
import zipfile
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from filters.signals import JUNK_WHEN_HIGH, NAMES, compute
from filters.text import TEXT_KINDS, check_kind, main_text
from pipelines.arguments import check_model, check_number
from pipelines.step import Drop, Step
from pipelines.trees import CalibratedTrees, calibrated_parts

ROOT = Path(__file__).resolve().parents[1]
# The matrix ``features`` computes: every signal, then lid.176's score of the text's language.
SIGNALS = (*NAMES, "lang_score")
# Signals of layout that the model does not read: how many lines are short, bulleted, punctuated or in title case, and
# the word count with code included. Each generator of junk lays its pages out its own way, and with these the model
# learned the layouts of its training generators: leaving them out raised the share of another generator's junk it
# drops at the same retention of real pages from 0.53 to 0.70 (bench/quality_corpus.py, development split). Measured
# again by leaving one generator out of training (scripts/train_quality_model.py --logo, the model alone at one
# threshold): with them the unseen generator's junk dropped was 0.48 against 0.41 for bench/junk_set.py and 0.45
# against 0.51 for bench/junk_eval.py, no gain either way. The rules and the records still have them.
LAYOUT = frozenset({"short_lines", "bullet_lines", "punctuated_lines", "title_case_lines", "log_words",
                    "ellipsis_lines"})
FEATURES = tuple(name for name in SIGNALS if name not in LAYOUT)
_INPUTS = [SIGNALS.index(name) for name in FEATURES]
# Texts with fewer words of prose than this are judged against a threshold of their own (a short page's signals are
# noisier, and short real pages, such as an API stub or a product's spec list, sit lower than long ones).
SHORT_PROSE_WORDS = 50
DEFAULT_MODEL = ROOT / "filters" / "models" / "quality-signals.zip"
TARGET_RETENTION = 0.98


def resolve(model: str) -> Path:
    return DEFAULT_MODEL if model == "default" else Path(model)


def _sklearn_minor(version: str) -> str:
    return ".".join(version.split(".")[:2])


@cache
def load(path: str) -> dict[str, Any]:
    """The model file, loaded once per process; a clear error naming the file when it is missing, unreadable,
    written by another scikit-learn minor (a pickled estimator loads only in the minor that wrote it), or made for
    other signals. A ``.zip`` (the shipped model's format) holds the trees as ONNX graphs and loads without
    scikit-learn; any other file is a pickle of scikit-learn's estimator (``winnow quality train --signals``)."""
    if not Path(path).is_file():
        raise FileNotFoundError(f"quality model {path} not found (the default ships in filters/models/; "
                                "scripts/train_quality_model.py rebuilds it)")
    bundle = _load_zip(path) if path.endswith(".zip") else _load_pickle(path)
    if bundle.get("features") != list(FEATURES):
        raise ValueError(f"{path} is not a winnow signals model for this version (features differ); retrain it")
    return bundle


def _load_zip(path: str) -> dict[str, Any]:
    """``model.json`` (the bundle less its model) and ``fold-<i>.onnx`` with each fold's isotonic steps: the
    calibrated trees, scored with onnxruntime (pipelines/trees.py). No scikit-learn in the filter processes: about
    130 MB less in each (issue 28's memory bound)."""
    try:
        with zipfile.ZipFile(path) as zf:
            bundle = json.loads(zf.read("model.json"))
            parts = [{**fold, "onnx": zf.read(fold.pop("file"))} for fold in bundle.pop("folds")]
        bundle["model"] = CalibratedTrees(parts)
    except Exception as exc:  # a damaged zip, member, JSON or graph: one clear error naming the file
        raise ValueError(f"quality model {path} cannot be read ({type(exc).__name__}: {exc}); retrain it") from None
    return bundle


def _load_pickle(path: str) -> dict[str, Any]:
    import sklearn
    from sklearn.exceptions import InconsistentVersionWarning

    try:
        with open(path, "rb") as f, warnings.catch_warnings():
            # scikit-learn warns, and may still load garbage, when the pickle comes from another version: refuse
            warnings.simplefilter("error", InconsistentVersionWarning)
            bundle = pickle.load(f)
    except InconsistentVersionWarning as w:
        raise ValueError(f"quality model {path} was written by scikit-learn {w.original_sklearn_version}, this is "
                         f"{sklearn.__version__}: retrain it with this version (a pickled estimator loads only in the "
                         "minor that wrote it)") from None
    except (pickle.UnpicklingError, EOFError, AttributeError, ModuleNotFoundError, ImportError, TypeError,
            ValueError) as exc:
        raise ValueError(f"quality model {path} cannot be read ({type(exc).__name__}: {exc}); retrain it") from None
    if not isinstance(bundle, dict) or "model" not in bundle:
        raise ValueError(f"{path} is not a winnow signals model")
    # one OpenMP thread for the trees, set for the process: the model scores a batch at a time in each process (the
    # parallelism comes from processes: a filter worker per core), and on a busy machine OpenMP's spinning threads
    # made a small predict take seconds instead of milliseconds (measured on the 2-core development machine, issue 12)
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="openmp")
    written = bundle.get("sklearn_version")
    if written and _sklearn_minor(written) != _sklearn_minor(sklearn.__version__):
        raise ValueError(f"quality model {path} was written by scikit-learn {written}, this is {sklearn.__version__}: "
                         "retrain it with this version")
    return bundle


def save_bundle(bundle: dict[str, Any], path: str | Path) -> None:
    """Write a model bundle (``model``, ``threshold``, ``threshold_source``, ``trained_on`` and whatever else the
    recipe records) with the signal names and the scikit-learn version that trained it: as a ``.zip`` of JSON and
    ONNX graphs where ``path`` ends so (needs the ``onnx`` package: the ``train`` extra), else as a pickle."""
    import sklearn

    out = {**bundle, "features": list(FEATURES), "sklearn_version": sklearn.__version__}
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(f"{path}.tmp")
    if str(path).endswith(".zip"):
        model = out.pop("model")
        parts = model.parts if isinstance(model, CalibratedTrees) else calibrated_parts(model)
        out["folds"] = [{"file": f"fold-{i}.onnx", "x": p["x"], "y": p["y"]} for i, p in enumerate(parts)]
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_STORED) as zf:
            zf.writestr(_member("model.json"), json.dumps(out, indent=1, sort_keys=True))
            for i, p in enumerate(parts):
                zf.writestr(_member(f"fold-{i}.onnx"), p["onnx"])
    else:
        with open(tmp, "wb") as f:
            pickle.dump(out, f, protocol=5)
    tmp.replace(path)


def _member(name: str) -> zipfile.ZipInfo:
    return zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))  # no clock in the bytes


def inputs(matrix: Any) -> Any:
    """The model's input columns (``FEATURES``) of a ``features`` matrix."""
    return matrix[:, _INPUTS]


def prose_words(matrix: Any) -> Any:
    """Words of prose of each row of a ``features`` matrix."""
    import numpy as np

    return np.rint(np.expm1(matrix[:, SIGNALS.index("log_prose_words")]))


def features(texts: list[str], langs: list[str | None], link_densities: list[float | None] | None = None,
             lang_scores: list[float | None] | None = None) -> Any:
    """Every signal (``SIGNALS``) of each text as one float64 matrix: the text's signals (filters/signals.py) and
    lid.176's score of its language (how much the text reads as a language at all: gibberish and mashed-up text score
    low, code-heavy pages in between); NaN where a value does not apply or is unknown."""
    import numpy as np

    n = len(texts)
    links = link_densities if link_densities is not None else [None] * n
    scores = lang_scores if lang_scores is not None else [None] * n
    return np.array([(*compute(t, lang, ld), np.nan if s is None else float(s))
                     for t, lang, ld, s in zip(texts, langs, links, scores, strict=True)], dtype=np.float64)


def limit(bundle: dict[str, Any], words: float | None, page_type: str | None = None) -> float:
    """A bundle's threshold for a text of ``words`` words of prose on a page of ``page_type`` (None: not a page, or
    not judged by type): the short-text threshold under ``short_words``; else the page type's where the bundle has
    one (``type_thresholds``, never below the general one), else the general one."""
    short = bundle.get("short_threshold")
    if short is not None and words is not None and words < bundle.get("short_words", SHORT_PROSE_WORDS):
        return float(short)
    general = float(bundle["threshold"])
    if page_type is None:
        return general
    return max(general, float(bundle.get("type_thresholds", {}).get(page_type, general)))


class QualityModel(Step):
    default_name = "quality_model"
    reads_text_memos = True  # filters/signals.py compute (pipelines/memo.py)

    def __init__(self, model: str = "default", min_score: float | str = "default", kind: str = "document",
                 by_page_type: bool = True) -> None:
        self.input_kind = check_kind(kind, TEXT_KINDS)
        if not isinstance(by_page_type, bool):
            raise ValueError(f"by_page_type must be true or false, got {by_page_type!r}")
        self.by_page_type = by_page_type
        check_model(model, "a signals model")
        if min_score != "default":
            check_number("min_score", min_score, 0, 1)
        self.model = model
        self.min_score = min_score

    def setup(self) -> None:
        load(str(resolve(self.model)))

    def threshold(self, words: float | None = None, page_type: str | None = None) -> float:
        """The score a text of ``words`` words of prose must reach: ``min_score`` when given, else the model's
        stored threshold (for short texts, its short-text threshold where it has one; for a page of a type the model
        has a threshold for, that one, with ``by_page_type``)."""
        if self.min_score != "default":
            return float(self.min_score)
        bundle = load(str(resolve(self.model)))
        return limit(bundle, words, page_type if self.by_page_type else None)

    def process_batch(self, records: list[Any]) -> list[Any]:
        if not records:
            return []
        bundle = load(str(resolve(self.model)))
        x = features([main_text(r) for r in records], [r.lang for r in records],
                     [getattr(r, "link_density", None) for r in records], [r.lang_score for r in records])
        scores = bundle["model"].predict_proba(inputs(x))[:, 1]
        out: list[Any] = []
        for record, s, words in zip(records, scores, prose_words(x), strict=True):
            record.quality_score = round(float(s), 4)
            limit = self.threshold(words, getattr(record, "page_type", None))
            out.append(Drop("low_quality", f"{s:.3f} < {limit:.3f}") if s < limit else record)
        return out


# -- training ---------------------------------------------------------------------------------------

def fit(x: Any, y: Any, seed: int = 0, sample_weight: Any = None) -> Any:
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.ensemble import HistGradientBoostingClassifier

    monotonic = [-1 if name in JUNK_WHEN_HIGH else 0 for name in FEATURES]
    # Chosen by leaving one junk generator out (train without bench/junk_set.py's or bench/junk_eval.py's pages, judge
    # on that generator's development pages; real non-content text beside it): slower learning over leaves of at least
    # 100 pages dropped 0.61 of the unseen generator's junk on average against 0.54 with the earlier 0.1 rate and
    # 20-page leaves, and 0.43 of WCXB's real non-content text against 0.39, at the same retention of real pages.
    # Leaves of few pages learn one generator's quirks.
    base = HistGradientBoostingClassifier(max_iter=400, learning_rate=0.05, max_leaf_nodes=15, min_samples_leaf=100,
                                          l2_regularization=1.0, random_state=seed, monotonic_cst=monotonic)
    return CalibratedClassifierCV(base, method="isotonic", cv=3).fit(x, y, sample_weight=sample_weight)


def choose_threshold(good_scores: Any, target: float = TARGET_RETENTION) -> float:
    """The highest threshold that keeps ``target`` of the good texts' (out-of-fold) scores."""
    import numpy as np

    return float(np.quantile(np.asarray(good_scores), 1 - target, method="lower"))


def train(positive: Iterable[tuple[Any, ...]], negative: Iterable[tuple[Any, ...]],
          output: str | Path, *, folds: int = 4, target: float = TARGET_RETENTION, seed: int = 0,
          trained_on: str = "") -> dict[str, Any]:
    """Train a signals model on ``(text, lang)`` or ``(text, lang, lang_score)`` tuples (language and score as
    ``filters.langid.detect_prose`` gives them); the threshold keeps ``target`` of the good texts.

    The threshold is read off out-of-fold scores (``folds``-fold, stratified): every text is scored by a
    model that did not see it, so the quantile rests on all the good texts, not on one held-out sample
    (one random quarter moved the threshold from 0.22 to 0.28). The model written is then fitted on
    everything, and the file records the out-of-fold retention and junk recall at that threshold.
    """
    import numpy as np
    from sklearn.model_selection import StratifiedKFold

    def full(row: tuple[Any, ...]) -> tuple[str, str | None, float | None]:
        return (row[0], row[1], row[2] if len(row) > 2 else None)

    pos = [full(r) for r in positive if r[0] and r[0].strip()]
    neg = [full(r) for r in negative if r[0] and r[0].strip()]
    if len(pos) < 20 or len(neg) < 20:
        raise ValueError(f"need at least 20 texts of each class, got {len(pos)} good and {len(neg)} junk")
    rows = [(*r, 1) for r in pos] + [(*r, 0) for r in neg]
    x = inputs(features([r[0] for r in rows], [r[1] for r in rows], None, [r[2] for r in rows]))
    y = np.array([r[3] for r in rows])
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
    bundle = {"model": final, "threshold": round(threshold, 4), "threshold_source": source, "trained_on": trained_on}
    save_bundle(bundle, output)
    return {"good": len(pos), "junk": len(neg), "threshold": bundle["threshold"], "good_kept": round(kept, 4),
            "junk_dropped": round(junk_dropped, 4), "brier": round(brier, 4), "output": str(output)}
