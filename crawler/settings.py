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

from pipelines.settings import crawl_defaults

# Every WINNOW_* setting with its default (declared with its type and meaning in pipelines/settings.py); the deny
# list below is built on Scrapy's own.
globals().update(crawl_defaults())
_D = crawl_defaults()

BOT_NAME = "winnowbot"

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

# Rendering (crawler/render/middleware.py; its WINNOW_RENDER_* settings are in pipelines/settings.py).
DOWNLOAD_HANDLERS = {
    "http": "crawler.render.handler.SharedPlaywrightHandler",
    "https": "crawler.render.handler.SharedPlaywrightHandler",
}
PLAYWRIGHT_BROWSER_TYPE = "chromium"
PLAYWRIGHT_LAUNCH_OPTIONS = {  # crawler/run.py fills in WINNOW_CHROMIUM and the heap cap
    "executable_path": _D["WINNOW_CHROMIUM"],
    "args": [*_D["WINNOW_CHROMIUM_ARGS"], f"--js-flags=--max-old-space-size={_D['WINNOW_RENDER_JS_HEAP_MB']}"],
}
PLAYWRIGHT_ABORT_REQUEST = "crawler.render.subrequests.abort_request"
PLAYWRIGHT_RESTART_DISCONNECTED_BROWSER = True
PLAYWRIGHT_MAX_PAGES_PER_CONTEXT = _D["WINNOW_RENDER_MAX_PAGES"]
PLAYWRIGHT_DEFAULT_NAVIGATION_TIMEOUT = _D["WINNOW_RENDER_PAGE_TIMEOUT"] * 1000
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
