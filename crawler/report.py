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

STATS_FILE = "crawl-stats.json"


class CrawlReport:
    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.directory = Path(crawler.settings.get("WINNOW_OUTPUT_DIR"))
        self.progress = crawler.settings.getbool("WINNOW_PROGRESS", True)
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
        self.directory.mkdir(parents=True, exist_ok=True)
        tmp = self.directory / f".{STATS_FILE}.tmp"
        tmp.write_text(json.dumps(stats, indent=2, sort_keys=True, default=_json_default) + "\n")
        os.replace(tmp, self.directory / STATS_FILE)


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, set):
        return sorted(value)
    return str(value)
