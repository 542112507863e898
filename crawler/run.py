"""Run a crawl in this process (``winnow crawl``)."""

from __future__ import annotations

import contextlib
import gc
import ipaddress
import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from scrapy.crawler import CrawlerProcess
from scrapy.settings import SETTINGS_PRIORITIES, Settings
from scrapy.settings import default_settings as default_scrapy_settings

from crawler import settings as default_settings
from crawler.frontier.seeds import split_seeds
from crawler.net.address_guard import is_public, parse_networks
from crawler.render.middleware import MODES as RENDER_MODES
from crawler.report import STATS_FILE
from crawler.spider import JOURNAL, WinnowSpider
from pipelines.settings import read as read_setting
from pipelines.settings import unknown as unknown_settings

MIN_DOWNLOAD_DELAY = 0.001
GC_YOUNG_THRESHOLD = 10_000  # see crawl(): measured on bench/crawl_bench.py


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
    allowed_networks: list[str] = field(default_factory=list)  # with allow_private: exactly these (else the private)
    languages: list[str] = field(default_factory=list)
    render: str = "auto"
    resume: bool = False
    progress: bool = True
    overrides: dict[str, str] = field(default_factory=dict)
    # An object-store URL (s3://bucket/crawl) where finished WARC files and crawl-stats.json go; ``output`` is then
    # the local staging folder the crawl writes in (crawler/warc/upload.py).
    upload_to: str | None = None


def build_settings(opts: CrawlOptions) -> Settings:
    if not opts.seeds:
        raise CrawlConfigError("no seed URLs")
    good, bad = split_seeds(opts.seeds)
    if not good:
        listed = "; ".join(f"{seed!r}: {reason}" for seed, reason in list(bad.items())[:5])
        raise CrawlConfigError(f"no usable seed URL ({listed}); seeds are http(s) URLs with a host")
    if not opts.contact_url and not all(_local_seed(seed) for seed in good):
        raise CrawlConfigError("--contact-url is required: site owners must be able to reach the crawl's operator "
                               "(it goes into the User-Agent); only a crawl of loopback or private addresses may "
                               "go without")
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
    version = read_setting(settings, "WINNOW_BOT_VERSION")
    settings.set("USER_AGENT", f"{opts.bot_name}/{version} (+{contact})", priority="cmdline")
    settings.set("WINNOW_OUTPUT_DIR", str(opts.output), priority="cmdline")
    settings.set("WINNOW_MAX_PAGES", opts.max_pages, priority="cmdline")
    settings.set("WINNOW_MAX_DEPTH", opts.max_depth, priority="cmdline")
    settings.set("WINNOW_MAX_PAGES_PER_HOST", opts.max_pages_per_host, priority="cmdline")
    settings.set("WINNOW_ALLOW_PRIVATE", opts.allow_private, priority="cmdline")
    if opts.allowed_networks:
        settings.set("WINNOW_ALLOWED_NETWORKS", opts.allowed_networks, priority="cmdline")
    settings.set("WINNOW_LANGUAGES", opts.languages, priority="cmdline")
    settings.set("WINNOW_PROGRESS", opts.progress, priority="cmdline")
    settings.set("WINNOW_RENDER", opts.render, priority="cmdline")
    if opts.upload_to:
        settings.set("WINNOW_UPLOAD_TO", opts.upload_to, priority="cmdline")
    problem = unknown_settings(list(opts.overrides))
    if problem:  # a misspelt WINNOW_ setting would be ignored without a word
        raise CrawlConfigError(problem)
    for key, value in opts.overrides.items():
        settings.set(key, value, priority="cmdline")
    try:
        parse_networks(read_setting(settings, "WINNOW_ALLOWED_NETWORKS"))
    except ValueError as exc:
        raise CrawlConfigError(f"--allow-private / WINNOW_ALLOWED_NETWORKS: {exc}") from None
    _render_settings(settings)
    if settings.getfloat("DOWNLOAD_DELAY") < MIN_DOWNLOAD_DELAY:
        # Scrapy 2.19 on the asyncio reactor starts every queued download of a slot at once when the
        # delay is 0, ignoring CONCURRENT_REQUESTS_PER_DOMAIN; any positive delay restores the limit.
        settings.set("DOWNLOAD_DELAY", MIN_DOWNLOAD_DELAY, priority="cmdline")
    return settings


def _local_seed(seed: str) -> bool:
    """Whether a seed's host is ``localhost`` or a non-public IP literal: a crawl of only such needs no contact."""
    host = (urlsplit(seed).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return not is_public(ipaddress.ip_address(host))
    except ValueError:  # a name: it may resolve anywhere
        return False


def _render_settings(settings: Settings) -> None:
    """Derive scrapy-playwright's settings from winnow's (after -s overrides), or switch the browser off."""
    mode = str(read_setting(settings, "WINNOW_RENDER")).strip().lower()
    if mode not in RENDER_MODES:
        raise CrawlConfigError(f"--render must be one of {', '.join(RENDER_MODES)}, not {mode!r}")
    settings.set("WINNOW_RENDER", mode, priority="cmdline")
    if mode == "never":
        # Scrapy's own handlers (DOWNLOAD_HANDLERS merges into the base: name them): no Playwright driver starts.
        base = default_scrapy_settings.DOWNLOAD_HANDLERS_BASE
        settings.set("DOWNLOAD_HANDLERS", {"http": base["http"], "https": base["https"]}, priority="cmdline")
        return
    chromium = read_setting(settings, "WINNOW_CHROMIUM")
    if not Path(chromium).is_file():
        raise CrawlConfigError(f"--render {mode} needs Chromium at {chromium} (apt-get install chromium, as "
                               "scripts/setup.sh does; or -s WINNOW_CHROMIUM=PATH), or use --render never")
    if settings.getpriority("PLAYWRIGHT_LAUNCH_OPTIONS") < SETTINGS_PRIORITIES["cmdline"]:
        args = [*read_setting(settings, "WINNOW_CHROMIUM_ARGS"),
                f"--js-flags=--max-old-space-size={settings.getint('WINNOW_RENDER_JS_HEAP_MB')}"]
        settings.set("PLAYWRIGHT_LAUNCH_OPTIONS", {"executable_path": chromium, "args": args}, priority="cmdline")
    pages = read_setting(settings, "WINNOW_RENDER_MAX_PAGES")
    if pages < 1:
        raise CrawlConfigError("WINNOW_RENDER_MAX_PAGES must be at least 1")
    settings.set("PLAYWRIGHT_MAX_PAGES_PER_CONTEXT", pages, priority="cmdline")
    settings.set("PLAYWRIGHT_DEFAULT_NAVIGATION_TIMEOUT", read_setting(settings, "WINNOW_RENDER_PAGE_TIMEOUT") * 1000,
                 priority="cmdline")


def apply_log_level(settings: Settings) -> None:
    """``LOG_LEVEL`` for a crawl that logs through the caller's root handler (the winnow CLI's).

    Scrapy applies ``LOG_LEVEL`` to the root handler it installs and sets its own ``scrapy`` logger to DEBUG; with
    the caller's handler instead, every DEBUG line ("Crawled (200)", "Scraped from" with the item) was printed
    whatever ``LOG_LEVEL`` said, about 1 of 40 CPU-seconds in bench/crawl_bench.py's 5,000 pages.
    """
    if settings.getbool("LOG_INSTALL_ROOT_HANDLER"):
        return  # Scrapy's own handler filters by LOG_LEVEL
    level = logging.getLevelName(str(settings.get("LOG_LEVEL", "INFO")).upper())
    if not isinstance(level, int):
        return  # an unknown name: Scrapy reports it
    logging.getLogger("scrapy").setLevel(level)
    for handler in logging.getLogger().handlers:
        handler.setLevel(max(handler.level, level))


@contextlib.contextmanager
def tuned_gc() -> Iterator[None]:
    """Garbage collection tuned for a crawl, restored after.

    GC cost 1.8 of 16 CPU-seconds of bench/crawl_bench.py's 2,000 pages. What exists when the crawl starts (the
    modules of Scrapy, Twisted, lxml, numpy..., a few hundred thousand objects) lives as long as the crawl: frozen,
    full collections stop walking it again and again. And a crawl allocates in bursts of short-lived containers per
    response: with a young generation of 10,000 instead of 700, 5,000 pages took 51 young collections instead of
    3,450, GC 0.5 instead of 2.8 s, 31.6 instead of 34.2 CPU-seconds (two runs each); peak RSS unchanged."""
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def crawl(opts: CrawlOptions) -> dict[str, Any]:
    """Crawl until the frontier is empty or a limit is reached; return crawl-stats.json's content."""
    settings = build_settings(opts)
    opts.output.mkdir(parents=True, exist_ok=True)
    # One handler on the root logger: when the caller configured logging already (the winnow CLI does), Scrapy's own
    # root handler would print every line a second time.
    settings.set("LOG_INSTALL_ROOT_HANDLER", not logging.getLogger().handlers, priority="cmdline")
    apply_log_level(settings)  # before: Scrapy logs its versions while it starts
    process = CrawlerProcess(settings)
    apply_log_level(settings)  # after: starting reset the scrapy logger to DEBUG
    good, bad = split_seeds(opts.seeds)
    process.crawl(WinnowSpider, seeds=good, output_dir=str(opts.output), resume=opts.resume,
                  sitemaps=opts.sitemaps, skipped_seeds=bad)
    with tuned_gc():
        process.start()
    if opts.upload_to:  # beside the WARC files, where `winnow report` looks for a crawl's statistics
        from pipelines import storage

        storage.upload(str(opts.output / STATS_FILE), storage.join(opts.upload_to, STATS_FILE))
    return json.loads((opts.output / STATS_FILE).read_text())
