"""A local run's filter steps on every core: batches of a step (or step group) through worker processes, in order.

Why (issue 28). ``winnow run --local`` extracts in one worker process per core (pipelines/deadline.py) while the
pipeline's own process runs the filters beside it. Once a lane has passed a Stage (host language, host quality,
dedup) the wave's extraction is over, yet the filters after it ran in that one process: on bench/e2e.py's input
the default chain kept 1.31 of the 2 cores busy, 110 of its 194 seconds with one core idle. Here the batches of
such a step are shared among ``workers`` processes (one per core by default): this one, which has nothing else to
do by then, and ``workers - 1`` worker processes. Each batch goes whole to one of them (the last few cut in halves
first: ``split_tail``) and the answers come back in input order: the same rows with the same ``dropped_by`` as in
this process alone, the kept ones in the same order (a step hands on a batch's dropped rows after its kept ones, so in
an --annotate output a dropped row of the last batches can sit a half-batch away from where it sat).

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
``_Stream``.

The dedup Stages' hashing goes the same way (``BatchFunction``): exact dedup's digest of every text and MinHash's
shingles and signatures are pure functions of a batch, and once the filters end they were the wave's tail in this
process alone (on bench/e2e.py's input 1.9 s of digests and 2.4 s of signatures for the text and interleaved lanes,
the other core idle). A Stage marks such a function (``Dataset.map_batches(fn, spread=True)``); the runner gives a
local Stage a dataset that spreads them (``spread_over``) on the filters' terms: when a Stage came before it in its
lane (the image lane's exact dedup, its first Stage, runs while pages are still being extracted). Their grouping
passes (band groups, components, decisions) stay in this process. On the text lane's 2,971 documents, this
process and one warm worker took the digests from 1.35 to 0.95 s and the signatures from 1.7 to 1.25 s (three
rounds each, 2 cores); less than half, as this process also sends the batches and takes their answers.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import pickle
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pyarrow as pa

from pipelines import memo
from pipelines.deadline import close_shared, shared_worker

log = logging.getLogger(__name__)

TARGET = "pipelines.parallel:run_batch"
# A batch is 256 records: about 3 s of the default chain's text-lane filters on bench/e2e.py's pages (39 s of step
# time over 13 batches). The limit is there only so that a worker stuck in a pathological regular expression cannot
# hang the run: past it the batch is run again in this process, as it would have been without workers.
BATCH_LIMIT_S = 900.0
MIN_BATCHES = 4  # fewer batches after a Stage: run in this process (see the module docstring)
MIN_SPLIT_ROWS = 32  # a last batch smaller than this is not cut in halves (``split_tail``)
WINDOW_BATCHES = 6  # batches per process that may be taken or answered and not yet handed on (``_Stream``): enough
# that a free process always finds one, few enough that a step's tables in flight stay a few batches

PARENT = "parent"  # in a worker: the memo reader that is the run's process (``run_batch``)
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


def run_batch(step_bytes: bytes, table: pa.Table, timing_dir: str | None,
              shared: list[memo.Entry] | None = None) -> tuple[pa.Table, list[memo.Entry]]:
    """In a worker: the step (set up once) over one batch; ``shared``: memo entries from the run's process
    (pipelines/memo.py), taken in first; returned with the answer: the entries computed here meanwhile."""
    key = hashlib.blake2b(step_bytes, digest_size=16).digest()
    step = _set_up.get(key)
    if step is None:
        step = pickle.loads(step_bytes)  # imports the step's modules, and so registers their memos
        step.setup()
        _set_up[key] = step
    for member in _member_steps(step):
        member.timing_dir = timing_dir
    memo.absorb(shared or [], relay=False)
    out = step(table)
    return out, memo.since(PARENT)


def compact(table: pa.Table) -> pa.Table:
    """``table`` with buffers of its own rows only, when it is a slice of a much larger table. A pickled slice takes
    its parent's whole buffers along (pyarrow pickles buffers, not ranges), and a shuffle's output comes in
    batch-sized slices of a whole part. bench/e2e.py's 2,971 kept texts as 12 slices of one table pickled to 373 MB
    (0.26 s to pickle, 0.27 s to unpickle) for 31 MB of data; over an e2e run, the bytes sent to the filter worker
    went from 185 to 114 MB with this."""
    if table.get_total_buffer_size() <= 2 * table.nbytes + (1 << 20):
        return table
    return table.take(pa.array(range(table.num_rows), pa.int64()))


class BatchFunction:
    """A Stage's per-batch function (``Dataset.map_batches(fn, spread=True)``) in the shape ``run_parallel`` sends:
    nothing to set up, no step times of its own (a Stage's time is its wave's). ``fn`` travels pickled: a bound
    method takes its Stage along (a few file names and parameters; the data comes as the batch)."""

    timing_dir: str | None = None

    def __init__(self, fn: Callable[[pa.Table], pa.Table]) -> None:
        self.fn = fn
        self.name = getattr(fn, "__qualname__", type(fn).__name__)

    def setup(self) -> None:
        pass

    def __call__(self, table: pa.Table) -> pa.Table:
        return self.fn(table)


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
    stream = _Stream(step, pickled(step), _member_steps(step)[0].timing_dir, workers * WINDOW_BATCHES)
    processes = helpers + here
    yield from stream.run(split_tail(itertools.chain(head, it), processes) if processes > 1
                          else itertools.chain(head, it), helpers, here)


def split_tail(tables: Iterable[pa.Table], n: int) -> Iterator[pa.Table]:
    """``tables`` with the last ``n`` cut in halves (those of ``MIN_SPLIT_ROWS`` rows or more); the same rows in the
    same order.

    Why: a stream's last batches end together only by chance. Where a Stage comes next, it waits for every batch,
    so the process that takes none of the last ones sits idle until the other's last is done: on bench/e2e.py's
    input a CPU timeline (every 0.5 s, per process) showed the run's process idle 2.5 s at the end of the text lane's
    filters while the worker finished a batch of about 3 s. With the last batches halved the wait is at most half a
    batch. Only the tail is cut: every batch costs its send, its answer and each step's per-batch work."""
    held: deque[pa.Table] = deque()
    for table in tables:
        held.append(table)
        if len(held) > n:
            yield held.popleft()
    for table in held:
        if table.num_rows < MIN_SPLIT_ROWS:
            yield table
            continue
        half = table.num_rows // 2
        yield table.slice(0, half)
        yield table.slice(half)


class _Stream:
    """The batches of one ``run_parallel``, shared as a stream: this process and each helper worker take the oldest
    batch nobody has taken whenever they are free, and the answers are handed on in input order as soon as the
    oldest is in.

    Why not rounds (what this replaced): a round of ``workers x 6`` batches whose answers came together left one
    process waiting at every round's end for the other's last batch, and a step of 13 batches ran its 13th alone;
    on bench/e2e.py's input the filter worker was busy 0.935 of the filter phase and this process (its lanes' threads
    together) 0.89. Memory stays what a round held: at most ``window`` batches are taken or answered and not yet
    handed on; only this process's thread pulls ``tables`` (an upstream lane's generator), the helpers never do.

    Why this process takes batches too, rather than a worker per core: a run with two cores then starts one worker,
    not two; this process has every step's modules loaded already, and a second worker would hold them again (about
    380 MB: on bench/e2e.py's 3x input the tree peaked at 1,561 MB with two workers, 1,544 MB with one)."""

    def __init__(self, step: Any, blob: bytes, timing_dir: str | None, window: int) -> None:
        self.step, self.blob, self.timing_dir, self.window = step, blob, timing_dir, window
        self.cond = threading.Condition()
        self.tables: dict[int, pa.Table] = {}  # pulled and not yet handed on, by index
        self.untaken: deque[int] = deque()  # pulled, taken by nobody yet, oldest first
        self.answers: dict[int, tuple[bool, Any]] = {}
        self.closed = False
        self._source: Iterator[pa.Table] = iter(())  # ``run``'s tables; pulled by ``run``'s thread only
        self._pulled = 0
        self._exhausted = False

    def take(self) -> int | None:
        with self.cond:
            return None if self.closed or not self.untaken else self.untaken.popleft()

    def answer(self, i: int, value: tuple[bool, Any]) -> None:
        with self.cond:
            self.answers[i] = value
            self.cond.notify_all()

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def feed(self, k: int) -> None:
        """A helper's thread: whenever there are untaken batches, send them to worker ``k`` one after another (it
        waits on the pipe without the GIL). Between runs of batches the worker is free for another lane's stream."""
        worker = shared_worker(TARGET, k)
        while True:
            with self.cond:
                while not self.closed and not self.untaken:
                    self.cond.wait()
                if self.closed:
                    return
            self._send(worker, k)

    def _send(self, worker: Any, reader: int) -> None:
        """One run of batches through ``worker``: while there are untaken ones; each answer handed over as it comes,
        and the batches it took but did not answer marked failed (they run in this process)."""
        taken: list[int] = []
        answered = 0

        def calls() -> Iterator[tuple[Any, ...]]:
            while (i := self.take()) is not None:
                taken.append(i)
                yield (self.blob, compact(self.tables[i]), self.timing_dir, memo.since(reader))

        def on_answer(value: tuple[bool, Any]) -> None:
            nonlocal answered
            ok, result = value
            if ok:
                result, entries = result
                memo.absorb(entries, relay=True)  # other workers are sent them too
            self.answer(taken[answered], (ok, result))
            answered += 1

        try:
            worker.map(calls(), BATCH_LIMIT_S, on_answer)
            failure: BaseException = RuntimeError("no answer from the worker")
        except BaseException as exc:  # whatever went wrong, the batches it took run here
            failure = exc
        for i in taken[answered:]:
            self.answer(i, (False, failure))

    def run(self, tables: Iterator[pa.Table], helpers: int, here: bool) -> Iterator[pa.Table]:
        self._source, self._pulled, self._exhausted = tables, 0, False
        handed = 0
        try:
            # The window is filled before the helpers start, so that each finds a batch at once: a started thread
            # runs until it blocks (here, sending its first batch), while batches filled after it would mostly be
            # taken by this thread first, small ones all of them.
            self._fill(handed)
            for k in range(helpers):
                threading.Thread(target=self.feed, args=(k,), name=f"winnow-filter-{k}", daemon=True).start()
            while True:
                self._fill(handed)  # so that a helper finishing a batch finds the next one waiting
                if self._exhausted and handed == self._pulled:
                    return
                with self.cond:
                    answer = self.answers.pop(handed, None)
                if answer is not None:
                    table = self.tables.pop(handed)
                    handed += 1
                    ok, value = answer
                    if ok:
                        yield value
                        continue
                    log.warning("step %s: a batch of %d rows failed in a worker (%s: %s); running it in this process",
                                getattr(self.step, "name", type(self.step).__name__), table.num_rows,
                                type(value).__name__, value)
                    yield _here(self.step, table)
                    continue
                i = self.take() if here else None
                if i is not None:  # the oldest answer is not in yet: run the oldest untaken batch meanwhile
                    self.answer(i, (True, _here(self.step, self.tables[i])))
                    continue
                with self.cond:
                    while handed not in self.answers and not (here and self.untaken):
                        self.cond.wait()
        finally:
            self.close()  # the helpers take no more batches; an exception here goes on at once

    def _fill(self, handed: int) -> None:
        """Pull batches from the source until ``window`` are taken or answered and not yet handed on."""
        while not self._exhausted and self._pulled - handed < self.window:
            table = next(self._source, None)
            if table is None:
                self._exhausted = True
                return
            with self.cond:
                self.tables[self._pulled] = table
                self.untaken.append(self._pulled)
                self.cond.notify_all()
            self._pulled += 1


def _here(step: Any, table: pa.Table) -> pa.Table:
    if not getattr(step, "_local_setup_done", False):
        step.setup()
        step._local_setup_done = True
    return step(table)


def release() -> int:
    """Stop this process's filter workers (they start again when needed); how many were running."""
    memo.forget_readers()  # a worker started later has none of the memos' entries
    return close_shared(TARGET)
