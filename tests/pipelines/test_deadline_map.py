"""DeadlineWorker.map: calls queued behind the running one, per-call deadlines, failures cost one call."""

from __future__ import annotations

import time

import pytest

from pipelines.deadline import DeadlineExceeded, DeadlineWorker, RemoteError, WorkerDied

TARGET = "tests.extract.deadline_target:act"


@pytest.fixture
def worker():
    w = DeadlineWorker(TARGET)
    yield w
    w.close()


def test_answers_come_back_in_order_with_failures_in_place(worker) -> None:
    calls = [("sleep", 0), ("raise", 1), ("big", 3_000_000), ("sleep", 0.01), ("echo", b"y" * 5_000_000),
             ("sleep", 0)]
    out = worker.map(calls, 30)
    assert [ok for ok, _ in out] == [True, False, True, True, True, True]
    assert isinstance(out[1][1], RemoteError) and out[1][1].exc_type == "ValueError"
    assert out[2][1] == "x" * 3_000_000 and out[4][1] == 5_000_000  # bigger than the pipe: sent when free
    assert worker.starts == 1


def test_an_overrun_costs_only_that_call_and_the_queued_one_is_sent_again(worker) -> None:
    out = worker.map([("sleep", 0), ("sleep", 30), ("sleep", 0.05), ("sleep", 0)], 0.5)
    assert [ok for ok, _ in out] == [True, False, True, True]
    assert isinstance(out[1][1], DeadlineExceeded)
    assert out[2][1] == 0.05
    assert worker.starts == 2


def test_each_call_has_its_limit_from_when_the_child_starts_it(worker) -> None:
    # two 0.4 s calls under a 0.7 s limit: the second waits in the pipe while the first runs, and is
    # only timed from when the child takes it up (from the send it would be over at 0.8 s)
    start = time.monotonic()
    out = worker.map([("sleep", 0.4), ("sleep", 0.4)], 0.7)
    assert out == [(True, 0.4), (True, 0.4)]
    assert time.monotonic() - start >= 0.8


def test_a_dying_child_costs_only_the_call_it_was_running(worker) -> None:
    out = worker.map([("sleep", 0), ("die", 3), ("sleep", 0), ("die", 4), ("sleep", 0.01)], 30)
    assert [ok for ok, _ in out] == [True, False, True, False, True]
    assert isinstance(out[1][1], WorkerDied) and "exit code 3" in str(out[1][1])
    assert isinstance(out[3][1], WorkerDied) and "exit code 4" in str(out[3][1])
    assert worker.starts == 3


def test_call_raises_what_map_returns(worker) -> None:
    assert worker.call(("sleep", 0), 10) == 0
    with pytest.raises(DeadlineExceeded):
        worker.call(("sleep", 30), 0.3)
    with pytest.raises(WorkerDied):
        worker.call(("die", 1), 10)
    assert worker.call(("big", 10), 10) == "x" * 10
    assert worker.map([], 10) == []


def test_map_shared_spreads_calls_over_workers_in_order() -> None:
    from pipelines.deadline import map_shared, shared_worker

    calls = [("sleep", 0.3)] * 4 + [("raise", 5), ("die", 3), ("echo", b"abc"), ("sleep", 0.01)]
    answers = map_shared(TARGET, calls, time_limit_s=10, workers=2)
    assert [ok for ok, _ in answers] == [True] * 4 + [False, False, True, True]
    assert [v for _, v in answers[:4]] == [0.3] * 4 and answers[6][1] == 3 and answers[7][1] == 0.01
    assert isinstance(answers[4][1], RemoteError) and isinstance(answers[5][1], WorkerDied)
    # two children: four 0.3 s sleeps take about 0.6 s (one child: 1.2 s); start-up is not counted in a call
    for i in (0, 1):  # the child that died is replaced before the timing below
        shared_worker(TARGET, i).call(("sleep", 0), 10)
    again = time.monotonic()
    map_shared(TARGET, [("sleep", 0.3)] * 4, time_limit_s=10, workers=2)
    assert time.monotonic() - again < 1.0
    first, second = shared_worker(TARGET, 0), shared_worker(TARGET, 1)
    assert first is not second and first._proc is not None and second._proc is not None
    assert first._proc.pid != second._proc.pid


def test_map_shared_gives_the_next_call_to_whichever_worker_is_free() -> None:
    from pipelines.deadline import map_shared, shared_worker

    for i in (0, 1):  # both children started: start-up is not timed below
        shared_worker(TARGET, i).call(("sleep", 0), 10)
    # the slow calls all sit at even positions: dealt round-robin, one child would sleep 1.2 s while the other idles
    calls = [("sleep", 0.4), ("sleep", 0.0)] * 3
    began = time.monotonic()
    answers = map_shared(TARGET, calls, time_limit_s=10, workers=2)
    assert time.monotonic() - began < 1.0
    assert answers == [(True, 0.4), (True, 0.0)] * 3  # answers still in call order
