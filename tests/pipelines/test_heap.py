"""pipelines/heap.py on glibc: the arena limit takes, a trim after freeing a large heap returns memory, and so does
the trimming thread of a local run's waves."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys

import pytest

from pipelines import heap

pytestmark = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt/malloc_trim are glibc's")


def test_the_arena_limit_takes() -> None:
    code = "from pipelines import heap; import sys; sys.exit(0 if heap.limit_arenas(1) else 1)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_arrow_allocates_from_malloc_unless_the_user_chose_a_pool() -> None:
    code = ("from pipelines import heap; ok = heap.prefer_malloc_for_arrow(); import pyarrow as pa; "
            "print(ok, pa.default_memory_pool().backend_name, pa.array(range(1000)).nbytes)")
    env = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert done.stdout.split() == ["True", "system", "8000"]
    chosen = {**env, "ARROW_DEFAULT_MEMORY_POOL": "mimalloc"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=chosen)
    assert done.stdout.split() == ["False", "mimalloc", "8000"]


def test_the_winnow_command_and_its_workers_allocate_arrow_memory_from_malloc(monkeypatch: pytest.MonkeyPatch) -> None:
    code = "import pipelines.app.cli, pyarrow as pa; print(pa.default_memory_pool().backend_name)"
    env = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert done.stdout.strip() == "system"
    from pipelines.deadline import DeadlineWorker

    monkeypatch.delenv("ARROW_DEFAULT_MEMORY_POOL", raising=False)
    worker = DeadlineWorker("tests.extract.deadline_target:act")
    try:
        assert worker.call(("arrow_pool", 0), 60) == "system"
    finally:
        worker.close()


def test_a_trim_returns_freed_heap_to_the_kernel() -> None:
    # 200 MB of 4 KB strings (glibc's heap, not pymalloc's), freed: the resident size falls after the trim.
    code = """if True:
        from pipelines import heap
        def rss():
            return int(open("/proc/self/statm").read().split()[1]) * 4096
        held = ["x" * 4000 + str(i) for i in range(50_000)]
        keep = held[::1000]  # a few survivors scattered through the heap, as after a wave
        del held
        before = rss()
        heap.trim()
        print(before - rss())
    """
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(done.stdout) > 50 * 2**20


def test_the_trimming_thread_returns_freed_heap_while_a_wave_runs() -> None:
    # As test_a_trim_returns_freed_heap_to_the_kernel, but nobody calls trim: the thread does, within its period.
    code = """if True:
        import time
        from pipelines import heap
        def rss():
            return int(open("/proc/self/statm").read().split()[1]) * 4096
        with heap.Trimming(0.05) as trimming:
            held = ["x" * 4000 + str(i) for i in range(50_000)]
            keep = held[::1000]
            before = rss()  # measured while held: the thread may trim as soon as they are freed
            del held
            time.sleep(0.5)
            print(before - rss(), trimming.trims)
        with heap.Trimming(0) as idle:  # WINNOW_TRIM_SECONDS=0: no thread
            time.sleep(0.1)
        print(idle.trims)
    """
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    returned, trims, idle = map(int, done.stdout.split())
    assert returned > 50 * 2**20 and trims >= 1
    assert idle == 0


def test_a_local_run_trims_during_its_waves(tmp_path, monkeypatch) -> None:
    from pipelines.config import load_config
    from pipelines.runner import RunOptions, run

    seen: list[tuple[float, int]] = []
    out = tmp_path / "out"

    class Recorder(heap.Trimming):
        def __enter__(self):
            seen.append((self.seconds, len(list((out / "_progress").glob("wave-*.json")))))
            return super().__enter__()

        def __exit__(self, *exc):
            seen.append((self.seconds, len(list((out / "_progress").glob("wave-*.json")))))
            return super().__exit__(*exc)

    monkeypatch.setattr(heap, "Trimming", Recorder)
    monkeypatch.setenv("WINNOW_TRIM_SECONDS", "0.5")
    inputs = []
    for name in ("a", "b"):
        src = tmp_path / f"{name}.jsonl"
        src.write_text(json.dumps({"id": name, "text": f"Document {name} about the river and its bank."}) + "\n")
        inputs.append(str(src))
    run(RunOptions(config=load_config("dedup"), inputs=inputs, output=out, local=True, progress=False, wave_files=1))
    assert seen == [(0.5, 0), (0.5, 2)]  # around both waves, from before the first to after the last


def test_per_wave_caches_are_emptied_between_waves():
    from functools import lru_cache

    from filters import parts, signals, text

    @heap.per_wave
    @lru_cache(maxsize=8)
    def twice(x: str) -> str:
        return x * 2

    twice("a"), twice("b")
    signals.compute("A short text about the river. It has two sentences.", "en")
    assert twice.cache_info().currsize == 2 and signals._compute.cache_info().currsize >= 1
    assert heap.forget_waves_caches() >= 3
    for cached in (twice, signals._compute, text.ngram_shares, text._cached_word_count, parts._split):
        assert cached.cache_info().currsize == 0


def test_reading_a_signal_keeps_no_document():
    from filters import signals

    values = signals.compute("A short text about the river. It has two sentences.", "en")
    assert signals.signal(values, "log_words") == values[signals.NAMES.index("log_words")]
    assert not hasattr(signals.signal, "cache_info")  # a cache keyed by each document's tuple grew with the input
