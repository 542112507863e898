"""Run ``winnow images fetch`` in this process: plan, settings, the crawl, ``fetch-stats.json``.

The plan is one pass over the output's image references (only ``id`` and the image URLs are kept): how many
references each URL has (crawler/images/ledger.py keeps a shared image until its last one), and the image hosts,
which decide whether ``--contact-url`` may be left out, by the rule of ``winnow crawl``: crawler/run.py's
``build_settings`` gets the hosts as its seeds and checks it, with the bot name, training token, ``--allow-private``
networks and ``-s`` overrides, exactly as for a crawl. On top of the crawl settings: Scrapy's own HTTP handlers (no
browser: an image needs none), no WARC pipeline, frontier or crawl report, and the image policy middleware.

Every row read ends stored or counted under one reason (fetch-stats.json ``not_stored``), over all sessions of a
resumed fetch: ``stored + sum(not_stored) == rows``.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scrapy.crawler import CrawlerProcess
from scrapy.settings import Settings

from crawler.images import workers as worker_pool
from crawler.images.journal import JOURNAL, STATE_DIR, Journal, journal_paths
from crawler.images.ledger import SHARED_DIR, Ledger, prefetch_reason
from crawler.images.sources import ImageRef, SourceError, find_shards, read_refs
from crawler.images.split import Routing, assign_hosts, host_name, preload
from crawler.images.writer import DEFAULT_MAX_ROWS, ShardWriter, stored_ids
from crawler.policy.robots import product_token
from crawler.run import CrawlConfigError, CrawlOptions, apply_log_level, build_settings, tuned_gc
from crawler.spider import host_root

STATS_FILE = "fetch-stats.json"
OPTIONS = STATE_DIR / "options.json"  # what a --resume must repeat
DEFAULT_MAX_MB = 20.0  # as the crawl's DOWNLOAD_MAXSIZE
DEFAULT_TIMEOUT = 30.0  # as the crawl's DOWNLOAD_TIMEOUT

log = logging.getLogger(__name__)


class FetchError(ValueError):
    """Options or folders that cannot make a fetch; the message says which (the CLI prints it, rc 2)."""


@dataclass
class FetchOptions:
    source: Path  # a `winnow run` output folder
    output: Path
    resize: int | None = None
    max_mb: float = DEFAULT_MAX_MB
    timeout: float = DEFAULT_TIMEOUT
    shard_rows: int = DEFAULT_MAX_ROWS
    bot_name: str = "winnowbot"
    contact_url: str = ""
    training_token: str = ""
    allow_private: bool = False
    allowed_networks: list[str] = field(default_factory=list)
    resume: bool = False
    progress: bool = True
    overrides: dict[str, str] = field(default_factory=dict)
    workers: int = 1  # processes, image hosts split between them (crawler/images/workers.py)
    retry_failed: bool = False  # with resume: fetch again the rows counted under a TEMPORARY reason


@dataclass
class Plan:
    rows: int  # rows still to handle
    done: int  # rows handled by earlier sessions (--resume)
    refs: dict[str, int]  # url -> references, for URLs referenced more than once
    hosts: list[str]  # scheme://host[:port]/ of every image to fetch
    host_urls: dict[str, int] = field(default_factory=dict)  # host name -> distinct image URLs to fetch
    # With workers: id -> host name of its first row (None: a row not fetched), for ids on more than one row, so that
    # every row of an id goes to one worker and only one is stored, as in one process.
    repeated: dict[str, str | None] = field(default_factory=dict)


def check_options(opts: FetchOptions) -> None:
    if opts.resize is not None and opts.resize < 1:
        raise FetchError(f"--resize must be a positive number of pixels, not {opts.resize}")
    if opts.max_mb <= 0:
        raise FetchError(f"--max-mb must be positive, not {opts.max_mb}")
    if opts.timeout <= 0:
        raise FetchError(f"--timeout must be positive, not {opts.timeout}")
    if opts.shard_rows < 1:
        raise FetchError(f"--shard-rows must be at least 1, not {opts.shard_rows}")
    if opts.workers < 1:
        raise FetchError(f"--workers must be at least 1, not {opts.workers}")
    if opts.workers > 1 and not worker_pool.supported():
        raise FetchError("--workers needs Linux (the workers are forked); leave it out to fetch in one process")
    if not opts.bot_name or product_token(opts.bot_name) != opts.bot_name.lower():
        raise FetchError(f"--bot-name {opts.bot_name!r} is not a robots.txt product token (letters, '-' and '_')")
    if opts.training_token and product_token(opts.training_token) != opts.training_token.lower():
        raise FetchError(f"--training-token {opts.training_token!r} is not a robots.txt product token")
    if opts.source.resolve() == opts.output.resolve():
        raise FetchError("--output must be a folder of its own, not the run's output folder")
    if opts.output.exists() and not opts.output.is_dir():
        raise FetchError(f"{opts.output} exists and is not a folder")
    if opts.output.is_dir() and any(opts.output.iterdir()) and not opts.resume:
        raise FetchError(f"{opts.output} is not empty (an earlier fetch?); pass --resume to continue it, "
                         "or use a new --output")
    if opts.resume and opts.output.is_dir() and any(opts.output.iterdir()) and not journal_paths(opts.output):
        raise FetchError(f"{opts.output} holds no fetch to resume (no {JOURNAL}); use a new --output")
    if opts.retry_failed and not opts.resume:
        raise FetchError("--retry-failed goes with --resume (it fetches again what an earlier session could not)")
    earlier = _earlier_options(opts.output) if opts.resume else None
    if earlier is not None and earlier.get("resize") != opts.resize:
        def said(n: int | None) -> str:
            return f"--resize {n}" if n else "no --resize"

        raise FetchError(f"the fetch in {opts.output} was made with {said(earlier.get('resize'))}; resume it with "
                         f"the same, or use a new --output (its images would be of two sizes)")


def _earlier_options(output: Path) -> dict[str, Any] | None:
    try:
        return json.loads((output / OPTIONS).read_text())
    except (OSError, ValueError):  # a fetch from before options were recorded, or none
        return None


def make_plan(shards: dict[str, list[Path]], done: set[str], workers: int = 1) -> Plan:
    counts: Counter[str] = Counter()
    origins: set[str] = set()
    host_urls: Counter[str] = Counter()
    first: dict[str, str | None] = {}  # with workers: id -> host of its first row (one entry per row id)
    repeated: dict[str, str | None] = {}
    rows = 0
    for ref in read_refs(shards):
        if ref.id in done:
            continue
        rows += 1
        host = None
        if prefetch_reason(ref) is None:
            assert ref.image_url is not None
            host = host_name(ref.image_url)
            counts[ref.image_url] += 1
            if counts[ref.image_url] == 1:
                host_urls[host] += 1
                origins.add(host_root(ref.image_url).lower() + "/")
        if workers > 1:
            if ref.id in first:
                repeated.setdefault(ref.id, first[ref.id])
            else:
                first[ref.id] = host
    return Plan(rows=rows, done=len(done), refs={url: n for url, n in counts.items() if n > 1},
                hosts=sorted(origins), host_urls=dict(host_urls), repeated=repeated)


def fetch_settings(opts: FetchOptions, hosts: list[str]) -> Settings:
    crawl = CrawlOptions(seeds=hosts, output=opts.output, bot_name=opts.bot_name,
                         contact_url=opts.contact_url, training_token=opts.training_token,
                         allow_private=opts.allow_private, allowed_networks=opts.allowed_networks, render="never",
                         progress=opts.progress, overrides=opts.overrides)
    try:
        settings = build_settings(crawl)
    except CrawlConfigError as exc:
        raise FetchError(str(exc)) from None
    for key, value in {
        "DOWNLOAD_MAXSIZE": int(opts.max_mb * 2**20), "DOWNLOAD_WARNSIZE": 0, "DOWNLOAD_TIMEOUT": opts.timeout,
        # The spider yields no items, but Scrapy 2.19 starts CONCURRENT_ITEMS (100) asyncio tasks per response of an
        # async callback to process its output: with 1, 1,500 640x480 JPEGs on one loopback host took 10.7 and 12.0
        # CPU-ms per image (the whole process, two runs), with 100, 12.1 and 12.7.
        "CONCURRENT_ITEMS": 1,
    }.items():
        if settings.getpriority(key) < 40:  # an explicit -s KEY=VALUE wins over the flag's default
            settings.set(key, value, priority="project")
    components = {
        "DOWNLOADER_MIDDLEWARES": {
            "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
            "crawler.net.address_guard.AddressGuardMiddleware": 40,
            "crawler.policy.robots_middleware.RobotsPolicyMiddleware": 100,
            "crawler.images.spider.ImagePolicyMiddleware": 110,
            "crawler.net.politeness.PolitenessMiddleware": 560,
        },
        "SPIDER_MIDDLEWARES": {}, "ITEM_PIPELINES": {}, "EXTENSIONS": {},
        "LOG_INSTALL_ROOT_HANDLER": not logging.getLogger().handlers,
    }
    for key, value in components.items():
        if settings.getpriority(key) < 40:
            settings.set(key, value, priority="cmdline")
    return settings


def fetch(opts: FetchOptions) -> dict[str, Any]:
    """Fetch the images of ``opts.source`` into ``opts.output``; return fetch-stats.json's content."""
    check_options(opts)
    try:
        shards = find_shards(opts.source)
        opts.output.mkdir(parents=True, exist_ok=True)
        done: set[str] = set()
        if opts.resume:
            earlier = Journal(opts.output)
            earlier.load()
            try:
                done = stored_ids(opts.output) | (earlier.final_ids() if opts.retry_failed else earlier.skipped_ids)
            except (OSError, ValueError) as exc:  # a damaged shard of the earlier fetch: said, not guessed around
                first = str(exc).splitlines()[0]
                raise FetchError(f"cannot read the earlier fetch in {opts.output}: {first}") from None
        plan = make_plan(shards, done, opts.workers)
    except SourceError as exc:
        raise FetchError(str(exc)) from None
    # Settings before anything is written: a refused --contact-url or -s leaves no journal behind.
    settings = fetch_settings(opts, plan.hosts) if plan.hosts else None
    workers = min(opts.workers, len(plan.host_urls))
    started = time.monotonic()
    (opts.output / STATE_DIR).mkdir(parents=True, exist_ok=True)
    (opts.output / OPTIONS).write_text(json.dumps({"resize": opts.resize}) + "\n")
    if workers > 1:
        assert settings is not None
        sessions = _fetch_in_workers(opts, shards, settings, done, plan, workers)
    else:
        bar = _progress(plan.rows) if opts.progress else None
        try:
            sessions = [_session(opts, shards, settings, done, plan, None, None, bar.update if bar else None)]
        finally:
            if bar is not None:
                bar.close()
    seconds = time.monotonic() - started
    stats = _stats(opts, sessions, seconds, plan.rows + plan.done)
    tmp = opts.output / f".{STATS_FILE}.tmp"
    tmp.write_text(json.dumps(stats, indent=2, sort_keys=True, default=str) + "\n")
    os.replace(tmp, opts.output / STATS_FILE)
    return stats


def _session(opts: FetchOptions, shards: dict[str, list[Path]], settings: Settings | None, done: set[str],
             plan: Plan, worker: int | None, mine: Callable[[ImageRef], bool] | None,
             on_row: Callable[[], Any] | None) -> dict[str, Any]:
    """One fetch process's work (the only one, or worker ``worker`` on the rows ``mine`` picks); what it did."""
    journal = Journal(opts.output, worker)
    journal.open()
    writer = ShardWriter(opts.output, max_rows=opts.shard_rows,
                         on_commit=lambda name, ids: journal.shard(name, len(ids)))
    shared = None if worker is None else opts.output / SHARED_DIR / f"worker-{worker}"
    ledger = Ledger(opts.output, journal, writer, done, plan.refs, on_row=on_row, shared_dir=shared)

    def refs() -> Iterator[ImageRef]:
        rows = read_refs(shards)
        return rows if mine is None else (ref for ref in rows if mine(ref))

    session: dict[str, Any] = {}
    try:
        if settings is not None:
            session = _crawl(settings, refs, ledger, opts.resize)
        else:  # nothing to fetch: every row is counted from the row alone
            for ref in refs():
                ledger.admit(ref)
        writer.flush()
    finally:
        journal.close()
        ledger.close()
    return {
        "worker": worker,
        "stored": writer.rows,
        "urls_requested": ledger.fetches,
        "shared_url_rows": ledger.shared_hits,
        "finish_reason": session.get("finish_reason"),
        "conduct": {k: v for k, v in session.items() if k.startswith(("winnow/", "downloader/", "retry/"))
                    and isinstance(v, int | float)},
    }


def _fetch_in_workers(opts: FetchOptions, shards: dict[str, list[Path]], settings: Settings, done: set[str],
                      plan: Plan, workers: int) -> list[dict[str, Any]]:
    preload(settings)
    hosts = assign_hosts(plan.host_urls, workers)
    routing = Routing(hosts, plan.repeated)
    hosts_of = Counter(hosts.values())  # worker -> hosts
    # The global request cap is the fetch's, shared out; each host's own limits stay whole (a host is in one worker).
    share = max(1, -(-settings.getint("CONCURRENT_REQUESTS") // workers))
    shutil.rmtree(opts.output / SHARED_DIR, ignore_errors=True)  # a killed session's

    def work(k: int, on_row: Callable[[], None]) -> dict[str, Any]:
        mine = settings.copy()
        mine.set("CONCURRENT_REQUESTS", share, priority=settings.getpriority("CONCURRENT_REQUESTS") or "project")
        result = _session(opts, shards, mine, done, plan, k, lambda ref: routing.owner(ref) == k, on_row)
        result["hosts"] = hosts_of[k]
        result["host_urls"] = sum(plan.host_urls[h] for h, owner in hosts.items() if owner == k)
        return result

    bar = _progress(plan.rows) if opts.progress else None
    try:
        results = worker_pool.run_workers(workers, work, bar.update if bar else None)
    finally:
        if bar is not None:
            bar.close()
        shutil.rmtree(opts.output / SHARED_DIR, ignore_errors=True)
    sessions = []
    for outcome in results:
        if outcome.ok:
            assert outcome.result is not None
            sessions.append(outcome.result)
        else:
            log.error("image fetch worker %d failed: %s", outcome.worker, outcome.error)
            sessions.append({"worker": outcome.worker, "stored": 0, "urls_requested": 0, "shared_url_rows": 0,
                             "finish_reason": "failed", "error": outcome.error, "conduct": {},
                             "hosts": hosts_of[outcome.worker]})
    return sessions


def _crawl(settings: Settings, refs: Callable[[], Iterator[ImageRef]], ledger: Ledger,
           resize: int | None) -> dict[str, Any]:
    from crawler.images.spider import ImageSpider

    apply_log_level(settings)
    process = CrawlerProcess(settings)
    apply_log_level(settings)
    crawler = process.create_crawler(ImageSpider)
    failures: list[Any] = []
    process.crawl(crawler, refs=refs, ledger=ledger, resize=resize).addErrback(failures.append)
    with tuned_gc():  # as a crawl: the long-lived modules frozen, a larger young generation (measured there)
        process.start()
    if failures and getattr(crawler, "spider", None) is None:  # e.g. a -s value the spider cannot read
        error = failures[0].value
        raise FetchError(f"the fetch could not start: {type(error).__name__}: {error}")
    spider = crawler.spider
    return dict(getattr(spider, "final_stats", {}) or crawler.stats.get_stats())


def _stats(opts: FetchOptions, sessions: list[dict[str, Any]], seconds: float, source_rows: int) -> dict[str, Any]:
    journal = Journal(opts.output)  # every session's and every worker's journal
    journal.load()
    stored_set = stored_ids(opts.output)
    stored = len(stored_set)
    not_stored = dict(sorted(journal.not_stored(stored_set).items()))
    rows = stored + sum(not_stored.values())
    handled = sum(s["stored"] for s in sessions)
    conduct: Counter[str] = Counter()
    for session in sessions:
        conduct.update(session["conduct"])
    last: dict[str, Any] = {
        "seconds": round(seconds, 2),
        "stored": handled,
        "urls_requested": sum(s["urls_requested"] for s in sessions),  # distinct image URLs sent to the downloader
        "shared_url_rows": sum(s["shared_url_rows"] for s in sessions),
        "images_per_second": round(handled / seconds, 2) if seconds > 0 else None,
        "finish_reason": _finish_reason([s["finish_reason"] for s in sessions]),
        "conduct": dict(sorted(conduct.items())),
    }
    if len(sessions) > 1 or sessions[0]["worker"] is not None:
        last["workers"] = [{k: v for k, v in s.items() if k != "conduct"} for s in sessions]
    failed = [s for s in sessions if s["finish_reason"] == "failed"]
    if failed:
        last["failed_workers"] = [s["worker"] for s in failed]
    return {
        "rows": rows,  # handled: stored + not_stored
        "stored": stored,
        "not_stored": not_stored,
        # rows of the source not handled yet (a stopped or killed session): `--resume` continues with them
        "pending": max(0, source_rows - rows),
        "source": str(opts.source),
        "resize": opts.resize,
        "last_session": last,
    }


def _finish_reason(reasons: list[str | None]) -> str | None:
    """One reason for the session: a failed worker first, then a stop (Ctrl-C), then what the workers agree on."""
    for reason in ("failed", "shutdown"):
        if reason in reasons:
            return reason
    known = [r for r in reasons if r is not None]
    if not known:
        return None
    return known[0] if len(set(known)) == 1 else ",".join(sorted(set(known)))


def _progress(total: int) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, unit=" rows", desc="images", dynamic_ncols=True, leave=True)


def fetch_command(opts: FetchOptions) -> tuple[dict[str, Any] | None, int]:
    """``fetch`` as ``winnow images fetch`` runs it, for the command and the ``FetchImages`` stage's child alike: the
    one-line refusal on stderr (status 2, no stats) or the summary on stdout; the stats and the exit status."""
    try:
        stats = fetch(opts)
    except FetchError as exc:
        print(f"winnow images fetch: {exc}", file=sys.stderr)
        return None, 2
    print(summary(stats, opts.output))
    return stats, exit_status(stats)


def exit_status(stats: dict[str, Any]) -> int:
    """A finished fetch's exit status, for ``winnow images fetch`` and the ``FetchImages`` stage's child alike: 0 when
    every row was handled, 130 after Ctrl-C (as a shell reports it), 1 when a worker failed or rows are pending."""
    if stats["last_session"].get("failed_workers"):
        return 1
    if stats["pending"]:
        return 130 if stats["last_session"]["finish_reason"] == "shutdown" else 1
    return 0


def summary(stats: dict[str, Any], output: Path) -> str:
    """The lines printed at the end of a fetch."""
    last = stats["last_session"]
    lines = [f"{output}: {stats['stored']} of {stats['rows']} row(s) stored (this session: {last['stored']} in "
             f"{last['seconds']} s, {last['urls_requested']} URL(s) requested)"]
    for worker in last.get("workers", []):
        lines.append(f"  worker {worker['worker']}: {worker.get('hosts', 0)} host(s), {worker['stored']} stored, "
                     f"{worker['urls_requested']} URL(s) requested, {worker['finish_reason']}"
                     + (f" ({worker['error']})" if worker.get("error") else ""))
    if stats["not_stored"]:
        lines.append("not stored: " + ", ".join(f"{k}={v}" for k, v in stats["not_stored"].items()))
    if stats["pending"]:
        lines.append(f"{stats['pending']} row(s) not handled yet: run again with --resume to continue")
    return "\n".join(lines)
