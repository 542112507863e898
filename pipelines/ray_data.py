"""The Ray Data adapter: the only module that imports ``ray.data``.

Every ``map_batches`` call goes through ``_map`` here, because Ray's actor-pool arguments have
changed twice across releases. Facts this module relies on (measured on 2-CPU machines, see
../shared/STACK-NOTES.md):

- Actor pools are sized with ``ActorPoolStrategy`` and fractional ``num_cpus``: with
  ``concurrency=2`` on 2 CPUs the actors reserve both CPUs and the read task never runs (deadlock).
- Batches are always ``pyarrow`` tables: our schemas are declared, never inferred from pandas.
- Inputs are read by our own readers inside Ray tasks (one task per input file, a generator that
  yields bounded tables), not by ``ray.data.read_parquet``, whose newer datasource ignored
  ``override_num_blocks`` and put ten files in one block.
"""

from __future__ import annotations

import logging
import math
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pyarrow as pa
import ray
import ray.data
from ray.data.context import ShuffleStrategy

from pipelines.config import ConfigError
from pipelines.dataset import Dataset, TableFn
from pipelines.records import Unbundle
from pipelines.step import Step

log = logging.getLogger(__name__)
# Small inputs give an actor pool fewer blocks than actors; Ray warns about it on every run.
warnings.filterwarnings("ignore", message="The minimum number of concurrent actors")

# Fraction of a CPU each actor reserves; leaves room for read and write tasks on small machines.
ACTOR_CPUS = 0.5
MIN_ACTOR_CPUS = 0.05
SHUFFLE_PARTITIONS_PER_CPU = 4
GPU_BATCH_ROWS = 256  # rows per GPU batch for a step that does not say (Ray Data needs one for a GPU map)


def init_ray(address: str | None = None) -> None:
    """Embedded local Ray (no dashboard: it costs about 1 GB) or connect to ``address``."""
    if ray.is_initialized():
        return
    kwargs: dict[str, Any] = {"ignore_reinit_error": True, "log_to_driver": True}
    if address:
        kwargs["address"] = address
    else:
        kwargs["include_dashboard"] = False
        # Workers must import the same code as the driver (an editable checkout or installed wheel).
        kwargs["runtime_env"] = {"env_vars": {"PYTHONWARNINGS": "ignore::DeprecationWarning"}}
    ray.init(**kwargs)
    if not address:
        # Ray's agents outlive a driver killed with -9 by a minute or more; the watchdog stops them at once.
        from pipelines import ray_watchdog

        ray_watchdog.start()
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = True
    ctx.print_on_execution_start = False
    # Ray 2.60's default shuffle (SHUFFLE_V2, actor-based) costs about 7.5 s per groupby even on 5k rows; the
    # task-based sort shuffle about 0.4 s, and 6.8 s vs 5.5 s on 1.4M rows (2 CPUs). Dedup's connected components
    # run several small groupbys per wave, so the fixed cost decides.
    ctx.shuffle_strategy = ShuffleStrategy.SORT_SHUFFLE_PULL_BASED


def shutdown_ray() -> None:
    if ray.is_initialized():
        ray.shutdown()


def _actor_pool_size() -> int:
    cpus = ray.cluster_resources().get("CPU", 1.0)
    return max(1, int(cpus))


_actor_pools = 1  # actor-pool steps in the pipeline, as planned (plan_actor_steps)


def plan_actor_steps(count: int) -> None:
    """Tell the adapter how many actor-pool steps the pipeline has, before building the dataset.

    All pools run at once (streaming execution), so together they may reserve at most all CPUs but
    one: with two model steps on 2 CPUs, 0.5 CPU per actor would reserve both CPUs and starve the
    read task (the deadlock in STACK-NOTES, seen again with langid + quality model).
    """
    global _actor_pools
    _actor_pools = max(0, count)


def _cpu_nodes() -> int:
    """Alive nodes that have CPUs (1 for the embedded Ray)."""
    return max(1, sum(1 for n in ray.nodes() if n.get("Alive") and n.get("Resources", {}).get("CPU")))


def _actor_cpus() -> float:
    """Each actor's CPU share: together the pools leave one whole CPU free on every node, where read, write and
    shuffle tasks (one CPU each) run. Leaving one CPU free in the whole cluster was not enough with two nodes: the
    free share, split between the nodes, was a fraction on each, no whole-CPU task could be placed, and the run
    waited for ever (a 2-node cluster of 2 CPUs each; the pools are spread over the nodes, ``_map``)."""
    cpus = ray.cluster_resources().get("CPU", 1.0)
    steps = max(1, _actor_pools)
    nodes = _cpu_nodes()
    share = (cpus - nodes) / (_actor_pool_size() * steps) if cpus > nodes else cpus / (2 * steps)
    return max(MIN_ACTOR_CPUS, min(ACTOR_CPUS, share))


def _task_cpus(step: Any) -> float | None:
    """CPUs a task reserves for ``step``: Ray's default (1) unless the step works in other processes.

    Extraction waits on its deadline worker (pipelines/deadline.py), whose CPU Ray does not see: a task reserving a
    whole CPU for a process that mostly waits, beside actor pools that reserve half of a 2-CPU machine, let one
    extraction run at a time (bench/e2e.py: 1.2 of 2 cores busy, 209 s). Such tasks reserve what is left beside the
    actor pools divided by the CPUs, so that one runs per CPU: 0.5 each on 2 CPUs with one actor-pool step.
    """
    if step is None or not getattr(step, "works_out_of_process", False):
        return None
    cpus = ray.cluster_resources().get("CPU", 1.0)
    left = cpus - _actor_pool_size() * _actor_cpus() * _actor_pools
    return max(MIN_ACTOR_CPUS, min(1.0, left / cpus))


class _StepActor:
    """Holds one set-up Step per actor: the model loads once, not once per batch."""

    def __init__(self, step: Step) -> None:
        step.setup()
        self.step = step

    def __call__(self, table: pa.Table) -> pa.Table:
        return self.step(table)


def _map(ds: ray.data.Dataset, fn: Callable[..., Any], *, actor_of: Step | None = None,
         batch_size: int | None = None, num_cpus: float | None = None) -> ray.data.Dataset:
    """The single call site of ``map_batches``."""
    if actor_of is not None:
        gpus = actor_of.num_gpus or None
        if gpus and batch_size is None:
            # Ray Data refuses a GPU map without a batch size; a step that batches its model says how many rows
            # it takes at a time (ClipScore.batch_size), a group of steps the largest of its members'.
            sizes = [getattr(s, "batch_size", None) for s in getattr(actor_of, "steps", [actor_of])]
            batch_size = max((n for n in sizes if isinstance(n, int)), default=GPU_BATCH_ROWS)
        return ds.map_batches(
            _StepActor,
            fn_constructor_args=(actor_of,),
            batch_format="pyarrow",
            batch_size=batch_size,
            compute=ray.data.ActorPoolStrategy(size=_actor_pool_size()),
            num_cpus=_actor_cpus(),
            num_gpus=gpus,
            # Spread over the nodes, so that each node keeps the whole free CPU _actor_cpus leaves it.
            **({"scheduling_strategy": "SPREAD"} if _cpu_nodes() > 1 else {}),
        )
    # num_cpus None: Ray's default (one CPU)
    return ds.map_batches(fn, batch_format="pyarrow", batch_size=batch_size, num_cpus=num_cpus)


class RayDataset:
    def __init__(self, ds: ray.data.Dataset) -> None:
        self._ds = ds

    @classmethod
    def from_inputs(cls, inputs: list[tuple[str, str]], reader: Callable[..., Iterator[pa.Table]],
                    feeds: Any = None) -> RayDataset:
        """One read task per input file (``(path, label)``: ``reader(path, name=label)``); each yields bounded
        tables as it goes. ``feeds``: the step that reads the records first; its tasks reserve what the read
        tasks reserve, so that Ray fuses the two (a page then never enters the object store)."""

        def read(batch: pa.Table) -> Iterator[pa.Table]:
            for path, name in zip(batch.column("path").to_pylist(), batch.column("name").to_pylist(), strict=True):
                yield from reader(path, name=name)

        items = ray.data.from_items([{"path": p, "name": n} for p, n in inputs],
                                    override_num_blocks=max(1, len(inputs)))
        return cls(_map(items, read, batch_size=1,
                        num_cpus=None if getattr(feeds, "needs_actor", False) else _task_cpus(feeds)))

    @classmethod
    def from_tables(cls, tables: list[pa.Table]) -> RayDataset:
        """A dataset of tables built in the driver (tests, benchmarks, small side inputs)."""
        return cls(ray.data.from_arrow(tables) if tables else ray.data.from_items([]))

    def apply_step(self, step: Step, workers: int = 1) -> RayDataset:  # workers: local runs only
        wanted = step.num_gpus or 0
        if wanted:
            # Ray would wait for ever for an actor it can never place: say so instead.
            have = ray.cluster_resources().get("GPU", 0)
            if wanted > have:
                raise ConfigError(f"step {step.name} asks Ray for {wanted:g} GPU(s) per actor and the cluster has "
                                  f"{have:g}; use device: auto (the CPU when there is no GPU) or a cluster with GPUs")
        if step.needs_actor:
            return RayDataset(_map(self._ds, step, actor_of=step))
        return RayDataset(_map(self._ds, step, num_cpus=_task_cpus(step)))

    def map_batches(self, fn: TableFn, spread: bool = False) -> RayDataset:
        return RayDataset(_map(self._ds, fn))  # every function's tasks are spread over the cluster already

    def spread_over(self, workers: int) -> RayDataset:
        return self

    def map_groups(self, key: str, fn: TableFn) -> RayDataset:
        # A hash shuffle on `key`; every group reaches `fn` whole, on whichever worker owns it.
        # Ray's default of 200 partitions makes 200 tiny blocks on small inputs; a few per CPU suffice.
        partitions = max(1, int(ray.cluster_resources().get("CPU", 1)) * SHUFFLE_PARTITIONS_PER_CPU)
        return RayDataset(self._ds.groupby(key, num_partitions=partitions).map_groups(fn, batch_format="pyarrow"))

    def rebatch(self, max_rows: int) -> RayDataset:
        # After a shuffle the wave is spread over many small blocks, and streaming repartition
        # (target_num_rows_per_block) does not merge them across tasks. Materialise the wave (it is in
        # the object store after the shuffle anyway; Ray spills it to disk when it must) and split it
        # into as few blocks as the row bound allows, without another shuffle.
        ds = self._ds.materialize()
        blocks = max(1, math.ceil(ds.count() / max_rows))
        return RayDataset(ds.repartition(blocks, shuffle=False))

    def union(self, other: Dataset) -> RayDataset:
        if not isinstance(other, RayDataset):
            raise TypeError("cannot union a Ray dataset with a local dataset")
        return RayDataset(self._ds.union(other._ds))

    def materialize(self) -> RayDataset:
        # In the object store (spilled to disk when it must), so later passes do not re-run the lineage.
        return RayDataset(self._ds.materialize())

    def split(self, kinds: tuple[str, ...]) -> dict[str, RayDataset]:
        # Materialised so that the fan-out step (extraction, the expensive part) runs once for all lanes.
        ds = self._ds.materialize()
        return {kind: RayDataset(_map(ds, Unbundle(kind))) for kind in kinds}

    def tables(self) -> Iterator[pa.Table]:
        yield from self._ds.iter_batches(batch_format="pyarrow", batch_size=None)

