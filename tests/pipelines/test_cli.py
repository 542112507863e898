import json
import subprocess
import sys
from pathlib import Path

import pytest

from pipelines.app.cli import main

WINNOW = str(Path(sys.executable).parent / "winnow")


@pytest.mark.parametrize("args", [["--help"], ["run", "--help"], ["inspect", "--help"]])
def test_console_script_help(args):
    result = subprocess.run([WINNOW, *args], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "usage: winnow" in result.stdout


def test_wrong_config_fails_before_work(tmp_path, capsys):
    config = tmp_path / "bad.yaml"
    config.write_text("steps:\n  - use: filters.langid.LanguageID\n    with: {min_score: 2}\n")
    src = tmp_path / "x.jsonl"
    src.write_text('{"text": "hello"}\n')
    out = tmp_path / "out"
    assert main(["run", str(config), "--input", str(src), "--output", str(out), "--local"]) == 2
    err = capsys.readouterr().err
    assert "step 1 (filters.langid.LanguageID)" in err and "min_score" in err
    assert not out.exists()


def test_missing_input_is_named(tmp_path, capsys):
    code = main(["run", "default", "--input", str(tmp_path / "nope.warc.gz"), "--output", str(tmp_path / "o"),
                 "--local"])
    assert code == 2
    assert "nope.warc.gz" in capsys.readouterr().err


def test_run_then_inspect(tmp_path, capsys):
    src = tmp_path / "c.jsonl"
    src.write_text("\n".join(json.dumps({"id": str(i), "text": t, "url": f"http://e.test/{i}"}) for i, t in enumerate(
        ["Bread needs flour, water, salt and time to rise properly in a warm kitchen.",
         "Das Brot braucht Mehl, Wasser, Salz und Zeit, um in einer warmen Küche aufzugehen."])) + "\n")
    out = tmp_path / "out"
    # The light chain: two one-sentence texts are what this test inspects, and the default's quality model would
    # (rightly) not keep a page of one sentence.
    assert main(["run", "light", "-i", str(src), "-o", str(out), "--local", "--no-progress"]) == 0
    summary = capsys.readouterr().out
    assert "out/text: 2 rows" in summary
    assert main(["inspect", str(out / "text")]) == 0
    shown = capsys.readouterr().out
    assert "2 rows, kind: document" in shown and "lang: " in shown and "de=1" in shown and "en=1" in shown
    shard = next((out / "text").glob("part-*.parquet"))
    assert main(["inspect", str(shard), "-n", "1"]) == 0
    assert "1 shard(s), 2 rows" in capsys.readouterr().out
    assert main(["inspect", str(out)]) == 0
    assert main(["inspect", str(tmp_path / "missing")]) == 2


@pytest.mark.parametrize(("command", "option", "value", "message"), [
    ("run", "--wave-files", "0", "--wave-files must be at least 1"),
    ("run", "--max-error-rate", "1.5", "--max-error-rate must be between 0 and 1"),
    ("run", "--filter-workers", "0", "--filter-workers must be at least 1"),
    ("submit", "--wave-files", "0", "--wave-files must be at least 1"),
    ("submit", "--max-error-rate", "-1", "--max-error-rate must be between 0 and 1"),
])
def test_run_and_submit_refuse_bad_run_options(tmp_path, capsys, command, option, value, message):
    inp = tmp_path / "in.jsonl"
    inp.write_text('{"id": "a", "text": "hello"}\n')
    extra = ["--address", "http://127.0.0.1:9"] if command == "submit" else []
    code = main([command, "light", "-i", str(inp), "-o", str(tmp_path / "out"), option, value, *extra])
    assert code == 2 and f"winnow {command}: {message}" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
