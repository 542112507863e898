"""Address guard: no request, redirects included, to a non-public address unless allowed.

A crawler that follows links and redirects from the open web can be steered at the machine it runs
on or its network (SSRF): ``http://127.0.0.1:8080/admin``, cloud metadata at ``169.254.169.254``,
an intranet host. Every request passes through ``process_request`` (Scrapy re-schedules redirects
as new requests, so they pass too); its host is resolved and the request is refused when any
address is loopback, private (RFC 1918, RFC 4193), link-local, multicast, reserved or unspecified,
per Python's ``ipaddress`` classification (IANA special-purpose registries).

``--allow-private`` (setting ``WINNOW_ALLOW_PRIVATE``) lifts the guard, for the demo and tests on
127.0.0.1; ``WINNOW_ALLOWED_NETWORKS`` allows listed networks only (tests use it to allow the
fixture server while proving that a redirect to another loopback address is refused).

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

log = logging.getLogger(__name__)

SCHEMES = frozenset({"http", "https"})
DNS_CACHE_SECONDS = 300.0

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


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
        self.allow_private = allow_private
        self.allowed = allowed
        self._dns: dict[tuple[str, int], tuple[float, list[IPAddress]]] = {}

    @classmethod
    def from_crawler(cls, crawler: Any) -> AddressGuardMiddleware:
        settings = crawler.settings
        nets = [ipaddress.ip_network(n, strict=False) for n in settings.getlist("WINNOW_ALLOWED_NETWORKS")]
        return cls(crawler, settings.getbool("WINNOW_ALLOW_PRIVATE"), nets)

    def _refuse(self, request: Any, reason: str, detail: str) -> None:
        self.stats.inc_value(f"winnow/address_guard/{reason}")
        request.meta["winnow_skip_reason"] = f"address_guard.{reason}"
        raise IgnoreRequest(f"address guard: {reason}: {detail}")

    async def process_request(self, request: Any) -> None:
        reason = check_url(request.url)
        if reason:
            self._refuse(request, reason, request.url)
        if self.allow_private:
            return
        parts = urlsplit(request.url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
        try:
            addresses = await self._resolve(parts.hostname, port)
        except OSError as exc:
            self._refuse(request, "unresolvable", f"{parts.hostname}: {exc}")
        for ip in addresses:
            if not is_public(ip) and not any(ip in net for net in self.allowed):
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
