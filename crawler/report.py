"""Crawl progress bar and the final ``crawl-stats.json``.

The bar shows pages written, hosts seen, the page rate and errors; at the end every Scrapy and
winnow statistic (including the frontier's topic and host-language distributions) is written next
to the WARC files, so a crawl can be judged without reading its log.
"""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from scrapy import signals
from tqdm import tqdm

from pipelines.settings import read as read_setting

STATS_FILE = "crawl-stats.json"


class CrawlReport:
    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.directory = Path(read_setting(crawler.settings, "WINNOW_OUTPUT_DIR"))
        self.progress = read_setting(crawler.settings, "WINNOW_PROGRESS")
        self.hosts: set[str] = set()
        self.errors = 0
        self.bar: tqdm | None = None

    @classmethod
    def from_crawler(cls, crawler: Any) -> CrawlReport:
        ext = cls(crawler)
        crawler.signals.connect(ext.opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(ext.error, signal=signals.spider_error)
        crawler.signals.connect(ext.error, signal=signals.item_error)
        crawler.signals.connect(ext.closed, signal=signals.spider_closed)
        return ext

    def opened(self, spider: Any) -> None:
        if self.progress:
            self.bar = tqdm(unit=" pages", desc="crawl", dynamic_ncols=True, leave=True)

    def item_scraped(self, item: Any, response: Any, spider: Any) -> None:
        self.hosts.add(urlsplit(response.url).netloc)
        if self.bar is not None:
            failed = self.crawler.stats.get_value("winnow/pages_failed", 0)
            self.bar.set_postfix(hosts=len(self.hosts), errors=self.errors + failed, refresh=False)
            self.bar.update(1)

    def error(self, *args: Any, **kwargs: Any) -> None:
        self.errors += 1

    def closed(self, spider: Any, reason: str) -> None:
        if self.bar is not None:
            self.bar.close()
        stats = dict(self.crawler.stats.get_stats())
        stats["finish_reason"] = reason
        stats["winnow/hosts"] = len(self.hosts)
        previous = self.directory / STATS_FILE
        if getattr(spider, "resume", False) and previous.exists():
            try:
                stats = merge_sessions(json.loads(previous.read_text()), stats)
            except (OSError, ValueError) as exc:  # a damaged file from a killed session: this session's alone
                stats["winnow/stats_merge_error"] = str(exc)[:200]
        journal = getattr(spider, "journal", None)
        if journal is not None:
            # Pages and hosts from the journal, which holds every session's, also one killed before it could write
            # its stats (the other counters of such a session are lost with it).
            stats["winnow/pages"] = journal.pages
            stats["winnow/hosts"] = len(journal.page_hosts)
        self.directory.mkdir(parents=True, exist_ok=True)
        tmp = self.directory / f".{STATS_FILE}.tmp"
        tmp.write_text(json.dumps(stats, indent=2, sort_keys=True, default=_json_default) + "\n")
        os.replace(tmp, self.directory / STATS_FILE)


FIRST_VALUE = ("start_time",)  # kept from the first session


def merge_sessions(previous: dict[str, Any], session: dict[str, Any]) -> dict[str, Any]:
    """The stats of a resumed crawl: counters summed over the sessions (``...max`` values: the largest),
    ``start_time`` from the first, everything else (``finish_reason``) from this one; ``sessions`` counts them and
    ``last_session`` keeps this one's own."""
    out = {k: v for k, v in previous.items() if k != "last_session"}
    for key, value in session.items():
        before = previous.get(key)
        if key in FIRST_VALUE and before is not None:
            continue
        if _number(value) and _number(before):
            out[key] = max(before, value) if key.endswith("max") else before + value
        else:
            out[key] = value
    out["sessions"] = int(previous.get("sessions", 1)) + 1
    out["last_session"] = session
    return out


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, set):
        return sorted(value)
    return str(value)
