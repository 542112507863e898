"""LocalDataset.split: the fan-out's bundles are read in a background thread and dealt to one lane per kind, in
order; a failure upstream reaches the lanes; a lane abandoned early stops the reading."""

import threading
import time

import pytest

from pipelines.dataset import LocalDataset, drain_together, in_order
from pipelines.records import Document, ImageTextPair, bundle, to_table

KINDS = ("document", "image_text")


def make_bundle(i: int):
    doc = to_table([Document(id=f"d{i}", url=f"http://h/{i}", source=f"f@{i}", text=f"text {i}")], "document")
    pairs = to_table([ImageTextPair(id=f"p{i}-{j}", url=f"http://h/{i}", source=f"f@{i}", doc_id=f"d{i}",
                                    image_url=f"http://h/{i}/{j}.png", alt=f"alt {j}") for j in range(2)],
                     "image_text")
    return bundle({"document": doc, "image_text": pairs})


def ids(dataset):
    return [i for t in dataset.tables() for i in t.column("id").to_pylist()]


def test_lanes_get_every_bundle_in_order():
    lanes = LocalDataset(make_bundle(i) for i in range(5)).split(KINDS)
    assert ids(lanes["document"]) == [f"d{i}" for i in range(5)]
    assert ids(lanes["image_text"]) == [f"p{i}-{j}" for i in range(5) for j in range(2)]


def test_reading_runs_beside_the_lane_work():
    # The stream is read in another thread: while this thread holds the first table, the rest are dealt.
    readers: list[str] = []

    def bundles():
        for i in range(3):
            readers.append(threading.current_thread().name)
            yield make_bundle(i)

    lanes = LocalDataset(bundles()).split(KINDS)
    docs = lanes["document"].tables()
    next(docs)
    deadline = time.monotonic() + 10
    while len(readers) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(readers) == 3 and threading.current_thread().name not in readers
    assert len(list(docs)) == 2


def test_an_upstream_failure_reaches_every_lane():
    def bundles():
        yield make_bundle(0)
        raise OSError("disk gone")

    lanes = LocalDataset(bundles()).split(KINDS)
    for kind in KINDS:
        tables = lanes[kind].tables()
        next(tables)
        with pytest.raises(OSError, match="disk gone"):
            next(tables)


def test_an_abandoned_lane_stops_the_reading():
    release = threading.Event()
    read: list[int] = []

    def bundles():
        for i in range(100):
            read.append(i)
            yield make_bundle(i)
            release.wait(5)

    lanes = LocalDataset(bundles()).split(KINDS)
    docs = lanes["document"].tables()
    next(docs)
    docs.close()  # the run failed downstream
    release.set()
    time.sleep(0.3)
    assert len(read) < 100


def test_prefetched_keeps_order_and_reads_ahead():
    from pipelines.dataset import prefetched

    read: list[int] = []

    def tables():
        for i in range(6):
            read.append(i)
            yield make_bundle(i)

    it = prefetched(tables(), depth=2)
    first = next(it)
    deadline = time.monotonic() + 10
    while len(read) < 4 and time.monotonic() < deadline:  # the one handed out, two queued, one waiting to be
        time.sleep(0.01)
    time.sleep(0.1)
    assert len(read) == 4  # bounded: no further than depth ahead
    assert [first, *it] == [make_bundle(i) for i in range(6)]


def test_prefetched_raises_in_order_and_stops_when_closed():
    from pipelines.dataset import prefetched

    def failing():
        yield make_bundle(0)
        raise ValueError("bad record file")

    it = prefetched(failing(), depth=2)
    assert next(it) == make_bundle(0)
    with pytest.raises(ValueError, match="bad record file"):
        next(it)

    read: list[int] = []

    def endless():
        i = 0
        while True:
            read.append(i)
            yield make_bundle(i)
            i += 1

    it = prefetched(endless(), depth=1)
    next(it)
    it.close()
    time.sleep(0.5)
    seen = len(read)
    time.sleep(0.3)
    assert seen == len(read) and seen <= 4


# -- drain_together: a local run's lanes, each in a thread of its own ------------------------------------------------

def test_drain_together_gives_each_lanes_results_in_order():
    lanes = [iter(range(5)), iter(range(10, 13)), iter([])]
    assert drain_together(lanes, lambda x: [x, -x]) == [
        [0, 0, 1, -1, 2, -2, 3, -3, 4, -4], [10, -10, 11, -11, 12, -12], []]


def test_drain_together_runs_the_lanes_at_once():
    met = threading.Event()

    def waits() -> object:  # one lane cannot end before the other has started: one after the other would never end
        yield 1
        if not met.wait(10):
            raise AssertionError("the lanes ran one after the other")
        yield 2

    def sets() -> object:
        met.set()
        yield 3

    assert drain_together([waits(), sets()], lambda x: [x]) == [[1, 2], [3]]


def test_a_failing_lane_stops_the_others_and_its_error_is_raised():
    closed = threading.Event()
    drained: list[int] = []

    def endless() -> object:
        try:
            i = 0
            while True:
                i += 1
                yield i
                time.sleep(0.01)
        finally:
            closed.set()  # its stream was closed, as a sequential run's would be

    def fails() -> object:
        yield 0
        time.sleep(0.1)
        raise RuntimeError("lane broke")

    with pytest.raises(RuntimeError, match="lane broke"):
        drain_together([endless(), fails()], lambda x: drained.append(x) or [x])
    assert closed.is_set() and len(drained) < 1000


# -- in_order: an out-of-process step's batches, a second one out while the first is turned into records -------------

def test_in_order_keeps_the_order_with_two_calls_at_once():
    started = threading.Barrier(2, timeout=10)

    def slow_first(x):
        if x < 2:
            started.wait()  # both of the first two calls run at once, or this times out
        time.sleep(0.05 if x == 0 else 0)
        return x * 10

    assert list(in_order(slow_first, iter(range(6)), 2)) == [0, 10, 20, 30, 40, 50]
    assert list(in_order(lambda x: x + 1, iter(range(3)), 1)) == [1, 2, 3]


def test_in_order_raises_in_order():
    def fails_on_two(x):
        if x == 2:
            raise ValueError("batch 2")
        return x

    got = []
    with pytest.raises(ValueError, match="batch 2"):
        for value in in_order(fails_on_two, iter(range(5)), 2):
            got.append(value)
    assert got == [0, 1]
