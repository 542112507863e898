"""The dataset interface that Steps, Stages and the writer are written against, and its local form.

Two implementations share it: ``LocalDataset`` (tables in this process, for ``--local``, tests and
debugging a sample) and ``pipelines.ray_data.RayDataset`` (the only module that imports
``ray.data``). A Stage written once against these methods runs on both runners, which is
what lets the test suite assert that both produce the same rows. Stages that make several passes
(MinHash dedup) call ``materialize`` first: a lazy dataset recomputes (Ray) or is exhausted (local) otherwise.
"""

from __future__ import annotations

import queue
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Protocol

import pyarrow as pa

from pipelines.parallel import BatchFunction, run_parallel
from pipelines.records import Unbundle
from pipelines.spill import SpillList, SpillQueue, partitions
from pipelines.step import Step

TableFn = Callable[[pa.Table], pa.Table]


class Dataset(Protocol):
    def apply_step(self, step: Step, workers: int = 1) -> Dataset:
        """Run a Step over every batch (in an actor pool iff the step needs one). ``workers``: local runs only, the
        processes to share the batches among (pipelines/parallel.py); Ray spreads the batches itself."""
        ...

    def map_batches(self, fn: TableFn, spread: bool = False) -> Dataset:
        """A stateless table -> table function over every batch. ``spread``: ``fn`` is also picklable and worth
        sending to other processes (a pure function of its batch that costs CPU, such as hashing every text): a
        local run given several workers (``spread_over``) shares its batches among them; Ray spreads every
        function itself."""
        ...

    def spread_over(self, workers: int) -> Dataset:
        """This dataset, its ``spread`` functions shared among ``workers`` processes in a local run (the runner
        gives a Stage its dataset so); Ray's is returned as it is."""
        ...

    def map_groups(self, key: str, fn: TableFn) -> Dataset:
        """``fn`` sees tables in which every value of ``key`` is complete (all its rows together)."""
        ...

    def union(self, other: Dataset) -> Dataset: ...

    def rebatch(self, max_rows: int) -> Dataset:
        """Combine small batches (up to ``max_rows`` rows) so that shards are not tiny."""
        ...

    def materialize(self) -> Dataset:
        """Execute now and keep the result, so that it can be consumed more than once (a Stage's passes)."""
        ...

    def split(self, kinds: tuple[str, ...]) -> dict[str, Dataset]:
        """A dataset of bundle tables (a fan-out step's output) as one dataset per kind.

        The bundles are computed once (materialised) and each lane reads its kind out of them.
        """
        ...

    def tables(self) -> Iterator[pa.Table]:
        """Execute and stream the result tables to the caller."""
        ...


class LocalDataset:
    """A lazy stream of tables in this process."""

    def __init__(self, tables: Iterable[pa.Table], workers: int = 1) -> None:
        self._tables = tables
        self._workers = workers  # for ``map_batches(spread=True)``, here and in the datasets made from this one

    def apply_step(self, step: Step, workers: int = 1) -> LocalDataset:
        tables = self._tables
        if workers > 1 and not step.works_out_of_process:
            # set up in the workers; here only if a batch has to run here (pipelines/parallel.py)
            return LocalDataset(run_parallel(step, tables, workers), self._workers)
        if not getattr(step, "_local_setup_done", False):  # once per process, not once per wave
            step.setup()
            step._local_setup_done = True
        if not step.works_out_of_process:
            return LocalDataset((step(t) for t in tables), self._workers)
        # The step waits on other processes (extraction's deadline workers). Its next batch is read and prepared
        # in one thread, and the step itself runs in another, a batch ahead of whatever consumes its output here:
        # the workers go on with the next batch while this thread runs the filters on the last one, instead of
        # the two taking turns (issue 14's idle core). When its input ends, the step may let its workers go
        # (``release``): the filters after the wave's Stages start workers of their own.
        # A step that allows it (``batches_in_flight`` 2: extraction) has its next batch out to the workers while
        # this process turns the last one's answers into records and tables: one batch at a time, the workers
        # waited for that (and for the next batch's pages to be read out of Arrow and sent) on every batch.
        release = getattr(step, "release", None)
        in_flight = max(1, int(getattr(step, "batches_in_flight", 1)))

        def run() -> Iterator[pa.Table]:
            yield from in_order(step, prefetched(tables, PREFETCH_BATCHES), in_flight)
            if callable(release):
                release()

        return LocalDataset(prefetched(run(), AHEAD_BATCHES), self._workers)

    def map_batches(self, fn: TableFn, spread: bool = False) -> LocalDataset:
        if spread and self._workers > 1:
            return LocalDataset(run_parallel(BatchFunction(fn), self._tables, self._workers), self._workers)
        return LocalDataset((fn(t) for t in self._tables), self._workers)

    def spread_over(self, workers: int) -> LocalDataset:
        return LocalDataset(self._tables, workers)

    def map_groups(self, key: str, fn: TableFn) -> LocalDataset:
        def run() -> Iterator[pa.Table]:
            # Every row first (the last key may come with the last batch), on disk past the spill budget; then
            # ``fn`` once per part of bounded size, each key whole in its part (one part, all rows, when they fit).
            gathered = SpillList(self._tables)
            try:
                for part in partitions(gathered, key):
                    result = fn(part)
                    # the steps after see batches of reading's size again, not a part of a wave at once
                    for start in range(0, result.num_rows, OUTPUT_BATCH_ROWS):
                        yield result.slice(start, OUTPUT_BATCH_ROWS)
                    if not result.num_rows:
                        yield result
            finally:
                gathered.close()

        return LocalDataset(run(), self._workers)

    def union(self, other: Dataset) -> LocalDataset:
        if not isinstance(other, LocalDataset):
            raise TypeError("cannot union a local dataset with a Ray dataset")

        def chain() -> Iterator[pa.Table]:
            yield from self._tables
            yield from other._tables

        return LocalDataset(chain(), self._workers)

    def rebatch(self, max_rows: int) -> LocalDataset:
        def gathered() -> Iterator[pa.Table]:
            buf: list[pa.Table] = []
            n = 0
            for table in self._tables:
                buf.append(table)
                n += table.num_rows
                if n >= max_rows:
                    yield pa.concat_tables(buf)
                    buf, n = [], 0
            if buf:
                yield pa.concat_tables(buf)

        return LocalDataset(gathered(), self._workers)

    def materialize(self) -> LocalDataset:
        # A list, not the generator: a lazy LocalDataset can be consumed only once. On disk past the spill budget
        # (pipelines/spill.py), read back a table at a time on each pass; its files go with the dataset.
        return LocalDataset(SpillList(self._tables), self._workers)

    def split(self, kinds: tuple[str, ...]) -> dict[str, LocalDataset]:
        # The fan-out step and everything before it (reading, extraction) run in a thread that deals each bundle's
        # lanes into one queue per kind, while this thread works on the lanes: extraction's child process keeps
        # working while the filters run here, instead of the two taking turns (issue 14's idle core). The lanes
        # are read one after the other, so a later lane waits for its whole wave: its queue holds it on disk past
        # the spill budget (pipelines/spill.py).
        feed = _LaneFeed(self._tables, kinds)
        return {kind: LocalDataset(feed.lane(kind), self._workers) for kind in kinds}

    def tables(self) -> Iterator[pa.Table]:
        yield from self._tables


_END = object()
OUTPUT_BATCH_ROWS = 256  # map_groups' output, in batches of the readers' size (pipelines/readers: batch_rows)
PREFETCH_BATCHES = 2
AHEAD_BATCHES = 1  # an out-of-process step's output waiting for the consumer: enough for the workers never to wait


def in_order(fn: TableFn, tables: Iterable[pa.Table], in_flight: int) -> Iterator[pa.Table]:
    """``fn(t)`` for each table, in order, with up to ``in_flight`` calls running at once in threads (1: here, one
    after the other). An exception is raised in order; closing the iterator waits for the calls under way."""
    if in_flight <= 1:
        yield from (fn(t) for t in tables)
        return
    pending: deque[Future[pa.Table]] = deque()
    with ThreadPoolExecutor(max_workers=in_flight, thread_name_prefix="winnow-batch") as pool:
        try:
            for table in tables:
                pending.append(pool.submit(fn, table))
                if len(pending) >= in_flight:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()


def prefetched(tables: Iterable[pa.Table], depth: int) -> Iterator[pa.Table]:
    """``tables``, read up to ``depth`` ahead in a background thread (order kept; an exception in the stream is
    raised here, in order; closing this iterator stops the reading at its next table)."""
    q: queue.Queue = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(item: object) -> bool:
        """Hand ``item`` over unless the consumer has gone (False)."""
        while not stop.is_set():
            try:
                q.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def read() -> None:
        try:
            for table in tables:
                if not put(table):
                    return
        except BaseException as exc:  # raised in the reader's thread, handed to the consumer
            put(_Failed(exc))
            return
        put(_END)

    thread = threading.Thread(target=read, name="winnow-prefetch", daemon=True)
    thread.start()
    try:
        while True:
            item = q.get()
            if item is _END:
                return
            if isinstance(item, _Failed):
                raise item.exc
            yield item
    finally:
        stop.set()


class _LaneFeed:
    """Reads a stream of bundle tables in a background thread into one FIFO per kind.

    An exception in the stream reaches every lane (raised where the lane is read); a lane closed before its end
    (the run failed downstream) stops the thread at its next bundle.
    """

    def __init__(self, bundles: Iterable[pa.Table], kinds: tuple[str, ...]) -> None:
        self._bundles = bundles
        self._queues: dict[str, SpillQueue] = {kind: SpillQueue() for kind in kinds}
        self._unbundle = {kind: Unbundle(kind) for kind in kinds}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._deal, name="winnow-lanes", daemon=True)
                self._thread.start()

    def _deal(self) -> None:
        try:
            for bundle in self._bundles:
                if self._stop.is_set():
                    return
                for kind, q in self._queues.items():
                    q.put(self._unbundle[kind](bundle))
        except BaseException as exc:  # handed to the reader of each lane, raised there
            for q in self._queues.values():
                q.put(_Failed(exc))
            return
        for q in self._queues.values():
            q.put(_END)

    def lane(self, kind: str) -> Iterator[pa.Table]:
        self._start()
        q = self._queues[kind]
        finished = False
        try:
            while True:
                item = q.get()
                if item is _END:
                    finished = True
                    return
                if isinstance(item, _Failed):
                    finished = True
                    raise item.exc
                yield item
        finally:
            if not finished:
                self._stop.set()
            q.close()


class _Failed:
    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


def drain_together(lanes: list[Iterable[pa.Table]], fn: Callable[[pa.Table], list[Any]]) -> list[list[Any]]:
    """``fn`` over every table of every lane, each lane in a thread of its own; what ``fn`` returned, per lane in
    order. A local run's lanes (text, image-text, interleaved) are independent once split, and consumed one after
    the other they left a core idle: the text lane's dedup and writing, the image lane and the interleaved lane's
    language ID each ran in this process alone while no filter worker had a batch (issue 28: 29 s of a 147 s run
    on one core). Together, one lane's filter batches go to the filter worker while another lane works here.

    The first exception in any lane stops the others at their next table (their streams are closed, as a
    sequential run would never have started them) and is raised here once every lane has stopped."""
    stop = threading.Event()
    results: list[list[Any]] = [[] for _ in lanes]
    errors: list[BaseException | None] = [None] * len(lanes)

    def drain(i: int) -> None:
        stream = iter(lanes[i])
        try:
            for table in stream:
                if stop.is_set():
                    return
                results[i].extend(fn(table))
        except BaseException as exc:  # handed to the caller's thread below
            errors[i] = exc
            stop.set()
        finally:
            close = getattr(stream, "close", None)
            if callable(close):
                close()

    threads = [threading.Thread(target=drain, args=(i,), name=f"winnow-lane-{i}", daemon=True)
               for i in range(len(lanes))]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            thread.join()
    except BaseException:  # Ctrl-C while the lanes run: they stop at their next table, then it goes on
        stop.set()
        for thread in threads:
            thread.join()
        raise
    for exc in errors:
        if exc is not None:
            raise exc
    return results
