"""Run a function in a long-lived child process under a per-call deadline.

trafilatura has no time limit of its own (its ``EXTRACTION_TIMEOUT`` setting applies to the command
line's file processing only), and a thread cannot be stopped in Python, so extraction runs in a
child process: the parent sends ``(args)`` over a pipe and waits at most ``time_limit_s`` for the
answer. On overrun the child is killed (SIGKILL) and the next call starts a fresh one. A child that
dies on its own (a segfault deep in libxml2, the OOM killer) is reported the same way, as
``WorkerDied``: either way the page is lost, never the process.

The child is a fresh interpreter (``subprocess`` running ``python -c``), not a fork: the parent may
be a Ray worker with threads, and forking a threaded process can deadlock the child on a lock held
at fork time; and unlike multiprocessing's ``spawn`` it does not re-import the parent's ``__main__``
(which breaks scripts without an ``if __name__ == "__main__"`` guard). The two pipes carry
``multiprocessing.connection.Connection`` messages (length-prefixed pickles). Starting (Python
plus trafilatura's imports) takes about a second and happens once per process and once per overrun;
the start-up is waited for without a deadline, so it never counts against a page. The per-call
cost is pickling the HTML and the result through a pipe (measured by bench/extract_bench.py).

``map(calls, time_limit_s)`` runs many calls with one call queued in the pipe behind the running one,
so the child never waits for the parent between calls (one ``call`` at a time costs the wake-up of
both processes per page: about 0.5 ms of a 15 ms page); each call still has its own limit, counted from
when the child takes it up, and an overrun or a crash costs only the call it happened on.

The same workers run a local run's filter steps (pipelines/parallel.py), under a limit per batch: the module is
the engine's, with extraction its first user.

One worker per process is shared by every caller (``shared_worker``): a Ray task unpickles its step
anew, but the worker process outlives it and is reused by the next task in the same Ray worker.
``map_shared(..., workers=N)`` shares one list of calls among N such workers, each taking the next call when it
has room (a process that has cores to spare: ``winnow run --local`` uses one per core).
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import pickle
import subprocess
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from pipelines import heap

try:
    import fcntl
except ImportError:  # not on Windows
    fcntl = None  # type: ignore[assignment]

START_TIMEOUT_S = 120.0  # a cold start imports lxml, trafilatura, htmldate, justext on a loaded machine
PIPE_BYTES = 1 << 20  # Linux's default /proc/sys/fs/pipe-max-size: the most an unprivileged process may set
UNKNOWN_PIPE_BYTES = 16384  # where a pipe's size cannot be read: the smallest default among Linux and the BSDs


class DeadlineExceeded(Exception):
    """The call ran longer than its time limit; the child was killed."""


class WorkerDied(Exception):
    """The child exited without answering (signal or exit code in the message)."""


class RemoteError(Exception):
    """The function raised in the child; ``exc_type`` names the exception class."""

    def __init__(self, exc_type: str, message: str, trace: str = "") -> None:
        super().__init__(f"{exc_type}: {message}")
        self.exc_type = exc_type
        self.message = message
        self.trace = trace


def serve(read_fd: int, write_fd: int, target: str) -> None:
    """Child main loop: import ``module:function``, answer calls until the pipe closes."""
    heap.limit_arenas()  # one page's HTML and parse at a time: its freed memory must go back (pipelines/heap.py)
    inbox = Connection(read_fd, writable=False)
    conn = Connection(write_fd, readable=False)
    module, _, name = target.partition(":")
    loaded = importlib.import_module(module)
    fn = getattr(loaded, name)
    warm_up = getattr(loaded, "warm_up", None)
    if warm_up is not None:
        # what every call needs once per process (models, their libraries) is loaded before "ready", so that no
        # page's time limit pays for it; a failure here is left for the calls to report
        with contextlib.suppress(Exception):
            warm_up()
    conn.send(("ready", None))
    while True:
        try:
            args = inbox.recv()
        except (EOFError, OSError):
            return
        try:
            result = ("ok", fn(*args))
        except BaseException as exc:  # every failure goes back to the parent as data
            passthrough = getattr(exc, "passthrough", False)
            result = ("raise", exc) if passthrough else (
                "error", (type(exc).__name__, str(exc)[:500], traceback.format_exc(limit=8)[-2000:]))
        try:
            conn.send(result)
        except Exception as exc:  # an unpicklable result must not kill the loop
            conn.send(("error", (type(exc).__name__, f"result not picklable: {exc}", "")))


def _widen(fd: int) -> int:
    """Give a pipe a ``PIPE_BYTES`` buffer (Linux), so that a typical page goes through in one write.

    With the default 64 KiB a 160 KB page (the benchmark's mean) crosses in three writes, each waiting for
    the other process to be scheduled and drain the pipe. Best effort: elsewhere, or over the system's
    ``/proc/sys/fs/pipe-max-size``, the default stays. Returns the pipe's size in bytes as far as known.
    """
    setpipe = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    getpipe = getattr(fcntl, "F_GETPIPE_SZ", None) if fcntl is not None else None
    if setpipe is not None:
        with contextlib.suppress(OSError):
            fcntl.fcntl(fd, setpipe, PIPE_BYTES)
    if getpipe is not None:
        with contextlib.suppress(OSError):
            return int(fcntl.fcntl(fd, getpipe))
    return UNKNOWN_PIPE_BYTES


class DeadlineWorker:
    """``call(args, time_limit_s)`` runs ``target(*args)`` in the child; see the module docstring."""

    def __init__(self, target: str) -> None:
        self.target = target
        self._proc: subprocess.Popen | None = None
        self._conn: Connection | None = None  # answers from the child
        self._send: Connection | None = None  # calls to the child
        self._lock = threading.Lock()
        self._pipe_bytes = UNKNOWN_PIPE_BYTES  # the size of the pipe to the child
        self.starts = 0  # how many children were started (1 + restarts after overruns/deaths)

    def _start(self) -> None:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        self._pipe_bytes = _widen(to_child_w)
        _widen(from_child_w)
        root = str(Path(__file__).resolve().parent.parent)  # the folder holding the packages
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (root, env.get("PYTHONPATH"))))
        # the child works one call at a time: OpenMP thread pools (scikit-learn's tree walk) only contend there
        env.setdefault("OMP_NUM_THREADS", "1")
        heap.prefer_malloc_for_arrow(env)  # before the child imports pyarrow (pipelines/heap.py)
        code = f"from pipelines.deadline import serve; serve({to_child_r}, {from_child_w}, {self.target!r})"
        try:
            proc = subprocess.Popen([sys.executable, "-c", code], pass_fds=(to_child_r, from_child_w), env=env,
                                    stdin=subprocess.DEVNULL, close_fds=True)
        finally:
            os.close(to_child_r)
            os.close(from_child_w)
        conn = Connection(from_child_r, writable=False)
        send = Connection(to_child_w, readable=False)
        self._proc, self._conn, self._send = proc, conn, send
        if not conn.poll(START_TIMEOUT_S):
            self._stop()
            raise WorkerDied(f"worker {self.target} did not start within {START_TIMEOUT_S:.0f}s")
        try:
            conn.recv()
        except (EOFError, OSError):
            self._stop()
            raise WorkerDied(f"worker {self.target} failed to start (exit code {proc.returncode})") from None
        self.starts += 1

    def _stop(self) -> None:
        proc, conn, send = self._proc, self._conn, self._send
        self._proc = self._conn = self._send = None
        for c in (conn, send):
            if c is not None:
                c.close()
        if proc is not None:
            if proc.poll() is None:
                proc.kill()
            proc.wait()

    def call(self, args: tuple[Any, ...], time_limit_s: float) -> Any:
        """``target(*args)`` in the child; raises DeadlineExceeded, WorkerDied, RemoteError or the child's
        passthrough exception."""
        ok, value = self.map([args], time_limit_s)[0]
        if not ok:
            raise value
        return value

    def map(self, calls: Iterable[tuple[Any, ...]], time_limit_s: float,
            answered: Callable[[tuple[bool, Any]], None] | None = None) -> list[tuple[bool, Any]]:
        """``target(*args)`` for each call, in order: ``(True, result)`` or ``(False, exception)`` each; also handed
        to ``answered`` as each comes, for a caller that uses an answer before the rest are in (pipelines/parallel.py).

        Each call gets ``time_limit_s`` from the moment the child starts it. While the child works on one
        call, the next is already waiting in the pipe (when it fits in the pipe's buffer, so that the write
        never blocks on a busy child): the child goes from one call to the next without waiting for this
        process to wake up, read the answer and send again (about 0.5 ms a page on the extraction
        benchmark, where a page takes about 15). A call over its limit or a dying child costs that call
        only: the child is replaced and the calls queued behind it are sent again.
        """
        todo = iter(calls)
        retry: deque[bytes] = deque()  # sent to a child that was replaced before it answered
        inflight: deque[list[Any]] = deque()  # [payload, started_at]; at most one running and one queued
        upcoming: bytes | None = None
        results: list[tuple[bool, Any]] = []
        with self._lock:
            try:
                while True:
                    while len(inflight) < 2:
                        if upcoming is None:
                            if retry:
                                upcoming = retry.popleft()
                            else:
                                args = next(todo, None)
                                if args is None:
                                    break
                                upcoming = pickle.dumps(args, protocol=pickle.HIGHEST_PROTOCOL)
                        if inflight and len(upcoming) + 16 > self._pipe_bytes:
                            break  # would not fit behind the running call: sent when the child is free
                        fresh = False
                        if not inflight and (self._proc is None or self._proc.poll() is not None):
                            self._stop()
                            try:
                                self._start()
                            except WorkerDied as exc:  # this call fails; the next one tries a new child
                                results.append((False, exc))
                                if answered is not None:
                                    answered(results[-1])
                                upcoming = None
                                continue
                            fresh = True
                        assert self._send is not None
                        try:
                            self._send.send_bytes(upcoming)
                        except OSError:
                            if inflight:
                                break  # the running call's answer (or the child's death) is read below
                            self._stop()
                            if fresh:  # a child that dies as soon as it is started: give up on this call
                                results.append((False, WorkerDied(f"worker {self.target} died on start")))
                                if answered is not None:
                                    answered(results[-1])
                                upcoming = None
                            continue  # else it had died between calls: not this call's fault, send again
                        inflight.append([upcoming, time.monotonic() if not inflight else None])
                        upcoming = None
                    if not inflight:
                        return results
                    results.append(self._answer(inflight, retry, time_limit_s))
                    if answered is not None:
                        answered(results[-1])
            finally:
                if inflight:  # left by an exception: the child's pipe holds calls nobody will read
                    self._stop()

    def _answer(self, inflight: deque[list[Any]], retry: deque[bytes], time_limit_s: float) -> tuple[bool, Any]:
        """Wait for the oldest call in flight; on overrun or death, replace the child and queue the rest again."""
        assert self._conn is not None and self._proc is not None
        started = inflight[0][1]
        ready = self._conn.poll(max(0.0, started + time_limit_s - time.monotonic()))
        failure: Exception | None = None
        if not ready:
            failure = DeadlineExceeded(f"over {time_limit_s:g}s")
        else:
            try:
                status, payload = self._conn.recv()
            except (EOFError, OSError):
                self._proc.wait()
                failure = WorkerDied(f"worker {self.target} died (exit code {self._proc.returncode})")
        inflight.popleft()
        if failure is not None:
            self._stop()
            retry.extendleft(reversed([entry[0] for entry in inflight]))
            inflight.clear()
            return False, failure
        if inflight:
            inflight[0][1] = time.monotonic()  # the queued call starts now
        if status == "ok":
            return True, payload
        if status == "raise":
            return False, payload
        return False, RemoteError(*payload)

    def close(self) -> None:
        with self._lock:
            self._stop()


_shared: dict[str, tuple[int, DeadlineWorker]] = {}
_shared_lock = threading.Lock()


def shared_worker(target: str, index: int = 0) -> DeadlineWorker:
    """This process's worker number ``index`` for ``target`` (a fresh one after a fork: a child must not use its
    parent's)."""
    key = target if index == 0 else f"{target}#{index}"
    with _shared_lock:
        entry = _shared.get(key)
        if entry is None or entry[0] != os.getpid():
            entry = (os.getpid(), DeadlineWorker(target))
            _shared[key] = entry
        return entry[1]


def close_shared(target: str) -> int:
    """Stop this process's shared workers for ``target`` (all indices); the next call starts them again. Returns how
    many were running. A local run calls it when a wave no longer needs them, so that their memory is not held beside
    the next workers it starts."""
    closed = 0
    with _shared_lock:
        for key, (pid, worker) in list(_shared.items()):
            if pid == os.getpid() and (key == target or key.startswith(f"{target}#")):
                closed += worker._proc is not None
                worker.close()
    return closed


class _Dealer:
    """Hands one list of calls out to several workers, the next call to whichever asks first."""

    def __init__(self, calls: list[tuple[Any, ...]]) -> None:
        self._next = enumerate(calls)
        self._lock = threading.Lock()

    def deal(self, taken: list[int]) -> Iterator[tuple[Any, ...]]:
        """The calls one worker takes, its indices noted in ``taken`` in the order taken."""
        while True:
            with self._lock:
                item = next(self._next, None)
            if item is None:
                return
            taken.append(item[0])
            yield item[1]


def map_shared(target: str, calls: list[tuple[Any, ...]], time_limit_s: float,
               workers: int = 1) -> list[tuple[bool, Any]]:
    """``DeadlineWorker.map`` over ``workers`` of this process's shared workers at once, answers in call order.

    Each worker takes the next call whenever it has room for one (one running, one queued: ``DeadlineWorker.map``),
    so the workers finish a list within about one call of each other however the heavy pages fall (dealt
    round-robin, call ``i`` to worker ``i % workers``, a list waited for whichever worker drew the heavier pages).
    Each worker's calls are fed from a thread of its own, which waits on the pipes without the GIL.
    """
    if workers <= 1 or len(calls) <= 1:
        return shared_worker(target).map(calls, time_limit_s)
    workers = min(workers, len(calls))
    dealer = _Dealer(calls)
    taken: list[list[int]] = [[] for _ in range(workers)]
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="winnow-deadline") as pool:
        parts = list(pool.map(lambda i: shared_worker(target, i).map(dealer.deal(taken[i]), time_limit_s),
                              range(workers)))
    answers: list[tuple[bool, Any]] = [(False, None)] * len(calls)
    for where, part in zip(taken, parts, strict=True):
        for i, answer in zip(where, part, strict=True):
            answers[i] = answer
    return answers


def run_calls(target: str, calls: list[tuple[Any, ...]], time_limit_s: float | None,
              workers: int = 1) -> list[Any]:
    """``target(*call)`` for each call (``"module:function"``), or the exception it failed with, in call order:
    through ``workers`` deadline workers under ``time_limit_s`` each, or in this process, without a limit, when
    ``time_limit_s`` is None."""
    if time_limit_s is not None:
        return [value for _, value in map_shared(target, calls, time_limit_s, workers)]
    module, _, name = target.partition(":")
    fn = getattr(importlib.import_module(module), name)
    answers: list[Any] = []
    for args in calls:
        try:
            answers.append(fn(*args))
        except Exception as exc:  # each call's failure is its own answer, as from a worker
            answers.append(exc)
    return answers


def check_time_limit(time_limit_s: Any) -> None:
    """A step's ``time_limit_s`` setting: positive seconds, or None for no limit (ValueError otherwise)."""
    if time_limit_s is not None and (isinstance(time_limit_s, bool) or not isinstance(time_limit_s, int | float)
                                     or not time_limit_s > 0):
        raise ValueError(f"time_limit_s must be a positive number of seconds or null, got {time_limit_s!r}")


def default_workers(workers: int | None = None) -> int:
    """Deadline workers for a step's batch: ``workers`` if set; else one per core outside Ray (``--local``: the
    pipeline's process is the only one working, and one child left a core idle), one inside a Ray worker (Ray
    runs a worker per core already)."""
    if workers is not None:
        return workers
    ray = sys.modules.get("ray")
    if ray is not None and ray.is_initialized():
        return 1
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@atexit.register
def _close_all() -> None:
    for pid, worker in list(_shared.values()):
        if pid == os.getpid():
            worker.close()
