"""How ``winnow images fetch --workers N`` splits a fetch (crawler/images/workers.py forks the processes): which
worker handles a row, and what the parent imports before the fork so that the workers share it.

Hosts are assigned largest first to the least-loaded worker (by distinct image URLs; LPT scheduling, Graham 1969),
not by a hash of the host as ``winnow crawl --workers`` does (its seeds are many; a worker's share there is a fraction
of them): the image hosts of a run are few and uneven (a CDN may serve most of the images), a hash ignores their
sizes, and the worker that gets the big hosts decides the wall time. The split is recomputed for each session from
the rows still to do; every host is still in exactly one worker of a session.
"""

from __future__ import annotations

import io
import sys
from dataclasses import dataclass
from urllib.parse import urlsplit

from scrapy.settings import Settings

from crawler.images.ledger import prefetch_reason
from crawler.images.sources import ImageRef


def host_name(url: str) -> str:
    """What workers are split by: the host name, as Scrapy keys its download slots (and so the per-host delay and
    concurrency): two ports or schemes of one host are one host here too."""
    return (urlsplit(url).hostname or "").lower()


def assign_hosts(host_urls: dict[str, int], workers: int) -> dict[str, int]:
    """host -> worker: largest host first to the least-loaded worker (ties: the lower worker); deterministic."""
    loads = [0] * workers
    owner: dict[str, int] = {}
    for host, urls in sorted(host_urls.items(), key=lambda item: (-item[1], item[0])):
        k = min(range(workers), key=lambda i: (loads[i], i))
        owner[host] = k
        loads[k] += urls
    return owner


@dataclass
class Routing:
    """Which worker handles a row: its image host's; rows not fetched at all go to worker 0."""

    hosts: dict[str, int]
    repeated: dict[str, str | None]

    def owner(self, ref: ImageRef) -> int:
        if ref.id in self.repeated:
            host = self.repeated[ref.id]
        elif prefetch_reason(ref) is not None:
            host = None
        else:
            assert ref.image_url is not None
            host = host_name(ref.image_url)
        return 0 if host is None else self.hosts.get(host, 0)


COMPONENT_SETTINGS = ("DOWNLOADER_MIDDLEWARES", "SPIDER_MIDDLEWARES", "EXTENSIONS", "ITEM_PIPELINES")
CLASS_SETTINGS = ("SCHEDULER", "SCHEDULER_PRIORITY_QUEUE", "SCHEDULER_MEMORY_QUEUE", "DUPEFILTER_CLASS",
                  "STATS_CLASS", "LOG_FORMATTER", "DOWNLOADER", "REQUEST_FINGERPRINTER_CLASS")


def preload(settings: Settings) -> None:
    """Import in this process what a crawl imports as it starts, so that forked workers share it instead of each
    importing it again: the crawl's components, and what the first image check loads (imagehash's SciPy DCT). Measured
    on a two-host fetch of two images: 0.9 CPU-s more for a second worker without this (3.0 against 2.1 for one
    process); about 460 modules (SciPy, requests and aiohttp through tldextract, Scrapy's own) were imported during
    the crawl. Nothing here may install a Twisted reactor: each worker installs the crawl's own."""
    from PIL import Image
    from scrapy.utils.misc import load_object

    from crawler.images.check import check_image
    from crawler.images.spider import ImageSpider  # noqa: F401  (its imports)

    for name in COMPONENT_SETTINGS:
        for path, order in settings.getwithbase(name).items():
            if order is not None and isinstance(path, str):
                load_object(path)
    for path in settings.getwithbase("DOWNLOAD_HANDLERS").values():  # scheme -> handler
        if isinstance(path, str):
            load_object(path)
    for name in CLASS_SETTINGS:
        if isinstance(path := settings.get(name), str):
            load_object(path)
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8)).save(buffer, "PNG")
    check_image(buffer.getvalue())
    if "twisted.internet.reactor" in sys.modules:  # the workers could not install the asyncio reactor
        raise RuntimeError("preloading the crawl installed a Twisted reactor before the fork")
