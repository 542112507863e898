"""Real error pages in many languages, as web servers and proxies serve them: negatives for the quality step that no
one here wrote.

- ``apache``: Apache httpd's multi-language error documents (Debian's ``apache2-data``,
  ``usr/share/apache2/error/*.html.var``, Apache-2.0): 17 HTTP errors in 21 languages, each a type-map of one body per
  language, assembled as httpd's server-side includes assemble them (``include/top.html``, the body with the
  referrer branch or the other, ``contact.html.var``, ``include/bottom.html``).
- ``squid``: Squid's error pages (Debian's ``squid-langpack``, ``usr/share/squid-langpack/<lang>/ERR_*``, GPL-2+):
  42 proxy errors in 45 languages, the ``%`` codes filled in as Squid fills them (the URL, the host, the cache
  administrator, a time, a system message).

A page an error page is served on is a page of a site with good pages too, so every page gets a host of its own here
(the host-level stages see one page of it, as they would see a site's one soft 404 among its good pages). A language
a translation left in English (a page whose text equals the English page's) is not counted again under that language.

    from bench.error_pages import error_pages
    for page in error_pages(cache): page.source, page.lang, page.name, page.html
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.debs import package_folder

APACHE = ("apache2-data", "usr/share/apache2/error")
SQUID = ("squid-langpack", "usr/share/squid-langpack")
SQUID_PER_LANGUAGE = 20
_SECTION = re.compile(r"Content-language:\s*(\S+)\s*\n(?:[^\n]*\n)*?Body:(-+[\w-]+--)\n(.*?)\n\2", re.DOTALL)
_SET = re.compile(r'<!--#set var="(\w+)" value="([^"]*)"\s*-->', re.DOTALL)
_ECHO = re.compile(r'<!--#echo (?:encoding="\w+" )?var="(\w+)"\s*-->')
_INCLUDE = re.compile(r'<!--#include virtual="([^"]+)"\s*-->')
# httpd's conditionals: the referrer branch and its else; ``top.html`` opens with one on CONTENT_LANGUAGE
_IF = re.compile(r"<!--#if expr=\"[^\"]*\"\s*-->(.*?)(?:<!--#else\s*-->(.*?))?<!--#endif\s*-->", re.DOTALL)
_SQUID_CODE = re.compile(r"%([a-zA-Z%])")
# The status an Apache page reports ("Error 404"); the other documents' statuses are drawn per page from the common
# ones (a full table would be more faithful: it would change the pages the shipped model was trained on).
_STATUS = {"HTTP_NOT_FOUND": "404", "HTTP_FORBIDDEN": "403", "HTTP_INTERNAL_SERVER_ERROR": "500"}


@dataclass(frozen=True)
class ErrorPage:
    source: str  # apache or squid
    lang: str  # the language the page is written in, as its package names it (``pt-br``, ``zh-hans``)
    name: str  # the error (``HTTP_NOT_FOUND``, ``ERR_CONNECT_FAIL``)
    html: str


def type_map(text: str) -> dict[str, str]:
    """The bodies of an httpd type-map (``*.html.var``) by language."""
    return {m.group(1).strip().lower(): m.group(3) for m in _SECTION.finditer(text)}


def _ssi(text: str, env: dict[str, str], folder: Path, lang: str, referrer: bool) -> str:
    """``text`` with httpd's includes done: variables set and echoed, conditionals resolved (a referrer or not),
    other files included (a type-map in the page's language)."""
    def include(m: re.Match[str]) -> str:
        path = folder / m.group(1).removeprefix("../")  # top.html and bottom.html include ../contact.html.var
        body = path.read_text(encoding="utf-8")
        if path.name.endswith(".var"):
            body = type_map(body).get(lang, "")
        return _ssi(body, env, folder, lang, referrer)

    def branch(m: re.Match[str]) -> str:
        if "CONTENT_LANGUAGE" in m.group(0)[:60]:
            return ""  # top.html's default language: the page has set its own
        return m.group(1) if referrer else m.group(2) or ""

    text = _IF.sub(branch, text)
    for name, value in _SET.findall(text):
        env[name] = value
    text = _INCLUDE.sub(include, _SET.sub("", text))
    return _ECHO.sub(lambda m: env.get(m.group(1), ""), text)


def apache_pages(cache: Path) -> Iterator[ErrorPage]:
    folder = package_folder(*APACHE, cache)
    for path in sorted(folder.glob("HTTP_*.html.var")):
        name = path.name.removesuffix(".html.var")
        for lang, body in type_map(path.read_text(encoding="utf-8")).items():
            rng = random.Random(f"apache/{lang}/{name}")
            host = f"www.{name.lower().replace('_', '-')}-{lang}.example"
            env = {"CONTENT_LANGUAGE": lang, "SERVER_ADMIN": f"webmaster@{host}", "SERVER_NAME": host,
                   "SERVER_SOFTWARE": "Apache/2.4.62 (Debian)", "HTTP_REFERER": f"https://{host}/",
                   "REDIRECT_STATUS": _STATUS.get(name, str(rng.choice((400, 403, 404, 500, 503)))),
                   "REQUEST_URI": "/news/2024/archive.html", "REDIRECT_REQUEST_METHOD": "GET",
                   "REDIRECT_URL": "/news/2024/archive.html"}
            yield ErrorPage("apache", lang, name, _ssi(body, env, folder, lang, rng.random() < 0.5))


def squid_pages(cache: Path) -> Iterator[ErrorPage]:
    root = package_folder(*SQUID, cache)
    english = {p.name: _text(p.read_text(encoding="utf-8", errors="replace")) for p in (root / "en").glob("ERR_*")}
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.is_symlink() and p.name != "templates"):
        for path in sorted(folder.glob("ERR_*")):
            raw = path.read_text(encoding="utf-8", errors="replace")
            if folder.name != "en" and _text(raw) == english.get(path.name):
                continue  # not translated
            host = f"proxy-{folder.name}-{path.name.lower().replace('_', '-')}.example"
            codes = {"U": "http://www.example.com/products/item-4711", "w": f"webmaster@{host}", "W": "",
                     "h": host, "T": "Tue, 12 Mar 2024 09:41:07 GMT", "s": "squid/5.7", "c": path.name, "l": "",
                     "E": "(110) Connection timed out", "I": "203.0.113.8", "i": "198.51.100.23",
                     "H": "www.example.com", "M": "GET", "P": "http", "u": "http://www.example.com/",
                     "z": "www.example.com", "g": "-", "f": "-", "F": "-", "b": "3128", "R": "", "B": "",
                     "x": "", "Z": "", "D": "", "%": "%"}
            html = _SQUID_CODE.sub(lambda m, codes=codes: codes.get(m.group(1), ""), raw)
            yield ErrorPage("squid", folder.name, path.name, html)


_TAG = re.compile(r"<[^>]+>|%\w")


def _text(html: str) -> str:
    return " ".join(_TAG.sub(" ", html).split())


def base_language(lang: str) -> str:
    """The language a page counts under for splitting (``pt-br`` -> ``pt``, ``zh-hans`` -> ``zh``,
    ``sr-latn`` -> ``sr``)."""
    return lang.split("-", 1)[0]


def error_pages(cache: Path, squid_per_language: int = SQUID_PER_LANGUAGE) -> Iterator[ErrorPage]:
    """Every Apache page and a fixed sample of ``squid_per_language`` Squid pages a language (its 42 errors would
    outweigh Apache's 17), the packages fetched into ``cache`` once (bench/debs.py)."""
    yield from apache_pages(cache)
    by_lang: dict[str, list[ErrorPage]] = {}
    for page in squid_pages(cache):
        by_lang.setdefault(page.lang, []).append(page)
    for lang, pages in by_lang.items():
        keep = random.Random(f"squid/{lang}").sample(pages, min(squid_per_language, len(pages)))
        yield from sorted(keep, key=lambda p: p.name)
