"""Robots directives for a bot (X-Robots-Tag, meta robots, meta <bot>) and the HTML head scan that finds them.

Pure functions, no Scrapy; ``crawler.policy.signals.page_verdict`` combines the directives with every other signal.
``html_signals`` also returns the page's ``tdm-reservation`` / ``tdm-policy`` meta tags (TDMRep,
``crawler/policy/tdmrep.py``).

``noai`` / ``noimageai`` (DeviantArt, Nov 2022,
https://www.deviantart.com/team/journal/UPDATE-All-Deviations-Are-Opted-Out-of-AI-Datasets-934500371): robots
directives in ``<meta name="robots">`` and ``X-Robots-Tag``. ``noai`` forbids AI training on the page.
DeviantArt's terms read either directive as excluding the content; issue 3 (the project's policy) reads
``noimageai`` as excluding the page's images while its text stays usable, and ``crawler.policy.signals`` follows
issue 3.

Robots meta tag and X-Robots-Tag (Google, "Robots meta tag, data-nosnippet, and X-Robots-Tag
specifications", https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag; MDN,
https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/X-Robots-Tag): comma-separated, case-insensitive
directives; ``none`` means ``noindex, nofollow``; ``<meta name="<bot>">`` addresses one crawler; in the
header an optional ``<bot>:`` prefix scopes the directives after it, up to the next prefix
(``X-Robots-Tag: noindex, winnowbot: noai, nofollow``). Directives that carry a value with a colon
(``max-snippet: 20``, ``unavailable_after: <date>``) are not bot prefixes. Conflicting directives: the most
restrictive applies (Google), which is what a union of directives gives.

HTML is scanned only in its head: at most ``HEAD_SCAN_LIMIT`` bytes/characters, cut at ``</head>`` or
``<body``, with comments, scripts, styles, templates and titles removed first, so a 20 MB page costs
the same as a small one and a ``<meta>`` written into a script string or a comment is not a signal.
"""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Iterable

from crawler.policy.content_usage import as_text

__all__ = ["HEAD_SCAN_LIMIT", "RELEVANT_DIRECTIVES", "directives_for", "html_signals", "parse_robots_directives"]

# Bytes (or characters, for str input) of HTML examined for head signals. Meta tags belong in <head>,
# which real pages close long before this; the bound is what keeps a 20 MB body cheap.
HEAD_SCAN_LIMIT = 64 * 1024

# --------------------------------------------------------------------------------------------------
# Robots directives (meta robots, meta <bot>, X-Robots-Tag)

# Directives whose value follows a colon; "max-snippet: 20" is a directive, not a bot called max-snippet.
_VALUE_DIRECTIVES = frozenset({"max-snippet", "max-image-preview", "max-video-preview", "unavailable_after"})
_SCOPE_RE = re.compile(r"([a-z0-9_.\-]+)\s*:\s*(.*)\Z", re.S)
_DIRECTIVE_RE = re.compile(r"[a-z][a-z0-9_\-]*\Z")
# The robots directives that carry a policy meaning for winnow; the others are search-only.
RELEVANT_DIRECTIVES = ("noai", "noimageai", "nofollow", "none")


def directives_for(value: str, bot_name: str) -> list[str]:
    """Directives of one meta content / X-Robots-Tag value that apply to ``bot_name``, in order, deduplicated."""
    text = as_text(value)
    if not text:
        return []
    bot = bot_name.strip().lower()
    scope: str | None = None  # None: the directives apply to every crawler
    out: list[str] = []
    for raw in re.split(r"[,;]", text.lower()):
        part = raw.strip()
        if not part:
            continue
        m = _SCOPE_RE.match(part)
        if m and m.group(1) not in _VALUE_DIRECTIVES:
            scope, part = m.group(1), m.group(2).strip()
        if scope is not None and scope != bot:
            continue
        name, sep, rest = part.partition(":")
        if sep and name.strip() in _VALUE_DIRECTIVES:
            found = [f"{name.strip()}:{' '.join(rest.split())}"]
        else:
            # Space-separated lists ("noindex nofollow") are a common mistake; junk such as the pieces of an
            # unavailable_after date split on its comma is dropped by the token check.
            found = [t for t in part.split() if _DIRECTIVE_RE.match(t)]
        for d in found:
            if d not in out:
                out.append(d)
    return out


def parse_robots_directives(value: str, bot_name: str) -> set[str]:
    """Lower-case directives of one X-Robots-Tag or robots meta content value that apply to ``bot_name``.

    Unscoped directives apply to every crawler; ``<bot>: d1, d2`` scopes the following directives (up to the
    next ``<bot>:``) to that crawler, compared case-insensitively. Never raises.
    """
    return set(directives_for(value, bot_name))


# --------------------------------------------------------------------------------------------------
# HTML head

_STRIP_RE = re.compile(
    r"<!--.*?(?:-->|\Z)|<(script|style|template|title|textarea)\b.*?(?:</\1\s*>|\Z)",
    re.I | re.S,
)
_HEAD_END_RE = re.compile(r"</head\s*>|<body[\s>/]", re.I)
# A tag may hold '>' inside quoted attribute values; the alternatives are disjoint, so no backtracking blow-up.
_META_RE = re.compile(r"""<meta\b((?:[^>"']|"[^"]*"|'[^']*')*)>""", re.I)
_ATTR_RE = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?""")


def _head_text(html: str | bytes) -> str:
    """The part of the document that can hold head meta tags, bounded by HEAD_SCAN_LIMIT."""
    if isinstance(html, str):
        chunk = html[:HEAD_SCAN_LIMIT]
    elif isinstance(html, bytes | bytearray | memoryview):
        # Slice before anything else: nothing may touch the rest of a large body. UTF-8 with replacement
        # keeps every ASCII tag intact for any ASCII-compatible charset.
        chunk = bytes(html[:HEAD_SCAN_LIMIT]).decode("utf-8", "replace")
    else:
        return ""
    chunk = _STRIP_RE.sub(" ", chunk)
    m = _HEAD_END_RE.search(chunk)
    return chunk[: m.start()] if m else chunk


def _meta_tags(head: str) -> Iterable[tuple[str, str]]:
    for tag in _META_RE.finditer(head):
        attrs: dict[str, str] = {}
        for m in _ATTR_RE.finditer(tag.group(1)):
            name = m.group(1).lower()
            raw = m.group(2) or ""
            if raw[:1] in ("'", '"'):
                raw = raw[1:-1]
            attrs.setdefault(name, html_lib.unescape(raw))  # first occurrence wins, as in HTML
        if "name" in attrs and "content" in attrs:
            yield attrs["name"].strip().lower(), attrs["content"]


def html_signals(html: str | bytes, bot_name: str) -> dict[str, list[str]]:
    """Policy meta tags of an HTML document's head, for ``bot_name``.

    Returns ``robots`` (directives applying to the bot from ``<meta name="robots">`` and
    ``<meta name="<bot>">``, in document order), ``meta-robots`` and ``meta-bot`` (the same split by tag),
    and the raw stripped contents of ``tdm-reservation`` and ``tdm-policy`` meta tags. Scans a bounded
    prefix only (HEAD_SCAN_LIMIT, ``</head>``). Never raises.
    """
    out: dict[str, list[str]] = {
        "robots": [],
        "meta-robots": [],
        "meta-bot": [],
        "tdm-reservation": [],
        "tdm-policy": [],
    }
    if html is None:
        return out
    bot = bot_name.strip().lower()
    for name, content in _meta_tags(_head_text(html)):
        if name == "robots" or name == bot:
            key = "meta-robots" if name == "robots" else "meta-bot"
            for d in directives_for(content, bot_name):
                if d not in out[key]:
                    out[key].append(d)
                if d not in out["robots"]:
                    out["robots"].append(d)
        elif name in ("tdm-reservation", "tdm-policy"):
            out[name].append(content.strip())
    return out
