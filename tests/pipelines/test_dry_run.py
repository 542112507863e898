"""``winnow run CONFIG --dry-run``: the resolved plan, printed without starting Ray or touching the output folder;
a config the run would refuse is refused the same way (rc 2). Offline, no ../shared."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pipelines.app.cli import main
from pipelines.app.sample import build_sample_warc
from pipelines.config import load_config
from pipelines.records import schema_of
from pipelines.runner import config_digest


@pytest.fixture(scope="module")
def warc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sample_warc(tmp_path_factory.mktemp("dry") / "site.warc.gz")


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["run", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_default_plan_lists_every_step_with_its_arguments(warc: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code, plan, _ = _run(capsys, "default", "-i", str(warc), "-o", str(out), "--dry-run")
    assert code == 0
    assert not out.exists()
    config = load_config("default")
    step_lines = re.findall(r"^ +\d+\. (\S+) +(\S+)  \[", plan.split("steps (")[1].split("stages (")[0], re.M)
    assert step_lines == [(s.name, f"{type(s).__module__}.{type(s).__name__}") for s in config.steps]
    # Arguments after defaults: what the YAML sets and what it leaves to the class.
    langid = plan.split(" langid ")[1]
    assert "min_score=0.0" in langid.splitlines()[1] and "prose_only=True" in langid.splitlines()[1]
    hosts = plan.split(" host_langid ")[1]  # domain-level language ID decides at 0.65
    assert "min_score=0.65, fallback=True" in hosts.splitlines()[1]
    assert "bands=14, rows=8" in plan and "verify=0.8" in plan and "buckets=32" in plan
    assert re.search(r"\. langid +filters\.langid\.LanguageID  \[document; actor pool", plan)
    assert re.search(r"\. extract +extract\.step\.ExtractPage  \[page -> document, image_text, interleaved; "
                     r"map, works out of process\]", plan)
    assert re.search(r"\. exact_dedup +dedup\.exact\.ExactDedup  \[document; stage: whole dataset\]", plan)
    # The stages as executed: the document filters fused into one group after the host-level language stage.
    assert "gopher_repetition+gopher_quality+c4+fineweb_quality+clear_junk+quality_model" in (
        plan.replace("\n", " ").replace("   ", " "))
    assert re.search(r"\. host_quality +\[document; stage: whole dataset\]", plan)
    assert re.search(r"\. host_langid +\[document; stage: whole dataset\]", plan)
    assert "runner:   embedded local Ray" in plan
    assert "inputs:   1 file(s) (1 to process)" in plan and f"{warc} (page)" in plan
    flat = re.sub(r"\n +", " ", plan.split("outputs:\n")[1])
    for kind, folder in (("document", "text"), ("image_text", "image_text"), ("interleaved", "interleaved")):
        assert f"{folder}/ ({kind}): {', '.join(schema_of(kind).names)}" in flat


def test_runner_is_shown_as_given(warc: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "o")
    _, plan, _ = _run(capsys, "light", "-i", str(warc), "-o", out, "--dry-run", "--local")
    assert "runner:   --local" in plan and "[document; this process, setup once]" in plan
    _, plan, _ = _run(capsys, "light", "-i", str(warc), "-o", out, "--dry-run", "--address", "ray://head:10001")
    assert "runner:   Ray cluster at --address ray://head:10001" in plan
    assert not Path(out).exists()


@pytest.mark.slow  # one of the inner loop's slowest (scripts/test.sh --fast)
def test_dry_run_starts_no_ray_and_writes_nothing(warc: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    code = ("import sys; from pipelines.app.cli import main; rc = main(sys.argv[1:]); "
            "ray = sys.modules.get('ray'); print('RAY', bool(ray and ray.is_initialized())); sys.exit(rc)")
    result = subprocess.run([sys.executable, "-c", code, "run", "default", "-i", str(warc), "-o", str(out),
                             "--dry-run"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "RAY False" in result.stdout and "steps (36):" in result.stdout
    assert not out.exists()


def test_existing_output_is_read_not_touched(warc: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    (out / "_progress").mkdir(parents=True)
    record = {"wave": "abc", "config": config_digest(load_config("light")), "inputs": [{"path": str(warc)}],
              "tally": []}
    (out / "_progress" / "wave-abc.json").write_text(json.dumps(record))
    before = sorted((p.name, p.stat().st_mtime_ns) for p in out.rglob("*"))
    code, plan, _ = _run(capsys, "light", "-i", str(warc), "-o", str(out), "--dry-run")
    assert code == 0
    assert "(1 committed wave(s); 1 input(s) done, skipped)" in plan and "(0 to process)" in plan
    assert sorted((p.name, p.stat().st_mtime_ns) for p in out.rglob("*")) == before
    # An output of another config: refused, as the run refuses it.
    code, _, err = _run(capsys, "default", "-i", str(warc), "-o", str(out), "--dry-run")
    assert code == 2 and "different pipeline config" in err


def test_bad_config_fails_as_without_dry_run(warc: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "bad.yaml"
    config.write_text("steps:\n  - use: filters.langid.LanguageID\n    with: {min_score: 2}\n")
    out = tmp_path / "out"
    results = [_run(capsys, str(config), "-i", str(warc), "-o", str(out), "--local", *extra)
               for extra in ([], ["--dry-run"])]
    assert [r[0] for r in results] == [2, 2]
    assert results[0][2] == results[1][2] and "step 1 (filters.langid.LanguageID)" in results[1][2]
    # WARC input with no extract step: refused before work by both.
    config.write_text("steps:\n  - use: dedup.exact.ExactDedup\n")
    code, _, err = _run(capsys, str(config), "-i", str(warc), "-o", str(out), "--dry-run")
    assert code == 2 and "no step turns ['page'] records into an output" in err
    afile = tmp_path / "afile"
    afile.write_text("x")
    code, _, err = _run(capsys, "light", "-i", str(warc), "-o", str(afile), "--dry-run")
    assert code == 2 and "is not a folder" in err
    code, _, err = _run(capsys, "light", "-i", str(warc), "-o", str(afile / "sub"), "--dry-run")
    assert code == 2 and "cannot write to the output folder" in err
    assert not out.exists()
