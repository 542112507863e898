"""Steps that fail, for the engine's error-isolation tests (loaded by dotted path from test configs)."""

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
