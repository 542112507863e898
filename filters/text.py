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

import re
import string
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from pipelines import heap
from pipelines.memo import digest_memo

# lid.176 codes of languages written without spaces between words.
TEXT_CACHE_SIZE = 1024  # entries of the by-text caches here, as filters/parts.py's CACHE_SIZE (why: there)
UNSPACED_LANGS = frozenset({"zh", "ja", "th", "lo", "km", "my", "bo", "wuu", "yue"})
CJK_CHARS_PER_WORD = 1.5

_CJK = "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
_UNSPACED_SCRIPTS = _CJK + "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u0f00-\u0fff"
_TOKEN = re.compile(rf"[{_CJK}]|[^\s{_CJK}]+")
_CJK_CHAR = re.compile(rf"[{_CJK}]")
_UNSPACED_CHAR = re.compile(rf"[{_UNSPACED_SCRIPTS}]")
UNSPACED_CHAR = _UNSPACED_CHAR  # a character of a script written without spaces between words
_LETTER = re.compile(r"[^\W\d_]")
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_SENTENCE_END = re.compile(r"[.!?。！？…]+[\"'”’)\]]*(?=\s|$)")

# Terminal punctuation of a line (FineWeb's END_PUNCTUATION set, plus the CJK and Devanagari/Arabic
# full stops so that other scripts are not all "lines without punctuation").
TERMINAL_PUNCTUATION = (".", "!", "?", '"', "'", "”", "’", "…", "。", "！", "？", "．", "।", "۔", "؟", ":", ";")
_STRIP = string.punctuation + "“”‘’«»‹›„‚…–—·•、。，！？：；（）【】《》「」『』〈〉・¡¿"
_P = re.escape(_STRIP)
# A word, found directly: a CJK character that is not punctuation, or a whitespace token from its first to its last
# character outside _STRIP. The same words as splitting into _TOKENs and stripping _STRIP from each (compared on
# 28,215 texts: WCXB, langid_dev and random strings of punctuation, CJK and spaces, and the 181,041 lines of
# bench/e2e.py's kept documents), without a Python loop over the tokens.
_WORD = re.compile(rf"(?![{_P}])[{_CJK}]|[^\s{_CJK}{_P}](?:[^\s{_CJK}]*[^\s{_CJK}{_P}])?")
# Texts at least this long have their word count cached by value (documents, read by several filters in a row);
# shorter ones (C4 counts the words of every line) are counted each time, so they do not push documents out.
CACHED_WORD_COUNT_CHARS = 500


def tokens(text: str) -> list[str]:
    """Whitespace tokens, with each CJK character a token of its own."""
    return _TOKEN.findall(text)


def words(text: str) -> list[str]:
    """Tokens without surrounding punctuation; punctuation-only tokens are dropped."""
    return _WORD.findall(text)


def is_unspaced(text: str, lang: str | None) -> bool:
    """Whether ``text`` is in a script written without spaces between words (see the module docstring)."""
    if lang:
        return lang in UNSPACED_LANGS
    letters = len(_LETTER.findall(text[:2000]))
    return bool(letters) and len(_UNSPACED_CHAR.findall(text[:2000])) / letters > 0.5


def word_count(text: str, lang: str | None = None) -> int:
    """Words in ``text``; unspaced CJK runs count ``chars / CJK_CHARS_PER_WORD`` words."""
    if len(text) >= CACHED_WORD_COUNT_CHARS:
        return _cached_word_count(text)
    return count_words(words(text))


@heap.per_wave
@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _cached_word_count(text: str) -> int:
    return count_words(words(text))


def count_words(ws: list[str]) -> int:
    """``word_count`` of a text already split by ``words``."""
    # A CJK character is always a word of its own and never part of another, so the CJK words are the CJK
    # characters of the words joined.
    cjk = len(_CJK_CHAR.findall("".join(ws)))
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


@lru_cache(maxsize=1 << 17)
def has_letter(word: str) -> bool:
    """Memoised: called for every word of every text by several signals, over a vocabulary that repeats."""
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


_HASH_MULTIPLIER = 0x9E3779B97F4A7C15  # odd 64-bit constant (golden ratio); keys wrap modulo 2**64


# By a digest of the text for the whole wave, shared with the filter workers (pipelines/memo.py: why): a page's
# interleaved document reads its text document's shares.
@heap.per_wave
@digest_memo()
def ngram_shares(text: str, top_ns: tuple[int, ...] = TOP_NS,
                 dup_ns: tuple[int, ...] = DUP_NS) -> tuple[dict[int, float], dict[int, float]]:
    """Gopher's n-gram repetition shares of ``text``'s lower-cased words: ``(top, dup)``, each ``n -> share``,
    computed once per text (Rae et al. 2021, appendix A):

    - top: characters in the most frequent n-gram (counted every time it occurs) / characters in all words;
    - dup: characters of the words covered by any n-gram that occurs more than once / all word characters
      (overlapping occurrences count each word once).

    Cached by value: the repetition rules and the quality signals (filters/signals.py) read the same prose in
    consecutive steps. Vectorised: words become integer ids, each n-gram a 64-bit polynomial key built from the
    (n-1)-gram's, counted with numpy, and a word is covered by a repeated n-gram when a repeated n-gram starts
    in the n positions before it (a running sum). Against counting n-gram tuples (the reference in
    tests/filters/test_ngram_shares.py): identical shares on 2,352 WCXB, junk and documentation texts, 2.1x faster.
    """
    import numpy as np

    ws = words(text.lower())  # lower-casing first gives the same words: no character of _STRIP has a case
    top = dict.fromkeys(top_ns, 0.0)
    dup = dict.fromkeys(dup_ns, 0.0)
    lens = np.fromiter(map(len, ws), dtype=np.int64, count=len(ws))
    total = int(lens.sum())
    if not total:
        return top, dup
    vocab: dict[str, int] = {}
    ids = np.array([vocab.setdefault(w, len(vocab) + 1) for w in ws], dtype=np.uint64)
    char_prefix = np.concatenate(([0], np.cumsum(lens)))
    keys = ids.copy()
    zero = False
    with np.errstate(over="ignore"):
        for n in range(1, max((*top_ns, *dup_ns), default=0) + 1):
            if n > 1:
                keys = keys[:-1] * np.uint64(_HASH_MULTIPLIER) + ids[n - 1:]
            if len(keys) == 0:
                break
            if n not in top and n not in dup:
                continue
            _, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
            if n in top:
                best = int(counts.max())
                if best > 1:
                    # ties go to the n-gram that occurs first, as with Counter.most_common
                    first = int(np.flatnonzero(counts[inverse] == best)[0])
                    top[n] = int(char_prefix[first + n] - char_prefix[first]) * best / total
            if n in dup and not zero:
                starts = (counts[inverse] > 1).astype(np.int64)
                running = np.concatenate(([0], np.cumsum(starts)))
                idx = np.arange(len(ws))
                # word j is covered when a repeated n-gram starts at any i in [j - n + 1, j]
                hi = np.minimum(idx, len(starts) - 1) + 1
                lo = np.maximum(idx - n + 1, 0)
                covered = (running[hi] - running[np.minimum(lo, len(starts))]) > 0
                dup[n] = int(lens[covered].sum()) / total
                zero = dup[n] == 0.0  # no n-gram repeats, so no longer one does
    return top, dup


# -- the text fields of each record kind ----------------------------------------------------------

def main_text(record: Any) -> str:
    """The text a document-level rule judges: document text, interleaved text segments, or alt text."""
    if record.kind == "document":
        return record.text or ""
    if record.kind == "interleaved":
        return "\n\n".join(s.text for s in record.segments if s.kind == "text" and s.text)
    if record.kind == "image_text":
        return record.text or record.alt or ""  # the pair's text (alt, or caption where the alt is junk)
    raise ValueError(f"no text field for records of kind {record.kind!r}")


def map_texts(record: Any, fn: Callable[[str], str]) -> None:
    """Apply ``fn`` to every free-text field of ``record`` in place (PII redaction, profanity masking)."""
    if record.kind == "document":
        record.text = fn(record.text) if record.text else record.text
        record.title = fn(record.title) if record.title else record.title
    elif record.kind == "image_text":
        record.alt = fn(record.alt) if record.alt else record.alt
        record.caption = fn(record.caption) if record.caption else record.caption
        record.text = fn(record.text) if record.text else record.text
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
