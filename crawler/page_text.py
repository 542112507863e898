"""The visible text of a fetched page: computed once per response, read by render detection and the frontier.

Render detection (crawler/render/detect.py: does the page need JavaScript?) and the frontier (topic clusters,
host language: crawler/frontier/middleware.py) both need the words a reader sees. Each used to parse and walk
the page itself; in bench/crawl_bench.py that was 2.6 of 23 profiled seconds per 2,000 pages, the largest
piece of winnow's own per-page cost. Here the walk runs once, over the lxml tree Scrapy's selector has already
built for link extraction, and the result is kept for the response's lifetime.

"Visible" excludes ``script``, ``style``, ``noscript``, ``template``, ``head``, ``svg``, ``iframe`` and
``object`` (fallback content a browser does not show), comments and processing instructions. Text is capped
at ``MAX_TEXT_CHARS``: the topic balancer reads at most 2,000 words (~12k characters in European languages),
language ID the first 2,000 characters, and every render-detection rule concerns pages under 200 words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

if TYPE_CHECKING:
    from scrapy.http import Response

MAX_TEXT_CHARS = 20_000
INVISIBLE = frozenset({"script", "style", "noscript", "template", "head", "svg", "iframe", "object"})

_cache: WeakKeyDictionary[Response, str] = WeakKeyDictionary()


def tree_text(root: Any, max_chars: int = MAX_TEXT_CHARS) -> str:
    """Visible text under ``root``'s body (or ``root`` when there is none), whitespace collapsed, at most
    ``max_chars`` characters. Never modifies the tree."""
    body = root.find("body") if hasattr(root, "find") else None  # <html>'s child: no XPath needed
    start = body if body is not None else root
    parts: list[str] = []
    size = 0
    stack: list[Any] = [start]
    # Depth-first walk in document order that never descends into invisible elements. An element's tail
    # (the text after it, inside its parent) is pushed before its children so it pops after them.
    while stack and size < max_chars:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
            size += len(item)
            continue
        if item is not start and item.tail:
            stack.append(item.tail)
        tag = item.tag
        if not isinstance(tag, str) or tag.lower() in INVISIBLE:  # comments, processing instructions too
            continue
        if item.text:
            parts.append(item.text)
            size += len(item.text)
        stack.extend(item[::-1])
    return " ".join(" ".join(parts).split())[:max_chars]


def page_tree(response: Response) -> Any | None:
    """The lxml tree of ``response.selector`` (Scrapy parses once per response; link extraction reuses it), or
    None when the body cannot be parsed."""
    try:
        root = response.selector.root
    except Exception:  # undecodable or empty body: no tree rather than a failed crawl
        return None
    return root if hasattr(root, "iter") else None


def page_text(response: Response) -> str:
    """``tree_text`` of ``page_tree(response)``, computed once per response; "" without a tree."""
    text = _cache.get(response)
    if text is None:
        root = page_tree(response)
        text = _cache[response] = tree_text(root) if root is not None else ""
    return text
