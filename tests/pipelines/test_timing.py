"""Per-step wall and CPU seconds reach stats.json (pipelines/timing.py), summed over waves."""

from __future__ import annotations

import json

import pytest

from pipelines.config import load_config
from pipelines.runner import RunOptions, run


@pytest.mark.parametrize("local", [True, pytest.param(False, marks=[pytest.mark.ray, pytest.mark.slow])])
def test_step_seconds_and_cpu_seconds_in_stats(tmp_path, local, request):
    if not local:
        request.getfixturevalue("ray_local")
    for i in range(2):  # two inputs, two waves
        (tmp_path / f"c{i}.jsonl").write_text("".join(json.dumps({"text": f"doc {i} {j}"}) + "\n" for j in range(3)))
    config = tmp_path / "p.yaml"
    config.write_text("steps:\n  - use: tests.pipelines.flaky_steps.Sleeps\n    name: waits\n"
                      "  - use: tests.pipelines.flaky_steps.Burns\n    name: works\n")
    out = tmp_path / "out"
    stats = run(RunOptions(config=load_config(str(config)), inputs=[str(tmp_path / f"c{i}.jsonl") for i in range(2)],
                           output=out, local=local, progress=False, wave_files=1))
    by = {s["step"]: s for s in stats["steps"]}
    # two waves, one batch each: 0.6 s per step in all
    assert 0.55 <= by["waits"]["seconds"] < 5 and by["waits"]["cpu_seconds"] < 0.2
    assert 0.55 <= by["works"]["cpu_seconds"] <= by["works"]["seconds"] + 0.05
    assert not (out / "_timing").exists() or not any((out / "_timing").iterdir())
    again = json.loads((out / "stats.json").read_text())
    assert [s.get("seconds") for s in again["steps"]] == [s.get("seconds") for s in stats["steps"]]
