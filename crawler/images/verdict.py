"""The training-use verdict of an image response, and the reason it is not stored.

The verdict is crawler/policy/signals.py's ``page_verdict`` (no parsing here): the robots.txt answers the robots
middleware put in ``request.meta["winnow_robots"]`` for the image URL (bot token, training token, Content-Usage
rule), the image response's headers (``X-Robots-Tag``, ``Content-Usage``, ``tdm-reservation``/``tdm-policy``) and the
image host's ``/.well-known/tdmrep.json``. An image may be stored only when the verdict's ``images_allowed`` holds
(training allowed and no ``noimageai``): an image is what ``noimageai`` protects.

``not_stored_reason`` names the signal that forbids it, by asking ``page_verdict`` again with one kind of signal at a
time (the verdict itself records every signal seen, permissive ones too, so its signal list alone does not say which
one denied): ``optout.noai``, ``optout.content_usage``, ``optout.tdmrep``, then ``optout.noimageai``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from crawler.policy.signals import Verdict, page_verdict
from crawler.policy.tdmrep import TdmRep

_CU = ("content-usage",)
_TDM = ("tdm-reservation", "tdm-policy")
_XRT = ("x-robots-tag",)


def image_verdict(url: str, bot_name: str, robots: Mapping[str, Any] | None, headers: Mapping[str, list[str]],
                  tdmrep: TdmRep | None) -> Verdict:
    """``page_verdict`` for an image response (``robots`` is the robots middleware's meta, None if unchecked)."""
    robots = robots or {}
    return page_verdict(url=url, bot_name=bot_name, crawl_allowed=robots.get("crawl_allowed", True),
                        robots_signals=tuple(robots.get("signals", ())),
                        training_token_allowed=robots.get("training_allowed", True),
                        robots_content_usage=robots.get("content_usage"), headers=headers, tdmrep=tdmrep)


def robots_reason(robots: Mapping[str, Any], url: str, bot_name: str) -> str | None:
    """Before the fetch: why robots.txt (training token, Content-Usage rule) forbids training use, or None."""
    if not robots.get("training_allowed", True):
        return "training_disallowed"
    if not page_verdict(url=url, bot_name=bot_name, crawl_allowed=True,
                        robots_content_usage=robots.get("content_usage")).training_allowed:
        return "optout.content_usage"
    return None


def not_stored_reason(verdict: Verdict, url: str, bot_name: str, headers: Mapping[str, list[str]],
                      tdmrep: TdmRep | None) -> str | None:
    """None when ``verdict`` allows storing the image; else the opt-out that forbids it (see the module doc)."""
    if verdict.images_allowed:
        return None

    def denies(names: tuple[str, ...], file: TdmRep | None = None) -> Verdict:
        only = {k: v for k, v in headers.items() if k.lower() in names}
        return page_verdict(url=url, bot_name=bot_name, crawl_allowed=True, headers=only, tdmrep=file)

    xrt = denies(_XRT)
    if not xrt.training_allowed:
        return "optout.noai"
    if not denies(_CU).training_allowed:
        return "optout.content_usage"
    if not denies(_TDM, tdmrep).training_allowed:
        return "optout.tdmrep"
    if not xrt.images_allowed:
        return "optout.noimageai"
    # robots.txt answers are applied before the fetch (robots_reason); what is left is a combination of signals
    return "optout.other"
