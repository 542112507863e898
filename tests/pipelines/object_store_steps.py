"""A step for the object-store kill test (tests/pipelines/test_run_object_store.py), loaded by dotted path."""

import os
import time

from pipelines.step import Step


class StallsWhileMarked(Step):
    """While ``marker`` exists, sleeps ``seconds`` on the second batch of an input whose source starts with
    ``on_source_prefix``: the wave has written its first shards and has not committed, and the test kills the run
    there. Without the marker it passes everything through (the same config, so the run can resume)."""

    def __init__(self, marker: str, on_source_prefix: str, seconds: float = 120.0) -> None:
        self.marker = marker
        self.on_source_prefix = on_source_prefix
        self.seconds = seconds
        self._batches = 0

    def process_batch(self, records):
        if records and records[0].source.startswith(self.on_source_prefix) and os.path.exists(self.marker):
            self._batches += 1
            if self._batches == 2:
                time.sleep(self.seconds)
        return records
