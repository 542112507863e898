"""Every path winnow reads or writes, local or in an object store: one module on fsspec.

A location is a string: a local path (``out/``, ``/data/crawl``), or a URL: ``s3://bucket/key`` (Amazon S3 and
S3-compatible stores, found through the standard ``AWS_ENDPOINT_URL`` setting), ``gs://`` and ``az://`` (``abfs://``)
where their drivers (gcsfs, adlfs) are installed, and ``http(s)://`` for inputs. Local paths keep the plain
``os``/``open`` calls they always had (no layer in the way of the common case); everything else goes through
fsspec.

Why fsspec and not ``pyarrow.fs``: fsspec has every scheme the pipeline needs behind one interface (pyarrow.fs has
no HTTP file system, and its GCS and Azure support depends on how the wheel was built), its files are Python file
objects that warcio and ``pyarrow.parquet`` read as they are, and its drivers (s3fs, gcsfs, adlfs) take
credentials from each cloud's standard chain (environment, profile files, instance roles): winnow passes none.

What an object store lacks, and what this module does about it:

- No atomic rename. ``write_bytes``, ``write_json`` and ``writer`` make an object appear whole or not at all: on a
  store the bytes are written to a local temporary file and uploaded in one ``put`` (a single PUT, or a multipart
  upload completed only at its end), so a killed or failing writer leaves nothing a reader could take for a whole
  file; on a local disk, a hidden temporary name renamed over the target, as before. What makes a *set* of files
  visible (a wave's shards) is the runner's commit record, written last (pipelines/runner.py).
- No folders. A "folder" is a key prefix: ``makedirs`` does nothing there, listings are of prefixes, and removing a
  folder removes the keys under it.
- Listing caches. fsspec's drivers cache listings per process; another process (a Ray worker) writes under the same
  prefix, so the caches are switched off (``use_listings_cache=False``).
- Networks fail. ``open_input`` streams a file (never downloading it whole first) through fsspec's read-ahead cache
  and, when the connection drops mid-file, opens it again at the byte where it stopped, ``READ_RETRIES`` times with
  backoff (s3fs retries each request on its own first). Every failure leaves this module as a
  ``pipelines.storage_errors.StorageError``: one line naming the URL, never a credential.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import logging
import os
import posixpath
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import IO, Any, BinaryIO, TypeVar

import pyarrow as pa
import pyarrow.parquet as pq

from pipelines.storage_errors import (
    StorageError,
    StorageNotFound,
    is_transient,
    redact,
    translate,
)

log = logging.getLogger(__name__)

__all__ = ["StorageError", "StorageNotFound", "basename", "exists", "find", "glob", "is_remote", "isdir", "join",
           "list_names", "makedirs", "open_input", "parent", "read_bytes", "read_json", "redact", "remove",
           "remove_tree", "size", "write_bytes", "write_json", "writer"]

_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]+)://")
# Schemes whose drivers keep listing caches (see the docstring) and take this option.
_LISTING_CACHES = ("s3", "s3a", "gs", "gcs", "az", "abfs", "abfss", "adl")
READ_RETRIES = 4  # re-opens after a dropped connection; s3fs already retried each request up to 5 times
RETRY_BASE_S = 0.5  # then 1, 2, 4 s: a restarting endpoint or a throttled prefix gets a few seconds
# fsspec's read-ahead block for streamed inputs: one ranged GET per block (s3fs's default is 50 MiB). On
# bench/storage_read_bench.py's WARC files (144 MB) against moto on the same 2 cores, read_input's medians of 3
# rounds: 8 MiB 577 docs/s, 32 MiB 619, the local files 665; fsspec's background prefetch of the next 8 MiB block
# 558 (no core to spare for it). 32 MiB per open file is small beside a Ray worker's memory.
READ_BLOCK = 32 * 2**20
_BUFFER = 1 << 20

T = TypeVar("T")


def is_remote(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a URL of a store (``s3://``, ``gs://``, ``http://``, ...); ``file://`` is local."""
    match = _SCHEME.match(os.fspath(path))
    return bool(match) and match.group(1).lower() != "file"


def scheme(path: str) -> str:
    """``s3``, ``https``, ... or ``""`` for a local path."""
    match = _SCHEME.match(path)
    return match.group(1).lower() if match and match.group(1).lower() != "file" else ""


def normalize(path: str | os.PathLike[str]) -> str:
    """A location as a string: a URL as given (without a trailing slash), a local path as given (``file://``
    removed)."""
    text = os.fspath(path)
    if text.lower().startswith("file://"):
        return text[7:]
    if is_remote(text):
        return text.rstrip("/") if not text.endswith("://") else text
    return text


def join(base: str | os.PathLike[str], *parts: str) -> str:
    base = normalize(base)
    if is_remote(base):
        return posixpath.join(base.rstrip("/"), *parts) if parts else base
    return os.path.join(base, *parts)


def basename(path: str) -> str:
    path = normalize(path)
    if is_remote(path):
        return posixpath.basename(path.split("?", 1)[0].rstrip("/"))
    return os.path.basename(path)


def parent(path: str) -> str:
    path = normalize(path)
    if is_remote(path):
        head, _, _ = path.split("?", 1)[0].rstrip("/").rpartition("/")
        return head if "://" in head and not head.endswith(":/") else path
    return os.path.dirname(path)


def absolute(path: str) -> str:
    path = normalize(path)
    return path if is_remote(path) else os.path.abspath(path)


# -- the file systems -------------------------------------------------------------------------------------------

# The variables of the credential chains: a file system is made again when they change (a test's second server,
# a notebook that switched profile), since the drivers read them once, when their client is made.
_CHAIN_PREFIXES = ("AWS_", "AZURE_", "GOOGLE_", "GCLOUD_", "GCSFS_")


def _chain_key() -> str:
    import hashlib

    items = sorted((k, v) for k, v in os.environ.items() if k.startswith(_CHAIN_PREFIXES))
    return hashlib.blake2b(repr(items).encode(), digest_size=8).hexdigest()  # a digest: no secret kept as text


def _fs_for(protocol: str) -> Any:
    return _fs_cached(protocol, _chain_key())


@functools.lru_cache(maxsize=32)
def _fs_cached(protocol: str, _chain: str) -> Any:
    import fsspec

    options: dict[str, Any] = {"skip_instance_cache": True}
    if protocol in _LISTING_CACHES:
        options["use_listings_cache"] = False
    try:
        return fsspec.filesystem(protocol, **options)
    except (ImportError, ValueError) as exc:
        raise StorageError(f"{protocol}://", f"no driver for {protocol}:// is installed ({exc}); s3:// needs s3fs "
                           "(installed with winnow), gs:// gcsfs, az:// adlfs") from None


def filesystem(url: str) -> tuple[Any, str]:
    """The fsspec file system of ``url`` and the path within it."""
    protocol = scheme(url)
    fs = _fs_for(protocol)
    return fs, (url if protocol in ("http", "https") else fs._strip_protocol(url))


def _call(url: str, doing: str, fn: Callable[[], T]) -> T:
    """``fn()``, with whatever it raises as a one-line StorageError."""
    try:
        return fn()
    except StorageError:
        raise
    except Exception as exc:
        raise translate(url, exc, doing) from None


def _url(protocol: str, path: str) -> str:
    """A path returned by a driver's listing, as a URL again."""
    return path if _SCHEME.match(path) else f"{protocol}://{path.lstrip('/')}"


# -- questions --------------------------------------------------------------------------------------------------

def exists(path: str) -> bool:
    path = normalize(path)
    if not is_remote(path):
        return os.path.exists(path)
    fs, p = filesystem(path)
    return _call(path, "checking", lambda: bool(fs.exists(p)))


def isdir(path: str) -> bool:
    """A local folder, or a prefix that has keys under it (an empty bucket counts)."""
    path = normalize(path)
    if not is_remote(path):
        return os.path.isdir(path)
    if scheme(path) in ("http", "https"):
        return False
    fs, p = filesystem(path)
    return _call(path, "checking", lambda: bool(fs.isdir(p)))


def isfile(path: str) -> bool:
    path = normalize(path)
    if not is_remote(path):
        return os.path.isfile(path)
    fs, p = filesystem(path)
    return _call(path, "checking", lambda: bool(fs.isfile(p)))


def size(path: str) -> int:
    path = normalize(path)
    if not is_remote(path):
        return os.path.getsize(path)
    fs, p = filesystem(path)
    return int(_call(path, "checking", lambda: fs.size(p)) or 0)


def list_names(folder: str) -> list[str]:
    """The names directly in ``folder`` (files and sub-folders), sorted; [] when it is not there."""
    folder = normalize(folder)
    if not is_remote(folder):
        try:
            return sorted(os.listdir(folder))
        except (FileNotFoundError, NotADirectoryError):
            return []
    fs, p = filesystem(folder)

    def names() -> list[str]:
        try:
            entries = fs.ls(p, detail=False)
        except FileNotFoundError:
            return []
        return sorted(posixpath.basename(e.rstrip("/")) for e in entries if e.rstrip("/") != p.rstrip("/"))

    return _call(folder, "listing", names)


def find(folder: str) -> dict[str, int]:
    """Every file below ``folder`` (recursively) -> its size; {} when there is none."""
    folder = normalize(folder)
    if not is_remote(folder):
        out = {}
        for root, _dirs, files in os.walk(folder):
            for f in files:
                full = os.path.join(root, f)
                with contextlib.suppress(OSError):
                    out[full] = os.path.getsize(full)
        return out
    fs, p = filesystem(folder)
    protocol = scheme(folder)
    found = _call(folder, "listing", lambda: fs.find(p, detail=True))
    return {_url(protocol, k): int(v.get("size") or 0) for k, v in found.items() if v.get("type") != "directory"}


def glob(pattern: str) -> dict[str, int]:
    """Files matching ``pattern`` (``*``, ``?``, ``[...]``, ``**`` across folders) -> their sizes."""
    pattern = normalize(pattern)
    if not is_remote(pattern):
        import glob as stdglob

        return {m: (os.path.getsize(m) if os.path.isfile(m) else 0)
                for m in stdglob.glob(os.path.expanduser(pattern), recursive=True)}
    fs, p = filesystem(pattern)
    protocol = scheme(pattern)
    found = _call(pattern, "listing", lambda: fs.glob(p, detail=True))
    return {_url(protocol, k): int(v.get("size") or 0) for k, v in found.items()}


# -- reading ----------------------------------------------------------------------------------------------------

class _ResumingReader(io.RawIOBase):
    """A streamed remote file that survives a dropped connection: on a transient failure it opens the file again
    at the byte where reading stopped (``READ_RETRIES`` times, with backoff), then gives up with a
    StorageUnavailable naming the URL and the byte."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self._fs, self._path = filesystem(url)
        self._pos = 0
        self._file: Any = None
        self._open()  # a missing object or a refusal shows at once, not at the first read

    def _open(self) -> None:
        file = _call(self.url, "opening", lambda: self._fs.open(self._path, "rb", block_size=READ_BLOCK,
                                                                cache_type="readahead"))
        if self._pos:
            file.seek(self._pos)
        self._file = file

    def _drop(self) -> None:
        if self._file is not None:
            with contextlib.suppress(Exception):
                self._file.close()
        self._file = None

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if whence == io.SEEK_CUR:
            offset += self._pos
        elif whence == io.SEEK_END:
            offset += size(self.url)
        self._pos = max(0, offset)
        if self._file is not None:
            self._file.seek(self._pos)
        return self._pos

    def readinto(self, buffer: Any) -> int:
        last: BaseException | None = None
        for attempt in range(READ_RETRIES + 1):
            try:
                if self._file is None:
                    self._open()
                data = self._file.read(len(buffer))
                break
            except Exception as exc:
                if not is_transient(exc):
                    raise translate(self.url, exc, f"reading at byte {self._pos}") from None
                last = exc
                self._drop()
                if attempt < READ_RETRIES:
                    log.warning("%s: %s at byte %d; opening it again (retry %d of %d)", redact(self.url),
                                type(exc).__name__, self._pos, attempt + 1, READ_RETRIES)
                    time.sleep(RETRY_BASE_S * 2**attempt)
        else:
            assert last is not None
            err = translate(self.url, last, f"reading at byte {self._pos}")
            raise type(err)(self.url, f"{err.problem} (gave up after {READ_RETRIES} retries)") from None
        n = len(data)
        buffer[:n] = data
        self._pos += n
        return n

    def close(self) -> None:
        self._drop()
        super().close()


def open_input(path: str) -> BinaryIO:
    """A seekable binary file to read ``path`` from, streamed (remote files are read block by block as they are
    consumed, never downloaded whole first). Raises StorageError (StorageNotFound, StorageDenied, ...)."""
    path = normalize(path)
    if not is_remote(path):
        return open(path, "rb")
    return io.BufferedReader(_ResumingReader(path), _BUFFER)  # type: ignore[return-value]


def read_bytes(path: str) -> bytes:
    path = normalize(path)
    if not is_remote(path):
        with open(path, "rb") as fh:
            return fh.read()
    with open_input(path) as fh:
        return fh.read()


def read_json(path: str) -> Any:
    return json.loads(read_bytes(path))


def parquet_file(path: str) -> pq.ParquetFile:
    """A ``ParquetFile`` of ``path`` (its footer read; row groups read on demand). A file that is not Parquet
    raises Arrow's own error, a store's failure a StorageError."""
    path = normalize(path)
    return pq.ParquetFile(path if not is_remote(path) else open_input(path))


def read_parquet(path: str, columns: list[str] | None = None, schema: pa.Schema | None = None) -> pa.Table:
    path = normalize(path)
    if not is_remote(path):
        return pq.read_table(path, columns=columns, schema=schema)
    with open_input(path) as fh:
        return pq.read_table(fh, columns=columns, schema=schema)


def read_schema(path: str) -> pa.Schema:
    path = normalize(path)
    if not is_remote(path):
        return pq.read_schema(path)
    with open_input(path) as fh:
        return pq.ParquetFile(fh).schema_arrow


# -- writing ----------------------------------------------------------------------------------------------------

def makedirs(path: str) -> None:
    """A local folder (and its parents); nothing on a store, where folders are key prefixes."""
    path = normalize(path)
    if not is_remote(path):
        os.makedirs(path, exist_ok=True)


@contextlib.contextmanager
def writer(path: str) -> Iterator[IO[bytes]]:
    """A binary file whose content becomes ``path`` when the block ends without an exception, whole or not at all.

    Local: a hidden temporary file beside the target, renamed over it. Store: a local temporary file uploaded in
    one ``put`` at the end (see the module docstring); a failing block uploads nothing."""
    path = normalize(path)
    if not is_remote(path):
        folder, name = os.path.split(path)
        os.makedirs(folder or ".", exist_ok=True)
        tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "wb") as fh:
                yield fh
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        return
    fs, p = filesystem(path)
    with tempfile.NamedTemporaryFile(prefix="winnow-upload-", suffix=".tmp") as fh:
        yield fh
        fh.flush()
        _call(path, "writing", lambda: fs.put_file(fh.name, p))


def upload(local: str, path: str) -> None:
    """Copy the local file ``local`` to ``path`` (whole or not at all, as ``writer``)."""
    path = normalize(path)
    if not is_remote(path):
        with writer(path) as out, open(local, "rb") as src:
            shutil.copyfileobj(src, out, _BUFFER)
        return
    fs, p = filesystem(path)
    _call(path, "uploading to", lambda: fs.put_file(local, p))


def upload_tree(local: str, url: str) -> int:
    """Upload the files under the local folder ``local`` to the same places under ``url``, but those already there
    with the same size and anything hidden (a name starting with ``.``: temporaries, state); the number uploaded."""
    there = find(url)
    count = 0
    for root, dirs, files in os.walk(local):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.startswith("."):
                continue
            path = os.path.join(root, name)
            target = join(url, *os.path.relpath(path, local).split(os.sep))
            if there.get(normalize(target)) != os.path.getsize(path):
                upload(path, target)
                count += 1
    return count


def write_bytes(path: str, data: bytes) -> None:
    path = normalize(path)
    if not is_remote(path):
        with writer(path) as fh:
            fh.write(data)
        return
    fs, p = filesystem(path)
    _call(path, "writing", lambda: fs.pipe_file(p, data))  # one PUT: the object appears whole or not at all


def write_json(path: str, data: Any) -> None:
    write_bytes(path, (json.dumps(data, indent=2, default=str) + "\n").encode())


def write_parquet(table: pa.Table, path: str, **options: Any) -> None:
    """``pq.write_table`` to ``path``, whole or not at all."""
    with writer(path) as fh:
        pq.write_table(table, fh, **options)


def remove(path: str) -> None:
    """Remove one file or object; nothing when it is not there."""
    path = normalize(path)
    if not is_remote(path):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        return
    fs, p = filesystem(path)

    def rm() -> None:
        with contextlib.suppress(FileNotFoundError):
            fs.rm_file(p)

    _call(path, "removing", rm)


def remove_tree(path: str) -> None:
    """Remove a folder (a key prefix) and everything in it; nothing when it is not there."""
    path = normalize(path)
    if not is_remote(path):
        shutil.rmtree(path, ignore_errors=True)
        return
    fs, p = filesystem(path)

    def rm() -> None:
        with contextlib.suppress(FileNotFoundError):
            fs.rm(p, recursive=True)

    _call(path, "removing", rm)
