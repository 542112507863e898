"""Steps for the engine tests (failing, waiting, busy), loaded by dotted path from test configs."""

from pipelines.step import Step


class BatchModelFailsOnPoison(Step):
    """A vectorised step (``process_batch``) that raises on a whole batch when one record in it says POISON."""

    def process_batch(self, records):
        if any("POISON" in (r.text or "") for r in records):
            raise ValueError("model cannot read a record")
        for r in records:
            r.title = "seen"
        return records


class AlwaysFails(Step):
    """A broken step: every record raises."""

    def process(self, doc):
        raise RuntimeError("broken step")


class Sleeps(Step):
    """Waits 0.3 s per batch without using the CPU (as a step waiting on a server does)."""

    def process_batch(self, records):
        import time

        time.sleep(0.3)
        return records


class Burns(Step):
    """Uses the CPU for 0.3 s per batch."""

    def process_batch(self, records):
        import time

        end = time.thread_time() + 0.3
        while time.thread_time() < end:
            pass
        return records
