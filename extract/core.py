"""The extraction itself, on one parsed tree: text and metadata, text blocks, content images, page type.

Runs inside the deadline worker (pipelines/deadline.py), so it takes and returns plain picklable data:
HTML in, ``RawExtraction`` out; records with identity are built by the caller (extract/page.py).

One parse per page (extract/parse.py: trafilatura's parser settings, element classes picked in C). Then:

1. metadata (extract/metadata.py) and the page type (extract/page_type.py) are read from the whole tree;
2. elements no reader sees or that are page furniture by their tag (``PRESTRIPPED``: ``<head>``, scripts
   (MathJax's ``math/tex`` sources excepted), styles, SVG, embeds, form fields) are stripped in place, and so
   are ``<nav>``/``<footer>``/``<aside>`` unless one holds most of the page's text;
3. the tree is cut into blocks, each rendered to Markdown (extract/segment.py: code verbatim and fenced,
   math as ``$...$``, data tables as GFM tables, heading permalinks left out);
4. the quick block classifier (extract/select.py, features from extract/features.py without trafilatura's verdict)
   scores the blocks; where it is unsure of the page (select.py's routing rule), trafilatura's main-content
   extraction runs on the tree (``bare_extraction`` copies it first), its text becomes a feature (which blocks
   trafilatura kept), and the full classifier decides;
5. the chosen classifier keeps the main-content blocks, or, with ``selector="trafilatura"``, the blocks trafilatura
   kept are kept;
6. the text is the kept blocks in page order (a list's consecutive items in one unit); images between or in
   kept blocks are the page's content images (extract/images.py decides which give a pair).

Why winnow chooses the blocks itself rather than taking trafilatura's text (issue 12): trafilatura is tuned for
articles, and on WCXB's seven page types (Foley 2026) it keeps too little of forums, listings, product and
service pages, while its Markdown renderer damages code, math and tables. trafilatura's verdict stays the
strongest single feature, so articles come out as trafilatura would choose them. It is also the largest single cost
of a page (40% of extraction's time on WCXB, profiled), so it runs only on the pages the quick model is unsure of
(issue 28; the share and what it costs in F1 are in docs/benchmarks.md). Figures (grouped
cross-validation on WCXB dev, the article benchmark, speed) are in the README's Extraction section.
"""

from __future__ import annotations

import itertools
import logging
import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import trafilatura
from lxml import etree

from extract.cleanup import clean_title
from extract.features import CJK, block_features, covered_flags, kept_flags
from extract.images import caption_of, clean_alt, image_source, is_furniture, skip_reason
from extract.metadata import PageMeta, page_metadata
from extract.page_type import PAGE_TYPES, page_features, predict_proba
from extract.page_type import shipped_model as page_type_model
from extract.parse import parse_html
from extract.segment import OPTION_MARK, Block, Segmentation, link_chars, segment
from extract.select import BlockModel, block_words, shipped_model, unsure_share

for _logger in ("trafilatura", "htmldate", "courlan", "justext", "readability"):
    logging.getLogger(_logger).setLevel(logging.ERROR)

# all in trafilatura's settings.MANUALLY_CLEANED (deleted by its tree_cleaning); <form> stays (whole ASP.NET
# pages sit in one), <noscript> too (Discourse serves whole threads there), and <button>: an unclosed <button>
# swallows the rest of the page in libxml2's tree (two WCXB articles lost all their text to it)
PRESTRIPPED = ("head", "script", "style", "svg", "template", "iframe", "object", "embed", "canvas", "video", "audio",
               "map", "input", "select", "option", "textarea", "link", "meta")
OPTION_LABEL_CHARS = 200  # option_labels: longer is no control's name
OPTION_NAME_REPEATS = 3  # with_rules: so many options of a page under one name name none of them
# page furniture by its tag: stripped unless it holds most of the page (a mis-nested or misused tag, not furniture)
FURNITURE = ("nav", "footer", "aside")
# ... or unless it is links all through, whatever it holds: on an API stub of SciPy's reference the sidebar's <nav>
# (every entry a link) held most of the page, was kept, and the block model chose it over the two short lines of the
# page's own text (11 of the eval split's 200 pages; bench/filters_quality.py)
FURNITURE_LINKS = 0.8
SELECTORS = ("model", "trafilatura")
# the model kept nothing: trafilatura's choice is used when it holds at least this much text. Measured on WCXB dev
# (grouped CV): 2 of 1,495 pages take it, both single-page apps whose ground truth WCXB left empty (-0.0006 F1
# there); below 500 characters the pages were mostly "enable JavaScript" shells and it cost more
FALLBACK_MIN_CHARS = 500
# ... at any length on a page the page-type model calls documentation: an API stub (a property, a one-line method) is
# short by nature, and no JavaScript shell of WCXB dev is typed so (all 1,495 dev pages extract as before). Of the
# quality corpus's documentation pages (bench/quality_corpus.py, every split) the model kept nothing of 58 stubs
# that trafilatura finds 45-345 characters in (astropy 24, SciPy 10, GIMP's manual in German 8, Russian 7, Japanese
# 3, Dask 2, scikit-image 2, scikit-learn 1, Django 1), all typed documentation; what stays empty there is 29 pages
# that only redirect (<meta http-equiv="refresh">). No junk page of the corpus changed fate (bench/filters_quality.py)
FALLBACK_MIN_CHARS_DOCS = 1
# the share of a page's characters in CJK scripts from which it counts as outside the training data (untrained_script)
UNTRAINED_SCRIPT_SHARE = 0.3
DATED_TYPES = frozenset({"article", "forum", "documentation"})  # page types that carry a publication date
_MATH_SCRIPT = "winnow-math-script"  # MathJax v2 sources wear this tag while the other scripts are stripped
_WORDS = re.compile(r"\w+")


class ExtractFailure(Exception):
    """A page that yields no record: ``reason`` is the drop reason (``no_text``, ``parse_error``)."""

    passthrough = True  # re-raised as itself in the parent (pipelines/deadline.py)

    def __init__(self, reason: str, detail: str | None = None) -> None:
        super().__init__(reason, detail)
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True)
class ExtractOptions:
    selector: str = "model"  # "model": the block classifier; "trafilatura": the blocks trafilatura kept
    threshold: float | None = None  # model only: P(main content) to keep a block (None: the model's own)
    favor_precision: bool = False  # trafilatura's precision mode (selector "trafilatura" only)
    fast: bool = False  # trafilatura's fast mode (selector "trafilatura" only)
    quick: bool = True  # model only: the quick model decides the pages it is sure of (False: every page goes full)
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
    page_type: str | None = None
    extracted_by: str = "winnow"  # "winnow": the block model chose the text; "trafilatura": trafilatura did
    link_density: float | None = None  # share of the kept blocks' characters inside links (Document.link_density)
    blocks: list[str] = field(default_factory=list)  # Markdown of each unit (a list's items together), in order
    images: list[RawImage] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)  # extraction events (Document.extract_flags)


@dataclass
class PageAnalysis:
    """Everything the block decision needs (scripts/train_extract_model.py builds its training rows with it)."""

    tree: etree._Element
    truncated: bool
    meta: PageMeta
    page_type_features: np.ndarray
    page_type_probs: np.ndarray | None
    kept_text: str | None  # trafilatura's text ('' where it found none); None where it did not run (quick model)
    segmentation: Segmentation
    features: np.ndarray | None  # None with selector "trafilatura"
    block_probs: np.ndarray | None = None  # the deciding model's P(main content) per block (selector "model")
    block_model: BlockModel | None = None  # the deciding model: the quick one, or the full one (routed)


def _html_lang(tree: etree._Element) -> str | None:
    root = tree.getroottree().getroot()
    lang = root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang") or root.get("xml:lang")
    lang = (lang or "").strip()
    return lang or None


def strip_furniture(tree: etree._Element, html: str) -> None:
    """Strip ``PRESTRIPPED`` in place (tails stay: they are text of the parent), MathJax sources excepted."""
    math_scripts = []
    if "math/" in html:  # <script type="math/tex"> (MathJax v2) holds the formula's LaTeX: keep those
        for script in tree.iter("script"):
            if (script.get("type") or "").lower().startswith("math/"):
                script.tag = _MATH_SCRIPT
                math_scripts.append(script)
    for label in option_labels(tree):  # before their controls go; segment() flags their blocks (with_rules)
        label.set(OPTION_MARK, "")
    etree.strip_elements(tree, *PRESTRIPPED, with_tail=False)
    for script in math_scripts:
        script.tag = "script"
    furniture = [el for el in tree.iter(*FURNITURE)]
    if furniture:
        body = tree.find("body")
        total = len((body if body is not None else tree).text_content())
        for el in furniture:
            if el.getparent() is None:
                continue
            chars = len(el.text_content())
            if chars * 2 < total or (chars and link_chars(el) >= FURNITURE_LINKS * chars):
                _drop(el)


def option_labels(tree: etree._Element) -> list[etree._Element]:
    """The ``<label>`` elements that name an enabled checkbox or radio button (by ``for`` or by holding it): a shop's
    colour and size swatches, a listing's filter facets, "remember me". A disabled checkbox is left out: Markdown task
    lists (``- [x] done``) render so, and their items are text; so is a label holding more than
    ``OPTION_LABEL_CHARS``: an unclosed one holds the rest of the page in libxml2's tree. ``with_rules`` says why."""
    ids: set[str] = set()
    found: list[etree._Element] = []
    for control in tree.iter("input"):
        if (control.get("type") or "").lower() not in ("checkbox", "radio") or control.get("disabled") is not None:
            continue
        if control.get("id"):
            ids.add(control.get("id"))
        found.extend(itertools.islice(control.iterancestors("label"), 1))
    if ids:
        found.extend(label for label in tree.iter("label") if label.get("for") in ids)
    return [label for label in found if len(label.text_content()) <= OPTION_LABEL_CHARS]


def _drop(el: etree._Element) -> None:
    """Remove ``el`` and its subtree, keeping its tail (text of the parent)."""
    parent = el.getparent()
    if el.tail:
        previous = el.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)


def trafilatura_text(tree: etree._Element, url: str | None, favor_precision: bool, fast: bool,
                     include_tables: bool) -> str:
    """The text of trafilatura's main-content extraction of ``tree`` (which it copies, not changes); '' if none."""
    result = trafilatura.bare_extraction(
        tree, url=url, favor_precision=favor_precision, fast=fast, include_tables=include_tables,
        include_comments=True, include_formatting=False, with_metadata=False, output_format="txt")
    if result is None or result.body is None:
        return ""
    return " ".join(result.body.itertext())


def full_model_text(tree: etree._Element, url: str | None, options: ExtractOptions) -> str:
    """trafilatura's text with the settings the full block model was trained on (its ``kept`` features)."""
    settings = shipped_model().trafilatura
    return trafilatura_text(tree, url, settings.get("favor_precision", False), settings.get("fast", False),
                            options.include_tables)


def analyse(html: str, url: str | None, options: ExtractOptions, type_probs: bool = True) -> PageAnalysis:
    """Parse, read metadata and page type, strip, run trafilatura, segment and compute the block features.

    ``type_probs=False`` (training, which computes out-of-fold probabilities itself) leaves the page-type
    probabilities out (None; their feature columns are zero).
    """
    try:
        tree, truncated = parse_html(html)
    except (etree.ParserError, ValueError) as exc:
        raise ExtractFailure("parse_error", f"{type(exc).__name__}: {exc}"[:200]) from None
    if tree is None:
        raise ExtractFailure("parse_error", "not parseable as HTML")
    type_features = page_features(tree, url)
    probs = predict_proba(page_type_model(), type_features)[0] if type_probs else None
    # a date is looked for (htmldate) only where one is expected: not on shops, listings and service pages
    dated = probs is None or PAGE_TYPES[int(np.argmax(probs))] in DATED_TYPES
    meta = page_metadata(tree, url, date_search=dated)
    strip_furniture(tree, html)
    body = tree.find("body")
    seg = segment(body if body is not None else tree)
    if options.selector != "model":
        kept = trafilatura_text(tree, url, options.favor_precision, options.fast, options.include_tables)
        return PageAnalysis(tree, truncated, meta, type_features, probs, kept, seg, None)
    model = shipped_model()
    page_type = PAGE_TYPES[int(np.argmax(probs))] if probs is not None else None
    if model.quick is not None and options.quick:
        features = block_features(seg.blocks, "", meta.title, probs)
        block_probs = model.quick.probabilities(features, seg.blocks)
        if not unsure(model, block_probs, seg.blocks, page_type):
            return PageAnalysis(tree, truncated, meta, type_features, probs, None, seg, features, block_probs,
                                model.quick)
    kept = full_model_text(tree, url, options)
    features = block_features(seg.blocks, kept, meta.title, probs)
    return PageAnalysis(tree, truncated, meta, type_features, probs, kept, seg, features,
                        model.probabilities(features, seg.blocks), model)


def unsure(model: BlockModel, quick_probs: np.ndarray, blocks: list[Block], page_type: str | None) -> bool:
    """Whether the page goes past the quick model to the full one (extract/select.py's routing rule): it keeps
    nothing, the script is one the models never saw, or too much of the page lies near the threshold."""
    quick = model.quick
    assert quick is not None
    threshold = quick.threshold_for(page_type)
    if not any(with_rules(blocks, quick_probs >= threshold)) or untrained_script(blocks):
        return True
    share = unsure_share(quick_probs, block_words(blocks), threshold, model.route.get("band", 0.0))
    return share > model.route.get("limit", 0.0)


def kept_by_trafilatura(blocks: list[Block], kept_text: str, mostly: bool = False) -> list[bool]:
    """The blocks trafilatura's own extraction kept: found whole in its text (extract/features.py ``kept_flags``),
    or with ``mostly`` also the blocks it holds most of (``covered_flags``: pages in an untrained script)."""
    return covered_flags(blocks, kept_text) if mostly else kept_flags(blocks, kept_text)


def choose(analysis: PageAnalysis, options: ExtractOptions) -> list[bool]:
    """The kept blocks: the classifier's probabilities over the threshold, or trafilatura's own choice."""
    blocks = analysis.segmentation.blocks
    if options.selector == "trafilatura":
        kept = kept_by_trafilatura(blocks, analysis.kept_text)
        return kept if options.include_tables else [k and b.kind != "table" for k, b in zip(kept, blocks, strict=True)]
    model = analysis.block_model
    assert model is not None and analysis.block_probs is not None
    page_type = PAGE_TYPES[int(np.argmax(analysis.page_type_probs))] if analysis.page_type_probs is not None else None
    threshold = model.threshold_for(page_type) if options.threshold is None else options.threshold
    chosen = with_rules(blocks, analysis.block_probs >= threshold)
    if not options.include_tables:
        chosen = [keep and block.kind != "table" for keep, block in zip(chosen, blocks, strict=True)]
    return chosen


def with_fallback(blocks: list[Block], chosen: list[bool], kept_text: str,
                  page_type: str | None = None) -> tuple[list[bool], bool]:
    """``(choice, fell back)``: where the model keeps nothing but trafilatura found a page's worth of text
    (``FALLBACK_MIN_CHARS``; any text on a page of ``page_type`` documentation, ``FALLBACK_MIN_CHARS_DOCS``),
    trafilatura's choice stands: a page unlike anything in the training data (a script or a layout WCXB lacks, a
    documentation stub shorter than any page WCXB has) should not vanish."""
    if any(chosen) or not kept_text:
        return chosen, False
    kept = kept_by_trafilatura(blocks, kept_text)
    floor = FALLBACK_MIN_CHARS_DOCS if page_type == "documentation" else FALLBACK_MIN_CHARS
    if sum(len(b.plain) for b, k in zip(blocks, kept, strict=True) if k) >= max(floor, 1):
        return kept, True
    return chosen, False


def untrained_script(blocks: list[Block]) -> bool:
    """Whether the page is written mostly in a script the block model never saw: Chinese, Japanese or Korean
    (``UNTRAINED_SCRIPT_SHARE`` of its characters). WCXB dev has no such page (no ground truth with even a fifth
    of its characters CJK), so the model's verdicts there are extrapolation (it kept nothing of a plain Japanese
    news article); trafilatura's choice, tuned on many languages, stands instead."""
    text = "".join(b.plain for b in blocks)
    return bool(text) and len(CJK.findall(text)) >= UNTRAINED_SCRIPT_SHARE * len(text)


def with_rules(blocks: list[Block], chosen: np.ndarray) -> list[bool]:
    """The model's choice, with what its training data cannot teach it: a display formula (``$$...$$``) goes with
    the text around it. WCXB has almost no math (issue 12's pages with MathJax/KaTeX/MathML are the project's own
    fixtures), so the classifier has no evidence about formula blocks; the paragraph that introduces a formula
    and the one that explains it are its evidence."""
    out = [bool(c) for c in chosen]
    names = Counter(block.text for block in blocks if block.option)
    for i, block in enumerate(blocks):
        if block.kind == "math" and not out[i]:
            out[i] = (i > 0 and bool(chosen[i - 1])) or (i + 1 < len(blocks) and bool(chosen[i + 1]))
        elif block.option and names[block.text] >= OPTION_NAME_REPEATS:
            # many checkboxes or radio buttons (option_labels) under one name: a name that tells no option from
            # another, a widget's caption. Yeti's product pages name each of 16 colour swatches "Swatch"; the model
            # kept them on two of the quality corpus's product pages, whose text then read as one word repeated
            # (the quality model scored them 0.23 and 0.29 against its bar of 0.36; 0.49 and 0.44 without them).
            # Option labels as such stay: WCXB's ground truth keeps a collection's filter facets and a product's
            # fabric names, and dropping every one cost WCXB dev F1 (0.9111 -> 0.9100 stripped before the model,
            # -> 0.9110 after it)
            out[i] = False
    return out


def _missing(description: str | None, texts: list[str]) -> bool:
    """Whether ``description`` has words and its first eight are not in ``texts`` (in order, on word boundaries)."""
    words = _WORDS.findall(description.lower()) if description else []
    if len(words) < 8:
        return False
    have = " " + " ".join(_WORDS.findall(" ".join(texts).lower())) + " "
    return (" " + " ".join(words[:8]) + " ") not in have


def units(blocks: list[Block], chosen: list[bool]) -> tuple[list[str], list[int]]:
    """The kept blocks as Markdown units (consecutive items of one list form one unit), and each block's unit
    index (-1 for blocks not kept)."""
    out: list[str] = []
    where = [-1] * len(blocks)
    previous: Block | None = None
    previous_index = -2
    for i, (block, keep) in enumerate(zip(blocks, chosen, strict=True)):
        if not keep:
            continue
        text = block.markdown()
        joined = (previous is not None and previous_index == i - 1 and block.list_depth and previous.list_depth
                  and block.quote == previous.quote)
        if joined:
            out[-1] += "\n" + text
        else:
            out.append(text)
        where[i] = len(out) - 1
        previous, previous_index = block, i
    return out, where


def extract_raw(html: str, url: str | None, options: ExtractOptions) -> RawExtraction:
    """Extract text, metadata, blocks and content images from ``html`` (see the module docstring)."""
    if options.selector not in SELECTORS:
        raise ValueError(f"selector must be one of {SELECTORS}, not {options.selector!r}")
    analysis = analyse(html, url, options)
    meta = analysis.meta
    blocks = analysis.segmentation.blocks
    chosen = choose(analysis, options)
    flags = ["parse_truncated.depth"] if analysis.truncated else []
    extracted_by = "winnow" if options.selector == "model" else "trafilatura"
    page_type = None
    if analysis.page_type_probs is not None:
        page_type = PAGE_TYPES[int(np.argmax(analysis.page_type_probs))]
    if options.selector == "model":
        if analysis.kept_text is not None and shipped_model().quick is not None:
            flags.append("model_full")  # the quick model was unsure: trafilatura ran and the full model decided
        if untrained_script(blocks):
            chosen, fell_back = kept_by_trafilatura(blocks, analysis.kept_text or "", mostly=True), "script"
        else:
            kept_text = analysis.kept_text
            if kept_text is None and not any(chosen):  # emptied by the caller's threshold or include_tables
                kept_text = full_model_text(analysis.tree, url, options)
            chosen, empty = with_fallback(blocks, chosen, kept_text or "", page_type)
            fell_back = "empty" if empty else ""
        if fell_back:
            flags.append(f"fallback_trafilatura.{fell_back}")
            extracted_by = "trafilatura"
    texts, where = units(blocks, chosen)
    kept_chars = sum(len(b.text) for b, keep in zip(blocks, chosen, strict=True) if keep)
    link_chars = sum(b.link_chars for b, keep in zip(blocks, chosen, strict=True) if keep)
    if texts and page_type == "product" and _missing(meta.product_description, texts):
        # the shop's own description of the product, written for search engines, where the visible page shows it
        # behind a tab or a script (WCXB dev: +0.003 F1 on product pages, grouped CV)
        texts.append(meta.product_description)  # type: ignore[arg-type]
        flags.append("jsonld_product_description")
    if not texts:
        if analysis.truncated:
            raise ExtractFailure("parse_error", "nested deeper than 256 levels: libxml2 stopped parsing there")
        raise ExtractFailure("no_text")
    raw = RawExtraction(
        text="\n\n".join(texts),
        blocks=texts,
        title=clean_title(meta.title) if meta.title else None,
        author=meta.author,
        date=meta.date,
        sitename=meta.sitename,
        html_lang=_html_lang(analysis.tree),
        canonical_url=meta.canonical_url,
        page_type=page_type,
        extracted_by=extracted_by,
        link_density=round(min(link_chars / kept_chars, 1.0), 4) if kept_chars else None,
        flags=flags,
    )
    raw.images = content_images(analysis.segmentation, chosen, where, url, raw.sitename, options.images_allowed)
    return raw


def content_images(seg: Segmentation, chosen: list[bool], where: list[int], url: str | None,
                   sitename: str | None, images_allowed: bool) -> list[RawImage]:
    """Every image next to or inside a kept block, in reading order, each with its skip reason or None.

    An image sits before block ``before`` (or inside it); it belongs to the content when that block or the one
    before it was kept. Such an image is always returned: as a pair candidate, or with the reason it gives none
    (``furniture`` for share bars and sidebars inside the content's blocks, then extract/images.py's reasons),
    so the pairs and the counted skips add up to the content images found.
    """
    out: list[RawImage] = []
    n = len(chosen)
    for image in seg.images:
        k = image.before
        after_kept = k < n and chosen[k]
        before_kept = k > 0 and chosen[k - 1]
        if not (after_kept or before_kept):
            continue
        # the unit it follows: the last kept block before it (-1: before the first unit)
        after = where[k - 1] if before_kept else (where[k] - 1 if after_kept else -1)
        img = image.element
        source = image_source(img, url)
        alt = clean_alt(img)
        caption = caption_of(img)
        if not images_allowed:
            skip: str | None = "noimageai"
        elif is_furniture(img):
            skip = "furniture"
        else:
            skip = skip_reason(img, source, alt, sitename, caption)
        out.append(RawImage(source.url, alt, caption, source.width, source.height, skip, after))
    return out
