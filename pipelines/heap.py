"""The C heap of a local run's process (issue 28): fewer glibc malloc arenas, large blocks in pages of their own,
and freed heap returned after a wave and during it.

Why: most of the ``--local`` pipeline process's memory was not live data but heap glibc kept after peaks of
transient Python objects (docs/benchmarks.md, "Memory"): on one bench/e2e.py input file it peaked at 1.39 GB with
237 MB in Arrow's pool and ended at 1.09 GB with 6 MB; with ``MALLOC_ARENA_MAX=1`` it peaked at 1.00 GB and ended at
0.78 GB. glibc makes up to 8 arenas per core for threads that allocate at once (the runner's prefetch and lane
threads do), and each keeps its own freed memory (mallopt(3), ``M_ARENA_MAX``; the same knob as the environment
variable, which would have to be set before the interpreter starts). ``malloc_trim(0)`` hands the free pages at
the top and inside the arenas back to the kernel (malloc_trim(3)). Python objects over 512 bytes (a document's text
as ``str``) are glibc's; Arrow's buffers are too once it is asked (below), else they come from its own allocator.

Arrow's buffers too (``ARROW_POOL``): pyarrow allocates from its bundled mimalloc by default, which keeps freed
segments for reuse and is outside both knobs above. On the C library's malloc they come under the arena limit, the
page threshold and ``trim``. Arrow's C++ reads its default pool from ``ARROW_DEFAULT_MEMORY_POOL`` once, when first
asked, so it must be in the environment before pyarrow is imported: the ``winnow`` command sets it first thing
(``prefer_malloc_for_arrow``) and the worker processes inherit it (pipelines/deadline.py). bench/e2e.py at 3x (9,940
pages, two waves), peak RSS of the run: 1,404, 1,427 and 1,476 MB with mimalloc; 1,330, 1,283, 1,286 and 1,243 MB
with the variable set (two rounds by hand, two as shipped); 1,417 and 1,420 MB with ``pyarrow.set_memory_pool`` at the
run's start instead (it changes only the pool pyarrow's Python functions pass, not the one Arrow's C++ uses inside
readers and kernels). The same outputs and wall time (313-369 s in every form; 2026-12-05, one machine).

In a wave too (``Trimming``, every ``WINNOW_TRIM_SECONDS``, 0.5 s by default): the run's process peaked higher in
each wave than in the one before, though a wave's end left the same live data (bench/e2e.py ``--scale 3 --wave-files
8``: three waves of the 1x input's size, peaks of the run's process 613 / 717 / 755 MB). Sampled every 0.2 s in the
run's process (glibc's ``mallinfo2``; medians over each wave's extraction, where the peaks were): anonymous RSS 339 /
507 / 557 MB, of which glibc's live blocks (in the arena and mapped) 264 / 291 / 280 MB and pymalloc's arenas 64 / 90 /
107 MB, while the arena's *free* memory that was resident went 12 / 123 / 160 MB. ``trim`` after wave 1 returns
the free pages, but the arena keeps its size (260 MB of address space: live blocks remain near its top), and glibc
serves a request from the arena's free chunks before it asks the kernel for pages, the mmap threshold included: in
wave 1 the compact arena had no room for a page's HTML (about 250 KB) and those blocks were mapped and unmapped; in
the later waves they are cut out of the arena's free chunks, and freed they stay resident until the next trim.
Trimmed every 2 s, that resident free memory was 7 / 38 / 67 MB. What still grows is mostly live: pymalloc's arenas
(the two word caches ``filters.text.has_letter`` and ``filters.signals._odd`` filling up to their 131,072 entries
each, about 39 MB together) and 12-27 MB of glibc's; at 6x, with the trims, the peaks still rose 10-25 MB a wave from
wave 3 on (docs/benchmarks.md). bench/e2e.py on an idle machine, one round each
(2026-12-06): at 3x, peak RSS of the tree 1,154 MB without (``WINNOW_TRIM_SECONDS=0``) and 1,012 MB with the 0.5 s
thread; per wave, the run's process 613 / 717 / 755 against 573 / 621 / 628 MB and the tree 918 / 1,062 / 1,129
against 930 / 993 / 1,005 MB; 709.7 against 687.4 CPU-seconds; at 1x 955 against 931 MB (221.2 and 222.9 CPU-s). Every
2 s instead, on a busy machine: 548 / 634 / 646 MB, 288 trims taking 5.8 s in all (20 ms each, the arena locked
meanwhile). The same rows kept in every run. At 6x: 1,219 against 1,051 MB, wave 6's run's process 864 against 674
MB. Its cost, the 1x input in-process: 196 trims, 1.46 s; the run's process 81.3 against 79.6 CPU-seconds, 5.74
against 6.24 million minor page faults (trimmed pages touched again); at 6x 1,132 against 1,197 CPU-s of the tree,
one round each (docs/benchmarks.md).

All are no-ops where the C library is not glibc (macOS, musl): there they return False.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import logging
import os
import threading
import time
from collections.abc import MutableMapping
from typing import Any

log = logging.getLogger(__name__)

M_MMAP_THRESHOLD = -3  # glibc malloc.h
M_ARENA_MAX = -8
ARENAS = 1  # 1 measured best for peak memory (above); the threads that allocate are mostly serialised by the GIL
# Blocks from this size up get pages of their own, returned to the kernel when freed, when the arena has no free
# chunk to cut them from (glibc looks there first: see "In a wave" above). glibc starts at 128 KiB but
# raises the threshold to the size of each such block freed (up to 32 MiB), so after the first pages' HTML strings
# (about 250 KB each on bench/e2e.py's input) are freed, the next ones land in the heap and leave holes there:
# fixing it at 128 KiB turns that adjustment off (mallopt(3)). On two input files: peak 1.80 -> 1.41 GB.
MMAP_THRESHOLD = 128 * 1024


@functools.cache
def _libc() -> Any:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    if libc is None or not hasattr(libc, "mallopt") or not hasattr(libc, "malloc_trim"):
        return None
    return libc


def limit_arenas(arenas: int = ARENAS, mmap_threshold: int = MMAP_THRESHOLD) -> bool:
    """At most ``arenas`` malloc arenas from now on (best called before threads start), and large blocks in pages
    of their own; whether both took."""
    libc = _libc()
    return bool(libc and libc.mallopt(M_ARENA_MAX, arenas) == 1
                and libc.mallopt(M_MMAP_THRESHOLD, mmap_threshold) == 1)


ARROW_POOL = "system"  # Arrow's name for the C library's malloc


def prefer_malloc_for_arrow(environ: MutableMapping[str, str] | None = None) -> bool:
    """Ask Arrow for the C library's malloc (module docstring) in ``environ`` (default: this process's, which the
    processes it starts inherit), unless a pool was chosen there already or the C library is not glibc; whether it
    did. Takes effect only in a process that has not imported pyarrow yet."""
    environ = os.environ if environ is None else environ
    if _libc() is None or environ.get("ARROW_DEFAULT_MEMORY_POOL"):
        return False
    environ["ARROW_DEFAULT_MEMORY_POOL"] = ARROW_POOL
    return True


def trim() -> bool:
    """Return free heap to the kernel; whether any was."""
    libc = _libc()
    return bool(libc and libc.malloc_trim(0) == 1)


_per_wave: list[Any] = []


def per_wave(cached: Any) -> Any:
    """Register an ``lru_cache``d function (or a pipelines/memo.py memo) whose entries are worth nothing after a
    wave (caches by text: the next wave's texts are others), so that ``forget_waves_caches`` empties it before the
    heap is trimmed. A full cache of 1,024 documents' texts and what was computed from them held tens of MB after
    every wave, and the objects it kept alive pinned freed heap around them that ``trim`` could not return."""
    _per_wave.append(cached)
    return cached


def forget_waves_caches() -> int:
    """Empty every ``per_wave`` cache; how many entries were dropped."""
    dropped = 0
    for cached in _per_wave:
        dropped += cached.cache_info().currsize
        cached.cache_clear()
    return dropped


class Trimming:
    """``trim`` every ``seconds`` in a thread of its own, while the local runner's waves run (module docstring, "In
    a wave"); ``seconds`` 0 (``WINNOW_TRIM_SECONDS=0``): no thread, the heap is trimmed after each wave only.

    A context manager: the thread stops (after its trim under way, if any) when the block ends."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.trims = 0
        self.trim_seconds = 0.0  # spent in malloc_trim, the arena locked meanwhile
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Trimming:
        if self.seconds > 0 and _libc() is not None:
            self._thread = threading.Thread(target=self._loop, name="winnow-trim", daemon=True)
            self._thread.start()
        return self

    def _loop(self) -> None:
        while not self._stop.wait(self.seconds):
            started = time.perf_counter()
            trim()
            self.trim_seconds += time.perf_counter() - started
            self.trims += 1

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            log.debug("trimmed the heap %d times during the run, %.2f s in all", self.trims, self.trim_seconds)
