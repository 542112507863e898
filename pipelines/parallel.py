"""A local run's filter steps on every core: batches of a step (or step group) through worker processes, in order.

Why (issue 28). ``winnow run --local`` extracts in one worker process per core (pipelines/deadline.py) while the
pipeline's own process runs the filters beside it. Once a lane has passed a Stage (host language, host quality,
dedup) the wave's extraction is over, yet the filters after it ran in that one process: on bench/e2e.py's input
the default chain kept 1.31 of the 2 cores busy, 110 of its 194 seconds with one core idle. Here the batches of
such a step go to ``workers`` processes (one per core by default), each batch whole to one worker, the answers
in input order: the rows, their order and their ``dropped_by`` are the same as in this process.

The workers are pipelines/deadline.py's: fresh interpreters (not forks of a process holding a wave of data and
threads) fed over pipes. Each unpickles a step once per set of parameters and calls its ``setup`` (models load
there, as in a Ray actor); the step's per-wave step-time folder comes with every batch, so step times land in
stats.json as from Ray's workers. A batch that fails in a worker (the worker died, ran past
``BATCH_LIMIT_S``, or the step raised outside its own per-record handling) is run again in this process, with a
warning: never a lost batch, never a failed wave that this process would have finished.

What runs here: the runner sends a step only when the run is local, more than one worker is wanted, the step works
in-process on the CPU (not extraction, not a GPU step, not one whose model spreads over the cores itself:
``Step.multicore``) and a Stage came before it in its lane. Small inputs stay in
this process: a lane with fewer than ``MIN_BATCHES`` batches after the Stage is not worth starting workers (about
a second each, the imports of the filters and their models). The runner stops the workers after each wave
(``release``): the next wave's extraction workers then start beside no idle filter workers, and the tree's peak
memory stays what one set of workers costs.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import pickle
from collections.abc import Iterable, Iterator
from typing import Any

import pyarrow as pa

from pipelines.deadline import close_shared, map_shared

log = logging.getLogger(__name__)

TARGET = "pipelines.parallel:run_batch"
# A batch is 256 records; the slowest filter batch measured on bench/e2e.py took about 4 s. The limit is there
# only so that a worker stuck in a pathological regular expression cannot hang the run: past it the batch is
# run again in this process, as it would have been without workers.
BATCH_LIMIT_S = 900.0
MIN_BATCHES = 4  # fewer batches after a Stage: run in this process (see the module docstring)
ROUND_BATCHES = 4  # batches handed out per worker at a time: enough that a slow batch does not idle the others

_set_up: dict[bytes, Any] = {}  # in a worker: the steps unpickled and set up so far, by their pickle's digest


def _member_steps(step: Any) -> list[Any]:
    return list(getattr(step, "steps", None) or [step])


def pickled(step: Any) -> bytes:
    """The step's pickle without its per-wave step-time folder (which travels with each batch), so that every wave
    sends the same bytes and a worker sets a step up once per run."""
    members = _member_steps(step)
    saved = [(m, m.__dict__.get("timing_dir"), m.__dict__.get("_local_setup_done")) for m in members]
    try:
        for m in members:
            m.timing_dir = None
            m.__dict__.pop("_local_setup_done", None)
        return pickle.dumps(step, protocol=5)
    finally:
        for m, folder, done in saved:
            m.timing_dir = folder
            if done is not None:
                m._local_setup_done = done


def run_batch(step_bytes: bytes, table: pa.Table, timing_dir: str | None) -> pa.Table:
    """In a worker: the step (set up once) over one batch."""
    key = hashlib.blake2b(step_bytes, digest_size=16).digest()
    step = _set_up.get(key)
    if step is None:
        step = pickle.loads(step_bytes)
        step.setup()
        _set_up[key] = step
    for member in _member_steps(step):
        member.timing_dir = timing_dir
    return step(table)


def run_parallel(step: Any, tables: Iterable[pa.Table], workers: int) -> Iterator[pa.Table]:
    """``step`` over ``tables`` (``step(table)`` for each, in order), in ``workers`` worker processes when there
    are at least ``MIN_BATCHES`` tables; in this process otherwise. ``step`` is set up here only when a batch has
    to run here."""
    it = iter(tables)
    head = list(itertools.islice(it, MIN_BATCHES))
    if workers <= 1 or len(head) < MIN_BATCHES:
        yield from (_here(step, t) for t in head)
        yield from (_here(step, t) for t in it)
        return
    blob = pickled(step)
    timing_dir = _member_steps(step)[0].timing_dir
    pending = itertools.chain(head, it)
    while chunk := list(itertools.islice(pending, workers * ROUND_BATCHES)):
        answers = map_shared(TARGET, [(blob, table, timing_dir) for table in chunk], BATCH_LIMIT_S, workers)
        for table, (ok, value) in zip(chunk, answers, strict=True):
            if ok:
                yield value
                continue
            log.warning("step %s: a batch of %d rows failed in a worker (%s: %s); running it in this process",
                        getattr(step, "name", type(step).__name__), table.num_rows, type(value).__name__, value)
            yield _here(step, table)


def _here(step: Any, table: pa.Table) -> pa.Table:
    if not getattr(step, "_local_setup_done", False):
        step.setup()
        step._local_setup_done = True
    return step(table)


def release() -> int:
    """Stop this process's filter workers (they start again when needed); how many were running."""
    return close_shared(TARGET)
