"""Per-step time, measured where the steps run and summed into stats.json (datatrove reports it per step too).

Each ``Step`` (alone or in a ``StepGroup``) adds the wall and CPU seconds of its ``process_batch`` and the records
it saw to an accumulator of its process, and writes that accumulator to ``<timing dir>/<pid>.json`` after each
batch (a few hundred bytes, replaced atomically). The runner names the folder per wave (``bind_timing``) before
the steps are shipped, so on Ray each worker or actor writes its own file; at the end of the wave the runner sums
the files of all processes into the wave record, and stats.json sums the waves.

CPU seconds are this thread's (``time.thread_time``): in ``--local`` extraction's batches are prepared in another
thread, and its trafilatura work is in a child process, so the ``extract`` step's CPU is its share of this
process, its wall time the time the batch was out. Dedup stages are not steps; the MinHash stage logs its own laps.
"""

from __future__ import annotations

import json
import os
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

_lock = threading.Lock()
_totals: dict[str, dict[str, list[float]]] = {}  # timing dir -> step -> [wall, cpu, records, batches]


@contextmanager
def measured(step: str, folder: str | None, records: int) -> Any:
    """Time the block as one batch of ``step``; written to ``folder`` (when given) afterwards."""
    wall, cpu = time.perf_counter(), time.thread_time()
    try:
        yield
    finally:
        add(step, folder, time.perf_counter() - wall, time.thread_time() - cpu, records)


def add(step: str, folder: str | None, wall: float, cpu: float, records: int) -> None:
    if folder is None:
        return
    with _lock:  # one file per process, holding the process's totals: written under the lock, newest last
        totals = _totals.setdefault(folder, {}).setdefault(step, [0.0, 0.0, 0, 0])
        totals[0] += wall
        totals[1] += cpu
        totals[2] += records
        totals[3] += 1
        path = Path(folder) / f"{os.getpid()}.json"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.tmp")
            tmp.write_text(json.dumps(_totals[folder]))
            os.replace(tmp, path)
        except OSError:  # timing is a report, never a reason to lose a batch
            pass


def collect(folder: str) -> dict[str, dict[str, float]]:
    """The sum over every process's file in ``folder``: step -> {seconds, cpu_seconds, records, batches}."""
    out: dict[str, dict[str, float]] = {}
    for path in sorted(Path(folder).glob("*.json")):
        try:
            data = json.loads(path.read_text())
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
    return {s: {k: round(v, 3) if isinstance(v, float) else v for k, v in e.items()} for s, e in out.items()}
