"""``winnow inspect``: the figures it prints are the data's, damaged files and wrong options are one clear line
(rc 2), an unfinished run is flagged, and a crawl folder is summarised. Offline, no ../shared."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from pipelines.app.cli import main
from pipelines.app.sample import build_sample_warc
from pipelines.records import Document, to_table
from pipelines.writer import ShardWriter

WINNOW = str(Path(sys.executable).parent / "winnow")


@pytest.fixture(scope="module")
def run_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled light chain, --local, on the demo-site WARC and a JSONL with one line that is not JSON: all three
    outputs, a funnel with drops, and a read skip."""
    tmp = tmp_path_factory.mktemp("inspect")
    warc = build_sample_warc(tmp / "site.warc.gz")
    docs = tmp / "docs.jsonl"
    docs.write_text(json.dumps({"id": "a", "url": "http://b.test/1", "text": "Bread needs flour, water, salt and "
                                "time to rise properly in a warm kitchen."}) + "\nnot json\n")
    out = tmp / "out"
    assert main(["run", "light", "-i", str(warc), str(docs), "-o", str(out), "--local", "--no-progress"]) == 0
    return out


def _inspect(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["inspect", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _field(text: str, label: str) -> str:
    """The value printed after ``label:`` (the first such line)."""
    match = re.search(rf"^  {re.escape(label)}:\s+(.*)$", text, re.M)
    assert match, f"no {label!r} line in:\n{text}"
    return match.group(1)


def _counts(line: str) -> dict[str, int]:
    return {k: int(v) for k, v in (item.split("=") for item in line.split(", "))}


def test_output_folder_figures_match_the_data(run_out: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _inspect(capsys, str(run_out), "-n", "0")
    assert code == 0
    text = pd.read_parquet(run_out / "text")
    block = out.split(f"== {run_out / 'text'}")[1].split("\n== ")[0]
    assert f"({len(list((run_out / 'text').glob('*.parquet')))} shard(s), {len(text)} rows, kind: document)" in block
    assert _counts(_field(block, "lang")) == text["lang"].value_counts().to_dict()
    assert _counts(_field(block, "page_type")) == {
        ("null" if pd.isna(k) else k): v for k, v in text["page_type"].value_counts(dropna=False).items()}
    hosts = text["url"].str.extract(r"^https?://([^/:]+)")[0].value_counts().to_dict()
    assert _counts(_field(block, f"hosts ({len(hosts)})")) == hosts
    # The light chain has no quality model: the column is there, and all null.
    assert _field(block, "quality_score").startswith("all null")
    assert _field(block, "training_allowed") == f"true 0 (0.0%), false 0 (0.0%), null {len(text)} (100.0%)"
    # Each output folder gets its own block; image_text has no page_type or quality_score column, so no such line.
    pairs = out.split(f"== {run_out / 'image_text'}")[1].split("\n== ")[0]
    assert "page_type:" not in pairs and "quality_score:" not in pairs and "distinct images" in pairs
    assert f"== {run_out / 'interleaved'}" in out
    assert "sample rows" not in out and "incomplete" not in out


def test_funnel_and_read_skips_come_from_stats_json(run_out: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stats = json.loads((run_out / "stats.json").read_text())
    _, out, _ = _inspect(capsys, str(run_out), "-n", "0")
    for step in stats["steps"]:
        dropped = ", ".join(f"{k}={v}" for k, v in step["dropped"].items()) or "-"
        row = re.search(rf"^  {step['step']}\s+{step['in']}\s+{step['kept']}\s+\S+\s+(.*)$", out, re.M)
        assert row and row.group(1).startswith(dropped), step
    read = stats["steps"][0]["dropped"]
    assert read["bad_record"] == 1  # the JSONL line that is not JSON
    assert "read skipped: " + ", ".join(f"{k}={v}" for k, v in read.items()) in out
    assert "-> text " in out  # what the fan-out step made


def test_quantiles_shares_and_hosts_of_known_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scores = [0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, None]
    allowed = [True, True, True, True, True, False, False, None]
    urls = ["http://a.test/1", "http://a.test/2", "https://a.test:8443/3", "http://a.test/4", "http://a.test/5",
            "http://b.test/1", "http://b.test/2", "http://[::1"]  # the last has no host that parses
    docs = [Document(id=str(i), url=u, source=f"x@{i}", text="t", lang="en" if i % 2 else "de", quality_score=s,
                     training_allowed=a, page_type="forum" if i < 3 else "article")
            for i, (s, a, u) in enumerate(zip(scores, allowed, urls, strict=True))]
    ShardWriter(str(tmp_path), "w1")(to_table(docs, "document"))
    code, out, _ = _inspect(capsys, str(tmp_path / "text"), "--sample", "2")
    assert code == 0
    assert "1 shard(s), 8 rows, kind: document" in out
    # Nearest-rank quantiles of the 7 non-null scores.
    assert _field(out, "quality_score") == ("n=7  min 0.125  p10 0.250  p25 0.375  p50 0.500  p75 0.750  p90 0.750  "
                                            "max 0.875")
    assert _field(out, "training_allowed") == "true 5 (62.5%), false 2 (25.0%), null 1 (12.5%)"
    assert _counts(_field(out, "hosts (2)")) == {"a.test": 5, "b.test": 2, "null": 1}
    assert _counts(_field(out, "page_type")) == {"article": 5, "forum": 3}
    assert _counts(_field(out, "lang")) == {"de": 4, "en": 4}
    assert out.split("sample rows:\n")[1].count("\n") == 2  # --sample is -n/--samples


def test_where_narrows_figures_and_samples(run_out: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = pd.read_parquet(run_out / "text")
    german = text[text["lang"] == "de"]
    code, out, _ = _inspect(capsys, str(run_out / "text"), "--where", "lang == 'de'", "-n", "10",
                            "--columns", "id,lang")
    assert code == 0
    assert f"{len(text)} rows, kind: document; {len(german)} match --where" in out
    assert _field(out, "lang") == f"de={len(german)}"
    samples = [json.loads(line) for line in out.split("sample rows:\n")[1].splitlines()]
    assert samples == [{"id": i, "lang": "de"} for i in german["id"]]


def test_where_on_a_column_one_output_lacks_skips_that_output(run_out: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _inspect(capsys, str(run_out), "--where", "page_type == 'article'", "-n", "0")
    assert code == 0
    assert re.search(r"== .*image_text  \(skipped: --where: .*page_type", out)
    assert "match --where" in out


@pytest.mark.parametrize(("args", "message"), [
    (["--where", "lang =="], "--where 'lang ==': SyntaxError"),
    (["--where", "lang"], "not a condition"),
    (["--where", "nope > 1"], "'nope' is not defined"),
    (["--columns", "id,nope"], "unknown column(s) ['nope']"),
])
def test_bad_where_or_columns_is_one_line_rc_2(run_out: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                               message: str) -> None:
    for path in (run_out / "text", run_out):
        code, out, err = _inspect(capsys, str(path), *args)
        assert code == 2, (path, out)
        assert message in err and err.count("\n") == 1 and "Traceback" not in err
        assert "funnel" not in out  # checked before anything is printed


def test_damaged_files_are_one_line_rc_2(run_out: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shard = next((run_out / "text").glob("part-*.parquet"))
    truncated = tmp_path / "truncated.parquet"
    truncated.write_bytes(shard.read_bytes()[: shard.stat().st_size // 2])
    not_parquet = tmp_path / "notes.parquet"
    not_parquet.write_text("these are notes, not a table\n")
    for bad in (truncated, not_parquet):
        code, _, err = _inspect(capsys, str(bad))
        assert code == 2
        assert err.startswith(f"winnow inspect: {bad}: not a readable Parquet file (") and err.count("\n") == 1
    # A damaged shard inside a whole output folder, through the console script: no traceback either.
    copy = tmp_path / "out"
    shutil.copytree(run_out, copy)
    (copy / "text" / shard.name).write_bytes(truncated.read_bytes())
    result = subprocess.run([WINNOW, "inspect", str(copy)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert "not a readable Parquet file" in result.stderr and "Traceback" not in result.stderr


def test_unfinished_run_is_flagged(run_out: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    shutil.copytree(run_out, out)
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["finished_at"] = None  # what the runner writes at the start of a run
    (out / "manifest.json").write_text(json.dumps(manifest))
    shard = next((out / "text").glob("part-*.parquet"))
    shutil.copy(shard, out / "text" / "part-0123456789ab-0000000000000000.parquet")  # a wave with no commit record
    for record in (out / "_progress").glob("wave-*.json"):
        record.unlink()
    code, text, _ = _inspect(capsys, str(out), "-n", "0")
    assert code == 0
    warnings = [line for line in text.splitlines() if line.startswith("warning: incomplete run:")]
    assert any("no finished_at" in w for w in warnings)
    assert any("2 of 2 input(s) in no committed wave" in w for w in warnings)
    assert any("4 shard(s) of uncommitted wave(s)" in w for w in warnings)  # 3 outputs + the stray one


def test_crawl_folder_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stats = {"finish_reason": "finished", "start_time": "2026-01-01T00:00:00", "sessions": 2,
             "winnow/pages": 40, "winnow/hosts": 3, "winnow/pages_failed": 1, "winnow/warc/files": 2,
             "winnow/verdict/training_allowed": 30, "winnow/verdict/training_denied": 10,
             "winnow/links_skipped/nofollow": 4, "winnow/links_skipped/extension": 7, "winnow/gate/offsite": 12,
             "winnow/skipped/non_html": 2, "winnow/skipped/status_404": 1, "winnow/robots/disallowed": 5,
             "winnow/links_already_queued": 9, "downloader/request_count": 60}
    (tmp_path / "crawl-stats.json").write_text(json.dumps(stats))
    (tmp_path / "winnow-1-00001.warc.gz").write_bytes(b"")
    (tmp_path / "worker-1").mkdir()  # a --workers crawl keeps each worker's files in its own folder
    (tmp_path / "worker-1" / "winnow-2-00001.warc.gz").write_bytes(b"")
    (tmp_path / ".crawl").mkdir()
    (tmp_path / ".crawl" / "stale.warc.gz").write_bytes(b"")  # crawl state, not output
    code, out, _ = _inspect(capsys, str(tmp_path))
    assert code == 0
    assert out.startswith(f"crawl {tmp_path}: 2 session(s), finish: finished")
    assert _field(out, "size") == "pages 40, hosts 3, failed 1, WARC files 2 (2 on disk)"
    assert _field(out, "training") == "allowed 30, denied 10 (75.0% allowed)"
    assert _field(out, "links skipped") == "extension=7, nofollow=4"
    assert _field(out, "gate refused") == "offsite=12"
    assert _field(out, "skipped") == "non_html=2, status_404=1"
    assert _field(out, "robots") == "disallowed=5"
    assert _field(out, "already queued") == "9"
    # The file itself works too; a damaged one is one line, rc 2.
    assert _inspect(capsys, str(tmp_path / "crawl-stats.json"))[1] == out
    (tmp_path / "crawl-stats.json").write_text("{not json")
    code, _, err = _inspect(capsys, str(tmp_path))
    assert code == 2 and "crawl-stats.json: not readable JSON" in err


def test_images_folder_summary_and_bytes_not_printed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pipelines.records import ImageRecord

    blob = b"\x89PNG" + bytes(5000)
    rows = [ImageRecord(id=f"p{i}", url="http://a.test/", source=f"s@{i}", image=blob, sha256="ab" if i < 2 else "cd",
                        image_format="PNG" if i else "JPEG", original_width=400 + i, original_height=300,
                        clip_score=None if i == 3 else 0.25 + i / 10)
            for i in range(4)]
    ShardWriter(str(tmp_path), "w1")(to_table(rows, "image"))
    code, out, _ = _inspect(capsys, str(tmp_path / "images"), "--sample", "1")
    assert code == 0
    assert "4 rows, kind: image" in out
    assert "images: 2 distinct (sha256) of 4; formats PNG=3, JPEG=1; shorter side as fetched: median 300 px" in out
    assert "clip_score: n=3  min 0.250  p10 0.250  p25 0.350  p50 0.350" in out
    assert "<5,004 bytes>" in out and "\\x00" not in out
