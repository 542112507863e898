"""End to end: `winnow run` on real WARCs, both runners, resumption, damaged inputs."""

from __future__ import annotations

import itertools
import json
import shutil
import textwrap
from pathlib import Path

import pandas as pd
import pytest

from pipelines.config import load_config
from pipelines.readers import expand_inputs
from pipelines.runner import RunOptions, run
from tests.conftest import step_counts


def warcs(shared_data: Path) -> list[str]:
    return expand_inputs([str(shared_data / "warc" / "iana.warc.gz"), str(shared_data / "warc" / "whirlwind.warc.gz")])


def go(inputs, out: Path, local=True, config="light", **kw):
    return run(RunOptions(config=load_config(config), inputs=inputs, output=out, local=local, progress=False, **kw))


def rows(out: Path) -> pd.DataFrame:
    return pd.read_parquet(out / "text").sort_values("id").reset_index(drop=True)


def check_stats_add_up(stats, config="light"):
    for s in stats["steps"]:
        assert s["in"] == s["kept"] + sum(s["dropped"].values()), s
    # Along each lane (steps reading the same record kind) rows only ever leave.
    kinds = {s.name: s.input_kind for s in load_config(config).steps}
    by_kind: dict = {}
    for s in stats["steps"][1:]:
        by_kind.setdefault(kinds[s["step"]], []).append(s)
    for chain in by_kind.values():
        for before, after in itertools.pairwise(chain):
            assert after["in"] <= before["kept"], (before, after)


@pytest.fixture(scope="module")
def local_out(tmp_path_factory, shared_data):
    out = tmp_path_factory.mktemp("local")
    stats = go(warcs(shared_data), out)
    return out, stats


@pytest.mark.slow  # the real-WARC run: one of the inner loop's slowest (scripts/test.sh --fast)
def test_local_run_on_real_warcs(local_out):
    out, stats = local_out
    df = rows(out)
    assert len(df) >= 10
    assert df["lang"].notna().all() and (df["lang_score"] >= 0.65).all()
    assert df["id"].is_unique
    assert set(df["lang"]) == {"en"}  # iana.org pages
    # The whirlwind page is Aragonese Wikipedia; lid.176 labels it "an" with a low score (0.25).
    assert stats["inputs"]["whirlwind.warc.gz"] == {"records": 1, "dropped": 1}
    by = {s["step"]: s for s in stats["steps"]}
    assert by["langid"]["dropped"]["low_score"] >= 1
    assert by["opt_out"]["dropped"] == {}  # these WARCs carry no verdicts: nothing to honour
    check_stats_add_up(stats)
    read = stats["steps"][0]
    assert read["dropped"]["non_html"] > 0
    assert stats["outputs"]["text"]["rows"] == len(df)
    manifest = json.loads((out / "manifest.json").read_text())
    assert [s["use"].split(".")[0] for s in manifest["config"]["steps"]] == [
        "filters", "extract", "filters", "dedup", "dedup"]  # light.yaml: two entries for two kinds each
    # One parse, three outputs that join on the page id.
    inter = pd.read_parquet(out / "interleaved")
    assert stats["outputs"]["interleaved"]["rows"] == len(inter) and set(inter["id"]) == set(df["id"])
    assert by["extract"]["produced"]["interleaved"] == by["extract"]["kept"]
    pairs = pd.read_parquet(out / "image_text")  # iana.org pages have a few content images with alt text
    assert len(pairs) == stats["outputs"]["image_text"]["rows"] > 0
    # Lanes are filtered independently (a page whose text langid drops may keep a good image pair), so a
    # pair's doc_id names its page, whose Document is in out/text only if that was kept.
    assert pairs["image_url"].str.startswith("http").all() and pairs["alt"].str.len().min() > 0
    urls = dict(zip(df["id"], df["url"], strict=True))
    assert all(urls.get(d, u) == u for d, u in zip(pairs["doc_id"], pairs["url"], strict=True))
    assert manifest["versions"]["pyarrow"] and manifest["finished_at"]
    assert len(manifest["inputs"]) == 2


@pytest.mark.slow  # the real-WARC run: one of the inner loop's slowest (scripts/test.sh --fast)
def test_second_run_adds_nothing(local_out, shared_data):
    out, first = local_out
    before = rows(out)
    shards = sorted(p.name for p in (out / "text").iterdir())
    again = go(warcs(shared_data), out)
    assert again["last_run"]["inputs_processed"] == 0 and again["last_run"]["inputs_skipped_as_done"] == 2
    assert sorted(p.name for p in (out / "text").iterdir()) == shards
    pd.testing.assert_frame_equal(rows(out), before)
    assert again["steps"] == first["steps"]


@pytest.mark.ray
@pytest.mark.slow
def test_ray_gives_identical_rows(local_out, shared_data, tmp_path, ray_local):
    out, local_stats = local_out
    stats = go(warcs(shared_data), tmp_path / "ray", local=False)
    pd.testing.assert_frame_equal(rows(tmp_path / "ray"), rows(out))
    assert step_counts(stats["steps"]) == step_counts(local_stats["steps"])
    assert stats["outputs"]["text"]["rows"] == local_stats["outputs"]["text"]["rows"]


def damaged_copy(src: Path, dst: Path, keep_fraction=0.5) -> Path:
    data = src.read_bytes()
    dst.write_bytes(data[: int(len(data) * keep_fraction)])
    return dst


@pytest.mark.parametrize("local", [True, pytest.param(False, marks=[pytest.mark.ray, pytest.mark.slow])])
def test_corrupt_warc_does_not_stop_the_others(shared_data, tmp_path, local, request):
    if not local:
        request.getfixturevalue("ray_local")
    bad = damaged_copy(shared_data / "warc" / "iana.warc.gz", tmp_path / "broken.warc.gz")
    inputs = expand_inputs([str(bad), str(shared_data / "warc" / "whirlwind.warc.gz")])
    stats = go(inputs, tmp_path / "out", local=local)
    assert stats["steps"][0]["dropped"]["corrupt_input"] == 1
    assert len(stats["errors"]) == 1 and stats["errors"][0].startswith("broken.warc.gz@")
    assert stats["inputs"]["whirlwind.warc.gz"]["records"] == 1
    assert stats["inputs"]["broken.warc.gz"]["kept"] >= 1  # records before the damage survive
    check_stats_add_up(stats)


@pytest.mark.slow  # one of the inner loop's slowest (scripts/test.sh --fast)
def test_resume_after_a_crash(shared_data, tmp_path):
    marker = tmp_path / "crash"
    marker.touch()
    config = tmp_path / "crashy.yaml"
    config.write_text(textwrap.dedent(f"""\
        steps:
          - use: extract.trafilatura_step.TrafilaturaExtract
          - use: tests.pipelines.crashing_step.CrashWhenMarked
            with: {{marker: "{marker}", on_source_prefix: "whirlwind"}}
          - use: dedup.exact.ExactDedup
        """))
    inputs = warcs(shared_data)  # sorted: iana first, whirlwind second
    out = tmp_path / "out"
    with pytest.raises(KeyboardInterrupt):
        go(inputs, out, config=str(config), wave_files=1)
    committed = list((out / "_progress").glob("wave-*.json"))
    assert len(committed) == 1  # the iana wave finished before the crash
    (out / "text" / ".part-x-y.parquet.tmp").write_bytes(b"half a file")
    (out / "text" / "part-deadbeef0000-0.parquet").write_bytes(b"shard of a wave that never committed")
    marker.unlink()
    stats = go(inputs, out, config=str(config), wave_files=1)
    assert stats["last_run"]["inputs_processed"] == 1 and stats["last_run"]["inputs_skipped_as_done"] == 1
    assert not list((out / "text").glob(".*")) and not (out / "text" / "part-deadbeef0000-0.parquet").exists()

    clean = tmp_path / "clean"
    go(inputs, clean, config=str(config), wave_files=1)
    pd.testing.assert_frame_equal(rows(out), rows(clean))


def test_documents_jsonl_input(tmp_path):
    src = tmp_path / "corpus.jsonl"
    lines = [{"id": "1", "text": "The quick brown fox jumps over the lazy dog near the river bank."},
             {"id": "2", "text": "the quick brown fox jumps over the lazy dog near the river bank"},
             {"id": "3", "text": "Le renard brun rapide saute par-dessus le chien paresseux."}]
    src.write_text("\n".join(json.dumps(x) for x in lines) + "\n{broken json\n")
    stats = go([str(src)], tmp_path / "out")
    df = rows(tmp_path / "out")
    assert list(df["id"]) == ["1", "3"] and list(df["lang"]) == ["en", "fr"]
    by = {s["step"]: s for s in stats["steps"]}
    assert by["read"]["dropped"] == {"bad_record": 1}
    assert by["extract"]["in"] == 0  # documents skip extraction
    assert by["exact_dedup"]["dropped"] == {"exact_duplicate": 1}


@pytest.mark.slow  # the real-WARC run: one of the inner loop's slowest (scripts/test.sh --fast)
def test_different_config_refuses_same_output(local_out, tmp_path, shared_data):
    out = tmp_path / "o"
    shutil.copytree(local_out[0], out)
    config = tmp_path / "other.yaml"
    config.write_text("steps:\n  - use: extract.trafilatura_step.TrafilaturaExtract\n")
    from pipelines.runner import OutputMismatchError

    with pytest.raises(OutputMismatchError):
        go(warcs(shared_data), out, config=str(config))


def test_metrics_and_stage_summaries_reach_stats(tmp_path):
    src = tmp_path / "pii.jsonl"
    src.write_text(json.dumps({"id": "1", "url": "http://a.example/x", "text": (
        "Write to jane.doe@example.com or john@example.org about the river festival next summer.")}) + "\n")
    config = tmp_path / "p.yaml"
    config.write_text("steps:\n  - use: filters.langid.LanguageID\n  - use: filters.langid_hosts.HostLanguage\n"
                      "  - use: filters.pii.RedactPII\n")
    stats = go([str(src)], tmp_path / "out", config=str(config))
    assert stats["metrics"] == {"pii_redacted.EMAIL": 2}
    assert stats["stages"]["host_langid"]["host_languages"]["a.example"]["en"]["docs"] == 1
