"""Configuration, routing and lifecycle of LLMExtractor (no model needed)."""

from __future__ import annotations

import pickle

import pytest

from extract.llm import LLMExtractor, LLMJob, LLMPlan


def test_defaults_are_local_and_picklable():
    ex = LLMExtractor()
    assert ex.endpoint == "local" and ex.base_url is None and ex.fallback_min_chars == 200
    ex.setup()
    ex.run([LLMJob(None, "<p>x</p>", LLMPlan("select"))])  # fills runtime state
    clone = pickle.loads(pickle.dumps(ex))
    assert clone.base_url is None and clone._client.opener is None and clone._cache.memory == {}


def test_base_url_travels_with_pickles():
    ex = LLMExtractor(endpoint="http://10.0.0.5:8000/v1/", model="qwen")
    assert ex.base_url == "http://10.0.0.5:8000"
    ex.base_url = "http://127.0.0.1:1234"  # what open_services() records for the local server
    assert pickle.loads(pickle.dumps(ex)).base_url == "http://127.0.0.1:1234"


def test_local_without_open_services_falls_back_with_a_flag():
    ex = LLMExtractor(routes=[{"domain": "a.example", "schema": "recipe"}])
    outs = ex.run([
        LLMJob("https://x.example/", "<p>text</p>", LLMPlan("select", None, "fallback")),
        LLMJob("https://a.example/", "<p>text</p>", LLMPlan("schema", "recipe", "route")),
    ])
    assert [o.flags for o in outs] == [
        ["llm_select", "llm_fallback.no_server"], ["llm_schema.recipe", "llm_fallback.no_server"]]
    assert ex.run([]) == []


def test_open_services_is_a_no_op_for_remote_endpoints():
    ex = LLMExtractor(endpoint="https://llm.internal:8443", model="m")
    with ex.open_services():
        assert ex.base_url == "https://llm.internal:8443"
    assert ex.base_url == "https://llm.internal:8443"


def test_unknown_schema_in_a_hand_made_plan_is_a_flag_not_an_exception():
    ex = LLMExtractor(endpoint="http://127.0.0.1:9", model="m")
    (out,) = ex.run([LLMJob(None, "<p>x</p>", LLMPlan("schema", "horoscope", "route"))])
    assert out.flags == ["llm_schema.horoscope", "llm_fallback.error"]


# -- routing -----------------------------------------------------------------------------------------
ROUTES = [
    {"match": r"^https?://[^/]+/recipes?/", "schema": "recipe"},
    {"domain": "shop.example", "mode": "schema", "schema": "product"},
    {"domain": "arxiv.example", "schema": "paper"},
    {"domain": "example.org", "mode": "select"},
    {"match": r"\.pdf$", "mode": "select"},
]


@pytest.mark.parametrize(("url", "chars", "expected"), [
    ("https://food.example/recipes/soup", 5000, LLMPlan("schema", "recipe", "route")),
    ("https://food.example/recipe/soup", 5000, LLMPlan("schema", "recipe", "route")),
    ("https://shop.example/item/3", 5000, LLMPlan("schema", "product", "route")),
    ("https://www.shop.example/item/3", 5000, LLMPlan("schema", "product", "route")),
    ("https://SHOP.EXAMPLE/item/3", 5000, LLMPlan("schema", "product", "route")),
    ("https://shop.example/recipes/x", 5000, LLMPlan("schema", "recipe", "route")),  # the first matching route
    ("https://arxiv.example/abs/1", 10, LLMPlan("schema", "paper", "route")),  # a route wins over the fallback
    ("https://blog.example.org/post", 5000, LLMPlan("select", None, "route")),
    ("https://files.example/doc.pdf", 5000, LLMPlan("select", None, "route")),
    ("https://notshop.example/item", 5000, None),  # a domain matches itself and its subdomains only
    ("https://news.example/a", 200, None),
    ("https://news.example/a", 199, LLMPlan("select", None, "fallback")),
    ("https://news.example/a", 0, LLMPlan("select", None, "fallback")),
    (None, 0, LLMPlan("select", None, "fallback")),
    ("not a url", 1000, None),
])
def test_plan_routes_in_config_order_then_falls_back(url, chars, expected):
    ex = LLMExtractor(routes=ROUTES)
    assert ex.plan(url, chars) == expected


def test_fallback_can_be_switched_off():
    ex = LLMExtractor(fallback_min_chars=0)
    assert ex.plan("https://news.example/a", 0) is None


# -- validation ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("kwargs", "match"), [
    ({"endpoint": "ftp://x"}, "endpoint"),
    ({"endpoint": "localhost:8000"}, "endpoint"),
    ({"endpoint": "http://x:1"}, "model is required"),
    ({"model": ""}, "model"),
    ({"timeout_s": 0}, "timeout_s"),
    ({"retries": -1}, "retries"),
    ({"retries": 1.5}, "retries"),
    ({"concurrency": 0}, "concurrency"),
    ({"fallback_min_chars": True}, "fallback_min_chars"),
    ({"cache_dir": 3}, "cache_dir"),
    ({"n_ctx": 100000}, "n_ctx"),
    ({"n_threads": 0}, "n_threads"),
    ({"response_format": "grammar"}, "response_format"),
    ({"temprature": 0.2}, "unknown llm options"),
    ({"routes": ["recipe"]}, "mapping"),
    ({"routes": [{"schema": "recipe"}]}, "exactly one of"),
    ({"routes": [{"match": "a", "domain": "b.com", "schema": "recipe"}]}, "exactly one of"),
    ({"routes": [{"match": "(", "schema": "recipe"}]}, "not a valid regex"),
    ({"routes": [{"domain": "https://x.com/", "schema": "recipe"}]}, "host name"),
    ({"routes": [{"domain": "x.com", "mode": "summarise"}]}, "mode"),
    ({"routes": [{"domain": "x.com", "mode": "schema"}]}, "needs 'schema'"),
    ({"routes": [{"domain": "x.com", "mode": "select", "schema": "recipe"}]}, "takes no schema"),
    ({"routes": [{"domain": "x.com", "schema": "horoscope"}]}, "unknown bundled schema"),
    ({"routes": [{"domain": "x.com", "schema": {"type": "object", "properties": {"a": {"oneOf": []}}}}]},
     "unsupported"),
    ({"routes": [{"domain": "x.com", "schema": {"type": "object", "properties": {"a": {}}}, "name": "Bad-Name"}]},
     "snake_case"),
    ({"routes": [{"domain": "x.com", "schema": "recipe", "when": "always"}]}, "unknown keys"),
    ({"routes": [{"domain": "b.com", "schema": "recipe"},
                 {"domain": "a.com", "schema": {"type": "object", "properties": {"a": {}}}, "name": "recipe"}]},
     "two different schemas"),
])
def test_config_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        LLMExtractor(**kwargs)


def test_inline_schemas_are_named_and_copied():
    schema = {"type": "object", "properties": {"fare": {"type": "string"}}}
    ex = LLMExtractor(routes=[{"domain": "a.com", "schema": schema}, {"domain": "b.com", "schema": schema,
                                                                      "name": "fares"}])
    assert ex.plan("https://a.com/", 1000) == LLMPlan("schema", "route0", "route")
    assert ex.plan("https://b.com/", 1000) == LLMPlan("schema", "fares", "route")
    schema["properties"].clear()
    assert ex.schemas["fares"]["properties"] == {"fare": {"type": "string"}}
