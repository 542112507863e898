"""crawler/page_text.py: the visible text that render detection and the frontier share."""

from __future__ import annotations

from unittest import mock

from lxml import html as lxml_html
from scrapy import Request
from scrapy.http import HtmlResponse

from crawler import page_text as page_text_module
from crawler.page_text import MAX_TEXT_CHARS, page_text, page_tree, tree_text


def _html(body: str, url: str = "https://a.example/") -> HtmlResponse:
    return HtmlResponse(url=url, body=body.encode(), encoding="utf-8", request=Request(url))


PAGE = ("<html><head><title>T</title><script>var head=1</script></head><body><p>Knead the <b>dough</b>   well"
        "</p><script>var body=2</script><!-- note --> then<style>.x{}</style><noscript>enable js</noscript>"
        "<iframe>fallback</iframe><svg><text>chart</text></svg><template>later</template>\n\n bake</body></html>")


def test_visible_text_skips_what_no_reader_sees_and_collapses_whitespace() -> None:
    assert page_text(_html(PAGE)) == "Knead the dough well then bake"
    assert tree_text(lxml_html.document_fromstring(PAGE)) == "Knead the dough well then bake"


def test_text_is_capped() -> None:
    long = _html("<p>" + "word " * 10_000 + "</p>")
    assert len(page_text(long)) == MAX_TEXT_CHARS
    assert len(tree_text(page_tree(long), max_chars=500)) == 500


def test_computed_once_per_response_from_scrapys_own_tree() -> None:
    response = _html(PAGE)
    assert page_tree(response) is response.selector.root  # the parse link extraction uses too
    with mock.patch.object(page_text_module, "tree_text", wraps=tree_text) as walk:
        first, second = page_text(response), page_text(response)
        page_text(_html(PAGE))
    assert first == second and walk.call_count == 2  # once for each response, not each caller


def test_empty_or_unreadable_body_has_no_text() -> None:
    assert page_text(_html("")) == ""
    unreadable = _html(PAGE)
    with mock.patch.object(HtmlResponse, "selector", new=property(lambda self: 1 / 0)):
        assert page_tree(unreadable) is None and page_text(unreadable) == ""
