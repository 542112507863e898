"""Arguments the commands share (``winnow crawl``, ``winnow images fetch``): one parser per idea."""

from __future__ import annotations

from collections.abc import Iterable


def settings(items: Iterable[str]) -> dict[str, str]:
    """``-s KEY=VALUE`` items (Scrapy or winnow settings) as a dict, the last of a key winning; values stay strings,
    as Scrapy's own ``-s`` leaves them for its settings' getters. ValueError naming the item that is not KEY=VALUE:
    the command prints it as its one-line refusal (rc 2) before anything starts."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"-s expects KEY=VALUE, got {item!r}")
        out[key.strip()] = value
    return out
