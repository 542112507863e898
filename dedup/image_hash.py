"""Perceptual hashes of images, the keys of image dedup (issue 17).

Two 64-bit hashes per image, both from imagehash (https://github.com/JohannesBuchner/imagehash) at its default
``hash_size=8``, stored as 16 hex digits (``str(ImageHash)``):

- ``phash``: DCT of a 32x32 greyscale copy, low 8x8 frequencies against their median (Zauner 2010, "Implementation
  and Benchmarking of Perceptual Image Hash Functions", the pHash design); robust to rescaling and re-encoding.
- ``dhash``: sign of horizontal gradients of a 9x8 greyscale copy (Krawetz, "Kind of Like That", 2013); cheap, a
  second opinion that catches what one hash misses.

Both are computed on the decoded image as fetched, before any resize for storage, so the stored size does not move
them. The distance used to call two images duplicates, and where it comes from, is in ``dedup/images.py``.

Cost: imagehash converts the image to greyscale and Lanczos-resizes it from full size, once per hash: on the image
bench's pictures (256-1024 px, bench/image_fetch_bench.py) that was 2.1 ms of the fetch's 4.8 ms of checking per
image, and the Lanczos resize alone about 0.5 ms a hash. Here the greyscale copy is made once and box-reduced by an
integer factor to at least ``HASH_SIDE`` (64) px on its shorter side first, twice the 32 px pHash works on; JPEGs are
decoded for this at a DCT-scaled size of at least ``HASH_SIDE`` (``crawler/images/check.py``), which comes to the
same. Checking a picture went from 2.4 ms (reduced to 128 px) to 1.7 ms (64 px) on 400 of the bench's pictures; the
hashes are 1.3 bits (pHash) and 0.9 bits (dHash) from imagehash's full-size ones on average, at most 6 and 5 of 64,
and the dedup bench on these hashes (bench/image_dedup_bench.py, its docstring) still gives precision 0.987 and
recall 0.962 at the default thresholds.
"""

from __future__ import annotations

import imagehash
from PIL import Image

HASH_BITS = 64
HASH_SIDE = 64  # px on the shorter side that the hashes start from (see above)


def perceptual_hashes(image: Image.Image) -> tuple[str, str]:
    """``(phash, dhash)`` of a decoded image, each 16 hex digits."""
    grey = image.convert("L")
    factor = min(grey.size) // HASH_SIDE
    if factor > 1:
        grey = grey.reduce(factor)
    return str(imagehash.phash(grey)), str(imagehash.dhash(grey))


def hamming(a: str, b: str) -> int:
    """Bits that differ between two hashes given as hex strings of equal length."""
    if len(a) != len(b):
        raise ValueError(f"hashes of different lengths: {a!r}, {b!r}")
    return (int(a, 16) ^ int(b, 16)).bit_count()
