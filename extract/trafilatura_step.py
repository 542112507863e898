"""Main-text extraction with trafilatura: ``Page`` -> ``Document``.

trafilatura 2.3 with ``favor_precision=True`` had the best F1 on the article-extraction benchmark of
the extractors tried (0.960, ../shared/STACK-NOTES.md) at about 49 docs/s on one core.

Text is rendered with ``include_formatting=True`` so headings survive as Markdown (``# ...``) and
lists and tables come out as Markdown; the same switch also keeps ``**bold**``/``*italic*`` markers,
which trafilatura does not let us separate from headings. On the 60 pages of
../shared/data/extraction_bench this step scores F1 0.977 (0.980 without formatting) at about 46
docs/s on one core; ``with_metadata`` (needed for the title, but it also runs htmldate's date
search) accounts for about a fifth of that time.

Drop reasons: ``no_html`` (the page carries no HTML), ``no_text`` (trafilatura found no main
text), ``too_short`` (fewer than ``min_chars`` characters of text).
"""

from __future__ import annotations

import logging

import trafilatura

from pipelines.records import Document, Page
from pipelines.step import Drop, Step

# trafilatura and the libraries it calls for metadata log per-page INFO/DEBUG chatter; at the scale
# of a crawl that drowns the pipeline's own log. Set here so it holds in every worker that imports
# the step (Ray workers unpickle the step and so import this module).
for _logger in ("trafilatura", "htmldate", "courlan", "justext"):
    logging.getLogger(_logger).setLevel(logging.WARNING)


class TrafilaturaExtract(Step):
    """Extract the main text and title of an HTML page with trafilatura."""

    input_kind = "page"
    output_kind = "document"
    default_name = "extract"

    def __init__(
        self,
        favor_precision: bool = True,
        include_tables: bool = True,
        include_comments: bool = False,
        min_chars: int = 1,
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
        self.favor_precision = favor_precision
        self.include_tables = include_tables
        self.include_comments = include_comments
        self.min_chars = min_chars

    def process(self, page: Page) -> Document:
        if not page.html or not page.html.strip():
            raise Drop("no_html")
        result = trafilatura.bare_extraction(
            page.html,
            url=page.url,
            favor_precision=self.favor_precision,
            include_tables=self.include_tables,
            include_comments=self.include_comments,
            include_formatting=True,  # headings as Markdown; see the module docstring
            with_metadata=True,  # for the title
        )
        if result is None:
            raise Drop("no_text")
        text = result.text or ""
        if self.include_comments and result.comments:
            # bare_extraction keeps comments apart; join them as trafilatura's own extract() does.
            text = f"{text}\n{result.comments}"
        text = text.strip()
        if not text:
            raise Drop("no_text")
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
            title=result.title or None,
        )
