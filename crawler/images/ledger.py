"""Which rows wait for which image URL, and what becomes of each row: stored (a shard row) or counted by reason.

An image URL referenced by several rows (a logo on every page, the same photo in ``image_text`` and
``interleaved``) is fetched once: the first row's reference starts the fetch, later ones wait for it, and rows that
come after it has finished take its outcome. The fetch plan's first pass counted the references of every URL
(``refs``, only URLs with two or more); an outcome is kept until its last reference has been served, on disk
(``IMAGES/.fetch/shared/``) when it holds image bytes, so memory does not grow with the number of shared images.
An image fetched in a session that was killed is fetched again by ``--resume`` for the rows that were not committed.
"""

from __future__ import annotations

import hashlib
import pickle
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from crawler.frontier.seeds import seed_problem
from crawler.images.check import CheckedImage
from crawler.images.journal import Journal
from crawler.images.sources import ImageRef
from crawler.images.writer import ShardWriter
from pipelines.records import ImageRecord

SHARED_DIR = Path(".fetch") / "shared"


@dataclass(slots=True)
class Fetched:
    """An image that may be stored, with what its response said."""

    image: CheckedImage
    fetched_url: str
    http_status: int
    content_type: str | None
    fetched_at: datetime
    signals: list[str] = field(default_factory=list)


@dataclass(slots=True)
class NotStored:
    reason: str


Outcome = Fetched | NotStored


def prefetch_reason(ref: ImageRef) -> str | None:
    """Why a row is not fetched at all, from the row alone; None when its image is to be fetched."""
    if ref.dropped_by is not None:
        return "dropped_in_run"  # a tombstone of an annotate-mode run: the run itself dropped the row
    if ref.training_allowed is False:
        return "page_training_disallowed"
    if not ref.image_url or seed_problem(ref.image_url) is not None:
        return "bad_url"
    return None


class Ledger:
    def __init__(self, images_dir: Path, journal: Journal, writer: ShardWriter, done: set[str],
                 refs: dict[str, int], on_row: Callable[[], None] | None = None,
                 shared_dir: Path | None = None) -> None:
        self.journal = journal
        self.writer = writer
        self.done = done  # ids stored or counted by earlier sessions (--resume): not handled again
        self.seen: set[str] = set()  # ids handled by this session
        self.refs = refs  # url -> references not yet served, for URLs referenced more than once
        self.on_row = on_row
        # A worker of --workers N keeps its own folder under SHARED_DIR: a URL belongs to one worker (its host does).
        self.shared_dir = shared_dir or images_dir / SHARED_DIR
        shutil.rmtree(self.shared_dir, ignore_errors=True)  # a killed session's: its counts no longer hold
        self._waiting: dict[str, list[ImageRef]] = {}
        self._kept: dict[str, str | Path] = {}  # url -> reason, or the file holding its Fetched
        self.fetches = 0
        self.shared_hits = 0

    @property
    def in_flight(self) -> int:
        return len(self._waiting)

    def admit(self, ref: ImageRef) -> str | None:
        """Take one row; the URL to fetch when the row starts a fetch, else None (handled now, or waiting)."""
        if ref.id in self.done:  # stored or counted by an earlier session
            return None
        if ref.id in self.seen:  # the same id twice in the source: one row of images per id
            self.journal.duplicate(ref.id)
            if self.on_row:
                self.on_row()
            return None
        self.seen.add(ref.id)
        reason = prefetch_reason(ref)
        if reason is not None:
            self._skip(ref, reason)
            return None
        url = ref.image_url
        assert url is not None
        waiting = self._waiting.get(url)
        if waiting is not None:
            waiting.append(ref)
            return None
        kept = self._kept.get(url)
        if kept is not None:
            self.shared_hits += 1
            outcome = NotStored(kept) if isinstance(kept, str) else pickle.loads(kept.read_bytes())
            self._serve(ref, outcome)
            self._release(url)
            return None
        self._waiting[url] = [ref]
        self.fetches += 1
        return url

    def resolve(self, url: str, outcome: Outcome) -> None:
        """The fetch of ``url`` ended: every row waiting for it is stored or counted."""
        for ref in self._waiting.pop(url, []):
            self._serve(ref, outcome)
            self._release(url, outcome)

    def _release(self, url: str, outcome: Outcome | None = None) -> None:
        """One reference of ``url`` served: keep its outcome while more are to come, else forget it."""
        left = self.refs.get(url)
        if left is None:
            return
        left -= 1
        if left <= 0:
            del self.refs[url]
            kept = self._kept.pop(url, None)
            if isinstance(kept, Path):
                kept.unlink(missing_ok=True)
            return
        self.refs[url] = left
        if outcome is not None and url not in self._kept:
            if isinstance(outcome, NotStored):
                self._kept[url] = outcome.reason
            else:
                self.shared_dir.mkdir(parents=True, exist_ok=True)
                path = self.shared_dir / hashlib.sha1(url.encode("utf-8", "surrogatepass")).hexdigest()
                path.write_bytes(pickle.dumps(outcome))
                self._kept[url] = path

    def _serve(self, ref: ImageRef, outcome: Outcome) -> None:
        if isinstance(outcome, NotStored):
            self._skip(ref, outcome.reason)
            return
        image = outcome.image
        page = ref.training_allowed  # None: the page's verdict is unknown (a WARC from elsewhere)
        self.writer.add(ImageRecord(
            id=ref.id, url=ref.page_url, source=ref.source, fetched_at=outcome.fetched_at,
            training_allowed=True if page else None,
            policy_signals=[*ref.policy_signals, *(f"image:{s}" for s in outcome.signals)],
            output=ref.output, doc_id=ref.doc_id, segment=ref.segment, image_url=ref.image_url,
            fetched_url=outcome.fetched_url, alt=ref.alt, caption=ref.caption, text=ref.text,
            text_source=ref.text_source, http_status=outcome.http_status,
            content_type=outcome.content_type, image_format=image.image_format, width=image.width,
            height=image.height, original_width=image.original_width, original_height=image.original_height,
            image=image.data, sha256=image.sha256, phash=image.phash, dhash=image.dhash))
        if self.on_row:
            self.on_row()

    def _skip(self, ref: ImageRef, reason: str) -> None:
        self.journal.skip(ref.id, reason)
        if self.on_row:
            self.on_row()

    def close(self) -> None:
        shutil.rmtree(self.shared_dir, ignore_errors=True)
