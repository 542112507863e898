from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from trafilatura.utils import load_html

from extract import extract_page
from extract.metadata import iso_date, page_metadata

FIXTURES = Path(__file__).parent / "fixtures"
TODAY = date(2025, 3, 1)


def meta_of(head: str, body: str = "<p>Some text of the page.</p>", url: str | None = "https://news.example/a/1"):
    html = f"<!DOCTYPE html><html><head>{head}</head><body>{body}</body></html>"
    return page_metadata(load_html(html), url, today=TODAY)


def test_meta_tags_give_every_field() -> None:
    meta = meta_of(
        '<title>Ignored | Site</title><meta property="og:title" content="Tide  turns  early">'
        '<meta name="author" content="By Ana Ruiz"><meta property="article:published_time" content="2024-05-14T08:00Z">'
        '<meta name="application-name" content="Backup name"><meta property="og:site_name" content="Coast News">'
        '<link rel="alternate" href="/feed"><link rel="canonical" href="/a/tide-turns">')
    assert (meta.title, meta.author, meta.date, meta.sitename) == (
        "Tide turns early", "Ana Ruiz", "2024-05-14", "Coast News")
    assert meta.canonical_url == "https://news.example/a/tide-turns"


def test_json_ld_overrides_meta_tags_and_skips_organisations_as_authors() -> None:
    json_ld = ('<script type="application/ld+json">{"@context": "https://schema.org", "@graph": ['
               '{"@type": "WebSite", "name": "Graph Site"},'
               '{"@type": "NewsArticle", "headline": "Storm &#8211; the night the pier fell",'
               ' "author": [{"@type": "Person", "name": "Ana Ruiz"}, {"@type": "Organization", "name": "Wire Agency"},'
               ' {"@type": "Person", "name": "Tom Lee"}],'
               ' "datePublished": "2023-11-02T22:10:00-05:00", "publisher": {"@type": "Organization", "name": "Coast"}}'
               ']}</script>')
    meta = meta_of(f'<meta property="og:title" content="Meta title"><meta name="author" content="Meta Author">'
                   f'<meta property="article:published_time" content="2020-01-01">{json_ld}')
    assert meta.title == "Storm – the night the pier fell"
    assert meta.author == "Ana Ruiz; Tom Lee"
    assert meta.date == "2023-11-02"
    assert meta.sitename == "Coast"


def test_malformed_json_ld_leaves_the_meta_tags() -> None:
    meta = meta_of('<meta property="og:title" content="Meta title">'
                   '<script type="application/ld+json">{"@type": "Article", "headline": </script>')
    assert meta.title == "Meta title"


def test_fallbacks_title_tag_byline_time_and_host() -> None:
    body = ('<h1>First</h1><h1>Second</h1><p class="byline">By Jane Doe and Max Mustermann Published 2:16 AM</p>'
            '<time datetime="2022-02-03T10:00" pubdate>Feb 3</time><p>Text.</p>')
    meta = meta_of("<title>The pier reopens | Coast News</title>", body, url="https://www.coast.example/x")
    assert meta.title == "The pier reopens"
    assert meta.author == "Jane Doe; Max Mustermann"
    assert meta.date == "2022-02-03"
    assert meta.sitename == "coast.example"


@pytest.mark.parametrize(("markup", "author"), [
    ('<a rel="author" href="/people/1">Ana Ruiz</a>', "Ana Ruiz"),
    ('<span itemprop="author"><span itemprop="name">Ana Ruiz</span> (Lisbon)</span>', "Ana Ruiz"),
    ('<div class="meta post-author-box">Ana Ruiz</div>', "Ana Ruiz"),
    ('<div class="author">Ana Ruiz</div>', "Ana Ruiz"),
    ('<div class="authors">Ana Ruiz</div>', None),  # "author" only as the whole class, as the XPath had it
    ('<div id="story-byline-2">Ana Ruiz</div>', "Ana Ruiz"),
    ('<a href="https://news.example/author/ana-ruiz">Ana Ruiz</a>', "Ana Ruiz"),
    ('<div data-x="1">Ana Ruiz</div><a class="byline">admin</a><span class="author_name">Tom Lee</span>', "Tom Lee"),
])
def test_byline_markup_in_document_order_skipping_handles(markup: str, author: str | None) -> None:
    meta = meta_of("<title>T</title>", f"<h1>H</h1>{markup}<p>Text of the page.</p>")
    assert meta.author == author


def test_single_h1_is_the_title_and_handles_are_not_authors() -> None:
    meta = meta_of('<title>Long page title - Site</title><meta name="author" content="admin">'
                   '<meta name="twitter:site" content="@coastnews">', "<h1>The headline</h1><p>Text.</p>")
    assert meta.title == "The headline"
    assert meta.author is None
    assert meta.sitename == "Coastnews"  # a lower-case handle is title-cased, as trafilatura does


def test_iso_date_bounds_and_formats() -> None:
    assert iso_date("2024/5/4", TODAY) == "2024-05-04"
    assert iso_date("20240504T0800", TODAY) == "2024-05-04"
    assert iso_date("2031-01-01", TODAY) is None  # after today
    assert iso_date("1990-01-01", TODAY) is None  # before htmldate's 1995 floor
    assert iso_date("2024-02-30", TODAY) is None
    assert iso_date("yesterday", TODAY) is None


def test_modified_date_only_when_no_publication_date() -> None:
    meta = meta_of('<meta property="article:modified_time" content="2024-06-01">')
    assert meta.date == "2024-06-01"
    meta = meta_of('<meta property="article:modified_time" content="2024-06-01">'
                   '<meta name="citation_publication_date" content="2024/05/30">')
    assert meta.date == "2024-05-30"


@pytest.mark.parametrize("name", ["article_images.html", "tables.html"])
def test_furniture_added_to_a_page_stays_out(name: str) -> None:
    """Scripts, styles, SVG, templates, navigation, buttons, asides and footers added to a page stay out of its text
    with both selectors (stripped before the blocks are cut, or left out by the choice of blocks); trafilatura's
    choice is the same as without them, and the model's keeps every paragraph it kept (a block near its threshold,
    a caption or a small table, may go either way: the page's features moved)."""
    html = (FIXTURES / name).read_text(encoding="utf-8")
    noisy = html.replace("<body>", "<body><script>var p = '<p>not text</p>';</script><style>p{}</style>"
                         "<svg><text>drawn label</text></svg><template><p>later</p></template>"
                         "<nav><ul><li><a href='/a'>Menu entry one</a></li></ul></nav><button>Subscribe now</button>"
                         "<aside><p>Aside about something else entirely.</p></aside>", 1)
    noisy = noisy.replace("</body>", "<footer><p>Footer words and more footer words.</p></footer></body>", 1)
    for selector in ("model", "trafilatura"):
        clean = extract_page(html, "https://river.example/p", selector=selector, time_limit_s=None).document
        doc = extract_page(noisy, "https://river.example/p", selector=selector, time_limit_s=None).document
        if selector == "trafilatura":
            assert doc.text == clean.text
        else:
            paragraphs = [line for line in clean.text.split("\n\n") if len(line) > 100 and not line.startswith("|")]
            assert paragraphs and all(p in doc.text for p in paragraphs)
        for absent in ("drawn label", "not text", "Menu entry", "Subscribe", "Aside about", "Footer words"):
            assert absent not in doc.text


def test_speed_setting_extracts_the_article() -> None:
    html = (FIXTURES / "article_images.html").read_text(encoding="utf-8")
    doc, pairs, _ = extract_page(html, "https://river.example/p", selector="trafilatura", fast=True,
                                 time_limit_s=None)
    assert "Eurasian otters have been recorded" in doc.text
    assert "Holiday cottages" not in doc.text
    assert len(pairs) == 3
