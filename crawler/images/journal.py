"""The fetch journal: what is done, so that ``--resume`` continues after a kill and never stores an id twice.

``IMAGES/.fetch/journal.jsonl`` (worker K of ``--workers N`` writes ``journal-K.jsonl``: one writer per file, and
every reader takes them all), one JSON object a line, appended and flushed as it happens:

- ``{"id": ..., "skip": reason}``: a row not stored (its reason is counted in fetch-stats.json); final, unless the
  reason may pass on another try (``TEMPORARY``) and ``--resume --retry-failed`` fetches the row again: then the
  row's last line, or its shard, is what counts;
- ``{"duplicate": id}``: a second row with an id already handled, not stored (counted as ``duplicate_id``);
- ``{"shard": name, "rows": n}``: a shard renamed into place (informational).

The stored ids are not taken from the journal but from the shards themselves (their ``id`` column): a shard is
renamed into place whole (pipelines' shard writer does the same), so a kill between the rename and the journal line
cannot lose or double a row. A line cut by a kill is ignored.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

STATE_DIR = Path(".fetch")
JOURNAL = STATE_DIR / "journal.jsonl"
DUPLICATE = "duplicate_id"
# Reasons another try may not repeat: a timeout, a connection error, an unreachable robots.txt, a host parked after
# errors, 408 Request Timeout, 429 Too Many Requests and 5xx (RFC 9110 §15.6: the server's, not the request's, fault).
TEMPORARY = re.compile(r"timeout|connection_error|robots_unreachable|host_parked|http_(408|429|5\d\d)")


def is_temporary(reason: str) -> bool:
    return TEMPORARY.fullmatch(reason) is not None


def journal_paths(images_dir: Path) -> list[Path]:
    """Every journal file of a fetch folder: the one-process fetch's and each worker's."""
    return sorted((images_dir / STATE_DIR).glob("journal*.jsonl"))


def entries(images_dir: Path) -> Iterator[dict[str, Any]]:
    """The entries of every journal file of ``images_dir``; a line cut by a kill is left out."""
    for path in journal_paths(images_dir):
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                try:
                    entry = json.loads(line)
                except ValueError:  # the last line of a killed session
                    continue
                if isinstance(entry, dict):
                    yield entry


class Journal:
    def __init__(self, images_dir: Path, worker: int | None = None) -> None:
        self.images_dir = images_dir
        self.path = images_dir / (JOURNAL if worker is None else STATE_DIR / f"journal-{worker}.jsonl")
        self.reasons: dict[str, str] = {}  # id -> its last reason, over every session
        self.duplicates = 0
        self._file: IO[str] | None = None

    def load(self) -> None:
        """What every session wrote, in every journal file of the folder (workers' included)."""
        for entry in entries(self.images_dir):
            if "skip" in entry:
                self.reasons[entry["id"]] = entry["skip"]
            elif "duplicate" in entry:
                self.duplicates += 1

    @property
    def skipped_ids(self) -> set[str]:
        return set(self.reasons)

    def final_ids(self) -> set[str]:
        """Ids whose reason another try would not change (not ``TEMPORARY``)."""
        return {row_id for row_id, reason in self.reasons.items() if not is_temporary(reason)}

    def not_stored(self, stored: set[str] | frozenset[str] = frozenset()) -> Counter[str]:
        """Rows per reason, leaving out ids stored since (a row fetched again by ``--retry-failed``)."""
        counts = Counter(reason for row_id, reason in self.reasons.items() if row_id not in stored)
        if self.duplicates:
            counts[DUPLICATE] += self.duplicates
        return counts

    def open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = self.path.open("a", encoding="utf-8")

    def skip(self, row_id: str, reason: str) -> None:
        self.reasons[row_id] = reason
        self._write({"id": row_id, "skip": reason})

    def duplicate(self, row_id: str) -> None:
        self.duplicates += 1
        self._write({"duplicate": row_id})

    def shard(self, name: str, rows: int) -> None:
        self._write({"shard": name, "rows": rows}, sync=True)

    def _write(self, entry: dict, sync: bool = False) -> None:
        if self._file is None:
            raise RuntimeError("journal not open")
        self._file.write(json.dumps(entry, ensure_ascii=False) + "\n")
        self._file.flush()
        if sync:
            os.fsync(self._file.fileno())

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
