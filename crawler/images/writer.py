"""``IMAGES/images/*.parquet``: shards of the ``image`` kind (pipelines/records.py ``IMAGE_SCHEMA``).

A shard closes every ``max_rows`` rows or ``max_bytes`` of image bytes, whichever comes first. It is written as it
fills, one Parquet row group per ``GROUP_ROWS`` rows (or ``GROUP_BYTES``), under a hidden temporary name, and renamed
into place when it closes (as pipelines/writer.py does): a kill never leaves a half-written file that looks complete,
and the shards present are exactly the rows stored. Memory holds one row group's images, not a shard's: with whole
1,000-row shards assembled in memory (the first version), RSS over 10,000 48-KB JPEGs sat between 320 and 460 MB
(the rows, their Arrow copy and Parquet's buffers, about 2.6 times the shard's bytes); written by row group, 249 MB at
a tenth of the run, 254 MB at its end, 256 MB at most (one loopback host, 2 cores). zstd for every column but the
image bytes (see ``COMPRESSION``).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipelines.records import IMAGE_SCHEMA, OUTPUT_DIRS, ImageRecord, to_table

SHARD_PREFIX = "part-"
TMP_PREFIX = ".tmp-"
DEFAULT_MAX_ROWS = 1000
DEFAULT_MAX_BYTES = 64 * 2**20
GROUP_ROWS = 100
GROUP_BYTES = 8 * 2**20


def _leaf_paths(schema: pa.Schema) -> list[str]:
    """Parquet column paths (a list column is ``<name>.list.element``): per-column options are keyed by them."""
    return [f"{f.name}.list.element" if pa.types.is_list(f.type) else f.name for f in schema]


# Not the image bytes: each image is distinct, and a dictionary of them is only built to be abandoned.
DICTIONARY_COLUMNS = [path for path in _leaf_paths(IMAGE_SCHEMA) if path != "image"]
# Nor compressed: JPEG/PNG/WEBP are compressed already. zstd on the image column of a 1,000-row shard of 48 KB JPEGs
# took 0.8 s (on the reactor thread, stalling every download) and saved nothing (45 MB either way); stored: 0.03 s.
COMPRESSION = {path: "none" if path == "image" else "zstd" for path in _leaf_paths(IMAGE_SCHEMA)}


def shard_dir(images_dir: Path) -> Path:
    return images_dir / OUTPUT_DIRS["image"]


def stored_ids(images_dir: Path) -> set[str]:
    """The ids in the shards already in place (a resumed fetch's); stray temporary files are removed."""
    folder = shard_dir(images_dir)
    ids: set[str] = set()
    if not folder.is_dir():
        return ids
    for tmp in folder.glob(f"{TMP_PREFIX}*"):
        tmp.unlink()
    for shard in sorted(folder.glob(f"{SHARD_PREFIX}*.parquet")):
        # ParquetFile, not read_table: that builds a dataset (and imports pyarrow.dataset: 0.4 s at the end of a
        # fetch, py-spy) to read one column of one file.
        ids.update(pq.ParquetFile(shard).read(columns=["id"]).column("id").to_pylist())
    return ids


class ShardWriter:
    def __init__(self, images_dir: Path, max_rows: int = DEFAULT_MAX_ROWS, max_bytes: int = DEFAULT_MAX_BYTES,
                 on_commit: Callable[[str, list[str]], None] | None = None) -> None:
        self.folder = shard_dir(images_dir)
        self.max_rows = max_rows
        self.max_bytes = max_bytes
        self.on_commit = on_commit  # called with (shard name, ids) after the rename
        self.session = time.strftime("%Y%m%dT%H%M%S") + f"-{os.getpid()}"
        self.shards = 0
        self.rows = 0
        self._group: list[ImageRecord] = []
        self._group_bytes = 0
        self._file: pq.ParquetWriter | None = None
        self._ids: list[str] = []  # of the open shard
        self._shard_bytes = 0

    def _name(self) -> str:
        return f"{SHARD_PREFIX}{self.session}-{self.shards:05d}.parquet"

    def add(self, record: ImageRecord) -> None:
        size = len(record.image or b"")
        self._group.append(record)
        self._ids.append(record.id)
        self._group_bytes += size
        self._shard_bytes += size
        if len(self._ids) >= self.max_rows or self._shard_bytes >= self.max_bytes:
            self.flush()
        elif len(self._group) >= GROUP_ROWS or self._group_bytes >= GROUP_BYTES:
            self._write_group()

    def _write_group(self) -> None:
        if not self._group:
            return
        if self._file is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._file = pq.ParquetWriter(self.folder / f"{TMP_PREFIX}{self._name()}", IMAGE_SCHEMA,
                                          compression=COMPRESSION, use_dictionary=DICTIONARY_COLUMNS)
        self._file.write_table(to_table(self._group, "image"))
        self._group = []
        self._group_bytes = 0

    def flush(self) -> None:
        """Close the open shard and rename it into place. Runs on the reactor thread: a 1,000-row shard of 48 KB
        JPEGs written in one go took 0.16 to 0.23 s once Arrow's memory pool was warm (0.8 s the first time), about 2%
        of a 130 images/s fetch; by row group the cost is spread over the shard."""
        self._write_group()
        if self._file is None:
            return
        self._file.close()
        self._file = None
        name = self._name()
        tmp = self.folder / f"{TMP_PREFIX}{name}"
        with tmp.open("rb") as written:  # on disk before it is renamed: the rename is the commit
            os.fsync(written.fileno())
        os.replace(tmp, self.folder / name)
        ids, self._ids, self._shard_bytes = self._ids, [], 0
        self.shards += 1
        self.rows += len(ids)
        if self.on_commit is not None:
            self.on_commit(name, ids)
