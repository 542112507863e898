"""Heading permalinks: the anchor elements documentation generators add to headings, and their glyphs in text.

A permalink is a link to the heading's own fragment, drawn as a glyph or an icon beside the heading text;
it is navigation, and its glyph (``¶``, ``#``, ``§``, ``🔗``) ends up glued to the heading's words in
extracted text ("Installation¶"). ``is_permalink`` recognises the element, by generator:

- Sphinx (all themes): ``a.headerlink`` (text ``¶``, or ``#`` in pydata-sphinx-theme), also in ``<dt>`` of API
  entries, in captions and in ``span.eqno`` of equations; MkDocs (Python-Markdown toc ``permalink``): ``a.headerlink``;
- GitHub rendered Markdown: ``a.anchor`` beside or in the heading with an ``svg.octicon-link`` icon;
- Docusaurus ``a.hash-link`` (its text is a zero-width space), VuePress/VitePress ``a.header-anchor``,
  AnchorJS ``a.anchorjs-link``, nbconvert ``a.anchor-link``, just-the-docs ``a.anchor-heading``;
- any other ``<a>`` inside a heading (or right after it, GitHub-style) whose text is only a glyph (``#``, ``¶``,
  ``§``, ``🔗``, ``#️⃣``), or empty with an ``aria-hidden`` mark or an icon child, and whose ``href`` is
  ``#id`` of the heading, of an element in it, or of the section around it (WordPress plugins, Hugo and
  Jekyll themes, rustdoc's ``a.anchor`` ``§``). A link elsewhere, or to another fragment, is content.

``clean_heading_text`` and ``clean_title`` remove such glyphs where markup removal was not possible (text from
elsewhere, titles built from headings): a leading or trailing ``¶`` or ``🔗``; a trailing ``§``; a ``#`` at
the end (unless it ends a one-letter word, as in "C#" or "F#") or at the start when a space follows it.
A leading ``§`` stays: legal and standards texts number sections with it ("§ 1983"). Nothing else changes.
"""

from __future__ import annotations

import re

from lxml import etree

# classes that only permalink generators use
_PERMALINK_CLASSES = frozenset({"headerlink", "hash-link", "anchorjs-link", "header-anchor", "anchor-link",
                                "anchor-heading", "heading-anchor", "heading-link", "permalink-anchor"})
# classes that are permalinks when the link also points at its heading (also used for other anchors)
_ANCHOR_CLASSES = frozenset({"anchor", "permalink", "heading-permalink", "toc-anchor", "link-anchor"})
_GLYPHS = frozenset({"", "#", "¶", "§", "🔗", "#️⃣", "🔗︎", "🔗️", "⚓", "⚓️", "link"})
_ICON_TAGS = frozenset({"svg", "i", "img", "span", "use"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff"
_STRIP = " \t\n\r\f\v\u00a0" + _INVISIBLE
_ALWAYS_GLYPHS = ("#\ufe0f\u20e3", "🔗\ufe0f", "🔗\ufe0e", "¶", "🔗")  # longest first
_SHARP_LANGUAGE = re.compile(r"(?:^|[^\w])[A-Za-z]#$")  # C#, F#, J#: the # is part of the word
_TITLE_GLYPH = re.compile(r"\s*(?:¶|🔗[\ufe0e\ufe0f]?)(?=\s+[-–—|·:•]\s)")


def _classes(el: etree._Element) -> list[str]:
    cls = el.get("class")
    return cls.split() if cls else []


def _heading_of(a: etree._Element) -> etree._Element | None:
    """The heading ``a`` is in (up to 3 levels up) or directly follows (GitHub's ``div.markdown-heading``)."""
    node = a.getparent()
    for _ in range(3):
        if node is None:
            break
        if node.tag in _HEADINGS:
            return node
        node = node.getparent()
    prev = a.getprevious()
    if prev is not None and prev.tag in _HEADINGS:
        return prev
    return None


def _targets(heading: etree._Element) -> set[str]:
    """Fragments that lead to ``heading``: its id, ids/names inside it, its section's id."""
    found = set()
    for node in heading.iter():
        for attr in ("id", "name"):
            value = node.get(attr)
            if value:
                found.add(value)
    parent = heading.getparent()
    if parent is not None and parent.get("id"):
        found.add(parent.get("id"))  # Sphinx/MkDocs <section id=...>, GitHub's wrapper
    return found


def is_permalink(el: etree._Element) -> bool:
    """Whether ``el`` is a heading permalink (see the module docstring): remove it, text and all."""
    tag = el.tag
    if tag != "a":
        if tag == "svg":
            return "octicon-link" in _classes(el)  # GitHub's link icon (its <a class="anchor"> holds only it)
        return False
    href = el.get("href") or ""
    cls = el.get("class")
    classes = cls.split() if cls else ()
    if classes and not _PERMALINK_CLASSES.isdisjoint(classes):
        return href.startswith("#") or "".join(el.itertext()).strip(_STRIP) in _GLYPHS
    if len(href) < 2 or href[0] != "#":  # most links: to another page
        return False
    text = "".join(el.itertext()).strip(_STRIP)
    if text not in _GLYPHS:
        return False
    if not text and el.get("aria-hidden") != "true" and not any(child.tag in _ICON_TAGS for child in el):
        return False  # an empty link without an icon: nothing to remove, and maybe a named target
    heading = _heading_of(el)
    if heading is None:
        return False
    if not _ANCHOR_CLASSES.isdisjoint(classes):
        return True
    return href[1:] in _targets(heading)


def clean_heading_text(text: str) -> str:
    """``text`` of a heading without leading/trailing permalink glyphs and the whitespace before them."""
    body = text
    # trailing glyphs, repeatedly ("Title ¶ #"); invisible characters go with them (Docusaurus' ZWSP)
    while True:
        stripped = body.rstrip(_STRIP)
        for glyph in (*_ALWAYS_GLYPHS, "§"):
            if stripped.endswith(glyph):
                body = stripped[: -len(glyph)]
                break
        else:
            if stripped.endswith("#") and stripped.strip("#").strip() and not _SHARP_LANGUAGE.search(stripped):
                body = stripped[:-1]
                continue
            if any(ch in _INVISIBLE for ch in body[len(stripped):]):
                body = stripped  # Docusaurus' permalink is a zero-width space
            break
    # leading glyphs: a permalink placed before the heading text (VuePress "# Title", "🔗 Title", "¶ Title")
    while True:
        stripped = body.lstrip(_STRIP)
        for glyph in _ALWAYS_GLYPHS:
            if stripped.startswith(glyph):
                body = stripped[len(glyph):]
                break
        else:
            if stripped.startswith("#") and len(stripped) > 1 and stripped[1] in " \u00a0":
                body = stripped[1:]
                continue
            break
    if body == text:
        return text
    return body.strip(_STRIP)


def clean_title(text: str) -> str:
    """A page title without permalink glyphs: at its ends, and before a site-name separator ("Usage¶ | Docs")."""
    if "¶" in text or "🔗" in text:
        text = _TITLE_GLYPH.sub("", text)
    return clean_heading_text(text)
