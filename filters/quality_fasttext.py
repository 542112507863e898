"""Model-based quality: a fastText classifier writes ``quality_score`` (the probability of the positive
label) on every document (or interleaved document) it sees, and drops those below ``min_score``.

Any fastText supervised model works. The label convention is DCLM's (Li et al. 2024, "DataComp-LM",
section 4.4: ``__label__hq`` for the positive class, ``__label__cc`` for random Common Crawl), so the
public DCLM classifier (``openlm-research/dclm-baseline-1.0-fasttext``, fastText, OH-2.5 + ELI5 vs
RefinedWeb) is a drop-in: ``model: /path/openhermes_reddit_eli5_vs_rw_v2_bigram_200k_train.bin``.
``positive_label`` names another positive label for models with other conventions.

The text the model sees is ``model_text``: whitespace-normalised to one line (fastText predicts one
line), the first ``MAX_CHARS`` characters. Training (``winnow quality train``) uses the same function.

The default model (``model: default``) ships with winnow; ``filters/training/fasttext_default.py`` says from
what data and how it was made and rebuilds it byte-identically. It is English-only, like DCLM's, so
``languages`` (default ``[en]``) limits scoring to documents labelled with those languages (run
``filters.langid.LanguageID`` first); other documents keep ``quality_score = null`` and are not
dropped. ``languages: null`` scores every document.

Training a model (``train``): fastText supervised, ``wordNgrams=2`` (DCLM's bigram model; with
``wordNgrams=1`` and no character n-grams fastText training fails at random with "Encountered NaN",
../shared/STACK-NOTES.md), inputs JSONL or Parquet with a ``text`` column.

Drop reason: ``low_quality`` (detail: the score) when ``quality_score < min_score``.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from filters.text import TEXT_KINDS, check_kind, main_text
from pipelines.arguments import check_model, check_number
from pipelines.step import Drop, Step

MAX_CHARS = 20_000
TRAIN_ATTEMPTS = 8
ROOT = Path(__file__).resolve().parents[1]
DEFAULT_MODEL = ROOT / "filters" / "models" / "quality-default.ftz"
POSITIVE, NEGATIVE = "hq", "cc"
LABEL_PREFIX = "__label__"

_MODELS: dict[str, Any] = {}
_LOCK = threading.Lock()


def model_text(text: str | None) -> str:
    """One line, single spaces, at most ``MAX_CHARS`` characters; lone surrogates replaced."""
    if not text:
        return ""
    line = " ".join(text.split())[:MAX_CHARS]
    return line.encode("utf-8", "replace").decode("utf-8")


def resolve_model(model: str) -> Path:
    return DEFAULT_MODEL if model == "default" else Path(model)


def load_model(model: str) -> Any:
    """A fastText model, loaded once per process."""
    path = str(resolve_model(model))
    with _LOCK:
        if path not in _MODELS:
            import fasttext

            if not os.path.isfile(path):
                raise FileNotFoundError(f"quality model {path} not found")
            _MODELS[path] = fasttext.load_model(path)
        return _MODELS[path]


def score(model: Any, texts: list[str], positive_label: str = POSITIVE) -> list[float]:
    """Probability of ``positive_label`` for each text (already ``model_text``-normalised); "" scores 0."""
    out = [0.0] * len(texts)
    todo = [i for i, t in enumerate(texts) if t]
    if not todo:
        return out
    target = LABEL_PREFIX + positive_label
    labels, probs = model.predict([texts[i] for i in todo], k=-1)
    for i, ls, ps in zip(todo, labels, probs, strict=True):
        for label, p in zip(ls, ps, strict=True):
            if label == target:
                out[i] = min(float(p), 1.0)
                break
    return out


class QualityClassifier(Step):
    default_name = "quality"

    def __init__(self, model: str = "default", kind: str = "document", min_score: float = 0.0,
                 positive_label: str = POSITIVE, languages: list[str] | None = ("en",)) -> None:
        self.input_kind = check_kind(kind, TEXT_KINDS)
        check_model(model, "a fastText model")
        if not isinstance(positive_label, str) or not positive_label or positive_label.startswith(LABEL_PREFIX):
            raise ValueError(f"positive_label must be a label without {LABEL_PREFIX!r}, got {positive_label!r}")
        if languages is not None and (isinstance(languages, str) or not all(isinstance(x, str) for x in languages)
                                      or not languages):
            raise ValueError(f"languages must be a non-empty list of language codes or null, got {languages!r}")
        self.model = model
        self.min_score = check_number("min_score", min_score, 0, 1)
        self.positive_label = positive_label
        self.languages = list(languages) if languages is not None else None

    def setup(self) -> None:
        model = load_model(self.model)
        labels = {label.removeprefix(LABEL_PREFIX) for label in model.get_labels()}
        if self.positive_label not in labels:
            raise ValueError(f"the quality model has no label {self.positive_label!r}; its labels: {sorted(labels)}")

    def process_batch(self, records: list[Any]) -> list[Any]:
        model = load_model(self.model)
        keep = set(self.languages) if self.languages is not None else None
        todo = [r for r in records if keep is None or r.lang in keep]
        scores = score(model, [model_text(main_text(r)) for r in todo], self.positive_label)
        for record, s in zip(todo, scores, strict=True):
            record.quality_score = s
        out: list[Any] = []
        for record in records:
            s = record.quality_score
            if s is not None and s < self.min_score:
                out.append(Drop("low_quality", f"{s:.3f}"))
            else:
                out.append(record)
        return out


# -- training ---------------------------------------------------------------------------------------

def read_texts(path: str | Path) -> Iterator[str]:
    """The ``text`` of every record of a JSONL (optionally compressed) or Parquet file, or a folder of them."""
    from pipelines.readers import expand_inputs
    from pipelines.readers.documents import iter_documents

    for file in expand_inputs([str(path)]):
        for doc in iter_documents(file):
            if doc.dropped_by is None and doc.text and doc.text.strip():
                yield doc.text


def train(positive: Iterable[str], negative: Iterable[str], output: str | Path, *, epoch: int = 5, lr: float = 0.1,
          word_ngrams: int = 2, dim: int = 100, bucket: int = 2_000_000, min_count: int = 1, minn: int = 0,
          maxn: int = 0, seed: int = 0, quantize: bool = False, cutoff: int = 100_000,
          positive_label: str = POSITIVE, negative_label: str = NEGATIVE) -> dict[str, Any]:
    """Train a fastText quality classifier on two collections of texts; returns counts and training-set scores.

    Examples are shuffled with ``seed`` and fastText runs with one thread, in a fresh child process, so
    the same inputs give the same model file. fastText 0.9.2 (fasttext-numpy2-wheel) fails with
    "Encountered NaN" at random on a second training in one process, and for some settings in any
    process (seen: ``dim=8`` with ``bucket=10000``; ``lr=0.5`` on small data), ``wordNgrams=2`` or not;
    a run that fails so is retried in a new process, up to ``TRAIN_ATTEMPTS`` times.
    ``quantize`` writes a compressed model (``.ftz``-style product quantisation; ``cutoff`` keeps that
    many words and n-grams).
    """
    if word_ngrams < 2 and not (minn and maxn):
        raise ValueError("word_ngrams must be >= 2, or minn/maxn set (fastText training with unigrams only "
                         "fails at random with NaN)")
    rows = [f"{LABEL_PREFIX}{positive_label} {t}" for t in map(model_text, positive) if t]
    n_pos = len(rows)
    rows += [f"{LABEL_PREFIX}{negative_label} {t}" for t in map(model_text, negative) if t]
    n_neg = len(rows) - n_pos
    if not n_pos or not n_neg:
        raise ValueError(f"need texts of both classes, got {n_pos} positive and {n_neg} negative")
    random.Random(seed).shuffle(rows)
    params = {"epoch": epoch, "lr": lr, "wordNgrams": word_ngrams, "dim": dim, "bucket": bucket,
              "minCount": min_count, "minn": minn, "maxn": maxn, "seed": seed}
    Path(output).parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "train.txt"
        data.write_text("\n".join(rows) + "\n", encoding="utf-8")
        job = json.dumps({"data": str(data), "output": str(output), "params": params, "quantize": quantize,
                          "cutoff": cutoff})
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        for _attempt in range(TRAIN_ATTEMPTS):
            done = subprocess.run([sys.executable, "-c",
                                   "import sys; from filters.quality_fasttext import _fit; _fit(sys.argv[1])", job],
                                  capture_output=True, text=True, env=env, check=False)
            if done.returncode == 0 or "Encountered NaN" not in done.stderr:
                break
        if done.returncode != 0:
            raise RuntimeError(f"fastText training failed: {done.stderr.strip()[-2000:]}")
        precision, recall = json.loads(done.stdout.strip().splitlines()[-1])
    return {"positive": n_pos, "negative": n_neg, "train_precision": round(precision, 4),
            "train_recall": round(recall, 4), "output": str(output), "bytes": os.path.getsize(output)}


def _fit(job_json: str) -> None:
    """Runs in the child process; prints ``[precision, recall]`` on the training set."""
    import fasttext

    job = json.loads(job_json)
    model = fasttext.train_supervised(input=job["data"], thread=1, verbose=0, **job["params"])
    if job["quantize"]:
        model.quantize(input=job["data"], retrain=True, qnorm=True, cutoff=job["cutoff"], thread=1, verbose=0)
    _n, precision, recall = model.test(job["data"])
    model.save_model(job["output"])
    print(json.dumps([precision, recall]))
