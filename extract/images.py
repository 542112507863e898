"""One ``<img>`` of the DOM: its best URL, declared size, caption, and whether it is worth a pair.

URL choice (``image_source``), first that applies:

1. the largest candidate of ``srcset`` / ``data-srcset`` / ``data-lazy-srcset`` on the image and on the
   ``<source>`` siblings of an enclosing ``<picture>`` (HTML §4.8.4.2: a ``w`` descriptor is the image's
   intrinsic width, ``x`` a pixel density); ``w`` candidates win over ``x`` ones, a bare URL counts as ``1x``;
2. the first lazy-loading attribute that holds a non-``data:`` URL (``data-src``, ``data-lazy-src``,
   ``data-original``, ``data-lazy``, ``data-url``; the scripts that swap them into ``src`` are not run here);
3. ``src``.

Skip reasons (``skip_reason``), checked in this order; thresholds are winnow's choices:

- ``no_src``: nothing usable at all (also a ``src`` that resolves to a folder, such as ``src="/"``);
- ``data_uri``: only an inline ``data:`` image (placeholders and base64 thumbnails, no URL to pair);
- ``tracking_pixel``: both declared sides at most 2 px (the classic 1x1 beacon, also when declared in
  ``style``), or a known beacon URL (file stem ``pixel``/``beacon``/``1x1``..., or an analytics host);
- ``spacer``: layout fillers by file stem (``spacer.gif``, ``blank.gif``, ``transparent.png``, ``clear.gif``,
  lazy-load ``placeholder``\\s);
- ``icon``: an ``icon``/``logo``/``avatar``/``emoji``/``sprite``/``favicon``/``gravatar``/``badge`` token in
  the image's (or its parent's) class or id, or in the file name, or an emoji/avatar path; or every declared
  side at most ``ICON_MAX_SIDE`` (48 px: favicons and emoji are drawn at 16-32 px, social buttons at <= 48);
  or an alt that is just the site's name (its logo or wordmark);
- ``no_alt``: no text to pair the image with: the alt is missing, empty, a file name or path, or a generic word, and
  the image has no caption either (``filters.image_alt.pair_text``; where the alt is junk and a caption exists, the
  pair is made with the caption as its text).

Before those, extract/core.py counts an image as ``furniture`` when an ancestor is page furniture
(``is_furniture``: ``aside``/``nav``/``footer``, a ``header`` outside ``article``/``main``, or a class/id such as
``sidebar``, ``related``, ``share``, ``newsletter``, ``comments``): it sits beside the kept text but belongs to the
page's frame.

Captions (``caption_of``): the caption of the frame the image sits in, up to ``_FIGURE_LEVELS`` levels up:
``<figcaption>`` of a ``<figure>``; docutils/Sphinx ``div.figure`` with ``p.caption``/``span.caption-text``;
WordPress ``wp-caption``/``wp-block-image`` with ``wp-caption-text``/``wp-element-caption``; Wikipedia's
``thumbcaption``; and caption-classed elements in the other figure-like containers of ``_FIGURE_CLASSES``.
Permalink glyphs (Sphinx's ``¶`` in the caption) are left out. A frame holding several images is a gallery, and
none of its images takes its caption.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from lxml import etree

from extract.cleanup import clean_heading_text, is_permalink
from filters.image_alt import pair_text

ICON_MAX_SIDE = 48
PIXEL_MAX_SIDE = 2

SRCSET_ATTRS = ("data-srcset", "data-lazy-srcset", "srcset")
LAZY_SRC_ATTRS = ("data-src", "data-lazy-src", "data-original", "data-lazy", "data-url")

_PIXEL_STEM = re.compile(r"^(?:pixel|px|beacon|track(?:ing)?|1x1|blank1x1|spacer1x1|clear1x1|t|p|b|count(?:er)?)$")
_PIXEL_HOSTS = re.compile(
    r"(?:^|\.)(?:google-analytics\.com|googletagmanager\.com|doubleclick\.net|scorecardresearch\.com|"
    r"quantserve\.com|bat\.bing\.com|analytics\.twitter\.com|px\.ads\.linkedin\.com|ct\.pinterest\.com|"
    r"pixel\.wp\.com|stats\.wp\.com|pixel\.quantserve\.com|sb\.scorecardresearch\.com|mc\.yandex\.ru|"
    r"top-fwz1\.mail\.ru|counter\.yadro\.ru|amazon-adsystem\.com|adnxs\.com|pixel\.facebook\.com)$"
)
_PIXEL_PATHS = re.compile(r"(?:facebook\.com/tr[/?]|/(?:pixel|beacon|track|collect)(?:\.gif|\.png|/|\?|$))")
_SPACER_STEM = re.compile(
    r"^(?:spacer|blank|transparent|trans|clear|clearpixel|empty|shim|spc|dot|pix|s|"
    r"placeholder|lazy-placeholder|lazyload-placeholder|grey|gray|loading)(?:[_-]?\d+(?:x\d+)?)?$"
)
_ICON_WORDS = r"icons?|ico|logos?|wordmark|avatars?|emojis?|emoticons?|smiley|sprites?|favicons?|gravatar|badges?"
_ICON_TOKEN = re.compile(rf"(?:^|[\s_\-./])(?:{_ICON_WORDS})(?:$|[\s_\-./\d])", re.IGNORECASE)
_ICON_PATH = re.compile(r"/(?:emoji|emojis|icons|avatars|smilies|sprites)/|gravatar\.com/", re.IGNORECASE)
_PX = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:px)?\s*$", re.IGNORECASE)
_STYLE_SIDE = re.compile(r"(?:^|;)\s*(width|height)\s*:\s*(\d+(?:\.\d+)?)\s*px", re.IGNORECASE)
_DESCRIPTOR = re.compile(r"^(\d+(?:\.\d+)?)([wx])$", re.IGNORECASE)


@dataclass
class ImageSource:
    url: str | None  # absolute (or as written, without a base URL); None when nothing usable
    width: int | None
    height: int | None
    data_uri: bool  # the only source found was an inline data: URI


def parse_srcset(value: str) -> list[tuple[str, float | None, str]]:
    """``srcset`` -> [(url, number, "w" | "x")], following HTML's candidate-string parsing.

    URLs may contain commas (image CDNs write ``w_800,h_600``): a URL runs to the next whitespace, and
    only trailing commas end a candidate without descriptors.
    """
    out: list[tuple[str, float | None, str]] = []
    i, n = 0, len(value)
    while i < n:
        while i < n and (value[i].isspace() or value[i] == ","):
            i += 1
        start = i
        while i < n and not value[i].isspace():
            i += 1
        url = value[start:i]
        if not url:
            break
        descriptor = ""
        if url.endswith(","):
            url = url.rstrip(",")
        else:
            start = i
            depth = 0
            while i < n and (value[i] != "," or depth):
                depth += value[i] == "("
                depth -= value[i] == ")" and depth > 0
                i += 1
            descriptor = value[start:i].strip()
        number: float | None = 1.0
        unit = "x"
        if descriptor:
            match = _DESCRIPTOR.match(descriptor.split()[0])
            if match:
                number, unit = float(match.group(1)), match.group(2).lower()
            else:
                number = None
        if url and number is not None:
            out.append((url, number, unit))
    return out


def _px(value: str | None) -> int | None:
    if not value:
        return None
    match = _PX.match(value)
    if not match:
        return None
    number = int(float(match.group(1)))
    return number if number >= 0 else None


def declared_size(img: etree._Element) -> tuple[int | None, int | None]:
    """Width/height from the attributes, else from inline ``style`` pixel values."""
    width, height = _px(img.get("width")), _px(img.get("height"))
    style = img.get("style")
    if style and (width is None or height is None):
        for side, number in _STYLE_SIDE.findall(style):
            value = int(float(number))
            if side.lower() == "width" and width is None:
                width = value
            elif side.lower() == "height" and height is None:
                height = value
    return width, height


def _absolute(base: str | None, url: str) -> str:
    url = url.strip()
    if base and not url.startswith("data:"):
        try:
            return urljoin(base, url)
        except ValueError:
            return url
    return url


def image_source(img: etree._Element, base_url: str | None) -> ImageSource:
    """The best URL of ``img`` (see the module docstring) and its declared size."""
    width, height = declared_size(img)
    candidates: list[tuple[str, float, str]] = []
    holders = [img]
    # libxml2's HTML parser does not know <source> as a void element and nests the <img> inside it
    picture = img.getparent()
    for _ in range(3):
        if picture is None or picture.tag == "picture":
            break
        picture = picture.getparent()
    if picture is not None and picture.tag == "picture":
        holders = [*picture.iter("source"), img]
    for holder in holders:
        for attr in SRCSET_ATTRS:
            value = holder.get(attr)
            if value:
                candidates += [(u, v, unit) for u, v, unit in parse_srcset(value)
                               if v is not None and not u.startswith("data:")]
                break  # data-srcset is the real one on lazy images; srcset is then a placeholder
    saw_data_uri = False
    if candidates:
        by_w = [c for c in candidates if c[2] == "w"]
        url, number, unit = max(by_w or candidates, key=lambda c: c[1])
        if unit == "w":
            chosen_w = int(number)
            if width and height:
                height = round(height * chosen_w / width)
            width = chosen_w
        return ImageSource(_absolute(base_url, url), width, height, False)
    for attr in (*LAZY_SRC_ATTRS, "src"):
        value = (img.get(attr) or "").strip()
        if not value:
            continue
        if value.startswith("data:"):
            saw_data_uri = True
            continue
        return ImageSource(_absolute(base_url, value), width, height, False)
    return ImageSource(None, width, height, saw_data_uri)


def _stem(url: str) -> tuple[str, str, str]:
    """(host, path, file stem) of a URL, lower-cased."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "", url.lower(), ""
    path = parts.path.lower()
    name = path.rsplit("/", 1)[-1]
    return (parts.hostname or "").lower(), path, name.rsplit(".", 1)[0] if "." in name else name


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def skip_reason(img: etree._Element, source: ImageSource, alt: str | None, sitename: str | None = None,
                caption: str | None = None) -> str | None:
    """Why ``img`` gives no pair (module docstring), or None when it does."""
    if source.url is None:
        return "data_uri" if source.data_uri else "no_src"
    if source.url.endswith("/") and "?" not in source.url:
        return "no_src"  # src="/" or "" resolved to a folder (the home page): not an image
    width, height = source.width, source.height
    declared_w, declared_h = declared_size(img)  # a srcset width is the file's, not the drawn size
    host, path, stem = _stem(source.url)
    declared = [side for side in (declared_w, declared_h) if side is not None]
    if declared and max(declared) <= PIXEL_MAX_SIDE:
        return "tracking_pixel"
    if _PIXEL_STEM.match(stem) or _PIXEL_HOSTS.search(host) or _PIXEL_PATHS.search(source.url.lower()):
        return "tracking_pixel"
    if _SPACER_STEM.match(stem):
        return "spacer"
    marks = " ".join(filter(None, (img.get("class"), img.get("id"))))
    parent = img.getparent()
    if parent is not None:
        marks += " " + " ".join(filter(None, (parent.get("class"), parent.get("id"))))
    if _ICON_TOKEN.search(marks) or _ICON_TOKEN.search(stem) or _ICON_PATH.search(path):
        return "icon"
    if alt and sitename and _norm(alt) in (_norm(sitename), _norm(sitename) + " logo"):
        return "icon"  # the site's own name as alt: its logo
    sides = [s for s in (width, height) if s is not None]
    if sides and max(sides) <= ICON_MAX_SIDE:
        return "icon"
    if pair_text(alt, caption)[0] is None:
        return "no_alt"
    return None


# not <form>: ASP.NET pages wrap the whole page in one
_FURNITURE_TAGS = frozenset({"aside", "nav", "footer"})
_FURNITURE = re.compile(
    r"(?:^|[\s_-])(?:sidebar|side-bar|related|recommend\w*|promo\w*|advert\w*|ads?|adslot|sponsor\w*|share|sharing|"
    r"social|newsletter|subscribe|comments?|widget|outbrain|taboola|popular|trending|teaser|footer|nav|navbar|"
    r"menu|breadcrumbs?|masthead)(?:$|[\s_-])",
    re.IGNORECASE,
)


def is_furniture(img: etree._Element) -> bool:
    """Whether an ancestor of ``img`` is navigation, a sidebar, a share bar or similar."""
    node = img.getparent()
    chain: list[etree._Element] = []
    while node is not None and node.tag not in ("body", "html"):
        chain.append(node)
        node = node.getparent()
    in_article = any(n.tag in ("article", "main") for n in chain)
    for n in chain:
        tag = n.tag
        if tag in _FURNITURE_TAGS or (tag == "header" and not in_article):
            return True
        marks = n.get("class"), n.get("id"), n.get("role")
        for mark in marks:
            if mark and _FURNITURE.search(mark):
                return True
    return False


def clean_alt(img: etree._Element) -> str | None:
    alt = img.get("alt")
    if alt is None:
        return None
    alt = " ".join(alt.split())
    return alt or None


# containers that frame one image and its caption: HTML's <figure>, docutils/Sphinx ``div.figure``, WordPress's
# ``wp-caption`` and ``wp-block-image``, and the class names themes give the same thing
_FIGURE_CLASSES = frozenset({"figure", "wp-caption", "wp-block-image", "image-with-caption", "captioned-image",
                             "figure-container", "media-figure", "img-figure", "thumbcaption", "thumbinner"})
# the caption inside such a container: <figcaption>, docutils' ``p.caption`` / ``span.caption-text``, WordPress's
# ``wp-caption-text``/``wp-element-caption``, Wikipedia's ``thumbcaption``, and the usual theme names
_CAPTION_CLASSES = frozenset({"caption", "caption-text", "wp-caption-text", "wp-element-caption", "figure-caption",
                              "image-caption", "img-caption", "thumbcaption", "figcaption"})
_FIGURE_LEVELS = 4  # img > a > div.figure-inner > div.figure: how far up a frame is looked for


def _classes(el: etree._Element) -> set[str]:
    cls = el.get("class")
    return set(cls.split()) if cls else set()


def _caption_text(el: etree._Element) -> str | None:
    parts: list[str] = []
    walker = etree.iterwalk(el, events=("start", "end"))
    for event, node in walker:
        if event == "start":
            if node is not el and node.tag == "a" and is_permalink(node):
                walker.skip_subtree()  # Sphinx puts a ¶ permalink inside the caption paragraph
            elif isinstance(node.tag, str) and node.text:
                parts.append(node.text)
        elif node is not el and node.tail:
            parts.append(node.tail)
    text = clean_heading_text(" ".join(" ".join(parts).split()))
    return text or None


def caption_of(img: etree._Element) -> str | None:
    """The caption of the frame ``img`` sits in: ``<figcaption>`` of a ``<figure>``, docutils/Sphinx
    ``p.caption``/``span.caption-text`` in ``div.figure``, WordPress ``wp-caption-text``, or a caption-classed
    element in another figure-like container (``_FIGURE_CLASSES``); permalink glyphs (``¶``) left out. A frame
    holding several images is a gallery, not one image's frame: no caption is taken from it."""
    node = img.getparent()
    for _ in range(_FIGURE_LEVELS):
        if node is None or node.tag in ("body", "html"):
            return None
        if node.tag == "figure" or _classes(node) & _FIGURE_CLASSES:
            if sum(1 for _ in node.iter("img")) > 1:
                return None
            for child in node.iter():
                if child is img or not isinstance(child.tag, str):
                    continue
                if child.tag == "figcaption" or _classes(child) & _CAPTION_CLASSES:
                    return _caption_text(child)
            return None
        node = node.getparent()
    return None
