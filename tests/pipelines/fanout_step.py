"""A small fan-out step for the runner tests: one page -> a document, one pair per <img alt>, an interleaved doc.

Deliberately naive (regexes, not a DOM): it exercises the framework's lanes, not extraction.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from pathlib import Path

from pipelines.records import Document, ImageTextPair, InterleavedDoc, Page, Segment
from pipelines.step import Drop, Step

_IMG = re.compile(r'<img src="([^"]+)" alt="([^"]*)">')
_TAG = re.compile(r"<[^>]+>")


class ToyFanOut(Step):
    input_kind = "page"

    def __init__(self, outputs: tuple[str, ...] = ("document", "image_text", "interleaved"),
                 service_log: str | None = None) -> None:
        self.output_kinds = tuple(outputs)
        self.service_log = service_log
        self.service_url: str | None = None

    @contextlib.contextmanager
    def open_services(self) -> Iterator[None]:
        """Records start and stop in ``service_log``; the URL it sets must reach every worker's copy."""
        if self.service_log is None:
            yield
            return
        log = Path(self.service_log)
        log.write_text(log.read_text() + "start\n" if log.exists() else "start\n")
        self.service_url = "http://127.0.0.1:9/toy"
        try:
            yield
        finally:
            log.write_text(log.read_text() + "stop\n")

    def process(self, page: Page) -> list:
        if "nothing here" in (page.html or ""):
            raise Drop("no_text")
        ident = {"url": page.url, "source": page.source, "fetched_at": page.fetched_at,
                 "training_allowed": page.training_allowed, "policy_signals": list(page.policy_signals)}
        text = " ".join(_TAG.sub(" ", _IMG.sub(" ", page.html or "")).split())
        images = _IMG.findall(page.html or "")
        out: list = []
        if "document" in self.output_kinds:
            out.append(Document(id=page.id, text=text, extract_flags=[f"service:{self.service_url}"], **ident))
        if "image_text" in self.output_kinds:
            out += [ImageTextPair(id=f"{page.id}/{i}", doc_id=page.id, image_url=src, alt=alt, **ident)
                    for i, (src, alt) in enumerate(images)]
        if "interleaved" in self.output_kinds:
            segments = [Segment(kind="text", text=text)]
            segments += [Segment(kind="image", image_url=src, alt=alt) for src, alt in images]
            out.append(InterleavedDoc(id=page.id, title=json.dumps(len(images)), segments=segments, **ident))
        return out


class ThreadLog(Step):
    """Passes records on, writing the name of the thread each batch ran in to ``log`` (a line per batch)."""

    def __init__(self, kind: str, log: str) -> None:
        self.input_kind = kind
        self.log = log

    def process_batch(self, records: list) -> list:
        import threading

        with open(self.log, "a") as f:
            f.write(f"{self.input_kind} {threading.current_thread().name}\n")
        return records
