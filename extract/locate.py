"""Find trafilatura's main-content blocks in the page DOM, and the images that belong to them.

trafilatura's own image mode (``include_images=True``) changes which text it keeps: it preserves
``<figure>``/``<picture>`` containers through cleaning, and their captions, photo credits and share
links then land in the text, and with Markdown output the image markup too. On
../shared/data/extraction_bench, rendered as winnow renders its text, F1 falls from 0.9797 to 0.9364 (far below
plain ``trafilatura.extract``), so winnow extracts the text without images and places the images itself, on
the same parsed tree:

1. The DOM's text is laid out as one stream with all whitespace removed (trafilatura trims and
   re-joins inline text, so spacing is the one thing that differs), noting where each ``<img>`` sits.
2. Each top-level block of trafilatura's output (paragraph, heading, list, table, quote) is found
   in that stream by its first and last ``PROBE_CHARS`` characters, searching forward from the
   previous block, so repeated strings resolve in reading order.
3. An image is content when it lies within ``NEAR_CHARS`` characters of stream text from a found
   block (inside a block, or in the gap next to one: a figure between two paragraphs, a lead image
   under the headline) and no ancestor is page furniture (``aside``/``nav``/``footer``/``form``, a
   ``header`` outside ``article``/``main``, or a class/id such as ``sidebar``, ``related``, ``share``,
   ``newsletter``, ``comments``). 300 characters is winnow's choice: about a long caption plus a credit.
   An image after the last block must also sit inside the deepest element that holds the first and
   the last block (the article's container): "related stories" thumbnails follow the article outside it.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from lxml import etree

PROBE_CHARS = 24
NEAR_CHARS = 300

_SKIP_TEXT = frozenset({"script", "style", "noscript", "template", "svg", "math", "iframe", "object", "select",
                        "textarea", "button"})
_FURNITURE_TAGS = frozenset({"aside", "nav", "footer", "form"})
_FURNITURE = re.compile(
    r"(?:^|[\s_-])(?:sidebar|side-bar|related|recommend\w*|promo\w*|advert\w*|ads?|adslot|sponsor\w*|share|sharing|"
    r"social|newsletter|subscribe|comments?|widget|outbrain|taboola|popular|trending|teaser|footer|nav|navbar|"
    r"menu|breadcrumbs?|masthead)(?:$|[\s_-])",
    re.IGNORECASE,
)


@dataclass
class Layout:
    """Where trafilatura's blocks and the page's images sit in the DOM text stream."""

    starts: list[int | None]  # per block: stream offset of its first character, None if not found
    ends: list[int | None]
    images: list[tuple[int, etree._Element]] = field(default_factory=list)  # (offset, <img>) in DOM order
    container: etree._Element | None = None  # the deepest element holding the first and the last found block


def _squash(text: str | None) -> str:
    return "".join(text.split()) if text else ""


def _take_tail(el: etree._Element, parent: etree._Element, parts: list[str], starts: list[int],
               owners: list[etree._Element], size: int) -> int:
    """Append the whitespace-free tail of ``el`` (text of ``parent``) as a piece; the new stream size."""
    tail = el.tail
    if tail:
        tail = "".join(tail.split())
        if tail:
            parts.append(tail)
            starts.append(size)
            owners.append(parent)
            size += len(tail)
    return size


def stream_of(root: etree._Element) -> tuple[str, list[tuple[int, etree._Element]], list[int],
                                            list[etree._Element]]:
    """The whitespace-free text of ``root`` in document order, the offsets of its ``<img>``\\s, and the
    start offset and holding element of each text piece."""
    parts: list[str] = []
    starts: list[int] = []
    owners: list[etree._Element] = []
    size = 0
    images: list[tuple[int, etree._Element]] = []
    # One "start" event per element (the hot loop of the layout): an element's tail is taken when the walk
    # next reaches something outside it (``open_``: the elements being walked, innermost last), and the
    # ``_SKIP_TEXT`` subtrees are skipped whole: no Python iteration for their elements, nor end events.
    open_: list[etree._Element] = []
    walker = etree.iterwalk(root, events=("start",))
    for _, el in walker:
        tag = el.tag
        if not isinstance(tag, str):
            continue  # comments and processing instructions: no text of the page, nor their tails
        if open_:
            parent = el.getparent()
            while open_[-1] is not parent:
                size = _take_tail(open_.pop(), open_[-1], parts, starts, owners, size)
        open_.append(el)
        if tag in _SKIP_TEXT:
            walker.skip_subtree()
            # lazy-loading pages put the real <img> in <noscript>: keep the image, not the text (each
            # <noscript> of the subtree adds its images, as when its elements were walked one by one)
            for noscript in el.iter("noscript"):
                images.extend((size, img) for img in noscript.iter("img"))
            continue
        if tag == "img":
            images.append((size, el))
        text = el.text
        if text:
            text = "".join(text.split())
            if text:
                parts.append(text)
                starts.append(size)
                owners.append(el)
                size += len(text)
    while len(open_) > 1:  # the root's own tail is not part of it
        size = _take_tail(open_.pop(), open_[-1], parts, starts, owners, size)
    return "".join(parts), images, starts, owners


def layout(root: etree._Element, blocks: list[str]) -> Layout:
    """Locate each block text (as trafilatura output it) in the DOM under ``root``."""
    stream, images, piece_starts, owners = stream_of(root)
    starts: list[int | None] = []
    ends: list[int | None] = []
    cursor = 0
    for block in blocks:
        text = _squash(block)
        if not text:
            starts.append(None)
            ends.append(None)
            continue
        head, tail = text[:PROBE_CHARS], text[-PROBE_CHARS:]
        start = stream.find(head, cursor)
        if start < 0:
            start = stream.find(head)
        if start < 0:
            starts.append(None)
            ends.append(None)
            continue
        end = stream.find(tail, start)
        # a block whose end cannot be found (trafilatura dropped inline parts) still spans its own length
        end = end + len(tail) if 0 <= end < start + 4 * len(text) + PROBE_CHARS else start + len(text)
        starts.append(start)
        ends.append(end)
        cursor = start + 1
    found = [s for s in starts if s is not None]
    container = None
    if found:
        first = owners[bisect.bisect_right(piece_starts, min(found)) - 1]
        last = owners[bisect.bisect_right(piece_starts, max(found)) - 1]
        lineage = {id(first), *(id(a) for a in first.iterancestors())}
        container = last if id(last) in lineage else next(
            (a for a in last.iterancestors() if id(a) in lineage), None)
    return Layout(starts, ends, images, container)


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


def _holds(container: etree._Element, img: etree._Element) -> bool:
    return any(a is container for a in img.iterancestors())


def content_images(lay: Layout) -> list[tuple[int, etree._Element]]:
    """The images near found blocks (module docstring), in DOM order, with their stream offsets."""
    spans = sorted((s, e) for s, e in zip(lay.starts, lay.ends, strict=True) if s is not None and e is not None)
    if not spans:
        return []
    starts = [s for s, _ in spans]
    reach: list[int] = []  # reach[i]: furthest end among the first i+1 blocks by start
    for _, e in spans:
        reach.append(max(e, reach[-1]) if reach else e)
    ends_sorted = sorted(e for _, e in spans)
    out = []
    for offset, img in lay.images:
        # nearest block start at or after the image, nearest block end at or before it, or inside a block
        i = bisect.bisect_right(starts, offset)
        inside = i > 0 and reach[i - 1] >= offset
        after = starts[i] - offset if i < len(starts) else None
        j = bisect.bisect_right(ends_sorted, offset)
        before = offset - ends_sorted[j - 1] if j > 0 else None
        near = inside or any(d is not None and d <= NEAR_CHARS for d in (after, before))
        if near and after is None and lay.container is not None and not _holds(lay.container, img):
            near = False  # after the last block and outside the content's container: "related" lists
        if near and not is_furniture(img):
            out.append((offset, img))
    return out
