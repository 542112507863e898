"""Per-step time, measured where the steps run and summed into stats.json (datatrove reports it per step too).

Each ``Step`` (alone or in a ``StepGroup``) adds the wall and CPU seconds of its ``process_batch`` and the records
it saw to an accumulator of its process, and writes that accumulator to ``<timing dir>/<pid>.json`` after each
batch (a few hundred bytes, replaced atomically). The runner names the folder per wave (``bind_timing``) before
the steps are shipped, so on Ray each worker or actor writes its own file; at the end of the wave the runner sums
the files of all processes into the wave record, and stats.json sums the waves.

The folder may be in an object store (a Ray cluster writing to a bucket, where nodes share no disk): there the
file is named ``<host>-<pid>.json`` (process ids repeat across nodes) and written at most once per
``REMOTE_WRITE_S`` (one PUT per batch of every step would cost more than many steps take), the newest totals written
by a timer at the latest ``REMOTE_WRITE_S`` after the last batch; ``collect`` waits that long before it reads.

CPU seconds are this thread's (``time.thread_time``): in ``--local`` extraction's batches are prepared in another
thread, and its trafilatura work is in a child process, so the ``extract`` step's CPU is its share of this
process, its wall time the time the batch was out. Dedup stages are not steps; the MinHash stage logs its own laps.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
from contextlib import contextmanager
from typing import Any

from pipelines import storage

REMOTE_WRITE_S = 2.0
_lock = threading.Lock()
_totals: dict[str, dict[str, list[float]]] = {}  # timing dir -> step -> [wall, cpu, records, batches]
_written_at: dict[str, float] = {}  # remote timing dir -> when this process last wrote its file there
_timers: dict[str, threading.Timer] = {}


@contextmanager
def measured(step: str, folder: str | None, records: int) -> Any:
    """Time the block as one batch of ``step``; written to ``folder`` (when given) afterwards."""
    wall, cpu = time.perf_counter(), time.thread_time()
    try:
        yield
    finally:
        add(step, folder, time.perf_counter() - wall, time.thread_time() - cpu, records)


def _file(folder: str) -> str:
    name = f"{socket.gethostname()}-{os.getpid()}.json" if storage.is_remote(folder) else f"{os.getpid()}.json"
    return storage.join(folder, name)


def _write(folder: str) -> None:
    """This process's totals for ``folder`` to its file (under the lock)."""
    with contextlib.suppress(OSError):  # timing is a report, never a reason to lose a batch
        storage.write_bytes(_file(folder), json.dumps(_totals[folder]).encode())


def _write_later(folder: str) -> None:
    with _lock:
        _timers.pop(folder, None)
        if folder in _totals:
            _written_at[folder] = time.monotonic()
            _write(folder)


def add(step: str, folder: str | None, wall: float, cpu: float, records: int) -> None:
    if folder is None:
        return
    with _lock:  # one file per process, holding the process's totals: written under the lock, newest last
        totals = _totals.setdefault(folder, {}).setdefault(step, [0.0, 0.0, 0, 0])
        totals[0] += wall
        totals[1] += cpu
        totals[2] += records
        totals[3] += 1
        if not storage.is_remote(folder):
            _write(folder)
            return
        wait = _written_at.get(folder, -REMOTE_WRITE_S) + REMOTE_WRITE_S - time.monotonic()
        if wait <= 0:
            _written_at[folder] = time.monotonic()
            _write(folder)
        elif folder not in _timers:
            timer = threading.Timer(wait, _write_later, (folder,))
            timer.daemon = True
            _timers[folder] = timer
            timer.start()


def collect(folder: str) -> dict[str, dict[str, float]]:
    """The sum over every process's file in ``folder``: step -> {seconds, cpu_seconds, records, batches}."""
    if storage.is_remote(folder):
        time.sleep(REMOTE_WRITE_S + 0.5)  # the last timer-delayed write of each process (see the docstring)
    out: dict[str, dict[str, float]] = {}
    for name in storage.list_names(folder):
        if not name.endswith(".json") or name.startswith("."):
            continue
        try:
            data = json.loads(storage.read_bytes(storage.join(folder, name)))
        except (OSError, ValueError):
            continue
        for step, (wall, cpu, records, batches) in data.items():
            entry = out.setdefault(step, {"seconds": 0.0, "cpu_seconds": 0.0, "records": 0, "batches": 0})
            entry["seconds"] += wall
            entry["cpu_seconds"] += cpu
            entry["records"] += records
            entry["batches"] += batches
    with _lock:
        _totals.pop(folder, None)
        _written_at.pop(folder, None)
    return {s: {k: round(v, 3) if isinstance(v, float) else v for k, v in e.items()} for s, e in out.items()}
