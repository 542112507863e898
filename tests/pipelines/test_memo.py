"""pipelines/memo.py: by-text memos that hold digests, not texts; their entries travel between a local run's
processes with the filter batches; and the runner's gate that lets a page's interleaved document find its text
document's entries (pipelines/runner.py ``_Gate``)."""

from __future__ import annotations

import os
import threading
import time
from types import SimpleNamespace

import pytest

from pipelines import memo, parallel, runner
from pipelines.memo import DigestMemo
from pipelines.records import Document, to_table
from tests.pipelines.parallel_steps import MemoLength, text_length


@pytest.fixture(autouse=True)
def _fresh(tmp_path, monkeypatch):
    monkeypatch.setenv("WINNOW_TEST_MEMO_LOG", str(tmp_path / "computed"))
    text_length.cache_clear()
    yield
    parallel.release()
    text_length.cache_clear()


def computed(tmp_path) -> list[int]:
    path = tmp_path / "computed"
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def test_a_text_is_computed_once_per_arguments_and_the_memo_holds_no_text(tmp_path):
    text = "a page's words " * 50
    assert text_length(text, 2) == text_length(text, 2) == len(text) * 2
    assert text_length(text, 3) == len(text) * 3  # other arguments, another entry
    assert len(computed(tmp_path)) == 2
    info = text_length.cache_info()
    assert (info.hits, info.misses, info.currsize) == (1, 2, 2)
    assert not any(text in map(str, key) for key in text_length._entries)  # keyed by a 16-byte digest


def test_the_oldest_entries_go_first_past_maxsize():
    calls = []
    m = DigestMemo(lambda text: calls.append(text) or len(text), maxsize=2)
    for text in ("a", "bb", "ccc", "a"):
        m(text)
    assert calls == ["a", "bb", "ccc", "a"]  # "a" was evicted by "ccc"
    m("ccc")
    assert m.cache_info().hits == 1
    with pytest.raises(ValueError, match="maxsize"):
        DigestMemo(len, maxsize=0)


def test_the_send_log_stays_bounded_where_nobody_empties_the_memo():
    m = DigestMemo(len, maxsize=4)
    m.since("behind")  # a reader that never asks again
    for k in range(100):
        m(f"text {k}")
    assert len(m._log) <= 8
    sent = m.since("behind")
    assert [value for _, _, value in sent] == [len(f"text {k}") for k in range(96, 100)]  # the newest it can have


def test_entries_are_sent_to_each_reader_once_and_again_after_forget(tmp_path):
    text_length("one", 1)
    text_length("two", 1)
    sent = [e for e in memo.since("reader") if e[0] == text_length.name]
    assert len(sent) == 2
    assert [e for e in memo.since("reader") if e[0] == text_length.name] == []
    text_length("three", 1)
    assert len([e for e in memo.since("reader") if e[0] == text_length.name]) == 1
    memo.forget_readers()
    assert len([e for e in memo.since("reader") if e[0] == text_length.name]) == 3


def test_absorbed_entries_are_hits_and_are_relayed_only_when_asked(tmp_path):
    # as the same function computed it in another process
    entries = [(text_length.name, (memo.digest("seen elsewhere"), (2,)), len("seen elsewhere") * 2)]
    memo.absorb(entries, relay=False)
    assert text_length("seen elsewhere", 2) == len("seen elsewhere") * 2
    assert computed(tmp_path) == []  # not computed here
    assert [e for e in memo.since("other") if e[0] == text_length.name] == []  # not relayed
    text_length.cache_clear()
    memo.absorb(entries, relay=True)
    assert len([e for e in memo.since("other") if e[0] == text_length.name]) == 1
    memo.absorb([("a.module.never.imported", entries[0][1], 1)], relay=True)  # left out, no error


def test_a_filter_workers_entries_come_back_with_its_answers(tmp_path):
    docs = [Document(id=str(k), url=f"http://h.example/{k}", source="f", text=f"text number {k % 10}")
            for k in range(40)]
    tables = [to_table(docs[i:i + 5], "document") for i in range(0, 40, 5)]
    step = MemoLength()
    step.bind(name="memo_length")
    out = list(parallel.run_parallel(step, tables, workers=1, here=False))  # all of it in a worker
    assert [r["title"] for t in out for r in t.to_pylist()] == [str(2 * len(d.text)) for d in docs]
    workers = computed(tmp_path)
    assert len(workers) == 10 and os.getpid() not in workers  # ten distinct texts, computed there once each
    for k in range(10):  # here, every one of them is a hit
        assert text_length(f"text number {k}", 2) == 2 * len(f"text number {k}")
    assert len(computed(tmp_path)) == 10


def test_a_filter_worker_is_sent_what_this_process_computed(tmp_path):
    for k in range(10):
        text_length(f"text number {k}", 2)
    docs = [Document(id=str(k), url=f"http://h.example/{k}", source="f", text=f"text number {k % 10}")
            for k in range(40)]
    tables = [to_table(docs[i:i + 5], "document") for i in range(0, 40, 5)]
    step = MemoLength()
    step.bind(name="memo_length")
    list(parallel.run_parallel(step, tables, workers=1, here=False))
    assert computed(tmp_path) == [os.getpid()] * 10  # the worker computed none


def unit(kind: str, reads: bool) -> SimpleNamespace:
    return SimpleNamespace(input_kind=kind, reads_text_memos=reads)


def test_the_gate_joins_the_text_lanes_last_and_the_interleaved_lanes_first_memo_unit():
    units = [unit("document", True), unit("interleaved", False), unit("interleaved", True),
             unit("document", False), unit("document", True), unit("interleaved", True)]
    gate = runner._after_documents(units)
    assert gate.opening is units[4] and gate.waiting is units[2]
    group = SimpleNamespace(input_kind="interleaved", steps=[unit("interleaved", False), unit("interleaved", True)])
    assert runner._after_documents([units[0], group]).waiting is group
    assert runner._after_documents([unit("document", True), unit("image_text", True)]) is None
    assert runner._after_documents([unit("document", False), unit("interleaved", True)]) is None


def test_the_interleaved_lane_starts_once_the_text_lane_is_done():
    gate = runner._after_documents([unit("document", True), unit("interleaved", True)])
    events: list[str] = []

    def documents():
        for k in range(3):
            time.sleep(0.05)
            events.append(f"document {k}")
            yield k

    def interleaved():
        events.append("interleaved")
        yield 0

    waiting = threading.Thread(target=lambda: list(gate.wait_then(interleaved())))
    waiting.start()
    time.sleep(0.02)
    assert list(gate.open_after(documents())) == [0, 1, 2]
    waiting.join(5)
    assert events == ["document 0", "document 1", "document 2", "interleaved"]


def test_a_text_lane_that_fails_or_stops_still_opens_the_gate(monkeypatch):
    gate = runner._after_documents([unit("document", True), unit("interleaved", True)])

    def failing():
        yield 1
        raise OSError("disk gone")

    with pytest.raises(OSError):
        list(gate.open_after(failing()))
    assert list(gate.wait_then(iter([7]))) == [7]  # at once
    stopped = runner._after_documents([unit("document", True), unit("interleaved", True)])
    first = stopped.open_after(iter([1, 2, 3]))
    next(first)
    first.close()  # a lane stopped after its first table
    assert list(stopped.wait_then(iter([7]))) == [7]


def test_a_gate_never_opened_lets_the_lane_go_after_its_limit(monkeypatch):
    monkeypatch.setattr(runner, "GATE_WAIT_S", 0.05)
    gate = runner._after_documents([unit("document", True), unit("interleaved", True)])
    assert list(gate.wait_then(iter([7]))) == [7]
