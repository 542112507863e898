import pyarrow as pa
import pytest

from pipelines.records import Document, Page, from_table, to_table
from pipelines.step import Drop, Step


class Upper(Step):
    def process(self, doc):
        if not doc.text:
            raise Drop("empty")
        if doc.text == "boom":
            raise RuntimeError("bug on one record")
        doc.text = doc.text.upper()
        return doc


class Split(Step):
    def process(self, doc):
        return [Document(id=f"{doc.id}-{i}", url=doc.url, source=doc.source, text=part)
                for i, part in enumerate(doc.text.split("|"))]


class Loaded(Step):
    def setup(self):
        self.model = "loaded"

    def process(self, doc):
        return doc


class ToDoc(Step):
    input_kind = "page"
    output_kind = "document"

    def process(self, page):
        if page.html == "none":
            raise Drop("no_text", "nothing in it")
        return Document(id=page.id, url=page.url, source=page.source, text=page.html,
                        policy_signals=page.policy_signals)


def docs(*texts, dropped=None):
    return to_table([Document(id=str(i), url=f"http://h/{i}", source=f"f@{i}", text=t,
                              dropped_by=dropped) for i, t in enumerate(texts)], "document")


def test_process_drop_and_errors_become_tombstones():
    step = Upper()
    step.bind()
    out = step(docs("a", "", "boom"))
    rows = {r["id"]: r for r in out.to_pylist()}
    assert rows["0"]["text"] == "A" and rows["0"]["dropped_by"] is None
    assert rows["1"]["dropped_by"] == "upper.empty"
    assert rows["2"]["dropped_by"] == "upper.error"
    assert "bug on one record" in rows["2"]["drop_detail"]
    assert out.num_rows == 3


def test_tombstones_are_thin_unless_annotating():
    step = Upper()
    step.bind(name="up")
    thin = step(docs("a", ""))
    assert thin.filter(pa.compute.equal(thin["dropped_by"], "up.empty"))["text"].to_pylist() == [None]
    step.bind(name="up", annotate=True)
    full = Upper()
    full.bind(name="up", annotate=True)
    out = full(docs("a", "", "boom"))
    boom = next(r for r in out.to_pylist() if r["id"] == "2")
    assert boom["text"] == "boom" and boom["dropped_by"] == "up.error"


def test_dead_rows_pass_through_untouched():
    step = Upper()
    step.bind()
    out = step(docs("x", dropped="earlier.reason"))
    assert out.to_pylist()[0]["text"] == "x"  # not upper-cased: the step never saw it
    assert out.to_pylist()[0]["dropped_by"] == "earlier.reason"


def test_fan_out_and_kind_change():
    step = Split()
    step.bind()
    assert [r.text for r in from_table(step(docs("a|b|c")))] == ["a", "b", "c"]
    conv = ToDoc()
    conv.bind(name="extract")
    pages = to_table([Page(id="1", url="u", source="s@0", html="hi", policy_signals=["noai"]),
                      Page(id="2", url="u2", source="s@9", html="none"),
                      Page(id="3", url="u3", source="s@20", dropped_by="read.non_html")], "page")
    out = conv(pages)
    assert out.schema.metadata[b"winnow.kind"] == b"document"
    by_id = {r["id"]: r for r in out.to_pylist()}
    assert by_id["1"]["text"] == "hi" and by_id["1"]["policy_signals"] == ["noai"]
    assert by_id["2"]["dropped_by"] == "extract.no_text" and by_id["2"]["drop_detail"] == "nothing in it"
    assert by_id["3"]["dropped_by"] == "read.non_html"


def test_other_kinds_pass_and_actor_rule():
    step = Upper()
    step.bind()
    pages = to_table([Page(id="1", url="u", source="s@0", html="x")], "page")
    assert step(pages) is pages
    assert not Upper().needs_actor
    assert Loaded().needs_actor


def test_drop_reason_must_be_snake_case():
    with pytest.raises(ValueError):
        Drop("Not Snake")


class DropsChained(Step):
    def process(self, doc):
        try:
            int(doc.text)
        except ValueError:
            raise Drop("not_a_number") from None  # chained to the ValueError all the same (__context__)
        return doc


@pytest.mark.parametrize("step", [Upper(), DropsChained()], ids=["drop", "drop_in_except"])
def test_a_caught_drop_keeps_no_frames(step):
    """A Drop kept as a record's result holds no traceback or chained exception: else its frames, and their callers'
    up to the list that holds it, make a reference cycle that keeps the whole batch alive until Python's next full
    garbage collection (issue 28: pipelines/step.py ``Drop.as_result``)."""
    import gc

    step.bind()
    table = docs("", "x")
    (dropped, *_) = step.process_batch(from_table(table))
    assert isinstance(dropped, Drop)
    assert dropped.__traceback__ is None and dropped.__context__ is None and dropped.__cause__ is None
    enabled = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        step(table)
        assert gc.collect() == 0  # nothing of the call was left in a cycle
    finally:
        if enabled:
            gc.enable()
