"""A local run's filter steps on every core: batches of a step (or step group) through worker processes, in order.

Why (issue 28). ``winnow run --local`` extracts in one worker process per core (pipelines/deadline.py) while the
pipeline's own process runs the filters beside it. Once a lane has passed a Stage (host language, host quality,
dedup) the wave's extraction is over, yet the filters after it ran in that one process: on bench/e2e.py's input
the default chain kept 1.31 of the 2 cores busy, 110 of its 194 seconds with one core idle. Here the batches of
such a step are shared among ``workers`` processes (one per core by default): this one, which has nothing else to
do by then, and ``workers - 1`` worker processes. Each batch goes whole to one of them and the answers come back in
input order: the rows, their order and their ``dropped_by`` are the same as in this process alone.

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
memory stays what one set of workers costs. Why this process takes batches too, rather than a worker per core:
``_round``.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import pickle
import threading
from collections.abc import Iterable, Iterator
from typing import Any

import pyarrow as pa

from pipelines.deadline import close_shared, shared_worker

log = logging.getLogger(__name__)

TARGET = "pipelines.parallel:run_batch"
# A batch is 256 records: about 3 s of the default chain's text-lane filters on bench/e2e.py's pages (39 s of step
# time over 13 batches). The limit is there only so that a worker stuck in a pathological regular expression cannot
# hang the run: past it the batch is run again in this process, as it would have been without workers.
BATCH_LIMIT_S = 900.0
MIN_BATCHES = 4  # fewer batches after a Stage: run in this process (see the module docstring)
ROUND_BATCHES = 6  # batches per process in a round (the answers of a round come together): a few, so that the last
# batch of a round keeps one process waiting for a small share of the round, and the round's tables stay few

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


def run_parallel(step: Any, tables: Iterable[pa.Table], workers: int, here: bool = True) -> Iterator[pa.Table]:
    """``step`` over ``tables`` (``step(table)`` for each, in order) in ``workers`` processes: this one (when
    ``here``) and worker processes for the rest, when there are at least ``MIN_BATCHES`` tables; in this process
    alone otherwise. ``step`` is set up here only when a batch runs here."""
    helpers = workers - 1 if here else workers
    it = iter(tables)
    head = list(itertools.islice(it, MIN_BATCHES))
    if helpers < 1 or len(head) < MIN_BATCHES:
        yield from (_here(step, t) for t in head)
        yield from (_here(step, t) for t in it)
        return
    blob = pickled(step)
    timing_dir = _member_steps(step)[0].timing_dir
    pending = itertools.chain(head, it)
    while chunk := list(itertools.islice(pending, workers * ROUND_BATCHES)):
        for table, (ok, value) in zip(chunk, _round(step, blob, timing_dir, chunk, helpers, here), strict=True):
            if ok:
                yield value
                continue
            log.warning("step %s: a batch of %d rows failed in a worker (%s: %s); running it in this process",
                        getattr(step, "name", type(step).__name__), table.num_rows, type(value).__name__, value)
            yield _here(step, table)


class _Deal:
    """Hands out the indices of a round's batches, the next to whoever asks first (thread-safe)."""

    def __init__(self, n: int) -> None:
        self._next = iter(range(n))
        self._lock = threading.Lock()
        self._stopped = False

    def take(self) -> int | None:
        with self._lock:
            return None if self._stopped else next(self._next, None)

    def stop(self) -> None:
        with self._lock:
            self._stopped = True


def _round(step: Any, blob: bytes, timing_dir: str | None, chunk: list[pa.Table], helpers: int,
           here: bool) -> list[tuple[bool, Any]]:
    """One round of batches: ``(True, result)`` or ``(False, why it failed in a worker)`` for each, in order.

    Each helper worker is fed from a thread of its own (it waits on the pipe without the GIL); this thread takes
    batches from the same deal and runs them itself, so a run with two cores starts one worker, not two: the run's
    process has every step's modules loaded already, and a second worker would hold them again (about 380 MB: on
    bench/e2e.py's 3x input the tree peaked at 1,561 MB with two workers, 1,544 MB with one)."""
    deal = _Deal(len(chunk))
    answers: list[tuple[bool, Any] | None] = [None] * len(chunk)

    def feed(k: int) -> None:
        taken: list[int] = []

        def calls() -> Iterator[tuple[Any, ...]]:
            while (i := deal.take()) is not None:
                taken.append(i)
                yield (blob, chunk[i], timing_dir)

        try:
            results = shared_worker(TARGET, k).map(calls(), BATCH_LIMIT_S)
        except BaseException as exc:  # whatever went wrong, the batches it took run here
            results = [(False, exc)] * len(taken)
        for i, answer in zip(taken, results, strict=False):
            answers[i] = answer
        for i in taken[len(results):]:
            answers[i] = (False, RuntimeError("no answer from the worker"))

    threads = [threading.Thread(target=feed, args=(k,), name=f"winnow-filter-{k}", daemon=True)
               for k in range(helpers)]
    for thread in threads:
        thread.start()
    try:
        while here and (i := deal.take()) is not None:
            answers[i] = (True, _here(step, chunk[i]))
    except BaseException:
        deal.stop()  # the helpers take no more batches; the exception goes on once they are done
        raise
    finally:
        for thread in threads:
            thread.join()
    return [a if a is not None else (False, RuntimeError("not run")) for a in answers]


def _here(step: Any, table: pa.Table) -> pa.Table:
    if not getattr(step, "_local_setup_done", False):
        step.setup()
        step._local_setup_done = True
    return step(table)


def release() -> int:
    """Stop this process's filter workers (they start again when needed); how many were running."""
    return close_shared(TARGET)
