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

One worker per process is shared by every caller (``shared_worker``): a Ray task unpickles its step
anew, but the worker process outlives it and is reused by the next task in the same Ray worker.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import subprocess
import sys
import threading
import traceback
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # not on Windows
    fcntl = None  # type: ignore[assignment]

START_TIMEOUT_S = 120.0  # a cold start imports lxml, trafilatura, htmldate, justext on a loaded machine
PIPE_BYTES = 1 << 20  # Linux's default /proc/sys/fs/pipe-max-size: the most an unprivileged process may set


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
    inbox = Connection(read_fd, writable=False)
    conn = Connection(write_fd, readable=False)
    module, _, name = target.partition(":")
    fn = getattr(importlib.import_module(module), name)
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


def _widen(fd: int) -> None:
    """Give a pipe a ``PIPE_BYTES`` buffer (Linux), so that a typical page goes through in one write.

    With the default 64 KiB a 160 KB page (the benchmark's mean) crosses in three writes, each waiting for
    the other process to be scheduled and drain the pipe. Best effort: elsewhere, or over the system's
    ``/proc/sys/fs/pipe-max-size``, the default stays.
    """
    setpipe = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    if setpipe is None:
        return
    with contextlib.suppress(OSError):
        fcntl.fcntl(fd, setpipe, PIPE_BYTES)


class DeadlineWorker:
    """``call(args, time_limit_s)`` runs ``target(*args)`` in the child; see the module docstring."""

    def __init__(self, target: str) -> None:
        self.target = target
        self._proc: subprocess.Popen | None = None
        self._conn: Connection | None = None  # answers from the child
        self._send: Connection | None = None  # calls to the child
        self._lock = threading.Lock()
        self.starts = 0  # how many children were started (1 + restarts after overruns/deaths)

    def _start(self) -> None:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        for fd in (to_child_w, from_child_w):
            _widen(fd)
        root = str(Path(__file__).resolve().parent.parent)  # the folder holding the extract package
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (root, env.get("PYTHONPATH"))))
        code = f"from extract.deadline import serve; serve({to_child_r}, {from_child_w}, {self.target!r})"
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
            raise WorkerDied(f"extraction worker did not start within {START_TIMEOUT_S:.0f}s")
        try:
            conn.recv()
        except (EOFError, OSError):
            self._stop()
            raise WorkerDied(f"extraction worker failed to start (exit code {proc.returncode})") from None
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
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._stop()
                self._start()
            assert self._conn is not None and self._send is not None and self._proc is not None
            try:
                self._send.send(args)
                ready = self._conn.poll(time_limit_s)
            except (BrokenPipeError, EOFError, OSError):
                ready = True  # the child is gone: recv below reports how
            if not ready:
                self._stop()
                raise DeadlineExceeded(f"over {time_limit_s:g}s")
            try:
                status, payload = self._conn.recv()
            except (EOFError, OSError):
                proc = self._proc
                self._stop()
                raise WorkerDied(f"extraction worker died (exit code {proc.returncode})") from None
        if status == "ok":
            return payload
        if status == "raise":
            raise payload
        raise RemoteError(*payload)

    def close(self) -> None:
        with self._lock:
            self._stop()


_shared: dict[str, tuple[int, DeadlineWorker]] = {}
_shared_lock = threading.Lock()


def shared_worker(target: str) -> DeadlineWorker:
    """This process's worker for ``target`` (a fresh one after a fork: a child must not use its parent's)."""
    with _shared_lock:
        entry = _shared.get(target)
        if entry is None or entry[0] != os.getpid():
            entry = (os.getpid(), DeadlineWorker(target))
            _shared[target] = entry
        return entry[1]


@atexit.register
def _close_all() -> None:
    for pid, worker in list(_shared.values()):
        if pid == os.getpid():
            worker.close()
