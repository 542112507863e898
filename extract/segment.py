"""The page as a sequence of text blocks, each rendered to Markdown, with what a block classifier needs to know.

A block is what a reader sees as one unit: a paragraph, heading, list item, table cell of a layout table,
caption, code block, display formula or data table, or a run of loose text inside a container, in page
order. extract/select.py decides which blocks are the page's main content and extract/render.py joins
them; this module only cuts the page and renders each block's inline content, in one walk over the tree
(``lxml.etree.iterwalk``, iterative, so deep markup cannot hit Python's recursion limit).

Rendering inside a block (the constructs of issue 12, through the helpers that own them):

- code blocks (extract/code.py: Pygments/Sphinx, Jupyter, GitHub, Stack Exchange, MDN, highlight.js, Prism,
  SyntaxHighlighter...) are one block each, verbatim with their indentation, as a fenced block with the
  language the page declares; hyperlinked identifiers and line-number gutters are handled there. A ``<pre>``
  inside a list item stays a block of its own (never flattened into the item's line). Inline ``<code>``
  becomes a CommonMark code span.
- math (extract/math_markup.py: MathJax v2 scripts and v3 containers, KaTeX annotations, MathML, LaTeX
  ``alt`` of math images, Sphinx ``span.math``) becomes ``$...$`` inline, ``$$...$$`` as a block of its own;
  renderings whose source is elsewhere are skipped.
- data tables (extract/tables.py) are one block each, a GFM pipe table whose cells keep the text of lists and
  paragraphs; layout tables are walked like any container (their cells are blocks).
- heading permalinks (``¶``, ``#``, link icons: extract/cleanup.py) are left out.

Hidden elements (``hidden``, inline ``display:none``/``visibility:hidden``) are not text a reader sees and are
skipped. ``<noscript>`` is walked like any container (its blocks carry the ``noscript`` ancestor bit): Discourse
serves a whole thread there for readers without JavaScript, lazy-loading pages their real ``<img>``, and other
pages an "enable JavaScript" line, which the classifier learns to leave out.

Per block the walk also records what a classifier reads off the markup (extract/features.py turns it into
numbers): link characters, nesting depth, the tags and class/id keywords of its ancestors (near and all), a
tag-path signature that repeats across cards of a listing, and the containers it sits in. Images are recorded
with the position of the block they come before, so extract/core.py can tell content images from others once
the blocks are chosen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from extract.cleanup import clean_heading_text, is_permalink
from extract.code import CODE_TAGS, code_language, code_text, fence, inline_code, is_code_block, is_code_chrome
from extract.math_markup import RENDERING, math_at, math_markdown
from extract.tables import is_layout_table, table_markdown

# Elements that start and end a block; text between two of them is one block.
BLOCK_TAGS = frozenset((
    "html", "body", "main", "article", "section", "header", "footer", "aside", "nav", "div", "center", "form",
    "fieldset", "address", "blockquote", "figure", "figcaption", "details", "summary", "dialog", "p", "h1", "h2",
    "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tfoot", "tr", "td",
    "th", "caption", "pre", "hr", "menu", "legend", "hgroup", "search", "label", "output", "noscript",
))
HEADINGS = {f"h{i}": i for i in range(1, 7)}
_LIST_TAGS = frozenset({"ul", "ol", "menu"})
# set by extract/core.py on a <label> that names a checkbox or radio button (option_labels), whose controls are gone
# by the time the tree is segmented
OPTION_MARK = "data-winnow-option"
_SKIPPED = frozenset({"script", "style", "template", "svg", "head", "title", "meta", "link"})
# math_at answers for these tags whatever their class, and for these only with a math-looking class
_MATH_TAGS = frozenset({"img", "mjx-container", "math", "mjx-assistive-mml", "mjx-math"})
_MATH_CLASSED = frozenset({"span", "div", "p"})
_INLINE_CODE = frozenset({"code", "kbd", "samp", "tt"})
# Sphinx's class names for the parts of an API signature (its name, its module, parentheses, parameters)
_SIGNATURE_NAME = re.compile(r"(?:^|\s)desc(?:class)?name(?:\s|$)")
_SIGNATURE_PART = re.compile(r"(?:^|\s)(?:sig-[a-z]+|desc(?:class)?name)(?:\s|$)")
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
_SPACE = re.compile(r"\s+")  # runs of whitespace, source line breaks included (a <br> is _BR, not whitespace)
_BR = "\ue000"  # a <br> while the block is built: survives whitespace collapsing, becomes "\n" at the end

# Class/id/role keywords the classifier sees, one bit each (extract/features.py names them). Tokens are the
# lower-case letter runs of the attribute (``post-content`` -> ``post``, ``content``); plurals and synonyms
# fold to one keyword. The list is winnow's, from the class names of boilerplate and content containers
# (the usual suspects of Readability's and trafilatura's class lists) and of listings, forums and shops.
KEYWORDS = tuple((
    "content", "article", "post", "entry", "body", "text", "main", "story", "comment", "reply", "message", "thread",
    "forum", "topic", "product", "description", "detail", "spec", "review", "price", "card", "item", "grid", "list",
    "tile", "nav", "menu", "sidebar", "footer", "header", "breadcrumb", "share", "social", "related", "widget",
    "ad", "promo", "cookie", "newsletter", "login", "search", "filter", "facet", "sort", "pagination", "tag",
    "meta", "author", "date", "byline", "caption", "title", "summary", "hero", "banner", "modal", "popup", "cart",
    "buy", "shop", "category", "result", "answer", "question", "user", "profile", "signature", "doc", "toc",
    "markdown", "section", "container", "wrapper", "col", "row", "feature", "faq", "accordion", "tab", "hidden",
    "skip",
))
_KEYWORD_BIT = {k: 1 << i for i, k in enumerate(KEYWORDS)}
_KEYWORD_ALIASES = {
    "comments": "comment", "posts": "post", "entries": "entry", "replies": "reply", "messages": "message",
    "products": "product", "items": "item", "cards": "card", "tags": "tag", "ads": "ad", "advert": "ad",
    "advertisement": "ad", "navigation": "nav", "navbar": "nav", "breadcrumbs": "breadcrumb", "sharing": "share",
    "widgets": "widget", "reviews": "review", "prices": "price", "specs": "spec", "specifications": "spec",
    "specification": "spec", "answers": "answer", "questions": "question", "results": "result",
    "articles": "article", "categories": "category", "filters": "filter", "facets": "facet", "tabs": "tab",
    "columns": "col", "column": "col", "rows": "row", "features": "feature", "descr": "description",
    "desc": "description", "sidenav": "sidebar", "aside": "sidebar", "submenu": "menu", "dropdown": "menu",
    "megamenu": "menu", "prose": "content", "richtext": "content", "wysiwyg": "content", "rst": "doc",
    "docs": "doc", "documentation": "doc", "sr": "hidden", "visually": "hidden", "screenreader": "hidden",
}
_KEYWORD_MASKS = {**{k: b for k, b in _KEYWORD_BIT.items()},
                  **{a: _KEYWORD_BIT[k] for a, k in _KEYWORD_ALIASES.items()}}
_LETTERS = re.compile(r"[a-z]+")
_HIDDEN_BIT = _KEYWORD_BIT["hidden"]

# Ancestor tags the classifier sees, one bit each.
ANCESTOR_TAGS = ("article", "main", "header", "footer", "nav", "aside", "form", "table", "ul", "ol", "li",
                 "section", "figure", "blockquote", "a", "h", "dl", "details", "label", "button", "noscript")
_ANCESTOR_BIT = {t: 1 << i for i, t in enumerate(ANCESTOR_TAGS)}
for _h in HEADINGS:
    _ANCESTOR_BIT[_h] = _ANCESTOR_BIT["h"]

# Block kinds (the innermost block element's role), in the order extract/features.py one-hot encodes them.
KINDS = ("p", "li", "h1", "h2", "h3", "h4", "td", "dt", "dd", "pre", "math", "table", "blockquote", "div",
         "figcaption", "caption", "label", "summary", "other")
_KIND_OF_TAG = {
    "p": "p", "li": "li", "h1": "h1", "h2": "h2", "h3": "h3", "h4": "h4", "h5": "h4", "h6": "h4", "td": "td",
    "th": "td", "dt": "dt", "dd": "dd", "blockquote": "blockquote", "figcaption": "figcaption",
    "caption": "caption", "label": "label", "legend": "label", "summary": "summary", "div": "div",
    "section": "div", "article": "div", "main": "div", "body": "div", "html": "div", "center": "div",
    "form": "div", "fieldset": "div", "header": "div", "footer": "div", "aside": "div", "nav": "div",
    "figure": "div", "details": "div", "address": "p", "tr": "td", "dl": "div", "ul": "li", "ol": "li",
}


_MASKS: dict[str, int] = {}  # attribute value -> its keyword bits; class names repeat within and across pages


def _mask_of(value: str) -> int:
    mask = _MASKS.get(value)
    if mask is None:
        mask = 0
        for token in _LETTERS.findall(value.lower()):
            mask |= _KEYWORD_MASKS.get(token, 0)
        if len(_MASKS) > 100_000:  # ids can be unique per page: bound the memo
            _MASKS.clear()
        _MASKS[value] = mask
    return mask


def keyword_mask(el: etree._Element, cls: str | None = None) -> int:
    """The KEYWORDS bits of ``el``'s class (``cls`` when the caller read it already), id and role."""
    if cls is None:
        cls = el.get("class")
    ident, role = el.get("id"), el.get("role")
    mask = _mask_of(cls) if cls else 0
    if ident:
        mask |= _mask_of(ident)
    if role:
        mask |= _mask_of(role)
    return mask


@dataclass(slots=True)
class Block:
    """One block: ``text`` is its Markdown without the block's own prefix (see ``markdown``)."""

    text: str
    kind: str
    heading: int = 0  # 1-6 for headings
    list_depth: int = 0  # nesting of ul/ol around a list item (1: top level)
    indent: int = 0  # spaces before the marker: the widths of the enclosing items' markers
    number: int = 0  # the item's position in an ordered list (0: unordered)
    bullet: bool = False  # the first block of a list item (it carries the marker; later blocks are indented)
    quote: int = 0  # blockquote nesting
    link_chars: int = 0
    depth: int = 0
    kw_all: int = 0  # keyword bits of all ancestors
    kw_near: int = 0  # keyword bits of the block element, its parent and inline elements inside it
    tags: int = 0  # ANCESTOR_TAGS bits
    signature: int = 0  # hash of the tag path with the first class of each element: repeats across a list's cards
    containers: tuple[int, ...] = ()  # ids of the enclosing block elements, nearest first (up to 6)
    plain: str = ""  # the text as words (code and tables without Markdown syntax), for features and matching
    option: bool = False  # the text of a <label> extract/core.py marked as a checkbox's or radio button's name

    def markdown(self) -> str:
        """The block as it appears in the document text."""
        text = self.text
        if self.heading:
            text = f"{'#' * self.heading} {text}"
        if self.list_depth:
            # CommonMark 5.2: an item's later blocks (a code block, a second paragraph) are indented by the
            # marker's width so they stay in the item; nested lists by two spaces a level
            indent = " " * self.indent
            marker = f"{self.number}. " if self.number else "- "
            pad = indent + " " * len(marker)
            lines = text.split("\n")
            lead = indent + marker if self.bullet else pad
            text = lead + lines[0] + "".join("\n" + (pad + line if line else "") for line in lines[1:])
        if self.quote:
            prefix = "> " * self.quote
            text = "\n".join(prefix + line if line else prefix.rstrip() for line in text.split("\n"))
        return text


@dataclass(slots=True)
class PageImage:
    """An ``<img>`` in reading order; ``before`` is the index of the block it precedes (or sits in)."""

    element: etree._Element
    before: int


@dataclass
class Segmentation:
    blocks: list[Block] = field(default_factory=list)
    images: list[PageImage] = field(default_factory=list)


class _Frame:
    """An open block element of the walk."""

    __slots__ = ("bullet_pending", "el", "ident", "kind", "kw_all", "kw_own", "kw_parent", "signature", "tags")

    def __init__(self, el: etree._Element, kind: str, kw_all: int, kw_own: int, kw_parent: int, tags: int,
                 signature: int, ident: int) -> None:
        self.el = el
        self.kind = kind
        self.kw_all = kw_all
        self.kw_own = kw_own
        self.kw_parent = kw_parent
        self.tags = tags
        self.signature = signature
        self.ident = ident
        self.bullet_pending = False


class _Walk:
    def __init__(self) -> None:
        self.out = Segmentation()
        self.buf: list[str] = []
        self.has_text = False
        self.link_chars = 0
        self.inline_kw = 0
        self.link_depth = 0
        self.frames: list[_Frame] = []
        self.lists: list[list[int]] = []  # per open ul/ol: [ordered, next number]
        self.quote = 0
        self.next_id = 0

    # -- blocks -------------------------------------------------------------------------------------------
    def push(self, el: etree._Element, tag: str, cls: str | None = None, extra: int = 0) -> None:
        parent = self.frames[-1] if self.frames else None
        if cls is None:
            cls = el.get("class")
        own = keyword_mask(el, cls) | extra
        first = cls.split(None, 1)[0] if cls and not cls.isspace() else ""
        signature = hash((parent.signature if parent else 0, tag, first))
        self.next_id += 1
        frame = _Frame(el, _KIND_OF_TAG.get(tag, "other"), (parent.kw_all if parent else 0) | own, own,
                       parent.kw_own if parent else 0, (parent.tags if parent else 0) | _ANCESTOR_BIT.get(tag, 0),
                       signature, self.next_id)
        if tag == "li":
            frame.bullet_pending = True
        self.frames.append(frame)

    def _list_item(self) -> tuple[_Frame | None, int]:
        """The innermost open list item and its list depth."""
        for frame in reversed(self.frames):
            if frame.el.tag == "li":
                return frame, len(self.lists)
            if frame.kind in ("td", "blockquote"):
                return None, 0
        return None, 0

    def emit(self, text: str, kind: str | None = None, plain: str | None = None, link_chars: int = 0) -> None:
        frame = self.frames[-1]
        block_kind = kind or frame.kind
        tag = frame.el.tag
        heading = HEADINGS.get(tag, 0) if kind is None else 0
        if heading:
            text = clean_heading_text(text)
            if not text:
                return
            block_kind = "h4" if heading > 4 else tag
        item, depth = self._list_item() if self.lists else (None, 0)
        bullet, number, indent = False, 0, 0
        if item is not None:
            indent = sum(len(str(n)) + 2 if ordered else 2 for ordered, n in self.lists[:-1])
            if kind is None and block_kind not in ("h1", "h2", "h3", "h4"):
                block_kind = "li"
            if item.bullet_pending:
                item.bullet_pending = False
                bullet = True
            if self.lists and self.lists[-1][0]:
                number = self.lists[-1][1]
        ancestors = [f.ident for f in self.frames[-6:]]
        ancestors.reverse()
        self.out.blocks.append(Block(
            text=text, kind=block_kind, heading=heading, list_depth=depth if item is not None else 0, number=number,
            bullet=bullet, indent=indent, quote=self.quote, link_chars=min(link_chars, len(text)),
            depth=len(self.frames),
            kw_all=frame.kw_all | self.inline_kw, kw_near=frame.kw_own | frame.kw_parent | self.inline_kw,
            tags=frame.tags, signature=frame.signature, containers=tuple(ancestors),
            plain=plain if plain is not None else text,
            option=tag == "label" and frame.el.get(OPTION_MARK) is not None,
        ))

    def flush(self) -> None:
        if not self.buf:
            return
        raw = "".join(self.buf)
        self.buf.clear()
        link_chars, self.link_chars = self.link_chars, 0
        inline_kw, self.has_text = self.inline_kw, False
        if not raw.strip():
            self.inline_kw = 0
            return
        text = _SPACE.sub(" ", raw)
        if _BR in text:
            text = "\n".join(line.strip() for line in text.split(_BR))
            text = re.sub(r"\n{2,}", "\n", text).strip("\n ")
        else:
            text = text.strip()
        if text:
            self.inline_kw = inline_kw
            self.emit(text, link_chars=link_chars)
        self.inline_kw = 0

    def text(self, value: str | None) -> None:
        if value:
            self.buf.append(value)
            if self.link_depth:
                self.link_chars += len(value.strip())

    # -- the walk -----------------------------------------------------------------------------------------
    def run(self, root: etree._Element) -> Segmentation:
        self.push(root, root.tag if isinstance(root.tag, str) else "div")
        walker = etree.iterwalk(root, events=("start", "end"))
        # elements whose subtree was handled (or left out) at their start, whose end needs no bookkeeping: only
        # block elements and links have any, so only those are remembered
        skipped: set[int] = set()
        buf = self.buf
        start = self.start
        for event, el in walker:
            tag = el.tag
            if tag.__class__ is not str:  # comments, processing instructions: only their tail is text
                if event == "end" and el is not root and el.tail:
                    self.text(el.tail)
                continue
            if event == "start":
                if el is root:
                    self.text(el.text)
                elif start(el, tag):
                    if tag in BLOCK_TAGS or tag == "a":
                        skipped.add(id(el))
                    walker.skip_subtree()
                continue
            # end
            if el is root:
                continue
            if skipped and id(el) in skipped:
                skipped.discard(id(el))
            elif tag in BLOCK_TAGS:
                if buf:
                    self.flush()
                self.end_block(el, tag)
            elif tag == "a":
                self.link_depth -= 1
            tail = el.tail
            if tail:
                buf.append(tail)
                if self.link_depth:
                    self.link_chars += len(tail.strip())
        self.flush()
        return self.out

    def start(self, el: etree._Element, tag: str) -> bool:
        """Handle an element's start; True when its whole subtree was handled here (skip it).

        The hot path of extraction (every element of the page): the class is read once and the helpers are only
        called where a cheap test on the tag or the class says they could answer yes.
        """
        if tag in _SKIPPED:
            if tag == "script":  # only MathJax v2 sources are left (extract/core.py strips the others)
                found = math_at(el)
                if found is not None and found is not RENDERING:
                    self.math(*found)
            return True
        cls = el.get("class")
        style = el.get("style")
        # hidden now is not hidden for good: React streams server-rendered sections into <div hidden> and moves
        # them into place, FAQ answers and "read more" wait behind display:none, and WCXB's ground truth (what a
        # reader sees) has them. The blocks carry the "hidden" keyword bit and the classifier decides.
        hidden = el.get("hidden") is not None or bool(
            style and ("none" in style or "hidden" in style) and _HIDDEN_STYLE.search(style) is not None)
        if (tag == "pre" or (cls and tag in CODE_TAGS)) and is_code_block(el):
            self.code(el)
            return True
        # the class prefilter: math_at's own, narrowed from "tex" (which every "text-..." class has) to the class
        # names that carry it: katex, arithmatex, tex2jax
        if tag in _MATH_TAGS or (cls and tag in _MATH_CLASSED and (
                "ath" in cls or "jx" in cls or "MJX" in cls or "katex" in cls or "tex2jax" in cls
                or "arithmatex" in cls)):
            found = math_at(el)
            if found is not None:
                if found is not RENDERING:
                    self.math(*found)
                return True
        if tag in BLOCK_TAGS:
            if tag == "table" and not is_layout_table(el) and self.table(el, tag):
                return True
            if self.buf:
                self.flush()
            if tag in _LIST_TAGS:
                self.lists.append([1 if tag == "ol" else 0, _start_number(el)])
            elif tag == "blockquote":
                self.quote += 1
            self.push(el, tag, cls, _HIDDEN_BIT if hidden else 0)
            if tag == "li" and self.lists and self.lists[-1][0]:
                value = el.get("value")
                if value and value.strip().isdigit():
                    self.lists[-1][1] = int(value)
        elif tag == "a":
            if is_permalink(el):
                return True
            self.link_depth += 1
            if cls or el.get("id"):
                self.inline_kw |= keyword_mask(el, cls)
            if hidden:
                self.inline_kw |= _HIDDEN_BIT
        elif tag == "img":
            self.out.images.append(PageImage(el, len(self.out.blocks)))
            return True
        elif tag == "br":
            self.buf.append(_BR)
            return True
        elif tag in _INLINE_CODE:
            value = el.text_content()
            if value.strip():
                # Sphinx before 4 wrote a signature's module and name as <code class="descclassname">numpy.</code>
                # <code class="descname">sum</code>: the signature's words, as Sphinx 4's spans are (two code spans
                # side by side would read "`numpy.``sum`")
                words = " ".join(value.split())
                if cls and _SIGNATURE_NAME.search(cls):
                    self.buf.append(words)
                else:
                    if self.buf and self.buf[-1].endswith("`"):
                        # a code span right after another (<kbd>F</kbd><kbd>Tab</kbd>, a prompt and its command as
                        # two <code>): glued, "`F``Tab`" is one garbled span in Markdown, not two
                        self.buf.append(" ")
                    self.buf.append(inline_code(words))
                if self.link_depth:
                    self.link_chars += len(value.strip())
            return True
        elif hidden or cls or el.get("id") or el.get("role"):
            if hidden:
                self.inline_kw |= _HIDDEN_BIT
            # copy buttons and Jupyter prompts beside code; a button holding much text is no copy button (an
            # unclosed <button> holds the rest of the page in libxml2's tree)
            if (tag == "div" or (tag in ("button", "clipboard-copy") and len(el.text_content()) < 40)) \
                    and is_code_chrome(el):
                return True
            self.inline_kw |= keyword_mask(el, cls)
            if cls and self.buf and tag == "span" and "classifier" in cls.split():
                # numpydoc's "name : type" (every Sphinx API reference of the scientific Python stack): the HTML has
                # <strong>x</strong><span class="classifier">int</span> and the " : " is Sphinx's CSS
                # (basic.css, .classifier:before); glued, "x" and its type read as one word ("alphainput")
                if not self.buf[-1].rstrip().endswith(":"):
                    self.buf.append(" : ")
            elif cls and self.buf and not self.buf[-1][-1:].isspace() and not self._in_signature(cls):
                # two styled inline siblings with nothing between (a card's title and price): the page's CSS lays
                # them out apart, and glued they would read as one word ("Gaiters39,00")
                prev = el.getprevious()
                if prev is not None and prev.get("class") and not prev.tail:
                    self.buf.append(" ")
        if el.text:
            self.text(el.text)
        return False

    def _in_signature(self, cls: str) -> bool:
        """Whether an element of class ``cls`` is part of a Sphinx API signature: the open block is Sphinx 4's
        ``<dt class="sig sig-object py">`` (every domain), or the element is one of the signature's parts by
        Sphinx's class names (``sig-paren``, ``sig-param``, ``descname``: Sphinx 1.3 to 3). Its name, parentheses,
        parameters and brackets are styled elements side by side that the theme sets glued, as code
        ("scipy.linalg.blas.cgemv(alpha, a, x[, beta])"), not apart like a card's fields."""
        block = self.frames[-1].el.get("class") if self.frames else None
        return (bool(block) and "sig" in block.split()) or _SIGNATURE_PART.search(cls) is not None

    def table(self, el: etree._Element, tag: str) -> bool:
        """A data table as one block (a GFM table); False when it renders to nothing (walk into it instead)."""
        markdown = table_markdown(el)
        if not markdown:
            return False
        self.flush()
        before = len(self.out.blocks)
        self.out.images.extend(PageImage(img, before) for img in el.iter("img"))
        links = link_chars(el)
        self.push(el, tag)
        self.emit(markdown, kind="table", plain=" ".join(el.text_content().split()), link_chars=links)
        self.frames.pop()
        return True

    def end_block(self, el: etree._Element, tag: str) -> None:
        if self.frames and self.frames[-1].el is el:
            self.frames.pop()
        if tag in _LIST_TAGS and self.lists:
            self.lists.pop()
        elif tag == "li" and self.lists and self.lists[-1][0]:
            self.lists[-1][1] += 1
        elif tag == "blockquote":
            self.quote -= 1

    def code(self, el: etree._Element) -> None:
        text = code_text(el)
        if not text.strip():
            return
        self.flush()
        self.push(el, "pre")
        links = link_chars(el)
        self.emit(fence(text, code_language(el)), kind="pre", plain=text, link_chars=links)
        self.frames.pop()
        before = len(self.out.blocks)
        self.out.images.extend(PageImage(img, before) for img in el.iter("img"))

    def math(self, latex: str, display: bool) -> None:
        if not display:
            self.buf.append(math_markdown(latex, False))
            return
        self.flush()
        self.emit(math_markdown(latex, True), kind="math", plain=latex)


def _start_number(ol: etree._Element) -> int:
    start = (ol.get("start") or "").strip()
    return int(start) if start.lstrip("-").isdigit() else 1


def link_chars(el: etree._Element) -> int:
    """Characters of link text under ``el`` (each link's text trimmed)."""
    return sum(len((a.text_content() or "").strip()) for a in el.iter("a"))


def segment(root: etree._Element) -> Segmentation:
    """Cut the tree under ``root`` (the ``<body>``) into blocks and images in reading order."""
    return _Walk().run(root)
