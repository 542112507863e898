from types import SimpleNamespace

from pipelines.stats import summarize


def step(name, kin="document", kout=None, kinds=None):
    kinds = tuple(kinds or (kout or kin,))
    return SimpleNamespace(name=name, input_kind=kin, produces=kinds[0], produces_kinds=kinds)


def tally(inp, dropped_by, rows, kind="document", detail=None, shard=None):
    return {"kind": kind, "input": inp, "dropped_by": dropped_by, "detail": detail, "rows": rows, "shard": shard}


def test_counts_add_up_per_step_across_input_kinds():
    steps = [step("extract", "page", "document"), step("langid"), step("exact_dedup")]
    tallies = [
        tally("a.warc.gz", None, 10), tally("a.warc.gz", "read.non_html", 4),
        tally("a.warc.gz", "read.corrupt_input", 1, detail="a.warc.gz@900: truncated"),
        tally("a.warc.gz", "extract.no_text", 2), tally("a.warc.gz", "langid.low_score", 3),
        tally("b.jsonl", None, 5), tally("b.jsonl", "exact_dedup.exact_duplicate", 1),
        tally(None, None, 0, shard="text/part-w-1.parquet"),
    ]
    kinds = {"a.warc.gz": "page", "b.jsonl": "document"}
    stats = summarize(tallies, steps, kinds.__getitem__)
    by = {s["step"]: s for s in stats["steps"]}
    assert by["read"] == {"step": "read", "in": 26, "kept": 21,
                          "dropped": {"corrupt_input": 1, "non_html": 4}}
    assert by["extract"] == {"step": "extract", "in": 15, "kept": 13, "dropped": {"no_text": 2}}
    assert by["langid"]["in"] == 19 and by["langid"]["kept"] == 16  # jsonl rows join after extract
    assert by["exact_dedup"] == {"step": "exact_dedup", "in": 16, "kept": 15, "dropped": {"exact_duplicate": 1}}
    assert stats["outputs"] == {"text": {"rows": 15, "shards": 1}}
    assert stats["errors"] == ["a.warc.gz@900: truncated"]
    for s in stats["steps"]:
        assert s["in"] == s["kept"] + sum(s["dropped"].values())


def test_fan_out_step_counts_its_inputs_and_what_it_produced():
    """extract turns pages into text, image_text and interleaved rows; each lane is counted by its own steps."""
    steps = [step("policy", "page"), step("extract", "page", kinds=("document", "image_text", "interleaved")),
             step("langid"), step("alt_quality", "image_text"), step("langid_interleaved", "interleaved")]
    tallies = [
        tally("a.warc.gz", "policy.opted_out", 2), tally("a.warc.gz", "extract.no_text", 3),
        tally("a.warc.gz", None, 8), tally("a.warc.gz", "langid.low_score", 2),
        tally("a.warc.gz", None, 20, kind="image_text"), tally("a.warc.gz", "alt_quality.short_alt", 5,
                                                                 kind="image_text"),
        tally("a.warc.gz", None, 9, kind="interleaved"), tally("a.warc.gz", "langid_interleaved.low_score", 1,
                                                                 kind="interleaved"),
        tally("b.jsonl", None, 4),
    ]
    kinds = {"a.warc.gz": "page", "b.jsonl": "document"}
    stats = summarize(tallies, steps, kinds.__getitem__)
    by = {s["step"]: s for s in stats["steps"]}
    # Pages: 15 read (2 opted out, 3 without text, 10 documents); pairs and interleaved rows are not pages.
    assert by["read"]["in"] == 15 + 4
    assert by["policy"] == {"step": "policy", "in": 15, "kept": 13, "dropped": {"opted_out": 2}}
    assert by["extract"] == {"step": "extract", "in": 13, "kept": 10, "dropped": {"no_text": 3},
                             "produced": {"text": 10, "image_text": 25, "interleaved": 10}}
    assert by["langid"] == {"step": "langid", "in": 14, "kept": 12, "dropped": {"low_score": 2}}
    assert by["alt_quality"] == {"step": "alt_quality", "in": 25, "kept": 20, "dropped": {"short_alt": 5}}
    assert by["langid_interleaved"]["in"] == 10 and by["langid_interleaved"]["kept"] == 9
    assert stats["outputs"] == {"text": {"rows": 12, "shards": 0}, "image_text": {"rows": 20, "shards": 0},
                                "interleaved": {"rows": 9, "shards": 0}}
