"""winnow's Scrapy settings: a polite, opt-out-aware crawl that writes WARC files.

Politeness defaults follow common crawler practice and Scrapy's own guidance for broad crawls: one
connection per host, a 1 s base delay adapted by AutoThrottle, cookies off (a crawler keeps no
sessions), bounded response size, and per-host round-robin in the scheduler
(``DownloaderAwarePriorityQueue``) so that one host cannot fill the queue. Every value is a
Scrapy setting: override any with ``winnow crawl -s KEY=VALUE``.
"""

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
RANDOMIZE_DOWNLOAD_DELAY = True
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
# The crawl journal (crawler/journal.py) de-duplicates URLs and survives kills; Scrapy's would not.
DUPEFILTER_CLASS = "scrapy.dupefilters.BaseDupeFilter"
WINNOW_RETRY_TIMES = 3
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

DOWNLOADER_MIDDLEWARES = {
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "crawler.address_guard.AddressGuardMiddleware": 40,
    "crawler.robots_middleware.RobotsPolicyMiddleware": 100,
    # Downloader side of RetryMiddleware (550): sees 429/503 first and honours Retry-After.
    "crawler.politeness.PolitenessMiddleware": 560,
}
SPIDER_MIDDLEWARES = {
    # Engine side: the last word on what enters the frontier (caps, journal, de-duplication).
    "crawler.gate.GateMiddleware": 5,
    # Before UrlLengthMiddleware (800) so that its own url_too_long count sees every long URL.
    "crawler.frontier_middleware.FrontierMiddleware": 850,
}
ITEM_PIPELINES = {"crawler.warc_pipeline.WarcPipeline": 300}
EXTENSIONS = {"crawler.report.CrawlReport": 500}
