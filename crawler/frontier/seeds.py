"""Seed URLs checked before the crawl starts: each bad seed is skipped with its reason, the rest are crawled.

A seed Twisted or Scrapy cannot use (``http://host:99999/``, ``http://[::1``, ``notaurl``) used to end the crawl
at start-up with an unhandled error in a Deferred and no crawl-stats.json, or with rc 0 and the valid seeds never
fetched (issue 15). Reasons, counted as ``winnow/seeds_skipped/<reason>`` in crawl-stats.json:

- ``not_http``: no ``http``/``https`` scheme (``notaurl``, ``ftp://...``, ``mailto:...``);
- ``bad_url``: the URL does not parse (an unclosed IPv6 bracket);
- ``bad_port``: a port outside 1..65535;
- ``no_host``, ``bad_host``: no host name, or one with spaces or that IDNA cannot encode.
"""

from __future__ import annotations

from urllib.parse import urlsplit

SCHEMES = ("http", "https")


def seed_problem(url: str) -> str | None:
    """Why ``url`` cannot be a seed (a reason above), or None when it can."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:  # "Invalid IPv6 URL"
        return "bad_url"
    if parts.scheme.lower() not in SCHEMES:
        return "not_http"
    try:
        port = parts.port
    except ValueError:  # "Port out of range 0-65535", or not a number
        return "bad_port"
    if port == 0:
        return "bad_port"
    host = parts.hostname
    if not host:
        return "no_host"
    if any(c.isspace() for c in host):
        return "bad_host"
    if not host.startswith("["):
        try:
            host.encode("idna")
        except UnicodeError:  # an empty label ("a..b"), a label over 63 characters
            return "bad_host"
    return None


def split_seeds(seeds: list[str]) -> tuple[list[str], dict[str, str]]:
    """``(usable seeds in order, {bad seed: reason})``."""
    good: list[str] = []
    bad: dict[str, str] = {}
    for seed in seeds:
        problem = seed_problem(seed)
        if problem is None:
            good.append(seed.strip())
        else:
            bad[seed] = problem
    return good, bad
