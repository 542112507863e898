"""A page as numbered text blocks: the unit the LLM selects from (``extract/llm.py``).

A block is one paragraph, heading, list item, table row, ``<pre>``, caption or run of loose text in
a container, in page order. Selection answers with block numbers and the text is assembled from
these blocks, so an LLM reply can choose text but never add any.

Only what a browser would show is kept: ``<head>``, scripts, styles, templates, SVG, form controls
and elements marked hidden are removed. Navigation (``<nav>``, ``role=navigation``) is the one kind
of boilerplate removed here because it is unambiguous markup; everything else (headers, footers,
sidebars, comments) stays for the model to judge.

The walk is iterative (``lxml.etree.iterwalk``) so deeply nested markup cannot hit Python's recursion
limit. Blocks longer than ``max_chars`` are split at whitespace so one huge run of text cannot
exceed the model's context on its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import lxml.html
from lxml import etree

# Removed with their subtree before the walk: never visible, or (nav) unambiguous boilerplate.
_DROP_TAGS = frozenset({
    "head", "script", "style", "noscript", "template", "svg", "math", "canvas", "iframe", "object", "embed",
    "select", "option", "button", "input", "textarea", "nav", "dialog",
})
# Elements that start and end a block; text between them is one block.
_BLOCK_TAGS = frozenset({
    "html", "body", "main", "article", "section", "header", "footer", "aside", "div", "center", "form", "fieldset",
    "address", "blockquote", "figure", "figcaption", "details", "summary", "p", "h1", "h2", "h3", "h4", "h5", "h6",
    "ul", "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption", "pre",
    "hr", "menu", "legend", "hgroup", "search",
})
# A row holding any of these is layout, not data: it is walked as a container, not kept as one row.
_NESTED_STRUCTURE = frozenset({
    "table", "p", "div", "ul", "ol", "li", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article",
    "blockquote", "dl", "form", "figure", "main", "aside", "header", "footer",
})
_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_HIDDEN_STYLE = re.compile(r"(?:display\s*:\s*none|visibility\s*:\s*hidden)", re.I)
_SPACE = re.compile(r"[ \t\r\f\v\u00a0\u200b\u2028\u2029]+")

DEFAULT_MAX_CHARS = 2000


@dataclass(frozen=True)
class Block:
    """One numbered text block; ``kind`` is the tag of the innermost block element around it."""

    index: int
    kind: str
    text: str

    def render(self) -> str:
        """The block as it appears in assembled text: headings and list items in Markdown, like trafilatura's."""
        level = _HEADINGS.get(self.kind)
        if level:
            return f"{'#' * level} {self.text}"
        if self.kind == "li":
            return f"- {self.text}"
        return self.text


def _parse(html: str | bytes) -> etree._Element | None:
    if isinstance(html, str):
        # lxml refuses str input that carries an XML encoding declaration.
        html = html.encode("utf-8")
        parser = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True, huge_tree=True)
    else:
        parser = lxml.html.HTMLParser(remove_comments=True, remove_pis=True, huge_tree=True)
    if not html.strip():
        return None
    try:
        return lxml.html.document_fromstring(html, parser=parser)
    except (etree.ParserError, ValueError):
        return None


def _hidden(el: etree._Element) -> bool:
    if el.get("hidden") is not None or el.get("aria-hidden", "").lower() == "true":
        return True
    if el.get("role", "").lower() == "navigation":
        return True
    style = el.get("style")
    return bool(style and _HIDDEN_STYLE.search(style))


def _clean(root: etree._Element) -> None:
    doomed = [el for el in root.iter() if not isinstance(el.tag, str) or el.tag in _DROP_TAGS or _hidden(el)]
    for el in doomed:
        if el.getparent() is None:
            continue
        # drop_tree keeps the element's tail, which belongs to the parent's text flow.
        el.drop_tree()


def _norm(text: str) -> str:
    lines = (_SPACE.sub(" ", line).strip() for line in text.split("\n"))
    return " ".join(line for line in lines if line)


def _split_long(text: str, max_chars: int) -> list[str]:
    if len(text) <= max_chars:
        return [text]
    parts: list[str] = []
    while len(text) > max_chars:
        cut = text.rfind(" ", 0, max_chars)
        if cut <= max_chars // 2:  # no usable space: cut hard rather than make a tiny part
            cut = max_chars
        parts.append(text[:cut].strip())
        text = text[cut:].strip()
    if text:
        parts.append(text)
    return parts


def _row_text(row: etree._Element) -> str:
    cells = [c for c in row if isinstance(c.tag, str) and c.tag in ("td", "th")]
    if not cells:
        return _norm(row.text_content())
    return " | ".join(_norm(c.text_content()) for c in cells)


def page_blocks(html: str | bytes, max_chars: int = DEFAULT_MAX_CHARS) -> list[Block]:
    """Split a page into numbered visible-text blocks in page order (numbers start at 0)."""
    if max_chars < 20:
        raise ValueError(f"max_chars must be >= 20, got {max_chars}")
    root = _parse(html)
    if root is None:
        return []
    _clean(root)
    body = root.find("body")
    start = body if body is not None else root

    texts: list[tuple[str, str]] = []  # (kind, text), numbered at the end
    buf: list[str] = []
    kinds: list[str] = ["body"]

    def flush() -> None:
        if buf:
            text = _norm("".join(buf))
            buf.clear()
            if text:
                texts.extend((kinds[-1], part) for part in _split_long(text, max_chars))

    def emit(kind: str, text: str) -> None:
        if text:
            texts.extend((kind, part) for part in _split_long(text, max_chars))

    walker = etree.iterwalk(start, events=("start", "end"))
    atomic: set[int] = set()  # ids of elements whose subtree was emitted whole and skipped
    for event, el in walker:
        tag = el.tag if isinstance(el.tag, str) else ""
        if event == "start":
            if tag == "br":
                buf.append("\n")
            elif tag == "pre":
                flush()
                # Whitespace is content in <pre>: keep its lines, trim only trailing spaces.
                pre = "\n".join(line.rstrip() for line in el.text_content().strip("\n").split("\n"))
                emit("pre", pre.strip())
                atomic.add(id(el))
                walker.skip_subtree()
            elif tag == "tr" and not any(
                isinstance(d.tag, str) and d.tag in _NESTED_STRUCTURE for d in el.iterdescendants()
            ):
                flush()
                emit("tr", _row_text(el))
                atomic.add(id(el))
                walker.skip_subtree()
            elif tag in _BLOCK_TAGS:
                flush()
                kinds.append(tag)
                if el.text:
                    buf.append(el.text)
            elif el.text:
                buf.append(el.text)
        else:  # end
            if id(el) in atomic:
                atomic.discard(id(el))
            elif tag in _BLOCK_TAGS:
                flush()
                kinds.pop()
            if el is not start and el.tail:
                buf.append(el.tail)
    flush()
    return [Block(i, kind, text) for i, (kind, text) in enumerate(texts)]


def assemble(blocks: list[Block], selected: set[int] | list[int]) -> str:
    """Text of the selected blocks in page order, one block per line (paragraphs separated by newlines)."""
    chosen = set(selected)
    return "\n".join(b.render() for b in blocks if b.index in chosen)


def page_title(html: str | bytes) -> str | None:
    """The ``<title>`` text (not a block: it is in ``<head>``), used as extra grounding text."""
    root = _parse(html)
    if root is None:
        return None
    title = root.find(".//title")
    if title is None:
        return None
    text = _norm(title.text_content())
    return text or None
