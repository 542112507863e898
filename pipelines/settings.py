"""Every ``WINNOW_*`` setting, declared once: its type, default and meaning.

Two kinds:

- **crawl** settings are Scrapy settings of ``winnow crawl`` and ``winnow images fetch``: ``crawler/settings.py``
  takes their defaults from here, a command-line flag sets some of them, and ``-s NAME=VALUE`` overrides any. Code
  reads them with ``read(settings, NAME)``, which applies the declared type and default, so a default is written in
  one place. A ``-s WINNOW_...`` name that is not declared here is refused (``unknown``), with the nearest names:
  a misspelt setting would otherwise be ignored without a word.
- **env** settings are environment variables, read with ``env(NAME)``.

docs/reference.md's settings table is made from ``SETTINGS`` (``markdown_table``; a test keeps the two equal). The
set-up scripts' own variables (scripts/setup.sh, scripts/demo.sh) are declared here too, so that the table lists
them; the scripts read them in shell.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Setting:
    name: str
    type: type  # int, float, bool, str or list
    default: Any
    meaning: str
    kind: str = "crawl"  # "crawl" (a Scrapy setting) or "env" (an environment variable)
    flag: str | None = None  # the command-line flag that sets it, where one does


def _s(name: str, type_: type, default: Any, meaning: str, kind: str = "crawl", flag: str | None = None) -> Setting:
    return Setting(name, type_, default, meaning, kind, flag)


_ALL = (
    # identity
    _s("WINNOW_BOT_NAME", str, "winnowbot", "the crawler's product token in the User-Agent and in robots.txt "
       "matching", flag="--bot-name"),
    _s("WINNOW_BOT_VERSION", str, "0.1", "the version in the User-Agent (`NAME/VERSION (+CONTACT)`)"),
    _s("WINNOW_CONTACT_URL", str, "", "where site owners reach the operator, in the User-Agent; required for public "
       "hosts. Also read from the environment by the `images` step of a pipeline whose config gives none",
       flag="--contact-url"),
    _s("WINNOW_TRAINING_TOKEN", str, "", "the robots.txt token of the training opt-out; empty: `<bot name>-Extended`",
       flag="--training-token"),
    # what is crawled
    _s("WINNOW_MAX_PAGES", int, 0, "pages to fetch in all; 0: no limit", flag="--max-pages"),
    _s("WINNOW_MAX_DEPTH", int, -1, "link depth from the seeds; -1: no limit", flag="--max-depth"),
    _s("WINNOW_MAX_PAGES_PER_HOST", int, 0, "pages per host; 0: no limit", flag="--max-pages-per-host"),
    _s("WINNOW_LANGUAGES", list, [], "lid.176 codes the frontier steers towards (hosts whose pages are in them "
       "first); empty: no steering", flag="--languages"),
    _s("WINNOW_HOST_LANGUAGE_PAGES", int, 5, "pages of a host read before its language steers the frontier"),
    _s("WINNOW_TOPICS_ENABLED", bool, True, "balance the frontier over topic clusters of the pages seen"),
    _s("WINNOW_TOPIC_CLUSTERS", int, 16, "topic clusters of the frontier's balance"),
    _s("WINNOW_TOPIC_SEED_PAGES", int, 200, "pages read before the topic clusters are formed"),
    _s("WINNOW_MAX_URL_LENGTH", int, 2048, "longer links are not followed"),
    _s("WINNOW_MAX_QUERY_VARIANTS", int, 64, "URLs per path that differ only in their query (calendars, facets)"),
    _s("WINNOW_MAX_QUERY_PARAMS", int, 10, "links with more query parameters are not followed"),
    _s("WINNOW_DENY_EXTENSIONS", list, None, "extensions of links never followed (files that are never a page); "
       "default: Scrapy's IGNORED_EXTENSIONS and data and notebook files (crawler/settings.py)"),
    # politeness and failures
    _s("WINNOW_CRAWL_DELAY_MAX", float, 10.0, "cap in seconds on a robots.txt Crawl-delay"),
    _s("WINNOW_RETRY_TIMES", int, 3, "retries of a page after 429, 503 or a network error (with backoff)"),
    _s("WINNOW_RETRY_AFTER_MAX", float, 300.0, "cap in seconds on a server's Retry-After"),
    _s("WINNOW_HOST_ERROR_BUDGET", int, 10, "failures after which a host is parked (its remaining requests skipped)"),
    _s("WINNOW_ROBOTS_ENABLED", bool, True, "obey robots.txt (RFC 9309); off only for your own sites"),
    _s("WINNOW_ROBOTS_CACHE_SECONDS", float, 24 * 3600.0, "how long a robots.txt is used before it is fetched "
       "again (RFC 9309 §2.4: 24 h)"),
    _s("WINNOW_ROBOTS_MAX_BYTES", int, 500 * 1024, "robots.txt bytes read (RFC 9309 §2.5: at least 500 KiB)"),
    _s("WINNOW_ROBOTS_MAX_REDIRECTS", int, 5, "redirects followed to a robots.txt (RFC 9309 §2.3.1.2: at least 5)"),
    _s("WINNOW_ROBOTS_UNREACHABLE_RETRIES", int, 2, "times a page whose host's robots.txt is unreachable is retried "
       "in the crawl (then left for --resume)"),
    _s("WINNOW_ROBOTS_UNREACHABLE_RETRY_SECONDS", float, 300.0, "wait before an unreachable robots.txt is asked "
       "again"),
    # safety
    _s("WINNOW_ALLOW_PRIVATE", bool, False, "fetch loopback and private addresses (refused by default)",
       flag="--allow-private"),
    _s("WINNOW_ALLOWED_NETWORKS", list, [], "with WINNOW_ALLOW_PRIVATE, exactly these networks (CIDR); empty: every "
       "private network", flag="--allow-private=NETS"),
    # output
    _s("WINNOW_OUTPUT_DIR", str, "crawl", "the crawl's folder", flag="--output"),
    _s("WINNOW_UPLOAD_TO", str, None, "an object-store URL each finished WARC file is uploaded to", flag="--output"),
    _s("WINNOW_WARC_PREFIX", str, "winnow", "WARC file name prefix"),
    _s("WINNOW_WARC_MAX_BYTES", int, 1 << 30, "a WARC file is closed (and a new one started) at this size"),
    _s("WINNOW_PROGRESS", bool, True, "the progress bar on the terminal", flag="--no-progress"),
    # rendering
    _s("WINNOW_RENDER", str, "auto", "render pages in Chromium: auto (where the page needs it), always, never",
       flag="--render"),
    _s("WINNOW_CHROMIUM", str, "/usr/bin/chromium", "the Chromium executable (Debian's)"),
    _s("WINNOW_CHROMIUM_ARGS", list, ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                                      "--disable-component-update", "--disable-sync", "--no-first-run"],
       "Chromium's launch arguments"),
    _s("WINNOW_RENDER_MAX_PAGES", int, 4, "pages open at once (4: about 1.3 GB peak)"),
    _s("WINNOW_RENDER_CONTEXT_PAGES", int, 100, "renders per browser context before it is replaced"),
    _s("WINNOW_RENDER_PAGE_TIMEOUT", float, 20.0, "seconds per page: navigation, settling, interaction, DOM"),
    _s("WINNOW_RENDER_SETTLE_IDLE", float, 0.5, "quiet network and DOM for this long: settled"),
    _s("WINNOW_RENDER_SETTLE_MAX", float, 5.0, "at most this long waiting to settle"),
    _s("WINNOW_RENDER_THIN_PATIENCE", float, 2.0, "quiet needed while the page shows under 50 words"),
    _s("WINNOW_RENDER_STEP_IDLE", float, 0.25, "quiet needed after a scroll step or a click"),
    _s("WINNOW_RENDER_INTERACT_MAX", float, 8.0, "seconds for overlays, scrolling and clicks together"),
    _s("WINNOW_RENDER_MAX_SCROLLS", int, 20, "scroll steps per page"),
    _s("WINNOW_RENDER_MAX_CLICKS", int, 5, "'load more' clicks per page"),
    _s("WINNOW_RENDER_HOST_AFTER", int, 2, "renders that paid off before an origin is rendered directly"),
    _s("WINNOW_RENDER_GUESS_SKIP_AFTER", int, 5, "script-heavy renders without gain before an origin gets no more"),
    _s("WINNOW_RENDER_BLOCK_RESOURCES", list, ["image", "media", "font"], "resource types a render does not load"),
    _s("WINNOW_RENDER_MAX_DOM_BYTES", int, 20 * 2**20, "a rendered DOM larger than this is cut"),
    _s("WINNOW_RENDER_JS_HEAP_MB", int, 512, "V8 heap cap per tab: a page allocating without bound crashes its tab"),
    # the image lane (winnow images fetch)
    _s("WINNOW_IMAGES_DECODE_THREADS", int, 2, "threads decoding and hashing fetched images"),
    _s("WINNOW_IMAGES_MAX_PIXELS", int, 0, "images with more pixels are refused; 0: the fetcher's own cap"),
    _s("WINNOW_IMAGES_MAX_QUEUED", int, 2000, "image requests queued at once (rows are read in batches)"),
    # environment
    _s("WINNOW_CACHE_DIR", str, None, "where built look-up tables are cached (the URL blocklist's hash array); "
       "default ~/.cache/winnow", kind="env"),
    _s("WINNOW_JOB_CONFIG", str, None, "set by `winnow submit`: the text of a config file shipped in the job's "
       "environment", kind="env"),
    _s("WINNOW_SPILL_DIR", str, None, "`--local` runs: where tables past the spill budget wait on disk (a "
       "`winnow-spill-<pid>-*` folder per process, removed after use); default `WINNOW_CACHE_DIR`/spill",
       kind="env"),
    _s("WINNOW_SPILL_MB", float, 16, "`--local` runs: MiB of a wave's tables a waiting lane, a materialised dataset "
       "or a group-by part holds in memory before the rest waits on disk", kind="env"),
    _s("WINNOW_TRIM_SECONDS", float, 0.5, "`--local` runs: seconds between two returns of the run's process's freed "
       "heap to the kernel while a wave runs (pipelines/heap.py `Trimming`); 0: only after each wave", kind="env"),
    _s("WINNOW_JOB_CONFIG_NAME", str, None, "set by `winnow submit`: that config's file name", kind="env"),
    _s("WINNOW_EXTRAS", str, "dev", "scripts/setup.sh: the pyproject extras to install (`dev,clip` adds open_clip "
       "and PyTorch)", kind="env"),
    _s("WINNOW_DEMO_OUT", str, "out/demo", "scripts/demo.sh: the demo's output folder", kind="env"),
)
SETTINGS: dict[str, Setting] = {s.name: s for s in _ALL}


def crawl_defaults() -> dict[str, Any]:
    """The crawl settings' defaults, for crawler/settings.py (Scrapy's settings module); lists are copies."""
    return {s.name: list(s.default) if isinstance(s.default, list) else s.default for s in _ALL if s.kind == "crawl"}


_GETTERS = {int: "getint", float: "getfloat", bool: "getbool", list: "getlist", str: "get"}


def read(settings: Any, name: str) -> Any:
    """A crawl setting from Scrapy ``settings``, as its declared type; its declared default where unset."""
    setting = SETTINGS[name]  # KeyError: an undeclared name is a bug in the caller
    default = list(setting.default) if isinstance(setting.default, list) else setting.default
    return getattr(settings, _GETTERS[setting.type])(name, default)


def env(name: str) -> str | None:
    """An environment setting, or its default (None: unset)."""
    setting = SETTINGS[name]
    return os.environ.get(name) or setting.default


def unknown(names: list[str]) -> str | None:
    """What is wrong with ``-s`` names: a ``WINNOW_`` name that is not declared, with the nearest declared ones; or
    None. Other names are Scrapy's, which Scrapy itself does not check either."""
    for name in names:
        if name.startswith("WINNOW_") and name not in SETTINGS:
            near = difflib.get_close_matches(name, [n for n, s in SETTINGS.items() if s.kind == "crawl"], n=3)
            hint = f"; did you mean {' or '.join(near)}?" if near else " (docs/reference.md#settings lists them)"
            return f"-s {name}: no such winnow setting{hint}"
    return None


def markdown_table() -> str:
    """The settings as docs/reference.md lists them."""
    rows = ["| setting | kind | type | default | flag | meaning |", "|---|---|---|---|---|---|"]
    for s in _ALL:
        if s.default is None:
            shown = "unset"
        elif s.default in ([], ""):
            shown = "empty"
        else:
            shown = "`" + (",".join(s.default) if isinstance(s.default, list) else str(s.default)) + "`"
        flag = f"`{s.flag}`" if s.flag else ""
        rows.append(f"| `{s.name}` | {s.kind} | {s.type.__name__} | {shown} | {flag} | {s.meaning} |")
    return "\n".join(rows)
