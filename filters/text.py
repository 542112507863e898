"""Text utilities shared by the filters: language-aware words, lines, paragraphs, n-grams, and the
text fields of each record kind.

Words. Spaced scripts split on whitespace; a token's leading and trailing punctuation is stripped
and a token of punctuation only is not a word (datatrove's word statistics do the same). Chinese
and Japanese are written without spaces, so every Han, Hiragana or Katakana character is a token of
its own: repetition rules then work on character n-grams, which is what they measure in those
scripts. Word *counts* (the Gopher length rules) use ``word_count``, which counts an unspaced run
as ``chars / CJK_CHARS_PER_WORD`` words, an approximation of the mean word length of segmented
Chinese and Japanese text, so that a 75-character Chinese paragraph counts as 50 words, not 1 or 75.

Unspaced text: a record whose ``lang`` is one of ``UNSPACED_LANGS``, or, when no language is known,
a text whose letters are mostly Han/Kana/Thai/Lao/Khmer/Burmese/Tibetan. Rules that assume
space-separated words (mean word length, English stop words) are skipped for it.
"""

from __future__ import annotations

import math
import re
import string
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from typing import Any

# lid.176 codes of languages written without spaces between words.
UNSPACED_LANGS = frozenset({"zh", "ja", "th", "lo", "km", "my", "bo", "wuu", "yue"})
CJK_CHARS_PER_WORD = 1.5

_CJK = "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
_UNSPACED_SCRIPTS = _CJK + "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u0f00-\u0fff"
_TOKEN = re.compile(rf"[{_CJK}]|[^\s{_CJK}]+")
_CJK_CHAR = re.compile(rf"[{_CJK}]")
_UNSPACED_CHAR = re.compile(rf"[{_UNSPACED_SCRIPTS}]")
_LETTER = re.compile(r"[^\W\d_]")
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_SENTENCE_END = re.compile(r"[.!?。！？…]+[\"'”’)\]]*(?=\s|$)")

# Terminal punctuation of a line (FineWeb's END_PUNCTUATION set, plus the CJK and Devanagari/Arabic
# full stops so that other scripts are not all "lines without punctuation").
TERMINAL_PUNCTUATION = (".", "!", "?", '"', "'", "”", "’", "…", "。", "！", "？", "．", "।", "۔", "؟", ":", ";")
_STRIP = string.punctuation + "“”‘’«»‹›„‚…–—·•、。，！？：；（）【】《》「」『』〈〉・¡¿"


def tokens(text: str) -> list[str]:
    """Whitespace tokens, with each CJK character a token of its own."""
    return _TOKEN.findall(text)


def words(text: str) -> list[str]:
    """Tokens without surrounding punctuation; punctuation-only tokens are dropped."""
    out = []
    for token in _TOKEN.findall(text):
        word = token.strip(_STRIP)
        if word:
            out.append(word)
    return out


def is_unspaced(text: str, lang: str | None) -> bool:
    """Whether ``text`` is in a script written without spaces between words (see the module docstring)."""
    if lang:
        return lang in UNSPACED_LANGS
    letters = len(_LETTER.findall(text[:2000]))
    return bool(letters) and len(_UNSPACED_CHAR.findall(text[:2000])) / letters > 0.5


def word_count(text: str, lang: str | None = None) -> int:
    """Words in ``text``; unspaced CJK runs count ``chars / CJK_CHARS_PER_WORD`` words."""
    return count_words(words(text))


def count_words(ws: list[str]) -> int:
    """``word_count`` of a text already split by ``words``."""
    cjk = sum(1 for w in ws if len(w) == 1 and _CJK_CHAR.match(w))
    return len(ws) - cjk + round(cjk / CJK_CHARS_PER_WORD)


def lines(text: str) -> list[str]:
    """Non-empty lines, stripped."""
    return [s for line in text.splitlines() if (s := line.strip())]


def paragraphs(text: str) -> list[str]:
    """Blocks separated by blank lines, stripped, non-empty."""
    return [s for p in _PARAGRAPH_BREAK.split(text) if (s := p.strip())]


def sentence_count(text: str) -> int:
    """Sentences, as runs of text ending with terminal punctuation followed by a space or the end."""
    return len(_SENTENCE_END.findall(text))


def ends_with_punctuation(line: str) -> bool:
    return line.rstrip().endswith(TERMINAL_PUNCTUATION)


def has_letter(word: str) -> bool:
    return bool(_LETTER.search(word))


def duplicates(items: list[str]) -> tuple[int, int]:
    """(number of items equal to an earlier item, characters in those items)."""
    seen: set[str] = set()
    n = chars = 0
    for item in items:
        if item in seen:
            n += 1
            chars += len(item)
        else:
            seen.add(item)
    return n, chars


TOP_NS = (2, 3, 4)
DUP_NS = (5, 6, 7, 8, 9, 10)


@lru_cache(maxsize=4096)
def ngram_shares(text: str, top_ns: tuple[int, ...] = TOP_NS,
                 dup_ns: tuple[int, ...] = DUP_NS) -> tuple[dict[int, float], dict[int, float]]:
    """Gopher's n-gram repetition shares of ``text``'s lower-cased words: ``(top, dup)``, each ``n -> share``
    (``top_ngram_char_share``, ``duplicate_ngram_char_share``), computed once per text.

    Cached by value: the repetition rules and the quality signals (filters/signals.py) read the same prose in
    consecutive steps, and these shares are the costliest numbers either computes (measured: about half of a
    long page's signal time). n-grams are built with ``zip`` over shifted lists, word lengths summed once.
    """
    ws = [w.lower() for w in words(text)]
    lens = [len(w) for w in ws]
    total = sum(lens)
    top: dict[int, float] = {}
    dup: dict[int, float] = {}
    for n in top_ns:
        if len(ws) < n or not total:
            top[n] = 0.0
            continue
        gram, count = Counter(zip(*(ws[i:] for i in range(n)), strict=False)).most_common(1)[0]
        top[n] = sum(len(w) for w in gram) * count / total if count > 1 else 0.0
    zero = False
    for n in sorted(dup_ns):
        if zero or len(ws) < n or not total:
            dup[n] = 0.0
            continue
        grams = list(zip(*(ws[i:] for i in range(n)), strict=False))
        counts = Counter(grams)
        covered_until = -1
        chars = 0
        for i, gram in enumerate(grams):
            if counts[gram] > 1:
                start = max(i, covered_until)
                chars += sum(lens[start:i + n])
                covered_until = i + n
        dup[n] = chars / total
        zero = dup[n] == 0.0  # no n-gram repeats, so no longer one does
    return top, dup


def top_ngram_char_share(ws: list[str], n: int) -> float:
    """Characters in the most frequent word n-gram (counted every time it occurs) / characters in all words."""
    if len(ws) < n:
        return 0.0
    total = sum(len(w) for w in ws)
    counts = Counter(tuple(ws[i:i + n]) for i in range(len(ws) - n + 1))
    gram, count = counts.most_common(1)[0]
    if count < 2 or not total:
        return 0.0
    return sum(len(w) for w in gram) * count / total


def duplicate_ngram_char_share(ws: list[str], n: int) -> float:
    """Characters of the words covered by any word n-gram that occurs more than once / all word characters.

    Overlapping occurrences count each word once (Gopher, Rae et al. 2021, appendix A).
    """
    if len(ws) < n:
        return 0.0
    total = sum(len(w) for w in ws)
    grams = [tuple(ws[i:i + n]) for i in range(len(ws) - n + 1)]
    counts = Counter(grams)
    covered = [False] * len(ws)
    for i, gram in enumerate(grams):
        if counts[gram] > 1:
            for j in range(i, i + n):
                covered[j] = True
    dup = sum(len(w) for w, c in zip(ws, covered, strict=True) if c)
    return dup / total if total else 0.0


# -- the text fields of each record kind ----------------------------------------------------------

def main_text(record: Any) -> str:
    """The text a document-level rule judges: document text, interleaved text segments, or alt text."""
    if record.kind == "document":
        return record.text or ""
    if record.kind == "interleaved":
        return "\n\n".join(s.text for s in record.segments if s.kind == "text" and s.text)
    if record.kind == "image_text":
        return record.alt or ""
    raise ValueError(f"no text field for records of kind {record.kind!r}")


def map_texts(record: Any, fn: Callable[[str], str]) -> None:
    """Apply ``fn`` to every free-text field of ``record`` in place (PII redaction, profanity masking)."""
    if record.kind == "document":
        record.text = fn(record.text) if record.text else record.text
        record.title = fn(record.title) if record.title else record.title
    elif record.kind == "image_text":
        record.alt = fn(record.alt) if record.alt else record.alt
        record.context = fn(record.context) if record.context else record.context
    elif record.kind == "interleaved":
        record.title = fn(record.title) if record.title else record.title
        for seg in record.segments:
            seg.text = fn(seg.text) if seg.text else seg.text
            seg.alt = fn(seg.alt) if seg.alt else seg.alt
    else:
        raise ValueError(f"no text fields for records of kind {record.kind!r}")


TEXT_KINDS = ("document", "interleaved")
ALL_KINDS = ("document", "image_text", "interleaved")


def check_kind(kind: Any, allowed: tuple[str, ...]) -> str:
    if kind not in allowed:
        raise ValueError(f"kind must be one of {list(allowed)}, got {kind!r}")
    return kind


def check_number(name: str, value: Any, low: float | None = None, high: float | None = None,
                 integer: bool = False) -> float:
    """Validate a numeric step argument at construction (config load), naming it in the error."""
    ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    if ok and integer:
        ok = isinstance(value, int)
    if not ok or (low is not None and value < low) or (high is not None and value > high):
        bounds = f" in [{low}, {high}]" if high is not None else (f" >= {low}" if low is not None else "")
        raise ValueError(f"{name} must be {'an integer' if integer else 'a number'}{bounds}, got {value!r}")
    return value
