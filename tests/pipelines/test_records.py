import dataclasses
import typing
from datetime import UTC, datetime

import pyarrow as pa
import pytest

from pipelines import records
from pipelines.records import (
    KINDS,
    Document,
    InterleavedDoc,
    Segment,
    conform,
    from_table,
    kind_of,
    to_table,
)

# The written format: every column of every kind, as "name: type" ("!" marks a non-nullable column). A change here
# changes what readers of earlier outputs meet: make it on purpose.
WRITTEN = {
    "page": [
        'id: string!', 'url: string', 'source: string!', 'fetched_at: timestamp[us, tz=UTC]',
        'training_allowed: bool', 'policy_signals: list<item: string>', 'html: large_string', 'http_status: int32',
        'content_type: string', 'charset: string', 'images_allowed: bool', 'rendered: bool', 'dropped_by: string',
        'drop_detail: string',
    ],
    "document": [
        'id: string!', 'url: string', 'source: string!', 'fetched_at: timestamp[us, tz=UTC]',
        'training_allowed: bool', 'policy_signals: list<item: string>', 'text: large_string', 'title: string',
        'lang: string', 'lang_score: float', 'lang_source: string', 'quality_score: float',
        'text_quality_score: float', 'quality_signals: list<item: string>', 'code_ratio: float',
        'pii_redacted: list<item: string>',
        'author: string', 'date: string', 'sitename: string', 'html_lang: string', 'canonical_url: string',
        'page_type: string', 'extracted_by: string', 'link_density: float', 'extract_flags: list<item: string>',
        'structured: large_string', 'dropped_by: string', 'drop_detail: string',
    ],
    "image_text": [
        'id: string!', 'url: string', 'source: string!', 'fetched_at: timestamp[us, tz=UTC]',
        'training_allowed: bool', 'policy_signals: list<item: string>', 'doc_id: string', 'image_url: string',
        'alt: string', 'caption: string', 'text: string', 'text_source: string', 'context: string', 'width: int32',
        'height: int32', 'lang: string', 'lang_score: float', 'pii_redacted: list<item: string>',
        'dropped_by: string', 'drop_detail: string',
    ],
    "interleaved": [
        'id: string!', 'url: string', 'source: string!', 'fetched_at: timestamp[us, tz=UTC]',
        'training_allowed: bool', 'policy_signals: list<item: string>', 'title: string',
        'segments: list<item: struct<kind: string not null, text: string, image_url: string, alt: string>>',
        'lang: string', 'lang_score: float', 'lang_source: string', 'quality_score: float',
        'text_quality_score: float', 'quality_signals: list<item: string>', 'code_ratio: float',
        'pii_redacted: list<item: string>', 'page_type: string', 'link_density: float',
        'dropped_by: string', 'drop_detail: string',
    ],
    "image": [
        'id: string!', 'url: string', 'source: string!', 'fetched_at: timestamp[us, tz=UTC]',
        'training_allowed: bool', 'policy_signals: list<item: string>', 'output: string', 'doc_id: string',
        'segment: int32', 'image_url: string', 'fetched_url: string', 'alt: string', 'caption: string',
        'text: string', 'text_source: string', 'http_status: int32', 'content_type: string', 'image_format: string',
        'width: int32', 'height: int32', 'original_width: int32', 'original_height: int32', 'image: large_binary',
        'sha256: string', 'phash: string', 'dhash: string', 'clip_score: float', 'dropped_by: string',
        'drop_detail: string',
    ],
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_schema_is_made_from_its_dataclass_as_written(kind):
    cls, schema = KINDS[kind]
    assert [f"{f.name}: {f.type}{'' if f.nullable else '!'}" for f in schema] == WRITTEN[kind]
    assert {f.name for f in dataclasses.fields(cls)} == set(schema.names)
    assert schema.names[:6] == list(records.COMMON_NAMES)
    assert schema.names[-2:] == list(records.TAIL_NAMES)
    assert kind_of(schema) == kind == cls.kind


def test_a_field_type_follows_its_annotation():
    @dataclasses.dataclass
    class Probe(records.Record):
        kind: typing.ClassVar[str] = "probe"
        n: int | None = None
        score: float | None = None
        names: list[str] = dataclasses.field(default_factory=list)
        parts: list[Segment] = dataclasses.field(default_factory=list)
        body: str | None = records.large_text()

    schema = records.schema_for(Probe)
    assert [str(schema.field(n).type) for n in ("n", "score", "names", "body")] == [
        "int32", "float", "list<item: string>", "large_string"]
    assert schema.field("parts").type == pa.list_(records.SEGMENT_TYPE)
    assert not records.SEGMENT_TYPE.field("kind").nullable and not schema.field("id").nullable


def test_round_trip_with_nested_segments():
    doc = InterleavedDoc(id="a", url="http://x/", source="f@1", fetched_at=datetime(2024, 1, 2, tzinfo=UTC),
                         segments=[Segment("text", text="hello"), Segment("image", image_url="http://x/i.png",
                                                                          alt="a cat")])
    table = to_table([doc], "interleaved")
    assert table.schema.equals(records.INTERLEAVED_SCHEMA, check_metadata=True)
    (back,) = from_table(table)
    assert back == doc


def test_conform_keeps_shared_columns_and_nulls_the_rest():
    page = records.Page(id="p", url="u", source="s@0", html="<p>x</p>", policy_signals=["noai"],
                        training_allowed=False, dropped_by="read.non_html")
    table = conform(to_table([page], "page"), "document")
    (doc,) = from_table(table)
    assert isinstance(doc, Document)
    assert (doc.id, doc.policy_signals, doc.training_allowed, doc.dropped_by) == ("p", ["noai"], False,
                                                                                 "read.non_html")
    assert doc.text is None


def test_kind_of_rejects_foreign_tables():
    with pytest.raises(ValueError, match="not a winnow record table"):
        kind_of(pa.table({"text": ["x"]}))
    # Without the metadata (e.g. after a shuffle) the exact schema still identifies the kind.
    assert kind_of(records.DOCUMENT_SCHEMA.remove_metadata()) == "document"
