"""StepGroup (pipelines/step.py): consecutive steps of one kind on one conversion give the rows, in the order, that
the steps give one after another; fuse() groups only what may be grouped."""

import pyarrow as pa
import pytest

from pipelines.records import Document, Page, to_table
from pipelines.step import Drop, Stage, Step, StepGroup, fuse


class DropIf(Step):
    """Drops texts containing ``word``; raises on ``boom``; marks what it keeps."""

    def __init__(self, word: str, mark: str) -> None:
        self.word = word
        self.mark = mark

    def process(self, doc):
        if doc.text == "boom":
            raise RuntimeError("bug on one record")
        if self.word in doc.text:
            raise Drop("has_word", self.word)
        doc.text += self.mark
        return doc


class Halve(Step):
    def process(self, doc):
        return [Document(id=f"{doc.id}-{i}", url=doc.url, source=doc.source, text=part)
                for i, part in enumerate(doc.text.split("|"))]


class BatchFails(Step):
    def __init__(self, fail: bool) -> None:
        self.fail = fail

    def process_batch(self, records):
        if self.fail:
            raise ValueError("model crashed")
        return records


class Loaded(Step):
    calls = 0

    def setup(self):
        type(self).calls += 1

    def process(self, doc):
        return doc


class GpuStep(Step):
    num_gpus = 1.0

    def process(self, doc):
        return doc


class ToDoc(Step):
    input_kind = "page"
    output_kind = "document"

    def process(self, page):
        return Document(id=page.id, url=page.url, source=page.source, text=page.html)


class Noop(Stage):
    def run(self, dataset):
        return dataset


def docs(*texts, dropped=None):
    return to_table([Document(id=str(i), url=f"http://h/{i}", source=f"f@{i}", text=t,
                              dropped_by=dropped if i == 0 else None) for i, t in enumerate(texts)], "document")


def bound(steps, annotate=False):
    for i, step in enumerate(steps):
        step.bind(name=f"s{i}", annotate=annotate)
    return steps


def one_after_another(steps, table):
    for step in steps:
        table = step(table)
    return table


@pytest.mark.parametrize("fail", [False, True])
@pytest.mark.parametrize("annotate", [False, True])
def test_group_gives_the_rows_of_the_steps_in_turn(annotate, fail):
    texts = ("keep", "with A", "with B", "boom", "keep|with B|x", "with C", "")
    def make():
        return bound([DropIf("A", "1"), Halve(), DropIf("B", "2"), BatchFails(fail), DropIf("C", "3")], annotate)

    table = docs(*texts, dropped="read.earlier")
    expected = one_after_another(make(), table)
    got = StepGroup(make())(table)
    assert got.schema == expected.schema
    assert got.to_pylist() == expected.to_pylist()
    # the figures the test stands on: each kind of outcome occurs
    reasons = {r["dropped_by"] for r in got.to_pylist()}
    assert {"read.earlier", "s0.has_word", "s0.error", "s2.has_word"} <= reasons
    assert ("s3.error" in reasons) == fail and ("s4.has_word" in reasons) != fail
    assert (None in reasons) != fail


def test_group_without_a_batch_failure_keeps_and_marks():
    steps = bound([DropIf("a", "1"), DropIf("b", "2")])
    got = StepGroup(steps)(docs("x", "b", "a"))
    rows = {r["id"]: (r["text"], r["dropped_by"], r["drop_detail"]) for r in got.to_pylist()}
    assert rows == {"0": ("x12", None, None), "1": (None, "s1.has_word", "b"), "2": (None, "s0.has_word", "a")}


def test_group_passes_other_kinds_and_reports_actor_needs():
    group = StepGroup(bound([DropIf("a", "1"), Loaded()]))
    pages = to_table([Page(id="1", url="u", source="s@0", html="a")], "page")
    assert group(pages) is pages
    assert group.needs_actor and not StepGroup(bound([DropIf("a", "1"), DropIf("b", "2")])).needs_actor
    before = Loaded.calls
    group.setup()
    assert Loaded.calls == before + 1
    assert group.name == "s0+s1"


def test_group_refuses_mixed_kinds():
    with pytest.raises(ValueError, match="one record kind"):
        StepGroup(bound([ToDoc(), DropIf("a", "1")]))


def test_fuse_groups_runs_of_one_kind_only():
    to_doc, a, b, gpu, c, stage, d, e = bound([ToDoc(), DropIf("a", "1"), DropIf("b", "2"), GpuStep(),
                                               DropIf("c", "3"), Noop(), DropIf("d", "4"), DropIf("e", "5")])
    units = fuse([to_doc, a, b, gpu, c, stage, d, e])
    assert units[0] is to_doc and units[2] is gpu and units[3] is c and units[4] is stage
    assert isinstance(units[1], StepGroup) and units[1].steps == [a, b]
    assert isinstance(units[5], StepGroup) and units[5].steps == [d, e]
    assert len(units) == 6


def test_fuse_groups_each_kind_across_the_steps_of_other_kinds():
    class ImageStep(DropIf):
        input_kind = "image_text"

    a, img1, img2, b = bound([DropIf("a", "1"), ImageStep("x", "y"), ImageStep("z", "w"), DropIf("b", "2")])
    units = fuse([a, img1, img2, b])
    # each kind has its own lane: the image steps between a and b do not end a's run; each group sits where its
    # first step was
    assert [u.steps for u in units] == [[a, b], [img1, img2]]


def test_fuse_ends_a_run_at_a_stage_of_its_kind():
    from pipelines.step import Stage

    class Barrier(Stage):
        input_kind = "document"

        def run(self, dataset):
            return dataset

    a, b, c = bound([DropIf("a", "1"), DropIf("b", "2"), DropIf("c", "3")])
    barrier = Barrier()
    barrier.bind("barrier")
    units = fuse([a, b, barrier, c])
    assert units[0].steps == [a, b] and units[1] is barrier and units[2] is c


def test_empty_table_through_a_group():
    group = StepGroup(bound([DropIf("a", "1"), DropIf("b", "2")]))
    out = group(docs())
    assert out.num_rows == 0 and isinstance(out, pa.Table)
