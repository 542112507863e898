"""URL filter: adult, malware and phishing sites, and banned words in URLs (RefinedWeb, Penedo et al. 2023,
appendix G.1 "URL filtering"; the FineWeb URL filter, Penedo et al. 2024).

Lists (data of the ``datatrove`` package, read as files; its code is not imported):

- UT1 blocklist v0.3 (Université Toulouse 1 Capitole, CC BY-SA 4.0; the list RefinedWeb and FineWeb
  use): 4.56M domains (adult, malware, phishing, ...) and 19.6k full page addresses.
- RefinedWeb's URL words: "banned words" (a URL token equal to one drops it), "banned subwords"
  (phrases matched inside the URL with punctuation removed, so ``freesexvideos.com`` matches
  "free sex"), "soft banned words" (two or more distinct ones in the URL's tokens drop it).

Drop reasons: ``blocked_domain`` (the host or a parent domain is listed), ``blocked_url``,
``banned_word``, ``banned_subword``, ``soft_banned_words``. ``kind: page`` (before extraction, so no
work is spent on a blocked page) and ``document`` check the URL; ``kind: image_text`` checks the page URL
and the image URL; ``interleaved`` the page URL, and image segments whose image URL is blocked are removed.

The 4.56M domains are held as a sorted array of 64-bit hashes (xxh64; 36 MB, a collision chance of
about 2.5e-13 per lookup), built from the list once (about 5 s) and cached in ``WINNOW_CACHE_DIR``
(default ``~/.cache/winnow``) under a digest of the archive's bytes, so every installation of the same list shares
one file; each worker process memory-maps it on first use.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np
import xxhash

from filters.text import ALL_KINDS, check_kind
from filters.ut1 import ut1_archive, ut1_lines
from pipelines.settings import env as env_setting
from pipelines.step import Drop, Step

_NON_ALNUM = re.compile(r"[\W_]+")


def cache_dir() -> Path:
    return Path(env_setting("WINNOW_CACHE_DIR") or Path.home() / ".cache" / "winnow")


def _read_member(name: str) -> list[str]:
    return [line.strip().lower() for line in ut1_lines(name) if line.strip()]


def _hash(domain: str) -> int:
    return xxhash.xxh64_intdigest(domain.encode("utf-8", "replace"))


def archive_key(archive: Path) -> str:
    """The cache key of a UT1 archive: a digest of its bytes (22 ms for its 18 MB). Keyed by path and mtime before,
    every new virtual environment (a fresh clone, a CI run) installed the same archive anew and built a 36 MB table
    of its own: 44 of them, 1.6 GB, had piled up in one machine's cache."""
    with archive.open("rb") as f:
        return hashlib.file_digest(f, lambda: hashlib.blake2b(digest_size=8)).hexdigest()


@functools.lru_cache(maxsize=1)
def blocked_domains() -> np.ndarray:
    """Sorted uint64 hashes of UT1's domains (built once per archive content, then memory-mapped from the cache)."""
    path = cache_dir() / f"ut1-domains-{archive_key(ut1_archive())}.npy"
    if not path.is_file():
        hashes = np.fromiter((_hash(d) for d in _read_member("domains")), dtype=np.uint64)
        hashes = np.unique(hashes)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with tmp.open("wb") as f:
            np.save(f, hashes)
        os.replace(tmp, path)
    return np.load(path, mmap_mode="r")


@functools.lru_cache(maxsize=1)
def blocked_urls() -> frozenset[str]:
    return frozenset(u.removeprefix("www.").rstrip("/") for u in _read_member("urls"))


def _asset(name: str) -> list[str]:
    folder = ut1_archive().parent
    return [line.strip().lower() for line in (folder / name).read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


@functools.lru_cache(maxsize=1)
def url_words() -> tuple[frozenset[str], re.Pattern[str] | None, frozenset[str]]:
    banned = frozenset(_asset("banned_words.txt"))
    subwords = sorted({_NON_ALNUM.sub("", s) for s in _asset("banned_subwords.txt")} - {""}, key=len, reverse=True)
    soft = frozenset(_asset("soft_banned_words.txt"))
    return banned, (re.compile("|".join(map(re.escape, subwords))) if subwords else None), soft


def _parents(host: str) -> list[str]:
    """``a.b.example.com`` -> [a.b.example.com, b.example.com, example.com] (never a bare TLD)."""
    parts = host.split(".")
    return [".".join(parts[i:]) for i in range(max(1, len(parts) - 1))]


class URLFilter(Step):
    default_name = "url_filter"

    def __init__(self, kind: str = "document", blocklist: bool = True, url_words: bool = True,
                 soft_word_threshold: int = 2, extra_domains: list[str] | None = None,
                 allow_domains: list[str] | None = None) -> None:
        self.input_kind = check_kind(kind, (*ALL_KINDS, "page"))
        for name, value in (("blocklist", blocklist), ("url_words", url_words)):
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be a bool, got {value!r}")
        if isinstance(soft_word_threshold, bool) or not isinstance(soft_word_threshold, int) or soft_word_threshold < 1:
            raise ValueError(f"soft_word_threshold must be a positive integer, got {soft_word_threshold!r}")
        for name, value in (("extra_domains", extra_domains), ("allow_domains", allow_domains)):
            if value is not None and (not isinstance(value, list) or not all(isinstance(d, str) and d for d in value)):
                raise ValueError(f"{name} must be a list of domains, got {value!r}")
        self.blocklist = blocklist
        self.url_words = url_words
        self.soft_word_threshold = soft_word_threshold
        self.extra_domains = sorted({d.lower().removeprefix("www.") for d in extra_domains or ()})
        self.allow_domains = sorted({d.lower().removeprefix("www.") for d in allow_domains or ()})

    # No ``setup``: the lists load on first use, once per worker process (module-level caches), so the
    # step runs as plain tasks and does not take an actor pool of its own (the domain table is memory-mapped).
    def load(self) -> None:
        """Load the lists now (tests, benchmarks); otherwise the first URL checked loads them."""
        if self.blocklist:
            blocked_domains()
            blocked_urls()
        if self.url_words:
            url_words()

    def verdict(self, url: str | None) -> tuple[str, str] | None:
        """``(reason, detail)`` when ``url`` is to be dropped, else None."""
        if not url:
            return None
        try:
            parts = urlsplit(url.strip())
            host = (parts.hostname or "").removeprefix("www.")
        except ValueError:
            return None
        if not host:
            return None
        domains = _parents(host)
        allow = set(self.allow_domains)
        if allow and any(d in allow for d in domains):
            return None
        extra = set(self.extra_domains)
        for d in domains:
            if d in extra:
                return "blocked_domain", d
        if self.blocklist:
            table = blocked_domains()
            for d in domains:
                h = np.uint64(_hash(d))
                i = int(np.searchsorted(table, h))
                if i < len(table) and table[i] == h:
                    return "blocked_domain", d
            bare = (host + parts.path).rstrip("/")
            if bare in blocked_urls():
                return "blocked_url", bare[:200]
        if self.url_words:
            banned, subwords, soft = url_words()
            lowered = url.lower()
            tokens = [t for t in _NON_ALNUM.split(lowered) if t]
            for t in tokens:
                if t in banned:
                    return "banned_word", t
            if subwords is not None and (m := subwords.search(_NON_ALNUM.sub("", lowered))):
                return "banned_subword", m.group()
            found = sorted({t for t in tokens if t in soft})
            if len(found) >= self.soft_word_threshold:
                return "soft_banned_words", " ".join(found)
        return None

    def process(self, record: Any) -> Any:
        hit = self.verdict(record.url)
        if hit is None and record.kind == "image_text":
            hit = self.verdict(record.image_url)
        if hit is not None:
            raise Drop(*hit)
        if record.kind == "interleaved":
            record.segments = [s for s in record.segments if s.kind != "image" or self.verdict(s.image_url) is None]
        return record
