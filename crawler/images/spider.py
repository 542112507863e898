"""The image spider: one request per distinct image URL, through the crawler's downloader middlewares.

Conduct is the crawler's own (crawler/settings.py, crawler/run.py): the address guard, robots.txt per image host for
the bot token and the training token (crawler/policy/robots_middleware.py), Retry-After and per-host error budgets
(crawler/net/politeness.py), Scrapy's per-host download slots (``CONCURRENT_REQUESTS_PER_DOMAIN``,
``DOWNLOAD_DELAY``, AutoThrottle), retries, ``DOWNLOAD_MAXSIZE`` and ``DOWNLOAD_TIMEOUT``. ``ImagePolicyMiddleware``
adds one rule after robots.txt: an image the training token may not use (or whose robots.txt Content-Usage rule
reserves training) is not fetched, since it could not be stored. The image response's own signals
(crawler/images/verdict.py) and the host's ``/.well-known/tdmrep.json`` (fetched once per host, as the crawler's
spider does) decide whether a fetched image is stored.

Requests start lazily (``async def start()``): rows are read in batches and at most ``WINNOW_IMAGES_MAX_QUEUED``
image URLs are outstanding (queued or downloading), so the queue does not hold a whole output's requests.

Decoding and hashing run off the reactor thread, in a pool of ``WINNOW_IMAGES_DECODE_THREADS`` threads (default 2;
Pillow releases the GIL while it decodes and resamples; 0 decodes inline, for comparison). Measured here (2 cores
shared with other work, one loopback host, -s CONCURRENT_REQUESTS_PER_DOMAIN=16): for 4,000 JPEGs of 320x240 (48 KB)
it made no difference (125 images/s either way); for 1,500 of 800x600 (280 KB), 65 images/s with the pool and 58
inline. It is kept for large images: checking and hashing a 24-megapixel JPEG takes about 0.5 s, during which an
inline decode would hold every host's downloads.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import scrapy
from scrapy.exceptions import (
    CannotResolveHostError,
    DownloadCancelledError,
    DownloadConnectionRefusedError,
    DownloadFailedError,
    DownloadTimeoutError,
    IgnoreRequest,
    ResponseDataLossError,
)
from scrapy.http import Request, Response
from scrapy.spidermiddlewares.httperror import HttpError
from twisted.internet import error as twisted_error
from twisted.internet.defer import CancelledError

from crawler.images.check import CheckedImage, Rejected, check_image
from crawler.images.ledger import Fetched, Ledger, NotStored
from crawler.images.sources import ImageRef
from crawler.images.verdict import image_verdict, not_stored_reason, robots_reason
from crawler.policy.robots_middleware import META_KEY as ROBOTS_META
from crawler.policy.robots_middleware import RobotsDisallowed
from crawler.policy.signals import VERDICT_HEADERS
from crawler.policy.tdmrep import TdmRep
from crawler.policy.tdmrep_files import TdmRepFiles
from pipelines.settings import read as read_setting

log = logging.getLogger(__name__)

URL_META = "winnow_image_url"
_TIMEOUTS = (DownloadTimeoutError, twisted_error.TimeoutError, twisted_error.TCPTimedOutError)
_CONNECTION = (CannotResolveHostError, DownloadConnectionRefusedError, DownloadFailedError, twisted_error.ConnectError,
               twisted_error.ConnectionDone, twisted_error.ConnectionLost, twisted_error.DNSLookupError, OSError)


class ImagePolicyMiddleware:
    """Downloader middleware after robots.txt: an image the training token may not use is not fetched."""

    def __init__(self, bot_name: str) -> None:
        self.bot_name = bot_name

    @classmethod
    def from_crawler(cls, crawler: Any) -> ImagePolicyMiddleware:
        return cls(read_setting(crawler.settings, "WINNOW_BOT_NAME"))

    def process_request(self, request: Request) -> None:
        robots = request.meta.get(ROBOTS_META)
        if URL_META not in request.meta or robots is None:
            return None
        reason = robots_reason(robots, request.url, self.bot_name)
        if reason is not None:
            request.meta["winnow_skip_reason"] = reason
            raise IgnoreRequest(f"robots.txt reserves training use of {request.url} ({reason})")
        return None


def failure_reason(exc: BaseException, meta: dict[str, Any]) -> str:
    """The counted reason of a request that got no usable response."""
    if isinstance(exc, HttpError):
        return f"http_{exc.response.status}"
    if isinstance(exc, RobotsDisallowed):
        return "robots_unreachable" if exc.reason.startswith("unreachable") else "robots_disallowed"
    if isinstance(exc, IgnoreRequest):
        skip = str(meta.get("winnow_skip_reason") or "ignored")
        if skip.startswith("address_guard."):
            return "address_guard"
        if skip.startswith("politeness."):
            return "host_parked"
        return skip
    if isinstance(exc, DownloadCancelledError | CancelledError):
        return "too_large"  # the HTTP handler cancels a download over DOWNLOAD_MAXSIZE; nothing else cancels one
    if isinstance(exc, _TIMEOUTS):
        return "timeout"
    if isinstance(exc, ResponseDataLossError):
        return "truncated"  # fewer bytes than Content-Length
    if isinstance(exc, _CONNECTION):
        return "connection_error"
    return f"error.{type(exc).__name__}"


class ImageSpider(scrapy.Spider):
    name = "winnow-images"

    def __init__(self, refs: Callable[[], Iterator[ImageRef]], ledger: Ledger, resize: int | None = None,
                 max_pixels: int | None = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.refs = refs
        self.ledger = ledger
        self.resize = resize
        self.max_pixels = max_pixels
        self._tdmrep_files: TdmRepFiles | None = None
        self._pool: ThreadPoolExecutor | None = None
        self.final_stats: dict[str, Any] = {}

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> ImageSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.bot_name = read_setting(crawler.settings, "WINNOW_BOT_NAME")
        spider.max_queued = max(1, read_setting(crawler.settings, "WINNOW_IMAGES_MAX_QUEUED"))
        # 0: Pillow's own decompression-bomb limit (crawler/images/check.py)
        spider.max_pixels = read_setting(crawler.settings, "WINNOW_IMAGES_MAX_PIXELS") or spider.max_pixels
        threads = read_setting(crawler.settings, "WINNOW_IMAGES_DECODE_THREADS")
        spider._pool = ThreadPoolExecutor(threads, thread_name_prefix="image-decode") if threads > 0 else None
        return spider

    async def start(self) -> AsyncIterator[Request]:
        for ref in self.refs():
            url = self.ledger.admit(ref)
            if url is None:
                continue
            yield Request(url, callback=self.parse, errback=self.failed, dont_filter=True, meta={URL_META: url})
            while self.ledger.in_flight >= self.max_queued:  # lazily: the queue never holds a whole output
                await asyncio.sleep(0.05)

    def closed(self, reason: str) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
        self.final_stats = dict(self.crawler.stats.get_stats())
        self.final_stats["finish_reason"] = reason

    # -- outcomes ----------------------------------------------------------------------------------------------

    def failed(self, failure: Any) -> None:
        request = failure.request
        reason = failure_reason(failure.value, request.meta)
        self.crawler.stats.inc_value(f"winnow/images/not_stored/{reason}")
        self.ledger.resolve(request.meta[URL_META], NotStored(reason))

    async def parse(self, response: Response) -> None:
        url = response.meta[URL_META]
        try:
            outcome = await self._outcome(response)
        except Exception as exc:  # a bug must not leave the rows waiting for this URL uncounted
            log.exception("image %s could not be handled", url)
            outcome = NotStored(f"error.{type(exc).__name__}")
        self.ledger.resolve(url, outcome)

    async def _outcome(self, response: Response) -> Fetched | NotStored:
        if response.status != 200:  # 2xx other than 200: 204 No Content, 206 Partial Content...
            return NotStored(f"http_{response.status}")
        headers = {name: [v.decode("latin-1") for v in values] for name in VERDICT_HEADERS
                   if (values := response.headers.getlist(name))}
        tdmrep = await self.tdmrep_for(response.url)
        verdict = image_verdict(response.url, self.bot_name, response.meta.get(ROBOTS_META), headers, tdmrep)
        reason = not_stored_reason(verdict, response.url, self.bot_name, headers, tdmrep)
        if reason is None:
            try:
                image = await self._check(response.body)
            except Rejected as exc:
                reason = exc.reason
        if reason is not None:
            self.crawler.stats.inc_value(f"winnow/images/not_stored/{reason}")
            return NotStored(reason)
        self.crawler.stats.inc_value("winnow/images/fetched_ok")
        content_type = response.headers.get(b"Content-Type")
        return Fetched(image=image, fetched_url=response.url, http_status=response.status,
                       content_type=content_type.decode("latin-1") if content_type else None,
                       fetched_at=datetime.now(UTC), signals=list(verdict.signals))

    async def _check(self, body: bytes) -> CheckedImage:
        if self._pool is None:
            return check_image(body, self.resize, self.max_pixels)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, check_image, body, self.resize, self.max_pixels)

    # -- tdmrep.json, once per host (crawler/policy/tdmrep_files.py) ---------------------------------------------

    async def tdmrep_for(self, url: str) -> TdmRep | None:
        if self._tdmrep_files is None:  # the crawler is bound after __init__
            self._tdmrep_files = TdmRepFiles(self.crawler)
        return await self._tdmrep_files.for_url(url)
