"""bench/quality_corpus.py's handbook pages: a translated section keeps its own language's paragraphs only."""

from __future__ import annotations

import lxml.html

from bench.quality_corpus import HANDBOOK_MIN_PARAGRAPHS, translated

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
