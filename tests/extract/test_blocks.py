from __future__ import annotations

from pathlib import Path

import pytest

from extract.blocks import assemble, page_blocks, page_title

FIXTURES = Path(__file__).parent / "llm_fixtures"
ARTICLE = (FIXTURES / "article.html").read_text("utf-8")


def test_article_blocks_in_page_order_with_kinds():
    blocks = page_blocks(ARTICLE)
    assert [b.index for b in blocks] == list(range(len(blocks)))
    by_text = {b.text: b.kind for b in blocks}
    assert by_text["Night trains return to the Alps"] == "h1"
    assert by_text["Demand beyond expectations"] == "h2"
    assert by_text["Departure from Amsterdam Centraal at 19:58"] == "li"
    assert by_text["Class | Fare"] == "tr" and by_text["Couchette | 99 EUR"] == "tr"
    texts = [b.text for b in blocks]
    assert texts.index("Night trains return to the Alps") < texts.index("Demand beyond expectations")
    assert texts[-1] == "Privacy policy | Terms of use"  # footers stay: the model decides about them
    assert "We use cookies to improve your experience. Accept all cookies?" in texts


def test_invisible_and_navigation_markup_is_dropped():
    blocks = page_blocks(ARTICLE)
    joined = " ".join(b.text for b in blocks)
    for gone in ("analytics", "font-family", "Subscribe", "Rail Weekly</title>"):
        assert gone not in joined
    html = """<html><body><p>shown</p><div hidden>h1dden</div><p style="display: none">h2dden</p>
    <span aria-hidden="true">h3dden</span><p style="color:red; visibility:hidden">h4dden</p>
    <div role="navigation">menu</div><template><p>tmpl</p></template><noscript>enable js</noscript>
    <p>after <!-- a comment --> comment</p></body></html>"""
    assert [b.text for b in page_blocks(html)] == ["shown", "after comment"]


def test_loose_text_and_inline_markup():
    html = "<div>lead <b>bold</b> text<p>Para <i>one</i><br>line two</p>tail</div>"
    assert [(b.kind, b.text) for b in page_blocks(html)] == [
        ("div", "lead bold text"), ("p", "Para one line two"), ("div", "tail")]


def test_nested_lists_and_layout_tables():
    html = """<ul><li>first<ul><li>nested</li></ul></li><li>second</li></ul>
    <table><tr><td><p>layout cell paragraph</p></td><td>loose cell</td></tr></table>"""
    assert [(b.kind, b.text) for b in page_blocks(html)] == [
        ("li", "first"), ("li", "nested"), ("li", "second"), ("p", "layout cell paragraph"), ("td", "loose cell")]


def test_pre_keeps_its_lines():
    (block,) = page_blocks("<body><pre>def f():\n    return 1   \n</pre></body>")
    assert block.kind == "pre" and block.text == "def f():\n    return 1"


def test_long_blocks_are_split_at_whitespace_without_losing_text():
    words = " ".join(f"word{i}" for i in range(600))
    blocks = page_blocks(f"<p>{words}</p>", max_chars=500)
    assert len(blocks) > 1 and all(len(b.text) <= 500 for b in blocks)
    assert " ".join(b.text for b in blocks) == words


def test_deeply_nested_markup_does_not_recurse():
    # Deeper than Python's recursion limit; libxml2 keeps up to 2048 levels with huge_tree.
    html = "<div>" * 1500 + "deep text" + "</div>" * 1500 + "<p>after</p>"
    assert [b.text for b in page_blocks(html)] == ["deep text", "after"]
    # Past libxml2's limit the parser gives up on the deep part, quietly and quickly.
    assert isinstance(page_blocks("<div>" * 50000 + "x" + "</div>" * 50000), list)


@pytest.mark.parametrize("html", ["", "   ", b"", "<html></html>", "<!-- only a comment -->"])
def test_empty_pages_give_no_blocks(html):
    assert page_blocks(html) == []


def test_bytes_with_declared_charset_and_str_with_xml_declaration():
    raw = '<html><head><meta charset="iso-8859-1"></head><body><p>Caf\xe9 cr\xe8me</p></body></html>'
    assert page_blocks(raw.encode("iso-8859-1"))[0].text == "Café crème"
    xml = '<?xml version="1.0" encoding="utf-8"?><html><body><p>Stra\u00dfe</p></body></html>'
    assert page_blocks(xml)[0].text == "Straße"


def test_assemble_uses_page_order_and_markdown_for_headings_and_items():
    blocks = page_blocks("<h2>Title</h2><p>one</p><ul><li>item</li></ul><p>two</p>")
    assert assemble(blocks, [3, 0, 2, 0]) == "## Title\n- item\ntwo"
    assert assemble(blocks, []) == ""


def test_page_title():
    assert page_title(ARTICLE) == "Night trains return to the Alps | Rail Weekly"
    assert page_title("<p>no head</p>") is None


def test_max_chars_is_validated():
    with pytest.raises(ValueError, match="max_chars"):
        page_blocks("<p>x</p>", max_chars=5)
