"""HTML tables as GFM pipe tables, and which tables are page layout rather than data.

Layout or data (``is_layout_table``). HTML 4.01 §11.1 and WCAG technique F46 say tables are for tabular data;
pages from before CSS layout (and e-mail-like templates still) use them to place columns and boxes, and a
Markdown table of such a page is one row of whole paragraphs. A table is layout when any of these holds,
checked in this order (each rule's reason beside it):

1. ``role="presentation"`` or ``role="none"``: the page says so (WAI-ARIA 1.2, "presentation" role). Or it is the
   box of an admonition: DocBook XSL with ``admon.graphics`` (GIMP's manual, and every DocBook site built so) draws a
   note as ``<div class="note"><table summary="Note">``, the icon in a cell spanning both rows, the title a ``<th>``,
   the text below it; as a data table it read ``| [注記] | 注記 |`` then ``| --- | --- |`` before the note's text.
   Recognised by the summary DocBook writes (``Note``, ``Tip``, ``Warning``, ``Caution``, ``Important``, in English
   whatever the page's language) or by a ``div`` of one of those classes holding the table alone.
2. It holds another table: data tables do not nest; layout grids do, level in level.
3. A cell holds a heading (``h1``-``h6``) with more beside it, a form control or form, or page structure
   (``nav``, ``article``, ``section``, ``main``, ``aside``, ``header``, ``footer``): those are parts of a page,
   not values. A heading alone in its cell is a header cell written with heading markup (WordPress' editor
   makes them) and counts as a ``<th>``.
4. It is a single cell: a box drawn around content.
5. It has one row or one column, and a cell holds block content (paragraphs, lists, divisions, images,
   block quotes, code): columns or a stack of boxes placed side by side or one under another.
6. It has no header cell (``<th>``, ``<thead>``, a heading alone in a cell) and a cell holds long prose (more than
   ``PROSE_CHARS`` characters) or several paragraphs: data cells hold values; a cell of prose without any
   header naming its column is page text laid out in a grid. With header cells, the same cell is data
   (a description column) and its paragraphs are joined (``cell_text``).

The ``width`` attributes old layouts carry are no rule of their own: data tables set them as often.

Cell text (``cell_text``) is one line, as a GFM cell must be (GFM spec 0.29, "Tables (extension)": a row
is one line; "the pipes inside other inline spans" must be escaped as ``\\|``, code spans included): inline
text with whitespace collapsed; ``<br>`` and block boundaries (paragraphs, divisions) a space; a list's items
joined with "; " (a cell cannot hold a list; plain separators keep it readable as text, where ``<br>``
would put raw HTML into training text and depends on the renderer's HTML support); inline code
(``code``, ``kbd``, ``samp``, ``tt``) as a code span; math as ``$...$`` (extract/math_markup.py); an image as
its alt text (comparison tables mark yes/no with icons); hidden elements (``hidden``, ``display:none``,
Wikipedia's sort keys), scripts and heading permalinks left out.

A table (``table_markdown``) is a header row, a delimiter row and body rows (GFM): the header is the first
``<thead>`` row, else the first row (GFM requires one); further ``<thead>`` rows and ``<tfoot>`` rows are body
rows, ``<tfoot>`` last as browsers draw it. A ``colspan`` cell is followed by empty cells so later columns
stay aligned; a ``rowspan`` cell's text is repeated in each row it spans, so every row reads on its own
(``rowspan="0"`` spans the rest of its row group, HTML §4.9.11); short rows are padded; rows with no text are
dropped. The ``<caption>`` is a paragraph before the table, separated by a blank line (a paragraph line
directly above would be taken as part of the header by some parsers). None for a layout table, and for a
table with a multi-line code block in a cell (a cell cannot hold it without losing its lines): the caller
then renders the cells as ordinary blocks. Column alignment is not carried.
"""

from __future__ import annotations

import re

from lxml import etree

from extract.cleanup import is_permalink
from extract.code import code_text, inline_code
from extract.math_markup import math_at, math_markdown, math_source

PROSE_CHARS = 300  # a long paragraph; data values are words and numbers
MAX_SPAN = 1000  # HTML caps colspan at 1000 and rowspan at 65534; more is a broken page

_ROLE_LAYOUT = frozenset({"presentation", "none"})
_ADMONITIONS = frozenset({"note", "tip", "warning", "caution", "important"})  # DocBook's admonition elements
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_PAGE_PARTS = frozenset({"form", "input", "select", "textarea", "nav", "article", "section", "main", "aside", "header",
                         "footer"})
_BLOCKS = frozenset({"p", "div", "ul", "ol", "dl", "blockquote", "pre", "img", "figure", "table", "hr"})
_PARAGRAPHS = frozenset({"p", "div", "blockquote"})
_CELL_BLOCKS = frozenset({"p", "div", "blockquote", "dl", "dt", "dd", "pre", "figure", "figcaption", "h1", "h2",
                          "h3", "h4", "h5", "h6", "hr", "address", "details", "summary", "section", "article"})
_SKIP = frozenset({"script", "style", "template", "noscript", "button", "select", "input", "textarea", "svg"})
_CODE = frozenset({"code", "kbd", "samp", "tt"})
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
_WS = re.compile(r"\s+")
_ATOM = re.compile(r"\x00(\d+)\x00")


def _rows(table: etree._Element) -> list[tuple[etree._Element, str]]:
    """``(tr, group)`` of this table (not of tables inside it), in display order: thead, body, tfoot."""
    head: list[tuple[etree._Element, str]] = []
    body: list[tuple[etree._Element, str]] = []
    foot: list[tuple[etree._Element, str]] = []
    for child in table:
        tag = child.tag
        if tag == "tr":
            body.append((child, "body"))
        elif tag in ("thead", "tbody", "tfoot"):
            target = head if tag == "thead" else foot if tag == "tfoot" else body
            group = f"{tag}{len(head) + len(body) + len(foot)}"  # one name per row group
            target.extend((row, group) for row in child if row.tag == "tr")
    return head + body + foot


def _cells(row: etree._Element) -> list[etree._Element]:
    return [cell for cell in row if cell.tag in ("td", "th")]


def is_layout_table(el: etree._Element) -> bool:
    """Whether the ``<table>`` ``el`` places page content rather than holding data (rules in the module docstring)."""
    if (el.get("role") or "").strip().lower() in _ROLE_LAYOUT or _is_admonition_box(el):
        return True
    tables = el.iter("table")
    next(tables, None)  # el itself
    if next(tables, None) is not None:
        return True
    rows = _rows(el)
    if not rows:
        return False
    has_header = el.find("thead") is not None
    width = 0
    block_content = False
    prose = False
    for row, _group in rows:
        cells = _cells(row)
        width = max(width, sum(_span(cell, "colspan") for cell in cells))
        for cell in cells:
            if cell.tag == "th":
                has_header = True
            paragraphs = 0
            text = None
            for node in cell.iter():
                tag = node.tag
                if tag in _HEADINGS:
                    # a heading alone in its cell is a header cell written with a heading (WordPress editors do
                    # it); a heading with more beside it starts a section of the page
                    text = "".join(cell.itertext()).strip() if text is None else text
                    if " ".join(text.split()) != " ".join("".join(node.itertext()).split()):
                        return True
                    has_header = True
                elif tag in _PAGE_PARTS:
                    return True
                elif tag in _BLOCKS:
                    block_content = True
                    if tag in _PARAGRAPHS and node.getparent() is cell:
                        paragraphs += 1
            if text is None:
                text = "".join(cell.itertext()).strip()
            if paragraphs > 1 or len(text) > PROSE_CHARS:
                prose = True
    if len(rows) == 1 and width <= 1:
        return True
    if (len(rows) == 1 or width <= 1) and block_content:
        return True
    return prose and not has_header


def _is_admonition_box(el: etree._Element) -> bool:
    summary = (el.get("summary") or "").strip().lower()
    if summary in _ADMONITIONS:
        return True
    parent = el.getparent()
    if parent is None or parent.tag != "div" or len(parent) != 1:
        return False
    return not _ADMONITIONS.isdisjoint((parent.get("class") or "").lower().split())


def _span(cell: etree._Element, attr: str) -> int:
    value = (cell.get(attr) or "").strip()
    if not value.isdigit():
        return 1
    number = int(value)
    if attr == "rowspan" and number == 0:
        return 0  # to the end of the row group
    return min(max(number, 1), MAX_SPAN)


def _hidden(el: etree._Element) -> bool:
    if el.get("hidden") is not None:
        return True
    style = el.get("style")
    return bool(style) and bool(_HIDDEN_STYLE.search(style))


def _inline(el: etree._Element, out: list[str], atoms: list[str]) -> None:
    """Append the text of ``el``'s content (not its tail) to ``out``; code and math go to ``atoms``."""
    if el.text:
        out.append(el.text)
    for child in el:
        tag = child.tag
        if isinstance(tag, str) and not _hidden(child) and tag not in _SKIP and not is_permalink(child):
            _inline_child(child, tag, out, atoms)
        elif tag == "script":
            source = math_source(child)
            if source:
                _atom(math_markdown(source[0], False), out, atoms)
        if child.tail:
            out.append(child.tail)


def _inline_child(child: etree._Element, tag: str, out: list[str], atoms: list[str]) -> None:
    source = math_at(child)
    if source is not None:  # a formula, or a rendering of one (RENDERING: nothing to write)
        _atom(math_markdown(source[0], False), out, atoms)  # one line: a cell cannot hold display math
    elif tag == "br":
        out.append(" ")
    elif tag in ("ul", "ol"):
        items = []
        for item in child:
            if not isinstance(item.tag, str) or _hidden(item):
                continue
            parts: list[str] = []
            _inline(item, parts, atoms)
            text = _WS.sub(" ", "".join(parts)).strip().rstrip(";").rstrip()
            if text:
                items.append(text)
        out.append(" " + "; ".join(items) + " ")
    elif tag == "pre":  # one line (table_markdown refuses cells with more): without gutters and chrome
        _atom(inline_code(code_text(child)), out, atoms)
    elif tag in _CODE:
        _atom(inline_code("".join(child.itertext())), out, atoms)
    elif tag == "img":
        alt = _WS.sub(" ", child.get("alt") or "").strip()
        if alt:
            out.append(f" {alt} ")
    elif tag in _CELL_BLOCKS:
        out.append(" ")
        _inline(child, out, atoms)
        out.append(" ")
    else:
        _inline(child, out, atoms)


def _atom(text: str, out: list[str], atoms: list[str]) -> None:
    """Text that keeps its inner spacing (code spans, math): a placeholder until whitespace is collapsed."""
    if text:
        out.append(f"\x00{len(atoms)}\x00")
        atoms.append(text)


def _text(el: etree._Element) -> str:
    out: list[str] = []
    atoms: list[str] = []
    _inline(el, out, atoms)
    text = _WS.sub(" ", "".join(out)).strip()
    if atoms:
        text = _ATOM.sub(lambda m: atoms[int(m.group(1))], text)
    return text


def cell_text(td: etree._Element) -> str:
    """The text of a data cell on one line, ``|`` escaped (see the module docstring)."""
    return _text(td).replace("|", "\\|")


def _multiline_code(cell: etree._Element) -> bool:
    return any("\n" in "".join(pre.itertext()).strip() for pre in cell.iter("pre"))


def table_markdown(el: etree._Element) -> str | None:
    """The ``<table>`` ``el`` as a GFM pipe table (see the module docstring); None: render its cells as blocks."""
    if is_layout_table(el):
        return None
    rows = _rows(el)
    if not rows:
        return None
    grid: list[list[str]] = []
    pending: dict[int, tuple[str, int]] = {}  # column -> (text, rows still to fill): rowspans from above
    group_sizes: dict[str, int] = {}
    for _row, group in rows:
        group_sizes[group] = group_sizes.get(group, 0) + 1
    for row, group in rows:
        group_sizes[group] -= 1
        rows_left = group_sizes[group]  # rows after this one in its group: a rowspan stops at the group's end
        line: list[str] = []
        for cell in _cells(row):
            _fill(line, pending)
            if _multiline_code(cell):
                return None
            text = cell_text(cell)
            rowspan = _span(cell, "rowspan")
            rowspan = rows_left + 1 if rowspan == 0 else min(rowspan, rows_left + 1)
            for k in range(_span(cell, "colspan")):
                if rowspan > 1:
                    pending[len(line)] = (text if k == 0 else "", rowspan - 1)
                line.append(text if k == 0 else "")
        while pending and max(pending) >= len(line):  # rowspans to the right of this row's last cell
            if len(line) not in pending:
                line.append("")
            _fill(line, pending)
        grid.append(line)
    width = max((len(line) for line in grid), default=0)
    if width == 0:
        return None
    for line in grid:
        line.extend([""] * (width - len(line)))
    header, body = grid[0], [line for line in grid[1:] if any(line)]
    lines = [_row_line(header), "| " + " | ".join(["---"] * width) + " |"]
    lines += [_row_line(line) for line in body]
    out = "\n".join(lines)
    caption = el.find("caption")
    if caption is not None:
        caption_text = _text(caption)
        if caption_text:
            out = f"{caption_text}\n\n{out}"
    return out


def _fill(line: list[str], pending: dict[int, tuple[str, int]]) -> None:
    """Append the cells that rowspans from earlier rows put at the end of ``line``."""
    while len(line) in pending:
        column = len(line)
        text, left = pending[column]
        line.append(text)
        if left <= 1:
            del pending[column]
        else:
            pending[column] = (text, left - 1)


def _row_line(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"
