"""HTTP-level verdicts on a WARC capture: is this response (or revisit) an HTML page at all?

A capture is a page when its HTTP status is 200 and its media type is HTML (``text/html``,
``application/xhtml+xml``; sniffed per WHATWG MIME Sniffing §7.1 when the type is missing or
``unknown/unknown``). Otherwise the verdict names the tombstone reason: ``read.redirect`` (3xx),
``read.http_status`` (any other non-200; the detail is the code), ``read.non_html`` (the detail is
the media type), ``read.content_encoding`` (an HTTP Content-Encoding winnow does not decode, so the
bytes are not HTML).

The payload of a page is the stored body with its HTTP codings undone here rather than by warcio,
whose decoding is lenient where it should fail and fails where it should not (it passes bytes it
cannot gunzip through as if they were plain, and with brotli 1.2 it raises AttributeError on any
``br`` body). ``decode_payload``: ``Transfer-Encoding: chunked`` is undone by warcio's lenient
dechunker (a body stored already dechunked under that header passes through), then each ``Content-Encoding`` (RFC 9110
§8.4: a list, in the order applied) in reverse: ``gzip``/``x-gzip``, ``deflate`` (zlib-wrapped, or
raw as some servers send it), ``br``. A stream that stops early keeps what decoded, as a truncated
identity body does. A stream that does not decode raises ``UndecodablePayload`` (the record becomes a
``read.undecodable_payload`` tombstone), unless the undecoded bytes already sniff as HTML: then the
label was wrong and the page is used as stored. A body that would decode to more than
``DECODED_MAX_BYTES`` is refused the same way: a few megabytes of gzip or br can expand to gigabytes.
"""

from __future__ import annotations

import io
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from warcio.bufferedreaders import ChunkedDataReader

try:
    import brotli
except ImportError:  # pragma: no cover - Scrapy requires it; without it br is a read.content_encoding verdict
    brotli = None

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
DECODED_MAX_BYTES = 64 << 20  # far above any real page; what a decompression bomb would exceed


class UndecodablePayload(Exception):
    """A body does not decode under its declared Content-Encoding; the message names the coding and why."""


@dataclass
class _Http:
    """The parts of an HTTP response header block that decide whether a capture is a page."""

    status: int | None
    content_type: str | None  # the header value, charset parameter included
    media_type: str  # lower-cased essence, "" when absent
    location: str | None
    encoding: str  # lower-cased Content-Encoding, "" when absent
    chunked: bool = False  # Transfer-Encoding names chunked


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
    # RFC 9110 §15: a status code is three digits. Anything else is not a status (and a long one
    # would not fit the int32 column: one record would fail its whole batch).
    code = headers.get_statuscode() or ""
    status = int(code) if re.fullmatch(r"[0-9]{3}", code) else None
    content_type = headers.get_header("Content-Type")
    media_type = (content_type or "").split(";", 1)[0].strip().lower()
    encoding = (headers.get_header("Content-Encoding") or "").strip().lower()
    chunked = "chunked" in (headers.get_header("Transfer-Encoding") or "").lower()
    return _Http(status, content_type, media_type, headers.get_header("Location"), encoding, chunked)


def _status_verdict(http: _Http) -> tuple[str, str] | None:
    """(reason, detail) when the status alone rules the capture out, else None."""
    if http.status is None:
        return "read.http_status", "unparseable status line"
    if 300 <= http.status < 400:
        return "read.redirect", _short(f"{http.status} -> {http.location or '?'}")
    if http.status != 200:
        return "read.http_status", str(http.status)
    # Undecoded bytes (zstd, compress, a made-up name) are not HTML in any charset.
    if any(coding not in _DECODERS for coding in _codings(http.encoding)):
        return "read.content_encoding", _short(http.encoding)
    return None


def _type_verdict(http: _Http, head: bytes | None) -> tuple[str, str] | None:
    """(reason, detail) when the media type rules the capture out; ``head`` None: payload not read yet."""
    if http.media_type in HTML_TYPES:
        return None
    if http.media_type in SNIFF_TYPES and (head is None or looks_like_html(head)):
        return None
    return "read.non_html", http.media_type or "unknown"


def decode_payload(body: bytes, http: _Http) -> bytes:
    """The payload of a stored HTTP body: dechunked, content codings undone (module docstring).

    Raises ``UndecodablePayload`` when a coding does not decode; call it only on responses that
    passed ``_status_verdict``, which rules out codings with no decoder here.
    """
    if http.chunked:
        body = ChunkedDataReader(io.BytesIO(body)).read()
    for coding in reversed(_codings(http.encoding)):
        try:
            body = _DECODERS[coding](body)
        except UndecodablePayload as exc:
            raise UndecodablePayload(f"Content-Encoding {coding}: {exc}") from None
        except Exception as exc:  # zlib.error, brotli.error: the bytes are not what the header says
            if looks_like_html(body[:SNIFF_BYTES]):
                break  # the server (or the archiver) sent or stored it decoded under a stale label
            detail = " ".join(str(exc).split()) or type(exc).__name__
            raise UndecodablePayload(f"Content-Encoding {coding}: {detail}") from None
    return body


def _codings(encoding: str) -> list[str]:
    """Content codings in the order they were applied (RFC 9110 §8.4), identity left out."""
    codings = (coding.strip() for coding in encoding.split(","))
    return [coding for coding in codings if coding not in _IDENTITY_ENCODINGS]


def _gunzip(data: bytes) -> bytes:
    out = b""
    while True:
        member = zlib.decompressobj(16 + zlib.MAX_WBITS)
        out += _inflate(member, data, DECODED_MAX_BYTES - len(out))
        data = member.unused_data
        # RFC 1952 §2.2: a gzip stream may hold several members. Bytes after the last one (padding,
        # junk from the server) are ignored rather than failing a page that decoded whole.
        if not member.eof or not data.startswith(b"\x1f\x8b"):
            return out


def _inflate_deflate(data: bytes) -> bytes:
    try:
        return _inflate(zlib.decompressobj(), data, DECODED_MAX_BYTES)  # RFC 9110 §8.4.1.2: zlib format
    except zlib.error:
        return _inflate(zlib.decompressobj(-zlib.MAX_WBITS), data, DECODED_MAX_BYTES)  # raw: some servers send it


def _inflate(decompressor: Any, data: bytes, room: int) -> bytes:
    out = decompressor.decompress(data, room + 1)  # a stream cut short yields what it holds, no error
    if len(out) > room:
        raise UndecodablePayload(f"decodes to more than {DECODED_MAX_BYTES} bytes")
    return out


def _unbrotli(data: bytes) -> bytes:
    decompressor = brotli.Decompressor()
    # brotli >= 1.2 (Scrapy's minimum) stops growing the output at the limit instead of exhausting memory.
    out = decompressor.process(data, output_buffer_limit=DECODED_MAX_BYTES + 1)
    if len(out) > DECODED_MAX_BYTES:
        raise UndecodablePayload(f"decodes to more than {DECODED_MAX_BYTES} bytes")
    return out


_DECODERS: dict[str, Callable[[bytes], bytes]] = {
    # RFC 9110 §8.4.1.3: x-gzip is gzip.
    "gzip": _gunzip, "x-gzip": _gunzip, "deflate": _inflate_deflate,
    **({"br": _unbrotli} if brotli is not None else {}),
}


def _short(text: str) -> str:
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= _DETAIL_MAX else text[: _DETAIL_MAX - 3] + "..."
