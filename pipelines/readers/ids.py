"""Record ids derived from their source: a leaf module, so that the readers (and extraction, for pair ids) share
one definition without importing the readers package that imports them."""

from __future__ import annotations

import hashlib


def stable_id(key: str) -> str:
    """A 24-hex-digit id derived from ``key`` (BLAKE2b, 12 bytes): same key, same id, on any machine."""
    return hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()
