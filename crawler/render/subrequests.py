"""What the browser may fetch while it renders a page: the same rules as Scrapy's own requests.

With scrapy-playwright the browser's sub-requests (scripts, XHR/fetch, frames, redirects of the navigation)
never pass Scrapy's downloader middlewares (../shared/STACK-NOTES.md). scrapy-playwright routes every request
of a page it drives through ``page.route("**")`` and asks ``PLAYWRIGHT_ABORT_REQUEST`` first; that setting
names :func:`abort_request` here. The predicate gets only the Playwright request, so the crawl registers its
policy in this module when it starts (:func:`install`, called by ``crawler.render.middleware.RenderMiddleware``) and
every page of that crawl is judged by it:

- schemes: ``http``/``https`` only (``file:``, ``ftp:``, ``chrome:``... aborted: reason ``scheme``);
  ``data:``/``blob:``/``about:`` never reach the network and are let through;
- resource types in ``WINNOW_RENDER_BLOCK_RESOURCES`` (default image, media, font: the DOM is what is
  kept, and image URLs are recorded from it): reason ``resource_<type>``;
- the address guard (``crawler.net.address_guard.AddressGuardMiddleware``, the same instance and settings as for
  Scrapy's requests): reason ``address_guard``;
- robots.txt for the crawl token (``crawler.policy.robots_middleware.RobotsPolicyMiddleware.fetch_rules``: the same
  cache; an origin seen for the first time has its robots.txt fetched through Scrapy, politely): reason
  ``robots``. ``/robots.txt`` itself is implicitly allowed (RFC 9309 §2.2.2).

Aborts are counted in ``winnow/render/aborted/<reason>``. With no policy installed every request is aborted
(fail closed). WebSockets are not routed by ``page.route``; ``crawler.render.page`` refuses them.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.exceptions import IgnoreRequest

log = logging.getLogger(__name__)

NETWORK_SCHEMES = frozenset({"http", "https"})
LOCAL_SCHEMES = frozenset({"data", "blob", "about"})
DEFAULT_BLOCK_RESOURCES = frozenset({"image", "media", "font"})


class SubrequestPolicy:
    """The crawl's rules for browser requests; finds the crawl's guard and robots middlewares on first use."""

    def __init__(self, crawler: Any, block_resources: frozenset[str] = DEFAULT_BLOCK_RESOURCES) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.block_resources = block_resources
        self._resolved = False
        self._guard: Any = None
        self._robots: Any = None

    def _resolve(self) -> None:
        # The downloader's middleware list exists only once the engine is built, after from_crawler.
        self._resolved = True
        for mw in self.crawler.engine.downloader.middleware.middlewares:
            if hasattr(mw, "fetch_rules") and hasattr(mw, "bot_token"):
                self._robots = mw
            elif type(mw).__name__ == "AddressGuardMiddleware":
                self._guard = mw
        if self._guard is None:
            log.warning("render: no address guard middleware enabled; browser requests are not address-checked")
        if self._robots is None:
            log.warning("render: no robots.txt middleware enabled; browser requests are not robots-checked")

    async def verdict(self, url: str, resource_type: str) -> str | None:
        """Why a browser request for ``url`` must be aborted, or None to let it go."""
        try:
            parts = urlsplit(url)
            scheme = parts.scheme.lower()
        except ValueError:
            return "malformed_url"
        if scheme in LOCAL_SCHEMES:
            return None
        if scheme not in NETWORK_SCHEMES:
            return "scheme"
        if resource_type in self.block_resources:
            return f"resource_{resource_type}"
        if not self._resolved:
            self._resolve()
        if self._guard is not None:
            try:
                await self._guard.process_request(Request(url))
            except IgnoreRequest:
                return "address_guard"
            except ValueError:
                return "malformed_url"
        if self._robots is not None and not (parts.path == "/robots.txt" and not parts.query):
            rules = await self._robots.fetch_rules(url)
            if not rules.allowed(url, self._robots.bot_token):
                return "robots"
        return None


_active: SubrequestPolicy | None = None


def install(policy: SubrequestPolicy) -> None:
    """Make ``policy`` the one :func:`abort_request` applies (one crawl per process, as with Scrapy's reactor)."""
    global _active
    _active = policy


def uninstall(policy: SubrequestPolicy) -> None:
    global _active
    if _active is policy:
        _active = None


def active() -> SubrequestPolicy | None:
    return _active


async def abort_request(request: Any) -> bool:
    """``PLAYWRIGHT_ABORT_REQUEST``: True aborts the Playwright ``request``."""
    policy = _active
    if policy is None:
        log.error("render: no sub-request policy installed; aborting %s", request.url)
        return True
    try:
        reason = await policy.verdict(request.url, request.resource_type)
    except Exception:  # a policy that cannot decide must not let the request through
        log.exception("render: policy failed for %s", request.url)
        reason = "policy_error"
    if reason is None:
        return False
    policy.stats.inc_value(f"winnow/render/aborted/{reason}")
    policy.stats.inc_value("winnow/render/aborted")
    log.debug("render: aborted %s %s (%s)", request.resource_type, request.url, reason)
    return True
