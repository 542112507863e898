"""IETF AI Preferences ``Content-Usage`` statements: parsing, and whether one denies training.

Pure functions, no Scrapy; ``crawler.policy.signals.page_verdict`` combines the answer with every other signal.

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
rule is matched by ``crawler.policy.robots`` (longest path prefix, like Allow/Disallow) and arrives at
``crawler.policy.signals.page_verdict`` as ``robots_content_usage``; rules with identical paths "apply
separately", so several values may be passed joined by newlines and each is a separate statement. Several
``Content-Usage`` header lines are one field (RFC 9110 §5.3), so ``page_verdict`` joins them with ", " and
they are parsed as one Dictionary (last key wins).
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping

__all__ = [
    "as_text",
    "content_usage_denies_training",
    "content_usage_statement",
    "parse_content_usage",
    "parse_content_usage_or_none",
]

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
WHITESPACE = frozenset(" \t")


class _SFParser:
    """Just enough of RFC 9651 to accept or reject a Dictionary and read its Tokens."""

    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def skip_ws(self) -> None:
        while self.i < len(self.s) and self.s[self.i] in WHITESPACE:
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


def as_text(value: object) -> str | None:
    """A header or attribute value as text (bytes read as Latin-1, as HTTP headers are); None for other types."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes | bytearray):
        return bytes(value).decode("latin-1")
    return None


def parse_content_usage_or_none(value: object) -> dict[str, bool] | None:
    """Like ``parse_content_usage``, but None when the value is not a Dictionary (so it can be recorded)."""
    text = as_text(value)
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
    return parse_content_usage_or_none(value) or {}


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


def content_usage_statement(value: str) -> str:
    """The preference part of a robots.txt Content-Usage value; tolerates a leading path being left in."""
    value = value.strip()
    if value.startswith("/"):
        parts = value.split(None, 1)
        value = parts[1] if len(parts) > 1 else ""
    return value
