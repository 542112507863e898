"""Per-wave memos of pure by-text computations that hold no text, shared by a local run's processes.

Why (issue 28). A page's interleaved document usually has its text document's very text (1,206 of 1,518 on
bench/e2e.py's input), and the quality signals of a text (filters/signals.py: the clear-junk rules and the quality
model read them) were computed once in each lane: on that input ``clear_junk_interleaved`` took 14.6 CPU-seconds
beside ``clear_junk``'s 25.8. An ``lru_cache`` keyed by the text could not reach across: it holds every text it keys
(kept to 1,024 entries for that reason), the lanes' batches are shared between this process and the filter workers
(pipelines/parallel.py), and the two lanes filtered the same pages at the same time. Three things together do:

- the key is a 128-bit digest of the text, not the text, so an entry costs the digest and the result (about half a
  kilobyte for the signals' floats) and a memo holds a whole wave;
- entries travel with the batches (``since``/``absorb``): a filter worker gets the entries this process has not yet
  sent it with each batch, and returns the ones it computed with its answer; this process keeps them all;
- the runner lets the interleaved lane's filters start once the text lane's are done (pipelines/runner.py
  ``_after_documents``), so that a twin's signals are there when it is judged.

The digest is BLAKE2b of the text's UTF-8 bytes, 16 bytes: the chance that two different texts of a run share one is
about n² / 2¹²⁹ (for a million texts, 10⁻²⁷), and hashing a 10 KB text costs about 15 µs against the signals' 7 ms.
Python's own ``hash`` (64 bits, and randomised per process) would make a wrong answer merely improbable.

Only the result is shared, never a decision: a memo whose entry is missing (evicted, a worker replaced mid-wave)
computes the value again, the same value. Memos are emptied after each wave with the other per-wave caches
(pipelines/heap.py ``per_wave``).
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Hashable
from functools import update_wrapper
from typing import Any, NamedTuple

# Entries of a memo: a wave's texts (bench/e2e.py's 8 files are 3,314 pages, a document and an interleaved text
# each, mostly the same) at about half a kilobyte each for the signals: at most about 8 MB.
WAVE_TEXTS = 16384

Key = tuple[bytes, tuple[Any, ...]]
Entry = tuple[str, Key, Any]  # (memo name, key, stored value)

_memos: dict[str, DigestMemo] = {}


class MemoInfo(NamedTuple):
    """As ``functools.lru_cache``'s ``cache_info()``, which pipelines/heap.py ``forget_waves_caches`` reads."""

    hits: int
    misses: int
    maxsize: int
    currsize: int


def digest(text: str) -> bytes:
    """The 16-byte BLAKE2b digest of ``text``'s UTF-8 (lone surrogates passed through, as a text may hold them)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class DigestMemo:
    """``fn(text, *args)`` memoised by ``(digest(text), args)``, at most ``maxsize`` entries, the oldest evicted
    first. Thread-safe (a local run's lanes are threads of one process); ``fn`` runs outside the lock, so two threads
    asking for the same new text may both compute it, the same value. ``pack``/``unpack`` store results compactly."""

    def __init__(self, fn: Callable[..., Any], maxsize: int, pack: Callable[[Any], Any] | None = None,
                 unpack: Callable[[Any], Any] | None = None) -> None:
        if maxsize < 1:
            raise ValueError(f"maxsize must be at least 1, got {maxsize}")
        self._fn, self.maxsize, self._pack, self._unpack = fn, maxsize, pack, unpack
        self._entries: dict[Key, Any] = {}
        self._log: list[Key] = []  # keys in the order they came here (computed or relayed): what ``since`` sends
        self._sent: dict[Hashable, int] = {}  # per reader, how much of the log it has been sent
        self._lock = threading.Lock()
        self._hits = self._misses = 0
        update_wrapper(self, fn)
        self.name = f"{fn.__module__}.{fn.__qualname__}"  # the same in every process of a run
        _memos[self.name] = self

    def __call__(self, text: str, *args: Any) -> Any:
        key = (digest(text), args)
        with self._lock:
            stored = self._entries.get(key, self)
            if stored is not self:
                self._hits += 1
        if stored is not self:
            return self._unpack(stored) if self._unpack else stored
        value = self._fn(text, *args)
        with self._lock:
            self._misses += 1
            self._store(key, self._pack(value) if self._pack else value, log=True)
        return value

    def _store(self, key: Key, stored: Any, log: bool) -> None:
        if key in self._entries:
            return
        self._entries[key] = stored
        if log:
            self._log.append(key)
            if len(self._log) > 2 * self.maxsize:
                # Where nobody empties the memo between waves (a Ray actor) or nobody reads it, the log would grow
                # by a key per text for ever: keep the newest ``maxsize``; a reader further behind misses the rest.
                cut = len(self._log) - self.maxsize
                del self._log[:cut]
                self._sent = {reader: max(0, sent - cut) for reader, sent in self._sent.items()}
        while len(self._entries) > self.maxsize:
            del self._entries[next(iter(self._entries))]

    def since(self, reader: Hashable) -> list[Entry]:
        """The entries ``reader`` has not been sent yet (evicted ones left out); they count as sent."""
        with self._lock:
            start = self._sent.get(reader, 0)
            self._sent[reader] = len(self._log)
            return [(self.name, key, self._entries[key]) for key in self._log[start:] if key in self._entries]

    def absorb(self, entries: list[tuple[Key, Any]], relay: bool) -> None:
        """Entries another process computed; ``relay``: handed on by ``since`` to other readers too."""
        with self._lock:
            for key, stored in entries:
                self._store(key, stored, log=relay)

    def forget_readers(self) -> None:
        with self._lock:
            self._sent.clear()

    def cache_info(self) -> MemoInfo:
        with self._lock:
            return MemoInfo(self._hits, self._misses, self.maxsize, len(self._entries))

    def cache_clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._log.clear()
            self._sent.clear()
            self._hits = self._misses = 0


def digest_memo(maxsize: int = WAVE_TEXTS, pack: Callable[[Any], Any] | None = None,
                unpack: Callable[[Any], Any] | None = None) -> Callable[[Callable[..., Any]], DigestMemo]:
    """Decorator form of ``DigestMemo``."""
    def wrap(fn: Callable[..., Any]) -> DigestMemo:
        return DigestMemo(fn, maxsize, pack, unpack)
    return wrap


def since(reader: Hashable) -> list[Entry]:
    """Every memo's entries not yet sent to ``reader`` (a filter worker: pipelines/parallel.py)."""
    return [entry for memo in list(_memos.values()) for entry in memo.since(reader)]


def absorb(entries: list[Entry], relay: bool) -> None:
    """Entries from another process, into the memos of the same names that this process has (a memo whose module
    this process never imported is left out: nothing here would ask it)."""
    by_memo: dict[str, list[tuple[Key, Any]]] = {}
    for name, key, stored in entries:
        by_memo.setdefault(name, []).append((key, stored))
    for name, items in by_memo.items():
        memo = _memos.get(name)
        if memo is not None:
            memo.absorb(items, relay)


def forget_readers() -> None:
    """The filter workers were stopped: a new one is sent every entry again."""
    for memo in list(_memos.values()):
        memo.forget_readers()
