"""A crawl whose ``--output`` is in an object store (``winnow crawl --output s3://bucket/crawl/``).

WARC files are written as for a local crawl, in a local staging folder: appended page by page, flushed, cut back
to their last whole page after a kill (crawler/warc/writer.py), none of which an object store can do to an object.
Each file is uploaded once it is finished (rotated at ``WINNOW_WARC_MAX_BYTES``, or closed at the end), in one
``put`` through ``pipelines.storage`` (whole or not at all: a reader of the bucket never sees half a WARC), by one
background thread so that the crawl does not wait on the network; the local copy is removed once the upload
succeeded. A file whose upload failed stays in the staging folder, is counted (``winnow/warc/upload_failed``) and
is uploaded again by the next ``--resume``, which also uploads what a killed crawl left finished or repaired.
The crawl's state (journal, log) stays in the staging folder; ``crawl-stats.json`` goes to the bucket at the end.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from pipelines import storage

log = logging.getLogger(__name__)

UPLOADED = "uploaded.txt"  # in the crawl's state folder: names of the files already in the bucket


class WarcUploader:
    def __init__(self, destination: str, state_dir: Path) -> None:
        self.destination = storage.normalize(destination)
        self.record = state_dir / UPLOADED
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="warc-upload")
        self._futures: list[Future] = []
        self.uploaded = 0
        self.failed: list[str] = []

    def names(self) -> set[str]:
        """Files uploaded by this crawl, in this session and the earlier ones."""
        try:
            return {line.strip() for line in self.record.read_text().splitlines() if line.strip()}
        except OSError:
            return set()

    def submit(self, path: Path) -> None:
        self._futures.append(self._pool.submit(self._upload, path))

    def _upload(self, path: Path) -> None:
        target = storage.join(self.destination, path.name)
        try:
            storage.upload(str(path), target)
        except Exception as exc:  # kept for the next --resume; counted, never lost
            log.error("could not upload %s to %s: %s (kept in %s; --resume uploads it again)", path.name,
                      storage.redact(target), exc, path.parent)
            self.failed.append(path.name)
            return
        self.record.parent.mkdir(parents=True, exist_ok=True)
        with self.record.open("a", encoding="utf-8") as fh:  # one writer thread: appends do not interleave
            fh.write(path.name + "\n")
        path.unlink()
        self.uploaded += 1

    def close(self) -> None:
        """Wait for every upload submitted."""
        for future in self._futures:
            future.result()
        self._pool.shutdown()
