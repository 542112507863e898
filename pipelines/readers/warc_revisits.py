"""Revisit resolution (WARC 1.1 §6.7): finding, in the same file, the original response a revisit names.

This module indexes a file's responses and re-reads an original; ``warc._WarcFile._revisit`` applies
the rules below. The original is found by WARC-Refers-To (its record id), WARC-Refers-To-Target-URI +
WARC-Refers-To-Date, or WARC-Payload-Digest, and its payload is re-read at its offset (only offsets
are kept in memory, never HTML). The resulting Page has the revisit's own id, URL and date. The
revisit's HTTP headers decide status and type when it has them, except a ``304 Not Modified`` (the
server-not-modified profile, §6.7.3), which defers to the original's. No original ->
``read.revisit_unresolved``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, BinaryIO

from warcio.archiveiterator import ArchiveIterator

from pipelines.readers.warc_http import _Http, _http, decode_payload


def parse_warc_date(value: str | None) -> datetime | None:
    """WARC-Date (W3C-DTF, UTC; fractional seconds allowed since WARC 1.1) -> aware UTC datetime."""
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


@dataclass
class _Capture:
    """An original response re-read for a revisit."""

    record_id: str | None
    http: _Http | None
    payload: bytes


class _Originals:
    """Where this file's earlier responses are, so that revisits can borrow their payloads.

    Only keys and offsets are kept; the payload is re-read from disk through a second handle, so
    memory stays flat however many revisits a file holds.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._fh: BinaryIO | None = None
        self.by_id: dict[str, int] = {}
        self.by_uri_date: dict[tuple[str, datetime], int] = {}
        self.by_digest: dict[str, int] = {}

    def add(self, record: Any, offset: int) -> None:
        headers = record.rec_headers
        if record_id := headers.get_header("WARC-Record-ID"):
            self.by_id[record_id.strip()] = offset
        uri, date = headers.get_header("WARC-Target-URI"), parse_warc_date(headers.get_header("WARC-Date"))
        if uri and date:
            self.by_uri_date[(uri, date)] = offset
        if digest := _digest(headers.get_header("WARC-Payload-Digest")):
            self.by_digest[digest] = offset

    def find(self, revisit: Any) -> int | None:
        headers = revisit.rec_headers
        refers_to = (headers.get_header("WARC-Refers-To") or "").strip()
        if refers_to in self.by_id:
            return self.by_id[refers_to]
        uri = headers.get_header("WARC-Refers-To-Target-URI")
        date = parse_warc_date(headers.get_header("WARC-Refers-To-Date"))
        if uri and date and (uri, date) in self.by_uri_date:
            return self.by_uri_date[(uri, date)]
        return self.by_digest.get(_digest(headers.get_header("WARC-Payload-Digest")) or "")

    def read(self, offset: int) -> _Capture:
        if self._fh is None:
            from pipelines import storage

            self._fh = storage.open_input(self.path)  # kept open across revisits, closed in close()
        self._fh.seek(offset)
        record = next(iter(ArchiveIterator(self._fh)))
        http = _http(record)
        # The same decoding as the response itself (warc_http.decode_payload: warcio's br decoding breaks with
        # brotli 1.2); UndecodablePayload makes the revisit unresolved, naming why.
        payload = (decode_payload(record.raw_stream.read(), http) if http is not None
                   else record.content_stream().read())
        return _Capture(record.rec_headers.get_header("WARC-Record-ID"), http, payload)

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()


def _digest(value: str | None) -> str | None:
    # "sha1:ABC" and "SHA1:ABC" name the same digest; the value itself is compared as written.
    if not value or ":" not in value:
        return value.strip() if value else None
    algorithm, _, encoded = value.strip().partition(":")
    return f"{algorithm.lower()}:{encoded}"


def _refers_to(record: Any) -> str:
    names = ("WARC-Refers-To", "WARC-Refers-To-Target-URI", "WARC-Refers-To-Date", "WARC-Payload-Digest")
    parts = [value for name in names if (value := record.rec_headers.get_header(name))]
    return f"no original in this file for {' '.join(parts)}" if parts else "revisit names no original"
