"""The fetch journal: what is done, so that ``--resume`` continues after a kill and never stores an id twice.

``IMAGES/.fetch/journal.jsonl``, one JSON object a line, appended and flushed as it happens:

- ``{"id": ..., "skip": reason}``: a row not stored, final (its reason is counted in fetch-stats.json);
- ``{"duplicate": id}``: a second row with an id already handled, not stored (counted as ``duplicate_id``);
- ``{"shard": name, "rows": n}``: a shard renamed into place (informational).

The stored ids are not taken from the journal but from the shards themselves (their ``id`` column): a shard is
renamed into place whole (pipelines' shard writer does the same), so a kill between the rename and the journal line
cannot lose or double a row. A line cut by a kill is ignored.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import IO

JOURNAL = Path(".fetch") / "journal.jsonl"
DUPLICATE = "duplicate_id"


class Journal:
    def __init__(self, images_dir: Path) -> None:
        self.path = images_dir / JOURNAL
        self.skipped: Counter[str] = Counter()  # reason -> rows, over every session
        self.skipped_ids: set[str] = set()
        self._file: IO[str] | None = None

    def load(self) -> None:
        if not self.path.exists():
            return
        with self.path.open(encoding="utf-8") as lines:
            for line in lines:
                try:
                    entry = json.loads(line)
                except ValueError:  # the last line of a killed session
                    continue
                if "skip" in entry and entry["id"] not in self.skipped_ids:
                    self.skipped_ids.add(entry["id"])
                    self.skipped[entry["skip"]] += 1
                elif "duplicate" in entry:
                    self.skipped[DUPLICATE] += 1

    def open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = self.path.open("a", encoding="utf-8")

    def skip(self, row_id: str, reason: str) -> None:
        self.skipped_ids.add(row_id)
        self.skipped[reason] += 1
        self._write({"id": row_id, "skip": reason})

    def duplicate(self, row_id: str) -> None:
        self.skipped[DUPLICATE] += 1
        self._write({"duplicate": row_id})

    def shard(self, name: str, rows: int) -> None:
        self._write({"shard": name, "rows": rows})
        if self._file is not None:
            os.fsync(self._file.fileno())

    def _write(self, entry: dict) -> None:
        if self._file is None:
            raise RuntimeError("journal not open")
        self._file.write(json.dumps(entry, ensure_ascii=False) + "\n")
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
