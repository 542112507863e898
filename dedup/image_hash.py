"""Perceptual hashes of images, the keys of image dedup (issue 17).

Two 64-bit hashes per image, both from imagehash (https://github.com/JohannesBuchner/imagehash) at its default
``hash_size=8``, stored as 16 hex digits (``str(ImageHash)``):

- ``phash``: DCT of a 32x32 greyscale copy, low 8x8 frequencies against their median (Zauner 2010, "Implementation
  and Benchmarking of Perceptual Image Hash Functions", the pHash design); robust to rescaling and re-encoding.
- ``dhash``: sign of horizontal gradients of a 9x8 greyscale copy (Krawetz, "Kind of Like That", 2013); cheap, a
  second opinion that catches what one hash misses.

Both are computed on the decoded image as fetched, before any resize for storage, so the stored size does not move
them. The distance used to call two images duplicates, and where it comes from, is in ``dedup/images.py``.
"""

from __future__ import annotations

import imagehash
from PIL import Image

HASH_BITS = 64


def perceptual_hashes(image: Image.Image) -> tuple[str, str]:
    """``(phash, dhash)`` of a decoded image, each 16 hex digits."""
    return str(imagehash.phash(image)), str(imagehash.dhash(image))


def hamming(a: str, b: str) -> int:
    """Bits that differ between two hashes given as hex strings of equal length."""
    if len(a) != len(b):
        raise ValueError(f"hashes of different lengths: {a!r}, {b!r}")
    return (int(a, 16) ^ int(b, 16)).bit_count()
