from __future__ import annotations

import contextlib
import json
import pickle
import sys
import types
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

import pytest

from extract.page import extract_page
from extract.step import ExtractPage
from pipelines.records import Document, ImageTextPair, InterleavedDoc, Page, from_table, kind_of, to_table
from pipelines.step import Drop

FIXTURES = Path(__file__).parent / "fixtures"
FETCHED = datetime(2025, 3, 1, 12, 30, tzinfo=UTC)
ARTICLE = (FIXTURES / "article_images.html").read_text()
TABLES = (FIXTURES / "tables.html").read_text()
EMPTY = "<!DOCTYPE html><html><head><title>Nothing</title></head><body><div></div></body></html>"


def page(pid: str = "p1", html: str | None = ARTICLE, **kw: Any) -> Page:
    fields: dict[str, Any] = dict(id=pid, url=f"https://river.example/{pid}", source=f"crawl.warc.gz:{len(pid)}",
                                  fetched_at=FETCHED, training_allowed=True, policy_signals=["robots:allow"],
                                  html=html, http_status=200, content_type="text/html", charset="utf-8")
    fields.update(kw)
    return Page(**fields)


def make(**kw: Any) -> ExtractPage:
    step = ExtractPage(**kw)
    step.bind()
    step.setup()
    return step


def test_process_returns_document_pairs_and_interleaved_of_one_page() -> None:
    out = make().process(page())
    assert [type(r).__name__ for r in out] == ["Document", "ImageTextPair", "ImageTextPair", "ImageTextPair",
                                                "InterleavedDoc"]
    doc, *pairs, inter = out
    assert doc.id == "p1" == inter.id and all(p.doc_id == "p1" for p in pairs)
    assert doc.source == "crawl.warc.gz:2" and pairs[0].fetched_at == FETCHED
    assert pairs[0].image_url == "https://river.example/img/otter-1280.jpg"


@pytest.mark.parametrize(("outputs", "kinds", "types_"), [
    (["text"], ("document",), ["Document"]),
    (["image_text"], ("image_text",), ["ImageTextPair"] * 3),
    (["interleaved", "text"], ("document", "interleaved"), ["Document", "InterleavedDoc"]),
])
def test_outputs_select_kinds(outputs: list[str], kinds: tuple[str, ...], types_: list[str]) -> None:
    step = make(outputs=outputs)
    assert step.output_kinds == kinds and step.produces_kinds == kinds
    assert [type(r).__name__ for r in step.process(page())] == types_


@pytest.mark.parametrize(("kwargs", "arg"), [
    ({"outputs": []}, "outputs"),
    ({"outputs": ["text", "text"]}, "outputs"),
    ({"outputs": ["text", "images"]}, "images"),
    ({"outputs": "text"}, "outputs"),
    ({"favor_precision": "yes"}, "favor_precision"),
    ({"fast": 1}, "fast"),
    ({"include_tables": 1}, "include_tables"),
    ({"min_chars": -1}, "min_chars"),
    ({"max_html_bytes": 0}, "max_html_bytes"),
    ({"time_limit_s": 0}, "time_limit_s"),
    ({"time_limit_s": "5"}, "time_limit_s"),
    ({"llm": "remote"}, "llm"),
    ({"llm": "ftp://models.example/v1"}, "llm"),
    ({"llm": ["local"]}, "llm"),
])
def test_bad_arguments_fail_at_construction(kwargs: dict[str, Any], arg: str) -> None:
    with pytest.raises(ValueError, match=arg):
        ExtractPage(**kwargs)


def test_drops_by_reason() -> None:
    step = make(min_chars=200, max_html_bytes=50_000, time_limit_s=5)
    deep = "<html><body>" + "<div>" * 3000 + "x" + "</div>" * 3000 + "</body></html>"
    # a real page with little text: kept by the block model, then too short for min_chars (a bare <h1> and one
    # sentence with nothing around them reads to the model like an app shell, and is dropped as no_text)
    short = ("<html><head><title>Tide note | River Log</title></head><body><header><a href='/'>River Log</a></header>"
             "<main><article><h1>Tide note</h1><p>The tide came in early today, and the harbour wall was wet by noon. "
             "The otters stayed away until dusk.</p></article></main><footer>River Log</footer></body></html>")
    pages = [page("ok"), page("nohtml", html=None), page("empty", html=EMPTY), page("2024/03/tide-note", html=short),
             page("big", html="<html><body>" + "<p>word</p>" * 10_000 + "</body></html>"),
             page("deep", html=deep), page("after", html=TABLES)]
    results = step.process_batch(pages)
    reasons = [r.reason if isinstance(r, Drop) else "kept" for r in results]
    assert reasons == ["kept", "no_html", "no_text", "too_short", "too_large", "parse_error", "kept"]
    assert results[4].detail == f"{12 + 11 * 10_000 + 14} bytes"


def test_timeout_is_a_drop_and_the_batch_continues() -> None:
    big = "<html><body><article>" + "<p>Words of a long article about tides and otters.</p>" * 40_000 + \
          "</article></body></html>"
    step = make(time_limit_s=0.05)
    results = step.process_batch([page("slow", html=big), page("next", html=TABLES)])
    assert isinstance(results[0], Drop) and results[0].reason == "timeout"
    assert isinstance(results[1], list) and "harbour office publishes the heights" in results[1][0].text


def test_noimageai_page_gives_no_pairs_and_text_only_interleaved() -> None:
    out = make().process(page(images_allowed=False))
    assert [type(r).__name__ for r in out] == ["Document", "InterleavedDoc"]
    assert all(s.kind == "text" for s in out[1].segments)
    # one flag per content image, as many as the same page gives pairs and counted skips with images allowed
    found = extract_page(ARTICLE, page().url, time_limit_s=None).content_images
    assert out[0].extract_flags.count("image_skipped.noimageai") == found >= 11


def test_step_pickles_and_runs_as_tasks_without_llm() -> None:
    step = pickle.loads(pickle.dumps(ExtractPage(outputs=["text", "interleaved"], min_chars=5, time_limit_s=7)))
    assert (step.outputs, step.options.min_chars, step.options.time_limit_s, step.output_kinds) == (
        ["text", "interleaved"], 5, 7.0, ("document", "interleaved"))
    assert not step.needs_actor
    with step.open_services():
        pass


# -- the LLM hook, against the contract of extract/llm.py, with a stand-in module -------------------------
@dataclass
class FakePlan:
    mode: str
    schema_name: str | None
    reason: str


@dataclass
class FakeJob:
    url: str | None
    html: str
    plan: FakePlan


@dataclass
class FakeOutcome:
    text: str | None
    structured: dict | None
    flags: list[str] = field(default_factory=list)


class FakeLLMExtractor:
    """Routes /recipe pages to schema mode, gives every short page the select fallback."""

    instances: ClassVar[list[FakeLLMExtractor]] = []

    def __init__(self, endpoint: str = "local", fallback_min_chars: int = 200, **more: Any) -> None:
        if endpoint not in ("local", "http://127.0.0.1:9"):
            raise ValueError(f"bad endpoint {endpoint!r}")
        self.endpoint = endpoint
        self.fallback_min_chars = fallback_min_chars
        self.calls: list[list[FakeJob]] = []
        self.set_up = False
        self.services_open = False
        FakeLLMExtractor.instances.append(self)

    @contextlib.contextmanager
    def open_services(self) -> Any:
        self.services_open = True
        yield
        self.services_open = False

    def setup(self) -> None:
        self.set_up = True

    def plan(self, url: str | None, rule_text_chars: int) -> FakePlan | None:
        if url and "/recipe" in url:
            return FakePlan("schema", "recipe", "route")
        if rule_text_chars < self.fallback_min_chars:
            return FakePlan("select", None, "fallback")
        return None

    def run(self, jobs: list[FakeJob]) -> list[FakeOutcome]:
        self.calls.append(jobs)
        out = []
        for job in jobs:
            if job.plan.mode == "schema":
                out.append(FakeOutcome(None, {"name": "Otter pie", "servings": 4}, ["llm_schema.recipe",
                                                                                    "llm_ungrounded"]))
            elif "fail" in (job.url or ""):
                out.append(FakeOutcome(None, None, ["llm_fallback.timeout"]))
            else:
                out.append(FakeOutcome("Selected first paragraph.\n\nSelected second paragraph.", None,
                                       ["llm_select"]))
        return out


@pytest.fixture
def fake_llm(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    module = types.ModuleType("extract.llm")
    module.LLMExtractor = FakeLLMExtractor  # type: ignore[attr-defined]
    module.LLMJob = FakeJob  # type: ignore[attr-defined]
    module.LLMPlan = FakePlan  # type: ignore[attr-defined]
    module.LLMOutcome = FakeOutcome  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "extract.llm", module)
    FakeLLMExtractor.instances.clear()
    return module


def test_llm_config_errors_surface_at_construction(fake_llm: types.ModuleType) -> None:
    with pytest.raises(ValueError, match="endpoint"):
        ExtractPage(llm={"endpoint": "ftp://nowhere"})
    step = ExtractPage(llm={"endpoint": "local", "fallback_min_chars": 50})
    assert step.needs_actor
    (llm,) = FakeLLMExtractor.instances
    with step.open_services():
        assert llm.services_open
    step.setup()
    assert llm.set_up


@pytest.mark.parametrize(("shorthand", "endpoint"), [
    ("local", "local"),
    ("http://127.0.0.1:9", "http://127.0.0.1:9"),
    (" http://127.0.0.1:9 ", "http://127.0.0.1:9"),
])
def test_llm_shorthand_strings_name_the_endpoint(fake_llm: types.ModuleType, shorthand: str, endpoint: str) -> None:
    step = ExtractPage(llm=shorthand)
    assert step.llm == {"endpoint": endpoint}
    (llm,) = FakeLLMExtractor.instances
    assert llm.endpoint == endpoint and llm.fallback_min_chars == 200  # the extractor's own defaults
    assert step.needs_actor
    assert ExtractPage.default_name == step.default_name == "extract"


def test_llm_outcomes_are_applied_per_page(fake_llm: types.ModuleType) -> None:
    step = make(llm={"endpoint": "local", "fallback_min_chars": 100}, min_chars=10)
    short = ("<html><head><title>Tide note</title></head><body><main><article><h1>Tide note</h1><p>The tide came in "
             "early today, and the harbour wall was wet by noon.</p></article></main></body></html>")
    pages = [
        page("article"),  # long: no plan
        page("recipe/otter-pie"),  # routed: schema
        page("short", html=short),  # short text: fallback select replaces the text
        page("empty", html=EMPTY),  # no_text: rescued by the fallback
        page("emptyfail", html=EMPTY),  # no_text and the LLM fails: stays dropped
        page("nohtml", html=None),  # never sent
    ]
    results = step.process_batch(pages)
    (llm,) = FakeLLMExtractor.instances
    assert len(llm.calls) == 1  # one run() for the batch
    assert [j.url.rsplit("/", 1)[-1] for j in llm.calls[0]] == ["otter-pie", "short", "empty", "emptyfail"]
    assert llm.calls[0][1].html == short

    article, recipe, short_out, empty_out, failed, nohtml = results
    assert article[0].extracted_by == "winnow" and article[0].structured is None

    doc = recipe[0]
    assert doc.extracted_by == "winnow" and "Eurasian otters have been recorded" in doc.text  # schema mode keeps text
    assert json.loads(doc.structured) == {"name": "Otter pie", "servings": 4}
    assert doc.extract_flags[-2:] == ["llm_schema.recipe", "llm_ungrounded"]

    doc = short_out[0]
    assert doc.text == "Selected first paragraph.\n\nSelected second paragraph." and doc.extracted_by == "llm_select"
    assert doc.extract_flags == ["llm_select"]

    doc, inter = empty_out[0], empty_out[-1]
    assert isinstance(doc, Document) and isinstance(inter, InterleavedDoc)
    assert (doc.id, doc.source, doc.extracted_by) == ("empty", "crawl.warc.gz:5", "llm_select")
    assert [s.text for s in inter.segments] == ["Selected first paragraph.", "Selected second paragraph."]

    assert isinstance(failed, Drop) and failed.reason == "no_text"
    assert isinstance(nohtml, Drop) and nohtml.reason == "no_html"


def test_llm_failure_keeps_the_rule_based_text(fake_llm: types.ModuleType) -> None:
    step = make(llm={"endpoint": "local", "fallback_min_chars": 10_000})
    (result,) = step.process_batch([page("fail")])
    doc = result[0]
    assert doc.extracted_by == "winnow" and "Eurasian otters have been recorded" in doc.text
    assert doc.extract_flags[-1] == "llm_fallback.timeout"


# -- through the framework ------------------------------------------------------------------------------
def test_framework_call_one_output_kind_writes_documents_and_tombstones() -> None:
    step = make(outputs=["text"])
    out = step(to_table([page("good"), page("empty", html=EMPTY),
                         page("dead", dropped_by="read.not_html", drop_detail="image/png")], "page"))
    assert kind_of(out) == "document"
    rows = {r.id: r for r in from_table(out)}
    assert rows["good"].dropped_by is None and rows["good"].canonical_url == \
        "https://river.example/nature/otters-return"
    assert rows["empty"].dropped_by == "extract.no_text" and rows["empty"].text is None
    assert rows["dead"].dropped_by == "read.not_html"


def test_framework_call_three_kinds_gives_a_table_per_kind() -> None:
    """Through ``Step.__call__`` with several output kinds (the committer's bundle tables, pipelines/records.py).

    Written against the multi-kind framework being added in pipelines/; adapt if its API differs.
    """
    from pipelines.records import unbundle

    step = make()
    out = step(to_table([page("good"), page("empty", html=EMPTY), page("tides", html=TABLES)], "page"))
    docs = {r.id: r for r in from_table(unbundle(out, "document"))}
    pairs = from_table(unbundle(out, "image_text"))
    inter = {r.id: r for r in from_table(unbundle(out, "interleaved"))}
    assert docs["empty"].dropped_by == "extract.no_text"  # the tombstone lands in the first kind
    assert docs["good"].dropped_by is None and docs["tides"].dropped_by is None
    assert all(isinstance(p, ImageTextPair) for p in pairs)
    assert [p.image_url.rsplit("/", 1)[-1] for p in pairs] == ["otter-1280.jpg", "trap-setup.jpg", "weir-2x.webp"]
    assert set(inter) == {"good", "tides"}
    assert [s.kind for s in inter["good"].segments].count("image") == 5


def test_one_options_object_for_the_function_and_the_step(tmp_path) -> None:
    from extract.options import PageOptions
    from pipelines.config import ConfigError, load_config

    step = ExtractPage(selector="trafilatura", favor_precision=True, min_chars=3)
    assert step.options == PageOptions(selector="trafilatura", favor_precision=True, min_chars=3)
    assert PageOptions.of(step.options, min_chars=0) == PageOptions(selector="trafilatura", favor_precision=True,
                                                                   min_chars=0)
    with pytest.raises(ValueError, match=r"unknown extraction option\(s\) \['selectr'\]; the options are \['selector'"):
        ExtractPage(selectr="model")
    with pytest.raises(ValueError, match=r"favor_precision .* selector: trafilatura only"):
        extract_page(ARTICLE, "https://example.org/a", favor_precision=True)
    config = tmp_path / "c.yaml"
    config.write_text("steps:\n  - use: extract.step.ExtractPage\n    with: {time_limit_s: -1}\n")
    with pytest.raises(ConfigError, match=r"step 1 .*time_limit_s"):
        load_config(str(config))
