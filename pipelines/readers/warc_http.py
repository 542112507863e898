"""HTTP-level verdicts on a WARC capture: is this response (or revisit) an HTML page at all?

A capture is a page when its HTTP status is 200 and its media type is HTML (``text/html``,
``application/xhtml+xml``; sniffed per WHATWG MIME Sniffing §7.1 when the type is missing or
``unknown/unknown``). Otherwise the verdict names the tombstone reason: ``read.redirect`` (3xx),
``read.http_status`` (any other non-200; the detail is the code), ``read.non_html`` (the detail is
the media type), ``read.content_encoding`` (an HTTP Content-Encoding warcio cannot undo, so the
bytes are not HTML).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from warcio.bufferedreaders import BufferedReader

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
# WHATWG MIME Sniffing §7.1: these supplied types (and none at all) mean "unknown", so sniff.
SNIFF_TYPES = frozenset({"", "unknown/unknown", "application/unknown", "*/*"})
# WHATWG MIME Sniffing §5.2: a resource header is at most 1445 bytes.
SNIFF_BYTES = 1445
# WHATWG MIME Sniffing §7.1 "identifying a resource with an unknown MIME type", HTML rows: the
# pattern must be followed by a tag-terminating byte (space or ">"), after leading whitespace.
_HTML_OPENERS = tuple(
    t.encode()
    for t in ("<!doctype html", "<html", "<head", "<script", "<iframe", "<h1", "<div", "<font",
              "<table", "<a", "<style", "<title", "<b", "<body", "<br", "<p", "<!--")
)
_IDENTITY_ENCODINGS = frozenset({"", "identity", "none"})
_DETAIL_MAX = 200


@dataclass
class _Http:
    """The parts of an HTTP response header block that decide whether a capture is a page."""

    status: int | None
    content_type: str | None  # the header value, charset parameter included
    media_type: str  # lower-cased essence, "" when absent
    location: str | None
    encoding: str  # lower-cased Content-Encoding, "" when absent


def looks_like_html(head: bytes) -> bool:
    """WHATWG MIME Sniffing §7.1 HTML patterns (a leading UTF-8 BOM is skipped as well)."""
    head = head.removeprefix(b"\xef\xbb\xbf").lstrip(b"\t\n\x0c\r ")[:SNIFF_BYTES].lower()
    for opener in _HTML_OPENERS:
        if head.startswith(opener) and head[len(opener):len(opener) + 1] in (b" ", b">"):
            return True
    return False


def _http(record: Any) -> _Http | None:
    headers = record.http_headers
    if headers is None:
        return None
    try:
        status: int | None = int(headers.get_statuscode())
    except (TypeError, ValueError):
        status = None
    content_type = headers.get_header("Content-Type")
    media_type = (content_type or "").split(";", 1)[0].strip().lower()
    encoding = (headers.get_header("Content-Encoding") or "").strip().lower()
    return _Http(status, content_type, media_type, headers.get_header("Location"), encoding)


def _status_verdict(http: _Http) -> tuple[str, str] | None:
    """(reason, detail) when the status alone rules the capture out, else None."""
    if http.status is None:
        return "read.http_status", "unparseable status line"
    if 300 <= http.status < 400:
        return "read.redirect", _short(f"{http.status} -> {http.location or '?'}")
    if http.status != 200:
        return "read.http_status", str(http.status)
    if http.encoding and http.encoding not in _decodable_encodings():
        return "read.content_encoding", _short(http.encoding)
    return None


def _decodable_encodings() -> set[str]:
    # warcio undoes gzip/deflate (and br when the brotli package is installed); for anything else
    # (zstd, compress) it would hand back compressed bytes that no charset can turn into HTML.
    return {*_IDENTITY_ENCODINGS, *BufferedReader.get_supported_decompressors()}


def _type_verdict(http: _Http, head: bytes | None) -> tuple[str, str] | None:
    """(reason, detail) when the media type rules the capture out; ``head`` None: payload not read yet."""
    if http.media_type in HTML_TYPES:
        return None
    if http.media_type in SNIFF_TYPES and (head is None or looks_like_html(head)):
        return None
    return "read.non_html", http.media_type or "unknown"


def _short(text: str) -> str:
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= _DETAIL_MAX else text[: _DETAIL_MAX - 3] + "..."
