"""``--input`` to a list of input files: local paths, object-store URLs, globs, folders, Common Crawl listings.

Each ``--input`` is one of:

- a file: a local path, ``s3://bucket/key.warc.gz`` (``gs://``, ``az://`` where their drivers are installed), or an
  ``http(s)://`` URL;
- a folder, searched recursively: a local folder or a key prefix in a bucket (``s3://bucket/crawl/``); files and
  folders whose names start with ``.`` are left out, and so are files of other types (logs, CDX indexes);
- a glob, local or in a bucket (``s3://bucket/cc/*.warc.gz``, ``**`` across folders);
- a listing: a file named ``*.paths`` or ``*.paths.gz`` with one path per line, as Common Crawl publishes each
  crawl's ``warc.paths.gz``. Absolute lines (URLs, ``/local/paths``) are taken as they are; relative lines are
  joined to ``base`` (``--input-base``), by default the root of the store the listing is in
  (``s3://commoncrawl/`` for a listing there, ``https://data.commoncrawl.org/`` for a listing there). A local
  listing of relative paths needs ``--input-base``: for Common Crawl, ``s3://commoncrawl/`` or
  ``https://data.commoncrawl.org/``.

Nothing is downloaded here: listings of buckets are key listings, and the files are read later, streamed.

A subset for sampling a segment: ``every`` keeps every k-th file of the sorted list (the 1st, the k+1-th, ...),
then ``first`` keeps the first N of those.
"""

from __future__ import annotations

import gzip
import os
import posixpath
from collections.abc import Callable
from urllib.parse import urlsplit

from pipelines import storage

_GLOB_CHARS = frozenset("*?[")
LISTING_SUFFIXES = (".paths", ".paths.gz")

# Sizes learnt while listing, so that the manifest need not ask the store again for each input.
_known_sizes: dict[str, int] = {}


def known_size(path: str) -> int | None:
    """The size of an input in bytes: a local file's, or one learnt while listing a bucket; None when not known
    without asking the store (inputs of a listing)."""
    if path in _known_sizes:
        return _known_sizes[path]
    if not storage.is_remote(path):
        try:
            return os.path.getsize(path)
        except OSError:
            return None
    return None


def is_listing(path: str) -> bool:
    return storage.basename(path).lower().endswith(LISTING_SUFFIXES)


def _hidden(relative: str) -> bool:
    return any(part.startswith(".") for part in relative.replace(os.sep, "/").split("/") if part)


def _files_under(folder: str, supported: Callable[[str], bool]) -> list[str]:
    """Supported files below ``folder``; hidden files and folders, and other file types, are left out, and so are
    shards of a winnow output that no commit record vouches for (``committed_only``)."""
    found = storage.find(folder)
    _known_sizes.update(found)
    root = storage.normalize(folder)
    out = []
    for path in found:
        relative = path[len(root):] if path.startswith(root) else storage.basename(path)
        if not _hidden(relative) and supported(storage.basename(path)):
            out.append(path)
    return committed_only(out)


def committed_only(paths: list[str]) -> list[str]:
    """``paths`` without the shards (``OUT/<output>/part-<wave>-<hash>.parquet``) of waves that ``OUT/_progress/``
    has no commit record for: what a killed run wrote, or a run still writes, is not an output yet (on an object
    store there is no rename to hide it; the commit record is what makes a wave's shards count)."""
    from pipelines.writer import shard_wave

    committed: dict[str, set[str] | None] = {}
    out = []
    for path in paths:
        wave = shard_wave(storage.basename(path))
        if wave is None:
            out.append(path)
            continue
        run_dir = storage.parent(storage.parent(path))
        if run_dir not in committed:
            names = storage.list_names(storage.join(run_dir, "_progress"))
            # Not a winnow output (no commit records at all): Parquet files that merely look like shards are kept.
            committed[run_dir] = ({n.removeprefix("wave-").removesuffix(".json") for n in names
                                   if n.startswith("wave-")} if names else None)
        if committed[run_dir] is None or wave in committed[run_dir]:
            out.append(path)
    return out


def listing_base(listing: str, base: str | None) -> str | None:
    """Where the relative lines of ``listing`` point to: ``base``, else the root of the listing's store."""
    if base:
        return base
    if storage.is_remote(listing):
        parts = urlsplit(listing)
        return f"{parts.scheme}://{parts.netloc}/"
    return None


def read_listing(listing: str, base: str | None = None) -> list[str]:
    """The paths a ``*.paths[.gz]`` listing names, absolute."""
    data = storage.read_bytes(listing)
    if listing.lower().endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise ValueError(f"listing {storage.redact(listing)} is not readable gzip: {exc}") from None
    lines = [line.strip() for line in data.decode("utf-8", "replace").splitlines()]
    lines = [line for line in lines if line and not line.startswith("#")]
    root = listing_base(listing, base)
    out = []
    for line in lines:
        if storage.is_remote(line) or os.path.isabs(line):
            out.append(line)
        elif root is None:
            raise ValueError(f"listing {listing} holds relative paths ({line}); give --input-base, e.g. "
                             "s3://commoncrawl/ or https://data.commoncrawl.org/ for Common Crawl")
        elif storage.is_remote(root):
            out.append(posixpath.join(root.rstrip("/"), line.lstrip("/")))
        else:
            out.append(os.path.join(root, line))
    if not out:
        raise FileNotFoundError(f"listing {storage.redact(listing)} names no file")
    return out


def expand_one(spec: str, supported: Callable[[str], bool], check: Callable[[str], object],
               base: str | None = None) -> list[str]:
    """One ``--input`` to its files. ``supported(name)``: whether a file name is an input type; ``check(path)``:
    raises ValueError for an explicitly named file of another type."""
    remote = storage.is_remote(spec)
    path = storage.normalize(spec) if remote else os.path.expanduser(spec)
    shown = storage.redact(spec)
    if is_listing(path):
        found = read_listing(path, base)  # a missing listing, bucket or a refusal: StorageError, naming it
        for p in found:
            check(p)
        return found
    if _GLOB_CHARS & set(urlsplit(path).path if remote else path):
        matches = storage.glob(path)
        if remote:  # as Python's glob does locally: a wildcard matches no hidden name, a literal one may
            literal = set(urlsplit(path).path.split("/"))
            matches = {m: n for m, n in matches.items()
                       if not any(part.startswith(".") and part not in literal for part in urlsplit(m).path.split("/"))}
        if not matches:
            raise FileNotFoundError(f"input pattern matches nothing: {shown}")
        _known_sizes.update({m: n for m, n in matches.items() if n})
    elif remote and (storage.scheme(path) in ("http", "https") or supported(storage.basename(path))):
        # A file: asked for by name (a HEAD), so a missing object, a missing bucket and a refusal each say so.
        try:
            _known_sizes[path] = storage.size(path)
        except storage.StorageNotFound as exc:
            if "bucket" in exc.problem:
                raise
            raise FileNotFoundError(f"input not found: {shown}") from None
        matches = {path: 0}
    elif remote:
        # A prefix: listed, which needs only the right to list the bucket (not to read a key of that name).
        under = _files_under(path, supported)
        if not under:
            raise FileNotFoundError(f"no WARC, JSONL or Parquet files under input folder: {shown}")
        return under
    elif os.path.exists(path):
        matches = {path: 0}
    else:
        raise FileNotFoundError(f"input not found: {shown}")
    out: list[str] = []
    for match in matches:
        # A file of a type winnow reads is taken as a file without asking the store (one request per match of a
        # glob over thousands of keys would add up); locally a folder check costs nothing.
        named_file = supported(storage.basename(match)) and (remote or not os.path.isdir(match))
        if not named_file and storage.isdir(match):
            under = _files_under(match, supported)
            if not under and match == path:
                raise FileNotFoundError(f"no WARC, JSONL or Parquet files under input folder: {shown}")
            out += under
        else:
            check(match)  # an explicitly named (or glob-matched) file must be of a type winnow reads
            out.append(match)
    return committed_only(out) if len(matches) > 1 else out  # a file named on its own is taken as named


def subset(paths: list[str], first: int | None = None, every: int | None = None) -> list[str]:
    """Every ``every``-th path (from the first), then the first ``first`` of those."""
    if every is not None:
        if every < 1:
            raise ValueError("--input-every must be at least 1")
        paths = paths[::every]
    if first is not None:
        if first < 1:
            raise ValueError("--input-first must be at least 1")
        paths = paths[:first]
    return paths
