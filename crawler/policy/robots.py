"""robots.txt parsing and matching per RFC 9309, plus the AI-preferences ``Content-Usage`` rule.

Pure Python, no Scrapy imports: the downloader middleware (`crawler.policy.robots_middleware`) and anyone checking a
URL offline (`is_allowed`) run exactly this code.

Why not Protego (Scrapy's parser): Protego selects a group whose name is a *prefix* of the crawler's token, so
rules written for ``winnowbot`` would also bind ``winnowbot-Extended``. RFC 9309 §2.2.1 (and Google's reference
parser) apply a group only when its product token equals the crawler's token, case-insensitively, and otherwise
the ``*`` group. That difference decides the training opt-out, so matching is implemented here.

Rules implemented, with their source:

- Lines: CR, LF and CRLF all end a line (RFC 9309 §2.2 ABNF ``NL``); ``#`` starts a comment (§2.2.3); keys are
  case-insensitive (§2.2); a UTF-8 byte order mark at the start, whole or partial, is skipped (Google robotstxt,
  robots.cc); a line that cannot be parsed is skipped and the rest is used (§2.3.1.5).
- Groups (§2.1, §2.2.1): one or more user-agent lines followed by rules; a user-agent line after an allow or
  disallow rule starts a new group (Sitemap, Crawl-delay, Content-Usage and unknown lines do not: §2.2.4, other
  records must not interfere); rules before the first user-agent line are ignored (§2.2.2); every group naming
  the token is merged; the ``*`` groups apply only when no group names the token; no applicable group means
  everything is allowed.
- Matching (§2.2.2, §2.2.3): paths and patterns are normalised and matched by `crawler.policy.robots_match`; the
  longest pattern (most octets) wins and Allow wins a tie; an empty Disallow matches nothing; ``/robots.txt``
  is always allowed.
- Limits: only the first 500 KiB are parsed (§2.5 requires a limit of at least 500 KiB; Google uses exactly
  that); a line cut by the limit is dropped rather than parsed half-way. A line keeps at most 8 x 2083 - 1 bytes,
  as in Google's parser (2083 bytes being the longest URL some browsers accept).
- Leniency that Google's reference tests pin down (RFC 9309 §2.2.4 allows it for other records; Google applies
  it to all): a missing colon when the line is exactly ``key value``; the key typos ``useragent``,
  ``user agent``, ``dissallow``, ``dissalow``, ``disalow``, ``diasllow``, ``disallaw``, ``site-map``; keys matched
  by prefix as Google does; a user-agent value is read up to its first character outside ``[A-Za-z_-]``, and
  ``* anything`` still means ``*``; ``Allow: /dir/index.html`` also allows ``/dir/``.
- Fetch results (§2.3.1, see `rules_for_fetch`): 2xx is parsed; 4xx is "unavailable" (allow all); 5xx and
  network errors are "unreachable" (disallow all). 429 is treated as unreachable, following Google's documented
  handling, because it asks the client to back off rather than saying the file is absent. A redirect chain longer
  than allowed ends as "unavailable" (§2.3.1.2 permits that).
- ``Crawl-delay`` (not in RFC 9309; widely used): seconds, from the applicable groups; the largest valid value.
- ``Content-Usage: [path] <prefs>`` (draft-ietf-aipref-attach, "Robots Exclusion Protocol Content-Usage Rule"):
  a rule inside a group; its path matches like Allow/Disallow and the longest matching path's preference
  applies; rules with the identical path "apply separately", so their values are returned one per line, in file
  order (the vocabulary's combining rule, most restrictive wins, is applied downstream by `crawler.policy.signals`);
  preferences apply only to paths the token may crawl. Early drafts allowed the path to be left
  out; such a rule applies to every path, below any rule with a path.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from crawler.policy.robots_match import (
    TOKEN_RUN,
    WHITESPACE,
    RobotsPattern,
    normalize_path,
    normalize_pattern,
    path_of,
    product_token,
)

__all__ = [
    "DEFAULT_MAX_BYTES",
    "RobotsRules",
    "is_allowed",
    "normalize_path",
    "path_of",
    "product_token",
    "rules_for_fetch",
]

# RFC 9309 §2.5: "The parsing limit MUST be at least 500 kibibytes".
DEFAULT_MAX_BYTES = 500 * 1024

# Google robots.cc: 8 x 2083 bytes per line (2083 = longest URL some browsers accept); the buffer keeps one byte
# for its terminator, so a line keeps at most this many bytes.
MAX_LINE_BYTES = 2083 * 8 - 1

_NEWLINE = re.compile(r"\r\n|\r|\n")

_KEY_USER_AGENT = ("user-agent", "useragent", "user agent")
_KEY_DISALLOW = ("disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw")
_KEY_SITEMAP = ("sitemap", "site-map")


# --------------------------------------------------------------------------------------------------------------
# Groups and policy
# --------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Rule:
    allow: bool
    pattern: RobotsPattern


@dataclass(frozen=True, slots=True)
class _UsageRule:
    pattern: RobotsPattern | None  # None: no path given, applies to every path at the lowest priority
    value: str


@dataclass(slots=True)
class _Group:
    agents: set[str] = field(default_factory=set)  # lower-cased product tokens
    is_global: bool = False
    rules: list[_Rule] = field(default_factory=list)
    delays: list[float] = field(default_factory=list)
    usage: list[_UsageRule] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Policy:
    """The merged rules that apply to one token."""

    rules: tuple[_Rule, ...]  # sorted: longest first, Allow before Disallow on equal length
    crawl_delay: float | None
    usage: tuple[_UsageRule, ...]

    def allowed(self, path: str) -> bool:
        for rule in self.rules:
            if rule.pattern.matches(path):
                return rule.allow
        return True

    def content_usage(self, path: str) -> str | None:
        best = -1
        values: list[str] = []
        for rule in self.usage:
            priority = 0 if rule.pattern is None else rule.pattern.priority
            if priority < best or (rule.pattern is not None and not rule.pattern.matches(path)):
                continue
            if priority > best:
                best, values = priority, []
            if rule.value not in values:
                values.append(rule.value)
        return "\n".join(values) if values else None


def _merge(groups: Sequence[_Group]) -> _Policy:
    rules = [rule for group in groups for rule in group.rules]
    rules.sort(key=lambda r: (-r.pattern.priority, not r.allow))
    delays = [d for group in groups for d in group.delays]
    usage = tuple(u for group in groups for u in group.usage)
    return _Policy(tuple(rules), max(delays) if delays else None, usage)


# --------------------------------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------------------------------


def _limit_text(text: str, max_bytes: int) -> tuple[str, bool]:
    """Keep the first ``max_bytes`` of UTF-8; drop the line the cut falls in (half a line could widen an Allow)."""
    if len(text) * 4 <= max_bytes:
        return text, False
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= max_bytes:
        return text, False
    kept = data[:max_bytes]
    last_break = max(kept.rfind(b"\n"), kept.rfind(b"\r"))
    kept = kept[: last_break + 1] if last_break >= 0 else b""
    return kept.decode("utf-8", "replace"), True


def _cut_line(line: str) -> str:
    if len(line) <= MAX_LINE_BYTES // 4:
        return line
    data = line.encode("utf-8", "surrogatepass")
    if len(data) <= MAX_LINE_BYTES:
        return line
    return data[:MAX_LINE_BYTES].decode("utf-8", "ignore")


def _key_value(line: str) -> tuple[str, str] | None:
    """Split ``key: value`` (Google also accepts ``key value`` when there are exactly two words)."""
    line = line.split("#", 1)[0].strip(WHITESPACE)
    if ":" in line:
        key, _, value = line.partition(":")
    else:
        words = re.split(r"[ \t]+", line)
        if len(words) != 2:
            return None
        key, value = words
    key, value = key.strip(WHITESPACE), value.strip(WHITESPACE)
    return (key, value) if key else None


def _key_kind(key: str) -> str:
    lowered = key.lower()
    if lowered.startswith(_KEY_USER_AGENT):
        return "user-agent"
    if lowered.startswith("allow"):
        return "allow"
    if lowered.startswith(_KEY_DISALLOW):
        return "disallow"
    if lowered.startswith(_KEY_SITEMAP):
        return "sitemap"
    if lowered == "crawl-delay":
        return "crawl-delay"
    if lowered == "content-usage":
        return "content-usage"
    return "other"


def _agent_of(value: str) -> str | None:
    """``None`` for the ``*`` agent, else the lower-cased token (``""`` when the value has none)."""
    if value.startswith("*") and (len(value) == 1 or value[1] in WHITESPACE):
        return None
    run = TOKEN_RUN.match(value)
    return run.group().lower() if run else ""


def _allow_rules(value: str) -> Iterable[_Rule]:
    normalised = normalize_pattern(value)
    yield _Rule(True, RobotsPattern.compile(normalised))
    # Google: "Allow: /dir/index.html" (or index.htm...) also allows "/dir/" itself.
    slash = normalised.rfind("/")
    if slash >= 0 and normalised[slash:].startswith("/index.htm"):
        yield _Rule(True, RobotsPattern.compile(normalised[: slash + 1] + "$"))


def _parse_delay(value: str) -> float | None:
    try:
        delay = float(value)
    except ValueError:
        return None
    return delay if math.isfinite(delay) and delay >= 0 else None


def _parse_usage(value: str) -> _UsageRule | None:
    if value.startswith("/"):
        parts = value.split(None, 1)
        if len(parts) != 2:
            return None
        return _UsageRule(RobotsPattern.compile(normalize_pattern(parts[0])), parts[1].strip(WHITESPACE))
    return _UsageRule(None, value) if value else None


def _parse(text: str) -> tuple[list[_Group], list[str]]:
    groups: list[_Group] = []
    sitemaps: list[str] = []
    current: _Group | None = None
    closed = True  # an allow or disallow rule was seen since the last user-agent line
    for raw_line in _NEWLINE.split(text):
        pair = _key_value(_cut_line(raw_line))
        if pair is None:
            continue  # blank lines and comments neither end nor start a group
        key, value = pair
        kind = _key_kind(key)
        if kind == "user-agent":
            if closed:
                current, closed = _Group(), False
                groups.append(current)
            assert current is not None
            agent = _agent_of(value)
            if agent is None:
                current.is_global = True
            else:
                current.agents.add(agent)
            continue
        if kind == "sitemap":
            sitemaps.append(value)
        if current is None:
            continue  # RFC 9309 §2.2.2: rules outside any group are ignored
        if kind in ("allow", "disallow"):
            # Only the protocol's own rules end a run of user-agent lines: Sitemap, Crawl-delay, Content-Usage and
            # unknown records are "other records", which "MUST NOT interfere" with the parsing of the rest
            # (RFC 9309 §2.2.4; Google's parser likewise ends a group on allow/disallow only).
            closed = True
        _add_record(current, kind, value)
    return groups, sitemaps


def _add_record(group: _Group, kind: str, value: str) -> None:
    if kind == "allow" and value:
        group.rules.extend(_allow_rules(value))
    elif kind == "disallow" and value:
        # An empty Disallow matches nothing (RFC 9309 §2.2.2: no match means allowed).
        group.rules.append(_Rule(False, RobotsPattern.compile(normalize_pattern(value))))
    elif kind == "crawl-delay":
        delay = _parse_delay(value)
        if delay is not None:
            group.delays.append(delay)
    elif kind == "content-usage":
        usage = _parse_usage(value)
        if usage is not None:
            group.usage.append(usage)


# --------------------------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------------------------


class RobotsRules:
    """One host's parsed robots.txt, queried per product token.

    ``reason`` records how the rules came to be: ``"parsed"`` (2xx), ``"unavailable_4xx"`` (allow all),
    ``"unavailable_redirects"`` (too many redirects: allow all), ``"unreachable_5xx"``, ``"unreachable_429"``,
    ``"unreachable_error"`` (disallow all), or ``"allow_all"`` / ``"disallow_all"`` for hand-made rules.
    """

    def __init__(
        self,
        groups: Sequence[_Group] = (),
        sitemaps: Sequence[str] = (),
        *,
        reason: str = "parsed",
        everything: bool | None = None,
        status: int | None = None,
        truncated: bool = False,
    ) -> None:
        self._groups = tuple(groups)
        self._sitemaps = list(sitemaps)
        self._everything = everything  # True/False: allow/disallow every path regardless of the file
        self._policies: dict[str, _Policy] = {}
        self.reason = reason
        self.status = status
        self.truncated = truncated

    @classmethod
    def parse(
        cls, robots_txt: str, *, max_bytes: int = DEFAULT_MAX_BYTES, reason: str = "parsed", status: int | None = None
    ) -> RobotsRules:
        text = robots_txt[1:] if robots_txt.startswith("\ufeff") else robots_txt
        text, truncated = _limit_text(text, max_bytes)
        return cls._from_text(text, reason=reason, status=status, truncated=truncated)

    @classmethod
    def _from_text(cls, text: str, *, reason: str, status: int | None, truncated: bool) -> RobotsRules:
        groups, sitemaps = _parse(text)
        return cls(groups, sitemaps, reason=reason, status=status, truncated=truncated)

    @classmethod
    def allow_all(cls, reason: str = "allow_all", status: int | None = None) -> RobotsRules:
        return cls(reason=reason, everything=True, status=status)

    @classmethod
    def disallow_all(cls, reason: str = "disallow_all", status: int | None = None) -> RobotsRules:
        return cls(reason=reason, everything=False, status=status)

    @property
    def sitemaps(self) -> list[str]:
        return list(self._sitemaps)

    def allowed(self, url_or_path: str, token: str) -> bool:
        """May ``token`` (a product token or full User-Agent) fetch ``url_or_path``?"""
        path = path_of(url_or_path)
        if path == "/robots.txt":
            return True  # RFC 9309 §2.2.2: "The /robots.txt URI is implicitly allowed."
        if self._everything is not None:
            return self._everything
        return self._policy(token).allowed(normalize_path(path))

    def crawl_delay(self, token: str) -> float | None:
        if self._everything is not None:
            return None
        return self._policy(token).crawl_delay

    def content_usage(self, url_or_path: str, token: str) -> str | None:
        """The Content-Usage preference for ``url_or_path``, or None; None too where ``token`` may not crawl.

        Several rules with the identical (longest matching) path give one value per line."""
        if self._everything is not None or not self.allowed(url_or_path, token):
            return None
        return self._policy(token).content_usage(normalize_path(path_of(url_or_path)))

    def _policy(self, token: str) -> _Policy:
        policy = self._policies.get(token)
        if policy is None:
            key = product_token(token)
            specific = [g for g in self._groups if key and key in g.agents]
            policy = _merge(specific or [g for g in self._groups if g.is_global])
            self._policies[token] = policy
        return policy

    def __repr__(self) -> str:
        return f"<RobotsRules reason={self.reason} groups={len(self._groups)} sitemaps={len(self._sitemaps)}>"


def rules_for_fetch(status: int | None, body: bytes | None, *, max_bytes: int = DEFAULT_MAX_BYTES) -> RobotsRules:
    """Rules for the outcome of fetching /robots.txt (RFC 9309 §2.3.1); ``status=None`` means no response."""
    if status is None:
        return RobotsRules.disallow_all("unreachable_error")
    if 200 <= status < 300:
        return _parse_body(body or b"", status, max_bytes)
    if 300 <= status < 400:
        return RobotsRules.allow_all("unavailable_redirects", status)  # §2.3.1.2
    if status == 429:
        return RobotsRules.disallow_all("unreachable_429", status)
    if 400 <= status < 500:
        return RobotsRules.allow_all("unavailable_4xx", status)  # §2.3.1.3
    if 500 <= status < 600:
        return RobotsRules.disallow_all("unreachable_5xx", status)  # §2.3.1.4
    return RobotsRules.disallow_all("unreachable_error", status)


def _parse_body(body: bytes, status: int, max_bytes: int) -> RobotsRules:
    # Google skips a whole or partial UTF-8 BOM at the start of the file.
    for bom in (b"\xef\xbb\xbf", b"\xef\xbb", b"\xef"):
        if body.startswith(bom):
            body = body[len(bom) :]
            break
    truncated = len(body) > max_bytes
    if truncated:
        kept = body[:max_bytes]
        last_break = max(kept.rfind(b"\n"), kept.rfind(b"\r"))
        body = kept[: last_break + 1] if last_break >= 0 else b""
    # The byte limit is already applied; decoding may grow the text (U+FFFD), so it is not measured again.
    return RobotsRules._from_text(body.decode("utf-8", "replace"), reason="parsed", status=status, truncated=truncated)


def is_allowed(robots_txt: str, user_agent: str, url: str) -> bool:
    """May ``user_agent`` (product token or full User-Agent string) fetch ``url`` under ``robots_txt``?

    The same logic the crawler's middleware applies, for a robots.txt fetched with a 2xx status.
    """
    return RobotsRules.parse(robots_txt).allowed(url, user_agent)
