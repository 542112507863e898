"""A step that simulates a crash (the process dies mid-run) once, for the resumability test."""

from pathlib import Path

from pipelines.step import Step


class CrashWhenMarked(Step):
    """Raises KeyboardInterrupt (not an Exception: nothing catches it) while ``marker`` exists."""

    def __init__(self, marker: str, on_source_prefix: str) -> None:
        self.marker = marker
        self.on_source_prefix = on_source_prefix

    def process(self, doc):
        if doc.source.startswith(self.on_source_prefix) and Path(self.marker).exists():
            raise KeyboardInterrupt("simulated crash")
        return doc
