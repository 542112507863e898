"""Main-text extraction with trafilatura: ``Page`` -> ``Document``.

trafilatura 2.3 with ``favor_precision=True`` had the best F1 on the article-extraction benchmark of
the extractors tried (0.960, ../shared/STACK-NOTES.md) at about 49 docs/s on one core.

Text is rendered with ``include_formatting=True`` so headings survive as Markdown (``# ...``) and
lists and tables come out as Markdown; the same switch also keeps ``**bold**``/``*italic*`` markers,
which trafilatura does not let us separate from headings. On the 60 pages of
../shared/data/extraction_bench this step scores F1 0.977 (0.980 without formatting).

Only the title is taken from the page's metadata, and it is read the way trafilatura's own metadata
extraction reads it (``<meta>`` tags, then JSON-LD, then ``<title>``/``<h1>``, whitespace trimmed) from the
tree the extraction parses, instead of asking ``bare_extraction`` for ``with_metadata``: that also runs
htmldate's date search, the author, site name, categories and licence, none of which a ``Document`` keeps.
On 300 WCXB dev pages (bench/e2e.py's input is built from them) ``with_metadata`` cost 69 ms a page and this
46 ms (one core, same run), with the same text on 300 of 300 pages and the same title on all 300.

Like ``ExtractPage`` the extraction runs in deadline workers (pipelines/deadline.py): each page under
``time_limit_s`` (a stuck page costs itself, ``timeout``), a crash deep in libxml2 costs the page
(``parse_error``), and outside Ray one worker per core shares each batch (``workers`` overrides), so a
``--local`` run extracts on every core. ``time_limit_s: null`` extracts in the pipeline's process, one page
after another, with no limit.

Drop reasons: ``no_html`` (the page carries no HTML), ``no_text`` (trafilatura found no main
text), ``too_short`` (fewer than ``min_chars`` characters of text), ``timeout``, ``parse_error``.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import trafilatura
from lxml.html import HtmlElement
from trafilatura.metadata import examine_meta, extract_meta_json, extract_title
from trafilatura.utils import load_html

from extract.page import DEFAULT_TIME_LIMIT_S, failure_drop
from pipelines.arguments import check_number
from pipelines.deadline import check_time_limit, close_shared, default_workers, run_calls
from pipelines.records import Document, Page
from pipelines.step import Drop, Step

# trafilatura and the libraries it calls log per-page INFO/DEBUG chatter; at the scale of a crawl that
# drowns the pipeline's own log. Set here so it holds in every process that imports the step (Ray workers
# unpickle the step, deadline workers import WORKER_TARGET's module: both import this one).
for _logger in ("trafilatura", "htmldate", "courlan", "justext"):
    logging.getLogger(_logger).setLevel(logging.WARNING)

WORKER_TARGET = "extract.trafilatura_step:extract_text"

_WARM_UP_PAGE = ("<html><head><title>Warm-up</title></head><body><nav><a href='/'>Home</a></nav><article><h1>Warm-up"
                 "</h1>" + "<p>One page through the extraction so that what it loads on first use is loaded before "
                 "the first real page starts its clock.</p>" * 4 + "<table><tr><td>a</td><td>1</td></tr></table>"
                 "</article></body></html>")


def page_title(tree: HtmlElement) -> str | None:
    """The title trafilatura's metadata extraction gives (``extract_metadata``'s title steps, trimmed alike)."""
    meta = examine_meta(tree)
    with contextlib.suppress(Exception):  # trafilatura guards the same call the same way: bugs in its JSON-LD reader
        meta = extract_meta_json(tree, meta)
    if not meta.title:
        meta.title = extract_title(tree)
    meta.clean_and_trim()
    return meta.title or None


def extract_text(html: str, url: str | None, favor_precision: bool, include_tables: bool,
                 include_comments: bool) -> tuple[str, str | None] | None:
    """``(text, title)`` of one page, or None where trafilatura finds no main text: what the worker runs."""
    tree = load_html(html)
    if tree is None:
        return None
    title = page_title(tree)
    result = trafilatura.bare_extraction(
        tree,  # bare_extraction copies a tree it is given, so the title read above saw the page as parsed
        url=url,
        favor_precision=favor_precision,
        include_tables=include_tables,
        include_comments=include_comments,
        include_formatting=True,  # headings as Markdown; see the module docstring
    )
    if result is None:
        return None
    text = result.text or ""
    if include_comments and result.comments:
        # bare_extraction keeps comments apart; join them as trafilatura's own extract() does.
        text = f"{text}\n{result.comments}"
    return text.strip(), title


def warm_up() -> None:
    """Called by pipelines/deadline.py in a new worker before its first page."""
    extract_text(_WARM_UP_PAGE, "https://warm-up.invalid/", True, True, False)


class TrafilaturaExtract(Step):
    """Extract the main text and title of an HTML page with trafilatura."""

    input_kind = "page"
    output_kind = "document"
    default_name = "extract"
    # the extraction runs in deadline workers: the local runner reads the next batch meanwhile
    works_out_of_process = True

    def __init__(
        self,
        favor_precision: bool = True,
        include_tables: bool = True,
        include_comments: bool = False,
        min_chars: int = 1,
        time_limit_s: float | None = DEFAULT_TIME_LIMIT_S,
        workers: int | None = None,
    ) -> None:
        # Validated here because config loading instantiates every step at start-up: a wrong value
        # in the YAML should fail before any data moves, not in a worker an hour later.
        for arg, value in (
            ("favor_precision", favor_precision),
            ("include_tables", include_tables),
            ("include_comments", include_comments),
        ):
            if not isinstance(value, bool):
                raise ValueError(f"{arg} must be a bool, got {value!r}")
        if isinstance(min_chars, bool) or not isinstance(min_chars, int) or min_chars < 0:
            raise ValueError(f"min_chars must be a non-negative int, got {min_chars!r}")
        check_time_limit(time_limit_s)
        if workers is not None:
            check_number("workers", workers, 1, integer=True)
        self.favor_precision = favor_precision
        self.include_tables = include_tables
        self.include_comments = include_comments
        self.min_chars = min_chars
        self.time_limit_s = float(time_limit_s) if time_limit_s is not None else None
        self.workers = workers

    def release(self) -> None:
        """A local run's wave has no more pages for this step: stop its workers (as ``ExtractPage.release``)."""
        close_shared(WORKER_TARGET)

    def _call(self, page: Page) -> tuple[Any, ...]:
        if not page.html or not page.html.strip():
            raise Drop("no_html")
        return (page.html, page.url, self.favor_precision, self.include_tables, self.include_comments)

    def _answers(self, calls: list[tuple[Any, ...]]) -> list[Any]:
        """``extract_text(*call)`` for each call, or the exception it failed with, in order."""
        return run_calls(WORKER_TARGET, calls, self.time_limit_s, default_workers(self.workers))

    def _document(self, page: Page, answer: Any) -> Document:
        if isinstance(answer, Exception):
            raise failure_drop(answer, self.time_limit_s)
        if answer is None or not answer[0]:
            raise Drop("no_text")
        text, title = answer
        if len(text) < self.min_chars:
            raise Drop("too_short", detail=str(len(text)))
        return Document(
            id=page.id,
            url=page.url,
            source=page.source,
            fetched_at=page.fetched_at,
            training_allowed=page.training_allowed,
            policy_signals=list(page.policy_signals or []),
            text=text,
            title=title,
        )

    def process(self, page: Page) -> Document:
        return self._document(page, self._answers([self._call(page)])[0])

    def process_batch(self, records: list[Page]) -> list[Any]:
        out: list[Any] = [None] * len(records)
        calls: list[tuple[Any, ...]] = []
        where: list[int] = []
        for i, page in enumerate(records):
            try:
                calls.append(self._call(page))
                where.append(i)
            except Drop as drop:
                out[i] = drop.as_result()
        for i, answer in zip(where, self._answers(calls), strict=True):
            try:
                out[i] = self._document(records[i], answer)
            except Drop as drop:
                out[i] = drop.as_result()
            except Exception as exc:  # a bug on one page costs that page (counted as the step's error), not the batch
                out[i] = Drop("error", f"{type(exc).__name__}: {exc}"[:500])
        return out
