"""Address guard: no request, redirects included, to a non-public address unless allowed.

A crawler that follows links and redirects from the open web can be steered at the machine it runs
on or its network (SSRF): ``http://127.0.0.1:8080/admin``, cloud metadata at ``169.254.169.254``,
an intranet host. Every request passes through ``process_request`` (Scrapy re-schedules redirects
as new requests, so they pass too); its host is resolved and the request is refused when any
address is loopback, private (RFC 1918, RFC 4193), link-local, multicast, reserved or unspecified,
per Python's ``ipaddress`` classification (IANA special-purpose registries).

Exceptions are an explicit allow-list of networks, never a switch that lifts the guard:
``--allow-private NETWORKS`` (the setting ``WINNOW_ALLOWED_NETWORKS``, comma-separated) allows exactly those
networks; ``--allow-private`` alone (``WINNOW_ALLOW_PRIVATE``) allows ``PRIVATE_NETWORKS``: loopback and the
private ranges (RFC 1918, RFC 4193), for the demo and tests on 127.0.0.1, but not link-local addresses, where cloud
metadata services answer (169.254.169.254, fd00:ec2::254 is in RFC 4193's range but AWS's: list it to allow it) nor
multicast, reserved or unspecified ones: a redirect there is refused whatever the flag, unless its network is listed.

Known limit: the address is checked at resolution time here and resolved again by the download
handler, so a DNS answer that changes in between (rebinding) is not caught.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
import time
from typing import Any
from urllib.parse import urlsplit

from scrapy.exceptions import IgnoreRequest

from pipelines.settings import read as read_setting

log = logging.getLogger(__name__)

SCHEMES = frozenset({"http", "https"})
DNS_CACHE_SECONDS = 300.0

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
# What --allow-private without a list allows: loopback and the private ranges. Not 169.254.0.0/16 or fe80::/10
# (link-local: cloud metadata services), and not AWS's IPv6 metadata address inside fc00::/7.
PRIVATE_NETWORKS = ("127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")
METADATA_ADDRESSES = frozenset({ipaddress.ip_address("fd00:ec2::254")})


def parse_networks(values: list[str] | tuple[str, ...]) -> list[Network]:
    """Networks from strings (``10.0.0.0/8``, ``127.0.0.1``); ValueError naming the one that is not."""
    nets = []
    for value in values:
        value = value.strip()
        if not value:
            continue
        try:
            nets.append(ipaddress.ip_network(value, strict=False))
        except ValueError:
            raise ValueError(f"not a network or address: {value!r} (e.g. 10.0.0.0/8, 127.0.0.1)") from None
    return nets


def is_public(ip: IPAddress) -> bool:
    """Whether an address is globally routable unicast (what a web crawler may contact)."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not (ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_reserved
                or ip.is_unspecified or not ip.is_global)


def check_url(url: str) -> str | None:
    """A skip reason for a URL that cannot be crawled at all, or None."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError:
        return "malformed_url"
    if parts.scheme.lower() not in SCHEMES:
        return "unsupported_scheme"
    if not parts.hostname:
        return "malformed_url"
    return None


class AddressGuardMiddleware:
    """Scrapy downloader middleware; runs before robots.txt so that no fetch reaches a private host."""

    def __init__(self, crawler: Any, allow_private: bool, allowed: list[Network]) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        # the listed networks; --allow-private without a list: the private ones
        self.allowed = allowed or (parse_networks(PRIVATE_NETWORKS) if allow_private else [])
        self._dns: dict[tuple[str, int], tuple[float, list[IPAddress]]] = {}

    @classmethod
    def from_crawler(cls, crawler: Any) -> AddressGuardMiddleware:
        settings = crawler.settings
        nets = parse_networks(read_setting(settings, "WINNOW_ALLOWED_NETWORKS"))
        return cls(crawler, read_setting(settings, "WINNOW_ALLOW_PRIVATE"), nets)

    def permitted(self, ip: IPAddress) -> bool:
        """Public, or in an allowed network (a metadata address only when a listed network names it exactly)."""
        if ip in METADATA_ADDRESSES and not any(net.num_addresses == 1 and ip in net for net in self.allowed):
            return False
        return is_public(ip) or any(ip in net for net in self.allowed)

    def _refuse(self, request: Any, reason: str, detail: str) -> None:
        self.stats.inc_value(f"winnow/address_guard/{reason}")
        request.meta["winnow_skip_reason"] = f"address_guard.{reason}"
        raise IgnoreRequest(f"address guard: {reason}: {detail}")

    async def process_request(self, request: Any) -> None:
        reason = check_url(request.url)
        if reason:
            self._refuse(request, reason, request.url)
        parts = urlsplit(request.url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
        try:
            addresses = await self._resolve(parts.hostname, port)
        except OSError as exc:
            self._refuse(request, "unresolvable", f"{parts.hostname}: {exc}")
        for ip in addresses:
            if not self.permitted(ip):
                self._refuse(request, "blocked_address", f"{request.url} -> {ip}")

    async def _resolve(self, host: str, port: int) -> list[IPAddress]:
        try:
            return [ipaddress.ip_address(host.strip("[]"))]
        except ValueError:
            pass
        key = (host, port)
        cached = self._dns.get(key)
        if cached and cached[0] > time.monotonic():
            return cached[1]
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
        addresses = sorted({ipaddress.ip_address(info[4][0].split("%", 1)[0]) for info in infos}, key=str)
        self._dns[key] = (time.monotonic() + DNS_CACHE_SECONDS, addresses)
        return addresses
