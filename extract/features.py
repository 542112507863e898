"""Numbers a block classifier reads: one row per block of extract/segment.py, ``FEATURE_NAMES`` columns.

The features are the ones content-extraction work has long relied on (Kohlschütter et al. 2010,
"Boilerplate detection using shallow text features": text length, link density, position, neighbours;
Readability's and trafilatura's class/id keyword lists; Web2Text, Vogels et al. 2018: the DOM path and the
neighbouring blocks), plus three that carry most of the signal on pages other than articles:

- ``kept``: whether trafilatura's own main-content extraction kept the block (``kept_flags``: its text found in
  trafilatura's output, in reading order), and the same for the previous and next block: trafilatura is right on
  nearly every article, and the classifier learns where it is not;
- containers: for the enclosing block elements 1, 2, 3 and 5 levels up, the share of the page's text they hold,
  their link density, the share of their text trafilatura kept and how many blocks they hold; and for the
  blocks that share this block's tag path (the cards of a listing, the posts of a thread), the same sums;
- the page type's probabilities (extract/page_type.py), so one model serves forums, shops and articles.

Everything is computed in one pass over the blocks plus numpy; no per-block regex beyond a few C-level string
counts.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np

from extract.segment import ANCESTOR_TAGS, KEYWORDS, KINDS, Block

_NON_WORD = re.compile(r"\W+")
_DIGITS = str.maketrans("", "", "0123456789")
# ideographs, kana and hangul: scripts written without spaces, where a "word" of str.split() is a whole clause;
# two such characters count as one word (the mean length of a Chinese or Japanese word is about two characters)
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")
_CAPITALISED = re.compile(r"(?<!\S)[A-Z\u00c0-\u00de\u0391-\u03a9\u0410-\u042f]")  # words starting in upper case
_SENTENCE_END = (".", "!", "?", ":", ";", '"', "'", ")", "»", "”", "。", "！", "？")
CONTAINER_LEVELS = (1, 2, 3, 5)

_BLOCK = ("log_chars", "log_words", "link_density", "ends_sentence", "digit_share", "capitalised_share",
          "mean_word_len", "commas_per_word", "periods_per_word", "depth", "position", "text_position", "kept",
          "kept_prev", "kept_next", "log_signature_count", "title_overlap", "link_density_prev",
          "link_density_next")
_PAGE = ("log_blocks", "log_page_chars", "kept_share", "log_kept_chars")
# the neighbourhood: trafilatura's kept share and the link density of the blocks around (by characters), and
# where the block lies relative to the span from trafilatura's first to its last kept block
_WINDOWS = (2, 5, 15)
_CONTEXT = (*(f"win{w}_{name}" for w in _WINDOWS for name in ("kept_share", "link_density")),
            "in_kept_span", "before_kept_span", "after_kept_span", "log_blocks_to_kept_span")
_CONTAINER = tuple(f"up{level}_{name}" for level in CONTAINER_LEVELS
                   for name in ("text_share", "link_density", "kept_share", "log_blocks"))
_SIGNATURE = ("sig_text_share", "sig_link_density", "sig_kept_share")
PAGE_TYPE_ORDER = ("article", "forum", "product", "collection", "listing", "documentation", "service")

FEATURE_NAMES: tuple[str, ...] = (
    *_BLOCK, *_PAGE,
    *(f"kind_{k}" for k in KINDS),
    *(f"in_{t}" for t in ANCESTOR_TAGS),
    *(f"kw_all_{k}" for k in KEYWORDS),
    *(f"kw_near_{k}" for k in KEYWORDS),
    *_CONTAINER, *_SIGNATURE, *_CONTEXT,
    *(f"type_{t}" for t in PAGE_TYPE_ORDER),
)
_KIND_INDEX = {k: i for i, k in enumerate(KINDS)}


def squash(text: str) -> str:
    """Letters and digits only, lower-cased: how block text is matched against another extraction's text."""
    return _NON_WORD.sub("", text.lower())


SHORT_BLOCK = 40  # squashed characters: below this a block's text could match anywhere in trafilatura's text
NEAR = 200  # squashed characters a short block may lie after the previous match and still be "the next" block


def kept_flags(blocks: Sequence[Block], kept_text: str) -> list[bool]:
    """Which blocks trafilatura's text holds, matched in reading order.

    Letters and digits only, lower-cased (``squash``), so whitespace and punctuation differences between the two
    renderings do not matter. A block of ``SHORT_BLOCK`` characters or more counts wherever it is found (the
    search starts after the previous match, then anywhere); a shorter one only right after the previous match
    (within ``NEAR`` characters): "Fitting a sine wave" in a sidebar's table of contents is in the text as the
    page's headline, which is not the sidebar being kept.
    """
    haystack = squash(kept_text) if kept_text else ""
    out: list[bool] = []
    cursor = 0
    for block in blocks:
        needle = _NON_WORD.sub("", block.plain.lower()) if haystack else ""
        if not needle:
            out.append(False)
            continue
        pos = haystack.find(needle, cursor)
        if len(needle) >= SHORT_BLOCK:
            if pos < 0:
                pos = haystack.find(needle)
        elif pos - cursor > NEAR:
            pos = -1
        if pos >= 0:
            cursor = pos + len(needle)
        out.append(pos >= 0)
    return out


COVER_GRAM = 8  # squashed characters: about four CJK words or a word and a half of English
COVERED = 0.5  # share of a block's COVER_GRAM-grams found in the text, as the training labels' half of 4-grams


def covered_flags(blocks: Sequence[Block], kept_text: str) -> list[bool]:
    """Which blocks trafilatura's text holds whole (``kept_flags``) or mostly: a block of ``SHORT_BLOCK`` squashed
    characters or more also counts where ``COVERED`` of its ``COVER_GRAM``-character shingles occur in the text.

    For pages in a script the block model never saw, where trafilatura's choice *is* the page's text (extract/core.py).
    Whole-block matching misses a block whose text trafilatura rendered with a part left out (an inline
    ``<span class="guimenuitem">`` at the start of a GIMP manual paragraph, a ``<code>`` run in a Debian handbook
    one), and on CJK pages, whose paragraphs are one or two blocks each, that left the page with no text at all (7
    of 200 pages of GIMP's Japanese manual). Not elsewhere: on the 60 news articles, ``selector: trafilatura`` with
    this matching took in blocks trafilatura had left out (captions and teasers sharing most of their words with
    the article), and its words against trafilatura's went down on 20 pages, up on one (by up to 0.06; measured
    as tests/extract/test_trafilatura_selector.py does); and ``kept_flags``, the model's feature, stays as trained.
    """
    out = kept_flags(blocks, kept_text)
    if all(out) or not kept_text:
        return out
    haystack = squash(kept_text)
    grams = {haystack[i:i + COVER_GRAM] for i in range(len(haystack) - COVER_GRAM + 1)}
    taken = {squash(block.plain) for block, kept in zip(blocks, out, strict=True) if kept}
    for i, block in enumerate(blocks):
        if out[i]:
            continue
        needle = squash(block.plain)
        if len(needle) < SHORT_BLOCK or needle in taken:  # a repeated block is held once, where found whole
            continue
        shingles = [needle[j:j + COVER_GRAM] for j in range(len(needle) - COVER_GRAM + 1)]
        out[i] = sum(g in grams for g in shingles) >= COVERED * len(shingles)
        if out[i]:
            taken.add(needle)
    return out


def _bits(masks: list[int], width: int) -> np.ndarray:
    """(n, width) 0/1 matrix of the low ``width`` bits of each Python int."""
    out = np.zeros((len(masks), width), dtype=np.float32)
    shifts = np.arange(64, dtype=np.uint64)
    for start in range(0, width, 64):
        part = np.array([(m >> start) & 0xFFFFFFFFFFFFFFFF for m in masks], dtype=np.uint64)
        chunk = ((part[:, None] >> shifts) & np.uint64(1)).astype(np.float32)
        out[:, start:start + 64] = chunk[:, :min(64, width - start)]
    return out


def _context(lengths: np.ndarray, links: np.ndarray, kept_chars: np.ndarray, kept: np.ndarray) -> np.ndarray:
    n = len(lengths)
    length_sum, kept_sum, link_sum = (np.concatenate(([0.0], np.cumsum(col))) for col in (lengths, kept_chars, links))
    index = np.arange(n)
    out = []
    for w in _WINDOWS:
        lo, hi = np.maximum(index - w, 0), np.minimum(index + w + 1, n)
        size = np.maximum(length_sum[hi] - length_sum[lo], 1.0)
        out += [(kept_sum[hi] - kept_sum[lo]) / size, (link_sum[hi] - link_sum[lo]) / size]
    where = np.flatnonzero(kept)
    if len(where):
        first, last = where[0], where[-1]
        inside = ((index >= first) & (index <= last)).astype(np.float64)
        before = (index < first).astype(np.float64)
        after = (index > last).astype(np.float64)
        distance = np.log1p(np.where(index < first, first - index, np.where(index > last, index - last, 0)))
    else:
        inside = before = after = np.zeros(n)
        distance = np.full(n, np.log1p(n))
    return np.column_stack((*out, inside, before, after, distance))


def _group_sums(keys: list[int], columns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(dense group index per key, per-group sums of ``columns``' rows) for integer group keys."""
    dense: dict[int, int] = {}
    index = np.fromiter((dense.setdefault(k, len(dense)) for k in keys), dtype=np.int64, count=len(keys))
    sums = np.zeros((len(dense), columns.shape[1]), dtype=np.float64)
    np.add.at(sums, index, columns)
    return index, sums


def _group_rows(blocks: Sequence[Block], columns: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    """Each block's sums of ``columns`` over its enclosing container at each of ``CONTAINER_LEVELS`` (the
    outermost it has where its chain is shorter; its own row where it has none), and over the blocks that share
    its tag path (signature)."""
    sig_index, sig_sums = _group_sums([b.signature for b in blocks], columns)
    pairs_block: list[int] = []
    pairs_key: list[int] = []
    for i, block in enumerate(blocks):
        for ident in block.containers:
            pairs_block.append(i)
            pairs_key.append(ident)
    if not pairs_key:
        return [columns] * len(CONTAINER_LEVELS), sig_sums[sig_index]
    cont_index, cont_sums = _group_sums(pairs_key, columns[pairs_block])
    slot = {key: cont_index[j] for j, key in enumerate(pairs_key)}
    levels = []
    for level in CONTAINER_LEVELS:
        rows = np.array([slot[chain[min(level, len(chain) - 1)]] if chain else -1 for chain in
                         (b.containers for b in blocks)], dtype=np.int64)
        levels.append(np.where((rows >= 0)[:, None], cont_sums[np.maximum(rows, 0)], columns))
    return levels, sig_sums[sig_index]


def block_features(blocks: Sequence[Block], kept_text: str, title: str | None,
                   page_type_probs: Sequence[float] | None) -> np.ndarray:
    """The feature matrix (float32, ``len(blocks)`` x ``len(FEATURE_NAMES)``).

    ``kept_text``: trafilatura's main text of the page ('' when it found none); ``title``: the page title;
    ``page_type_probs``: extract/page_type.py's probabilities in ``PAGE_TYPE_ORDER`` (None: all zero).
    """
    n = len(blocks)
    width = len(FEATURE_NAMES)
    if n == 0:
        return np.zeros((0, width), dtype=np.float32)
    kept_squashed = squash(kept_text) if kept_text else ""
    title_words = frozenset(title.lower().split()) if title else frozenset()
    # one pass of cheap per-block string measures into plain lists (numpy rows per block cost more than these)
    length_l, words_l, link_l, end_l, digit_l, capital_l, comma_l, period_l, overlap_l = ([] for _ in range(9))
    kind_index = np.empty(n, dtype=np.int64)
    other = _KIND_INDEX["other"]
    for i, block in enumerate(blocks):
        text = block.plain
        length = len(text) or 1
        words = text.split()
        length_l.append(length)
        words_l.append(len(words) + len(CJK.findall(text)) // 2 or 1)
        link_l.append(block.link_chars)
        end_l.append(1.0 if text.rstrip().endswith(_SENTENCE_END) else 0.0)
        digit_l.append(length - len(text.translate(_DIGITS)))
        capital_l.append(len(_CAPITALISED.findall(text)))
        comma_l.append(text.count(",") + text.count("、") + text.count("，"))
        period_l.append(text.count(".") + text.count("。"))
        overlap_l.append(len(title_words.intersection(text.lower().split())) if title_words else 0)
        kind_index[i] = _KIND_INDEX.get(block.kind, other)
    lengths = np.array(length_l, dtype=np.float64)
    n_words = np.array(words_l, dtype=np.float64)
    links = np.array(link_l, dtype=np.float64)
    kept = np.array(kept_flags(blocks, kept_text), dtype=np.float64)
    total = float(lengths.sum()) or 1.0
    kept_chars = lengths * kept
    density = links / lengths
    position = np.arange(n) / n
    text_position = (np.cumsum(lengths) - lengths) / total
    depth = np.array([b.depth for b in blocks], dtype=np.float64)

    # sums over the blocks of one tag path (signature) and of each enclosing container
    per_block = np.column_stack((lengths, links, kept_chars, np.ones(n)))
    levels, sig_rows = _group_rows(blocks, per_block)
    cont_cols = []
    for agg in levels:
        size = np.maximum(agg[:, 0], 1.0)
        cont_cols += [agg[:, 0] / total, agg[:, 1] / size, agg[:, 2] / size, np.log1p(agg[:, 3])]
    kinds = np.zeros((n, len(KINDS)), dtype=np.float32)
    kinds[np.arange(n), kind_index] = 1.0
    page = np.array([math.log1p(n), math.log1p(total), float(kept_chars.sum()) / total,
                     math.log1p(len(kept_squashed))])
    sig_size = np.maximum(sig_rows[:, 0], 1.0)
    types = np.zeros(len(PAGE_TYPE_ORDER), dtype=np.float64) if page_type_probs is None else np.asarray(
        page_type_probs, dtype=np.float64)
    zero = np.zeros(1)
    block_part = np.column_stack((
        np.log1p(lengths), np.log1p(n_words), density, np.array(end_l), np.array(digit_l) / lengths,
        np.array(capital_l) / n_words, lengths / n_words, np.array(comma_l) / n_words, np.array(period_l) / n_words,
        depth, position, text_position, kept, np.concatenate((zero, kept[:-1])), np.concatenate((kept[1:], zero)),
        np.log1p(sig_rows[:, 3]), np.array(overlap_l) / n_words, np.concatenate((zero, density[:-1])),
        np.concatenate((density[1:], zero)),
    ))
    return np.hstack((
        block_part,
        np.broadcast_to(page, (n, len(page))),
        kinds,
        _bits([b.tags for b in blocks], len(ANCESTOR_TAGS)),
        _bits([b.kw_all for b in blocks], len(KEYWORDS)),
        _bits([b.kw_near for b in blocks], len(KEYWORDS)),
        np.column_stack(cont_cols),
        np.column_stack((sig_rows[:, 0] / total, sig_rows[:, 1] / sig_size, sig_rows[:, 2] / sig_size)),
        _context(lengths, links, kept_chars, kept),
        np.broadcast_to(types, (n, len(types))),
    )).astype(np.float32)


# -- the second stage: the first stage's probabilities around each block ------------------------------------------
CONTEXT_NAMES: tuple[str, ...] = (
    "p", "p_prev", "p_next", *(f"p_win{w}" for w in _WINDOWS),
    *(f"p_up{level}" for level in CONTAINER_LEVELS), "p_signature",
    "in_p_span", "log_blocks_to_p_span", "p_page_max", "p_page_mean", "p_page_kept_share",
)


def context_features(blocks: Sequence[Block], probs: np.ndarray) -> np.ndarray:
    """What the first-stage classifier thinks of the blocks around each block (``CONTEXT_NAMES`` columns).

    A second classifier reads these beside the block's own features (stacking, Wolpert 1992): a paragraph among
    kept paragraphs is content even where its own markup says little, and one card of a grid is kept when its
    sibling cards are. Means are weighted by characters.
    """
    n = len(blocks)
    if n == 0:
        return np.zeros((0, len(CONTEXT_NAMES)), dtype=np.float32)
    p = np.asarray(probs, dtype=np.float64)
    lengths = np.array([max(len(b.plain), 1) for b in blocks], dtype=np.float64)
    weighted = p * lengths
    length_sum = np.concatenate(([0.0], np.cumsum(lengths)))
    p_sum = np.concatenate(([0.0], np.cumsum(weighted)))
    index = np.arange(n)
    cols = [p, np.concatenate(([0.0], p[:-1])), np.concatenate((p[1:], [0.0]))]
    for w in _WINDOWS:
        lo, hi = np.maximum(index - w, 0), np.minimum(index + w + 1, n)
        cols.append((p_sum[hi] - p_sum[lo]) / (length_sum[hi] - length_sum[lo]))
    levels, sig_rows = _group_rows(blocks, np.column_stack((weighted, lengths)))
    cols += [agg[:, 0] / agg[:, 1] for agg in levels]
    cols.append(sig_rows[:, 0] / sig_rows[:, 1])
    where = np.flatnonzero(p >= 0.5)
    if len(where):
        first, last = where[0], where[-1]
        cols.append(((index >= first) & (index <= last)).astype(np.float64))
        cols.append(np.log1p(np.where(index < first, first - index, np.where(index > last, index - last, 0))))
    else:
        cols.append(np.zeros(n))
        cols.append(np.full(n, np.log1p(n)))
    total = lengths.sum()
    cols += [np.full(n, p.max()), np.full(n, weighted.sum() / total), np.full(n, lengths[p >= 0.5].sum() / total)]
    return np.column_stack(cols).astype(np.float32)
