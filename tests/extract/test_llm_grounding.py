from __future__ import annotations

from collections import Counter

import pytest

from extract.llm_schemas import (
    DROPPED,
    RECIPE,
    bundled_schema,
    check_schema,
    ground,
    is_grounded,
    normalize_for_grounding,
)

PAGE = normalize_for_grounding(
    "Lemon Barley Soup\nServes 4 \u2014 ready in 1,200 seconds.\n150 g pearl barley; \u201cfresh\u201d lemon "
    "juice. Salted butter 2.5 tbsp. Price: $12.99"
)


def test_normalisation():
    assert normalize_for_grounding("  A\u00a0 B\n\tC\u2019s \u201cq\u201d \u2013 \uff21 ") == "a b c's \"q\" - a"


@pytest.mark.parametrize("value", [
    "lemon barley soup", "LEMON   BARLEY\nSOUP", '"fresh" lemon juice', "\u201cfresh\u201d lemon", "$12.99",
    "Serves 4 - ready", "150 g pearl barley;",
])
def test_grounded_strings(value):
    assert is_grounded(value, PAGE)


@pytest.mark.parametrize("value", ["salt", "barley soups", "lemon cake", "", "   ", "12.9", "ready in 1,20"])
def test_ungrounded_strings(value):
    assert not is_grounded(value, PAGE)


@pytest.mark.parametrize(("value", "ok"), [
    (4, True), (1200, True), (1200.0, True), (2.5, True), (12.99, True), (150, True),
    (1, False), (20, False), (99, False), (2, False), (5, False), (float("nan"), False), (True, False),
])
def test_numbers_must_appear_as_written(value, ok):
    assert is_grounded(value, PAGE) is ok


def test_ground_drops_and_counts_per_value():
    counts: Counter[str] = Counter()
    reply = {
        "name": "Lemon barley soup",
        "servings": 6,  # page says 4
        "ingredients": ["- 150 g pearl barley", "2 eggs", None, ""],
        "steps": "not a list",
        "author": None,
        "extra": "x",
    }
    kept = ground(reply, RECIPE, PAGE, counts)
    assert kept == {"name": "Lemon barley soup", "ingredients": ["150 g pearl barley"]}
    assert counts == Counter({"llm_ungrounded": 2, "llm_off_schema": 2})


def test_ground_enum_booleans_nested_and_untyped():
    schema = {
        "type": "object",
        "properties": {
            "availability": {"type": "string", "enum": ["in_stock", "out_of_stock"]},
            "vegan": {"type": "boolean"},
            "price": {"type": ["string", "null"]},
            "meta": {"type": "object", "properties": {"size": {"type": "number"}}},
            "any": {},
        },
    }
    counts: Counter[str] = Counter()
    reply = {"availability": "in_stock", "vegan": False, "price": "$12.99", "meta": {"size": 2.5}, "any": "salt"}
    assert ground(reply, schema, PAGE, counts) == {
        "availability": "in_stock", "vegan": False, "price": "$12.99", "meta": {"size": 2.5}}
    assert counts == Counter({"llm_ungrounded": 1})
    counts.clear()
    assert ground({"availability": "sold"}, schema, PAGE, counts) is DROPPED
    assert counts == Counter({"llm_off_schema": 1})


def test_bundled_schemas_are_valid_and_copied():
    for name in ("recipe", "product", "paper"):
        schema = bundled_schema(name)
        check_schema(schema)
        schema["properties"].clear()
        assert bundled_schema(name)["properties"]  # the bundled one is untouched
    with pytest.raises(ValueError, match="unknown bundled schema"):
        bundled_schema("horoscope")


@pytest.mark.parametrize(("schema", "match"), [
    ([], "must be a JSON schema object"),
    ({"type": "array", "items": {}}, "type 'object'"),
    ({"type": "object", "properties": {}}, "non-empty 'properties'"),
    ({"type": "object", "properties": {"a": {"$ref": "#/x"}}}, "unsupported JSON Schema keywords"),
    ({"type": "object", "properties": {"a": {"anyOf": []}}}, "unsupported"),
    ({"type": "object", "properties": {"a": {"type": "text"}}}, "unknown type"),
    ({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]}, "required"),
    ({"type": "object", "properties": {"a": {"type": "string", "enum": []}}}, "enum"),
])
def test_check_schema_errors(schema, match):
    with pytest.raises(ValueError, match=match):
        check_schema(schema)
