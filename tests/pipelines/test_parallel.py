"""pipelines/parallel.py: a local run's filter batches in worker processes give the rows, in the order, that this
process gives; a batch that fails there is run here; small inputs never start workers."""

from __future__ import annotations

import json
import logging
import os
import pickle
import random

import pandas as pd
import pyarrow as pa
import pytest

from pipelines import parallel, timing
from pipelines.config import load_config
from pipelines.dataset import LocalDataset
from pipelines.records import Document, from_table, to_table
from pipelines.runner import RunOptions, run
from pipelines.step import StepGroup
from tests.pipelines.parallel_steps import CountsBatches, DiesInWorker, MarkPid, pid_column


@pytest.fixture(autouse=True)
def _no_workers_left():
    yield
    parallel.release()


def batches(n: int, size: int = 5, special: dict[int, str] | None = None) -> list[pa.Table]:
    out = []
    for b in range(n):
        docs = []
        for i in range(size):
            k = b * size + i
            text = (special or {}).get(k, f"text {k} spam" if k % 3 == 0 else f"text {k}")
            docs.append(Document(id=str(k), url=f"http://h{k % 4}.example/{k}", source="f", text=text))
        out.append(to_table(docs, "document"))
    return out


def group() -> StepGroup:
    first, second = MarkPid(), MarkPid()
    first.bind(name="first")
    second.bind(name="second")
    return StepGroup([first, second])


def started_in_workers(monkeypatch) -> list[tuple[str, int]]:
    """Filled with (step or function name, processes) for each ``run_parallel`` a dataset starts from now on."""
    started: list[tuple[str, int]] = []
    real = parallel.run_parallel

    def spy(step, tables, workers):
        started.append((step.name, workers))
        return real(step, tables, workers)

    monkeypatch.setattr("pipelines.dataset.run_parallel", spy)
    return started


def without_pids(tables: list[pa.Table]) -> list[dict]:
    rows = [r for t in tables for r in t.to_pylist()]
    for r in rows:
        r.pop("title"), r.pop("drop_detail")
    return rows


def test_batches_run_in_workers_with_the_rows_and_order_of_this_process():
    tables = batches(8)
    step = group()
    step.setup()  # the reference, in this process
    here = [step(t) for t in tables]
    there = list(parallel.run_parallel(group(), tables, workers=2, here=False))
    assert without_pids(there) == without_pids(here)
    kept = [r for t in there for r in from_table(t) if r.dropped_by is None]
    pids = {int(r.title) for r in kept}
    assert os.getpid() not in pids and len(pids) == 2  # two workers, none of it here
    dropped = [r for t in there for r in from_table(t) if r.dropped_by]
    assert {r.dropped_by for r in dropped} == {"first.spam"}
    assert parallel.release() == 2


def test_this_process_shares_the_batches_with_one_worker_fewer():
    tables = batches(12)
    step = group()
    step.setup()
    here = [step(t) for t in tables]
    there = list(parallel.run_parallel(group(), tables, workers=2))
    assert without_pids(there) == without_pids(here)
    assert parallel.release() <= 1  # two processes: this one and at most one worker


def test_a_small_input_stays_in_this_process():
    tables = batches(parallel.MIN_BATCHES - 1)
    out = list(parallel.run_parallel(group(), tables, workers=2, here=False))
    kept = [r for t in out for r in from_table(t) if r.dropped_by is None]
    assert kept and {int(r.title) for r in kept} == {os.getpid()}
    assert parallel.release() == 0  # no worker was started


def test_one_worker_means_this_process():
    out = list(parallel.run_parallel(group(), batches(6), workers=1))
    assert {int(r.title) for t in out for r in from_table(t) if r.dropped_by is None} == {os.getpid()}
    assert parallel.release() == 0


def test_a_batch_whose_worker_dies_is_run_here_and_nothing_is_lost(caplog):
    step = DiesInWorker(parent=os.getpid())
    step.bind(name="dies")
    tables = batches(6, special={12: "die"})
    with caplog.at_level(logging.WARNING, logger="pipelines.parallel"):
        out = list(parallel.run_parallel(step, tables, workers=1, here=False))
    rows = [r for t in out for r in from_table(t)]
    assert [r.id for r in rows] == [str(k) for k in range(30)]  # every row, in order
    by_id = {r.id: int(r.title) for r in rows}
    assert all(by_id[str(k)] == os.getpid() for k in range(10, 15))  # the dying batch (10-14) ran here
    assert all(by_id[str(k)] != os.getpid() for k in (*range(10), *range(15, 30)))  # the others in the worker
    assert any("failed in a worker" in m for m in caplog.messages)


def test_an_error_here_stops_the_stream_and_is_raised(monkeypatch):
    step = group()
    calls = []

    def broken(table):
        calls.append(1)
        raise OSError("disk gone")

    monkeypatch.setattr(parallel, "_here", lambda s, t: broken(t))
    with pytest.raises(OSError, match="disk gone"):
        list(parallel.run_parallel(step, batches(8), workers=2))
    assert len(calls) == 1  # the stream closed: this process took no second batch


def test_answers_are_handed_on_as_they_come_not_a_round_at_a_time(tmp_path):
    # one worker, 8 batches of 5 records at 20 ms each (0.8 s in all): the first batch's rows reach the caller while
    # the worker is still on later batches (the rounds this replaced handed a round of 6 batches, 30 records, on
    # together: one worker's round)
    step = CountsBatches(str(tmp_path), 0.02)
    step.bind(name="counts")
    out = parallel.run_parallel(step, batches(8), workers=1, here=False)
    first = next(out)
    finished_then = len(os.listdir(tmp_path))
    rest = list(out)
    assert [r["id"] for r in first.to_pylist()] == [str(k) for k in range(5)]
    assert len(rest) == 7 and len(os.listdir(tmp_path)) == 40
    assert finished_then <= 20


def test_the_batches_a_stream_holds_stay_within_its_window(monkeypatch):
    # a caller that stops after the first answer: no more than the window's batches were ever pulled from upstream
    pulled = []

    def upstream():
        for t in batches(40):
            pulled.append(t)
            yield t

    monkeypatch.setattr(parallel, "WINDOW_BATCHES", 2)
    out = parallel.run_parallel(group(), upstream(), workers=2)
    next(out)
    out.close()
    # the window (workers x WINDOW_BATCHES), the two held back in case they are the last (split_tail), and the next
    # one pulled once one left
    assert len(pulled) <= 2 * 2 + 2 + 1


def test_the_last_batches_are_cut_in_halves_for_the_processes_to_end_together():
    tables = [pa.table({"k": list(range(b * 40, b * 40 + 40))}) for b in range(5)]
    out = list(parallel.split_tail(iter(tables), 2))
    assert [t.num_rows for t in out] == [40, 40, 40, 20, 20, 20, 20]
    assert pa.concat_tables(out).column("k").to_pylist() == list(range(200))
    small = [pa.table({"k": [b]}) for b in range(3)]  # under MIN_SPLIT_ROWS: left whole
    assert [t.num_rows for t in parallel.split_tail(iter(small), 2)] == [1, 1, 1]
    assert [t.num_rows for t in parallel.split_tail(iter(tables[:1]), 2)] == [20, 20]
    assert list(parallel.split_tail(iter([]), 2)) == []


def test_a_stream_over_two_processes_hands_on_the_last_batches_in_halves_with_every_row():
    tables = batches(8, size=40)
    step = group()
    step.setup()
    here = [step(t) for t in tables]
    there = list(parallel.run_parallel(group(), tables, workers=2))
    assert [t.num_rows for t in there] == [40] * 6 + [20] * 4
    # the same rows with the same verdicts, the kept ones in the same order; a step hands on a batch's dropped rows
    # after its kept ones, so in the halved batches the dropped rows sit between the halves' kept rows
    kept = [[r for r in without_pids(t) if r["dropped_by"] is None] for t in (there, here)]
    assert kept[0] == kept[1] and len(kept[0]) == 320 - 107
    assert sorted(without_pids(there), key=lambda r: int(r["id"])) == sorted(without_pids(here),
                                                                             key=lambda r: int(r["id"]))
    alone = list(parallel.run_parallel(group(), tables, workers=2, here=False))  # two workers: two processes too
    assert [t.num_rows for t in alone] == [40] * 6 + [20] * 4
    one = list(parallel.run_parallel(group(), tables, workers=1, here=False))  # one process: nothing to even out
    assert [t.num_rows for t in one] == [40] * 8


def test_step_times_of_the_workers_reach_the_wave(tmp_path):
    step = group()
    for member in step.steps:
        member.timing_dir = str(tmp_path / "timing")
    tables = batches(6)
    list(parallel.run_parallel(step, tables, workers=2))  # this process and one worker
    parallel.release()
    times = timing.collect(str(tmp_path / "timing"))
    assert times["first"]["records"] == 30
    assert times["second"]["records"] == 20  # first dropped the 10 spam texts
    assert step.steps[0].timing_dir == str(tmp_path / "timing")  # pickling left the step as it was


def test_a_local_run_gives_the_same_output_with_filter_workers(tmp_path, monkeypatch):
    """The runner sends the filters after a Stage to the workers; their output equals the in-process run's."""
    src = tmp_path / "docs.jsonl"
    rng = random.Random(7)
    vocab = [f"{a}{b}" for a in ("river", "bank", "fox", "field", "house", "market", "bridge", "garden")
             for b in ("", "s", "side", "land", "way", "er")] + ["the", "and", "of", "that", "with", "have", "to"]
    with src.open("w") as fh:
        for k in range(700):
            text = ". ".join(" ".join(rng.choice(vocab) for _ in range(12)).capitalize() for _ in range(8)) + "."
            if k % 50 == 0:
                text = "buy " * 80  # repetitive: Gopher drops it
            fh.write(json.dumps({"id": str(k), "url": f"http://h{k % 7}.example/{k}", "text": text}) + "\n")
    config = tmp_path / "c.yaml"
    config.write_text("steps:\n  - use: dedup.exact.ExactDedup\n"
                      "  - use: filters.heuristics_gopher.GopherRepetition\n"
                      "  - use: filters.heuristics_gopher.GopherQuality\n")
    monkeypatch.setattr(parallel, "MIN_BATCHES", 2)  # 700 rows are 3 batches of 256

    def go(out, workers):
        return run(RunOptions(config=load_config(str(config)), inputs=[str(src)], output=out, local=True,
                              progress=False, annotate=True, filter_workers=workers))

    started = started_in_workers(monkeypatch)
    one = go(tmp_path / "one", 1)
    two = go(tmp_path / "two", 2)
    # with filter_workers 2 only, and only after the first Stage (whose digests stay here, as the filters before it
    # would): the group after it
    assert started == [("gopher_repetition+gopher_quality", 2)]
    timed = {"seconds", "cpu_seconds"}
    assert [{k: v for k, v in s.items() if k not in timed} for s in one["steps"]] == \
        [{k: v for k, v in s.items() if k not in timed} for s in two["steps"]]
    a = pd.read_parquet(tmp_path / "one" / "text").sort_values("id").reset_index(drop=True)
    b = pd.read_parquet(tmp_path / "two" / "text").sort_values("id").reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b)
    assert a["dropped_by"].notna().sum() >= 14
    # the workers' step times reached stats.json
    assert next(s for s in two["steps"] if s["step"] == "gopher_quality").get("seconds", 0) > 0


def test_which_steps_the_runner_sends_to_workers(tmp_path):
    from pipelines.runner import _filter_workers

    class Torchy(MarkPid):
        multicore = True

    def opts(**kw):
        return RunOptions(config=load_config("light"), inputs=[], output=tmp_path, **kw)

    plain, torchy = MarkPid(), Torchy()
    assert _filter_workers(opts(local=True, filter_workers=3), plain) == 3
    assert _filter_workers(opts(local=True), plain) >= 1  # one per core
    assert _filter_workers(opts(local=False, filter_workers=3), plain) == 1  # Ray spreads batches itself
    assert _filter_workers(opts(local=True, filter_workers=3), torchy) == 1
    assert _filter_workers(opts(local=True, filter_workers=3), StepGroup([plain, torchy])) == 1


def test_a_stages_spread_function_runs_in_the_workers_in_order():
    """``map_batches(fn, spread=True)`` on a dataset spread over 2 processes: this one and a worker share the
    batches, and the tables come back in input order; unspread, or over 1 process, everything runs here."""
    tables = batches(8)
    out = list(LocalDataset(tables).spread_over(2).map_batches(pid_column, spread=True).tables())
    assert [t.column("id").to_pylist() for t in out] == [t.column("id").to_pylist() for t in tables]
    pids = {p for t in out for p in t.column("pid").to_pylist()}
    assert os.getpid() in pids and len(pids) == 2
    # the workers a dataset was spread over carry on through the datasets made from it
    later = LocalDataset(tables).spread_over(2).materialize().rebatch(10).map_batches(pid_column, spread=True)
    assert len({p for t in later.tables() for p in t.column("pid").to_pylist()}) == 2
    for ds in (LocalDataset(tables).map_batches(pid_column, spread=True),
               LocalDataset(tables).spread_over(2).map_batches(pid_column)):
        assert {p for t in ds.tables() for p in t.column("pid").to_pylist()} == {os.getpid()}


def test_dedup_stages_give_the_same_output_with_their_hashing_in_workers(tmp_path, monkeypatch):
    """Exact and MinHash dedup (with verification, whose shingles the workers write) decide as in one process."""
    src = tmp_path / "docs.jsonl"
    rng = random.Random(3)
    words = [f"w{i}" for i in range(400)]
    with src.open("w") as fh:
        for k in range(600):
            base = k // 3 if k % 3 else k  # every third document a near or exact copy of the one before
            r = random.Random(base)
            text = " ".join(r.choice(words) for _ in range(120))
            if k % 3 == 1:
                text += " " + rng.choice(words)  # a near copy
            fh.write(json.dumps({"id": f"{k:04d}", "url": f"http://h.example/{k}", "text": text}) + "\n")
    config = tmp_path / "c.yaml"
    # the first Stage's digests stay in this process (the lane might still be streaming beside extraction); the
    # Stages after it spread theirs
    config.write_text("steps:\n  - use: dedup.exact.ExactDedup\n"
                      "  - use: dedup.near.MinHashDedup\n    with: {verify: 0.8}\n"
                      "  - use: dedup.exact.ExactDedup\n    name: exact_again\n")
    monkeypatch.setattr(parallel, "MIN_BATCHES", 2)
    started = started_in_workers(monkeypatch)
    outs = {}
    for workers in (1, 2):
        stats = run(RunOptions(config=load_config(str(config)), inputs=[str(src)], output=tmp_path / str(workers),
                               local=True, progress=False, annotate=True, filter_workers=workers))
        outs[workers] = (pd.read_parquet(tmp_path / str(workers) / "text").sort_values("id").reset_index(drop=True),
                         [(s["step"], s["dropped"]) for s in stats["steps"]])
    assert started == [("MinHashDedup._sign", 2), ("ExactDedup._add_key", 2)]
    pd.testing.assert_frame_equal(outs[1][0], outs[2][0])
    assert outs[1][1] == outs[2][1]
    dropped = dict(outs[2][1])
    assert dropped["exact_dedup"] and dropped["minhash_dedup"]


def test_a_slice_of_a_large_table_travels_without_its_parent():
    """A shuffle's output is batch-sized slices of a whole part; pickled as they are, each would carry the part."""
    big = pa.table({"text": ["x" * 1000] * 4000, "n": list(range(4000))})
    piece = big.slice(1000, 256)
    sent = parallel.compact(piece)
    assert sent.equals(piece)
    assert len(pickle.dumps(sent, protocol=5)) < len(pickle.dumps(piece, protocol=5)) / 10
    assert parallel.compact(big) is big  # a table of its own is sent as it is
