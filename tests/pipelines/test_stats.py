from types import SimpleNamespace

from pipelines.stats import summarize


def step(name, kin="document", kout=None):
    return SimpleNamespace(name=name, input_kind=kin, produces=kout or kin)


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
