"""MinHash signatures and LSH band keys for whole batches of documents, vectorised.

What is computed, and where each number comes from:

- **Normalisation** (before shingling): Unicode NFKC, lower case, every run of digits folded to ``0``,
  everything that is not a letter, mark or digit turned into a space, whitespace collapsed. This is
  datatrove's ``simplify_text`` (used for FineWeb's MinHash) without its accent stripping; marks are kept so
  that Indic and other abugida words stay whole.
- **Shingles**: 5-word n-grams (datatrove / FineWeb ``n_grams=5``). Languages written without spaces
  (``NO_SPACE_LANGS``: the record's ``lang`` when present; otherwise a text whose letters are mostly Han, kana,
  Thai, Lao, Khmer, Myanmar or Tibetan) use character n-grams with the same n = 5 over the text with spaces
  removed, so that changing a fraction f of the tokens moves Jaccard the same way in both modes.
  A text with fewer tokens than n is one shingle. Tokens are hashed with xxHash (XXH3-64) once per distinct
  word in the batch; an n-gram's hash is a keyed combination of its token hashes finished with the
  MurmurHash3 64-bit finaliser, truncated to 32 bits (datasketch's default input width).
- **MinHash**: datasketch 2.0's default ``affine32`` scheme, bit for bit: permutations from
  ``datasketch.MinHash(num_perm, seed)``, each shingle hash pre-mixed with the 32-bit MurmurHash3 finaliser, then
  ``a * h + b mod 2**32``, minimum per permutation. ``tests/dedup/test_minhash.py`` checks the signatures
  equal ``datasketch.MinHash.bulk`` over the same shingle hashes. Computed for thousands of documents per numpy
  call instead of one ``update`` per shingle (STACK-NOTES: ``MinHash.bulk`` with xxh32 reaches 4.7k docs/s).
- **Bands**: FineWeb's 14 bands x 8 rows (112 permutations) by default; or (bands, rows) chosen for a
  Jaccard threshold by datasketch's own optimiser (``MinHashLSH(threshold, num_perm)``, equal weights of false
  positives and negatives). A band key is a 64-bit hash of the band index and its rows.
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import xxhash
from datasketch import MinHash, MinHashLSH

# ISO 639 codes of languages usually written without spaces between words.
NO_SPACE_LANGS = frozenset({"zh", "ja", "th", "lo", "km", "my", "bo", "dz", "yue", "wuu", "gan", "hak", "nan"})
_NO_SPACE_SCRIPT = r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}\p{Tibetan}]"
_NOT_WORD = r"[^\p{L}\p{M}\p{N}]+"

# FineWeb's MinHash configuration (datatrove MinhashConfig: n_grams=5, num_buckets=14, hashes_per_bucket=8).
FINEWEB_BANDS, FINEWEB_ROWS, NGRAM = 14, 8, 5

_M32 = (np.uint32(16), np.uint32(0x85EBCA6B), np.uint32(13), np.uint32(0xC2B2AE35), np.uint32(16))
_M64 = (np.uint64(33), np.uint64(0xFF51AFD7ED558CCD), np.uint64(33), np.uint64(0xC4CEB9FE1A85EC53), np.uint64(33))
# Odd 64-bit multipliers for the n-gram combination (digits of pi; any odd constants work).
_NGRAM_KEYS = np.array([0x243F6A8885A308D3, 0x13198A2E03707345, 0xA4093822299F31D1, 0x082EFA98EC4E6C89,
                        0x452821E638D01377, 0xBE5466CF34E90C6D, 0xC0AC29B7C97C50DD, 0x3F84D5B5B5470917],
                       dtype=np.uint64)
# Shingles permuted per numpy call: about 0.5 MB of uint32, cache-sized.
_BLOCK_ROWS = 1 << 17


def fmix32(h: np.ndarray) -> np.ndarray:
    """MurmurHash3's 32-bit finaliser (the pre-mix of datasketch's affine32 scheme)."""
    s1, m1, s2, m2, s3 = _M32
    h = h ^ (h >> s1)
    h = h * m1
    h = h ^ (h >> s2)
    h = h * m2
    return h ^ (h >> s3)


def fmix64(h: np.ndarray) -> np.ndarray:
    """MurmurHash3's 64-bit finaliser: an avalanching bijection on uint64 (on a copy, computed in place)."""
    s1, m1, s2, m2, s3 = _M64
    h = np.array(h, dtype=np.uint64, copy=True)
    h ^= h >> s1
    h *= m1
    h ^= h >> s2
    h *= m2
    h ^= h >> s3
    return h


@dataclass(frozen=True)
class MinHashParams:
    """Everything that decides a signature and its band keys; persisted beside the band index."""

    num_perm: int = FINEWEB_BANDS * FINEWEB_ROWS
    bands: int = FINEWEB_BANDS
    rows: int = FINEWEB_ROWS
    ngram: int = NGRAM
    char_ngram: int = NGRAM
    seed: int = 1

    def __post_init__(self) -> None:
        if min(self.num_perm, self.bands, self.rows, self.ngram, self.char_ngram) < 1:
            raise ValueError("num_perm, bands, rows, ngram and char_ngram must be positive")
        if self.bands * self.rows > self.num_perm:
            raise ValueError(f"bands x rows = {self.bands * self.rows} exceeds num_perm = {self.num_perm}")
        if max(self.ngram, self.char_ngram) > len(_NGRAM_KEYS):
            raise ValueError(f"n-grams longer than {len(_NGRAM_KEYS)} tokens are not supported")

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def choose_bands(threshold: float, num_perm: int) -> tuple[int, int]:
    """(bands, rows) that datasketch's MinHashLSH picks for ``threshold`` (equal false positive/negative weights).

    STACK-NOTES: threshold 0.72 with 112 permutations picks 12 x 9, not FineWeb's 14 x 8.
    """
    lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)
    return int(lsh.b), int(lsh.r)


def detection_probability(jaccard: float, bands: int, rows: int) -> float:
    """Probability that two documents with this Jaccard similarity share at least one band (the LSH S-curve)."""
    return 1.0 - (1.0 - jaccard**rows) ** bands


@functools.lru_cache(maxsize=8)
def permutations(num_perm: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """datasketch's own (a, b) parameters of the affine32 scheme, as uint32 arrays."""
    a, b = MinHash(num_perm=num_perm, seed=seed, scheme="affine32").permutations
    return np.asarray(a, dtype=np.uint32), np.asarray(b, dtype=np.uint32)


def normalize(texts: pa.Array | pa.ChunkedArray) -> pa.Array:
    """The near-duplicate normalisation of a string column (see the module docstring); words separated by spaces."""
    t = pc.utf8_lower(pc.utf8_normalize(texts, "NFKC"))
    t = pc.replace_substring_regex(t, r"\p{N}+", "0")
    t = pc.replace_substring_regex(t, _NOT_WORD, " ")
    out = pc.utf8_trim_whitespace(t)
    return out.combine_chunks() if isinstance(out, pa.ChunkedArray) else out


def char_mode(texts: pa.Array, langs: list[str | None]) -> np.ndarray:
    """Rows to shingle by characters: a no-space ``lang``, or no ``lang`` and mostly no-space script characters."""
    out = np.zeros(len(texts), dtype=bool)
    unknown = []
    for i, lang in enumerate(langs):
        if lang:
            out[i] = lang.split("-")[0].split("_")[0].lower() in NO_SPACE_LANGS
        else:
            unknown.append(i)
    if unknown:
        # The first 256 characters decide: enough to tell the script, and cheap on long texts.
        sub = pc.utf8_slice_codeunits(texts.take(pa.array(unknown, pa.int64())), 0, 256)
        script = pc.count_substring_regex(sub, _NO_SPACE_SCRIPT).fill_null(0).to_numpy(zero_copy_only=False)
        length = pc.utf8_length(sub).fill_null(0).to_numpy(zero_copy_only=False)
        out[np.asarray(unknown)] = script * 2 > length
    return out


def _vocab_tokens(vocab: pa.Array, chars: bool) -> tuple[np.ndarray, np.ndarray]:
    """Normalise each distinct raw token once: its normalised words (or characters) as uint64 hashes, and how many.

    A raw (whitespace-separated) token can hold several words ("well-known") or none ("--").
    """
    norm = normalize(vocab)
    if chars:
        norm = pc.replace_substring(norm, " ", "")
        flat = pc.utf8_split_whitespace(pc.replace_substring_regex(norm, r"(.)", r"\1 "))
    else:
        flat = pc.utf8_split_whitespace(norm)
    counts = pc.list_value_length(flat).fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
    words = pc.list_flatten(flat)
    nonempty = pc.greater(pc.utf8_length(words), 0).to_numpy(zero_copy_only=False)
    if not nonempty.all():
        # "" splits to [""]: drop the empty words and recount.
        owner = np.repeat(np.arange(len(counts)), counts)
        counts = np.bincount(owner[nonempty], minlength=len(counts)).astype(np.int64)
        words = words.filter(pa.array(nonempty))
    return hash_strings(words), counts


def hash_strings(values: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """XXH3-64 of each string's UTF-8 bytes (nulls hash as empty strings), straight from the Arrow buffers."""
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    if len(values) == 0:
        return np.zeros(0, dtype=np.uint64)
    wide = pa.types.is_large_string(values.type)
    offsets = np.frombuffer(values.buffers()[1], dtype=np.int64 if wide else np.int32)
    offsets = offsets[values.offset:values.offset + len(values) + 1]
    data = values.buffers()[2].to_pybytes() if values.buffers()[2] is not None else b""
    return np.fromiter((xxhash.xxh3_64_intdigest(data[offsets[i]:offsets[i + 1]]) for i in range(len(values))),
                       dtype=np.uint64, count=len(values))


def _tokens(texts: pa.Array, chars: bool) -> tuple[np.ndarray, np.ndarray]:
    """Token hashes of all rows, concatenated, and the token count of each row.

    Text is split on whitespace, each distinct raw token of the batch is normalised and hashed once (a Zipfian
    vocabulary is a few percent of the tokens), and the result is expanded back over the token stream.
    """
    # Splitting on the ASCII space alone is 3x faster than on all whitespace; other separators (newlines, tabs,
    # no-break spaces) are not letters, marks or digits, so the vocabulary normalisation splits on them.
    raw = pc.split_pattern(texts, " ")
    raw_counts = pc.list_value_length(raw).fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
    flat = pc.list_flatten(raw)
    if len(flat) == 0:
        return np.zeros(0, dtype=np.uint64), np.zeros(len(texts), dtype=np.int64)
    if pa.types.is_large_string(flat.type) and flat.nbytes < 2**31:
        flat = flat.cast(pa.string())  # 32-bit offsets: dictionary encoding is about 40% faster
    encoded = pc.dictionary_encode(flat)
    vocab_hash, vocab_count = _vocab_tokens(encoded.dictionary, chars)
    vocab_start = np.concatenate(([0], np.cumsum(vocab_count)[:-1]))
    idx = encoded.indices.to_numpy(zero_copy_only=False)
    per_raw = vocab_count[idx]
    tokens = vocab_hash[np.repeat(vocab_start[idx], per_raw) + _ranks(per_raw)]
    cum = np.concatenate(([0], np.cumsum(per_raw)))
    ends = np.cumsum(raw_counts)
    return tokens, cum[ends] - cum[ends - raw_counts]


def _ngrams(tokens: np.ndarray, counts: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """32-bit hashes of every n-gram of every row (a row with 1..n-1 tokens is one shingle), and counts per row."""
    shingle_counts = np.where(counts >= n, counts - n + 1, np.minimum(counts, 1))
    total = len(tokens)
    if total == 0:
        return np.zeros(0, dtype=np.uint32), shingle_counts
    ends = np.cumsum(counts)
    # A window starts at every position but the last n-1 of each row; a short row keeps only its first.
    valid = np.ones(total, dtype=bool)
    for k in range(1, n):
        valid[ends[counts > k] - k] = False
    # The keyed sum of the n tokens starting at every position (zeros past the end of the batch) ...
    padded = np.concatenate((tokens, np.zeros(n, dtype=np.uint64)))
    acc = tokens * _NGRAM_KEYS[0]
    tmp = np.empty_like(acc)
    for k in range(1, n):
        np.multiply(padded[k:k + total], _NGRAM_KEYS[k], out=tmp)
        acc += tmp
    # ... except for rows shorter than n, whose one shingle sums only their own tokens.
    short = np.flatnonzero((counts > 0) & (counts < n))
    if len(short):
        at, length = (ends - counts)[short], counts[short]
        part = np.zeros(len(short), dtype=np.uint64)
        for k in range(n):
            part += np.where(k < length, padded[at + k], np.uint64(0)) * _NGRAM_KEYS[k]
        acc[at] = part
    return (fmix64(acc[valid]) >> np.uint64(32)).astype(np.uint32), shingle_counts


def shingle_hashes(texts: pa.Array | pa.ChunkedArray, langs: list[str | None] | None,
                   params: MinHashParams) -> tuple[np.ndarray, np.ndarray]:
    """32-bit shingle hashes of every row, concatenated in row order, and the number per row (0: empty text)."""
    if isinstance(texts, pa.ChunkedArray):
        texts = texts.combine_chunks()
    n_rows = len(texts)
    chars = char_mode(texts, langs if langs is not None else [None] * n_rows)
    counts = np.zeros(n_rows, dtype=np.int64)
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    for mode, n in ((False, params.ngram), (True, params.char_ngram)):
        rows = np.flatnonzero(chars == mode)
        if not len(rows):
            continue
        sub = texts if len(rows) == n_rows else texts.take(pa.array(rows))
        sh, sh_counts = _ngrams(*_tokens(sub, mode), n)
        counts[rows] = sh_counts
        parts.append((rows, sh, sh_counts))
    if len(parts) <= 1:
        return (parts[0][1] if parts else np.zeros(0, dtype=np.uint32)), counts
    # Both modes in one batch: put each row's shingles back in row order.
    out = np.empty(int(counts.sum()), dtype=np.uint32)
    out_starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    for rows, sh, sh_counts in parts:
        out[np.repeat(out_starts[rows], sh_counts) + _ranks(sh_counts)] = sh
    return out, counts


def _ranks(counts: np.ndarray) -> np.ndarray:
    """0..c-1 for every count c, concatenated."""
    total = int(counts.sum())
    starts = np.cumsum(counts) - counts
    return np.arange(total) - np.repeat(starts, counts)


def signatures(shingles: np.ndarray, counts: np.ndarray, params: MinHashParams) -> np.ndarray:
    """(rows x num_perm) uint32 MinHash signatures; rows without shingles get datasketch's empty value (2**32-1).

    One permutation at a time over a cache-sized run of shingles, in place, then a segmented minimum: about 10x
    faster than materialising the (shingles x permutations) matrix.
    """
    a, b = permutations(params.num_perm, params.seed)
    sig = np.full((len(counts), params.num_perm), np.iinfo(np.uint32).max, dtype=np.uint32)
    rows = np.flatnonzero(counts > 0)
    if not len(rows):
        return sig
    hv = fmix32(shingles.astype(np.uint32, copy=False))
    ends = np.cumsum(counts[rows])
    starts = ends - counts[rows]
    first = 0
    while first < len(rows):
        lo = starts[first]
        last = max(first + 1, int(np.searchsorted(ends, lo + _BLOCK_ROWS, side="right")))
        hi = ends[last - 1]
        block, seg = hv[lo:hi], starts[first:last] - lo
        tmp = np.empty(hi - lo, dtype=np.uint32)
        out = np.empty((last - first, params.num_perm), dtype=np.uint32)
        for i in range(params.num_perm):
            np.multiply(block, a[i], out=tmp)  # uint32 wrap-around is the mod 2**32
            np.add(tmp, b[i], out=tmp)
            out[:, i] = np.minimum.reduceat(tmp, seg)
        sig[rows[first:last]] = out
        first = last
    return sig


def band_keys(sig: np.ndarray, params: MinHashParams) -> np.ndarray:
    """(rows x bands) uint64 keys: a hash of the band index and the band's ``rows`` values."""
    n = sig.shape[0]
    used = sig[:, :params.bands * params.rows].reshape(n, params.bands, params.rows).astype(np.uint64)
    h = np.broadcast_to((np.arange(params.bands, dtype=np.uint64) + np.uint64(1)) * _NGRAM_KEYS[0],
                        (n, params.bands)).copy()
    for r in range(params.rows):
        h = fmix64((h ^ used[:, :, r]) * _NGRAM_KEYS[(r + 1) % len(_NGRAM_KEYS)])
    return h


def unique_sorted(shingles: np.ndarray, counts: np.ndarray) -> list[np.ndarray]:
    """Each row's shingle set as a sorted array of distinct values (for true Jaccard)."""
    bounds = np.concatenate(([0], np.cumsum(counts)))
    return [np.unique(shingles[bounds[i]:bounds[i + 1]]) for i in range(len(counts))]


def jaccard(a: np.ndarray, b: np.ndarray) -> float:
    """Exact Jaccard similarity of two sorted arrays of distinct values."""
    if len(a) == 0 and len(b) == 0:
        return 1.0
    inter = len(np.intersect1d(a, b, assume_unique=True))
    return inter / (len(a) + len(b) - inter)
