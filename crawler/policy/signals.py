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

Specifications and where they are handled
-----------------------------------------
* IETF AI Preferences, ``Content-Usage`` (draft-ietf-aipref-vocab, draft-ietf-aipref-attach): parsed and
  judged in ``crawler/policy/content_usage.py``. Here, each statement (the robots.txt rule's values joined by
  newlines, each a separate statement; the HTTP header, several field lines joined with ", " as one field,
  RFC 9110 §5.3) is consulted, and any disallow wins (§"Combining Preferences").
* W3C TDM Reservation Protocol (TDMRep), Community Group Final Report of 10 May 2024
  (https://w3c.github.io/tdm-reservation-protocol/spec/): ``/.well-known/tdmrep.json`` is parsed and matched
  in ``crawler/policy/tdmrep.py``. Here: ``tdm-reservation`` is 1 or 0, other values are protocol errors, recorded
  (``...=invalid:<value>``) and otherwise ignored; within one layer several values reserve if any valid value
  is 1; processing priority meta > header > tdmrep.json (header values "supercede any value inferred from a
  TDM file on the origin server"; HTML meta values "supercede previous values").
* ``noai`` / ``noimageai`` (DeviantArt, Nov 2022), robots meta tag and X-Robots-Tag (Google, "Robots meta
  tag, data-nosnippet, and X-Robots-Tag specifications"; MDN): parsed, and the HTML head scanned, in
  ``crawler/policy/robots_directives.py``. Here the directives of every source are united, so the most restrictive
  applies (Google); ``noai`` forbids training, ``noimageai`` the page's images only (issue 3, the project's
  policy), ``nofollow`` and ``none`` following links.

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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from crawler.policy.content_usage import (
    as_text,
    content_usage_denies_training,
    content_usage_statement,
    parse_content_usage_or_none,
)
from crawler.policy.robots_directives import RELEVANT_DIRECTIVES, directives_for, html_signals
from crawler.policy.tdmrep import TdmRep, path_and_query

__all__ = ["VERDICT_HEADERS", "Verdict", "page_verdict"]

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
# The verdict


def _clean(value: str, lower: bool = True) -> str:
    text = " ".join(value.split())
    text = "".join(c for c in text if c.isprintable())
    return (text.lower() if lower else text)[:MAX_SIGNAL_VALUE]


# The response headers a verdict reads: a caller may pass only these (crawler/spider.py does).
VERDICT_HEADERS = ("content-usage", "x-robots-tag", "tdm-reservation", "tdm-policy")


def _normalise_headers(headers: Mapping[object, object] | None) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for key, values in (headers or {}).items():
        name = as_text(key)
        if name is None:
            continue
        seq = values if isinstance(values, list | tuple) else [values]
        texts = [t for t in (as_text(v) for v in seq) if t is not None]
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
    for line in (ln for st in statements for ln in (as_text(st) or "").splitlines()):
        statement = content_usage_statement(line)
        if not statement:
            continue
        prefs = parse_content_usage_or_none(statement)
        signals.append(f"robots:content-usage={'' if prefs is not None else 'invalid:'}{_clean(statement)}")
        cu_denied |= content_usage_denies_training(prefs or {})

    hdrs = _normalise_headers(headers)
    cu_lines = [v.strip() for v in hdrs.get("content-usage", []) if v.strip()]
    if cu_lines:
        combined = ", ".join(cu_lines)  # several field lines are one field (RFC 9110 §5.3)
        prefs = parse_content_usage_or_none(combined)
        signals.append(f"header:content-usage={'' if prefs is not None else 'invalid:'}{_clean(combined)}")
        cu_denied |= content_usage_denies_training(prefs or {})

    # Robots directives: header, then meta robots, then meta <bot>.
    directives: set[str] = set()
    header_dirs: list[str] = []
    for value in hdrs.get("x-robots-tag", []):
        for d in directives_for(value, bot_name):
            if d not in header_dirs:
                header_dirs.append(d)
    directives.update(header_dirs)
    signals.extend(f"header:x-robots-tag={d}" for d in header_dirs if d in RELEVANT_DIRECTIVES)

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
        signals.extend(f"meta:robots={d}" for d in meta["meta-robots"] if d in RELEVANT_DIRECTIVES)
        signals.extend(f"meta:{bot}={d}" for d in meta["meta-bot"] if d in RELEVANT_DIRECTIVES)
        meta_tdm = _tdm_layer("meta", meta["tdm-reservation"], meta["tdm-policy"], signals)

    file_tdm: bool | None = None
    if tdmrep is not None:
        if tdmrep.error:
            signals.append("tdmrep.json:invalid")
        reserved, policy = tdmrep.reservation_for(path_and_query(url) if isinstance(url, str) else "/")
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
