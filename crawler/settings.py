"""winnow's Scrapy settings: a polite, opt-out-aware crawl that writes WARC files.

Politeness defaults follow common crawler practice and Scrapy's own guidance for broad crawls: one
connection per host, a 1 s base delay adapted by AutoThrottle, cookies off (a crawler keeps no
sessions), bounded response size, and per-host round-robin in the scheduler
(``DownloaderAwarePriorityQueue``) so that one host cannot fill the queue. Every value is a
Scrapy setting: override any with ``winnow crawl -s KEY=VALUE``.

Rendering (crawler/render/middleware.py): scrapy-playwright's download handler (one instance for both schemes,
crawler/render/handler.py) serves http/https but only drives the browser for requests whose meta says
``playwright=True`` (set by ``crawler.render.middleware.RenderMiddleware``); all other requests go through Scrapy's own
HTTP/1.1 handler, and with ``--render never`` the handler is not installed at all (crawler/run.py). The
browser is Debian's ``chromium`` with the launch arguments that worked on these machines
(../shared/STACK-NOTES.md "Install"), never a browser downloaded by ``playwright install``, plus a V8 heap
cap (``WINNOW_RENDER_JS_HEAP_MB``) so that a page allocating without bound crashes its own tab in under a
second instead of growing its renderer for about 10 s (measured with Chromium 156 here). A page gets
``WINNOW_RENDER_PAGE_TIMEOUT`` (20 s) in all; it is settled after Playwright's "networkidle" (no request
for 500 ms) with a quiet DOM, or 0.1 s of quiet when no timer is pending (crawler/render/page.py).
"""

from scrapy.linkextractors import IGNORED_EXTENSIONS

BOT_NAME = "winnowbot"
WINNOW_BOT_NAME = "winnowbot"
WINNOW_BOT_VERSION = "0.1"
WINNOW_CONTACT_URL = ""
WINNOW_TRAINING_TOKEN = ""  # empty: "<bot>-Extended"

SPIDER_MODULES: list[str] = []
TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
TELNETCONSOLE_ENABLED = False
LOG_LEVEL = "INFO"

# Politeness.
ROBOTSTXT_OBEY = False  # winnow's RobotsPolicyMiddleware replaces Scrapy's (RFC 9309 status handling)
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 1
DOWNLOAD_DELAY = 1.0
DOWNLOAD_DELAY_JITTER = 0.5  # each delay 0.5-1.5x DOWNLOAD_DELAY (Scrapy 2.19 renamed RANDOMIZE_DOWNLOAD_DELAY)
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_MAX_DELAY = 60.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 1.0
COOKIES_ENABLED = False
DOWNLOAD_TIMEOUT = 30
DOWNLOAD_MAXSIZE = 20 * 2**20
DOWNLOAD_WARNSIZE = 5 * 2**20
RETRY_TIMES = 2
REDIRECT_MAX_TIMES = 5
SCHEDULER_PRIORITY_QUEUE = "scrapy.pqueues.DownloaderAwarePriorityQueue"
# A <meta http-equiv="refresh"> is a redirect hint, handled by the spider: the page itself is kept with its links and
# the target queued like a redirect (same depth, within the crawl's hosts). Scrapy's middleware replaced the page by
# its target, so a seed refreshing to another host gave an empty crawl (issue 15).
METAREFRESH_ENABLED = False
# The crawl journal (crawler/frontier/journal.py) de-duplicates URLs and survives kills; Scrapy's would not.
DUPEFILTER_CLASS = "scrapy.dupefilters.BaseDupeFilter"
# Link following. Extensions of files that are never an HTML page, skipped (counted as
# winnow/links_skipped/extension): Scrapy's IGNORED_EXTENSIONS (images, media, archives, office documents) plus the
# data and notebook files documentation sites offer for download (issue 15: 179 of one site's 420 requests were
# .ipynb, .csv and .npy links). Links marked <a download> are skipped whatever their extension.
WINNOW_DENY_EXTENSIONS: list[str] = [
    *IGNORED_EXTENSIONS, "ipynb", "csv", "tsv", "npy", "npz", "parquet", "pkl", "pickle", "h5", "hdf5", "whl",
    "json", "jsonl", "ndjson", "txt", "gz", "tgz",
]
WINNOW_RETRY_TIMES = 3
# A page whose host's robots.txt is unreachable (5xx, 429, network error) is retried this many times in the crawl,
# each when the host's robots.txt is due again (WINNOW_ROBOTS_UNREACHABLE_RETRY_SECONDS, 300 s), if the crawl is still
# running then; otherwise it stays pending for --resume (winnow/robots/left_for_resume).
WINNOW_ROBOTS_UNREACHABLE_RETRIES = 2
WINNOW_RETRY_AFTER_MAX = 300.0
WINNOW_HOST_ERROR_BUDGET = 10
WINNOW_CRAWL_DELAY_MAX = 10.0

# Safety.
WINNOW_ALLOW_PRIVATE = False
WINNOW_ALLOWED_NETWORKS: list[str] = []

# Output.
WINNOW_OUTPUT_DIR = "crawl"
WINNOW_WARC_PREFIX = "winnow"
WINNOW_WARC_MAX_BYTES = 1 << 30

# Rendering: auto | always | never (crawler/render/middleware.py).
WINNOW_RENDER = "auto"
WINNOW_CHROMIUM = "/usr/bin/chromium"
WINNOW_RENDER_MAX_PAGES = 4  # open pages at once (STACK-NOTES: 4 pages, about 1.3 GB peak)
WINNOW_RENDER_CONTEXT_PAGES = 100  # renders per browser context before it is replaced
WINNOW_RENDER_PAGE_TIMEOUT = 20.0  # seconds per page: navigation, settling, interaction, DOM
WINNOW_RENDER_SETTLE_IDLE = 0.5  # quiet network and DOM for this long = settled (Playwright's networkidle)
WINNOW_RENDER_SETTLE_MAX = 5.0  # at most this long waiting to settle
WINNOW_RENDER_THIN_PATIENCE = 2.0  # quiet needed while the page shows under 50 words (an app still loading)
WINNOW_RENDER_STEP_IDLE = 0.25  # quiet needed after a scroll step or a click
WINNOW_RENDER_INTERACT_MAX = 8.0  # seconds for overlays, scrolling and clicks together
WINNOW_RENDER_MAX_SCROLLS = 20
WINNOW_RENDER_MAX_CLICKS = 5
WINNOW_RENDER_HOST_AFTER = 2  # renders that paid off before an origin is rendered directly
WINNOW_RENDER_GUESS_SKIP_AFTER = 5  # script_heavy renders without gain before an origin gets no more of them
WINNOW_RENDER_BLOCK_RESOURCES = ["image", "media", "font"]
WINNOW_RENDER_MAX_DOM_BYTES = 20 * 2**20  # as DOWNLOAD_MAXSIZE
WINNOW_RENDER_JS_HEAP_MB = 512

WINNOW_CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
DOWNLOAD_HANDLERS = {
    "http": "crawler.render.handler.SharedPlaywrightHandler",
    "https": "crawler.render.handler.SharedPlaywrightHandler",
}
PLAYWRIGHT_BROWSER_TYPE = "chromium"
PLAYWRIGHT_LAUNCH_OPTIONS = {  # crawler/run.py fills in WINNOW_CHROMIUM and the heap cap
    "executable_path": WINNOW_CHROMIUM,
    "args": [*WINNOW_CHROMIUM_ARGS, f"--js-flags=--max-old-space-size={WINNOW_RENDER_JS_HEAP_MB}"],
}
PLAYWRIGHT_ABORT_REQUEST = "crawler.render.subrequests.abort_request"
PLAYWRIGHT_RESTART_DISCONNECTED_BROWSER = True
PLAYWRIGHT_MAX_PAGES_PER_CONTEXT = WINNOW_RENDER_MAX_PAGES
PLAYWRIGHT_DEFAULT_NAVIGATION_TIMEOUT = WINNOW_RENDER_PAGE_TIMEOUT * 1000
# Downloads are refused (accept_downloads=False); how long scrapy-playwright waits for one to start after an
# aborted navigation (its default, 30 s, would stall every page whose navigation the policy aborted).
PLAYWRIGHT_DOWNLOAD_TIMEOUT = 1000

DOWNLOADER_MIDDLEWARES = {
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "crawler.net.address_guard.AddressGuardMiddleware": 40,
    "crawler.policy.robots_middleware.RobotsPolicyMiddleware": 100,
    # Downloader side of RetryMiddleware (550): sees 429/503 first and honours Retry-After.
    "crawler.net.politeness.PolitenessMiddleware": 560,
    # Last before the download handler: only requests every other middleware let through reach the browser.
    "crawler.render.middleware.RenderMiddleware": 950,
}
SPIDER_MIDDLEWARES = {
    # Engine side: the last word on what enters the frontier (caps, journal, de-duplication).
    "crawler.frontier.gate.GateMiddleware": 5,
    # Before UrlLengthMiddleware (800) so that its own url_too_long count sees every long URL.
    "crawler.frontier.middleware.FrontierMiddleware": 850,
}
ITEM_PIPELINES = {"crawler.warc.pipeline.WarcPipeline": 300}
EXTENSIONS = {"crawler.report.CrawlReport": 500}
