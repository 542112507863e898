"""The address guard's allow-list (issue 15: --allow-private used to lift the guard, metadata addresses included)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace

import pytest
from scrapy import Request
from scrapy.exceptions import IgnoreRequest
from scrapy.settings import Settings
from scrapy.statscollectors import MemoryStatsCollector

from crawler.net.address_guard import AddressGuardMiddleware, parse_networks
from crawler.run import CrawlConfigError, CrawlOptions, build_settings


def guard(allow_private: bool, networks: list[str] = ()) -> AddressGuardMiddleware:
    crawler = SimpleNamespace(stats=MemoryStatsCollector(SimpleNamespace(settings=Settings({"STATS_DUMP": False}))))
    return AddressGuardMiddleware(crawler, allow_private, parse_networks(list(networks)))


def admitted(mw: AddressGuardMiddleware, url: str) -> bool:
    try:
        asyncio.run(mw.process_request(Request(url)))
        return True
    except IgnoreRequest:
        return False


@pytest.mark.parametrize(("url", "default", "private", "listed"), [
    ("http://93.184.216.34/", True, True, True),            # public: always
    ("http://127.0.0.1:8080/", False, True, True),
    ("http://127.0.0.2/", False, True, False),              # loopback, but not the listed address
    ("http://10.0.0.1/", False, True, False),
    ("http://192.168.1.1/", False, True, False),
    ("http://[fd12::1]/", False, True, False),
    ("http://169.254.169.254/latest/meta-data/", False, False, False),  # cloud metadata: never by default
    ("http://[fe80::1]/", False, False, False),
    ("http://[fd00:ec2::254]/", False, False, False),        # AWS's IPv6 metadata address, inside fc00::/7
    ("http://0.0.0.0/", False, False, False),
    ("http://224.0.0.1/", False, False, False),
])
def test_allow_list(url: str, default: bool, private: bool, listed: bool) -> None:
    assert admitted(guard(False), url) is default
    assert admitted(guard(True), url) is private  # --allow-private alone
    assert admitted(guard(True, ["127.0.0.1/32"]), url) is listed  # --allow-private 127.0.0.1/32: that only


def test_listed_metadata_address_is_allowed() -> None:
    assert admitted(guard(True, ["169.254.169.254/32"]), "http://169.254.169.254/")
    assert admitted(guard(True, ["fd00:ec2::254"]), "http://[fd00:ec2::254]/")
    assert not admitted(guard(True, ["fd00::/8"]), "http://[fd00:ec2::254]/")  # only when named exactly


def test_contact_url_needed_unless_every_seed_is_local(tmp_path: Path) -> None:
    local = ["http://127.0.0.1:8000/", "http://localhost/", "http://[::1]/", "http://10.2.3.4/"]
    build_settings(CrawlOptions(seeds=local, output=tmp_path / "a", render="never"))  # no contact needed
    with pytest.raises(CrawlConfigError, match="--contact-url"):
        build_settings(CrawlOptions(seeds=[*local, "http://example.com/"], output=tmp_path / "b",
                                    allow_private=True, render="never"))  # --allow-private no longer waives it


def test_bad_network_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CrawlConfigError, match="not a network"):
        build_settings(CrawlOptions(seeds=["http://127.0.0.1/"], output=tmp_path, allow_private=True,
                                    allowed_networks=["10.0.0.0/33"], render="never"))
    with pytest.raises(CrawlConfigError, match="not a network"):
        build_settings(CrawlOptions(seeds=["http://127.0.0.1/"], output=tmp_path, render="never",
                                    overrides={"WINNOW_ALLOWED_NETWORKS": "intranet"}))
