from __future__ import annotations

import pickle
from datetime import UTC, datetime

import pytest

from extract.trafilatura_step import TrafilaturaExtract
from pipelines.records import DOCUMENT_SCHEMA, Document, Page, from_table, kind_of, to_table
from pipelines.step import Drop

FETCHED = datetime(2025, 3, 1, 12, 30, tzinfo=UTC)

ARTICLE = """<!DOCTYPE html>
<html lang="en"><head>
  <meta charset="utf-8">
  <title>Tide pools of the northern coast | Shore Notes</title>
  <meta property="og:title" content="Tide pools of the northern coast">
</head><body>
  <nav><ul><li><a href="/">Home</a></li><li><a href="/about">About us</a></li>
    <li><a href="/shop">Shop</a></li></ul></nav>
  <article>
    <h1>Tide pools of the northern coast</h1>
    <p>Every spring the low tides uncover rock pools full of anemones, limpets and small crabs, and
       the volunteers of the shore survey count them along the same transects as every year.</p>
    <h2>What the survey found</h2>
    <p>The number of sea stars recovered after the wasting disease of the last decade, while the
       periwinkles moved further up the shore than in any earlier survey of this stretch.</p>
    <table>
      <tr><th>Species</th><th>Count</th></tr>
      <tr><td>Ochre sea star</td><td>412</td></tr>
      <tr><td>Giant green anemone</td><td>1380</td></tr>
    </table>
    <p>The full data set is published each autumn together with the photographs of each pool, so
       that anyone can compare the transects over the years.</p>
  </article>
  <footer><p>Copyright Shore Notes. All rights reserved. Cookie settings.</p></footer>
</body></html>"""

EMPTY_BODY = "<!DOCTYPE html><html><head><title>Nothing here</title></head><body><div></div></body></html>"


def page(pid: str = "p1", html: str | None = ARTICLE, **kw: object) -> Page:
    fields: dict[str, object] = dict(
        id=pid,
        url=f"https://shore.example/{pid}",
        source=f"crawl-1.warc.gz:{len(pid)}",
        fetched_at=FETCHED,
        training_allowed=True,
        policy_signals=["robots:allow", "tdmrep:none"],
        html=html,
        http_status=200,
        content_type="text/html",
        charset="utf-8",
    )
    fields.update(kw)
    return Page(**fields)  # type: ignore[arg-type]


@pytest.fixture
def step() -> TrafilaturaExtract:
    s = TrafilaturaExtract()
    s.bind()
    s.setup()
    return s


def test_extracts_main_text_with_headings_and_table(step: TrafilaturaExtract) -> None:
    doc = step.process(page())
    assert isinstance(doc, Document)
    assert doc.title == "Tide pools of the northern coast"
    lines = doc.text.splitlines()
    assert "# Tide pools of the northern coast" in lines  # headings survive as Markdown
    assert "## What the survey found" in lines
    assert "anemones, limpets and small crabs" in doc.text
    assert "| Ochre sea star | 412 |" in doc.text
    # boilerplate stays out
    assert "About us" not in doc.text
    assert "Cookie settings" not in doc.text
    assert doc.lang is None and doc.lang_score is None


def test_copies_identity_and_policy_fields(step: TrafilaturaExtract) -> None:
    p = page("abc", training_allowed=False, policy_signals=["robots:allow", "ai-train:disallow"])
    doc = step.process(p)
    assert (doc.id, doc.url, doc.source, doc.fetched_at) == (p.id, p.url, p.source, FETCHED)
    assert doc.training_allowed is False
    assert doc.policy_signals == ["robots:allow", "ai-train:disallow"]
    assert doc.policy_signals is not p.policy_signals  # no aliasing between records


def test_include_tables_false_drops_the_table() -> None:
    doc = TrafilaturaExtract(include_tables=False).process(page())
    assert "Ochre sea star" not in doc.text
    assert "anemones" in doc.text


def test_include_comments_appends_comment_text() -> None:
    html = ARTICLE.replace(
        "</article>",
        '</article><div class="comments" id="comments"><div class="comment"><p>'
        "Lovely write-up, we saw the same anemones near the old pier last weekend.</p></div></div>",
    )
    without = TrafilaturaExtract().process(page(html=html))
    with_comments = TrafilaturaExtract(include_comments=True).process(page(html=html))
    assert "old pier" not in without.text
    assert "old pier" in with_comments.text
    assert with_comments.text.index("anemones") < with_comments.text.index("old pier")


@pytest.mark.parametrize("html", [None, "", "   \n  "])
def test_drop_no_html(step: TrafilaturaExtract, html: str | None) -> None:
    with pytest.raises(Drop) as info:
        step.process(page(html=html))
    assert info.value.reason == "no_html"


def test_drop_no_text(step: TrafilaturaExtract) -> None:
    with pytest.raises(Drop) as info:
        step.process(page(html=EMPTY_BODY))
    assert info.value.reason == "no_text"


def test_drop_too_short() -> None:
    full = TrafilaturaExtract().process(page())
    assert TrafilaturaExtract(min_chars=len(full.text)).process(page()).text == full.text
    with pytest.raises(Drop) as info:
        TrafilaturaExtract(min_chars=len(full.text) + 1).process(page())
    assert info.value.reason == "too_short"


def test_framework_call_writes_documents_and_tombstones() -> None:
    step = TrafilaturaExtract(min_chars=200)
    step.bind()
    step.setup()
    short = "<html><body><article><p>Only a short note on the tide today.</p></article></body></html>"
    pages = [
        page("good"),
        page("nohtml", html=None),
        page("empty", html=EMPTY_BODY),
        page("short", html=short),
        page("dead", dropped_by="read.not_html", drop_detail="image/png"),
    ]
    out = step(to_table(pages, "page"))

    assert kind_of(out) == "document"
    assert out.schema.equals(DOCUMENT_SCHEMA, check_metadata=True)
    rows = {r.id: r for r in from_table(out)}
    assert set(rows) == {"good", "nohtml", "empty", "short", "dead"}
    assert rows["good"].dropped_by is None
    assert rows["good"].title == "Tide pools of the northern coast"
    assert "| Giant green anemone | 1380 |" in rows["good"].text
    assert rows["nohtml"].dropped_by == "extract.no_html"
    assert rows["empty"].dropped_by == "extract.no_text"
    assert rows["short"].dropped_by == "extract.too_short"
    assert rows["dead"].dropped_by == "read.not_html"  # earlier tombstones pass through untouched
    assert rows["dead"].drop_detail == "image/png"
    for pid in ("nohtml", "empty", "short", "dead"):
        # Tombstones keep identity and policy so stats and audits can join on them, not the page.
        assert rows[pid].text is None
        assert rows[pid].url == f"https://shore.example/{pid}"
        assert rows[pid].fetched_at == FETCHED
        assert rows[pid].policy_signals == ["robots:allow", "tdmrep:none"]


def test_document_tables_pass_through_untouched() -> None:
    step = TrafilaturaExtract()
    step.bind()
    docs = to_table([Document(id="d", url=None, source="s", text="already text")], "document")
    assert step(docs) is docs


def test_step_pickles_and_is_not_an_actor() -> None:
    # __init__ only stores parameters: the step is pickled to every worker. No setup, so Ray can
    # run it as plain tasks.
    step = pickle.loads(pickle.dumps(TrafilaturaExtract(favor_precision=False, min_chars=5)))
    assert (step.favor_precision, step.include_tables, step.include_comments, step.min_chars) == (
        False,
        True,
        False,
        5,
    )
    assert not step.needs_actor


@pytest.mark.parametrize(
    ("kwargs", "arg"),
    [
        ({"min_chars": -1}, "min_chars"),
        ({"min_chars": "10"}, "min_chars"),
        ({"min_chars": 2.5}, "min_chars"),
        ({"favor_precision": "yes"}, "favor_precision"),
        ({"include_tables": 1}, "include_tables"),
        ({"include_comments": None}, "include_comments"),
    ],
)
def test_bad_arguments_fail_at_construction(kwargs: dict[str, object], arg: str) -> None:
    with pytest.raises(ValueError, match=arg):
        TrafilaturaExtract(**kwargs)  # type: ignore[arg-type]


SLOW = "<html><body><article>" + "<p>Words of a long article about tides and otters.</p>" * 40_000 + \
       "</article></body></html>"  # seconds of extraction


def test_title_is_read_like_trafilaturas_metadata_without_the_rest() -> None:
    # with_metadata=True also runs htmldate's date search and the author, site name and licence look-ups; the step
    # reads only the title, the same way (meta tags, JSON-LD, <title>), whitespace trimmed alike
    import trafilatura

    messy = ARTICLE.replace('<meta property="og:title" content="Tide pools of the northern coast">', "").replace(
        "<title>Tide pools of the northern coast | Shore Notes</title>",
        "<title>  Tide pools\u00a0of the   northern coast | Shore Notes </title>")
    jsonld = ARTICLE.replace('<meta property="og:title" content="Tide pools of the northern coast">', "").replace(
        "<title>Tide pools of the northern coast | Shore Notes</title>", "").replace(
        "</head>", '<script type="application/ld+json">{"@context": "https://schema.org", "@type": "NewsArticle", '
        '"headline": "Tide pools: the survey of 2025"}</script></head>')
    for html in (ARTICLE, messy, jsonld, EMPTY_BODY.replace("<title>Nothing here</title>", "")
                 .replace("<div></div>", "<article><h1>Only a heading</h1><p>" + "Some words here. " * 30
                          + "</p></article>")):
        full = trafilatura.bare_extraction(html, url="https://shore.example/p1", favor_precision=True,
                                           include_comments=False, include_formatting=True, with_metadata=True)
        doc = TrafilaturaExtract().process(page(html=html))
        assert doc.title == full.title
        assert doc.text == full.text.strip()
    assert TrafilaturaExtract().process(page(html=jsonld)).title == "Tide pools: the survey of 2025"


@pytest.mark.parametrize("workers", [1, 2])
def test_batch_through_the_workers_matches_in_process(workers: int) -> None:
    pages = [page("a"), page("nohtml", html=None), page("empty", html=EMPTY_BODY),
             page("b", html=ARTICLE.replace("anemones", "urchins")), page("c")]
    in_process = TrafilaturaExtract(time_limit_s=None).process_batch(pages)
    through = TrafilaturaExtract(workers=workers).process_batch(pages)
    assert [r.reason if isinstance(r, Drop) else r for r in through] == \
           [r.reason if isinstance(r, Drop) else r for r in in_process]
    assert [type(r).__name__ for r in through] == ["Document", "Drop", "Drop", "Document", "Document"]
    assert "urchins" in through[3].text


def test_timeout_costs_the_page_and_the_batch_goes_on() -> None:
    step = TrafilaturaExtract(time_limit_s=0.05, workers=1)
    out = step.process_batch([page("slow", html=SLOW), page("next")])
    assert isinstance(out[0], Drop) and (out[0].reason, out[0].detail) == ("timeout", "over 0.05s")
    assert isinstance(out[1], Document) and "anemones" in out[1].text  # answered by a fresh worker


def test_a_worker_that_dies_costs_its_page(monkeypatch: pytest.MonkeyPatch) -> None:
    import extract.trafilatura_step as module

    # a crash deep in libxml2 looks like this to the parent: the child exits without answering
    monkeypatch.setattr(module, "WORKER_TARGET", "tests.extract.deadline_target:act")
    step = TrafilaturaExtract(workers=1)
    monkeypatch.setattr(step, "_call", lambda p: ("die", 9) if p.id == "crash" else ("echo", b"abc"))
    out = step.process_batch([page("crash"), page("fine")])
    assert isinstance(out[0], Drop) and out[0].reason == "parse_error"
    # the next page is answered by a fresh worker (echo's answer is not a (text, title) pair: the step's error)
    assert isinstance(out[1], Drop) and out[1].reason == "error"


@pytest.mark.parametrize(("kwargs", "arg"), [({"time_limit_s": 0}, "time_limit_s"), ({"time_limit_s": "5"},
                                              "time_limit_s"), ({"workers": 0}, "workers")])
def test_bad_worker_settings_fail_at_construction(kwargs: dict[str, object], arg: str) -> None:
    with pytest.raises(ValueError, match=arg):
        TrafilaturaExtract(**kwargs)  # type: ignore[arg-type]
