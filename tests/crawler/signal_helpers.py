"""Helpers shared by the publisher-signal tests (test_robots_directives, test_tdmrep, test_signals)."""

from __future__ import annotations

from typing import Any

from crawler.policy.signals import Verdict, page_verdict
from crawler.policy.tdmrep import TdmRep

BOT = "winnowbot"
URL = "https://example.org/articles/one.html"


def head(*metas: str, body: str = "<p>text</p>") -> str:
    return f"<!doctype html><html><head><title>t</title>{''.join(metas)}</head><body>{body}</body></html>"


def verdict(**kw: Any) -> Verdict:
    kw.setdefault("url", URL)
    kw.setdefault("bot_name", BOT)
    kw.setdefault("crawl_allowed", True)
    return page_verdict(**kw)


def outcome(v: Verdict) -> tuple[bool, bool, bool]:
    return v.training_allowed, v.images_allowed, v.follow_links


def rules(*entries: tuple[str, int]) -> TdmRep:
    import json

    return TdmRep.parse(json.dumps([{"location": loc, "tdm-reservation": r} for loc, r in entries]))
