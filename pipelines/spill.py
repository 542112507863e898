"""Tables the local runner must hold for a while, in memory up to a budget and on local disk past it (issue 28).

The local runner (``--local``) used to hold a wave's records in memory wherever a Stage needs more than one batch at
a time: a lane waiting for its turn (``_LaneFeed``), a materialised dataset (MinHash dedup's passes), and
``map_groups`` (the host Stages and dedup's buckets group a whole wave). So its peak memory grew with the wave (up to
``wave_files`` input files, whatever their size): 3.0 GB for the default chain on bench/e2e.py's 8 files, 4.25 GB
at 3x (docs/benchmarks.md). Past a budget these tables now go to Arrow IPC files in a private temporary folder and
are read back one table at a time, as Ray's object store spills to disk (Spark and Ray: an external hash partition
per group-by), so a wave costs disk, not memory.

- ``SpillList``: append tables, read them back in order as often as wanted (``materialize``);
- ``SpillQueue``: a FIFO between threads (``_LaneFeed``'s lanes);
- ``partitions``: rows split by a hash of a key column into parts of bounded size, each key whole in one part
  (``map_groups``).

Budgets: ``WINNOW_SPILL_MB`` (16 MiB by default) per list or queue in memory before it writes to disk, and the size
of a ``map_groups`` part. Arrow IPC, uncompressed: the files live only while the wave runs, and writing and reading
them is a memory copy for the kernel (about 1-2 GB/s here), cheaper than compressing. The folder is
``WINNOW_SPILL_DIR`` (``~/.cache/winnow/spill`` by default, on disk: ``/tmp`` is memory where it is a tmpfs), one
``winnow-spill-<pid>-*`` folder per process,
removed when its list is closed or collected, and at start for processes that no longer run (a kill -9).
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import os
import shutil
import tempfile
import threading
import weakref
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipelines.settings import env as env_setting

_PREFIX = "winnow-spill-"
_counter = itertools.count()
_swept = False


def budget_bytes() -> int:
    return int(float(env_setting("WINNOW_SPILL_MB")) * 2**20)


def _root() -> Path:
    # Not the system's temporary folder: on Debian 13 and others /tmp is a tmpfs, in memory, which would defeat it.
    cache = env_setting("WINNOW_CACHE_DIR") or Path.home() / ".cache" / "winnow"
    return Path(env_setting("WINNOW_SPILL_DIR") or Path(cache) / "spill")


def _sweep(root: Path) -> None:
    """Remove the spill folders of processes that no longer run (a run killed with -9 leaves its folder)."""
    global _swept
    if _swept:
        return
    _swept = True
    with contextlib.suppress(OSError):
        for folder in root.glob(f"{_PREFIX}*"):
            pid = folder.name[len(_PREFIX):].split("-", 1)[0]
            if pid.isdigit() and not _alive(int(pid)):
                shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def new_folder() -> Path:
    root = _root()
    root.mkdir(parents=True, exist_ok=True)
    _sweep(root)
    return Path(tempfile.mkdtemp(prefix=f"{_PREFIX}{os.getpid()}-", dir=root))


def write_table(table: pa.Table, path: Path) -> None:
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)


def read_table(path: Path) -> pa.Table:
    # Read into memory, not memory-mapped: a mapped file's pages would stay resident (and counted) until the whole
    # table is released, which is what spilling is for to avoid.
    with pa.OSFile(str(path), "rb") as source:
        return pa.ipc.open_file(source).read_all()


class _Folder:
    """A spill folder made on first use and removed when its owner is closed or collected."""

    def __init__(self) -> None:
        self.path: Path | None = None
        self._finalizer: weakref.finalize | None = None

    def file(self) -> Path:
        if self.path is None:
            self.path = new_folder()
            self._finalizer = weakref.finalize(self, shutil.rmtree, str(self.path), True)
        return self.path / f"{next(_counter):08d}.arrow"

    def close(self) -> None:
        if self._finalizer is not None:
            self._finalizer()


class SpillList:
    """An append-only list of tables, in memory until ``budget`` bytes, then on disk; iterable any number of times,
    in the order appended."""

    def __init__(self, tables: Iterable[pa.Table] = (), budget: int | None = None) -> None:
        self.budget = budget_bytes() if budget is None else budget
        self._items: list[pa.Table | Path] = []
        self._held = 0
        self._folder = _Folder()
        self.nbytes = 0  # of every table appended
        self.num_rows = 0
        for table in tables:
            self.append(table)

    def append(self, table: pa.Table) -> None:
        size = table.nbytes
        self.nbytes += size
        self.num_rows += table.num_rows
        if self._held + size <= self.budget:
            self._items.append(table)
            self._held += size
            return
        path = self._folder.file()
        write_table(table, path)
        self._items.append(path)

    @property
    def spilled(self) -> int:
        return sum(1 for item in self._items if isinstance(item, Path))

    def __iter__(self) -> Iterator[pa.Table]:
        for item in self._items:
            yield read_table(item) if isinstance(item, Path) else item

    def __len__(self) -> int:
        return len(self._items)

    def close(self) -> None:
        self._items = []
        self._folder.close()


class SpillQueue:
    """A FIFO of tables from one thread to another: ``put`` never blocks; past ``budget`` bytes waiting in memory,
    tables wait on disk instead (a lane read only after the others holds its whole wave)."""

    def __init__(self, budget: int | None = None) -> None:
        self.budget = budget_bytes() if budget is None else budget
        self._items: collections.deque[object] = collections.deque()
        self._held = 0
        self._ready = threading.Condition()
        self._folder = _Folder()
        self._closed = False

    def put(self, item: object) -> None:
        """A table (held or spilled by size) or a marker object (held); nothing once the reader has closed it."""
        if self._closed:
            return
        size = item.nbytes if isinstance(item, pa.Table) else 0
        spill = isinstance(item, pa.Table) and self._held + size > self.budget
        if spill:
            path = self._folder.file()
            try:
                write_table(item, path)  # type: ignore[arg-type]
            except OSError:
                if self._closed:  # the reader closed it meanwhile (and its folder went)
                    return
                raise
            item = path
        with self._ready:
            if not spill:
                self._held += size
            self._items.append((item, 0 if spill else size))
            self._ready.notify()

    def get(self) -> object:
        with self._ready:
            while not self._items:
                self._ready.wait()
            item, size = self._items.popleft()  # type: ignore[misc]
            self._held -= size
        if isinstance(item, Path):
            table = read_table(item)
            item.unlink(missing_ok=True)
            return table
        return item

    def close(self) -> None:
        with self._ready:
            self._closed = True
            self._items.clear()
            self._held = 0
        self._folder.close()


def partition_of(keys: pa.Array | pa.ChunkedArray, parts: int) -> list[int]:
    """A stable part number in ``range(parts)`` per key (CRC-32 of its text: the same in every process and run, so
    output order does not change between runs as Python's salted ``hash`` would make it)."""
    return [zlib.crc32(str(k).encode()) % parts for k in keys.to_pylist()]


def partitions(tables: SpillList, key: str, part_bytes: int | None = None) -> Iterator[pa.Table]:
    """The rows of ``tables`` in parts of about ``part_bytes`` (the spill budget by default), every value of ``key``
    whole in one part; one part (all rows, in order) when they fit. Each part is built only when reached."""
    part_bytes = budget_bytes() if part_bytes is None else part_bytes
    if tables.nbytes <= part_bytes:
        kept = [t for t in tables if t.num_rows]
        if kept:
            yield pa.concat_tables(kept)
        return
    parts = -(-tables.nbytes // part_bytes)
    lists = [SpillList(budget=part_bytes // parts) for _ in range(parts)]
    try:
        for table in tables:
            if not table.num_rows:
                continue
            ids = partition_of(table.column(key), parts)
            # one stable sort by part, then a slice per part: one copy of the table, not one scan per part
            order = pc.sort_indices(pa.array(ids, pa.int32()))
            grouped = table.take(order)
            start = 0
            for i, count in enumerate(np.bincount(ids, minlength=parts)):
                if count:
                    lists[i].append(grouped.slice(start, int(count)))
                start += int(count)
        tables.close()  # read once: its files can go
        for part in lists:
            kept = list(part)
            if kept:
                yield pa.concat_tables(kept)
            part.close()
    finally:
        for part in lists:
            part.close()
