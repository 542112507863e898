"""What the commands share: ``-s KEY=VALUE`` (``winnow crawl``, ``winnow images fetch``), the input selection of
``winnow run`` and ``winnow submit``, the local staging folder of an object-store output. One definition per idea."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path


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


def add_identity(parser: argparse.ArgumentParser, required_for: str) -> None:
    """Who the crawler is and where it may go: the options of every command that fetches (``winnow crawl``,
    ``winnow images fetch``); ``required_for`` says when --contact-url is required."""
    parser.add_argument("--bot-name", default="winnowbot", help="product token in the User-Agent (default winnowbot)")
    parser.add_argument("--training-token", default="",
                        help="robots.txt token that controls training use (default: <bot-name>-Extended)")
    parser.add_argument("--contact-url", default="", help=f"URL where site owners can reach you (required for "
                        f"{required_for}; goes into the User-Agent)")
    parser.add_argument("--allow-private", nargs="?", const="", default=None, metavar="NETWORKS",
                        help="allow non-public addresses: alone, loopback and private networks (RFC 1918/4193; local "
                        "tests and the demo), never link-local metadata addresses; or exactly the comma-separated "
                        "networks given, e.g. 127.0.0.1/32,10.1.0.0/16")


def add_input_selection(parser: argparse.ArgumentParser) -> None:
    """The options of ``winnow run`` (and ``winnow submit``) that choose among the inputs: Common Crawl listings'
    base and a subset for sampling."""
    parser.add_argument("--input-base", metavar="URL",
                        help="where the relative paths of a *.paths[.gz] listing point (default: the root of the "
                        "store the listing is in; for Common Crawl s3://commoncrawl/ or https://data.commoncrawl.org/)")
    parser.add_argument("--input-first", type=int, metavar="N",
                        help="only the first N input files (of the sorted list, after --input-every)")
    parser.add_argument("--input-every", type=int, metavar="K",
                        help="only every K-th input file (the 1st, the K+1-th, ...): a sample of a segment")


def staging_for(url: str, staging: str | None, kind: str = "crawl-staging") -> tuple[Path, str, str | None]:
    """For ``winnow crawl --output URL`` (and ``winnow images fetch``): the local staging folder, the URL, and what
    is wrong (the bucket cannot be written) or None. The default staging folder is derived from the URL, so that
    --resume finds it again."""
    import hashlib
    import os

    from pipelines import storage

    url = storage.normalize(url)
    if staging:
        folder = Path(staging)
    else:
        digest = hashlib.blake2b(storage.redact(url).encode(), digest_size=8).hexdigest()
        cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        folder = cache / "winnow" / kind / digest
    probe = storage.join(url, f".write-test-{os.getpid()}")
    try:  # a missing bucket, wrong credentials or a refusal: now, not after the crawl
        storage.write_bytes(probe, b"")
        storage.remove(probe)
    except storage.StorageError as exc:
        return folder, url, f"cannot write to {storage.redact(url)}: {exc.problem}"
    return folder, url, None
