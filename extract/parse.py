"""The one HTML parse of extraction: trafilatura's parser settings, with element classes chosen in C.

trafilatura's ``load_html`` parses with an ``lxml.html.HTMLParser``. That parser picks the Python class of
each element through ``lxml.html.HtmlElementClassLookup``, whose ``lookup`` method is Python code: lxml
calls it every time Python first touches an element, about 2,100 times a page on
../shared/data/extraction_bench between trafilatura's passes and ours (cProfile: 1.3 ms a page inside
trafilatura alone). The lookup only picks lxml's form-widget classes (``FormElement``, ``InputElement``,
``SelectElement``, ``TextareaElement``, ``LabelElement``) and otherwise ``HtmlElement``; trafilatura uses
none of the widget methods (it reads forms' text and renames them), and extract/core.py strips inputs,
selects and textareas before extraction. So this module parses with a parser built with the same
settings as trafilatura's (``collect_ids=False, default_doctype=False, encoding="utf-8",
remove_comments=True, remove_pis=True``: trafilatura.utils.HTML_PARSER) whose lookup is lxml's C-level
``ElementDefaultClassLookup`` giving ``HtmlElement`` (and lxml.html's comment, PI and entity classes).
The tree is the same, element by element, and so is trafilatura's text: identical on all 60 benchmark
pages in precision and balanced mode (tests/extract/test_parse.py checks the trees against
``load_html`` on the fixture pages). Extraction measured 0.5-1.0 ms a page faster (CPU time, best of 9).

The input goes through trafilatura's own ``repair_faulty_html`` first, as in ``load_html``. That function
removes characters XML forbids (control characters, U+FFFE, U+FFFF) with a regex over the whole page (about
0.5 ms for the benchmark's mean page of 160,000 characters), then mends a ``<!DOCTYPE ... />`` on the first
line and a self-closing ``<html/>`` in the first four lines (within the first 4,096 characters). Pages
almost never hold a forbidden character, and ``str.__contains__`` finds out for the 31 of them in about a
third of the regex's time; when there is none, only the part the other two repairs can touch (the first
``REPAIR_SPAN`` characters, up to the end of a line) goes through ``repair_faulty_html`` and the rest is
appended unchanged, which gives the same string. A page with a forbidden character, or without a line
break after ``REPAIR_SPAN``, is repaired whole. The unusual
cases ``load_html`` handles with a second parse (a string carrying an XML encoding declaration, which
lxml refuses as ``str``; an empty result; a document without an ``html`` in its first 50 characters that
parses to fewer than two children, which it rejects) are handed to ``load_html`` itself, so they come
out exactly as trafilatura would have them.
"""

from __future__ import annotations

import threading

import lxml.html
from lxml import etree
from trafilatura.utils import HTML_PARSER, is_dubious_html, load_html, repair_faulty_html

_local = threading.local()  # lxml parsers must not be shared between threads
# what repair_faulty_html removes (trafilatura.utils.INVALID_XML_CHARS), one character each
_FORBIDDEN = (*(chr(c) for c in (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20))), "\ufffe", "\uffff")
REPAIR_SPAN = 8192  # twice the 4,096 characters repair_faulty_html looks at for <html/>


def repair(html: str, beginning: str) -> str:
    """``repair_faulty_html(html, beginning)``, the same string, without the whole-page scan where it finds nothing."""
    if any(ch in html for ch in _FORBIDDEN):
        return repair_faulty_html(html, beginning)
    cut = html.find("\n", REPAIR_SPAN)
    if cut < 0:
        return repair_faulty_html(html, beginning)
    # the line break goes with the head: repair_faulty_html splits its first line off at a "\n"
    return repair_faulty_html(html[:cut + 1], beginning) + html[cut + 1:]


def _parser() -> lxml.html.HTMLParser:
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = lxml.html.HTMLParser(collect_ids=False, default_doctype=False, encoding="utf-8",
                                      remove_comments=True, remove_pis=True)
        parser.set_element_class_lookup(etree.ElementDefaultClassLookup(
            element=lxml.html.HtmlElement, comment=lxml.html.HtmlComment, pi=lxml.html.HtmlProcessingInstruction,
            entity=lxml.html.HtmlEntity))
        _local.parser = parser
    return parser


def _too_deep(parser: etree.XMLParser | etree.HTMLParser) -> bool:
    # libxml2 stops at 256 levels of nesting (without XML_PARSE_HUGE) and logs it: what follows is lost
    return any("Excessive depth" in entry.message for entry in parser.error_log)


def parse_html(html: str) -> tuple[lxml.html.HtmlElement | None, bool]:
    """``(tree, truncated)``: the tree ``trafilatura.utils.load_html(html)`` would give (None: not HTML).

    ``truncated``: libxml2 stopped at its nesting limit, so the tree lacks what came after.
    """
    beginning = html[:50].lower()
    parser = _parser()
    try:
        tree = lxml.html.fromstring(repair(html, beginning), parser=parser)
    except (ValueError, etree.LxmlError):  # e.g. "Unicode strings with encoding declaration are not supported"
        tree = None  # load_html's second parse (from bytes) and its error handling take over
    if tree is not None and len(tree) >= 1 and not (is_dubious_html(beginning) and len(tree) < 2):
        return tree, _too_deep(parser)
    tree = load_html(html)
    return tree, _too_deep(HTML_PARSER)
