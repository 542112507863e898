"""extract/parse.py gives the tree trafilatura's own ``load_html`` gives, with C-picked element classes."""

from __future__ import annotations

import gzip
import threading
from pathlib import Path

import lxml.html
import pytest
import trafilatura
from lxml import etree
from trafilatura.utils import load_html, repair_faulty_html

from extract.core import PRESTRIPPED
from extract.parse import parse_html, repair
from pipelines.readers.charset import decode_html
from tests.conftest import needs_shared

FIXTURES = Path(__file__).parent / "fixtures"
BENCH = Path(__file__).parents[3] / "shared" / "data" / "extraction_bench"
PAGES = sorted(FIXTURES.glob("*.html")) + sorted((Path(__file__).parent / "llm_fixtures").glob("*.html"))


def _same(html: str) -> None:
    ours, _ = parse_html(html)
    theirs = load_html(html)
    if theirs is None:
        assert ours is None
        return
    assert ours is not None
    assert etree.tostring(ours, encoding="unicode") == etree.tostring(theirs, encoding="unicode")


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_fixture_pages_parse_to_load_htmls_tree_and_text(path: Path) -> None:
    html = decode_html(path.read_bytes(), None).text
    _same(html)
    texts = []
    for tree in (parse_html(html)[0], load_html(html)):
        etree.strip_elements(tree, *PRESTRIPPED, with_tail=False)
        result = trafilatura.bare_extraction(tree, favor_precision=True, include_formatting=True,
                                             with_metadata=False)
        texts.append(result.text if result is not None else None)
    assert texts[0] == texts[1]


@pytest.mark.parametrize("html", [
    "<html><body><form><input name=q><label>Find</label><select><option>a</option></select></form>"
    "<p>Text after a form.</p></body></html>",
    "<!DOCTYPE html>\n<html><head><title>T</title></head><body><p>x &amp; y</p></body></html>",
    '<?xml version="1.0" encoding="utf-8"?>\n<html><body><p>An XML declaration: lxml refuses it in a str</p>'
    "</body></html>",  # load_html's second parse, from bytes
    "<p>a fragment alone</p>",  # no "html" near the start and one child: load_html rejects it
    "<div><p>two</p></div><div><p>blocks</p></div>",
    "<html/>\n<body><p>self-closed html tag</p></body>",  # repair_faulty_html's case
    "plain text, no markup at all",
    "<!-- only a comment -->",  # nothing left after comments are removed: lxml raises, load_html copes
    "<html><body>\x00\x0bcontrol characters</body></html>",
    # past REPAIR_SPAN: the repairs near the start, with and without a forbidden character further on
    "<!DOCTYPE html PUBLIC />\n<html><body><p>" + "long page, " * 2_000 + "</p>\n<p>end</p></body></html>",
    "<!DOCTYPE html PUBLIC />" + "<html><body><p>" + "one line only, " * 2_000 + "</p></body></html>",
    "<!doctype html/>\n<body>\n<p>x</p>\n<html lang=en/>\n" + "<p>filler line</p>\n" * 1_000,
    "<html><body>\n" + "<p>text line</p>\n" * 1_000 + "<p>late \ufffe and \x1f</p>\n</body></html>",
    "<html><body><pre>\n" + "x" * 8_191 + "\n\ny\n</pre></body></html>",  # a line break right at the cut
])
def test_odd_inputs_come_out_as_load_html_has_them(html: str) -> None:
    _same(html)


def test_repair_gives_repair_faulty_htmls_string() -> None:
    filler = "<p>line</p>\n" * 1_500
    for html in ("<!DOCTYPE html SYSTEM />\n" + filler, "<!DOCTYPE html SYSTEM />" + "<p>x</p>" * 3_000,
                 "<!DOCTYPE html SYSTEM />" + "<p>x</p>" * 2_000 + "\n" + filler,  # a first line past the span
                 "<html/>\n" + filler, "a\nb\nc\n<html x=1 />\n" + filler, filler + "\x00" + filler,
                 filler + "\uffff", "x" * 8_192 + "\n" + filler, "\n" * 9_000 + "<html/>"):
        beginning = html[:50].lower()
        assert repair(html, beginning) == repair_faulty_html(html, beginning)


@needs_shared("extraction_bench", "html")
def test_benchmark_pages_parse_to_load_htmls_tree() -> None:
    pages = sorted((BENCH / "html").glob("*.html.gz"))
    assert len(pages) == 60
    for path in pages:
        _same(decode_html(gzip.decompress(path.read_bytes()), None).text)


def test_elements_get_lxml_html_classes_from_the_c_lookup() -> None:
    tree, truncated = parse_html("<html><body><form><input name=q></form><p>x</p></body></html>")
    assert not truncated
    # every element is a plain HtmlElement (no Python lookup: no FormElement/InputElement)
    assert {type(el) for el in tree.iter(etree.Element)} == {lxml.html.HtmlElement}
    assert tree.find(".//p").text_content() == "x"


def test_nesting_past_libxml2s_limit_is_reported_as_truncated() -> None:
    deep = "<html><body><p>before</p>" + "<div>" * 400 + "x" + "</div>" * 400 + "</body></html>"
    tree, truncated = parse_html(deep)
    assert truncated and tree is not None
    assert not parse_html("<html><body><p>shallow</p></body></html>")[1]


def test_threads_each_parse_with_their_own_parser() -> None:
    pages = [f"<html><body><p>page {i}</p>{'<div><span>filler</span></div>' * 2000}</body></html>"
             for i in range(8)]
    results: dict[int, str] = {}

    def work(i: int) -> None:
        for _ in range(5):
            tree, _ = parse_html(pages[i])
            results[i] = tree.find(".//p").text

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {i: f"page {i}" for i in range(8)}
