"""RFC 9309 path normalisation and pattern matching: the URL/pattern side of `crawler.policy.robots`.

One job: turn a crawler name into its product token, a URL into the path robots.txt rules are matched against,
both paths and rule values into one percent-encoding normal form, and match a normalised path against a
compiled pattern. Parsing, groups and the fetch policy live in `crawler.policy.robots`, which re-exports the public
names here. Pure Python, no Scrapy imports.

Rules implemented, with their source:

- Matching (§2.2.2, §2.2.3): patterns are anchored at the first octet of the path (path, params and query;
  a URL without a path is ``/``); ``*`` matches any run of characters and a final ``$`` anchors the end; a
  pattern's priority is its length in octets (the longest match wins, applied by `crawler.policy.robots`).
- Percent-encoding (§2.2.2): before comparison both the pattern and the URL are normalised the same way:
  non-ASCII octets (UTF-8) and characters that may not appear raw in a URI are percent-encoded, escapes of
  unreserved characters are decoded (``%62`` -> ``b``), other escapes keep their meaning with upper-case hex, and
  reserved characters stay as written. A ``*`` or ``$`` in the URL is compared as ``%2A`` / ``%24``, so the
  pattern ``/a-%2A`` matches the URL ``/a-*`` (§2.2.3, second table). Google's library leaves encoding the URL to
  its caller, so it does not match ``/ツ`` against ``Allow: /ツ``, nor ``/baz`` against ``Allow: /%62%61%7A``; here
  both match, as §2.2.2 and its example table require.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "TOKEN_RUN",
    "WHITESPACE",
    "RobotsPattern",
    "normalize_path",
    "normalize_pattern",
    "path_of",
    "product_token",
]

WHITESPACE = " \t\v\f"  # RFC 9309 2.2: whitespace around keys and values
TOKEN_RUN = re.compile(r"[A-Za-z_-]*")
_HEX = "0123456789ABCDEF"
_HEXDIGITS = frozenset("0123456789abcdefABCDEF")
# RFC 3986 §2.3 unreserved characters: an escape of one of these means the character itself.
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# RFC 3986 §2.2 reserved characters: raw and escaped forms differ in meaning, so each is kept as written.
_RESERVED = frozenset(":/?#[]@!$&'()*+,;=")
# Characters that normalisation leaves as they are in a URL (unreserved, and reserved except '*', '$' and '#').
_PLAIN_PATH = re.compile(r"[A-Za-z0-9\-._~:/?\[\]@!&'()+,;=]*")


# --------------------------------------------------------------------------------------------------------------
# Tokens, paths and percent-encoding
# --------------------------------------------------------------------------------------------------------------


def product_token(user_agent: str) -> str:
    """The lower-cased product token of a crawler name or a full User-Agent string.

    RFC 9309 §2.2.1: the token is ``[a-zA-Z_-]+``. ``"winnowbot/0.1 (+https://...)"`` gives ``"winnowbot"``
    (the first HTTP product). A value that is neither a bare token nor ``token/version...`` (``"Foo Bar"``)
    returns ``""``, which names no group, so only ``*`` rules apply: the same outcome as Google's matcher,
    which refuses to obey an invalid token.
    """
    text = user_agent.strip(WHITESPACE)
    run = TOKEN_RUN.match(text)
    token = run.group() if run else ""
    rest = text[len(token) :]
    if token and (not rest or rest.startswith("/")):
        return token.lower()
    return ""


def path_of(url: str) -> str:
    """Path, params and query of ``url`` (no scheme, authority or fragment); always starts with ``/``.

    Accepts absolute URLs, scheme-relative ``//host/path``, ``host/path`` and bare paths, as Google's
    ``GetPathParamsQuery`` does. A URL without a path is ``/`` (RFC 9309 §2.2.2 matches from the path's first
    octet and every HTTP path starts with ``/``).
    """
    start = 2 if url.startswith("//") else 0
    early = _find_first(url, "/?;", start)
    scheme_end = url.find("://", start)
    # "://" only marks a scheme when no path, params or query started before it.
    has_scheme = scheme_end >= 0 and not (0 <= early < scheme_end)
    authority_start = scheme_end + 3 if has_scheme else start
    path_start = _find_first(url, "/?;", authority_start)
    if path_start < 0:
        return "/"
    hash_pos = url.find("#", start)
    if 0 <= hash_pos < path_start:
        return "/"
    end = hash_pos if hash_pos >= 0 else len(url)
    path = url[path_start:end]
    return path if path.startswith("/") else "/" + path


def _find_first(text: str, chars: str, start: int) -> int:
    positions = [p for p in (text.find(c, start) for c in chars) if p >= 0]
    return min(positions) if positions else -1


def normalize_path(path: str) -> str:
    """Percent-encoding normal form of a URL path+query for comparison (RFC 9309 §2.2.2, RFC 3986 §6.2.2).

    ``*`` and ``$`` are encoded because in a URL they are data; in a pattern they are operators
    (see `normalize_pattern`).
    """
    if _PLAIN_PATH.fullmatch(path):
        return path  # the common case: nothing to encode or decode
    return _normalize(path, pattern=False)


def normalize_pattern(value: str) -> str:
    return _normalize(value, pattern=True)


def _normalize(text: str, *, pattern: bool) -> str:
    data = text.encode("utf-8", "surrogatepass")
    out: list[str] = []
    i, n = 0, len(data)
    while i < n:
        byte = data[i]
        char = chr(byte)
        if char == "%" and _is_hex_pair(data, i + 1):
            value = int(data[i + 1 : i + 3], 16)
            out.append(chr(value) if chr(value) in _UNRESERVED else "%" + _HEX[value >> 4] + _HEX[value & 15])
            i += 3
            continue
        if _stays_raw(char, pattern=pattern, last=i == n - 1):
            out.append(char)
        else:
            out.append("%" + _HEX[byte >> 4] + _HEX[byte & 15])
        i += 1
    return "".join(out)


def _stays_raw(char: str, *, pattern: bool, last: bool) -> bool:
    """False for what is compared escaped: non-ASCII octets, controls, space, a '%' without two hex digits,
    characters never allowed raw in a URI, and '*' / '$' used as data (in a pattern, '*' and a final '$' are
    operators)."""
    if char == "*" or char == "$":
        return pattern and (char == "*" or last)
    return char in _UNRESERVED or (char in _RESERVED and char != "#")


def _is_hex_pair(data: bytes, i: int) -> bool:
    return i + 1 < len(data) and chr(data[i]) in _HEXDIGITS and chr(data[i + 1]) in _HEXDIGITS


# --------------------------------------------------------------------------------------------------------------
# Patterns
# --------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RobotsPattern:
    """A normalised path pattern. Matching is linear in the path per literal segment (no regex backtracking:
    the file is untrusted input, RFC 9309 §3)."""

    text: str
    parts: tuple[str, ...]
    anchored: bool

    @classmethod
    def compile(cls, normalised: str) -> RobotsPattern:
        anchored = normalised.endswith("$")
        body = normalised[:-1] if anchored else normalised
        return cls(normalised, tuple(body.split("*")), anchored)

    @property
    def priority(self) -> int:
        # RFC 9309 §2.2.2: "The most specific match is the match that has the most octets."
        return len(self.text)

    def matches(self, path: str) -> bool:
        parts = self.parts
        if len(parts) == 1:
            return path == parts[0] if self.anchored else path.startswith(parts[0])
        if not path.startswith(parts[0]):
            return False
        pos = len(parts[0])
        # Taking each middle literal at its leftmost position leaves the most room for the rest, so a greedy scan
        # decides the match exactly.
        for literal in parts[1:-1]:
            found = path.find(literal, pos)
            if found < 0:
                return False
            pos = found + len(literal)
        last = parts[-1]
        if self.anchored:
            return path.endswith(last) and len(path) - len(last) >= pos
        return path.find(last, pos) >= 0
