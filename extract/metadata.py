"""Page metadata (title, author, date, site name, canonical URL) from one walk over the parsed tree.

trafilatura's metadata functions cost about 5 ms a page on ../shared/data/extraction_bench (cProfile),
almost all of it in the author fallback, which deep-copies the whole page to prune it; this module
reads the same sources without copying anything, in one ``tree.iter`` over the few tags that carry
metadata (``<meta>``, ``<link>``, ``<script type=application/ld+json>``, ``<title>``, ``<h1>``,
``<time>``) plus one lazy walk for a byline when no tag names the author: about 0.9 ms a page instead of
4.8 ms (per-stage timing on the same pages).

Precedence (the order trafilatura's ``extract_metadata`` uses): ``<meta>`` tags first, then JSON-LD
(schema.org ``headline``/``name``, ``author``, ``datePublished``, ``publisher``), which overrides them;
then the fallbacks:

- title: a page's only ``<h1>``; else the ``<title>`` minus a " | Site name" style part; else the first ``<h1>``;
- author: byline markup (``rel=author``, ``itemprop=author``, a ``byline``/``author`` class), at most
  120 characters (trafilatura's ``len_limit``); a single token is a handle, not a name (trafilatura's rule);
- date: ``<time datetime>`` marked as the publication date, then the ``article:modified_time`` /
  ``dateModified`` family, then htmldate without extensive search (htmldate's fast mode; it runs only
  when the page declares no date, on about a tenth of the benchmark pages); never after today and
  never before 1995 (htmldate's default bounds);
- site name: ``og:site_name`` (or JSON-LD's publisher / WebSite name), then ``application-name``,
  ``twitter:site`` (without its ``@``) and the other publisher tags (not URLs), then the URL's host
  (as trafilatura does).

Where it differs from trafilatura's metadata (60 benchmark pages: title, author, date, site name agree on
45/38/56/54 of 60, canonical 60/60): titles come from the page's own headline tags rather than the
``<h1>`` first; dates are the declared publication date rather than a date in the URL (which can be a
day earlier in UTC); bylines that run into a date or an agency name are cut at the date.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date as Date
from urllib.parse import urljoin

from lxml import etree

_TITLE_META = frozenset({"og:title", "twitter:title", "citation_title", "dc.title", "dcterms.title", "headline",
                         "parsely-title", "sailthru.title", "title"})
_AUTHOR_META = frozenset({"author", "article:author", "authors", "byl", "citation_author", "dc.creator",
                          "dc:creator", "dcterms.creator", "parsely-author", "sailthru.author", "og:article:author",
                          "twitter:creator:name", "cxenseparse:author"})
_SITE_META = frozenset({"og:site_name"})  # the declared site name beats the other site-ish tags
_SITE_BACKUP_META = frozenset({"application-name", "article:publisher", "dc.publisher", "dc:publisher",
                        "dcterms.publisher", "publisher", "citation_journal_title", "twitter:site"})
_PUBLISHED_META = frozenset({"article:published_time", "og:published_time", "og:article:published_time",
                             "article.published", "datepublished", "date", "pubdate", "publishdate", "publish-date",
                             "publish_date", "dc.date", "dc.date.issued", "dc.date.created", "dcterms.created",
                             "dcterms.issued", "dcterms.date", "citation_publication_date", "citation_date",
                             "parsely-pub-date", "sailthru.date", "article:published", "originalpublicationdate",
                             "date.published", "published-date", "published_time", "rnews:datepublished"})
_MODIFIED_META = frozenset({"article:modified_time", "og:updated_time", "datemodified", "last-modified",
                            "dc.date.modified", "dcterms.modified", "lastmod"})
_ARTICLE_TYPES = re.compile(r"article|posting|report|newsarticle|webpage|story|review|recipe|blog", re.IGNORECASE)
_ISO_DATE = re.compile(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})")
_COMPACT_DATE = re.compile(r"^(\d{4})(\d{2})(\d{2})(?:\D|$)")
_TITLE_SEP = re.compile(r"\s+[|–—·•:»-]\s+")
_BY_PREFIX = re.compile(r"^(?:written\s+|analysis\s+|story\s+|text\s+)?by[:\s]+", re.IGNORECASE)
# a byline runs on into its date ("Jane Doe Published 2:16 AM ...", "Jane Doe Monday, November 18"): cut there
_BYLINE_END = re.compile(r"\s*(?:\d|\b(?:published|updated|posted|on|monday|tuesday|wednesday|thursday|friday|"
                         r"saturday|sunday)\b).*$", re.IGNORECASE | re.DOTALL)
_AUTHOR_SPLIT = re.compile(r"\s*(?:,|;|\||\band\b|&)\s*", re.IGNORECASE)
# byline markup: rel/itemprop "author", a class containing one of these (or exactly "author"), an id containing
# "byline", a link into /author/. Checked in a lazy walk that stops at the first usable name: the equivalent
# XPath collects every match of the whole page first and cost about 1.7 ms a page, the walk about half that
# when it runs to the end (per-stage timing on ../shared/data/extraction_bench).
_BYLINE_CLASSES = ("byline", "author-name", "author_name", "post-author")
_AUTHOR_CLASSES = tuple(name for name in _BYLINE_CLASSES if name != "byline")
assert all("author" in name for name in _AUTHOR_CLASSES)  # _byline_candidates tests "author" first
_HOST = re.compile(r"https?://(?:www\.|w[0-9]+\.)?([^/]+)")
AUTHOR_MAX_CHARS = 120  # trafilatura's len_limit for author candidates
MIN_YEAR = 1995  # htmldate's default earliest date


@dataclass
class PageMeta:
    title: str | None = None
    author: str | None = None
    date: str | None = None
    sitename: str | None = None
    canonical_url: str | None = None
    product_description: str | None = None  # JSON-LD Product ``description`` (extract/core.py adds it when missing)


def _clean(text: object) -> str | None:
    text = " ".join(text.split()) if isinstance(text, str) else ""
    return text or None


def _json_str(value: object) -> str | None:
    """A JSON-LD string with its HTML entities decoded (CMSs write ``&#8211;`` into JSON)."""
    return _clean(html.unescape(value)) if isinstance(value, str) else None


def iso_date(value: str | None, today: Date | None = None) -> str | None:
    """``YYYY-MM-DD`` from an ISO-like date string (``2024-05-14T08:00Z``, ``2024/5/14``, ``20240514``)."""
    if not value:
        return None
    value = value.strip()
    match = _ISO_DATE.search(value[:40]) or _COMPACT_DATE.match(value)
    if not match:
        return None
    try:
        day = Date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return None
    if day.year < MIN_YEAR or day > (today or Date.today()):
        return None
    return day.isoformat()


def _author(value: str | None) -> str | None:
    """A person's name (several joined by "; ") from a meta value or byline; None for handles, URLs, e-mails."""
    text = _clean(value)
    if not text or len(text) > AUTHOR_MAX_CHARS or "http" in text or "@" in text or "/" in text:
        return None
    text = _BYLINE_END.sub("", _BY_PREFIX.sub("", text))
    names = [n.strip(" .") for n in _AUTHOR_SPLIT.split(text)]
    names = [n for n in names if " " in n]  # trafilatura's rule: a single token is a handle, not a name
    return "; ".join(dict.fromkeys(names)) or None


def _json_author(value: object) -> str | None:
    if isinstance(value, list):
        names = [n for n in (_json_author(v) for v in value) if n]
        return "; ".join(dict.fromkeys(names)) or None
    if isinstance(value, dict):
        if "organization" in str(value.get("@type", "")).lower():
            return None  # an agency or publisher is not an author
        value = value.get("name")
    return _author(html.unescape(value)) if isinstance(value, str) else None


def _json_objects(data: object, depth: int = 0) -> list[dict]:
    """The schema.org objects of a JSON-LD document (top level, lists and ``@graph``)."""
    if depth > 4:
        return []
    if isinstance(data, list):
        return [o for item in data for o in _json_objects(item, depth + 1)]
    if isinstance(data, dict):
        return [data, *_json_objects(data.get("@graph"), depth + 1)] if "@graph" in data else [data]
    return []


def _apply_json_ld(text: str, meta: PageMeta, today: Date) -> None:
    try:
        data = json.loads(text)
    except ValueError:
        return  # malformed JSON-LD is common; the meta tags stand
    for obj in _json_objects(data):
        kind = obj.get("@type")
        kind = " ".join(kind) if isinstance(kind, list) else str(kind or "")
        if kind in ("WebSite", "Organization", "NewsMediaOrganization") and not meta.sitename:
            meta.sitename = _json_str(obj.get("name"))
            continue
        if kind in ("Product", "ProductGroup", "IndividualProduct") and not meta.product_description:
            meta.product_description = _clean(_json_str(obj.get("description")))
            continue
        if not _ARTICLE_TYPES.search(kind):
            continue
        headline = obj.get("headline") or (obj.get("name") if kind != "WebPage" else None)
        if _json_str(headline):
            meta.title = _json_str(headline)
        if (author := _json_author(obj.get("author"))) is not None:
            meta.author = author
        published = obj.get("datePublished") or obj.get("dateCreated")
        if isinstance(published, str) and (day := iso_date(published, today)):
            meta.date = day
        publisher = obj.get("publisher")
        if isinstance(publisher, dict) and _json_str(publisher.get("name")):
            meta.sitename = _json_str(publisher.get("name"))


def _title_from_tag(title: str, sitename: str | None) -> str | None:
    parts = [p.strip() for p in _TITLE_SEP.split(title) if p.strip()]
    if len(parts) > 1:
        site = (sitename or "").lower()
        rest = [p for p in parts if p.lower() != site] or parts
        return max(rest, key=len)
    return title


def _byline_candidates(root: etree._Element) -> Iterator[etree._Element]:
    """Byline elements below ``root`` in document order (``_BYLINE_CLASSES``)."""
    # runs on every element of the page (about 1 ms a page when it walks to the end): the class test is
    # two substring checks for the usual class, since every _BYLINE_CLASSES name other than "byline"
    # contains "author" (a generator over the names per element cost about twice the whole walk)
    for el in root.iterdescendants(etree.Element):
        attrib = el.attrib
        if not attrib:
            continue
        cls = attrib.get("class")
        if ((cls is not None and ("byline" in cls or ("author" in cls and (
                cls == "author" or any(name in cls for name in _AUTHOR_CLASSES)))))
                or attrib.get("rel") == "author" or attrib.get("itemprop") == "author"
                or "byline" in attrib.get("id", "")
                or (el.tag == "a" and "/author/" in attrib.get("href", ""))):
            yield el


def _byline(root: etree._Element) -> str | None:
    for el in _byline_candidates(root):
        if el.get("itemprop") == "author":
            named = el.find(".//*[@itemprop='name']")
            if named is not None:
                el = named
            elif el.tag == "meta":
                el_text = el.get("content")
                if (author := _author(el_text)) is not None:
                    return author
                continue
        text = " ".join(el.itertext())  # inline parts are separate words ("Jane Doe<span>Monday</span>")
        if (author := _author(text)) is not None:
            return author
    return None


def page_metadata(tree: etree._Element, url: str | None, today: Date | None = None,
                  date_search: bool = True) -> PageMeta:
    """Title, author, date, site name and canonical URL of ``tree`` (module docstring).

    ``date_search=False`` leaves out htmldate's search for an undeclared date (extract/core.py: on page types that
    carry no publication date, shops, listings and service pages, where it cost about 5 ms a page for nothing).
    """
    today = today or Date.today()
    meta = PageMeta()
    site_backup = title_tag = canonical = published_time = modified = None
    h1s: list[etree._Element] = []
    json_ld: list[str] = []
    for el in tree.iter("meta", "link", "script", "title", "h1", "time"):
        tag = el.tag
        if tag == "meta":
            content = _clean(el.get("content"))
            if not content:
                continue
            key = (el.get("property") or el.get("name") or el.get("itemprop") or "").strip().lower()
            if key in _TITLE_META:
                meta.title = meta.title or content
            elif key in _AUTHOR_META:
                meta.author = meta.author or _author(content)
            elif key in _SITE_META:
                meta.sitename = meta.sitename or content
            elif key in _SITE_BACKUP_META and "/" not in content:
                site_backup = site_backup or content
            elif key in _PUBLISHED_META:
                meta.date = meta.date or iso_date(content, today)
            elif key in _MODIFIED_META:
                modified = modified or iso_date(content, today)
        elif tag == "link":
            if canonical is None and "canonical" in (el.get("rel") or "").lower().split():
                canonical = (el.get("href") or "").strip() or None
        elif tag == "script":
            if (el.get("type") or "").strip().lower() == "application/ld+json" and el.text:
                json_ld.append(el.text)
        elif tag == "title":
            title_tag = title_tag or _clean("".join(el.itertext()))
        elif tag == "h1":
            h1s.append(el)
        elif published_time is None and el.get("datetime") and (
                el.get("pubdate") is not None or el.get("itemprop") == "datePublished"
                or "published" in (el.get("class") or "")):
            published_time = iso_date(el.get("datetime"), today)
    for text in json_ld:
        _apply_json_ld(text, meta, today)

    if not meta.title:
        h1_texts = [t for t in (_clean("".join(h.itertext())) for h in h1s) if t]
        if len(h1s) == 1 and h1_texts:
            meta.title = h1_texts[0]
        elif title_tag:
            meta.title = _title_from_tag(title_tag, meta.sitename)
        elif h1_texts:
            meta.title = h1_texts[0]
    if not meta.author:
        meta.author = _byline(tree)
    if not meta.date:
        meta.date = published_time or modified or (_htmldate(tree, url) if date_search else None)
    sitename = meta.sitename or (site_backup.lstrip("@") if site_backup else None)
    if sitename and "." not in sitename and not sitename[0].isupper():
        sitename = sitename.title()  # "riversidejournal" handles: trafilatura's rule
    if not sitename and url and (match := _HOST.match(url)):
        sitename = match[1]
    meta.sitename = sitename or None
    if canonical:
        try:
            meta.canonical_url = urljoin(url, canonical) if url else canonical
        except ValueError:
            meta.canonical_url = None
    return meta


def _htmldate(tree: etree._Element, url: str | None) -> str | None:
    """htmldate's fast mode (no extensive search), publication date over modification date."""
    from htmldate import find_date  # imported lazily: most pages never get here

    try:
        found = find_date(tree, url=url, extensive_search=False, original_date=True, outputformat="%Y-%m-%d")
    except Exception:  # htmldate raises on odd markup; a missing date is not a failed page
        return None
    return found or None
