"""The extraction itself, on one parsed tree: text and metadata, text blocks, content images.

Runs inside the deadline worker (extract/deadline.py), so it takes and returns plain picklable data:
HTML in, ``RawExtraction`` out; records with identity are built by the caller (extract/page.py).

One parse per page: the HTML is parsed once, as trafilatura's own loader parses it (the same lxml
parser settings, so the tree is exactly what ``trafilatura.extract`` would see; extract/parse.py, which
only lets lxml pick element classes in C). Metadata is read from
that tree first (extract/metadata.py: one walk, no copies); then elements that trafilatura's own
cleaning deletes are stripped in place (``PRESTRIPPED``: ``<head>``, scripts, styles, SVG, embeds,
form controls, ``<nav>``/``<footer>``/``<aside>``) and the smaller tree is handed to
``trafilatura.bare_extraction``, which copies it before changing anything, so the tree stays intact
for placing the images. trafilatura's XPath passes over the raw tree cost in proportion to its
elements, so this made its extraction 16-18% faster on ../shared/data/extraction_bench (precision
and fast mode alike), with the same text on all 60 pages in all three settings (balanced, the
balanced too). Those elements can still matter to trafilatura in two places, its readability
comparison and (balanced mode only) its baseline rescue of pages with almost no text,
both fed the raw tree: a page whose only text sits in a ``<footer>`` or ``<aside>`` loses that rescue;
such text is boilerplate nearly always.
``<noscript>`` stays (lazy-loading pages put their real ``<img>`` there, extract/locate.py), and so
does ``<form>`` (ASP.NET pages wrap the whole page in one; trafilatura handles forms itself).

Text: ``favor_precision=True`` by default (issue 5 asks for it; the best F1 on the article benchmark,
../shared/STACK-NOTES.md). Precision mode costs trafilatura itself speed: before its readability comparison it
prunes a copy of the raw tree with its whole discard XPath list, whose EXSLT regex tests call Python's ``re``
for each candidate element (about 3 ms a page; ``trafilatura.extract(html, favor_precision=True)`` runs at about
0.84x plain ``trafilatura.extract`` on the benchmark). The pre-stripping above, the parse of extract/parse.py
and the worker's queue (extract/deadline.py) make up for it: winnow's extraction with all three outputs runs at
about 0.95x plain (numbers in extract/page.py and bench/results/extract_bench.json). ``include_formatting=True``
so headings, lists and tables come out as Markdown (tables as GFM pipe tables with ``|`` in cells
escaped; trafilatura leaves a space after each row's last pipe, trimmed here).

The text is assembled from trafilatura's top-level blocks, each rendered by trafilatura's own Markdown
renderer (``xmltotxt``) and joined by one blank line; trafilatura's rendering of the whole body is skipped
(``output_format="txt"`` leaves it out of ``bare_extraction``). The blocks are needed anyway for the
interleaved document and for placing images, so this renders each block once instead of twice (about
0.6 ms a page). The words are those of trafilatura's own text (same ``\\w+`` tokens on all 60 benchmark
pages and the fixtures, in both modes: tests/extract/test_text_is_trafilaturas.py), except that underscores
inside words lose trafilatura's escape (``_unescape_intraword``); the whitespace between blocks is always one
blank line, where trafilatura's whole-body rendering gives none, one or two depending on the markup.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field

import trafilatura
from lxml import etree
from trafilatura.xml import xmltotxt

from extract.images import caption_of, clean_alt, image_source, skip_reason
from extract.locate import content_images, layout
from extract.metadata import page_metadata
from extract.parse import parse_html

for _logger in ("trafilatura", "htmldate", "courlan", "justext", "readability"):
    logging.getLogger(_logger).setLevel(logging.ERROR)

_TRAILING_SPACE = re.compile(r"[ \t]+$", re.MULTILINE)
# a run of escaped underscores between two letters or digits ("olga\_n\_photo"): see _unescape_intraword
_INTRAWORD_UNDERSCORES = re.compile(r"(?<=[^\W_])((?:\\_)+)(?=[^\W_])")
# all in trafilatura's settings.MANUALLY_CLEANED (deleted by its tree_cleaning), none read by extract/locate.py
# for text or images; <form> stays (whole ASP.NET pages sit in one), <noscript> too (lazy images)
PRESTRIPPED = ("head", "script", "style", "svg", "template", "iframe", "object", "embed", "canvas", "video", "audio",
               "map", "button", "input", "select", "option", "textarea", "link", "meta", "nav", "footer", "aside")


class ExtractFailure(Exception):
    """A page that yields no record: ``reason`` is the drop reason (``no_text``, ``parse_error``)."""

    passthrough = True  # re-raised as itself in the parent (extract/deadline.py)

    def __init__(self, reason: str, detail: str | None = None) -> None:
        super().__init__(reason, detail)
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True)
class ExtractOptions:
    favor_precision: bool = True  # precision mode: best F1; about 0.95x plain trafilatura's speed here
    fast: bool = False  # trafilatura's fast mode: no readability/jusText comparison (F1 below plain's)
    include_tables: bool = True
    images_allowed: bool = True  # False (noimageai): content images are counted, never emitted


@dataclass
class RawImage:
    """A content image in reading order; ``skip`` is the reason it gives no pair (None: it gives one)."""

    url: str | None
    alt: str | None
    caption: str | None
    width: int | None
    height: int | None
    skip: str | None
    after_block: int  # index of the text block it follows; -1: before the first block


@dataclass
class RawExtraction:
    text: str
    title: str | None = None
    author: str | None = None
    date: str | None = None
    sitename: str | None = None
    html_lang: str | None = None
    canonical_url: str | None = None
    blocks: list[str] = field(default_factory=list)  # Markdown of each top-level block, in order
    images: list[RawImage] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)  # extraction events (Document.extract_flags)


def _html_lang(tree: etree._Element) -> str | None:
    root = tree.getroottree().getroot()
    lang = root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang") or root.get("xml:lang")
    lang = (lang or "").strip()
    return lang or None


def _trim_line_ends(text: str) -> str:
    """``_TRAILING_SPACE.sub("", text)``, without running the regex when no line ends in a space or tab.

    The regex tries a match at every space of the text (about 0.1 ms a page over the text and its blocks),
    and only tables usually have something to trim.
    """
    if " \n" in text or "\t\n" in text or text.endswith((" ", "\t")):
        return _TRAILING_SPACE.sub("", text)
    return text


def _unescape_intraword(text: str) -> str:
    """Drop trafilatura's backslash before underscores inside a word: ``snake\\_case`` -> ``snake_case``.

    trafilatura's Markdown escapes every literal ``_`` so that it cannot start emphasis. Between two
    alphanumeric characters it cannot anyway (CommonMark 0.31, "Emphasis and strong emphasis", rules 2, 4, 6, 8: an
    ``_`` run that is both left- and right-flanking opens or closes only next to punctuation), so there the
    escape only breaks the word: user names, file names and identifiers (``dinara_snizhevskaya``,
    ``TP_615``) came out as ``dinara\\_snizhevskaya`` and lost 0.003 F1 on the benchmark's 4-token shingles.
    A backslash that is itself escaped (``a\\\\\\_b``) is not next to a letter and stays.
    """
    if "\\_" not in text:
        return text
    return _INTRAWORD_UNDERSCORES.sub(lambda m: "_" * (len(m.group(1)) // 2), text)


def _render_blocks(body: etree._Element) -> tuple[list[str], list[str]]:
    """(plain text for locating, Markdown for output) of each top-level block; empties removed."""
    plain, markdown = [], []
    if body.text and body.text.strip():  # loose text before the first block (none on the benchmark pages)
        lead = etree.Element("p")  # becomes a paragraph, rendered like the others
        lead.text, body.text = body.text, None
        body.insert(0, lead)
    for child in list(body):
        text = etree.tostring(child, method="text", encoding="unicode", with_tail=False)  # its itertext(), joined
        wrapper = etree.Element("body")
        wrapper.append(child)  # moves it: the body is not used afterwards
        rendered = _unescape_intraword(_trim_line_ends(xmltotxt(wrapper, True))).strip()
        if rendered:
            plain.append(text)
            markdown.append(rendered)
    return plain, markdown


def extract_raw(html: str, url: str | None, options: ExtractOptions) -> RawExtraction:
    """Extract text, metadata, blocks and content images from ``html`` (see the module docstring)."""
    try:
        tree, truncated = parse_html(html)
    except (etree.ParserError, ValueError) as exc:
        raise ExtractFailure("parse_error", f"{type(exc).__name__}: {exc}"[:200]) from None
    if tree is None:
        raise ExtractFailure("parse_error", "not parseable as HTML")
    meta = page_metadata(tree, url)
    etree.strip_elements(tree, *PRESTRIPPED, with_tail=False)  # tails are text of the parent
    result = trafilatura.bare_extraction(
        tree,
        url=url,
        favor_precision=options.favor_precision,
        fast=options.fast,
        include_tables=options.include_tables,
        include_comments=False,
        include_formatting=True,
        with_metadata=False,  # read by page_metadata above, without trafilatura's copies
        output_format="txt",  # the body only: the text is assembled from its rendered blocks below
    )
    plain, blocks = _render_blocks(result.body) if result is not None else ([], [])
    if not blocks:
        if truncated:
            raise ExtractFailure("parse_error", "nested deeper than 256 levels: libxml2 stopped parsing there")
        raise ExtractFailure("no_text")
    raw = RawExtraction(
        text="\n\n".join(blocks),
        blocks=blocks,
        title=meta.title,
        author=meta.author,
        date=meta.date,
        sitename=meta.sitename,
        html_lang=_html_lang(tree),
        canonical_url=meta.canonical_url,
        flags=["parse_truncated.depth"] if truncated else [],
    )
    body = tree.find("body")
    root = body if body is not None else tree
    if root.find(".//img") is None:
        return raw  # no image anywhere (noscript included): nothing to place
    lay = layout(root, plain)
    starts = lay.starts
    for offset, img in content_images(lay):
        after = -1
        for i, start in enumerate(starts):
            if start is not None and start < offset:  # an image right at a block's start goes before it
                after = i
        source = image_source(img, url)
        alt = clean_alt(img)
        skip = skip_reason(img, source, alt, raw.sitename) if options.images_allowed else "noimageai"
        raw.images.append(RawImage(source.url, alt, caption_of(img), source.width, source.height, skip, after))
    return raw
