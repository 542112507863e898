"""A second opinion on the words: where the signals model (filters/quality_model.py) passed a document but found it
more likely junk than not, a fastText model of the text's words decides.

Why: the signals model judges how a text is made (stop words, repetition, link share, line shapes), not what it says.
Real non-content text is made as prose is made: "Sign up for our newsletter", "All rights reserved", "Posted in
News, 12 comments", an author box, a list of related headlines. Those pages pass its bar at scores of 0.36-0.5, beside
the good pages it must keep there (API stubs, short product pages, listings). Their words give them away: a fastText
classifier (Joulin et al. 2017; DCLM's quality filter, Li et al. 2024, section 4.4, is one) trained on real good pages
against real junk, and asked only about those pages, drops more of every junk family for no good page more
(docs/quality-figures.md, "The text model").

The decision, per document that reached this step (put it after ``QualityModel``, whose ``quality_score`` it reads):

- judged only when ``quality_score < band`` (stored with the model: 0.5, the calibrated probability at which junk is
  as likely as good), the text has ``min_words`` whitespace-separated words or more (50, Gopher's minimum document
  length; fastText reads too little below it, and a text in Chinese or Japanese, written without spaces, counts few
  words and is left alone), and its page type is not one of ``skip_page_types`` (product, collection, listing: their
  text is names, prices and links by nature, the vocabulary of page furniture; on the calib split they are 11% of the
  good pages in the band and 3 of its 8 lowest-scoring ones);
- dropped (``low_quality``, detail: both scores) when the text model's P(good), ``text_quality_score``, is under
  ``threshold``, chosen on real pages held apart (the calib split of bench/quality_corpus.py): the 2nd percentile of
  the scores of the good pages it would judge. The spread of that choice over bootstrap draws is stored beside it.
- a text that is links all through (its page's ``link_density`` at least ``links_from``: 0.8, extraction's own bar
  for furniture that is links all through, extract/core.py ``FURNITURE_LINKS``) is held to ``links_threshold``
  instead, chosen the same way on the calib good pages of that kind. A list of links reads as navigation to a model of
  words whether it is a site's menu or a documentation page's table of contents; where a theme's sidebar came out as
  the page's text (SymPy's index pages, Sphinx's Furo theme), 8 of the 10 calib good pages the model scored lowest
  were such, and one bar for both set it at 0.0057 for every page. Apart, the bar for the rest is ten times higher
  (docs/quality-figures.md, "Texts that are links all through"). Optional: a JSON without both keys gives one bar.
- a short text, ``short_from`` (10) words or more but under ``min_words``, is judged too, against ``short_threshold``,
  chosen the same way on the calib good pages of that length, whatever their link share; only in a language written
  with spaces between words (``UNSPACED`` lists those written without), where a count of words measures how much
  there is to read. Why: a short error page, a footer or a menu is as plain to a model of words as a long one (Squid's
  and Apache's error pages in languages none was learnt in score 0.00001-0.2), and 50 words had been the floor only
  because GIMP's Japanese pages of 20-30 "words" (mostly the English names of menu items between unbroken Japanese)
  score 0.00001 (docs/quality-figures.md, "Short texts"). Under ten words a text is a heading and a line (on calib,
  5 of the 8 texts in the band that short are good pages, mostly API stubs); nothing is judged there. Optional: a JSON
  without both keys judges no short text.
- a text held to ``threshold`` (``min_words`` or more, not links all through) in a language written with spaces is
  judged up to ``wide_band`` (0.7), not only below ``band``: the signals model passes much furniture that is prose at
  0.5-0.7 (privacy and cookie policies, terms, author boxes, teasers), and a model of words reads it as furniture.
  ``threshold`` is then chosen over every page it judges, the wide band's too. ``wide_band`` is chosen on calib
  (scripts/train_text_model.py, ``wide_scan`` in the JSON): widened in steps of 0.05 while each step drops at least 5
  calib junk pieces more for each calib good page more; 0.7 -> 0.75 dropped 2 more for 1. Short texts, texts that are
  links all through, and languages written without spaces keep the band: their bars rest on 84, 10 and 2 calib good
  pages, too few to hold a wider one (docs/quality-figures.md, "A wider band where words are spaced"). Optional: a
  JSON without it asks below ``band`` only.

The model (``model: default``: filters/models/quality-text.ftz, 1.7 MB, with quality-text.json beside it) is made by
scripts/train_text_model.py from real text only: the train split's good pages (WCXB's seven page types, documentation
sites in nine languages, prose in 75 languages) against its real junk (WCXB's non-content text, documentation index
pages, the error pages of Apache httpd and Squid). No generator's junk is in it, so every generated family measures
it on junk of a making it never saw. The JSON records the thresholds, how they were chosen and the training data.
A model of your own: any fastText model with ``__label__hq`` for good text (``winnow quality train``) and a JSON beside
it, or the same keys given as arguments.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

from filters.quality_fasttext import LABEL_PREFIX, POSITIVE, model_text
from filters.text import check_kind, main_text
from pipelines.arguments import check_model, check_number
from pipelines.step import Drop, Step

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_MODEL = ROOT / "filters" / "models" / "quality-text.ftz"
SETTINGS = ("threshold", "band", "min_words", "skip_page_types")
LINK_SETTINGS = ("links_from", "links_threshold")  # optional, both or neither
SHORT_SETTINGS = ("short_from", "short_threshold")  # optional, both or neither
WIDE_SETTINGS = ("wide_band",)  # optional
OPTIONAL = LINK_SETTINGS + SHORT_SETTINGS + WIDE_SETTINGS
# lid.176's labels of languages written without spaces between words: their whitespace-separated "words" are runs of
# a sentence or more, so a count of them does not say a text is short.
UNSPACED = frozenset({"zh", "ja", "th", "lo", "km", "my", "bo", "wuu", "yue"})

_MODELS: dict[str, Any] = {}
_LOCK = threading.Lock()


def text_for_model(text: str | None) -> str:
    """What the model reads, in training and here: one line, lowercased (the same words at a sentence's start or in a
    title count once), at most ``filters.quality_fasttext.MAX_CHARS`` characters."""
    return model_text(text).lower()


def resolve(model: str) -> Path:
    return DEFAULT_MODEL if model == "default" else Path(model)


def settings_path(model: Path) -> Path:
    """The JSON beside a model: ``quality-text.ftz`` -> ``quality-text.json``."""
    return model.with_suffix(".json")


def load_settings(model: Path) -> dict[str, Any]:
    """The thresholds stored with ``model``; a clear error naming the file when it is missing or not one."""
    path = settings_path(model)
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FileNotFoundError(f"text model settings {path} not found (they are stored beside the model; "
                                "scripts/train_text_model.py writes both)") from None
    except (OSError, ValueError) as exc:
        raise ValueError(f"text model settings {path} cannot be read ({type(exc).__name__}: {exc})") from None
    missing = [k for k in SETTINGS if k not in stored]
    if missing:
        raise ValueError(f"text model settings {path} lack {missing}")
    for pair in (LINK_SETTINGS, SHORT_SETTINGS):
        if len([k for k in pair if k in stored]) == 1:
            raise ValueError(f"text model settings {path} have one of {list(pair)} without the other")
    return stored


def load_model(model: Path) -> Any:
    """The fastText model, loaded once per process."""
    key = str(model)
    with _LOCK:
        if key not in _MODELS:
            if not os.path.isfile(key):
                raise FileNotFoundError(f"text model {key} not found (the default ships in filters/models/; "
                                        "scripts/train_text_model.py rebuilds it)")
            import fasttext

            try:
                _MODELS[key] = fasttext.load_model(key)
            except ValueError as exc:  # fastText's own message for a file that is not one of its models
                raise ValueError(f"text model {key} cannot be read: {exc}") from None
        return _MODELS[key]


def good_probability(model: Any, texts: list[str]) -> list[float]:
    """P(``__label__hq``) for each text (already ``text_for_model``-normalised)."""
    if not texts:
        return []
    target = LABEL_PREFIX + POSITIVE
    labels, probs = model.predict(texts, k=-1)
    return [next((min(float(p), 1.0) for label, p in zip(ls, ps, strict=True) if label == target), 0.0)
            for ls, ps in zip(labels, probs, strict=True)]


class TextQuality(Step):
    default_name = "quality_text"

    def __init__(self, model: str = "default", kind: str = "document", threshold: float | str = "default",
                 band: float | str = "default", min_words: int | str = "default",
                 skip_page_types: list[str] | str = "default", links_from: float | str | None = "default",
                 links_threshold: float | str | None = "default", short_from: int | str | None = "default",
                 short_threshold: float | str | None = "default", wide_band: float | str | None = "default") -> None:
        # Interleaved documents carry their page's type (pipelines/records.py), so the types the model leaves alone
        # are told apart there too; one without it (a shard written before the field) is judged whatever its type.
        self.input_kind = check_kind(kind, ("document", "interleaved"))
        check_model(model, "a fastText model")
        if threshold != "default":
            check_number("threshold", threshold, 0, 1)
        if band != "default":
            check_number("band", band, 0, 1)
        for name, value in (("links_from", links_from), ("links_threshold", links_threshold)):
            if value not in ("default", None):
                check_number(name, value, 0, 1)
        if (links_from in ("default", None)) != (links_threshold in ("default", None)):
            raise ValueError("links_from and links_threshold go together: give both, or neither (the stored ones; "
                             "null for one threshold whatever the link share)")
        if short_from not in ("default", None):
            check_number("short_from", short_from, 1, integer=True)
        if short_threshold not in ("default", None):
            check_number("short_threshold", short_threshold, 0, 1)
        if (short_from in ("default", None)) != (short_threshold in ("default", None)):
            raise ValueError("short_from and short_threshold go together: give both, or neither (the stored ones; "
                             "null for both to leave texts under min_words alone)")
        if wide_band not in ("default", None):
            check_number("wide_band", wide_band, 0, 1)
        if min_words != "default":
            check_number("min_words", min_words, 0, integer=True)
        if skip_page_types != "default" and (isinstance(skip_page_types, str) or not isinstance(skip_page_types, list)
                                             or not all(isinstance(t, str) for t in skip_page_types)):
            raise ValueError(f"skip_page_types must be a list of page types, got {skip_page_types!r}")
        self.model = model
        self.given = {"threshold": threshold, "band": band, "min_words": min_words, "skip_page_types": skip_page_types,
                      "links_from": links_from, "links_threshold": links_threshold, "short_from": short_from,
                      "short_threshold": short_threshold, "wide_band": wide_band}

    def settings(self) -> dict[str, Any]:
        """The step's arguments, each ``default`` one read from the JSON stored with the model (the optional pairs
        only where the four others are not all given)."""
        given = {k: v for k, v in self.given.items() if v != "default"}
        unset = dict.fromkeys(OPTIONAL)
        if all(k in given for k in SETTINGS):
            return {**unset, **given}
        return {**unset, **load_settings(resolve(self.model)), **given}

    @staticmethod
    def judges(record: Any, words: int, s: dict[str, Any]) -> bool:
        """Long enough to judge: ``min_words`` or more, or a short text (``short_from`` or more) in a language
        written with spaces."""
        if words >= s["min_words"]:
            return True
        return (s["short_from"] is not None and words >= s["short_from"]
                and getattr(record, "lang", None) not in UNSPACED | {None})

    @staticmethod
    def asks(record: Any, words: int, s: dict[str, Any]) -> bool:
        """Whether the step asks the model about ``record`` (``words`` long), its page type aside: below ``band``,
        long enough (``judges``); or below ``wide_band``, a text held to ``threshold`` (``min_words`` or more, not
        links all through) in a language written with spaces."""
        score = record.quality_score
        if score < s["band"]:
            return TextQuality.judges(record, words, s)
        if s["wide_band"] is None or score >= s["wide_band"] or words < s["min_words"]:
            return False
        return not TextQuality.links_all_through(record, s) and getattr(record, "lang", None) not in UNSPACED | {None}

    @staticmethod
    def links_all_through(record: Any, s: dict[str, Any]) -> bool:
        """Its page's link density is ``links_from`` or more (never, without the link settings or a density)."""
        links = getattr(record, "link_density", None)
        return s["links_from"] is not None and links is not None and links >= s["links_from"]

    @staticmethod
    def threshold_of(record: Any, s: dict[str, Any], words: int | None = None) -> float:
        """``short_threshold`` for a short text, ``links_threshold`` for one that is links all through, ``threshold``
        for any other."""
        if words is not None and words < s["min_words"] and s["short_from"] is not None:
            return float(s["short_threshold"])
        if TextQuality.links_all_through(record, s):
            return float(s["links_threshold"])
        return float(s["threshold"])

    def setup(self) -> None:
        load_model(resolve(self.model))
        self.settings()

    def process_batch(self, records: list[Any]) -> list[Any]:
        if not records:
            return []
        s = self.settings()
        skip = set(s["skip_page_types"])
        top = max(s["band"], s["wide_band"] or 0.0)
        asked = [r for r in records if r.quality_score is not None and r.quality_score < top
                 and getattr(r, "page_type", None) not in skip]
        counted = [(r, text, len(text.split())) for r, text in zip(asked, map(main_text, asked), strict=True)]
        todo = [(r, text, n) for r, text, n in counted if self.asks(r, n, s)]
        scores = good_probability(load_model(resolve(self.model)), [text_for_model(text) for _, text, _ in todo])
        judged = {id(r): (p, n) for (r, _, n), p in zip(todo, scores, strict=True)}
        out: list[Any] = []
        for record in records:
            if id(record) not in judged:
                out.append(record)
                continue
            p, n = judged[id(record)]
            record.text_quality_score = round(p, 6)
            bar = self.threshold_of(record, s, n)
            band = s["band"] if record.quality_score < s["band"] else s["wide_band"]
            out.append(Drop("low_quality", f"text {p:.4f} < {bar}, signals {record.quality_score:.3f} < "
                                           f"{band}") if p < bar else record)
        return out
