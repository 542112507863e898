"""The crawl journal: what was queued and what finished, so a crawl resumes after any stop.

Scrapy's JOBDIR keeps the scheduler's disk queues, but writes their state (``active.json``) only
when the spider closes: after a SIGKILL or a power cut the queue is lost, and requests in flight
are lost even after a clean stop. winnow appends one JSON line per event instead, flushed at once:

- ``{"e": "q", "u": url, "d": depth, "p": priority, "r": referrer}`` when a URL enters the frontier;
- ``{"e": "f", "u": url, "o": outcome}`` when it is finished: its records are flushed to a WARC
  file (``page``), or it was skipped or failed for good (the outcome says why).

Resuming replays the file: URLs queued and never finished are queued again (the in-flight ones
among them), every queued URL counts as seen, so nothing is fetched twice except what was in
flight. A torn last line (killed mid-write) is ignored.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit

log = logging.getLogger(__name__)


@dataclass
class Pending:
    url: str
    depth: int
    priority: int
    referrer: str | None


class Journal:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.queued: dict[str, Pending] = {}
        self.finished: set[str] = set()
        self.page_hosts: set[str] = set()  # host[:port] of every URL finished as a page, in every session
        self.pages = 0  # URLs finished as a page (written to a WARC file), in every session
        self._fh: IO[str] | None = None

    def load(self) -> None:
        if not self.path.exists():
            return
        with self.path.open(encoding="utf-8", errors="replace") as fh:
            for number, line in enumerate(fh, 1):
                try:
                    event = json.loads(line)
                except json.JSONDecodeError:
                    log.warning("%s:%d: torn journal line ignored", self.path, number)
                    continue
                if event.get("e") == "q":
                    self.queued.setdefault(event["u"], Pending(event["u"], event.get("d", 0), event.get("p", 0),
                                                               event.get("r")))
                elif event.get("e") == "f" and event["u"] not in self.finished:
                    self.finished.add(event["u"])
                    if event.get("o") == "page":
                        self.pages += 1
                        self.page_hosts.add(urlsplit(event["u"]).netloc)

    def pending(self) -> list[Pending]:
        """Queued and not finished, in the order they were queued."""
        return [p for url, p in self.queued.items() if url not in self.finished]

    def open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        torn = False
        if self.path.exists() and self.path.stat().st_size:
            with self.path.open("rb") as fh:
                fh.seek(-1, 2)
                torn = fh.read(1) != b"\n"
        self._fh = self.path.open("a", encoding="utf-8")
        if torn:
            # End the torn line first: appended to it, this session's first event would be torn too (and lost on
            # the next resume, e.g. a page's "finished", so that page would be fetched a second time).
            self._fh.write("\n")
            self._fh.flush()

    def close(self) -> None:
        if self._fh:
            self._fh.close()
            self._fh = None

    def _append(self, event: dict) -> None:
        if self._fh is None:
            self.open()
        assert self._fh is not None
        self._fh.write(json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n")
        # Flushed to the OS at once: a killed process loses nothing it has journaled.
        self._fh.flush()

    def queue(self, url: str, depth: int, priority: int, referrer: str | None) -> bool:
        """Record a new URL; False when it was queued before (this run or an earlier one)."""
        if url in self.queued:
            return False
        self.queued[url] = Pending(url, depth, priority, referrer)
        self._append({"e": "q", "u": url, "d": depth, "p": priority, "r": referrer})
        return True

    def finish(self, url: str, outcome: str) -> None:
        if url in self.finished:
            return
        self.finished.add(url)
        if outcome == "page":
            self.pages += 1
            self.page_hosts.add(urlsplit(url).netloc)
        self._append({"e": "f", "u": url, "o": outcome})
