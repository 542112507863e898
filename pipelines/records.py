"""Record types and their Arrow schemas, declared once: each schema is made from its dataclass.

Schemas are data, declared up front: the output schema of a pipeline is known before any row
moves, nothing is inferred from the first batch, and there is no free-form metadata dict on the
wire (the bug class datatrove's users report most). A field's column type follows from its annotation
(``schema_for``); ``tests/pipelines/test_records.py`` holds the written schemas and fails when one changes.

Every record carries the identity fields (``id``, ``url``, ``source``, ``fetched_at``), the policy
fields (``training_allowed`` and the ``policy_signals`` that decided it; null / empty for inputs
that carry none, e.g. a Common Crawl WARC or a JSONL corpus) and the two framework fields
``dropped_by`` / ``drop_detail``. A row with ``dropped_by`` set is a *tombstone*: it travels to
the writer so that per-step statistics are computed from the data itself (exact under Ray task
retries, identical on both runners), and in annotate mode it is written out for threshold tuning.

The kind of a table is stored in its schema metadata (``winnow.kind``), so Parquet shards
describe themselves to ``winnow inspect``.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import re
import types
import typing
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar

import pyarrow as pa

log = logging.getLogger(__name__)

KIND_KEY = b"winnow.kind"

# Arrow type of a field from its Python annotation (``X | None`` as ``X``); a field that needs another type (a large
# string for a page's HTML) says so in its metadata (``large_text``). ``nullable: False`` in a field's metadata makes
# the column non-nullable.
_ARROW: dict[Any, pa.DataType] = {str: pa.string(), int: pa.int32(), float: pa.float32(), bool: pa.bool_(),
                                  datetime: pa.timestamp("us", tz="UTC"), bytes: pa.large_binary()}
_REQUIRED = {"nullable": False}


def large_text() -> Any:
    """A string field stored as Arrow ``large_string`` (page HTML, main text: one value may pass 2 GiB in a batch)."""
    return field(default=None, metadata={"arrow": pa.large_string()})


def _arrow_type(hint: Any, metadata: Any) -> pa.DataType:
    if "arrow" in metadata:
        return metadata["arrow"]
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        (hint,) = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) is list:
        (item,) = typing.get_args(hint)
        return pa.list_(struct_type(item) if dataclasses.is_dataclass(item) else _arrow_type(item, {}))
    return _ARROW[hint]


def _arrow_field(f: dataclasses.Field, hints: dict[str, Any]) -> pa.Field:
    return pa.field(f.name, _arrow_type(hints[f.name], f.metadata), nullable=f.metadata.get("nullable", True))


def struct_type(cls: type) -> pa.StructType:
    """The Arrow struct of a nested record dataclass (``Segment``)."""
    hints = typing.get_type_hints(cls)
    return pa.struct([_arrow_field(f, hints) for f in dataclasses.fields(cls)])


@dataclass
class Record:
    """The fields every kind carries: identity and policy first in every schema, the framework's last."""

    kind: ClassVar[str]
    id: str = field(metadata=_REQUIRED)
    url: str | None
    source: str = field(metadata=_REQUIRED)
    fetched_at: datetime | None = None
    training_allowed: bool | None = None
    policy_signals: list[str] = field(default_factory=list)
    dropped_by: str | None = None
    drop_detail: str | None = None


COMMON_NAMES = ("id", "url", "source", "fetched_at", "training_allowed", "policy_signals")
TAIL_NAMES = ("dropped_by", "drop_detail")


def schema_for(cls: type) -> pa.Schema:
    """A record class's schema: the common columns, the class's own in declaration order, the framework's; the kind
    in the schema metadata."""
    hints = typing.get_type_hints(cls)
    by_name = {f.name: f for f in dataclasses.fields(cls)}
    own = [name for name in by_name if name not in COMMON_NAMES and name not in TAIL_NAMES]
    return pa.schema([_arrow_field(by_name[name], hints) for name in (*COMMON_NAMES, *own, *TAIL_NAMES)],
                     metadata={KIND_KEY: cls.kind.encode()})


@dataclass
class Page(Record):
    """One HTML capture as read from a WARC (or, later, straight from the crawler)."""

    kind: ClassVar[str] = "page"
    html: str | None = large_text()
    http_status: int | None = None
    content_type: str | None = None
    charset: str | None = None
    images_allowed: bool | None = None  # False on noimageai: the text may be used, its images not
    rendered: bool | None = None  # True: html is the DOM a headless browser rendered; None: the input does not say


@dataclass
class Document(Record):
    """Extracted main text of one page (or one row of a JSONL/Parquet corpus)."""

    kind: ClassVar[str] = "document"
    text: str | None = large_text()
    title: str | None = None
    lang: str | None = None
    lang_score: float | None = None
    # "page": ``lang`` is lid.176's verdict on this page's prose; "host": the page's own score was too low and it took
    # its host's language (filters/langid_hosts.py, domain-level language ID)
    lang_source: str | None = None
    quality_score: float | None = None  # filters.quality / quality_model: P(good content), calibrated
    # filters.quality_text: the text model's P(good) on the words, where it judged the document (null elsewhere)
    text_quality_score: float | None = None
    # Heuristic rules the document failed without being dropped for it ("c4.curly_bracket", ...): the
    # rules are signals, the model decides (filters/rules.py).
    quality_signals: list[str] = field(default_factory=list)
    code_ratio: float | None = None  # filters.langid: share of the text that is code (filters/parts.py)
    pii_redacted: list[str] = field(default_factory=list)  # filters.pii: one type per redacted span ("EMAIL", ...)
    # Page metadata found by extraction (null for inputs that are text already).
    author: str | None = None
    date: str | None = None  # publication date as the page states it, ISO 8601 (YYYY-MM-DD)
    sitename: str | None = None
    html_lang: str | None = None  # <html lang>, as declared (not the detected ``lang``)
    canonical_url: str | None = None
    # extract/page_type.py: article, forum, product, collection, listing, documentation or service
    page_type: str | None = None
    extracted_by: str | None = None  # "winnow" (block model) | "trafilatura" | "llm_select": what chose ``text``
    # Share of the main text's characters that were link anchors in the page: what a link farm is made of, which the
    # text (anchors written as text) no longer shows. A quality signal (filters/signals.py ``link_words``).
    link_density: float | None = None
    # Events of extraction, one string per event, counted into stats.json metrics
    # ("extract_flags.<value>"): skipped images by reason, LLM fallbacks, ungrounded values dropped, ...
    extract_flags: list[str] = field(default_factory=list)
    structured: str | None = large_text()  # JSON object from schema-driven LLM extraction (grounded values only)


@dataclass
class ImageTextPair(Record):
    """An image of a page with its alt text and surrounding context; ``doc_id`` joins to Document.id."""

    kind: ClassVar[str] = "image_text"
    doc_id: str | None = None
    image_url: str | None = None
    alt: str | None = None
    caption: str | None = None  # the enclosing <figure>'s <figcaption>
    # The pair's text, what filters judge and models train on: the alt, or the caption where the alt is junk (a file
    # name, empty, generic) or too short and the caption is not (filters/image_alt.py ``pair_text``).
    text: str | None = None
    text_source: str | None = None  # "alt" | "caption": where ``text`` came from
    context: str | None = None  # text around the image in the main content
    width: int | None = None
    height: int | None = None
    lang: str | None = None
    lang_score: float | None = None
    pii_redacted: list[str] = field(default_factory=list)  # filters.pii: one type per span redacted in alt/context


@dataclass
class Segment:
    """One element of an interleaved document, in reading order."""

    kind: str = field(metadata=_REQUIRED)  # "text" | "image"
    text: str | None = None
    image_url: str | None = None
    alt: str | None = None


@dataclass
class InterleavedDoc(Record):
    """A page's text blocks and images in reading order; shares its id with the page's Document."""

    kind: ClassVar[str] = "interleaved"
    title: str | None = None
    segments: list[Segment] = field(default_factory=list)
    lang: str | None = None
    lang_score: float | None = None
    lang_source: str | None = None  # as Document.lang_source
    quality_score: float | None = None  # filters.quality_fasttext, on the joined text segments
    text_quality_score: float | None = None  # as Document.text_quality_score
    quality_signals: list[str] = field(default_factory=list)  # as Document.quality_signals
    code_ratio: float | None = None  # as Document.code_ratio
    pii_redacted: list[str] = field(default_factory=list)  # filters.pii: one type per span redacted in any segment
    # The page's, as on its Document: the quality steps read them as they read a Document's (the page type's own
    # threshold, the text model's page types left alone, the link-text signal), so that a page's interleaved document
    # is judged as its text document is. Null in shards written before they were added, and for an LLM-only page.
    page_type: str | None = None
    link_density: float | None = None


@dataclass
class ImageRecord(Record):
    """A fetched image (``winnow images fetch``, issue 17), one row per image_text pair or interleaved image segment.

    ``id`` is the pair's id for ``output == "image_text"`` (join ``image_text`` on ``id``) and
    ``"<interleaved id>/<segment index>"`` for ``output == "interleaved"`` (``doc_id`` and ``segment`` say the same
    in columns). ``url`` is the page the image is on, ``fetched_at`` when the image was fetched; the policy fields
    combine the page's record with the image response's own signals. ``sha256`` is of the bytes as fetched, ``image``
    holds the stored bytes (re-encoded only when resized); ``phash``/``dhash`` are 64-bit perceptual hashes as 16 hex
    digits (imagehash), computed on the decoded image.
    """

    kind: ClassVar[str] = "image"
    output: str | None = None  # "image_text" | "interleaved": which output the image was referenced from
    doc_id: str | None = None  # the page's Document / InterleavedDoc id
    segment: int | None = None  # index into InterleavedDoc.segments; null for image_text pairs
    image_url: str | None = None
    fetched_url: str | None = None  # after redirects
    alt: str | None = None
    caption: str | None = None
    text: str | None = None  # the pair's text (ImageTextPair.text); null for interleaved images and older outputs
    text_source: str | None = None
    http_status: int | None = None
    content_type: str | None = None
    image_format: str | None = None  # Pillow's format name of the stored bytes: JPEG, PNG, WEBP, GIF, ...
    width: int | None = None  # of the stored image
    height: int | None = None
    original_width: int | None = None  # as fetched, before any resize
    original_height: int | None = None
    image: bytes | None = None
    sha256: str | None = None
    phash: str | None = None
    dhash: str | None = None
    clip_score: float | None = None  # image-text alignment (filters/clip_score.py); null until scored


SEGMENT_TYPE = struct_type(Segment)
PAGE_SCHEMA = schema_for(Page)
DOCUMENT_SCHEMA = schema_for(Document)
IMAGE_TEXT_SCHEMA = schema_for(ImageTextPair)
INTERLEAVED_SCHEMA = schema_for(InterleavedDoc)
IMAGE_SCHEMA = schema_for(ImageRecord)

# kind -> (record class, schema)
KINDS: dict[str, tuple[type, pa.Schema]] = {
    "page": (Page, PAGE_SCHEMA),
    "document": (Document, DOCUMENT_SCHEMA),
    "image_text": (ImageTextPair, IMAGE_TEXT_SCHEMA),
    "interleaved": (InterleavedDoc, INTERLEAVED_SCHEMA),
    "image": (ImageRecord, IMAGE_SCHEMA),
}
# Output kinds and the folder each is written to under the output directory.
OUTPUT_DIRS: dict[str, str] = {"document": "text", "image_text": "image_text", "interleaved": "interleaved",
                               "image": "images"}


# A step that produces several kinds from one input (extraction: text, image-text pairs and interleaved
# documents from one parse) returns one *bundle* table per batch: a row per kind, holding that kind's table as an
# Arrow IPC stream. Ray Data needs one schema per dataset, and re-running the step once per kind would parse every
# page three times; the runner splits the bundle into one lane per kind (``Dataset.split``).
BUNDLE_KIND = "bundle"
BUNDLE_SCHEMA = pa.schema(
    [pa.field("kind", pa.string(), nullable=False), pa.field("table", pa.large_binary(), nullable=False)],
    metadata={KIND_KEY: BUNDLE_KIND.encode()},
)


def bundle(tables: dict[str, pa.Table]) -> pa.Table:
    """Tables of several kinds (one per kind) as one bundle table."""
    kinds, blobs = [], []
    for kind, table in tables.items():
        sink = pa.BufferOutputStream()
        with pa.ipc.new_stream(sink, table.schema) as writer:
            writer.write_table(table)
        kinds.append(kind)
        blobs.append(sink.getvalue().to_pybytes())
    return pa.Table.from_arrays([pa.array(kinds, pa.string()), pa.array(blobs, pa.large_binary())],
                                schema=BUNDLE_SCHEMA)


def unbundle(table: pa.Table, kind: str) -> pa.Table:
    """The ``kind`` table out of a bundle (an empty table of that kind if the bundle has none)."""
    parts = [pa.ipc.open_stream(blob.as_buffer()).read_all()  # the buffer, not a copy as Python bytes
             for k, blob in zip(table.column("kind"), table.column("table"), strict=True) if k.as_py() == kind]
    if not parts:
        return empty_table(kind)
    return pa.concat_tables(parts).cast(schema_of(kind))


class Unbundle:
    """Picklable bundle -> ``kind`` table function (one per lane)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __call__(self, table: pa.Table) -> pa.Table:
        return unbundle(table, self.kind)


def schema_of(kind: str) -> pa.Schema:
    try:
        return KINDS[kind][1]
    except KeyError:
        raise ValueError(f"unknown record kind {kind!r}; known: {sorted(KINDS)}") from None


def kind_of(table_or_schema: pa.Table | pa.Schema) -> str:
    schema = table_or_schema.schema if isinstance(table_or_schema, pa.Table) else table_or_schema
    meta = schema.metadata or {}
    if KIND_KEY in meta:
        return meta[KIND_KEY].decode()
    for kind, (_, known) in KINDS.items():
        if schema.remove_metadata().equals(known.remove_metadata()):
            return kind
    raise ValueError(f"table is not a winnow record table (no {KIND_KEY.decode()} metadata): {schema.names}")


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


@functools.cache
def _layout(cls: type) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
    """A record class's field names, and for its ``list[<dataclass>]`` fields the item's field names."""
    names = tuple(f.name for f in dataclasses.fields(cls))
    hints = typing.get_type_hints(cls)
    nested = {name: tuple(f.name for f in dataclasses.fields(item))
              for name, hint in hints.items() if (item := _list_item_dataclass(hint))}
    return names, nested


def _row(record: Any) -> dict[str, Any]:
    """One record as a row: its fields, and list items of its nested record type as dicts. Driven by the
    class's layout, not a recursive walk of every value (the walk was a sixth of the default chain's CPU: it
    asked ``is_dataclass`` of every string in every list, at every step)."""
    if not dataclasses.is_dataclass(record):
        return _plain(record)
    names, nested = _layout(type(record))
    row = {name: getattr(record, name) for name in names}
    for name, item_names in nested.items():
        items = row[name]
        if items:
            row[name] = [{k: getattr(i, k) for k in item_names} if dataclasses.is_dataclass(i) else i for i in items]
    return row


def to_table(records: list[Any], kind: str) -> pa.Table:
    """Records (dataclasses of ``kind``) to a table with exactly the declared schema.

    A string with a lone surrogate (``"\\ud800"`` from a JSON escape or a step) cannot be written as UTF-8:
    Arrow raises, and a batch that can never be written would block its wave on every re-run. Such code points
    become U+FFFD, as a UTF-8 decoder does with bytes it cannot read; readers that meet them in their input
    flag the record first (``scrub_surrogates``)."""
    schema = schema_of(kind)
    rows = [_row(r) for r in records]
    try:
        return pa.Table.from_pylist(rows, schema=schema)
    except UnicodeEncodeError:
        log.warning("lone surrogate code points in %s records replaced by U+FFFD", kind)
        return pa.Table.from_pylist([scrub_surrogates(row)[0] for row in rows], schema=schema)


_SURROGATE = re.compile("[\ud800-\udfff]")


def scrub_surrogates(value: Any) -> tuple[Any, bool]:
    """``value`` (a string, or lists and dicts of them) with lone surrogates as U+FFFD, and whether any was."""
    if isinstance(value, str):
        if _SURROGATE.search(value) is None:
            return value, False
        # UTF-16 with surrogatepass joins a high+low pair into its character and leaves lone halves undecodable.
        return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace"), True
    if isinstance(value, list):
        pairs = [scrub_surrogates(v) for v in value]
        return [v for v, _ in pairs], any(c for _, c in pairs)
    if isinstance(value, dict):
        pairs = {k: scrub_surrogates(v) for k, v in value.items()}
        return {k: v for k, (v, _) in pairs.items()}, any(c for _, c in pairs.values())
    return value, False


def _list_item_dataclass(annotation: Any) -> type | None:
    """``list[Segment]`` -> Segment; anything else -> None."""
    if typing.get_origin(annotation) is list:
        (item,) = typing.get_args(annotation)
        if dataclasses.is_dataclass(item):
            return item
    return None


def from_table(table: pa.Table) -> list[Any]:
    """A record table back to dataclass instances (for Step.process and notebooks)."""
    cls = KINDS[kind_of(table)][0]
    hints = typing.get_type_hints(cls)
    nested = {name: item for name, hint in hints.items() if (item := _list_item_dataclass(hint))}
    out = []
    for row in table.to_pylist():
        for name, item_cls in nested.items():
            row[name] = [item_cls(**v) for v in row[name] or []]
        out.append(cls(**row))
    return out


def empty_table(kind: str) -> pa.Table:
    return schema_of(kind).empty_table()


def conform(table: pa.Table, kind: str) -> pa.Table:
    """Project ``table`` onto ``kind``'s schema: shared columns are kept, missing ones become null.

    Used to carry tombstones across a step that changes the record kind (page -> document).
    """
    schema = schema_of(kind)
    cols = []
    for f in schema:
        if f.name in table.column_names:
            cols.append(table.column(f.name).cast(f.type))
        else:
            cols.append(pa.nulls(table.num_rows, f.type))
    return pa.Table.from_arrays(cols, schema=schema)
