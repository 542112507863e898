"""pipelines/spill.py: a local run's waiting tables on disk past a budget, read back the same, in the same order;
groups whole in their part; folders removed; and a whole run with everything spilled gives the rows it gives in
memory."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest

from pipelines import spill
from pipelines.app.sample import build_sample_warc
from pipelines.config import load_config
from pipelines.dataset import LocalDataset
from pipelines.runner import RunOptions, run
from pipelines.spill import SpillList, SpillQueue, partitions


def tables(n: int, rows: int = 50) -> list[pa.Table]:
    return [pa.table({"id": [f"{i}-{j}" for j in range(rows)], "host": [f"h{(i * rows + j) % 7}" for j in range(rows)],
                      "text": ["x" * (100 + j) for j in range(rows)]}) for i in range(n)]


@pytest.fixture
def spill_dir(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("WINNOW_SPILL_DIR", str(tmp_path / "spill"))
    return tmp_path / "spill"


def test_a_list_past_its_budget_reads_back_the_same_tables_in_order_on_every_pass(spill_dir: Path) -> None:
    given = tables(6)
    held = SpillList(given, budget=given[0].nbytes * 2)  # two in memory, four on disk
    assert (len(held), held.spilled, held.num_rows) == (6, 4, 300)
    for _ in range(2):
        assert [t.equals(g) for t, g in zip(held, given, strict=True)] == [True] * 6
    folders = list(spill_dir.iterdir())
    assert len(folders) == 1 and len(list(folders[0].iterdir())) == 4
    held.close()
    assert list(spill_dir.iterdir()) == []


def test_a_list_within_its_budget_writes_nothing(spill_dir: Path) -> None:
    held = SpillList(tables(3))
    assert held.spilled == 0 and not spill_dir.exists()


def test_a_collected_list_removes_its_folder(spill_dir: Path) -> None:
    held = SpillList(tables(3), budget=0)
    assert held.spilled == 3
    del held
    assert list(spill_dir.iterdir()) == []


def test_a_queue_between_threads_keeps_order_and_holds_only_its_budget(spill_dir: Path) -> None:
    given = tables(20)
    q = SpillQueue(budget=given[0].nbytes * 3)
    end = object()

    def produce() -> None:
        for t in given:
            q.put(t)
        q.put(end)

    thread = threading.Thread(target=produce)
    thread.start()
    thread.join()  # the whole lane waits, as a lane read after the others does
    assert q._held <= given[0].nbytes * 3
    assert len(list(next(spill_dir.iterdir()).iterdir())) == 17
    got = []
    while (item := q.get()) is not end:
        got.append(item)
    assert [t.equals(g) for t, g in zip(got, given, strict=True)] == [True] * 20
    assert list(next(spill_dir.iterdir()).iterdir()) == []  # each file removed once read
    q.close()
    q.put(given[0])  # a producer that has not seen the close yet: nothing, no error
    assert list(spill_dir.iterdir()) == []


def test_partitions_keep_each_key_whole_and_every_row(spill_dir: Path) -> None:
    given = tables(10)
    parts = list(partitions(SpillList(given, budget=0), "host", part_bytes=given[0].nbytes * 3))
    assert len(parts) > 1
    hosts = [set(p.column("host").to_pylist()) for p in parts]
    assert all(not (a & b) for i, a in enumerate(hosts) for b in hosts[i + 1:])
    assert sorted(r for p in parts for r in p.column("id").to_pylist()) == sorted(
        r for t in given for r in t.column("id").to_pylist())
    assert list(spill_dir.iterdir()) == []


def test_partitions_that_fit_are_one_part_in_input_order() -> None:
    given = tables(3)
    (part,) = partitions(SpillList(given), "host")
    assert part.equals(pa.concat_tables(given))


def test_map_groups_past_the_budget_gives_the_same_groups(spill_dir: Path, monkeypatch) -> None:
    def per_host(table: pa.Table) -> pa.Table:
        counts = table.group_by("host").aggregate([("id", "count")])
        return counts.rename_columns(["host", "n"])

    monkeypatch.setenv("WINNOW_SPILL_MB", "1000")
    whole = pa.concat_tables(LocalDataset(iter(tables(12))).map_groups("host", per_host).tables())
    monkeypatch.setenv("WINNOW_SPILL_MB", str(tables(1)[0].nbytes * 2 / 2**20))
    split = pa.concat_tables(LocalDataset(iter(tables(12))).map_groups("host", per_host).tables())
    assert split.num_rows == whole.num_rows == 7  # a host counted in two parts would give two rows
    assert sorted(split.to_pylist(), key=str) == sorted(whole.to_pylist(), key=str)


def test_the_folders_of_processes_that_died_are_swept(tmp_path: Path, monkeypatch) -> None:
    root = tmp_path / "root"
    dead = root / "winnow-spill-999999999-abc"
    mine = root / f"winnow-spill-{os.getpid()}-abc"
    dead.mkdir(parents=True)
    mine.mkdir()
    monkeypatch.setenv("WINNOW_SPILL_DIR", str(root))
    monkeypatch.setattr(spill, "_swept", False)
    spill.new_folder()
    assert not dead.exists() and mine.exists()


@pytest.mark.slow
def test_the_default_chain_gives_the_same_rows_with_everything_spilled(tmp_path: Path, monkeypatch) -> None:
    warc = tmp_path / "site.warc.gz"
    build_sample_warc(warc)
    outputs = {}
    made = []
    original = spill.new_folder
    monkeypatch.setattr(spill, "new_folder", lambda: made.append(original()) or made[-1])
    for name, budget in (("memory", "100000"), ("disk", "0.001")):
        monkeypatch.setenv("WINNOW_SPILL_MB", budget)
        monkeypatch.setenv("WINNOW_SPILL_DIR", str(tmp_path / f"spill-{name}"))
        run(RunOptions(config=load_config("default", annotate=True), inputs=[str(warc)], output=tmp_path / name,
                       local=True, progress=False, annotate=True))
        assert list((tmp_path / f"spill-{name}").glob("*/*")) == []  # nothing left behind
        outputs[name] = tmp_path / name
        if name == "memory":
            assert made == []
    assert len(made) >= 5  # the lanes, the Stages' group-bys and dedup's materialised passes
    for folder in ("text", "image_text", "interleaved"):
        frames = [pd.read_parquet(outputs[name] / folder).sort_values("id").reset_index(drop=True)
                  for name in ("memory", "disk")]
        assert len(frames[0]) > 0
        pd.testing.assert_frame_equal(frames[0], frames[1])
