"""Write small WARC files with warcio for tests: responses, requests, revisits, redirects,
non-HTML payloads, chosen charsets, and damaged copies (truncated, bit-flipped).

Every ``add_*`` method returns the record's offset in the file as written (the compressed offset
for gzip), which is what ``Page.source`` names, so tests can assert exact sources.
"""

from __future__ import annotations

import gzip
import io
import uuid
from pathlib import Path
from urllib.parse import urlsplit

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

_REASONS = {200: "OK", 301: "Moved Permanently", 302: "Found", 304: "Not Modified", 404: "Not Found",
            500: "Internal Server Error"}


def record_id() -> str:
    return f"<urn:uuid:{uuid.uuid4()}>"


class WarcBuilder:
    """Collects records in memory; ``write(path)`` puts them in a file."""

    def __init__(self, gzip: bool = True, version: str = "1.1") -> None:
        self.gzip = gzip
        self._out = io.BytesIO()
        self._writer = WARCWriter(self._out, gzip=gzip, warc_version=version)
        self.offsets: list[int] = []

    # -- records ----------------------------------------------------------------------------
    def add_response(self, url: str, body: bytes, *, status: int = 200,
                     content_type: str | None = "text/html; charset=utf-8",
                     date: str = "2024-05-01T12:00:00Z", rid: str | None = None,
                     extra_headers: list[tuple[str, str]] | None = None) -> int:
        http = _http_headers(status, content_type, extra_headers)
        record = self._writer.create_warc_record(
            url, "response", payload=io.BytesIO(body), length=len(body), http_headers=http,
            warc_headers_dict={"WARC-Date": date, "WARC-Record-ID": rid or record_id()},
        )
        return self._write(record)

    def add_raw_response(self, url: str, block: bytes, date: str = "2024-05-01T12:00:00Z") -> int:
        """A response whose block (HTTP status line, headers and body) is ``block`` exactly, for malformed
        HTTP: written by hand, since warcio's writer parses (and rejects) the HTTP headers it is given."""
        headers = [("WARC-Type", "response"), ("WARC-Record-ID", record_id()), ("WARC-Date", date),
                   ("WARC-Target-URI", url), ("Content-Type", "application/http; msgtype=response"),
                   ("Content-Length", str(len(block)))]
        head = "WARC/1.1\r\n" + "".join(f"{name}: {value}\r\n" for name, value in headers) + "\r\n"
        record = head.encode() + block + b"\r\n\r\n"
        offset = self._out.tell()
        self._out.write(gzip.compress(record) if self.gzip else record)  # WARC 1.1 Annex D.2: one member per record
        self.offsets.append(offset)
        return offset

    def add_redirect(self, url: str, location: str, status: int = 302) -> int:
        return self.add_response(url, b"<html><body>moved</body></html>", status=status,
                                 extra_headers=[("Location", location)])

    def add_request(self, url: str, date: str = "2024-05-01T12:00:00Z") -> int:
        parts = urlsplit(url)
        http = StatusAndHeaders(f"GET {parts.path or '/'} HTTP/1.1", [("Host", parts.netloc)],
                                is_http_request=True)
        record = self._writer.create_warc_record(url, "request", http_headers=http,
                                                 warc_headers_dict={"WARC-Date": date})
        return self._write(record)

    def add_revisit(self, url: str, *, digest: str = "sha1:UNKNOWNUNKNOWNUNKNOWNUNKNOWNUNKN",
                    refers_to_uri: str | None = None, refers_to_date: str | None = None,
                    refers_to: str | None = None, status: int | None = 200,
                    content_type: str | None = "text/html; charset=utf-8",
                    date: str = "2024-05-02T12:00:00Z", rid: str | None = None) -> int:
        """``status=None`` writes a revisit without HTTP headers (allowed by WARC 1.1 §6.7)."""
        http = _http_headers(status, content_type, None) if status is not None else None
        headers = {"WARC-Date": date, "WARC-Record-ID": rid or record_id()}
        if refers_to:
            headers["WARC-Refers-To"] = refers_to
        record = self._writer.create_revisit_record(url, digest, refers_to_uri or "", refers_to_date or "",
                                                    http_headers=http, warc_headers_dict=headers)
        if not refers_to_uri:
            record.rec_headers.remove_header("WARC-Refers-To-Target-URI")
        if not refers_to_date:
            record.rec_headers.remove_header("WARC-Refers-To-Date")
        return self._write(record)

    def add_metadata(self, url: str, fields: dict[str, str]) -> int:
        body = "".join(f"{k}: {v}\r\n" for k, v in fields.items()).encode()
        record = self._writer.create_warc_record(url, "metadata", payload=io.BytesIO(body), length=len(body),
                                                 warc_content_type="application/warc-fields")
        return self._write(record)

    def add_resource(self, url: str, body: bytes, content_type: str = "text/html") -> int:
        record = self._writer.create_warc_record(url, "resource", payload=io.BytesIO(body), length=len(body),
                                                 warc_content_type=content_type)
        return self._write(record)

    def add_warcinfo(self) -> int:
        return self._write(self._writer.create_warcinfo_record("test.warc", {"software": "winnow tests"}))

    # -- output -----------------------------------------------------------------------------
    def _write(self, record: object) -> int:
        offset = self._out.tell()
        self._writer.write_record(record)
        self.offsets.append(offset)
        return offset

    def data(self) -> bytes:
        return self._out.getvalue()

    def write(self, path: Path) -> Path:
        path.write_bytes(self.data())
        return path


def _http_headers(status: int, content_type: str | None,
                  extra: list[tuple[str, str]] | None) -> StatusAndHeaders:
    headers = [("Content-Type", content_type)] if content_type is not None else []
    headers += extra or []
    return StatusAndHeaders(f"{status} {_REASONS.get(status, 'Whatever')}", headers, protocol="HTTP/1.1")


def payload_digest(warc: Path, offset: int) -> str:
    """The WARC-Payload-Digest warcio wrote for the record at ``offset``."""
    from warcio.archiveiterator import ArchiveIterator

    with warc.open("rb") as fh:
        fh.seek(offset)
        record = next(iter(ArchiveIterator(fh)))
        return record.rec_headers.get_header("WARC-Payload-Digest")


# -- damage -----------------------------------------------------------------------------------
def truncated(src: Path, dst: Path, at: int) -> Path:
    """A copy of ``src`` cut after ``at`` bytes."""
    dst.write_bytes(src.read_bytes()[:at])
    return dst


def flipped(src: Path, dst: Path, at: int, count: int = 16) -> Path:
    """A copy of ``src`` with ``count`` bytes from ``at`` inverted."""
    data = bytearray(src.read_bytes())
    for i in range(at, min(at + count, len(data))):
        data[i] ^= 0xFF
    dst.write_bytes(bytes(data))
    return dst
