"""The command line of `winnow images` (issue 17): its sub-commands' parsers and commands, apart from
pipelines/app/cli.py so that each file has one job. A sub-command is one ``_add_<name>`` function and one entry in
``COMMANDS``; ``fetch`` (crawler/images/run.py does the work) is the first."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from pipelines.app.cli_args import add_identity, settings, staging_for


def add_images_parsers(sub: argparse._SubParsersAction) -> None:
    """`winnow images ACTION`: the image lane over a `winnow run` output folder."""
    images = sub.add_parser("images", help="fetch and process the images of a run's image_text/interleaved outputs",
                            description="The image lane over a `winnow run` output folder: fetch its images.")
    actions = images.add_subparsers(dest="images_command", required=True, metavar="ACTION")
    _add_fetch(actions)


def _add_fetch(actions: argparse._SubParsersAction) -> None:
    fetch = actions.add_parser(
        "fetch", help="download the images of image_text and interleaved rows into images/*.parquet",
        description="Download the images referenced by a `winnow run` output folder (image_text pairs, interleaved "
        "image segments) with the crawler's conduct: robots.txt of each image host for the bot and the training "
        "token, X-Robots-Tag noai/noimageai, Content-Usage and TDMRep on the image response, per-host concurrency "
        "and delay, Retry-After, the address guard, size and time caps. Each image is decoded and checked with "
        "Pillow, optionally resized, hashed, and stored in IMAGES/images/*.parquet keyed to the rows' ids; every "
        "row not stored is counted by reason in IMAGES/fetch-stats.json.")
    fetch.add_argument("out", metavar="OUT", help="a `winnow run` output folder (with image_text/ or interleaved/)")
    fetch.add_argument("-o", "--output", required=True, metavar="IMAGES",
                       help="folder for images/*.parquet and fetch-stats.json (new or empty, or with --resume)")
    fetch.add_argument("--resize", type=int, default=None, metavar="N",
                       help="store images with their shortest side N px (aspect kept, never upscaled; JPEG/PNG/WEBP "
                       "re-encoded in their format, others as PNG); default: as fetched")
    fetch.add_argument("--max-mb", type=float, default=20.0, metavar="MB",
                       help="largest image downloaded, in MiB (DOWNLOAD_MAXSIZE; default 20); larger: too_large")
    fetch.add_argument("--timeout", type=float, default=30.0, metavar="S",
                       help="seconds per request (DOWNLOAD_TIMEOUT; default 30); slower: timeout")
    fetch.add_argument("--shard-rows", type=int, default=1000, metavar="N",
                       help="rows per shard at most (default 1000; a shard also closes at 64 MiB of images); the "
                       "unit that survives a kill")
    add_identity(fetch, "fetches from public image hosts")
    fetch.add_argument("--resume", action="store_true",
                       help="continue a fetch in IMAGES after a stop or a kill (rows already stored or counted are "
                       "not fetched again)")
    fetch.add_argument("--retry-failed", action="store_true",
                       help="with --resume: fetch again the rows an earlier session counted under a reason another "
                       "try may not repeat (timeout, connection_error, robots_unreachable, host_parked, http_408, "
                       "http_429, http_5xx)")
    fetch.add_argument("-s", "--set", action="append", default=[], metavar="KEY=VALUE",
                       help="any Scrapy or winnow crawl setting, e.g. -s DOWNLOAD_DELAY=0.25 -s "
                       "CONCURRENT_REQUESTS_PER_DOMAIN=4 (repeatable)")
    fetch.add_argument("--workers", type=int, default=1, metavar="N",
                       help="fetch in N processes, each image host in exactly one (its own per-host limits kept; "
                       "CONCURRENT_REQUESTS shared out); default 1. Worth it when one process is CPU-bound: many "
                       "hosts or fast ones, and more than one core (Linux only)")
    fetch.add_argument("--no-progress", action="store_true", help="no progress bar")
    fetch.add_argument("--staging", metavar="DIR",
                       help="with an object-store --output (s3://...): the local folder the fetch writes in, then "
                       "uploads from, and keeps its state in for --resume (default ~/.cache/winnow/fetch-staging/"
                       "<hash of the URL>)")


def _cmd_fetch(args: argparse.Namespace) -> int:
    from crawler.images.run import FetchOptions, fetch_command

    try:
        overrides = settings(args.set)
    except ValueError as exc:
        print(f"winnow images fetch: {exc}", file=sys.stderr)
        return 2
    upload_to = None
    output = Path(args.output)
    if _is_remote(args.output):  # fetched into a local staging folder, uploaded when the fetch ends (_upload)

        output, upload_to, problem = staging_for(args.output, args.staging, "fetch-staging")
        if problem:
            print(f"winnow images fetch: {problem}", file=sys.stderr)
            return 2
    opts = FetchOptions(
        source=Path(args.out), output=output, resize=args.resize, max_mb=args.max_mb, timeout=args.timeout,
        shard_rows=args.shard_rows, bot_name=args.bot_name, contact_url=args.contact_url,
        training_token=args.training_token, allow_private=args.allow_private is not None,
        allowed_networks=[n.strip() for n in (args.allow_private or "").split(",") if n.strip()],
        resume=args.resume, progress=not args.no_progress, overrides=overrides, workers=args.workers,
        retry_failed=args.retry_failed)
    stats, status = fetch_command(opts)
    if stats is not None and upload_to and not _upload(opts.output, upload_to):
        return 1
    return status


def _is_remote(path: str) -> bool:
    from pipelines.storage import is_remote

    return is_remote(path)


def _upload(staging: Path, url: str) -> bool:
    """The finished shards and fetch-stats.json of the staging folder to ``url`` (what is there already is not sent
    again; the state, hidden, stays local for --resume); False, with one line, when the store refused."""
    from pipelines import storage

    try:
        sent = storage.upload_tree(str(staging), url)
    except storage.StorageError as exc:
        print(f"winnow images fetch: uploading to {storage.redact(url)}: {exc} (the fetch is kept in {staging}; "
              "run it again with --resume to upload it)", file=sys.stderr)
        return False
    print(f"{storage.redact(url)}: {sent} file(s) uploaded from {staging}")
    return True


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {"fetch": _cmd_fetch}


def cmd_images(args: argparse.Namespace) -> int:
    return COMMANDS[args.images_command](args)
