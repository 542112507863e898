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
    python_type_to_arrow_ok,
    to_table,
)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_dataclass_and_schema_agree(kind):
    cls, schema = KINDS[kind]
    fields = dataclasses.fields(cls)
    hints = typing.get_type_hints(cls)
    assert [f.name for f in fields] == schema.names, "field order and names must match the schema"
    for f in fields:
        assert python_type_to_arrow_ok(hints[f.name], schema.field(f.name).type), (
            f"{kind}.{f.name}: {hints[f.name]} vs {schema.field(f.name).type}")
    assert schema.names[:6] == list(records.COMMON_NAMES)
    assert schema.names[-2:] == list(records.TAIL_NAMES)
    assert kind_of(schema) == kind


def test_type_check_rejects_mismatch():
    assert not python_type_to_arrow_ok(int | None, pa.string())
    assert not python_type_to_arrow_ok(list[str], pa.string())
    assert not python_type_to_arrow_ok(list[Segment], pa.list_(pa.struct([pa.field("kind", pa.string())])))


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
