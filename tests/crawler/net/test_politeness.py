"""crawler/net/politeness.py against Scrapy's own download Slot: a 429 pauses the slot and narrows it to one
request at a time until the host answers normally again."""

from __future__ import annotations

import time
from types import SimpleNamespace

from scrapy import Request
from scrapy.core.downloader import Slot
from scrapy.http import Response
from scrapy.settings import Settings
from scrapy.signalmanager import SignalManager
from scrapy.statscollectors import MemoryStatsCollector

from crawler.net.politeness import PolitenessMiddleware


class _Downloader:
    def __init__(self) -> None:
        self.slots = {"busy.test": Slot(concurrency=8, delay=0.0, jitter=0.0)}

    def get_slot_key(self, request: Request) -> str:
        return "busy.test"


def _middleware() -> tuple[PolitenessMiddleware, Slot]:
    crawler = SimpleNamespace(settings=Settings({"WINNOW_RETRY_TIMES": 2}), signals=SignalManager(),
                              engine=SimpleNamespace(downloader=_Downloader()))
    crawler.stats = MemoryStatsCollector(crawler)
    middleware = PolitenessMiddleware(crawler)
    return middleware, crawler.engine.downloader.slots["busy.test"]


def test_429_pauses_the_slot_and_sends_one_request_at_a_time_until_a_normal_answer() -> None:
    middleware, slot = _middleware()
    request = Request("http://busy.test/a")
    before = time.monotonic()
    middleware._on_response_downloaded(Response(request.url, status=429, headers={"Retry-After": "3"}), request)
    assert slot.concurrency == 1 and slot.delay > 0  # a delay, else Scrapy's downloader ignores lastseen
    assert slot.lastseen >= before + 3
    # a second 429 keeps the slot's own concurrency on record, not the narrowed one
    middleware._on_response_downloaded(Response(request.url, status=503, headers={"Retry-After": "1"}), request)
    assert slot.concurrency == 1
    middleware._on_response_downloaded(Response(request.url, status=404), request)
    assert slot.concurrency == 8


def test_a_request_given_up_is_not_resent_by_retry_middleware() -> None:
    middleware, _ = _middleware()
    request = Request("http://busy.test/a", meta={"winnow_slow_down_retries": 2})
    response = Response(request.url, status=429, headers={"Retry-After": "1"})
    assert middleware.process_response(request, response) is response
    assert request.meta["dont_retry"] is True
    assert middleware.stats.get_value("winnow/politeness/gave_up") == 1
