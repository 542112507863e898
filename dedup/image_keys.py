"""Keys of image dedup (dedup/images.py): node keys whose string order is the keeper rule, and LSH band keys of the
64-bit perceptual hashes. Pure functions over columns; the stage and its thresholds are in dedup/images.py.
"""

from __future__ import annotations

import math
import re
import struct

import numpy as np
import pyarrow as pa

from dedup.banded import PRIOR as PRIOR  # node keys of rows written earlier start with it: they stay the keepers
from dedup.image_hash import HASH_BITS

SEP = "\x1f"  # between id and sha256 in a node key; sorts before every printable character, so "a" < "ab" holds
_HEX16 = re.compile(r"^[0-9a-fA-F]{16}$")
_TAG = {"exact": 0, "phash": 1, "dhash": 2}  # mixed into band keys so the spaces never collide by construction
_GOLDEN = 0x9E3779B97F4A7C15
_MIX = (np.uint64(30), np.uint64(0xBF58476D1CE4E5B9), np.uint64(27), np.uint64(0x94D049BB133111EB), np.uint64(31))


# -- node keys: their string order is the keeper rule -----------------------------------------------------------
def _score_part(score: float | None) -> str:
    """9 characters, smaller for a higher score: "0" + the complement of the float32's order-preserving bits, or
    "1" + zeros when unscored (after every scored row)."""
    if score is None or math.isnan(score):
        return "1" + "0" * 8
    (bits,) = struct.unpack(">I", struct.pack(">f", score))
    ordered = bits ^ 0xFFFFFFFF if bits & 0x80000000 else bits | 0x80000000  # unsigned order == float order
    return "0" + format(0xFFFFFFFF - ordered, "08x")


def alt_rank(alt: str | None, caption: str | None = None) -> tuple[bool, int]:
    """(passes DataComp's basic caption rule: > 2 words and > 5 characters, word count) of ``alt`` (else
    ``caption``); callers pass the pair's chosen ``text`` as ``alt`` where the row has one."""
    text = (alt or "").strip() or (caption or "").strip()
    words = len(text.split())
    return words > 2 and len(text) > 5, words


def _alt_part(alt: str | None, caption: str | None) -> str:
    passes, words = alt_rank(alt, caption)
    return ("0" if passes else "1") + format(9999 - min(words, 9999), "04d")


def _area_part(w: int | None, h: int | None, ow: int | None, oh: int | None) -> str:
    area = (ow or 0) * (oh or 0) or (w or 0) * (h or 0)
    return format(0xFFFFFFFFFFFF - min(area, 0xFFFFFFFFFFFF), "012x")


RANK_LEN = 1 + 9 + 5 + 12


def node_keys(table: pa.Table) -> list[str]:
    """"1" + score + alt + area + id + SEP + sha256 (empty when missing) for every row."""
    cols = {n: table.column(n).to_pylist() for n in ("id", "clip_score", "alt", "caption", "width", "height",
                                                       "original_width", "original_height", "sha256")}
    # the pair's chosen text where the rows have it (images of pairs made by this version's extraction)
    texts = table.column("text").to_pylist() if "text" in table.column_names else [None] * table.num_rows
    return [f"1{_score_part(s)}{_alt_part(t or a, c)}{_area_part(w, h, ow, oh)}{i}{SEP}{sha or ''}"
            for i, s, t, a, c, w, h, ow, oh, sha in zip(cols["id"], cols["clip_score"], texts, cols["alt"],
                                                        cols["caption"],
                                                     cols["width"], cols["height"], cols["original_width"],
                                                     cols["original_height"], cols["sha256"], strict=True)]


def id_of(node: str) -> str:
    return node.lstrip(PRIOR)[RANK_LEN:].rsplit(SEP, 1)[0]


def sha_of(node: str) -> str:
    return node.rsplit(SEP, 1)[1]


# -- hashes and bands ---------------------------------------------------------------------------------------------
def parse_hashes(values: list[str | None]) -> tuple[np.ndarray, np.ndarray]:
    """(uint64 values, valid mask) of 16-hex-digit hashes; null or malformed -> invalid."""
    out = np.zeros(len(values), dtype=np.uint64)
    ok = np.zeros(len(values), dtype=bool)
    for i, v in enumerate(values):
        if v is not None and _HEX16.match(v):
            out[i] = int(v, 16)
            ok[i] = True
    return out, ok


def band_slices(bands: int) -> list[tuple[int, int]]:
    """(shift, width) of each band: ``bands`` contiguous slices of the 64 bits, widths differing by at most 1."""
    if not 1 <= bands <= HASH_BITS:
        raise ValueError(f"bands must be in [1, {HASH_BITS}], got {bands}")
    base, extra = divmod(HASH_BITS, bands)
    out, shift = [], 0
    for b in range(bands):
        width = base + (1 if b < extra else 0)
        out.append((shift, width))
        shift += width
    return out


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: spreads band keys over the shuffle buckets (uint64 arithmetic wraps)."""
    s1, m1, s2, m2, s3 = _MIX
    x = (x ^ (x >> s1)) * m1
    x = (x ^ (x >> s2)) * m2
    return x ^ (x >> s3)


def band_keys(hashes: np.ndarray, bands: int, tag: str) -> np.ndarray:
    """(rows, bands) uint64 keys: a mix of (hash kind, band index, band value). Keys of different bands may collide
    (64 bits): that only adds a candidate, which verification rejects."""
    out = np.empty((len(hashes), bands), dtype=np.uint64)
    for b, (shift, width) in enumerate(band_slices(bands)):
        mask = np.uint64((1 << width) - 1)
        value = (hashes >> np.uint64(shift)) & mask
        salt = np.uint64(((_TAG[tag] << 8 | b) + 1) * _GOLDEN % (1 << 64))
        out[:, b] = _mix(value ^ salt)
    return out


def popcount(x: np.ndarray) -> np.ndarray:
    return np.bitwise_count(x)


def is_hex(s: str) -> bool:
    return bool(re.fullmatch(r"[0-9a-fA-F]+", s))


def hash_fallback(s: str) -> int:
    """A 64-bit key for a sha256 column value that is not hex (verification compares the whole string anyway)."""
    from dedup.minhash import hash_strings

    return int(hash_strings(pa.array([s], pa.string()))[0])
