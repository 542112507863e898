"""LocalDataset.split: the fan-out's bundles are read in a background thread and dealt to one lane per kind, in
order; a failure upstream reaches the lanes; a lane abandoned early stops the reading."""

import threading
import time

import pytest

from pipelines.dataset import LocalDataset
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
