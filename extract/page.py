"""``extract_page``: one HTML page -> (Document, [ImageTextPair], InterleavedDoc), for notebooks and the step.

    doc, pairs, interleaved = extract_page(html, "https://example.org/a")

The same function runs in the pipeline (extract/step.py passes the ``Page``, whose identity and policy
fields the records copy). Without a ``Page``, the id is ``pipelines.readers.stable_id(url)`` and the
source is the URL. ``bytes`` are decoded as the WARC reader decodes them (BOM, Content-Type charset,
``<meta>``, UTF-8, detection: pipelines/readers/charset.py).

A page that gives no records raises ``pipelines.step.Drop`` with one of these reasons:
``no_html``, ``too_large`` (over ``max_html_bytes`` UTF-8 bytes; detail: the size), ``timeout`` (over
``time_limit_s``; the worker is killed and restarted), ``parse_error`` (not parseable, or the parser or
extractor failed on it: too deep, recursion, a crashed worker), ``no_text``, ``too_short``.
``extract_pages`` gives these in the page's place instead of raising, plus ``error`` for a page that hit a
bug (logged), so one page never costs the others.

Size cap: 10 MB by default, half of trafilatura's own ``MAX_FILE_SIZE`` (20,000,000 bytes, settings.cfg,
which it applies to downloads and decompression, not to HTML handed to it). Pages over 10 MB are
nearly always data dumps or inlined media, and the parse alone would take seconds.
Time limit: 20 s by default, about 1,000 times the median page (about 20 ms) and short enough that
a stuck page costs a batch little; ``time_limit_s=None`` runs in this process with no limit.

Settings: ``selector="model"`` (the default) lets the block classifier choose the main-content blocks
(extract/core.py, extract/select.py), ``selector="trafilatura"`` keeps trafilatura's own choice (then
``favor_precision``/``fast`` set trafilatura's mode); ``threshold`` overrides the model's per-page-type thresholds.
Figures (WCXB's seven page types, the 60-article benchmark, speed) are in the README and come from
bench/extract_bench.py.

Images (extract/images.py, extract/core.py ``content_images``): the content images are those next to or inside
the kept blocks; each gives at most one pair (repeats of the same URL on a page are skipped as ``duplicate``),
or is counted under its skip reason (``furniture`` for share bars, sidebars and page headers, then the reasons of
extract/images.py), so pairs + counted skips = ``Extraction.content_images``; images skipped as
``tracking_pixel``, ``spacer``, ``furniture``, ``icon``, ``data_uri`` or ``no_src`` also stay out of the
interleaved document, while ``no_alt`` images stay in it (an interleaved document needs the image, not its
alt). Every skip is counted in ``Extraction.skipped_images`` and as one ``image_skipped.<reason>`` flag per image
on the Document. On a ``noimageai`` page (``Page.images_allowed is False``) no image is emitted anywhere and each
content image is flagged ``image_skipped.noimageai`` (once per image, so the metric counts images).

A page nested deeper than libxml2's 256 levels is parsed up to that depth: with text before it, the
Document carries the flag ``parse_truncated.depth``; without, it is dropped as ``parse_error``.

An image-less page still gets an InterleavedDoc (text segments only): the lane then holds one row per
document, and filters (filters/image_alt.py, ``min_images``) decide what an interleaved corpus needs.
"""

from __future__ import annotations

import hashlib
import logging
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from extract.core import SELECTORS, ExtractFailure, ExtractOptions, RawExtraction, extract_raw
from extract.options import DEFAULT_MAX_HTML_BYTES, DEFAULT_TIME_LIMIT_S, PageOptions
from pipelines.deadline import DeadlineExceeded, RemoteError, WorkerDied, run_calls

__all__ = ["DEFAULT_MAX_HTML_BYTES", "DEFAULT_TIME_LIMIT_S", "PageOptions", "extract_page", "extract_pages"]
from filters.image_alt import pair_text
from pipelines.readers.charset import decode_html
from pipelines.readers.ids import stable_id
from pipelines.records import Document, ImageTextPair, InterleavedDoc, Page, Segment
from pipelines.step import Drop

log = logging.getLogger(__name__)

CONTEXT_CHARS = 150  # per side: up to 150 characters of the text block before and of the one after
WORKER_TARGET = "extract.page:extract_html"
# exceptions from the parser/extractor that mean "this page cannot be processed", not a bug of ours
_PARSE_FAILURES = frozenset({"RecursionError", "MemoryError", "XMLSyntaxError", "ParserError", "ParseError",
                             "UnicodeDecodeError", "UnicodeEncodeError"})
# skipped images that still appear in the interleaved document
_INTERLEAVED_SKIPS = frozenset({None, "no_alt"})


class Extraction:
    """The three outputs of one page; unpacks as ``(document, image_pairs, interleaved)``."""

    def __init__(self, document: Document, image_pairs: list[ImageTextPair], interleaved: InterleavedDoc,
                 skipped_images: dict[str, int], content_images: int | None = None) -> None:
        self.document = document
        self.image_pairs = image_pairs
        self.interleaved = interleaved
        self.skipped_images = skipped_images
        # images found next to or inside the kept blocks: each is a pair or a counted skip
        self.content_images = (len(image_pairs) + sum(skipped_images.values()) if content_images is None
                               else content_images)

    @property
    def flags(self) -> list[str]:
        return self.document.extract_flags

    def __iter__(self) -> Iterator[Any]:
        return iter((self.document, self.image_pairs, self.interleaved))

    def __repr__(self) -> str:
        return (f"Extraction(id={self.document.id!r}, chars={len(self.document.text or '')}, "
                f"pairs={len(self.image_pairs)}, segments={len(self.interleaved.segments)}, "
                f"skipped_images={self.skipped_images})")


def utf8_size(html: str, cap: int) -> int:
    """UTF-8 size of ``html``, exact when it could exceed ``cap`` (cheap otherwise: <= 4 bytes a char)."""
    if len(html) * 4 <= cap:
        return len(html)  # a lower bound, and certainly under the cap
    return len(html.encode("utf-8", "surrogatepass"))


_WARM_UP_PAGE = ("<html><head><title>Warm-up</title></head><body><nav><a href='/'>Home</a></nav><main><article>"
                 "<h1>Warm-up</h1>" + "<p>One page through every stage, so that the modules each stage imports on "
                 "first use and the models are loaded before the first real page starts its clock.</p>" * 4 +
                 "<pre><code class='language-python'>x = 1</code></pre><table><tr><th>a</th><th>b</th></tr>"
                 "<tr><td>1</td><td>2</td></tr></table><img src='/a.jpg' alt='a picture of the warm-up'>"
                 "</article></main></body></html>")


def warm_up() -> None:
    """One small page through the whole extraction: loads the models and the modules that stages import on first use
    (htmldate and its date parsers take seconds on a cold start). pipelines/deadline.py calls this in a new worker
    before its first page, so that no page's time limit pays for it."""
    for selector in SELECTORS:
        extract_raw(_WARM_UP_PAGE, "https://warm-up.invalid/", ExtractOptions(selector=selector))


def extract_html(html: str | bytes, url: str | None, options: ExtractOptions, content_type: str | None,
                 max_html_bytes: int) -> RawExtraction:
    """Decode ``bytes``, check the decoded size (``too_large``), then ``extract_raw``: what the worker runs.

    Bytes cross the worker's pipe as they came and are decoded there: a decoded ``str`` costs pickle a
    UTF-8 encode and decode (about 0.25 ms for the benchmark's mean page of 160,000 characters), bytes
    only a copy; the decoding itself costs the same on either side.
    """
    if isinstance(html, bytes):
        html = decode_html(html, content_type).text
    size = utf8_size(html, max_html_bytes)
    if size > max_html_bytes:
        raise ExtractFailure("too_large", f"{size} bytes")
    return extract_raw(html, url, options)


def run_extractions(calls: list[tuple[Any, ...]], time_limit_s: float | None,
                    workers: int = 1) -> list[RawExtraction | Exception]:
    """``extract_html(*args)`` for each call, in this process (no limit) or in the deadline worker(s).

    Each answer is the RawExtraction or the exception it failed with (``failure_drop`` sorts them out). Through
    the workers the whole list goes in one ``DeadlineWorker.map`` per worker (``workers`` children at once,
    ``pipelines.deadline.map_shared``), so each child works through its pages without waiting for this process.
    """
    return run_calls(WORKER_TARGET, calls, time_limit_s, workers)


def failure_drop(exc: Exception, time_limit_s: float | None) -> Drop:
    """The ``Drop`` for a page the extraction failed on; a failure that is not about the page is raised.

    Shared with extract/trafilatura_step.py, whose worker fails the same ways."""
    if isinstance(exc, ExtractFailure):
        return Drop(exc.reason, exc.detail)
    if isinstance(exc, DeadlineExceeded):
        return Drop("timeout", f"over {time_limit_s:g}s")
    if isinstance(exc, WorkerDied):
        return Drop("parse_error", str(exc))
    if isinstance(exc, RecursionError):
        return Drop("parse_error", f"RecursionError: {exc}"[:200])
    if isinstance(exc, RemoteError):
        if exc.exc_type in _PARSE_FAILURES:
            return Drop("parse_error", str(exc)[:200])
        raise RuntimeError(f"extraction failed in the worker: {exc}\n{exc.trace}") from None
    raise exc


def _identity(page: Page | None, url: str | None) -> dict[str, Any]:
    if page is not None:
        return dict(id=page.id, url=page.url, source=page.source, fetched_at=page.fetched_at,
                    training_allowed=page.training_allowed, policy_signals=list(page.policy_signals or []))
    if not url:
        raise ValueError("extract_page needs a url (or a page) to identify its records")
    return dict(id=stable_id(url), url=url, source=url, fetched_at=None, training_allowed=None, policy_signals=[])


def pair_id(doc_id: str, image_url: str) -> str:
    """Stable: the page id plus a 12-hex-digit BLAKE2b of the image URL."""
    digest = hashlib.blake2b(image_url.encode("utf-8", "surrogatepass"), digest_size=6).hexdigest()
    return f"{doc_id}/img/{digest}"


def _clip_end(text: str, limit: int) -> str:
    """The last ``limit`` characters of ``text``, starting at a word boundary."""
    if len(text) <= limit:
        return text
    cut = text[-limit:]
    space = cut.find(" ")
    return cut[space + 1:] if 0 <= space < limit // 2 else cut


def _clip_start(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ")
    return cut[:space] if space > limit // 2 else cut


def context_around(blocks: list[str], after_block: int) -> str | None:
    """The end of the text block before the image and the start of the one after it."""
    before = blocks[after_block] if 0 <= after_block < len(blocks) else ""
    following = blocks[after_block + 1] if after_block + 1 < len(blocks) else ""
    parts = [_clip_end(" ".join(before.split()), CONTEXT_CHARS),
             _clip_start(" ".join(following.split()), CONTEXT_CHARS)]
    text = " … ".join(p for p in parts if p)
    return text or None


def build_records(raw: RawExtraction, ident: dict[str, Any]) -> Extraction:
    """Records with identity from the worker's plain result (images deduplicated, skips counted)."""
    skipped: Counter[str] = Counter()
    pairs: list[ImageTextPair] = []
    segments = [Segment(kind="text", text=block) for block in raw.blocks]
    placed: list[list[Segment]] = [[] for _ in range(len(raw.blocks) + 1)]  # images after block i-1
    seen: set[str] = set()
    for image in raw.images:
        skip = image.skip
        if skip not in ("noimageai", "data_uri", "no_src") and image.url in seen:
            skip = "duplicate"
        if skip in _INTERLEAVED_SKIPS and image.url is not None:
            seen.add(image.url)
            placed[image.after_block + 1].append(Segment(kind="image", image_url=image.url, alt=image.alt))
        if skip is not None:
            skipped[skip] += 1
            continue
        assert image.url is not None
        text, text_source = pair_text(image.alt, image.caption)
        pairs.append(ImageTextPair(
            **{**ident, "id": pair_id(ident["id"], image.url), "policy_signals": list(ident["policy_signals"])},
            doc_id=ident["id"],
            image_url=image.url,
            alt=image.alt,
            caption=image.caption,
            text=text,
            text_source=text_source,
            context=context_around(raw.blocks, image.after_block),
            width=image.width,
            height=image.height,
        ))
    ordered: list[Segment] = list(placed[0])
    for i, segment in enumerate(segments):
        ordered.append(segment)
        ordered.extend(placed[i + 1])
    flags = [*raw.flags, *(f"image_skipped.{reason}" for reason in sorted(skipped) for _ in range(skipped[reason]))]
    document = Document(
        **ident,
        text=raw.text,
        title=raw.title,
        author=raw.author,
        date=raw.date,
        sitename=raw.sitename,
        html_lang=raw.html_lang,
        canonical_url=raw.canonical_url,
        page_type=raw.page_type,
        extracted_by=raw.extracted_by,
        link_density=raw.link_density,
        extract_flags=flags,
    )
    interleaved = InterleavedDoc(**{**ident, "policy_signals": list(ident["policy_signals"])},
                                 title=raw.title, segments=ordered, page_type=raw.page_type,
                                 link_density=raw.link_density)
    return Extraction(document, pairs, interleaved, dict(skipped), len(raw.images))


def _prepare(html: str | bytes | None, url: str | None, page: Page | None, options: PageOptions,
             images_allowed: bool | None = None, content_type: str | None = None
             ) -> tuple[dict[str, Any], tuple[Any, ...]]:
    """(identity, worker arguments) for one page, or ``Drop`` raised for what needs no parse."""
    ident = _identity(page, url)
    if html is None or not html.strip():
        raise Drop("no_html")
    if isinstance(html, bytes) and len(html) > options.max_html_bytes:
        raise Drop("too_large", f"{len(html)} bytes")
    # bytes are decoded (and the decoded size checked) where the extraction runs: extract_html
    if images_allowed is None:
        images_allowed = page is None or page.images_allowed is not False
    extract_options = ExtractOptions(selector=options.selector, threshold=options.threshold,
                                     favor_precision=options.favor_precision, fast=options.fast, quick=options.quick,
                                     include_tables=options.include_tables, images_allowed=images_allowed)
    if content_type is None and page is not None:
        content_type = page.content_type
    return ident, (html, url if url is not None else ident["url"], extract_options, content_type,
                   options.max_html_bytes)


def _finish(raw: RawExtraction, ident: dict[str, Any], min_chars: int) -> Extraction:
    if len(raw.text) < min_chars:
        raise Drop("too_short", str(len(raw.text)))
    return build_records(raw, ident)


def extract_page(
    html: str | bytes | None,
    url: str | None,
    *,
    page: Page | None = None,
    options: PageOptions | None = None,
    images_allowed: bool | None = None,
    content_type: str | None = None,
    **given: Any,
) -> Extraction:
    """Extract one page; raises ``pipelines.step.Drop`` when it yields nothing (module docstring).

    ``options`` (extract/options.py), or its fields as keywords (``selector="trafilatura"``), which replace those of
    ``options``. ``images_allowed`` defaults to the page's (False on noimageai), else True. ``content_type`` (the
    HTTP header, for decoding bytes) defaults to the page's.
    """
    options = PageOptions.of(options, **given)
    ident, args = _prepare(html, url, page, options, images_allowed, content_type)
    [answer] = run_extractions([args], options.time_limit_s)
    if isinstance(answer, Exception):
        raise failure_drop(answer, options.time_limit_s)
    return _finish(answer, ident, options.min_chars)


def extract_pages(
    pages: Iterable[Page | tuple[str | bytes | None, str]],
    *,
    options: PageOptions | None = None,
    workers: int = 1,
    **given: Any,
) -> list[Extraction | Drop]:
    """``extract_page`` for many pages (``Page`` records or ``(html, url)`` pairs): one result each, in order.

    A page that yields nothing gives its ``Drop`` in its place instead of raising, and so does a page
    that hits a bug (``Drop("error", ...)``, logged), as the pipeline's steps count them. Through the deadline
    worker the pages go in one ``DeadlineWorker.map``: the child takes up the next page as soon as it
    has answered one (about 0.5 ms a page faster than one ``extract_page`` call per page), each page
    still under its own ``time_limit_s``; ``workers`` children share the pages. This is what ``ExtractPage``
    runs on each batch.
    """
    options = PageOptions.of(options, **given)
    results: list[Extraction | Drop | None] = []
    idents: list[dict[str, Any]] = []
    calls: list[tuple[Any, ...]] = []
    where: list[int] = []
    for item in pages:
        page, html, url = (item, item.html, item.url) if isinstance(item, Page) else (None, *item)
        try:
            ident, args = _prepare(html, url, page, options)
        except Drop as drop:
            results.append(drop.as_result())  # not its frames: Drop.as_result
            continue
        where.append(len(results))
        results.append(None)
        idents.append(ident)
        calls.append(args)
    answers = run_extractions(calls, options.time_limit_s, workers)
    for i, ident, answer in zip(where, idents, answers, strict=True):
        try:
            if isinstance(answer, Exception):
                raise failure_drop(answer, options.time_limit_s)
            results[i] = _finish(answer, ident, options.min_chars)
        except Drop as drop:
            results[i] = drop.as_result()
        except Exception as exc:  # a bug on one page must not lose the others: counted as the step's error
            log.warning("extraction failed on %s: %s: %s", ident["url"], type(exc).__name__, exc)
            results[i] = Drop("error", f"{type(exc).__name__}: {exc}"[:500])
    return results  # type: ignore[return-value]  # every None was filled above
