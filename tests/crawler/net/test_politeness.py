"""crawler/net/politeness.py against Scrapy's own download Slot: a 429 pauses the slot and narrows it to one
request at a time until the host answers normally again."""

from __future__ import annotations

import asyncio
import random
import time
from types import SimpleNamespace

from scrapy import Request
from scrapy.core.downloader import Downloader, Slot
from scrapy.http import Response
from scrapy.settings import Settings
from scrapy.signalmanager import SignalManager
from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler
from twisted.internet.defer import Deferred

from crawler.net.politeness import PolitenessMiddleware


class _Downloader:
    def __init__(self) -> None:
        self.slots = {"busy.test": Slot(concurrency=8, delay=0.0, jitter=0.0)}

    def get_slot_key(self, request: Request) -> str:
        return "busy.test"

    def _latercall(self, slot: Slot) -> None:
        slot.latercall = None


def _middleware() -> tuple[PolitenessMiddleware, Slot]:
    crawler = SimpleNamespace(settings=Settings({"WINNOW_RETRY_TIMES": 2}), signals=SignalManager(),
                              engine=SimpleNamespace(downloader=_Downloader()))
    crawler.stats = MemoryStatsCollector(crawler)
    middleware = PolitenessMiddleware(crawler)
    return middleware, crawler.engine.downloader.slots["busy.test"]


def test_429_pauses_the_slot_and_sends_one_request_at_a_time_until_a_normal_answer() -> None:
    async def scenario() -> None:  # in a running loop, as in a crawl: the pause arms the slot's timer on it
        middleware, slot = _middleware()
        request = Request("http://busy.test/a")
        before = time.monotonic()
        middleware._on_response_downloaded(Response(request.url, status=429, headers={"Retry-After": "3"}), request)
        assert slot.concurrency == 1 and slot.delay > 0  # a delay, else Scrapy's downloader ignores lastseen
        assert slot.lastseen >= before + 3 and slot.latercall
        # a second 429 keeps the slot's own concurrency on record, not the narrowed one
        middleware._on_response_downloaded(Response(request.url, status=503, headers={"Retry-After": "1"}), request)
        assert slot.concurrency == 1
        middleware._on_response_downloaded(Response(request.url, status=404), request)
        assert slot.concurrency == 8
        slot.close()

    asyncio.run(scenario())


def test_a_request_given_up_is_not_resent_by_retry_middleware() -> None:
    middleware, _ = _middleware()
    request = Request("http://busy.test/a", meta={"winnow_slow_down_retries": 2})
    response = Response(request.url, status=429, headers={"Retry-After": "1"})
    assert middleware.process_response(request, response) is response
    assert request.meta["dont_retry"] is True
    assert middleware.stats.get_value("winnow/politeness/gave_up") == 1


def test_a_pause_holds_the_slot_queue_even_when_the_slot_draws_no_delay(monkeypatch) -> None:
    # Scrapy's Downloader skips its lastseen check when the slot's drawn delay is 0 (DOWNLOAD_DELAY_JITTER above 1
    # floors it there), so lastseen alone let the queue go at once; the slot's own timer holds it whatever the draw.
    async def scenario() -> tuple[list[float], float, int]:
        handler = "scrapy.core.downloader.handlers.http11.HTTP11DownloadHandler"  # the crawl's, not the test default
        crawler = get_crawler(settings_dict={"DOWNLOAD_DELAY": 0.001, "WINNOW_RETRY_TIMES": 1,
                                             "DOWNLOAD_HANDLERS": {"http": handler, "https": handler}})
        downloader = Downloader(crawler)
        crawler.engine = SimpleNamespace(downloader=downloader)
        middleware = PolitenessMiddleware(crawler)
        sent: list[float] = []

        async def record(slot: Slot, request: Request, queue_dfd: object) -> None:
            sent.append(time.monotonic())

        downloader._wait_for_download = record  # the slot's queue is what is tested, not a download
        request = Request("http://busy.test/a")
        _, slot = downloader._get_slot(request)
        slot.jitter = 2.0  # DOWNLOAD_DELAY_JITTER=2, and the draw at its low end: 0.001 * (1 - 2), floored at 0
        monkeypatch.setattr(random, "uniform", lambda low, high: low)
        assert slot.download_delay() == 0.0
        started = time.monotonic()
        middleware._on_response_downloaded(Response(request.url, status=429, headers={"Retry-After": "1"}), request)
        slot.queue.append((Request("http://busy.test/b"), Deferred()))
        downloader._process_queue(slot)  # what a request reaching the downloader, or a finished download, does
        await asyncio.sleep(0.5)
        held = list(sent)
        for _ in range(100):  # until it leaves: a loaded CI machine may fire the timer late
            if sent:
                break
            await asyncio.sleep(0.05)
        downloader.close()
        return held, sent[0] - started if sent else -1.0, len(sent)

    held, after, count = asyncio.run(scenario())
    assert held == []  # nothing left during the pause
    assert count == 1 and after >= 1.0  # and the queued request left once the pause (Retry-After: 1) ended
