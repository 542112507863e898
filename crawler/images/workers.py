"""``winnow images fetch --workers N``: the fetch split over N processes, each image host fetched by exactly one.

Why processes: one fetch process is bound by its one Scrapy reactor thread (Twisted's socket reads and HTTP parsing,
the downloader, the callbacks) and the GIL it shares with the decoding threads; on the image bench
(bench/image_fetch_bench.py) one process used 1.1 of 2 cores. Hosts, not URLs, are split, so every host keeps one
download slot with its own concurrency, delay, Retry-After and robots.txt, exactly as with one process.

Why fork, not Ray (``winnow crawl --workers``) or a fresh interpreter: a worker inherits the imported stack (Scrapy,
Pillow, pyarrow: 0.9-1.1 CPU-s to import here) and the plan (the ids already done, the shared-URL counts) instead of
building them again, and a Ray start costs seconds (bench/distributed_crawl_bench.py). What a crawl imports only as
it starts is imported before the fork too (crawler/images/split.py ``preload``): a fetch of one image from each of two
hosts took 2.0-2.1 CPU-s in one process and 2.9-3.0 with two workers before that, 2.4-2.7 after. A worker is forked
before any reactor or event loop exists (the parent runs neither) and installs its own. Linux only (``os.fork`` and
``prctl``); elsewhere ``--workers`` is refused.

Signals: each worker runs in its own process group, so a terminal's Ctrl-C reaches the parent alone, which passes
SIGINT (and SIGTERM) on to every worker once: each stops as one fetch does (requests in flight finished, shards
committed; ``--resume`` continues). A worker dies with the parent (``PR_SET_PDEATHSIG``): ``kill -9`` of the parent
is ``kill -9`` of the fetch, which ``--resume`` continues.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
POLL_S = 0.2


@dataclass
class WorkerResult:
    worker: int
    exitcode: int | None
    result: dict[str, Any] | None = None  # what the worker's target returned
    error: str = ""  # the traceback's last line of a worker that raised, or how it ended

    @property
    def ok(self) -> bool:
        return self.exitcode == 0 and self.result is not None


@dataclass
class _Child:
    worker: int
    process: Any
    conn: Any
    result: dict[str, Any] | None = None
    error: str = ""


def supported() -> bool:
    return sys.platform.startswith("linux")


def run_workers(workers: int, target: Callable[[int, Callable[[], None]], dict[str, Any]],
                on_progress: Callable[[int], None] | None = None) -> list[WorkerResult]:
    """Fork ``workers`` processes, each running ``target(k, on_row)``; wait for all; their results in worker order.

    ``on_row`` counts a handled row in shared memory; ``on_progress(n)`` is called in this process with the rows
    handled since its last call (for a progress bar)."""
    ctx = multiprocessing.get_context("fork")
    counts = ctx.Array("q", workers, lock=False)  # one writer per slot: no lock needed
    children: list[_Child] = []
    for k in range(workers):
        receive, send = ctx.Pipe(duplex=False)
        process = ctx.Process(target=_child_main, args=(k, target, counts, send), name=f"winnow-images-{k}",
                              daemon=False)
        process.start()
        send.close()
        children.append(_Child(k, process, receive))
    forwarded: dict[int, Any] = {}

    def forward(signum: int, _frame: Any) -> None:
        for child in children:
            if child.process.is_alive():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child.process.pid, signum)

    for signum in (signal.SIGINT, signal.SIGTERM):
        forwarded[signum] = signal.signal(signum, forward)
    shown = 0
    try:
        while True:
            for child in children:
                _drain(child)
            if on_progress is not None:
                total = sum(counts)
                if total > shown:
                    on_progress(total - shown)
                    shown = total
            alive = [child.process.sentinel for child in children if child.process.is_alive()]
            if not alive:
                break
            # Woken at once when a worker ends or sends its result, else after POLL_S to move the progress bar:
            # the parent's work after the last worker must not wait on a sleep.
            wait([*alive, *(child.conn for child in children if not child.conn.closed)], timeout=POLL_S)
        for child in children:
            child.process.join()
            _drain(child)
        if on_progress is not None and sum(counts) > shown:
            on_progress(sum(counts) - shown)
    finally:
        for signum, handler in forwarded.items():
            signal.signal(signum, handler)
    results = []
    for child in children:
        code = child.process.exitcode
        error = child.error
        if not error and code != 0:
            error = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        results.append(WorkerResult(child.worker, code, child.result, error))
        child.conn.close()
    return results


def _drain(child: _Child) -> None:
    """Take what the worker sent; its end of the pipe closed (it exited): close ours, so it is waited on no more."""
    try:
        while not child.conn.closed and child.conn.poll():
            message = child.conn.recv()
            if "error" in message:
                child.error = message["error"]
            else:
                child.result = message["result"]
    except (EOFError, OSError):
        child.conn.close()


def _child_main(k: int, target: Callable[[int, Callable[[], None]], dict[str, Any]], counts: Any, conn: Any) -> None:
    os.setpgid(0, 0)  # the terminal's Ctrl-C goes to the parent, which passes it on once
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() == 1:  # the parent died before prctl took effect
        os._exit(1)
    # The parent's handlers (the forwarder above is installed after the fork, but be explicit): Scrapy installs its
    # own when its crawl starts; until then a signal stops the worker the default way.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)

    def on_row() -> None:
        counts[k] += 1

    try:
        result = target(k, on_row)
    except BaseException as exc:  # reported to the parent, which says which worker failed and how
        log.error("image fetch worker %d failed:\n%s", k, traceback.format_exc())
        last = traceback.format_exception_only(type(exc), exc)[-1].strip()
        with contextlib.suppress(OSError):
            conn.send({"error": last})
        conn.close()
        os._exit(1)
    conn.send({"result": result})
    conn.close()
