"""Run a crawl in this process (``winnow crawl``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scrapy.crawler import CrawlerProcess
from scrapy.settings import Settings

from crawler import settings as default_settings
from crawler.report import STATS_FILE
from crawler.spider import JOURNAL, WinnowSpider

MIN_DOWNLOAD_DELAY = 0.001


class CrawlConfigError(ValueError):
    """Options that cannot make a crawl; the message says which."""


@dataclass
class CrawlOptions:
    seeds: list[str]
    output: Path
    max_pages: int = 1000
    max_depth: int = 3
    max_pages_per_host: int = 0
    sitemaps: bool = False
    bot_name: str = "winnowbot"
    contact_url: str = ""
    training_token: str = ""
    allow_private: bool = False
    languages: list[str] = field(default_factory=list)
    resume: bool = False
    progress: bool = True
    overrides: dict[str, str] = field(default_factory=dict)


def build_settings(opts: CrawlOptions) -> Settings:
    if not opts.seeds:
        raise CrawlConfigError("no seed URLs")
    if not opts.contact_url and not opts.allow_private:
        raise CrawlConfigError("--contact-url is required: site owners must be able to reach the crawl's operator "
                               "(it goes into the User-Agent)")
    journal = opts.output / JOURNAL
    if journal.exists() and journal.stat().st_size and not opts.resume:
        raise CrawlConfigError(f"{opts.output} holds an earlier crawl; pass --resume to continue it, "
                               "or use a new --output")
    settings = Settings()
    settings.setmodule(default_settings, priority="project")
    contact = opts.contact_url or "local test crawl"
    settings.set("BOT_NAME", opts.bot_name, priority="cmdline")
    settings.set("WINNOW_BOT_NAME", opts.bot_name, priority="cmdline")
    settings.set("WINNOW_TRAINING_TOKEN", opts.training_token or f"{opts.bot_name}-Extended", priority="cmdline")
    settings.set("WINNOW_CONTACT_URL", opts.contact_url, priority="cmdline")
    version = settings.get("WINNOW_BOT_VERSION")
    settings.set("USER_AGENT", f"{opts.bot_name}/{version} (+{contact})", priority="cmdline")
    settings.set("WINNOW_OUTPUT_DIR", str(opts.output), priority="cmdline")
    settings.set("WINNOW_MAX_PAGES", opts.max_pages, priority="cmdline")
    settings.set("WINNOW_MAX_DEPTH", opts.max_depth, priority="cmdline")
    settings.set("WINNOW_MAX_PAGES_PER_HOST", opts.max_pages_per_host, priority="cmdline")
    settings.set("WINNOW_ALLOW_PRIVATE", opts.allow_private, priority="cmdline")
    settings.set("WINNOW_LANGUAGES", opts.languages, priority="cmdline")
    settings.set("WINNOW_PROGRESS", opts.progress, priority="cmdline")
    for key, value in opts.overrides.items():
        settings.set(key, value, priority="cmdline")
    if settings.getfloat("DOWNLOAD_DELAY") < MIN_DOWNLOAD_DELAY:
        # Scrapy 2.19 on the asyncio reactor starts every queued download of a slot at once when the
        # delay is 0, ignoring CONCURRENT_REQUESTS_PER_DOMAIN; any positive delay restores the limit.
        settings.set("DOWNLOAD_DELAY", MIN_DOWNLOAD_DELAY, priority="cmdline")
    return settings


def crawl(opts: CrawlOptions) -> dict[str, Any]:
    """Crawl until the frontier is empty or a limit is reached; return crawl-stats.json's content."""
    settings = build_settings(opts)
    opts.output.mkdir(parents=True, exist_ok=True)
    process = CrawlerProcess(settings, install_root_handler=True)
    process.crawl(WinnowSpider, seeds=opts.seeds, output_dir=str(opts.output), resume=opts.resume,
                  sitemaps=opts.sitemaps)
    process.start()
    return json.loads((opts.output / STATS_FILE).read_text())
