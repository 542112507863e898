"""The W3C TDM Reservation Protocol's ``/.well-known/tdmrep.json``: parsing and matching a page (``TdmRep``).

Pure functions, no Scrapy; ``crawler.policy.signals.page_verdict`` applies the processing priority between the
file, the ``tdm-reservation`` header and the HTML meta tag.

W3C TDM Reservation Protocol (TDMRep), Community Group Final Report of 10 May 2024
(https://w3c.github.io/tdm-reservation-protocol/spec/; source github.com/w3c/tdm-reservation-protocol,
``spec/index.html``, specStatus CG-FINAL):

* ``tdm-reservation`` is 1 (reserved) or 0 (not reserved); "Other values are considered protocol errors
  ... TDM Agents MUST consider that tdm-reservation is unset". Invalid values are recorded
  (``...=invalid:<value>``) and otherwise ignored. Within one layer, several values (two meta tags, a
  repeated header) reserve if any valid value is 1.
* Where: HTTP headers ``tdm-reservation`` / ``tdm-policy``; ``<meta name="tdm-reservation" content="1">`` /
  ``<meta name="tdm-policy">``; ``/.well-known/tdmrep.json``, an array of ``{"location", "tdm-reservation",
  "tdm-policy"?}`` rules.
* Processing priority: header values "supercede any value inferred from a TDM file on the origin server";
  HTML meta values "supercede previous values". So meta > header > tdmrep.json: a page may lift a
  site-wide reservation, and that is the spec, not an oversight.
* tdmrep.json matching: case-sensitive; percent-encoded unreserved characters are decoded before
  comparison; ``*`` matches any run of characters and a trailing ``$`` anchors the end (the spec reuses
  draft-koster-rep §2.2.3 and points to Google's robots.txt "URL matching based on path values"); a
  location is a prefix match. "The most specific match found MUST be used. The most specific match is the
  first in sequence." winnow takes the longest location (octets, as RFC 9309 §2.2.2 and Google define
  specificity) and breaks ties by order in the file. A rule without a string ``location`` or with a
  ``tdm-reservation`` other than 0/1 is skipped (its value would be "unset" anyway). No matching rule
  means unset.
"""

from __future__ import annotations

import json
import re
import string
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

__all__ = ["TdmRep", "path_and_query"]

# --------------------------------------------------------------------------------------------------
# TDMRep /.well-known/tdmrep.json

_UNRESERVED = frozenset(string.ascii_letters + string.digits + "-._~")
_PCT_RE = re.compile(r"%([0-9A-Fa-f]{2})")
# Everything printable in ASCII except space stays as is; '%' stays so existing escapes survive.
_SAFE = "!#$%&'()*+,/:;=?@[]~-._"


def _normalise_escapes(s: str) -> str:
    def fix(m: re.Match[str]) -> str:
        ch = chr(int(m.group(1), 16))
        return ch if ch in _UNRESERVED else "%" + m.group(1).upper()

    return _PCT_RE.sub(fix, quote(s, safe=_SAFE))


def _normalise_path(path: str) -> str:
    # '$' and '*' are special in locations, so a literal one in a URL is compared in its %-encoded form
    # (the spec: "/path/foo-%24" matches "/path/foo-$").
    return _normalise_escapes(path).replace("$", "%24").replace("*", "%2A")


@dataclass(frozen=True)
class _TdmRule:
    location: str
    pieces: tuple[str, ...]  # the normalised location split on '*'
    anchored: bool  # ended in '$'
    specificity: int
    reserved: bool
    policy: str | None

    def matches(self, target: str) -> bool:
        # Leftmost matching of each literal piece is exact for '*'-only globs and, unlike a regex of '.*'
        # runs, cannot backtrack: a hostile "/*a*a*a*..." location costs O(len(path) * len(location)).
        first, *middle = self.pieces
        if not target.startswith(first):
            return False
        if not middle:
            return not self.anchored or len(target) == len(first)
        *middle, last = middle
        pos = len(first)
        for piece in middle:
            found = target.find(piece, pos)
            if found < 0:
                return False
            pos = found + len(piece)
        if self.anchored:
            return len(target) - len(last) >= pos and target.endswith(last)
        return target.find(last, pos) >= 0


def _compile_location(location: str) -> tuple[tuple[str, ...], bool, int]:
    anchored = location.endswith("$")
    body = location[:-1] if anchored else location
    norm = re.sub(r"\*+", "*", _normalise_escapes(body).replace("$", "%24"))
    return tuple(norm.split("*")), anchored, len(norm) + anchored


def path_and_query(url_or_path: str) -> str:
    """The path and query of a URL (or a path as given): what TDMRep locations are matched against."""
    if "://" in url_or_path or url_or_path.startswith("//"):
        try:
            parts = urlsplit(url_or_path)
        except ValueError:  # e.g. an unbalanced IPv6 bracket; no rule can be matched reliably
            return "/"
        path = parts.path or "/"
        return f"{path}?{parts.query}" if parts.query else path
    return url_or_path or "/"


def _reservation_value(value: object) -> bool | None:
    # JSON booleans are not the integers 0/1 the spec asks for; "0"/"1" strings are accepted leniently.
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float) and value in (0, 1):
        return value == 1
    if isinstance(value, str) and value.strip() in ("0", "1"):
        return value.strip() == "1"
    return None


@dataclass(frozen=True)
class TdmRep:
    """A host's ``/.well-known/tdmrep.json``: ordered location rules. ``TdmRep()`` is the empty file."""

    rules: tuple[_TdmRule, ...] = ()
    error: str | None = None  # why the whole file is unusable (then ``rules`` is empty)
    skipped: int = 0  # rules ignored for a missing/invalid location or tdm-reservation

    @classmethod
    def parse(cls, text: str | bytes) -> TdmRep:
        """Parse the file; invalid JSON or a wrong shape gives an empty TdmRep with ``error`` set. Never raises."""
        try:
            if isinstance(text, bytes | bytearray):
                text = bytes(text).decode("utf-8-sig")
            elif not isinstance(text, str):
                return cls(error="not text")
            data = json.loads(text.lstrip("\ufeff"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            return cls(error=f"invalid JSON: {type(exc).__name__}")
        if not isinstance(data, list):
            return cls(error="not a JSON array")
        rules: list[_TdmRule] = []
        skipped = 0
        for entry in data:
            if not isinstance(entry, dict):
                skipped += 1
                continue
            location = entry.get("location")
            reserved = _reservation_value(entry.get("tdm-reservation"))
            if isinstance(location, str) and location.startswith(("http://", "https://")):
                location = path_and_query(location)  # lenient: a full URL where a path was meant
            if not isinstance(location, str) or not location.startswith(("/", "*")) or reserved is None:
                skipped += 1
                continue
            policy = entry.get("tdm-policy")
            pieces, anchored, specificity = _compile_location(location)
            policy = policy.strip() if isinstance(policy, str) else None
            rules.append(_TdmRule(location, pieces, anchored, specificity, reserved, policy))
        return cls(rules=tuple(rules), skipped=skipped)

    def reservation_for(self, path: str) -> tuple[bool | None, str | None]:
        """``(reserved, policy URL)`` of the most specific rule matching ``path`` (a path, or a URL); ``(None,
        None)`` when no rule matches."""
        rule = self._match(path)
        return (None, None) if rule is None else (rule.reserved, rule.policy)

    def _match(self, path: str) -> _TdmRule | None:
        if not self.rules or not isinstance(path, str):
            return None
        target = _normalise_path(path_and_query(path))
        best: _TdmRule | None = None
        for rule in self.rules:  # strict '>' keeps the first of equally specific rules
            if rule.matches(target) and (best is None or rule.specificity > best.specificity):
                best = rule
        return best
