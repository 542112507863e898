"""``ExtractPage``: Page -> Document + ImageTextPairs + InterleavedDoc, from one parse per page.

Outputs are chosen by name: ``outputs: [text, image_text, interleaved]`` (any non-empty subset, no
repeats), written to out/text, out/image_text and out/interleaved. The step declares
``output_kinds`` in that order, "document" first when present.

Drops (``extract.<reason>``, see extract/page.py): ``no_html``, ``too_large``, ``timeout``,
``parse_error``, ``no_text``, ``too_short``. A dropped page yields nothing in any lane: a page
without main text has no pairs and no interleaved document either. The framework writes its
tombstone into the first output kind, so with ``text`` switched off the drops are counted in
out/image_text (or out/interleaved), as thin rows with the page's identity and ``dropped_by``.

Settings: ``selector: model`` by default: the block classifier of extract/select.py chooses the main-content
blocks (WCXB's seven page types, figures in the README); ``selector: trafilatura`` keeps the blocks trafilatura's
own extraction keeps (``favor_precision`` and ``fast`` then set trafilatura's mode; with the model they are refused,
since the model reads trafilatura's verdicts in the mode it was trained on); ``threshold`` overrides the model's
per-page-type thresholds. A missing or stale model file is an error when the step is built. Each batch goes through
the extraction worker in one go (``extract_pages``): the worker takes up the next page as soon as it has answered
one. ``workers``: extraction children per process; by default one per core outside Ray (``--local``, where this
process is the only one working) and one inside a Ray worker (Ray runs one per core already).

LLM-assisted extraction (``llm: {...}``, extract/llm.py; the shorthands ``llm: local`` and
``llm: http://host:port/v1`` mean ``{endpoint: local}`` and ``{endpoint: <url>}``): the step builds
``LLMExtractor(**llm)`` at construction (config errors surface at load time), delegates
``open_services()`` (the driver starts a local llama.cpp server around the run) and calls its
``setup()`` in ``setup()``. ``process_batch``
runs the rule-based extraction for every page, asks ``plan(url, chars)`` for each page that has a
text or was dropped as ``no_text`` (the fallback route may rescue it; ``min_chars`` is applied after the LLM),
runs all jobs of the batch in one ``run()``, and applies the outcomes: a non-None ``text`` replaces
the document text (``extracted_by="llm_select"``), ``structured`` becomes ``Document.structured``
(JSON), flags are appended to ``extract_flags``. A failed LLM call leaves the rule-based result.
A page rescued from ``no_text`` has no images and an interleaved document of its paragraphs.

Without ``llm`` the step needs no per-process set-up, so Ray runs it as plain tasks; the extraction
worker process (pipelines/deadline.py) is per Ray worker process either way.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from extract.options import PageOptions
from extract.page import WORKER_TARGET, Extraction, extract_page, extract_pages
from pipelines.arguments import check_number
from pipelines.deadline import close_shared, default_workers
from pipelines.records import Document, InterleavedDoc, Page, Segment
from pipelines.step import Drop, Step

OUTPUT_KINDS = {"text": "document", "image_text": "image_text", "interleaved": "interleaved"}


def llm_config(llm: Any) -> dict | None:
    """``llm`` as LLMExtractor arguments: a mapping as given, ``"local"`` or an http(s) URL as its endpoint."""
    if llm is None or isinstance(llm, dict):
        return llm
    if isinstance(llm, str):
        value = llm.strip()
        if value == "local" or value.lower().startswith(("http://", "https://")):
            return {"endpoint": value}
    raise ValueError(f"llm must be a mapping of LLMExtractor arguments, \"local\" or an http(s) endpoint URL, "
                     f"got {llm!r}")


class ExtractPage(Step):
    """Main text, image/alt pairs and interleaved documents from each page (module docstring)."""

    input_kind = "page"
    output_kind = "document"
    default_name = "extract"
    # trafilatura runs in the deadline worker's child process (and the LLM in its server): the local runner
    # prepares the next batch while this one is out (pipelines.dataset.prefetched).
    works_out_of_process = True

    def __init__(self, outputs: list[str] | None = None, llm: dict | str | None = None, workers: int | None = None,
                 **options: Any) -> None:
        """``options``: the extraction options (extract/options.py ``PageOptions``: selector, threshold,
        favor_precision, fast, quick, include_tables, min_chars, max_html_bytes, time_limit_s)."""
        outputs = ["text", "image_text", "interleaved"] if outputs is None else outputs
        if not isinstance(outputs, list | tuple) or not outputs:
            raise ValueError(f"outputs must be a non-empty list of {list(OUTPUT_KINDS)}, got {outputs!r}")
        unknown = [o for o in outputs if o not in OUTPUT_KINDS]
        if unknown:
            raise ValueError(f"outputs: unknown output(s) {unknown}; known: {list(OUTPUT_KINDS)}")
        if len(set(outputs)) != len(outputs):
            raise ValueError(f"outputs: each output may appear once, got {outputs!r}")
        self.options = PageOptions.of(**options)
        if self.options.selector == "model":
            from extract.select import shipped_model

            shipped_model()  # a missing or stale model file is a clear error at start-up, not one on every page
        if workers is not None:
            check_number("workers", workers, 1, integer=True)
        llm = llm_config(llm)
        # "document" first when present, the rest in a fixed order: tombstones go to the first kind
        self.outputs = [o for o in OUTPUT_KINDS if o in outputs]
        self.output_kinds = tuple(OUTPUT_KINDS[o] for o in self.outputs)
        self.output_kind = self.output_kinds[0]
        self.llm = llm
        self.workers = workers
        self.llm_extractor: Any = None
        if llm is not None:
            from extract.llm import LLMExtractor  # the LLM client stack is only imported when configured

            try:
                self.llm_extractor = LLMExtractor(**llm)
            except TypeError as exc:
                raise ValueError(f"llm: {exc}") from None

    @property
    def needs_actor(self) -> bool:
        # setup() only matters for the LLM client; without it, plain Ray tasks suffice
        return self.llm_extractor is not None

    def open_services(self) -> contextlib.AbstractContextManager[None]:
        """In the driver, around a run: starts the local LLM server when one is configured."""
        if self.llm_extractor is None:
            return contextlib.nullcontext()
        return self.llm_extractor.open_services()

    def setup(self) -> None:
        if self.llm_extractor is not None:
            self.llm_extractor.setup()

    @property
    def batches_in_flight(self) -> int:
        """Batches a local run may have out at once (pipelines/dataset.py): a second batch's pages go to the workers
        while this process turns the first's answers into records. One with an LLM: its requests go one batch at a
        time to the server."""
        return 2 if self.llm_extractor is None else 1

    def release(self) -> None:
        """A local run's wave has no more pages for this step: stop its extraction workers (pipelines/dataset.py;
        the next wave starts them again)."""
        close_shared(WORKER_TARGET)

    # -- extraction ----------------------------------------------------------------------

    def _workers(self) -> int:
        return default_workers(self.workers)

    def _records(self, extraction: Extraction) -> list[Any]:
        out: list[Any] = []
        if "document" in self.output_kinds:
            out.append(extraction.document)
        if "image_text" in self.output_kinds:
            out.extend(extraction.image_pairs)
        if "interleaved" in self.output_kinds:
            out.append(extraction.interleaved)
        return out

    def process(self, page: Page) -> list[Any]:
        return self._records(extract_page(page.html, page.url, page=page, options=self.options))

    def process_batch(self, records: list[Page]) -> list[Any]:
        # the whole batch through the extraction worker in one go (extract_pages): no wait between pages
        if self.llm_extractor is None:
            return [r if isinstance(r, Drop) else self._records(r)
                    for r in extract_pages(records, options=self.options, workers=self._workers())]
        # With an LLM, too-short pages are kept until the LLM has had its say (the fallback route).
        results = extract_pages(records, options=self.options, min_chars=0, workers=self._workers())
        self._apply_llm(records, results)
        out: list[Any] = []
        for result in results:
            if isinstance(result, Drop):
                out.append(result)
                continue
            text = result.document.text or ""
            if len(text) < self.options.min_chars:
                out.append(Drop("too_short", str(len(text))))
                continue
            out.append(self._records(result))
        return out

    def _apply_llm(self, pages: list[Page], results: list[Extraction | Drop]) -> None:
        from extract.llm import LLMJob

        llm = self.llm_extractor
        jobs, where = [], []
        for i, (page, result) in enumerate(zip(pages, results, strict=True)):
            if isinstance(result, Drop):
                if result.reason != "no_text":  # only an empty page is rescued; broken ones stay dropped
                    continue
                chars = 0
            else:
                chars = len(result.document.text or "")
            if not page.html:
                continue
            plan = llm.plan(page.url, chars)
            if plan is not None:
                jobs.append(LLMJob(url=page.url, html=page.html, plan=plan))
                where.append(i)
        if not jobs:
            return
        outcomes = llm.run(jobs)
        for i, outcome in zip(where, outcomes, strict=True):
            result = results[i]
            rescued = isinstance(result, Drop)
            if rescued:
                if not outcome.text:
                    continue  # the drop stands; the LLM's flags have no document to go on
                result = results[i] = _llm_only(pages[i])
            assert isinstance(result, Extraction)
            doc = result.document
            if outcome.text is not None:
                doc.text = outcome.text
                doc.extracted_by = "llm_select"
            if outcome.structured is not None:
                doc.structured = json.dumps(outcome.structured, ensure_ascii=False, sort_keys=True)
            doc.extract_flags.extend(outcome.flags)
            if rescued:
                # no trafilatura blocks to interleave: the LLM's paragraphs, text only
                result.interleaved.segments = [Segment(kind="text", text=p.strip())
                                               for p in doc.text.split("\n\n") if p.strip()]


def _llm_only(page: Page) -> Extraction:
    """An empty extraction for a page trafilatura found no text in, for the LLM's text to fill."""
    ident: dict[str, Any] = dict(id=page.id, url=page.url, source=page.source, fetched_at=page.fetched_at,
                                 training_allowed=page.training_allowed)
    doc = Document(**ident, policy_signals=list(page.policy_signals or []), text="")
    interleaved = InterleavedDoc(**ident, policy_signals=list(page.policy_signals or []))
    return Extraction(doc, [], interleaved, {})
