"""The dataset interface that Steps, Stages and the writer are written against, and its local form.

Two implementations share it: ``LocalDataset`` (tables in this process, for ``--local``, tests and
debugging a sample) and ``pipelines.ray_data.RayDataset`` (the only module that imports
``ray.data``). A Stage written once against these methods runs on both runners, which is
what lets the test suite assert that both produce the same rows. Stages that make several passes
(MinHash dedup) call ``materialize`` first: a lazy dataset recomputes (Ray) or is exhausted (local) otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Protocol

import pyarrow as pa

from pipelines.records import Unbundle
from pipelines.step import Step

TableFn = Callable[[pa.Table], pa.Table]


class Dataset(Protocol):
    def apply_step(self, step: Step) -> Dataset:
        """Run a Step over every batch (in an actor pool iff the step needs one)."""
        ...

    def map_batches(self, fn: TableFn) -> Dataset:
        """A stateless table -> table function over every batch."""
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

    def __init__(self, tables: Iterable[pa.Table]) -> None:
        self._tables = tables

    def apply_step(self, step: Step) -> LocalDataset:
        if not getattr(step, "_local_setup_done", False):  # once per process, not once per wave
            step.setup()
            step._local_setup_done = True
        return LocalDataset(step(t) for t in self._tables)

    def map_batches(self, fn: TableFn) -> LocalDataset:
        return LocalDataset(fn(t) for t in self._tables)

    def map_groups(self, key: str, fn: TableFn) -> LocalDataset:
        def run() -> Iterator[pa.Table]:
            tables = [t for t in self._tables if t.num_rows]
            if tables:
                # One call with every row: each key is trivially complete.
                yield fn(pa.concat_tables(tables))

        return LocalDataset(run())

    def union(self, other: Dataset) -> LocalDataset:
        if not isinstance(other, LocalDataset):
            raise TypeError("cannot union a local dataset with a Ray dataset")

        def chain() -> Iterator[pa.Table]:
            yield from self._tables
            yield from other._tables

        return LocalDataset(chain())

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

        return LocalDataset(gathered())

    def materialize(self) -> LocalDataset:
        # A list, not the generator: a lazy LocalDataset can be consumed only once.
        return LocalDataset(list(self._tables))

    def split(self, kinds: tuple[str, ...]) -> dict[str, LocalDataset]:
        bundles = list(self._tables)  # each lane reads every bundle; the generator could be read only once
        return {kind: LocalDataset(map(Unbundle(kind), bundles)) for kind in kinds}

    def tables(self) -> Iterator[pa.Table]:
        yield from self._tables
