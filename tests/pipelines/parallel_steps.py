"""Steps for tests/pipelines/test_parallel.py, importable by the worker processes that unpickle them."""

from __future__ import annotations

import os

from pipelines.memo import digest_memo
from pipelines.step import Drop, Step


class MarkPid(Step):
    """Drops texts containing "spam"; writes the id of the process that ran it into the title; refuses to work
    before ``setup`` (as a step whose model loads there would)."""

    def setup(self) -> None:
        self.ready = os.getpid()

    def process(self, doc):
        if getattr(self, "ready", None) != os.getpid():
            raise RuntimeError("not set up in this process")
        if "spam" in doc.text:
            raise Drop("spam", str(os.getpid()))
        doc.title = str(os.getpid())
        return doc


class DiesInWorker(Step):
    """Ends its process on the text "die", except in the process ``parent`` (where the batch is retried)."""

    def __init__(self, parent: int) -> None:
        self.parent = parent

    def process(self, doc):
        if doc.text == "die" and os.getpid() != self.parent:
            os._exit(3)
        doc.title = str(os.getpid())
        return doc


def pid_column(table):
    """A Stage's per-batch function (``map_batches(fn, spread=True)``): the batch with the id of the process that ran
    it in a column ``pid``."""
    import pyarrow as pa

    return table.append_column("pid", pa.array([os.getpid()] * table.num_rows, pa.int64()))


class CountsBatches(Step):
    """Sleeps ``seconds`` a record and leaves a file per record it finished in ``folder``: how far the workers are
    when this process gets an answer."""

    def __init__(self, folder: str, seconds: float) -> None:
        self.folder, self.seconds = folder, seconds

    def process(self, doc):
        import time

        time.sleep(self.seconds)
        open(os.path.join(self.folder, doc.id), "w").close()
        return doc


@digest_memo()
def text_length(text: str, scale: int) -> int:
    """A memoised by-text function (pipelines/memo.py) that notes each computation: the id of the process that ran
    it, appended to the file named by ``WINNOW_TEST_MEMO_LOG``."""
    with open(os.environ["WINNOW_TEST_MEMO_LOG"], "a") as fh:
        fh.write(f"{os.getpid()}\n")
    return len(text) * scale


class MemoLength(Step):
    """Writes ``text_length(text, 2)`` into the title."""

    reads_text_memos = True

    def process(self, doc):
        doc.title = str(text_length(doc.text, 2))
        return doc
