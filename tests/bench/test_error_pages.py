"""bench/error_pages.py: httpd's type-maps and includes assembled into whole pages, Squid's codes filled in,
untranslated copies left out, and the corpus splitting the pages by language. Small stand-ins for the two Debian
packages, laid out as they unpack, so that nothing is downloaded."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import quality_corpus
from bench.error_pages import APACHE, SQUID, apache_pages, base_language, squid_pages, type_map

TOP = ('<!--#if expr="-z v(\'CONTENT_LANGUAGE\')"\n--><!--#set var="CONTENT_LANGUAGE" value="en"\n--><!--#endif\n-->'
       '<html lang="<!--#echo var="CONTENT_LANGUAGE" -->"><head><title><!--#echo encoding="none" var="TITLE" -->'
       '</title></head><body><h1><!--#echo encoding="none" var="TITLE" --></h1><p>\n')
BOTTOM = ('</p><p><!--#include virtual="../contact.html.var" --></p><h2>Error <!--#echo encoding="none" '
          'var="REDIRECT_STATUS" --></h2><address><!--#echo var="SERVER_NAME" --></address></body></html>\n')
NOT_FOUND = """Content-language: de
Content-type: text/html; charset=UTF-8
Body:----------de--
<!--#set var="CONTENT_LANGUAGE" value="de"
--><!--#set var="TITLE" value="Objekt nicht gefunden!"
--><!--#include virtual="include/top.html" -->
    Der angeforderte URL konnte auf dem Server nicht gefunden werden.
  <!--#if expr="-n v('HTTP_REFERER')" -->
    Der Link auf der <a href="<!--#echo encoding="url" var="HTTP_REFERER" -->">verweisenden Seite</a> ist falsch.
  <!--#else -->
    Sofern Sie den URL manuell eingegeben haben, überprüfen Sie bitte die Schreibweise.
  <!--#endif -->
<!--#include virtual="include/bottom.html" -->
----------de--

Content-language: en
Content-type: text/html; charset=UTF-8
Body:----------en--
<!--#set var="TITLE" value="Object not found!"
--><!--#include virtual="include/top.html" -->
    The requested URL was not found on this server.
<!--#include virtual="include/bottom.html" -->
----------en--
"""
CONTACT = """Content-language: de
Body:----------de--
Informieren Sie bitte den <a href="mailto:<!--#echo encoding="url" var="SERVER_ADMIN" -->">Webmaster</a>.
----------de--

Content-language: en
Body:----------en--
Please contact the <a href="mailto:<!--#echo encoding="url" var="SERVER_ADMIN" -->">webmaster</a>.
----------en--
"""


def squid_page(title: str, line: str) -> str:
    return (f'<html><head><style type="text/css"><!-- %l --></style><title>{title}</title></head><body id="%c">'
            f'<h1>{title}</h1><p>{line} <a href="%U">%U</a></p><p>%E</p><p>Admin: %w%W</p>'
            "<p>Generated %T by %h (%s)</p></body></html>")


@pytest.fixture()
def packages(tmp_path: Path) -> Path:
    apache = tmp_path / "x" / APACHE[0] / APACHE[1]
    (apache / "include").mkdir(parents=True)
    (apache / "include" / "top.html").write_text(TOP, encoding="utf-8")
    (apache / "include" / "bottom.html").write_text(BOTTOM, encoding="utf-8")
    (apache / "contact.html.var").write_text(CONTACT, encoding="utf-8")
    (apache / "HTTP_NOT_FOUND.html.var").write_text(NOT_FOUND, encoding="utf-8")
    squid = tmp_path / "x" / SQUID[0] / SQUID[1]
    pages = {"en": ("ERROR", "The following error was encountered while trying to retrieve the URL:"),
             "fr": ("ERREUR", "L'erreur suivante s'est produite en essayant d'accéder à l'URL :"),
             "id": ("ERROR", "The following error was encountered while trying to retrieve the URL:")}  # untranslated
    for lang, (title, line) in pages.items():
        (squid / lang).mkdir(parents=True)
        for name in ("ERR_CONNECT_FAIL", "ERR_DNS_FAIL"):
            (squid / lang / name).write_text(squid_page(title, line), encoding="utf-8")
    (squid / "templates").mkdir()
    (squid / "templates" / "ERR_DNS_FAIL").write_text(squid_page("ERROR", "template"), encoding="utf-8")
    (squid / "de-at").symlink_to(squid / "fr")  # the package's aliases are links
    return tmp_path


def test_a_type_map_gives_one_body_per_language() -> None:
    bodies = type_map(NOT_FOUND)
    assert sorted(bodies) == ["de", "en"]
    assert "nicht gefunden" in bodies["de"] and "not found" in bodies["en"]


def test_apache_pages_are_assembled_as_httpd_includes_them(packages: Path) -> None:
    pages = {p.lang: p for p in apache_pages(packages)}
    assert sorted(pages) == ["de", "en"]
    de = pages["de"].html
    assert '<html lang="de">' in de  # the page's own language, not top.html's default
    assert "<title>Objekt nicht gefunden!</title>" in de and "<h2>Error 404</h2>" in de
    assert "Informieren Sie bitte den" in de and "webmaster@www.http-not-found-de.example" in de  # contact, in German
    assert "<!--#" not in de and "Please contact" not in de
    # one branch of the referrer conditional, never both
    assert ("verweisenden Seite" in de) != ("manuell eingegeben" in de)
    assert pages["de"].name == "HTTP_NOT_FOUND" and pages["de"].source == "apache"


def test_squid_pages_have_their_codes_filled_and_untranslated_copies_left_out(packages: Path) -> None:
    pages = list(squid_pages(packages))
    assert sorted({p.lang for p in pages}) == ["en", "fr"]  # id is English; templates and links are not languages
    fr = next(p for p in pages if p.lang == "fr" and p.name == "ERR_DNS_FAIL").html
    assert "%U" not in fr and "%w" not in fr and "%" not in fr.replace("100%", "")
    assert 'href="http://www.example.com/products/item-4711"' in fr and 'body id="ERR_DNS_FAIL"' in fr
    assert "(110) Connection timed out" in fr and "squid/5.7" in fr


def test_the_corpus_splits_error_pages_by_language(packages: Path) -> None:
    items = list(quality_corpus.error_items(packages))
    assert {i.family for i in items} == {"errors.apache", "errors.squid"}
    assert all(i.label == 0 for i in items)
    assert len({i.url.split("/")[2] for i in items}) == len(items)  # a host of its own for every page
    splits: dict[str, set[str]] = {}
    for item in items:
        lang = item.url.split("/")[2].split("-")[1]
        splits.setdefault(base_language(lang), set()).add(item.split)
    assert all(len(s) == 1 for s in splits.values())
    assert base_language("pt-br") == "pt" and base_language("zh-hans") == "zh"
