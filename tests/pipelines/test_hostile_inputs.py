"""Issue 14: no record can block or silently end a run. Surrogates, same-named inputs, config mistakes found before
any work, batch failures isolated to the record, and the error budget."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pandas as pd
import pytest

from pipelines.app.cli import main
from pipelines.config import ConfigError, load_config
from pipelines.readers import expand_inputs, input_labels
from pipelines.records import Document, to_table
from pipelines.runner import ErrorBudgetExceeded, RunOptions, run

SENTENCES = [
    "The river rose slowly through the night while the village slept behind its old stone walls.",
    "A committee of engineers reviewed the bridge design and asked for thicker steel in the main span.",
    "Fresh bread from the corner bakery sold out before nine on the first cold morning of the year.",
    "The library extended its opening hours so that students could prepare for the spring examinations.",
]


def write_config(tmp_path: Path, body: str) -> str:
    path = tmp_path / "pipeline.yaml"
    path.write_text(textwrap.dedent(body))
    return str(path)


def go(config: str, inputs: list[str], out: Path, **kw):
    return run(RunOptions(config=load_config(config), inputs=inputs, output=out, local=True, progress=False, **kw))


def texts(out: Path, kind: str = "text") -> pd.DataFrame:
    return pd.read_parquet(out / kind).sort_values("id").reset_index(drop=True)


# -- 1. lone surrogates -------------------------------------------------------------------------------------
def test_a_lone_surrogate_becomes_a_replacement_character_and_is_counted(tmp_path):
    src = tmp_path / "corpus.jsonl"
    # Raw JSON escapes: json.loads gives a str holding U+D800, which has no UTF-8 form.
    src.write_text('{"id": "a", "url": "https://example.org/\\ud800", "text": "broken \\ud800 emoji \\ud83d\\ude00 '
                   + SENTENCES[0] + '"}\n' + json.dumps({"id": "b", "text": SENTENCES[1]}) + "\n")
    config = write_config(tmp_path, "steps:\n  - use: dedup.exact.ExactDedup\n")
    stats = go(config, [str(src)], tmp_path / "out")
    df = texts(tmp_path / "out")
    assert list(df["id"]) == ["a", "b"]
    assert df["text"][0].startswith("broken \ufffd emoji \U0001F600") and df["url"][0] == "https://example.org/\ufffd"
    assert stats["metrics"]["extract_flags.surrogates_replaced"] == 1
    again = go(config, [str(src)], tmp_path / "out")  # the wave was committed: nothing blocks a re-run
    assert again["last_run"]["inputs_skipped_as_done"] == 1


def test_a_step_that_writes_a_surrogate_does_not_block_the_batch():
    table = to_table([Document(id="1", url=None, source="s@1", text="half a pair \udc00 here", title="\ud800")],
                     "document")
    assert table.column("text").to_pylist() == ["half a pair \ufffd here"]
    assert table.column("title").to_pylist() == ["\ufffd"]


# -- 4. same-named inputs ----------------------------------------------------------------------------------------
def test_labels_are_names_made_unique_by_their_folders(tmp_path):
    a, b = tmp_path / "a" / "data.jsonl", tmp_path / "b" / "deep" / "data.jsonl"
    assert input_labels([str(a), str(b)]) == {str(a): "a/data.jsonl", str(b): "deep/data.jsonl"}
    c = tmp_path / "x" / "a" / "data.jsonl"
    labels = input_labels([str(a), str(c), str(tmp_path / "y.jsonl")])
    assert labels[str(a)].endswith("/a/data.jsonl") and labels[str(c)] == "x/a/data.jsonl"
    assert labels[str(tmp_path / "y.jsonl")] == "y.jsonl"  # a name of its own stays a bare name


def test_same_named_inputs_get_their_own_ids_stats_and_dedup(tmp_path):
    for folder, lines in (("a", SENTENCES[:2]), ("b", [SENTENCES[0] + " Indeed.", SENTENCES[2]])):
        (tmp_path / "in" / folder).mkdir(parents=True)
        (tmp_path / "in" / folder / "data.jsonl").write_text("".join(json.dumps({"text": t}) + "\n" for t in lines))
    config = write_config(tmp_path, """\
        steps:
          - use: dedup.near.MinHashDedup
            with: {bands: 20, rows: 2, ngram: 3}
    """)
    stats = go(config, expand_inputs([str(tmp_path / "in")]), tmp_path / "out")
    df = pd.read_parquet(tmp_path / "out" / "text")
    assert set(stats["inputs"]) == {"a/data.jsonl", "b/data.jsonl"}
    assert all(v["records"] == 2 for v in stats["inputs"].values())
    assert df["id"].is_unique and len(df) == 3  # the near-duplicate across the two files is found
    assert {s.split("@")[0] for s in df["source"]} == {"a/data.jsonl", "b/data.jsonl"}


# -- 5. mistakes found before any work --------------------------------------------------------------------------
@pytest.mark.parametrize(("output", "message"), [
    ("max_rows_per_shard: many", "max_rows_per_shard must be a whole number"),
    ("max_rows_per_shard: -5", "max_rows_per_shard must be a whole number"),
    ("compression_level: abc", "compression_level must be a whole number from 1 to 22"),
    ("compression_level: 99", "compression_level"),
    ("max_bytes_per_shard: true", "max_bytes_per_shard"),
])
def test_wrong_output_values_are_config_errors(tmp_path, output, message):
    with pytest.raises(ConfigError, match=message):
        load_config(write_config(tmp_path, f"steps:\n  - use: dedup.exact.ExactDedup\noutput:\n  {output}\n"))


@pytest.mark.parametrize(("step", "message"), [
    ("dedup.exact.ExactDedup\n    with: {field: missing}", "field 'missing' is not a column of document"),
    ("dedup.exact.ExactDedup\n    with: {field: lang_score}", "not text"),
    ("dedup.near.MinHashDedup\n    with: {bands: 0, rows: 8}", "bands must be a whole number >= 1"),
    ("dedup.near.MinHashDedup\n    with: {bands: 14, rows: x}", "rows must be a whole number"),
    ("dedup.near.MinHashDedup\n    with: {bands: 14, rows: 8, num_perm: 64}", "fewer than bands x rows"),
    ("dedup.near.MinHashDedup\n    with: {field: nothing}", "field 'nothing'"),
])
def test_wrong_dedup_settings_are_config_errors(tmp_path, step, message):
    with pytest.raises(ConfigError, match=message):
        load_config(write_config(tmp_path, f"steps:\n  - use: {step}\n"))


def corpus(tmp_path: Path, n: int = 4, poison: int | None = None) -> str:
    src = tmp_path / "corpus.jsonl"
    lines = [{"id": f"d{i:02}", "text": f"{SENTENCES[i % 4]} Number {i}." + (" POISON" if i == poison else "")}
             for i in range(n)]
    src.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return str(src)


def test_an_output_that_is_a_file_or_cannot_be_made_is_refused_before_work(tmp_path, capsys):
    src = corpus(tmp_path)
    config = write_config(tmp_path, "steps:\n  - use: dedup.exact.ExactDedup\n")
    a_file = tmp_path / "out.txt"
    a_file.write_text("not a folder")
    with pytest.raises(ConfigError, match="is not a folder"):
        go(config, [src], a_file)
    with pytest.raises(ConfigError, match="cannot create the output folder"):
        go(config, [src], Path("/proc/winnow-cannot-be-here/out"))  # not writable, even for root
    assert main(["run", config, "--input", src, "--output", str(a_file), "--local", "--no-progress"]) == 2
    assert "is not a folder" in capsys.readouterr().err
    # A config that cannot take the inputs is refused before the output folder exists.
    pages_config = write_config(tmp_path, "steps:\n  - use: filters.langid.LanguageID\n")
    warc = tmp_path / "x.warc.gz"
    warc.write_bytes(b"")
    with pytest.raises(ConfigError, match="extract step"):
        go(pages_config, [str(warc)], tmp_path / "never")
    assert not (tmp_path / "never").exists()


def test_an_output_inside_the_input_folder_is_not_read_back(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    corpus(data)
    config = write_config(tmp_path, "steps:\n  - use: dedup.exact.ExactDedup\n")
    first = go(config, expand_inputs([str(data)]), data / "out")
    assert first["last_run"]["inputs_processed"] == 1
    second = go(config, expand_inputs([str(data)]), data / "out")  # data/ now holds out/text/*.parquet
    assert second["last_run"]["inputs_processed"] == 0
    assert set(second["inputs"]) == {"corpus.jsonl"}
    assert len(pd.read_parquet(data / "out" / "text")) == 4


# -- 6. batch failures and the error budget ---------------------------------------------------------------------------
def test_a_batch_failure_costs_only_the_bad_record(tmp_path):
    config = write_config(tmp_path, "steps:\n  - use: tests.pipelines.flaky_steps.BatchModelFailsOnPoison\n"
                                    "    name: model\n")
    stats = go(config, [corpus(tmp_path, n=30, poison=7)], tmp_path / "out", annotate=False)
    by = {s["step"]: s for s in stats["steps"]}
    assert by["model"]["kept"] == 29 and by["model"]["dropped"] == {"error": 1}
    df = texts(tmp_path / "out")
    assert len(df) == 29 and set(df["title"]) == {"seen"}


def test_a_step_failing_on_most_records_stops_the_run_uncommitted(tmp_path, capsys):
    src = corpus(tmp_path, n=30)
    config = write_config(tmp_path, "steps:\n  - use: tests.pipelines.flaky_steps.AlwaysFails\n    name: broken\n")
    out = tmp_path / "out"
    with pytest.raises(ErrorBudgetExceeded, match="step broken failed on 30 of the 30 records"):
        go(config, [src], out)
    assert not list((out / "_progress").glob("wave-*.json"))  # a re-run retries every record
    assert main(["run", config, "--input", src, "--output", str(out), "--local", "--no-progress"]) == 2
    assert "max-error-rate" in capsys.readouterr().err
    stats = go(config, [src], out, max_error_rate=1.0)  # the user accepts the losses
    assert {s["step"]: s for s in stats["steps"]}["broken"]["dropped"] == {"error": 30}


def test_a_few_errors_in_a_small_run_are_counted_not_fatal(tmp_path):
    config = write_config(tmp_path, "steps:\n  - use: tests.pipelines.flaky_steps.AlwaysFails\n    name: broken\n")
    stats = go(config, [corpus(tmp_path, n=4)], tmp_path / "out")
    assert {s["step"]: s for s in stats["steps"]}["broken"]["dropped"] == {"error": 4}


def test_a_record_arrow_refuses_costs_itself_at_reading(tmp_path, monkeypatch):
    import pipelines.readers.documents as documents
    from pipelines.readers import read_input

    def odd_rows(path, name=None):
        yield Document(id="ok1", url=None, source="f@1", text="fine")
        yield Document(id="odd", url=None, source="f@2", text="fine", lang_score="not a number")
        yield Document(id="ok2", url=None, source="f@3", text="fine")

    monkeypatch.setattr(documents, "iter_documents", odd_rows)
    src = tmp_path / "x.jsonl"
    src.write_text("")
    (table,) = read_input(str(src))
    got = {r["id"]: r for r in table.to_pylist()}
    assert got["ok1"]["dropped_by"] is None and got["ok2"]["text"] == "fine"
    assert got["odd"]["dropped_by"] == "read.bad_record" and "not a number" in got["odd"]["drop_detail"]
