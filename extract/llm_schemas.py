"""JSON schemas for domain-specific LLM extraction, and grounding of the model's replies against the page.

Bundled schemas (routes name them: ``schema: recipe``):

The fields follow the common core of schema.org's Recipe, Product and ScholarlyArticle types, kept
small on purpose: every value must be copied from the page (it is grounded against the page text,
see ``extract/llm.py``), so fields that pages rarely state verbatim are left out. Strings are "as
written" (a price with its currency sign, a time as "15 minutes"); numbers are only used where a
page writes a bare number. An ``enum`` field is a classification, not a quote, and is exempt from
grounding.

The grounding walker in ``extract/llm.py`` understands this subset of JSON Schema: ``type``
(object, array, string, integer, number, boolean, null, or a list of them), ``properties``,
``required``, ``additionalProperties``, ``items``, ``enum``, ``const``, ``description``, ``title``,
``minimum``/``maximum``, ``minItems``/``maxItems``, ``minLength``/``maxLength``.
``check_schema`` rejects anything else with a clear error rather than letting values through unchecked.

Grounding (``ground``): a reply is walked along its schema; every string and number must occur in the
page's visible text (``is_grounded``: NFKC, case-folded, typographic quotes and dashes made plain,
whitespace collapsed, matched at word boundaries; numbers as the page writes them). Values that do not
occur are dropped and counted ``llm_ungrounded``; values of the wrong type, keys the schema does not
declare (with ``additionalProperties: false``) and enum values outside the enum are dropped and counted
``llm_off_schema``. Nulls and empty strings are dropped silently: they state nothing.
"""

from __future__ import annotations

import copy
import math
import re
import unicodedata
from collections import Counter
from typing import Any

RECIPE: dict[str, Any] = {
    "title": "recipe",
    "description": "A cooking recipe as the page states it.",
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "the recipe's name"},
        "author": {"type": "string"},
        "servings": {"type": "integer", "description": "number of servings, as a number"},
        "prep_time": {"type": "string", "description": "preparation time as written, e.g. 15 minutes"},
        "cook_time": {"type": "string", "description": "cooking time as written"},
        "ingredients": {"type": "array", "items": {"type": "string"}, "description": "one ingredient line each"},
        "steps": {"type": "array", "items": {"type": "string"}, "description": "one instruction step each"},
    },
    "required": ["name", "ingredients"],
    "additionalProperties": False,
}

PRODUCT: dict[str, Any] = {
    "title": "product",
    "description": "A product offered on a shop page.",
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "brand": {"type": "string"},
        "price": {"type": "string", "description": "price as written, with its currency sign"},
        "sku": {"type": "string"},
        "availability": {"type": "string", "enum": ["in_stock", "out_of_stock", "preorder", "unknown"]},
        "description": {"type": "string"},
        "features": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["name"],
    "additionalProperties": False,
}

PAPER: dict[str, Any] = {
    "title": "paper",
    "description": "A scholarly paper's landing or abstract page.",
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "authors": {"type": "array", "items": {"type": "string"}},
        "abstract": {"type": "string"},
        "venue": {"type": "string"},
        "year": {"type": "integer"},
        "doi": {"type": "string"},
    },
    "required": ["title"],
    "additionalProperties": False,
}

BUNDLED: dict[str, dict[str, Any]] = {"recipe": RECIPE, "product": PRODUCT, "paper": PAPER}

_TYPES = frozenset({"object", "array", "string", "integer", "number", "boolean", "null"})
_KEYWORDS = frozenset({
    "type", "properties", "required", "additionalProperties", "items", "enum", "const", "description", "title",
    "minimum", "maximum", "minItems", "maxItems", "minLength", "maxLength", "$schema",
})


def bundled_schema(name: str) -> dict[str, Any]:
    """A copy of a bundled schema by name (``recipe``, ``product``, ``paper``)."""
    try:
        return copy.deepcopy(BUNDLED[name])
    except KeyError:
        raise ValueError(f"unknown bundled schema {name!r}; bundled: {sorted(BUNDLED)}") from None


def check_schema(schema: Any, where: str = "schema") -> None:
    """Raise ``ValueError`` unless ``schema`` is an object schema in the supported subset."""
    if not isinstance(schema, dict):
        raise ValueError(f"{where} must be a JSON schema object (dict), got {type(schema).__name__}")
    if schema.get("type") != "object" or not isinstance(schema.get("properties"), dict) or not schema["properties"]:
        raise ValueError(f"{where} must have type 'object' and a non-empty 'properties' mapping")
    _check(schema, where)


def _check(schema: Any, where: str) -> None:
    if not isinstance(schema, dict):
        raise ValueError(f"{where} must be a dict, got {type(schema).__name__}")
    unknown = set(schema) - _KEYWORDS
    if unknown:
        raise ValueError(
            f"{where} uses unsupported JSON Schema keywords {sorted(unknown)}; supported: {sorted(_KEYWORDS)}"
        )
    types = schema.get("type")
    type_list = types if isinstance(types, list) else [types] if types is not None else []
    for t in type_list:
        if t not in _TYPES:
            raise ValueError(f"{where}: unknown type {t!r}; known: {sorted(_TYPES)}")
    if "enum" in schema and (not isinstance(schema["enum"], list) or not schema["enum"]):
        raise ValueError(f"{where}: enum must be a non-empty list")
    props = schema.get("properties")
    if props is not None:
        if not isinstance(props, dict):
            raise ValueError(f"{where}: properties must be a mapping")
        for key, sub in props.items():
            _check(sub, f"{where}.properties.{key}")
    required = schema.get("required")
    if required is not None and (
        not isinstance(required, list) or not all(isinstance(r, str) and r in (props or {}) for r in required)
    ):
        raise ValueError(f"{where}: required must list names of declared properties")
    addl = schema.get("additionalProperties")
    if addl is not None and not isinstance(addl, bool):
        _check(addl, f"{where}.additionalProperties")
    if "items" in schema:
        _check(schema["items"], f"{where}.items")


# -- grounding -----------------------------------------------------------------------------------
_QUOTES = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
    "\u00ad": None, "\u200b": None, "\u200c": None, "\u200d": None, "\ufeff": None,
})
_WS = re.compile(r"\s+")
_BULLET = re.compile(r"^[\s\-*\u2022\u00b7]+")


def normalize_for_grounding(text: str) -> str:
    """NFKC, case-folded, typographic quotes/dashes made plain, whitespace collapsed."""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES).casefold()
    return _WS.sub(" ", text).strip()


def _number_forms(value: int | float) -> list[str]:
    if isinstance(value, float) and not math.isfinite(value):
        return []
    forms: list[str] = []
    if float(value).is_integer():
        n = int(value)
        forms += [str(n), f"{n:,}"]
        if isinstance(value, float):
            forms.append(f"{n}.0")
    else:
        forms += [repr(float(value)), f"{value:,}"]
    return list(dict.fromkeys(forms))


def is_grounded(value: str | int | float, page_norm: str) -> bool:
    """Whether ``value`` occurs in the page text ``page_norm`` (already ``normalize_for_grounding``-ed).

    Strings must occur as a whole (case and whitespace aside) and at word boundaries, so "salt" is not
    found inside "salted" and "1" not inside "10". Numbers must occur written as themselves
    (``350``, ``1,200`` or ``1200`` for 1200; ``2.5`` for 2.5), not inside a longer number.
    """
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        for form in _number_forms(value):
            if re.search(rf"(?<![\w.,]){re.escape(form)}(?![\w]|[.,]\d)", page_norm):
                return True
        return False
    needle = normalize_for_grounding(value)
    if not needle:
        return False
    left = r"(?<!\w)" if re.match(r"\w", needle) else ""
    right = r"(?!\w)" if re.search(r"\w$", needle) else ""
    return re.search(left + re.escape(needle) + right, page_norm) is not None


DROPPED = object()


def ground(value: Any, schema: dict[str, Any], page_norm: str, counts: Counter[str]) -> Any:
    """``value`` with every ungrounded or off-schema part removed; counts go to ``counts``.

    Returns the sentinel ``DROPPED`` when nothing of ``value`` survives. Strings with an ``enum``/``const``
    are classifications and are checked against the schema instead of the page.
    """
    if value is None:
        return DROPPED  # "not stated": carries nothing, counted as nothing
    if "enum" in schema or "const" in schema:
        allowed = schema.get("enum", [schema.get("const")])
        if value in allowed and not isinstance(value, bool | dict | list):
            return value
        counts["llm_off_schema"] += 1
        return DROPPED
    types = schema.get("type")
    allowed_types = set(types if isinstance(types, list) else [types] if types else [])
    kind = _json_kind(value)
    if allowed_types and kind not in allowed_types and not (kind == "integer" and "number" in allowed_types):
        counts["llm_off_schema"] += 1
        return DROPPED
    if kind == "object":
        props = schema.get("properties", {})
        addl = schema.get("additionalProperties", True)
        out: dict[str, Any] = {}
        for key, sub_value in value.items():
            sub = props.get(key)
            if sub is None:
                if addl is False:
                    counts["llm_off_schema"] += 1
                    continue
                sub = addl if isinstance(addl, dict) else {}
            kept = ground(sub_value, sub, page_norm, counts)
            if kept is not DROPPED:
                out[key] = kept
        return out if out else DROPPED
    if kind == "array":
        item_schema = schema.get("items", {})
        kept_items = [k for v in value if (k := ground(v, item_schema, page_norm, counts)) is not DROPPED]
        return kept_items if kept_items else DROPPED
    if kind == "string":
        text = _WS.sub(" ", _BULLET.sub("", value)).strip()
        if not text:
            return DROPPED
        if is_grounded(text, page_norm):
            return text
        counts["llm_ungrounded"] += 1
        return DROPPED
    if kind in ("integer", "number"):
        if is_grounded(value, page_norm):
            return value
        counts["llm_ungrounded"] += 1
        return DROPPED
    return value  # boolean: a judgement about the page, not a quote of it


def _json_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    return "null"
