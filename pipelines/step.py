"""The Step / Stage protocol: one small class serves tests, notebooks, the local runner and Ray.

A ``Step`` works record by record (``process``) or batch by batch (``process_batch``); a ``Stage``
works on the whole dataset (dedup clustering). ``__init__`` only stores parameters: the object is
pickled to every worker. Models load in ``setup()``, called once per process or Ray actor; a step
runs in an actor pool iff it overrides ``setup`` or asks for a GPU (NeMo Curator's rule).

The framework-owned ``Step.__call__(pyarrow.Table) -> pyarrow.Table`` hands only live rows to the
step, turns ``Drop("reason")`` into a tombstone row with ``dropped_by = "<step>.<reason>"``, turns
any other exception on one record into ``<step>.error`` (counted, logged once, never fatal for the
batch: a batch that raises in ``process_batch`` is run again record by record), and enforces the declared
output schema. Drop reasons are short snake_case strings
(datatrove's convention).
"""

from __future__ import annotations

import logging
import re
from typing import Any, ClassVar

import pyarrow as pa
import pyarrow.compute as pc

from pipelines import timing
from pipelines.records import COMMON_NAMES, TAIL_NAMES, bundle, conform, from_table, kind_of, to_table

log = logging.getLogger(__name__)

_REASON = re.compile(r"^[a-z0-9_]+$")


class Drop(Exception):
    """Raised by ``Step.process`` to drop a record; ``reason`` is a short snake_case string."""

    def __init__(self, reason: str, detail: str | None = None) -> None:
        if not _REASON.match(reason):
            raise ValueError(f"drop reason must be snake_case, got {reason!r}")
        super().__init__(reason if detail is None else f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail

    def as_result(self) -> Drop:
        """This Drop, caught, as a record's result in a batch's list of results: without the traceback it was
        raised with and the exceptions chained to it (its reason and detail are all a result needs).

        Why (issue 28): a caught exception keeps its traceback, the traceback its frames, and each frame its
        caller's, up to the one that holds the list of results the Drop was put in: a reference cycle, which holds
        every frame's locals (the batch's table and records; in extraction, the pages' HTML and the workers'
        answers) until Python's full garbage collection, rare in a run's process full of long-lived objects, so
        that how much a wave left behind depended on when the last one ran. bench/e2e.py's 3x input in waves of 8
        files, the run's process after wave 1's ``heap.trim``: 433 MB with 60 MB in Arrow's pool, 343 MB after a
        ``gc.collect()``; with this, 340 MB and nothing for ``gc.collect()`` to free."""
        self.__traceback__ = None
        self.__context__ = None
        self.__cause__ = None
        return self


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


class _Component:
    """What the runner binds onto every step and stage after construction."""

    input_kind: ClassVar[str] = "document"
    output_kind: ClassVar[str | None] = None  # None: same as input_kind
    default_name: ClassVar[str | None] = None

    name: str
    annotate: bool = False
    # Where this wave's per-step time goes (pipelines/timing.py); set by the runner, None elsewhere.
    timing_dir: str | None = None

    def bind(self, name: str | None = None, annotate: bool = False) -> None:
        self.name = name or self.default_name or _snake(type(self).__name__)
        self.annotate = annotate

    @property
    def produces(self) -> str:
        """The output kind, or for a step with several, the first (dropped inputs become tombstones of it)."""
        return self.produces_kinds[0]

    @property
    def produces_kinds(self) -> tuple[str, ...]:
        """Every kind this component outputs. Several for a fan-out step (``output_kinds``, e.g. extraction)."""
        kinds = getattr(self, "output_kinds", None)
        return tuple(kinds) if kinds else (self.output_kind or self.input_kind,)

    def _name(self) -> str:
        return getattr(self, "name", None) or self.default_name or _snake(type(self).__name__)


class Step(_Component):
    """Per-record (or per-batch) transformation of one record kind.

    Subclasses override ``process`` (one record in; the record, a list of records, or
    ``raise Drop(reason)``) or ``process_batch`` for vectorised/model work.

    A step that turns one record into several kinds (extraction: a page into a document, its
    image-text pairs and its interleaved document) sets ``output_kinds`` (the first one receives
    the tombstones of dropped inputs) and returns records of any of those kinds; its batches come out
    as one bundle table, which the runner splits into a lane per kind.
    """

    num_gpus: ClassVar[float] = 0.0
    # True for a step whose work happens in another process (a worker it feeds, a server it calls): the local
    # runner then reads and prepares its next batch in a thread while the current one is out.
    works_out_of_process: ClassVar[bool] = False
    # True for a step whose own work already spreads over the cores (torch's threads): a local run keeps it in its
    # own process instead of starting a filter worker per core that would each load its model (pipelines/parallel.py).
    multicore: ClassVar[bool] = False
    # Reads the by-text memos of pipelines/memo.py (the quality signals): a local run starts the interleaved lane's
    # such steps once the text lane's are done, so that a page's two texts share them (pipelines/runner.py ``_Gate``).
    reads_text_memos: ClassVar[bool] = False

    def setup(self) -> None:
        """Load models here (once per process / actor), never in ``__init__``."""

    def process(self, record: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must override process or process_batch")

    def process_batch(self, records: list[Any]) -> list[Any]:
        """One result per input record: a record, a list of records, or a ``Drop`` instance."""
        out: list[Any] = []
        for record in records:
            try:
                out.append(self.process(record))
            except Drop as drop:
                out.append(drop.as_result())
            except Exception as exc:  # one bad record must not lose the batch: count it, log it
                log.warning("step %s failed on record %s: %s: %s", self._name(), getattr(record, "id", "?"),
                            type(exc).__name__, exc, exc_info=log.isEnabledFor(logging.DEBUG))
                out.append(Drop("error", f"{type(exc).__name__}: {exc}"))
        return out

    @property
    def needs_actor(self) -> bool:
        return type(self).setup is not Step.setup or self.num_gpus > 0

    # -- framework ------------------------------------------------------------------------
    def __call__(self, table: pa.Table) -> pa.Table:
        kind = kind_of(table)
        if kind != self.input_kind:
            # Other record kinds pass through untouched: a text filter does not see image pairs.
            return table
        name = self._name()
        live_mask = pc.is_null(table.column("dropped_by"))
        live = table.filter(live_mask)
        dead = table.filter(pc.invert(live_mask))
        records = from_table(live)
        kept, dropped, reasons = self._outcome(records)

        out_kind = self.produces
        kinds = self.produces_kinds
        if len(kinds) > 1:
            by_kind: dict[str, list[Any]] = {k: [] for k in kinds}
            for record in kept:
                if type(record).kind not in by_kind:
                    raise RuntimeError(f"{name} returned a {type(record).kind!r} record; it declares {list(kinds)}")
                by_kind[type(record).kind].append(record)
            tables = {k: to_table(records_k, k) for k, records_k in by_kind.items()}
        else:
            tables = {out_kind: to_table(kept, out_kind)}
        parts = [tables[out_kind]]
        if dropped:
            parts.append(self._tombstones(dropped, reasons, kind, out_kind))
        if dead.num_rows:
            parts.append(dead if out_kind == kind else conform(_thin(dead), out_kind))
        tables[out_kind] = pa.concat_tables(parts)
        return bundle(tables) if len(kinds) > 1 else tables[out_kind]

    def _outcome(self, records: list[Any]) -> tuple[list[Any], list[Any], list[tuple[str, str | None]]]:
        """Run ``process_batch``: (kept records, dropped records, their ``(<step>.<reason>, detail)``)."""
        name = self._name()
        with timing.measured(name, self.timing_dir, len(records)):
            try:
                results = self.process_batch(records)
            except Exception as exc:
                results = self._one_by_one(records, exc)
        if len(results) != len(records):
            raise RuntimeError(f"{name}.process_batch returned {len(results)} results for {len(records)} records")

        kept: list[Any] = []
        dropped: list[Any] = []
        reasons: list[tuple[str, str | None]] = []
        for record, result in zip(records, results, strict=True):
            if isinstance(result, Drop):
                dropped.append(record)
                reasons.append((f"{name}.{result.reason}", result.detail))
            elif isinstance(result, list):
                kept.extend(result)
            elif result is None:
                raise RuntimeError(f"{name}.process returned None; return the record or raise Drop")
            else:
                kept.append(result)
        return kept, dropped, reasons

    def _one_by_one(self, records: list[Any], exc: Exception) -> list[Any]:
        """After ``process_batch`` raised: each record again on its own, so that one bad record costs itself only
        (a batch of 256 must not become 256 ``.error`` rows). A step that mutated some records before raising
        sees them mutated in the retry; winnow's steps set fields, so a second pass gives the same result."""
        name = self._name()
        if len(records) == 1:
            log.warning("step %s failed on record %s: %s: %s", name, getattr(records[0], "id", "?"),
                        type(exc).__name__, exc)
            return [Drop("error", f"{type(exc).__name__}: {exc}")]
        log.warning("step %s failed on a batch of %d records (%s: %s); trying them one by one", name, len(records),
                    type(exc).__name__, exc)
        results: list[Any] = []
        for record in records:
            try:
                one = self.process_batch([record])
            except Exception as err:
                log.warning("step %s failed on record %s: %s: %s", name, getattr(record, "id", "?"),
                            type(err).__name__, err, exc_info=log.isEnabledFor(logging.DEBUG))
                results.append(Drop("error", f"{type(err).__name__}: {err}"))
                continue
            if len(one) != 1:
                raise RuntimeError(f"{name}.process_batch returned {len(one)} results for 1 record")
            results.append(one[0])
        return results

    def _tombstones(self, records: list[Any], reasons: list[tuple[str, str | None]], in_kind: str,
                    out_kind: str) -> pa.Table:
        for record, (reason, detail) in zip(records, reasons, strict=True):
            record.dropped_by = reason
            record.drop_detail = detail
        table = to_table(records, in_kind)
        if self.annotate and in_kind == out_kind:
            return table  # full rows, for tuning thresholds
        return conform(_thin(table), out_kind)


# Kept on thin tombstones besides identity, policy and drop columns: the quality score of a dropped page (a float),
# so that stats and report.html show the scores of the pages dropped as well as of the pages kept.
THIN_EXTRA = ("quality_score",)


def _thin(table: pa.Table) -> pa.Table:
    """Identity, policy and drop columns (and ``THIN_EXTRA``) only: a tombstone costs bytes, not the page."""
    return table.select([n for n in (*COMMON_NAMES, *THIN_EXTRA, *TAIL_NAMES) if n in table.column_names])



class StepGroup:
    """Consecutive steps of one record kind, run as one: a batch is converted to records once, passes every
    step, and is converted back once.

    ``Step.__call__`` converts Arrow -> dataclasses -> Arrow around each step; on the default chain's nine
    document steps those conversions cost more than most of the filters (to_table alone was 15 of the parent's
    ~110 profiled seconds on the WCXB bench). The rows that come out are the ones the steps give one after
    another, in the same order (the records kept by every step, then each step's tombstones from the last step
    back to the first, then rows dropped before the group), with the same ``dropped_by`` and details. One
    difference: a value a step writes reaches the next step as written, not round-tripped through Arrow
    (a float is not yet narrowed to float32).

    The runner builds groups (``fuse``) from the config's steps; stats and names stay per step. On Ray a group
    is one map (one actor pool when any member needs one), so a chain of model steps loads its models into
    one pool instead of one pool each.
    """

    def __init__(self, steps: list[Step]) -> None:
        kinds = {s.input_kind for s in steps}
        if len(kinds) != 1 or any(s.produces_kinds != (s.input_kind,) for s in steps):
            raise ValueError("a StepGroup holds steps of one record kind that keep their kind")
        self.steps = steps
        self.input_kind = steps[0].input_kind
        self.name = "+".join(s._name() for s in steps)

    @property
    def produces(self) -> str:
        return self.input_kind

    @property
    def produces_kinds(self) -> tuple[str, ...]:
        return (self.input_kind,)

    @property
    def num_gpus(self) -> float:
        return max(s.num_gpus for s in self.steps)

    @property
    def works_out_of_process(self) -> bool:
        return any(s.works_out_of_process for s in self.steps)

    @property
    def multicore(self) -> bool:
        return any(s.multicore for s in self.steps)

    @property
    def needs_actor(self) -> bool:
        return any(s.needs_actor for s in self.steps)

    def setup(self) -> None:
        for step in self.steps:
            step.setup()

    def __call__(self, table: pa.Table) -> pa.Table:
        kind = kind_of(table)
        if kind != self.input_kind:
            return table
        live_mask = pc.is_null(table.column("dropped_by"))
        dead = table.filter(pc.invert(live_mask))
        records = from_table(table.filter(live_mask))
        tombstones: list[pa.Table] = []
        for step in self.steps:
            records, dropped, reasons = step._outcome(records)
            if dropped:
                tombstones.append(step._tombstones(dropped, reasons, kind, kind))
        parts = [to_table(records, kind), *reversed(tombstones)]
        if dead.num_rows:
            parts.append(dead)
        return pa.concat_tables(parts)


def fuse(components: list[Any]) -> list[Any]:
    """The config's steps and stages with each run of two or more ``Step``s of one record kind (none of them a
    fan-out, none asking for a GPU: a GPU step keeps its own pool) as one ``StepGroup``, placed where its first step
    was. Steps and stages of other kinds between them do not end a run: each kind has its own lane, so their order
    relative to another lane's steps does not matter (a YAML entry for several kinds puts the kinds' steps side by
    side); a stage or a step of the same kind that cannot join does."""
    out: list[Any] = []
    runs: dict[str, tuple[int, list[Step]]] = {}  # kind -> (its place in ``out``, the steps so far)

    def close(kind: str) -> None:
        if kind in runs:
            at, run = runs.pop(kind)
            out[at] = StepGroup(run) if len(run) > 1 else run[0]

    for component in components:
        kind = component.input_kind
        fusable = (isinstance(component, Step) and component.produces_kinds == (kind,) and not component.num_gpus)
        if fusable:
            if kind in runs:
                runs[kind][1].append(component)
            else:
                runs[kind] = (len(out), [component])
                out.append(None)
            continue
        for touched in {kind, *component.produces_kinds}:
            close(touched)
        out.append(component)
    for kind in list(runs):
        close(kind)
    return out


class Stage(_Component):
    """Whole-dataset work (e.g. dedup clustering): ``run(dataset) -> dataset``.

    ``dataset`` is a ``pipelines.dataset.Dataset`` (local or Ray); write it once against that
    interface and it runs on both runners. ``state_dir`` is a folder in the output that persists
    across waves and runs (for indexes such as the exact-dedup hash set).
    """

    state_dir: str | None = None

    def run(self, dataset: Any) -> Any:
        raise NotImplementedError
