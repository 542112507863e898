"""WARC files (WARC 1.0 and 1.1, ISO 28500) to Page rows, via warcio's ``ArchiveIterator``.

Plain files and per-record gzip (WARC 1.1 Annex D.2: one gzip member per record, as Common Crawl
and every archiving crawler write them) are read. A file that is one gzip stream around many
records is reported as ``read.corrupt_input``: records cannot be addressed by offset in it, and
``warcio recompress`` fixes it.

What each record becomes (WARC 1.1 §6 names the record types):

- ``response`` with HTTP status 200 and an HTML media type -> a Page; ``source`` is
  ``<name>@<record offset>`` (``name`` the file name unless the caller gives a label; the
  compressed offset for ``.warc.gz``, as in CDX indexes), ``id`` a hash of WARC-Record-ID.
- other ``response`` records -> tombstones; which reason, and what counts as HTML, is
  ``pipelines.readers.warc_http``'s job. So is undoing the body's HTTP codings (chunked, gzip,
  deflate, br): a body that does not decode under its ``Content-Encoding`` ->
  ``read.undecodable_payload``, naming the coding and the decoder's error.
- ``revisit`` (§6.7): the original response in the same file is re-read and judged the same way
  (``pipelines.readers.warc_revisits``); no original -> ``read.revisit_unresolved``.
- ``metadata`` records written by winnow's crawler (``application/warc-fields`` with
  ``winnow-*`` fields, ``WARC-Concurrent-To`` the response) carry the crawl-time policy verdict:
  ``training_allowed``, ``images_allowed`` and ``policy_signals`` are set on that response's Page.
  Other metadata records are ignored. Their ``winnow-rendered`` field sets ``rendered`` (True only when
  the rendered DOM below was found and applied).
- ``conversion`` records (§6.9) written by winnow's crawler for a page its headless browser rendered
  (``WARC-Winnow-Rendered: yes``, ``WARC-Refers-To`` the response's record id, an HTML block): the DOM
  replaces the page's ``html`` and ``rendered`` becomes True, so that extraction sees what a reader of the
  page saw. The row keeps the response's id and ``source``. Conversions from other tools are ignored:
  their meaning (a sanitised copy, a text dump) is not known.
- ``request``, ``warcinfo``, ``resource``, ``continuation``: not pages, no row.

Damage to the file: a record whose block ends before its Content-Length, is not followed by the
CRLF CRLF separator (§4), whose WARC headers cannot be parsed, whose gzip member (the file's own
compression) cannot be decompressed, or that is not a WARC record at all ends the file with one
``read.corrupt_input`` tombstone naming the error and the record's offset; everything before it has
been yielded. Past such a point the next record's start is not known. An empty file is damage too:
§4 defines a WARC file as one or more records. warcio itself is lenient (it prints gzip errors to
stderr and returns short reads), so the length and separator checks here are what notice truncation
and bit flips.

A failure that belongs to one record costs that record only, and reading goes on at the next one:
the record's block is still read to its end and checked as above, so where the next record starts
is known. An undecodable payload is ``read.undecodable_payload`` (above); any other error while
turning a response or revisit into a row (odd HTTP headers, a case no rule foresaw) is
``read.bad_record`` naming the exception, the reason the document readers use for one unusable
record. When the same record also fails those checks, ``read.corrupt_input`` wins: a body that
does not decode because the file was cut inside it is the file's damage, not the page's.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any, BinaryIO

from warcio.archiveiterator import ArchiveIterator
from warcio.limitreader import LimitReader

from pipelines import storage
from pipelines.readers.charset import decode_html
from pipelines.readers.ids import stable_id
from pipelines.readers.warc_http import (  # noqa: F401 - looks_like_html re-exported for callers and tests
    HTML_TYPES,
    SNIFF_BYTES,
    UndecodablePayload,
    _Http,
    _http,
    _short,
    _status_verdict,
    _type_verdict,
    decode_payload,
    looks_like_html,
)
from pipelines.readers.warc_revisits import (
    _Originals,
    _refers_to,
    parse_warc_date,
)
from pipelines.records import Page
from pipelines.storage_errors import StorageError

log = logging.getLogger(__name__)

_DRAIN = 1 << 16
METADATA_MAX_BYTES = 1 << 20
RENDERED_HEADER = "WARC-Winnow-Rendered"  # crawler/warc/writer.py marks its conversion records with it


class _Damage(Exception):
    """The file is damaged at the current record: reading cannot go on past it."""


class _WarcFile:
    """One pass over one WARC file, producing Page rows and tombstones."""

    def __init__(self, path: str, name: str | None = None) -> None:
        self.path = path
        self.name = name or storage.basename(path)
        self.originals = _Originals(path)

    def source(self, offset: int) -> str:
        return f"{self.name}@{offset}"

    def pages(self) -> Iterator[Page]:
        with storage.open_input(self.path) as fh:
            if not fh.peek(1):
                yield self.corrupt(0, "empty file (a WARC file holds one or more records)")
                return
            try:
                yield from self._scan(fh)
            finally:
                self.originals.close()

    def _scan(self, fh: BinaryIO) -> Iterator[Page]:
        # The crawler writes a page's metadata record right after its response, so the last page
        # is held back until the next record shows whether it carries a verdict.
        held: list[tuple[str | None, Page]] = []
        yield from self._scan_records(fh, held)
        yield from _release(held)

    def _scan_records(self, fh: BinaryIO, held: list[tuple[str | None, Page]]) -> Iterator[Page]:
        archive = ArchiveIterator(fh)
        records = iter(archive)
        start = 0
        while True:
            # After _finish() below, archive.offset is where the next record starts. Inside a
            # whole-file gzip warcio's arithmetic goes negative; that member began at the last start.
            start = max(archive.offset, start)
            try:
                record = next(records)
                if record.rec_type == "metadata":
                    _apply_verdict(record, held)
                    self._finish(archive, record)
                    continue
                if record.rec_type == "conversion":
                    rendered = _rendered_dom(record, held)
                    self._finish(archive, record)  # a damaged conversion must not replace the page's html
                    if rendered is not None:
                        held[-1][1].html, held[-1][1].charset = rendered.text, rendered.charset
                        held[-1][1].rendered = True
                    continue
                row = self._row(record, start)
                self._finish(archive, record)
            except StopIteration:
                # warcio takes an EOFError inside a record's headers for a clean end of file, so a
                # file cut inside a header block would end quietly: check it was read to the end.
                if _has_data_after(fh, start):
                    what = "data after the last record cannot be parsed" if start else "no WARC record found"
                    yield from _release(held)
                    yield self.corrupt(start, f"{what} (cut inside a record header?)")
                return
            except StorageError:
                raise  # the store failed, not the file: the wave stops and a re-run reads the file again
            except Exception as exc:  # warcio raises a zoo of types for file damage; all mean "stop here"
                # (one record's own failures never get here: _row turns them into its tombstone)
                yield from _release(held)
                yield self.corrupt(start, _describe(exc))
                return
            if row is not None:
                yield from _release(held)
                held[:] = [((record.rec_headers.get_header("WARC-Record-ID") or "").strip(), row)]

    def _row(self, record: Any, offset: int) -> Page | None:
        if record.format != "warc":
            raise _Damage(f"not a WARC record ({record.format} format)")
        _check_length(record)
        try:
            if record.rec_type == "response":
                self.originals.add(record, offset)
                return self._response(record, offset)
            if record.rec_type == "revisit":
                return self._revisit(record, offset)
            return None
        except (_Damage, StorageError):
            raise
        except Exception as exc:  # the record's block is intact (_finish checks): only this record is lost
            log.warning("%s: record at offset %d skipped: %s", storage.redact(self.path), offset, _describe(exc))
            return self.tombstone(record, offset, None, "read.bad_record", _describe(exc))

    def _finish(self, archive: ArchiveIterator, record: Any) -> None:
        """Consume the rest of the record and its separator, raising _Damage if either is wrong."""
        raw = record.raw_stream
        while raw.read(_DRAIN):
            pass
        if isinstance(raw, LimitReader) and raw.limit > 0:
            raise _Damage(f"record block ends {raw.limit} bytes short of its Content-Length (truncated?)")
        errors = archive.err_count
        archive.read_to_end()
        if archive.err_count > errors:
            raise _Damage("record not followed by CRLF CRLF (wrong Content-Length?)")

    def _response(self, record: Any, offset: int) -> Page:
        http = _http(record)
        if http is None:  # dns:, whois: and other non-HTTP captures
            media_type = (record.content_type or "").split(";", 1)[0].strip().lower()
            return self.tombstone(record, offset, None, "read.non_html", media_type or "unknown")
        verdict = _status_verdict(http) or _type_verdict(http, None)
        if verdict:
            return self.tombstone(record, offset, http, *verdict)
        body = _read_body(record)
        try:
            payload = decode_payload(body, http)
        except UndecodablePayload as exc:
            return self.tombstone(record, offset, http, "read.undecodable_payload", str(exc))
        verdict = _type_verdict(http, payload[:SNIFF_BYTES])
        if verdict:
            return self.tombstone(record, offset, http, *verdict)
        return self.page(record, offset, http, payload)

    def _revisit(self, record: Any, offset: int) -> Page:
        own = _http(record)
        governing = own if own is not None and own.status != 304 else None
        if governing is not None:
            verdict = _status_verdict(governing) or _type_verdict(governing, None)
            if verdict:
                return self.tombstone(record, offset, governing, *verdict)
        original_offset = self.originals.find(record)
        if original_offset is None:
            return self.tombstone(record, offset, governing, "read.revisit_unresolved", _refers_to(record))
        try:
            original = self.originals.read(original_offset)
        except StorageError:
            raise
        except Exception as exc:  # the original parsed once; failing now is its damage, not this file's end
            detail = f"original at {original_offset}: {_describe(exc)}"
            return self.tombstone(record, offset, governing, "read.revisit_unresolved", detail)
        if governing is None:
            if original.http is None:
                return self.tombstone(record, offset, None, "read.non_html", "original has no HTTP headers")
            governing = original.http
            verdict = _status_verdict(governing)
            if verdict:
                return self.tombstone(record, offset, governing, *verdict)
        verdict = _type_verdict(governing, original.payload[:SNIFF_BYTES])
        if verdict:
            return self.tombstone(record, offset, governing, *verdict)
        return self.page(record, offset, governing, original.payload)

    # -- rows -------------------------------------------------------------------------------
    def _identity(self, record: Any, offset: int) -> dict[str, Any]:
        headers = record.rec_headers
        record_id = headers.get_header("WARC-Record-ID")
        return {
            "id": stable_id(record_id.strip() if record_id else self.source(offset)),
            "url": headers.get_header("WARC-Target-URI"),
            "source": self.source(offset),
            "fetched_at": parse_warc_date(headers.get_header("WARC-Date")),
        }

    def page(self, record: Any, offset: int, http: _Http, payload: bytes) -> Page:
        decoded = decode_html(payload, http.content_type)
        return Page(**self._identity(record, offset), html=decoded.text, http_status=http.status,
                    content_type=http.media_type or None, charset=decoded.charset)

    def tombstone(self, record: Any, offset: int, http: _Http | None, reason: str, detail: str) -> Page:
        return Page(**self._identity(record, offset), http_status=http.status if http else None,
                    content_type=(http.media_type or None) if http else None,
                    dropped_by=reason, drop_detail=_short(detail))

    def corrupt(self, offset: int, detail: str) -> Page:
        log.warning("%s: damaged at offset %d: %s", storage.redact(self.path), offset, detail)
        return Page(id=stable_id(self.source(offset)), url=None, source=self.source(offset),
                    dropped_by="read.corrupt_input", drop_detail=_short(f"at offset {offset}: {detail}"))


def _release(held: list[tuple[str | None, Page]]) -> Iterator[Page]:
    pages = [page for _, page in held]
    held.clear()
    yield from pages


def _rendered_dom(record: Any, held: list[tuple[str | None, Page]]) -> Any:
    """The decoded DOM of a winnow conversion record that refers to the held page, or None."""
    headers = record.rec_headers
    if not held or (headers.get_header(RENDERED_HEADER) or "").strip().lower() != "yes":
        return None
    record_id, page = held[-1]
    refers = (headers.get_header("WARC-Refers-To") or "").strip()
    media_type = (record.content_type or "").split(";", 1)[0].strip().lower()
    if not refers or refers != record_id or page.dropped_by or media_type not in HTML_TYPES:
        return None
    return decode_html(record.content_stream().read(), record.content_type)


def _apply_verdict(record: Any, held: list[tuple[str | None, Page]]) -> None:
    """Copy a winnow metadata record's verdict onto the held page it refers to."""
    if not held or (record.content_type or "").split(";")[0].strip() != "application/warc-fields":
        return
    refers = (record.rec_headers.get_header("WARC-Concurrent-To") or record.rec_headers.get_header("WARC-Refers-To")
              or "").strip()
    record_id, page = held[-1]
    if not refers or refers != record_id or page.dropped_by:
        return
    fields = parse_warc_fields(record.content_stream().read(METADATA_MAX_BYTES))
    if "winnow-training-allowed" not in fields:
        return
    page.training_allowed = fields["winnow-training-allowed"][0] == "yes"
    if "winnow-images-allowed" in fields:
        page.images_allowed = fields["winnow-images-allowed"][0] == "yes"
    page.policy_signals = list(fields.get("winnow-signal", []))
    if "winnow-rendered" in fields:
        page.rendered = page.rendered is True  # True only if the rendered DOM itself was read


def parse_warc_fields(data: bytes) -> dict[str, list[str]]:
    """``application/warc-fields`` (WARC 1.1 §6.8): ``name: value`` lines; a name may repeat."""
    fields: dict[str, list[str]] = {}
    for line in data.decode("utf-8", errors="replace").splitlines():
        name, sep, value = line.partition(":")
        if sep and name.strip():
            fields.setdefault(name.strip().lower(), []).append(value.strip())
    return fields


def _check_length(record: Any) -> None:
    # WARC 1.1 §5.6: Content-Length is mandatory; without it the record's end is unknowable.
    value = record.rec_headers.get_header("Content-Length")
    try:
        valid = value is not None and int(value) >= 0
    except ValueError:
        valid = False
    if not valid:
        raise _Damage(f"missing or invalid Content-Length {value!r} (cut inside the header?)")


def _read_body(record: Any) -> bytes:
    """The rest of the record's block as stored (the HTTP body); a failure here is the file's."""
    try:
        return record.raw_stream.read()
    except StorageError:
        raise
    except Exception as exc:  # the file's gzip member or the disk under it, not the page's own coding
        raise _Damage(_describe(exc)) from exc


def _has_data_after(fh: BinaryIO, offset: int) -> bool:
    """Whether anything but whitespace follows ``offset`` in the file."""
    fh.seek(offset)
    return bool(fh.read(_DRAIN).strip())


def _describe(exc: BaseException) -> str:
    if isinstance(exc, _Damage):
        return str(exc)
    # warcio's messages span lines (and quote raw bytes); one line of printable text is enough.
    return f"{type(exc).__name__}: {' '.join(str(exc).split()) or '(no message)'}"


def iter_pages(path: str, name: str | None = None) -> Iterator[Page]:
    """Page rows and tombstones of one WARC file, in file order; never raises for bad data.
    ``name``: the file's label in ``source`` (default its file name)."""
    yield from _WarcFile(path, name).pages()
