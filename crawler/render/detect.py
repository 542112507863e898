"""Does a raw HTML page need JavaScript to show its content? A pure function of the HTML.

``--render auto`` fetches every page without a browser first and asks ``assess(html)``. A page is sent to
the browser when one of these holds (first match is the recorded reason):

- ``spa_root``: an empty single-page-app mount point (``<div id="root"></div>``, ``id="app"``, ``__next``,
  ``__nuxt``, ``___gatsby``, ``<app-root>``, ``data-reactroot``...) and fewer than ``SPA_MAX_WORDS`` visible
  words elsewhere. The word cap keeps pages that merely host a small widget mount point out.
- ``noscript_warning``: a ``<noscript>`` saying the page needs JavaScript ("enable JavaScript", "JavaScript
  is required"...) and fewer than ``NOSCRIPT_MAX_WORDS`` visible words: a server-rendered page that also
  carries such a warning is usable as it is.
- ``script_heavy``: fewer than ``THIN_MAX_WORDS`` visible words and scripts that outweigh the visible text
  ``SCRIPT_TEXT_RATIO``:1 or more (text under 5% of text+script). Inline script sizes are measured; an
  external script's size cannot be seen without fetching it and is assumed to be ``EXTERNAL_SCRIPT_CHARS``,
  the order of magnitude of one script on a typical page (the HTTP Archive Web Almanac's JavaScript chapter
  reports hundreds of KB of JavaScript spread over some twenty requests on a median page).

Word thresholds are anchored on Gopher's quality rules (Rae et al. 2021, Table A1; ../shared/STACK-NOTES.md):
a document under 50 words is removed anyway, so a page with fewer words than a few such documents is worth
a render when scripts could fill it. "Visible" text is crawler/page_text.py's (no ``script``, ``style``,
``noscript``, ``template``, ``head``, ``svg``, ``iframe``, ``object``; its first 20,000 characters, far above
every word threshold here); in a crawl it is the text the frontier reads too, computed once per page.

``text_gain(raw, rendered)`` says whether a render paid off (used to decide whether a host is rendered
directly from then on).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree
from lxml import html as lxml_html

from crawler.page_text import tree_text

SPA_MAX_WORDS = 100
NOSCRIPT_MAX_WORDS = 200
THIN_MAX_WORDS = 200
SCRIPT_TEXT_RATIO = 20
EXTERNAL_SCRIPT_CHARS = 20_000
# A render "helped" when it at least doubled the visible words and added 50 or more (Gopher's minimum).
GAIN_MIN_WORDS = 50

SPA_ROOT_IDS = frozenset({"root", "app", "__next", "__nuxt", "___gatsby", "svelte", "main-app", "react-root",
                          "app-root", "application", "q-app"})
SPA_ROOT_TAGS = frozenset({"app-root"})  # Angular's default root component
_JS_TYPES = frozenset({"", "text/javascript", "application/javascript", "module", "text/ecmascript",
                       "application/ecmascript", "text/jsx", "text/babel"})
_NOSCRIPT_WARNING = re.compile(
    r"(enable|turn on|activate|allow|switch on)\s+(your\s+)?javascript"
    r"|javascript\s+(is\s+|must\s+be\s+|needs\s+to\s+be\s+)?(required|disabled|turned off|enabled)"
    r"|(requires?|needs?)\s+javascript|without\s+javascript|javascript\s+to\s+(run|use|view|work)",
    re.IGNORECASE,
)
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class Assessment:
    """The verdict for one raw page and the measurements behind it (kept for stats and debugging)."""

    needed: bool
    reason: str | None  # spa_root | noscript_warning | script_heavy | None
    words: int
    text_chars: int
    script_chars: int  # inline script characters + EXTERNAL_SCRIPT_CHARS per external script
    external_scripts: int


NOTHING_TO_RENDER = Assessment(False, None, 0, 0, 0, 0)  # an empty or unparsable page


def _parse(html: str | bytes) -> etree._Element | None:
    if not html or not html.strip():
        return None
    try:
        return lxml_html.document_fromstring(html)
    except (etree.ParserError, ValueError):  # e.g. a str with an XML encoding declaration
        try:
            data = html.encode("utf-8", "replace") if isinstance(html, str) else html
            return lxml_html.document_fromstring(data)
        except (etree.ParserError, ValueError):
            return None


def count_words(text: str) -> int:
    return len(_WORD.findall(text))


def visible_words(html: str | bytes) -> int:
    root = _parse(html)
    return count_words(tree_text(root)) if root is not None else 0


def _is_js(script: etree._Element) -> bool:
    return (script.get("type") or "").strip().lower() in _JS_TYPES


def _empty(element: etree._Element) -> bool:
    return len(element) == 0 and not (element.text or "").strip()


_SPA_CANDIDATES = etree.XPath("//body//*[@id or @data-reactroot or @ng-app] | //app-root")


def _has_empty_spa_root(root: etree._Element) -> bool:
    for element in _SPA_CANDIDATES(root):
        is_root = ((element.get("id") or "").strip().lower() in SPA_ROOT_IDS or element.tag in SPA_ROOT_TAGS
                   or element.get("data-reactroot") is not None or element.get("ng-app") is not None)
        if is_root and _empty(element):
            return True
    return False


def _noscript_warning(root: etree._Element) -> bool:
    return any(_NOSCRIPT_WARNING.search(n.text_content() or "") for n in root.iter("noscript"))


def assess(html: str | bytes) -> Assessment:
    """Measure a raw page and decide whether it needs rendering (see the module docstring for the rules)."""
    root = _parse(html)
    if root is None:
        return NOTHING_TO_RENDER
    return assess_tree(root, tree_text(root))


def assess_tree(root: etree._Element, text: str) -> Assessment:
    """``assess`` on a page already parsed, given its visible text (``crawler.page_text``)."""
    words = count_words(text)
    inline = external = 0
    for script in root.iter("script"):
        if not _is_js(script):
            continue  # JSON data blocks, templates: not code that builds the page
        if script.get("src"):
            external += 1
        else:
            inline += len(script.text or "")
    weight = inline + external * EXTERNAL_SCRIPT_CHARS
    reason = None
    if words < SPA_MAX_WORDS and _has_empty_spa_root(root):
        reason = "spa_root"
    elif words < NOSCRIPT_MAX_WORDS and _noscript_warning(root):
        reason = "noscript_warning"
    elif words < THIN_MAX_WORDS and weight and weight >= SCRIPT_TEXT_RATIO * len(text):
        reason = "script_heavy"
    return Assessment(reason is not None, reason, words, len(text), weight, external)


def text_gain(raw_words: int, rendered_words: int) -> bool:
    """Whether rendering added real content: at least twice the words, and GAIN_MIN_WORDS more."""
    return rendered_words >= 2 * raw_words and rendered_words - raw_words >= GAIN_MIN_WORDS
