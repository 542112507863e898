"""Training-use verdict per page, from every signal a publisher can give (issue 3, item 4).

Pure functions, no Scrapy: the downloader middleware collects the inputs (robots.txt answers, response
headers, the first bytes of the body, the host's ``/.well-known/tdmrep.json``) and the item pipeline calls
``page_verdict``. The verdict travels with every record, together with ``signals``: every publisher signal
that was seen (permissive ones too), as short stable strings, so that the output shows why a page was or was
not used.

    training_allowed = crawl_allowed AND training_token_allowed
                       AND no Content-Usage reservation (robots.txt rule, HTTP header)
                       AND no TDMRep reservation (tdmrep.json < HTTP header < HTML meta)
                       AND no ``noai`` (meta robots, meta <bot>, X-Robots-Tag)
    images_allowed   = training_allowed AND no ``noimageai``
    follow_links     = no ``nofollow`` and no ``none``

Across protocols the most restrictive answer wins: that is the combining rule of the IETF vocabulary, and
the safe reading for a training corpus when two mechanisms disagree.

Specifications and the decisions taken on them
----------------------------------------------
IETF AI Preferences, vocabulary: draft-ietf-aipref-vocab
(https://datatracker.ietf.org/doc/draft-ietf-aipref-vocab/; latest -08, 14 Sep 2026,
https://www.ietf.org/archive/id/draft-ietf-aipref-vocab-08.txt; editor's copy in
github.com/ietf-wg-aipref/drafts, ``draft-ietf-aipref-vocab.md``).

* The labels changed across revisions, and every revision's labels are out there in deployed headers:
  -00/-01 (June 2025): ``tdm`` > ``ai`` > ``genai`` (plus ``search``, ``inference``);
  from -02 (July 2025, WG PR #82 "Rename all the categories"): ``all`` (Automated Processing) >
  ``train-ai`` (AI Training) > ``train-genai`` (Generative AI Training), plus ``search`` and ``ai-use``; a
  category without an explicit preference inherits from its parent ("Consulting a Preference
  Expression", §7 of the Aug 2025 editor's copy);
  -08 (Sep 2026, after the London interim, WG PRs #230/#250): flat ``train-ai`` (training a *generative*
  AI model; models used only for classification or ranking are excluded), ``ai-use``, ``search``; no
  hierarchy, and unknown labels MUST be ignored.
* winnow builds corpora for generative foundation models, so its use is "train-ai" in -08 and
  "train-genai" (child of "train-ai", child of "all") in the 2025 drafts. ``content_usage_denies_training``
  therefore denies when ``train-ai=n`` (-08), or when the inheritance chain
  ``train-genai -> train-ai -> all`` resolves to ``n`` (2025 drafts), or ``genai -> ai -> tdm`` does (-00).
  Examples: ``train-genai=n`` denies (explicit, most specific category of our use); ``all=n`` denies;
  ``all=n, train-ai=y`` allows (explicit child overrides parent); ``train-ai=n, train-genai=y`` denies
  (-08 reads only ``train-ai``; reading both revisions and taking the more restrictive answer is the
  vocabulary's own combining rule). ``search`` and ``ai-use`` never decide training: -08's Search
  category "overrides" AI Training only for applications whose primary purpose is search, which a
  training corpus is not.
* Combining (§"Combining Preferences"): several statements (robots.txt rule, HTTP header) are each
  consulted, and any disallow wins.
* Serialisation (§"Exemplary Serialization Format", §"Processing Algorithm"): a Structured Field
  Dictionary (RFC 9651 §3.2, parsed per §4.2.2); only the Tokens ``y``/``n`` are preferences, other values
  mean "unknown", parameters are ignored, a repeated key keeps its last value, and a failed parse yields no
  preferences. Deliberate leniency: keys and tokens are lower-cased before parsing and whitespace around
  ``=`` and ``;`` is accepted. The draft says an upper-case key fails the whole field; a publisher who
  wrote ``Train-AI=N`` meant an opt-out, and honouring it can only make the corpus more conservative.

IETF AI Preferences, attachment: draft-ietf-aipref-attach
(https://datatracker.ietf.org/doc/draft-ietf-aipref-attach/): the ``Content-Usage`` HTTP response field
(Structured Type: Dictionary) and the robots.txt ``Content-Usage: <path> <prefs>`` rule. The robots.txt
rule is matched by ``crawler.robots`` (longest path prefix, like Allow/Disallow) and arrives here as
``robots_content_usage``; rules with identical paths "apply separately", so several values may be passed
joined by newlines and each is a separate statement. Several ``Content-Usage`` header lines are one field
(RFC 9110 §5.3), so they are joined with ", " and parsed as one Dictionary (last key wins).

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

``noai`` / ``noimageai`` (DeviantArt, Nov 2022,
https://www.deviantart.com/team/journal/UPDATE-All-Deviations-Are-Opted-Out-of-AI-Datasets-934500371): robots
directives in ``<meta name="robots">`` and ``X-Robots-Tag``. ``noai`` forbids AI training on the page.
DeviantArt's terms read either directive as excluding the content; issue 3 (the project's policy) reads
``noimageai`` as excluding the page's images while its text stays usable, and this module follows issue 3.

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

Signal strings
--------------
``<source>:<name>=<value>``; sources ``robots`` (robots.txt), ``header``, ``meta``, ``tdmrep.json``,
``input`` (booleans passed in). In this order:

* ``robots_signals`` passed in, verbatim (e.g. ``robots:winnowbot-Extended=disallow``);
  ``input:crawl_allowed=false`` / ``input:training_token_allowed=false`` when those flags are false;
  ``robots:content-usage=<prefs>``;
* ``header:content-usage=<prefs>``, ``header:x-robots-tag=<directive>`` (noai, noimageai, nofollow, none),
  ``header:tdm-reservation=<0|1>``, ``header:tdm-policy=<url>``;
* ``meta:robots=<directive>``, ``meta:<bot>=<directive>``, ``meta:tdm-reservation=<0|1>``,
  ``meta:tdm-policy=<url>``;
* ``tdmrep.json:tdm-reservation=<0|1>``, ``tdmrep.json:tdm-policy=<url>`` (the rule matching the page),
  ``tdmrep.json:invalid`` (the file could not be used).

Values are lower-cased (except URLs), whitespace-collapsed and cut to ``MAX_SIGNAL_VALUE`` characters;
a value the protocol rejects is written ``invalid:<value>``. Duplicates are dropped, first one kept.
"""

from __future__ import annotations

import html as html_lib
import json
import re
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

__all__ = [
    "HEAD_SCAN_LIMIT",
    "TdmRep",
    "Verdict",
    "content_usage_denies_training",
    "html_signals",
    "page_verdict",
    "parse_content_usage",
    "parse_robots_directives",
]

# Bytes (or characters, for str input) of HTML examined for head signals. Meta tags belong in <head>,
# which real pages close long before this; the bound is what keeps a 20 MB body cheap.
HEAD_SCAN_LIMIT = 64 * 1024
MAX_SIGNAL_VALUE = 200

# --------------------------------------------------------------------------------------------------
# Verdict


@dataclass(frozen=True)
class Verdict:
    """The training-use verdict for one page and every signal seen while reaching it."""

    training_allowed: bool
    images_allowed: bool  # False on noimageai or anything that forbids training; text may still be allowed
    follow_links: bool  # False on nofollow / none
    signals: tuple[str, ...]


# --------------------------------------------------------------------------------------------------
# Content-Usage: a Structured Field Dictionary (RFC 9651 §3.2, parsed per §4.2.2)


class _SFError(ValueError):
    pass


class _Token(str):
    """A parsed sf-token; distinct from a parsed sf-string, since only the Token ``n`` is a preference."""


_KEY_FIRST = frozenset(string.ascii_lowercase + "*")
_KEY_REST = frozenset(string.ascii_lowercase + string.digits + "_-.*")
_TOKEN_FIRST = frozenset(string.ascii_letters + "*")
_TOKEN_REST = frozenset(string.ascii_letters + string.digits + "!#$%&'*+-.^_`|~:/")
_BASE64 = frozenset(string.ascii_letters + string.digits + "+/=")
_LOWER_HEX = frozenset("0123456789abcdef")
_NUMBER_RE = re.compile(r"-?(\d+)(?:\.(\d+))?")
_WS = frozenset(" \t")


class _SFParser:
    """Just enough of RFC 9651 to accept or reject a Dictionary and read its Tokens."""

    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def skip_ws(self) -> None:
        while self.i < len(self.s) and self.s[self.i] in _WS:
            self.i += 1

    def key(self) -> str:
        if self.peek() not in _KEY_FIRST:
            raise _SFError("key")
        start = self.i
        self.i += 1
        while self.i < len(self.s) and self.s[self.i] in _KEY_REST:
            self.i += 1
        return self.s[start : self.i]

    def bare_item(self) -> object:
        c = self.peek()
        if c and c in "-0123456789":
            return self.number()
        if c == '"':
            return self.sf_string()
        if c and c in _TOKEN_FIRST:
            start = self.i
            self.i += 1
            while self.i < len(self.s) and self.s[self.i] in _TOKEN_REST:
                self.i += 1
            return _Token(self.s[start : self.i])
        if c == ":":
            end = self.s.find(":", self.i + 1)
            if end < 0 or any(ch not in _BASE64 for ch in self.s[self.i + 1 : end]):
                raise _SFError("byte sequence")
            start, self.i = self.i + 1, end + 1
            return self.s[start:end]
        if c == "?":
            if self.s[self.i + 1 : self.i + 2] not in ("0", "1"):
                raise _SFError("boolean")
            self.i += 2
            return self.s[self.i - 1] == "1"
        if c == "@":
            self.i += 1
            return self.number(integer_only=True)
        if c == "%":
            return self.display_string()
        raise _SFError("bare item")

    def number(self, integer_only: bool = False) -> float:
        m = _NUMBER_RE.match(self.s, self.i)
        if not m:
            raise _SFError("number")
        whole, frac = m.group(1), m.group(2)
        too_long = len(whole) > 15 if frac is None else integer_only or len(whole) > 12 or len(frac) > 3
        if too_long:
            raise _SFError("number range")
        self.i = m.end()
        return float(m.group(0))

    def sf_string(self) -> str:
        self.i += 1
        out: list[str] = []
        while self.i < len(self.s):
            c = self.s[self.i]
            self.i += 1
            if c == "\\":
                nxt = self.peek()
                if nxt not in ('"', "\\") or not nxt:
                    raise _SFError("string escape")
                out.append(nxt)
                self.i += 1
            elif c == '"':
                return "".join(out)
            elif not 0x20 <= ord(c) <= 0x7E:
                raise _SFError("string char")
            else:
                out.append(c)
        raise _SFError("unterminated string")

    def display_string(self) -> str:
        if self.s[self.i : self.i + 2] != '%"':
            raise _SFError("display string")
        self.i += 2
        while self.i < len(self.s):
            c = self.s[self.i]
            if c == '"':
                self.i += 1
                return ""
            if c == "%":
                if any(h not in _LOWER_HEX for h in self.s[self.i + 1 : self.i + 3]) or self.i + 3 > len(self.s):
                    raise _SFError("display string escape")
                self.i += 3
            elif not 0x20 <= ord(c) <= 0x7E:
                raise _SFError("display string char")
            else:
                self.i += 1
        raise _SFError("unterminated display string")

    def parameters(self) -> None:
        while True:
            save = self.i
            self.skip_ws()  # lenient: RFC 9651 allows no space before ';'
            if self.peek() != ";":
                self.i = save
                return
            self.i += 1
            self.skip_ws()
            self.key()
            self.skip_ws()
            if self.peek() == "=":
                self.i += 1
                self.skip_ws()
                self.bare_item()

    def item_or_inner_list(self) -> object:
        if self.peek() != "(":
            value = self.bare_item()
            self.parameters()
            return value
        self.i += 1
        while True:
            while self.peek() == " ":
                self.i += 1
            if self.peek() == ")":
                self.i += 1
                self.parameters()
                return ()  # an Inner List is never a preference
            if not self.peek():
                raise _SFError("unterminated inner list")
            self.bare_item()
            self.parameters()
            if self.peek() not in (" ", ")"):
                raise _SFError("inner list separator")

    def dictionary(self) -> dict[str, object]:
        out: dict[str, object] = {}
        self.skip_ws()
        if not self.peek():
            return out
        while True:
            k = self.key()
            self.skip_ws()  # lenient: whitespace around '='
            if self.peek() == "=":
                self.i += 1
                self.skip_ws()
                value = self.item_or_inner_list()
            else:
                value = True
                self.parameters()
            out.pop(k, None)  # RFC 9651: a repeated key overwrites the earlier value
            out[k] = value
            self.skip_ws()
            if not self.peek():
                return out
            if self.peek() != ",":
                raise _SFError("member separator")
            self.i += 1
            self.skip_ws()
            if not self.peek():
                raise _SFError("trailing comma")


def _as_text(value: object) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, bytes | bytearray):
        return bytes(value).decode("latin-1")
    return None


def _parse_content_usage(value: object) -> dict[str, bool] | None:
    """Like ``parse_content_usage``, but None when the value is not a Dictionary (so it can be recorded)."""
    text = _as_text(value)
    if text is None:
        return None
    text = text.strip(" \t\r\n")
    # Structured Fields are ASCII; a non-ASCII or control character can only be an invalid field.
    if any(not (0x20 <= ord(c) <= 0x7E or c == "\t") for c in text):
        return None
    try:
        parsed = _SFParser(text.lower()).dictionary()
    except _SFError:
        return None
    return {k: v == "y" for k, v in parsed.items() if isinstance(v, _Token) and v in ("y", "n")}


def parse_content_usage(value: str) -> dict[str, bool]:
    """Parse one Content-Usage value into ``{label: allowed}`` for every key whose value is the Token y or n.

    Keys and tokens are lower-cased first and whitespace around ``=``/``;`` is tolerated (see the module
    docstring); unknown keys are returned as well. Anything that is not a Dictionary gives ``{}``.
    """
    return _parse_content_usage(value) or {}


# Inheritance chains for winnow's use (generative foundation-model training), most specific label first:
# -02..-07 labels (all > train-ai > train-genai) and -00/-01 labels (tdm > ai > genai).
_TRAINING_CHAINS: tuple[tuple[str, ...], ...] = (("train-genai", "train-ai", "all"), ("genai", "ai", "tdm"))


def content_usage_denies_training(prefs: Mapping[str, bool]) -> bool:
    """True when a parsed Content-Usage statement disallows training generative models (see module docstring)."""
    if prefs.get("train-ai") is False:  # -08: train-ai is generative-model training, no hierarchy
        return True
    for chain in _TRAINING_CHAINS:  # 2025 drafts: the most specific explicit preference decides
        for label in chain:
            if label in prefs:
                if prefs[label] is False:
                    return True
                break
    return False


def _content_usage_statement(value: str) -> str:
    """The preference part of a robots.txt Content-Usage value; tolerates a leading path being left in."""
    value = value.strip()
    if value.startswith("/"):
        parts = value.split(None, 1)
        value = parts[1] if len(parts) > 1 else ""
    return value


# --------------------------------------------------------------------------------------------------
# Robots directives (meta robots, meta <bot>, X-Robots-Tag)

# Directives whose value follows a colon; "max-snippet: 20" is a directive, not a bot called max-snippet.
_VALUE_DIRECTIVES = frozenset({"max-snippet", "max-image-preview", "max-video-preview", "unavailable_after"})
_SCOPE_RE = re.compile(r"([a-z0-9_.\-]+)\s*:\s*(.*)\Z", re.S)
_DIRECTIVE_RE = re.compile(r"[a-z][a-z0-9_\-]*\Z")
# The robots directives that carry a policy meaning for winnow; the others are search-only.
_RELEVANT_DIRECTIVES = ("noai", "noimageai", "nofollow", "none")


def _robots_directives(value: str, bot_name: str) -> list[str]:
    """Directives of one meta content / X-Robots-Tag value that apply to ``bot_name``, in order, deduplicated."""
    text = _as_text(value)
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
    return set(_robots_directives(value, bot_name))


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
            for d in _robots_directives(content, bot_name):
                if d not in out[key]:
                    out[key].append(d)
                if d not in out["robots"]:
                    out["robots"].append(d)
        elif name in ("tdm-reservation", "tdm-policy"):
            out[name].append(content.strip())
    return out


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


def _path_and_query(url_or_path: str) -> str:
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
                location = _path_and_query(location)  # lenient: a full URL where a path was meant
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
        target = _normalise_path(_path_and_query(path))
        best: _TdmRule | None = None
        for rule in self.rules:  # strict '>' keeps the first of equally specific rules
            if rule.matches(target) and (best is None or rule.specificity > best.specificity):
                best = rule
        return best


# --------------------------------------------------------------------------------------------------
# The verdict


def _clean(value: str, lower: bool = True) -> str:
    text = " ".join(value.split())
    text = "".join(c for c in text if c.isprintable())
    return (text.lower() if lower else text)[:MAX_SIGNAL_VALUE]


def _normalise_headers(headers: Mapping[object, object] | None) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for key, values in (headers or {}).items():
        name = _as_text(key)
        if name is None:
            continue
        seq = values if isinstance(values, list | tuple) else [values]
        texts = [t for t in (_as_text(v) for v in seq) if t is not None]
        out.setdefault(name.strip().lower(), []).extend(texts)
    return out


def _tdm_layer(source: str, values: Iterable[str], policies: Iterable[str], signals: list[str]) -> bool | None:
    """Record one layer's tdm-reservation/tdm-policy values; its reservation state (None when unset)."""
    state: bool | None = None
    for value in values:
        v = value.strip()
        if not v:
            continue
        if v in ("0", "1"):
            signals.append(f"{source}:tdm-reservation={v}")
            state = v == "1" or bool(state)
        else:
            signals.append(f"{source}:tdm-reservation=invalid:{_clean(v)}")
    for policy in policies:
        if policy.strip():
            signals.append(f"{source}:tdm-policy={_clean(policy, lower=False)}")
    return state


def _split_header_list(values: Iterable[str]) -> list[str]:
    return [piece for v in values for piece in v.split(",")]


def page_verdict(
    *,
    url: str,
    bot_name: str,
    crawl_allowed: bool,
    robots_signals: tuple[str, ...] = (),
    training_token_allowed: bool = True,
    robots_content_usage: str | None = None,
    headers: Mapping[str, list[str]] | None = None,
    html: str | bytes | None = None,
    tdmrep: TdmRep | None = None,
) -> Verdict:
    """Decide whether the page at ``url`` may be used for training, from every signal given (never raises).

    ``robots_signals``, ``crawl_allowed`` and ``training_token_allowed`` come from robots.txt matching for
    the bot token and its training token; ``robots_content_usage`` is the Content-Usage preference of the
    robots.txt rule matching the URL (several rules with the same path: joined by newlines, or a list);
    ``headers`` are the response
    headers (any case); ``html`` the body (only its head is read); ``tdmrep`` the host's tdmrep.json.
    """
    bot = bot_name.strip().lower()
    signals: list[str] = list(robots_signals)
    if not crawl_allowed:
        signals.append("input:crawl_allowed=false")
    if not training_token_allowed:
        signals.append("input:training_token_allowed=false")

    # IETF Content-Usage: each source is a statement; any statement that disallows training wins.
    cu_denied = False
    statements = robots_content_usage if isinstance(robots_content_usage, list | tuple) else [robots_content_usage]
    for line in (ln for st in statements for ln in (_as_text(st) or "").splitlines()):
        statement = _content_usage_statement(line)
        if not statement:
            continue
        prefs = _parse_content_usage(statement)
        signals.append(f"robots:content-usage={'' if prefs is not None else 'invalid:'}{_clean(statement)}")
        cu_denied |= content_usage_denies_training(prefs or {})

    hdrs = _normalise_headers(headers)
    cu_lines = [v.strip() for v in hdrs.get("content-usage", []) if v.strip()]
    if cu_lines:
        combined = ", ".join(cu_lines)  # several field lines are one field (RFC 9110 §5.3)
        prefs = _parse_content_usage(combined)
        signals.append(f"header:content-usage={'' if prefs is not None else 'invalid:'}{_clean(combined)}")
        cu_denied |= content_usage_denies_training(prefs or {})

    # Robots directives: header, then meta robots, then meta <bot>.
    directives: set[str] = set()
    header_dirs: list[str] = []
    for value in hdrs.get("x-robots-tag", []):
        for d in _robots_directives(value, bot_name):
            if d not in header_dirs:
                header_dirs.append(d)
    directives.update(header_dirs)
    signals.extend(f"header:x-robots-tag={d}" for d in header_dirs if d in _RELEVANT_DIRECTIVES)

    header_tdm = _tdm_layer(
        "header",
        _split_header_list(hdrs.get("tdm-reservation", [])),
        hdrs.get("tdm-policy", []),
        signals,
    )

    meta = html_signals(html, bot_name) if html is not None else None
    meta_tdm: bool | None = None
    if meta is not None:
        directives.update(meta["robots"])
        signals.extend(f"meta:robots={d}" for d in meta["meta-robots"] if d in _RELEVANT_DIRECTIVES)
        signals.extend(f"meta:{bot}={d}" for d in meta["meta-bot"] if d in _RELEVANT_DIRECTIVES)
        meta_tdm = _tdm_layer("meta", meta["tdm-reservation"], meta["tdm-policy"], signals)

    file_tdm: bool | None = None
    if tdmrep is not None:
        if tdmrep.error:
            signals.append("tdmrep.json:invalid")
        reserved, policy = tdmrep.reservation_for(_path_and_query(url) if isinstance(url, str) else "/")
        if reserved is not None:
            file_tdm = _tdm_layer("tdmrep.json", ["1" if reserved else "0"], [policy] if policy else [], signals)

    # TDMRep processing priority: HTML meta supersedes the header, which supersedes tdmrep.json.
    tdm_reserved = next((s for s in (meta_tdm, header_tdm, file_tdm) if s is not None), False)

    training_allowed = bool(
        crawl_allowed and training_token_allowed and not cu_denied and not tdm_reserved and "noai" not in directives
    )
    return Verdict(
        training_allowed=training_allowed,
        images_allowed=training_allowed and "noimageai" not in directives,
        follow_links=not ({"nofollow", "none"} & directives),
        signals=tuple(dict.fromkeys(signals)),
    )
