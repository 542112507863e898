"""JSONL and Parquet corpora of documents to Document rows.

Fields read from each JSON object / Parquet row (others are ignored; there is no free-form
metadata on the wire):

- ``text``: required, a string;
- ``id``: optional string (an integer is accepted and written as its decimal string); when absent
  the id is derived from ``<name>@<line or row>``, so it is stable across runs;
- ``url``, ``title``: optional strings;
- ``fetched_at``: optional; an ISO 8601 string (``datetime.fromisoformat``, which in Python 3.11
  accepts ``Z``), or a Parquet timestamp/date. Values without a zone are taken as UTC.

``source`` is ``<name>@<n>``, where ``name`` is the file name, or where two inputs of the run share a file
name, the shortest end of the path that tells them apart (``pipelines.readers.input_labels``). For
JSONL ``n`` is the 1-based line number (as editors and ``sed -n Np`` count), for Parquet the 0-based row
index (as ``pyarrow`` and pandas count). Blank JSONL lines are skipped without a row.

A line that is not a JSON object, or an object with a missing or mistyped field, becomes a
``read.bad_record`` tombstone naming the problem, and reading goes on. A lone surrogate code point in a
string (JSON can escape one; UTF-8 cannot hold it) becomes U+FFFD, flagged ``surrogates_replaced`` in
``extract_flags`` (counted in stats.json metrics). A stream that cannot be
read on (truncated or corrupt compression, a damaged Parquet page, a file that is not Parquet)
ends with one ``read.corrupt_input`` tombstone after every row read before it.

JSONL is read through ``pyarrow.input_stream(path, compression="detect")`` (gzip, bz2, zstd and
lz4 by file extension); Parquet through ``ParquetFile.iter_batches``, a bounded number of rows at
a time rather than the whole file.
"""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from datetime import UTC, date, datetime
from typing import Any

import pyarrow as pa

from pipelines import storage
from pipelines.readers.ids import stable_id
from pipelines.records import Document, scrub_surrogates
from pipelines.storage_errors import StorageError

log = logging.getLogger(__name__)

FIELDS = ("id", "url", "fetched_at", "text", "title")
SURROGATES_FLAG = "surrogates_replaced"
PARQUET_BATCH_ROWS = 1024
# pyarrow raises on a damaged compressed stream without handing over what it decoded in that read
# call, so the buffer bounds the lines lost before a corrupt_input tombstone; bigger buys no speed.
_READ_BUFFER = 64 * 1024
_DETAIL_MAX = 200


class _BadRecord(Exception):
    """One record is unusable; the file reads on."""


def iter_documents(path: str, name: str | None = None) -> Iterator[Document]:
    """Document rows and tombstones of one JSONL or Parquet file, in file order; never raises for bad data.
    ``name``: the file's label in ``source`` (default its file name)."""
    name = name or storage.basename(path)
    if path.lower().endswith(".parquet"):
        yield from _parquet_rows(path, name)
    else:
        yield from _jsonl_rows(path, name)


# -- JSONL ------------------------------------------------------------------------------------
def _jsonl_rows(path: str, name: str) -> Iterator[Document]:
    lineno = 0
    try:
        stream = _input_stream(path)
    except StorageError:
        raise  # the store's failure, not the file's damage (read_input decides)
    except Exception as exc:  # unreadable from the first byte, e.g. a bad compression header
        yield _corrupt(name, 1, exc)
        return
    # NativeFile has no readline(); a BufferedReader adds it without reading the file into memory.
    with io.BufferedReader(stream, _READ_BUFFER) as lines:
        while True:
            try:
                line = lines.readline()
            except StorageError:
                raise
            except Exception as exc:  # truncated or corrupt compressed stream: stop here
                yield _corrupt(name, lineno + 1, exc)
                return
            if not line:
                return
            lineno += 1
            if line.strip():
                yield _from_json_line(line, name, lineno)


# pyarrow's codec for each compressed suffix (what ``compression="detect"`` infers from a local file's name).
_CODECS = {".gz": "gzip", ".bz2": "bz2", ".zst": "zstd", ".lz4": "lz4"}


def _input_stream(path: str) -> pa.NativeFile:
    """A decompressing stream of a local file, or of a remote one opened through pipelines.storage (streamed)."""
    if not storage.is_remote(path):
        return pa.input_stream(path, compression="detect")
    codec = next((c for suffix, c in _CODECS.items() if path.lower().endswith(suffix)), None)
    return pa.input_stream(storage.open_input(path), compression=codec)


def _from_json_line(line: bytes, name: str, lineno: int) -> Document:
    source = f"{name}@{lineno}"
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        return _bad(source, f"not JSON: {exc}")
    if not isinstance(obj, dict):
        return _bad(source, f"not a JSON object but {type(obj).__name__}")
    return _document(obj, source)


# -- Parquet ----------------------------------------------------------------------------------
def _parquet_rows(path: str, name: str) -> Iterator[Document]:
    try:
        parquet = storage.parquet_file(path)
        columns = [c for c in FIELDS if c in parquet.schema_arrow.names]
    except StorageError:
        raise
    except Exception as exc:  # not Parquet (bad magic, bad footer)
        yield _corrupt(name, 0, exc)
        return
    row = 0
    # One row group at a time: iter_batches over the whole file merges row groups into one batch,
    # so damage in a later group would also cost the rows of the earlier ones.
    for group in range(parquet.num_row_groups):
        batches = parquet.iter_batches(batch_size=PARQUET_BATCH_ROWS, row_groups=[group], columns=columns)
        while True:
            try:
                rows = next(batches).to_pylist()
            except StopIteration:
                break
            except StorageError:
                raise
            except Exception as exc:  # a damaged page or column chunk: stop at the first row not read
                yield _corrupt(name, row, exc)
                return
            for obj in rows:
                yield _document(obj, f"{name}@{row}")
                row += 1


# -- shared -----------------------------------------------------------------------------------
def _document(obj: dict[str, Any], source: str) -> Document:
    try:
        doc = Document(
            id=_id(obj.get("id"), source),
            url=_optional_str(obj, "url"),
            source=source,
            fetched_at=_fetched_at(obj.get("fetched_at")),
            text=_text(obj),
            title=_optional_str(obj, "title"),
        )
    except _BadRecord as exc:
        url, _ = scrub_surrogates(obj.get("url"))
        return _bad(source, str(exc), url=url)
    # JSON may escape a lone surrogate ("\ud800", half of a pair cut by a UTF-16 truncation); it has no UTF-8
    # form. It becomes U+FFFD and the record says so (stats.json metrics: extract_flags.surrogates_replaced).
    replaced = False
    for name in ("id", "url", "text", "title"):
        value, changed = scrub_surrogates(getattr(doc, name))
        if changed:
            setattr(doc, name, value)
            replaced = True
    if replaced:
        doc.extract_flags.append(SURROGATES_FLAG)
    return doc


def _text(obj: dict[str, Any]) -> str:
    text = obj.get("text")
    if isinstance(text, str):
        return text
    raise _BadRecord("no 'text' field" if text is None else f"'text' is {type(text).__name__}, not a string")


def _id(value: Any, source: str) -> str:
    if value is None:
        return stable_id(source)
    if isinstance(value, str) and value:
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise _BadRecord(f"'id' is {type(value).__name__} {value!r:.40}, not a non-empty string")


def _optional_str(obj: dict[str, Any], key: str) -> str | None:
    value = obj.get(key)
    if value is None or isinstance(value, str):
        return value
    raise _BadRecord(f"{key!r} is {type(value).__name__}, not a string")


def _fetched_at(value: Any) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip())
        except ValueError:
            raise _BadRecord(f"'fetched_at' {value!r:.40} is not an ISO 8601 date-time") from None
    elif isinstance(value, date) and not isinstance(value, datetime):
        value = datetime(value.year, value.month, value.day)
    if not isinstance(value, datetime):
        raise _BadRecord(f"'fetched_at' is {type(value).__name__}, not an ISO 8601 string")
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _bad(source: str, detail: str, url: Any = None) -> Document:
    return Document(id=stable_id(source), url=url if isinstance(url, str) else None, source=source,
                    dropped_by="read.bad_record", drop_detail=_short(detail))


def _corrupt(name: str, position: int, exc: BaseException) -> Document:
    source = f"{name}@{position}"
    unit = "row" if name.lower().endswith(".parquet") else "line"
    detail = f"at {unit} {position}: {type(exc).__name__}: {exc}"
    log.warning("%s: damaged input %s", name, detail)
    return Document(id=stable_id(source), url=None, source=source, dropped_by="read.corrupt_input",
                    drop_detail=_short(detail))


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _DETAIL_MAX else text[: _DETAIL_MAX - 3] + "..."
