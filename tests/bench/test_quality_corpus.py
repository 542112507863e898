"""bench/quality_corpus.py's handbook pages: a translated section keeps its own language's paragraphs only. Its chrome
pages: a page's main content blanked, its navigation, footer and forms left as they were."""

from __future__ import annotations

import lxml.html

from bench.quality_corpus import _TOKEN, HANDBOOK_MIN_PARAGRAPHS, blank_content, translated

SPANISH = [f"El paquete número {i} se instala con apt install y se configura en el archivo /etc/apt/sources.list."
           for i in range(10)]
ENGLISH = ["The aim of the apt update command is to download for each package source the corresponding file, "
           "and this is done with the help of a mirror that is close to the user."]


def section(paragraphs: list[str]) -> bytes:
    body = "".join(f'<div class="para">{p}</div>' for p in paragraphs)
    return f"<html><head><title>t</title></head><body><div class=\"section\">{body}</div></body></html>".encode()


def parse(html: bytes) -> lxml.html.HtmlElement:
    return lxml.html.fromstring(html, parser=lxml.html.HTMLParser(encoding="utf-8"))


def paragraphs(html: bytes) -> list[str]:
    return [p.text_content() for p in parse(html).xpath('//div[@class="para"]')]


def test_english_paragraphs_left_in_a_translation_are_taken_out() -> None:
    out = translated(section(SPANISH[:5] + ENGLISH + SPANISH[5:]))
    assert out is not None
    kept = paragraphs(out)
    assert kept == SPANISH  # every Spanish paragraph, in order, and no English one


def test_a_section_mostly_in_english_or_too_short_is_not_a_translation() -> None:
    assert translated(section(SPANISH[:3] + ENGLISH * 6)) is None  # most of the text is English
    assert translated(section(SPANISH[:HANDBOOK_MIN_PARAGRAPHS - 1])) is None  # too few paragraphs
    assert translated(section(SPANISH[:HANDBOOK_MIN_PARAGRAPHS])) is not None


def test_a_wrapper_of_paragraphs_is_judged_by_its_paragraphs() -> None:
    inner = "".join(f"<p>{p}</p>" for p in SPANISH)
    html = f'<html><body><div class="para">{inner}</div><div class="para">{ENGLISH[0]}</div></body></html>'
    out = translated(html.encode())
    assert out is not None
    text = parse(out).text_content()
    assert all(p in text for p in SPANISH) and ENGLISH[0] not in text


PAGE = """<html><head><title>Soup of the day</title></head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/recipes">Recipes</a></li><li><a href="/about">About us</a></li>
</ul></nav>
<article><h1>Tomato soup with <em>fresh basil</em></h1>
<p>Simmer the tomatoes with the onion for twenty minutes, then blend the soup until smooth.</p>
<img src="/soup.jpg" alt="A bowl of tomato soup with basil"><img src="/logo.png" alt="Example Kitchen logo"></article>
<footer><p>Sign up for our newsletter</p><a href="/privacy">Privacy policy</a></footer></body></html>"""
GOLD = ("Tomato soup with fresh basil. Simmer the tomatoes with the onion for twenty minutes, then blend the soup "
        "until smooth. A bowl of tomato soup with basil")


def test_a_chrome_page_keeps_the_navigation_and_footer_and_loses_the_content() -> None:
    out = blank_content(PAGE.encode(), {t.lower() for t in _TOKEN.findall(GOLD)})
    assert out is not None
    root = parse(out)
    text = " ".join(root.text_content().split())
    for kept in ("Home", "Recipes", "About us", "Sign up for our newsletter", "Privacy policy", "Soup of the day"):
        assert kept in text
    for gone in ("Simmer", "Tomato soup with", "fresh basil"):
        assert gone not in text
    # the links stay links, the content's figure goes with it, the logo stays
    assert [a.get("href") for a in root.xpath("//a")] == ["/", "/recipes", "/about", "/privacy"]
    assert [img.get("alt") for img in root.xpath("//img")] == ["Example Kitchen logo"]


def test_a_page_lxml_cannot_parse_gives_no_chrome_page() -> None:
    assert blank_content(b"", {"soup"}) is None
