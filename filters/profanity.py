"""Profanity and obscenity: per-language word lists, line masking, document drop by ratio.

Word lists: the 24 per-language dictionaries of the ``glin-profanity`` package (MIT, maintained; the
English, German, Japanese... lists are the "List of Dirty, Naughty, Obscene, and Otherwise Bad Words"
that C4 used, with additions), read as data: the package's own code is not imported. A document is
checked against the list of its language (``lang`` from ``filters.langid``) and, because English
obscenity turns up on pages in every language, the English list. ``extra_words`` adds your own.

Matching: spaced languages by whole words and multi-word phrases, case-insensitively; Chinese,
Japanese, Korean and Thai by substring (words are not separated by spaces, and Korean attaches
particles to words).

Decisions (drop reason in brackets):

- a document whose listed words are more than ``max_ratio`` of its words is dropped
  (``profanity_ratio``). C4 (Raffel et al. 2020) dropped a page on *any* listed word
  (``max_ratio: 0``); Dodge et al. 2021 ("Documenting Large Webtext Corpora") found that this removed
  disproportionately much text by and about minority groups, so winnow's default is a ratio, 0.01:
  a page where more than one word in a hundred is on the list is about them, not merely mentioning them
  (winnow's choice; tune it with ``--annotate``).
- in a kept document, lines with a listed word are removed (``mask_lines``), so a stray insult in
  a comment does not reach training.
- alt text (``kind: image_text``) with any listed word is dropped (``profane_alt``).

Adult and malware *sites* are ``filters.urls.URLFilter``'s job.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import re
from pathlib import Path
from typing import Any

from filters.text import ALL_KINDS, check_kind, main_text, words
from pipelines.arguments import check_number
from pipelines.step import Drop, Step

LANG_FILES = {"ar": "arabic", "zh": "chinese", "cs": "czech", "da": "danish", "nl": "dutch", "en": "english",
              "eo": "esperanto", "fi": "finnish", "fr": "french", "de": "german", "hi": "hindi", "hu": "hungarian",
              "it": "italian", "ja": "japanese", "ko": "korean", "no": "norwegian", "fa": "persian", "pl": "polish",
              "pt": "portuguese", "ru": "russian", "es": "spanish", "sv": "swedish", "th": "thai", "tr": "turkish"}
SUBSTRING_LANGS = frozenset({"zh", "ja", "ko", "th"})
MAX_PHRASE = 5


def _dictionaries() -> Path:
    spec = importlib.util.find_spec("glin_profanity")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("glin-profanity is not installed; it carries the word lists (see pyproject.toml)")
    for location in spec.submodule_search_locations:
        folder = Path(location) / "data" / "dictionaries"
        if folder.is_dir():
            return folder
    raise FileNotFoundError("glin-profanity's dictionaries folder is missing")


@functools.cache
def word_list(lang: str) -> frozenset[str]:
    """The listed words and phrases of a language (lowercased); empty when there is no list."""
    name = LANG_FILES.get(lang)
    if name is None:
        return frozenset()
    data = json.loads((_dictionaries() / f"{name}.json").read_text(encoding="utf-8"))
    return frozenset(" ".join(w.lower().split()) for w in data.get("words", []) if w.strip())


class Matcher:
    """Finds listed words of some languages in text."""

    def __init__(self, entries: set[str], substring: set[str]) -> None:
        self.single = frozenset(e for e in entries if " " not in e)
        self.phrases = frozenset(tuple(e.split()) for e in entries if " " in e and len(e.split()) <= MAX_PHRASE)
        self.lengths = sorted({len(p) for p in self.phrases})
        # Phrases are looked up only where a text word starts one: building a tuple at every position for every
        # phrase length was 40% of the step's time on the WCXB bench, for the same count.
        self.first_words = frozenset(p[0] for p in self.phrases)
        alternatives = sorted((re.escape(s) for s in substring if s), key=len, reverse=True)
        self.substring = re.compile("|".join(alternatives)) if alternatives else None

    def count(self, text: str) -> int:
        """Occurrences of listed words (phrases count once) in ``text``."""
        ws = [w.lower() for w in words(text)]
        n = sum(w in self.single for w in ws)
        if self.phrases:
            last = len(ws)
            for i, w in enumerate(ws):
                if w in self.first_words:
                    n += sum(i + size <= last and tuple(ws[i:i + size]) in self.phrases for size in self.lengths)
        if self.substring is not None:
            n += len(self.substring.findall(text.lower()))
        return n


@functools.lru_cache(maxsize=64)
def matcher_for(lang: str | None, extra: tuple[str, ...] = ()) -> Matcher:
    langs = {"en", lang} if lang else {"en"}
    entries: set[str] = {" ".join(e.lower().split()) for e in extra}
    substring: set[str] = set()
    for code in langs:
        (substring if code in SUBSTRING_LANGS else entries).update(word_list(code))
    return Matcher(entries, substring)


class Profanity(Step):
    default_name = "profanity"

    def __init__(self, kind: str = "document", max_ratio: float = 0.01, mask_lines: bool = True,
                 extra_words: list[str] | None = None) -> None:
        self.input_kind = check_kind(kind, ALL_KINDS)
        self.max_ratio = check_number("max_ratio", max_ratio, 0, 1)
        if not isinstance(mask_lines, bool):
            raise ValueError(f"mask_lines must be a bool, got {mask_lines!r}")
        if extra_words is not None and (not isinstance(extra_words, list)
                                        or not all(isinstance(w, str) and w.strip() for w in extra_words)):
            raise ValueError(f"extra_words must be a list of words, got {extra_words!r}")
        self.mask_lines = mask_lines
        self.extra_words = tuple(extra_words or ())

    def ratio(self, text: str, lang: str | None = None) -> float:
        n_words = len(words(text))
        return matcher_for(lang, self.extra_words).count(text) / n_words if n_words else 0.0

    def mask(self, text: str, lang: str | None = None) -> str:
        """``text`` without the lines that hold a listed word."""
        matcher = matcher_for(lang, self.extra_words)
        return "\n".join(line for line in text.split("\n") if not matcher.count(line))

    def process(self, record: Any) -> Any:
        matcher = matcher_for(record.lang, self.extra_words)
        text = main_text(record)
        hits = matcher.count(text)
        if not hits:
            return record
        if record.kind == "image_text":
            raise Drop("profane_alt", f"{hits} listed word(s)")
        n_words = len(words(text))
        share = hits / n_words if n_words else 1.0
        if share > self.max_ratio:
            raise Drop("profanity_ratio", f"{share:.3f}")
        if self.mask_lines:
            if record.kind == "document":
                record.text = self.mask(record.text, record.lang)
            else:
                for seg in record.segments:
                    if seg.kind == "text" and seg.text:
                        seg.text = self.mask(seg.text, record.lang)
                record.segments = [s for s in record.segments if s.kind != "text" or s.text]
        return record
