"""A step that makes several record kinds from one page: lanes, stats and services on both runners."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from pipelines.config import ConfigError, load_config
from pipelines.runner import RunOptions, run
from tests.warc_factory import WarcBuilder

PAGES = {
    "http://a.test/1": '<p>First page about rivers.</p><img src="http://a.test/r.jpg" alt="a river"> '
                       '<img src="http://a.test/m.jpg" alt="a mill">',
    "http://a.test/2": "<p>Second page, no pictures at all.</p>",
    "http://a.test/3": "<p>nothing here</p>",
    "http://a.test/4": '<p>Fourth.</p><img src="http://a.test/s.jpg" alt="stars">',
}


def build(tmp_path: Path, outputs: str = "[document, image_text, interleaved]", extra: str = "") -> tuple:
    warc = WarcBuilder()
    for url, body in PAGES.items():
        warc.add_response(url, f"<html><body>{body}</body></html>".encode(), content_type="text/html")
    path = warc.write(tmp_path / "pages.warc.gz")
    cfg = tmp_path / "fan.yaml"
    log = tmp_path / "services.log"
    cfg.write_text("steps:\n"
                   "  - use: tests.pipelines.fanout_step.ToyFanOut\n"
                   "    name: extract\n"
                   f"    with: {{outputs: {outputs}, service_log: {str(log)!r}}}\n" + extra)
    return str(path), cfg, log


def go(cfg: Path, inputs: list[str], out: Path, local: bool) -> dict:
    return run(RunOptions(config=load_config(str(cfg)), inputs=inputs, output=out, local=local, progress=False))


def frames(out: Path) -> dict[str, pd.DataFrame]:
    return {d: pd.read_parquet(out / d).sort_values("id").reset_index(drop=True)
            for d in ("text", "image_text", "interleaved") if (out / d).is_dir()}


EXTRA_STEPS = """\
  - use: filters.image_alt.AltTextQuality
    with: {min_words: 2}
"""


@pytest.mark.parametrize("local", [True, pytest.param(False, marks=[pytest.mark.ray, pytest.mark.slow])])
def test_three_lanes_from_one_step(tmp_path, local, request):
    if not local:
        request.getfixturevalue("ray_local")
    inp, cfg, log = build(tmp_path, extra=EXTRA_STEPS)
    stats = go(cfg, [inp], tmp_path / "out", local)
    got = frames(tmp_path / "out")
    assert list(got["text"]["id"]) == sorted(got["text"]["id"]) and len(got["text"]) == 3
    assert set(got["interleaved"]["id"]) == set(got["text"]["id"])  # ids join across outputs
    # "stars" is one word: AltTextQuality (min_words 2) drops it, in the image lane only.
    assert sorted(got["image_text"]["alt"]) == ["a mill", "a river"]
    assert set(got["image_text"]["doc_id"]) <= set(got["text"]["id"])
    # The service was started once in the driver, before the step was shipped, and stopped after the run.
    assert log.read_text() == "start\nstop\n"
    assert all(flags == ["service:http://127.0.0.1:9/toy"] for flags in got["text"]["extract_flags"])
    by = {s["step"]: s for s in stats["steps"]}
    assert by["read"]["in"] == 4
    timed = {k: by["extract"].pop(k) for k in ("seconds", "cpu_seconds")}  # per-step time, from both runners
    assert timed["seconds"] >= 0 and timed["cpu_seconds"] >= 0
    assert by["extract"] == {"step": "extract", "in": 4, "kept": 3, "dropped": {"no_text": 1},
                             "produced": {"text": 3, "image_text": 3, "interleaved": 3}}
    assert all("seconds" in s for s in stats["steps"][2:])  # every step after read and extract ran
    assert by["alt_quality"]["in"] == 3 and by["alt_quality"]["kept"] == 2
    assert stats["outputs"]["image_text"]["rows"] == 2 and stats["outputs"]["interleaved"]["rows"] == 3
    assert stats["metrics"] == {"extract_flags.service:http://127.0.0.1:9/toy": 3}
    for s in stats["steps"]:
        assert s["in"] == s["kept"] + sum(s["dropped"].values())


@pytest.mark.ray
@pytest.mark.slow
def test_lanes_identical_on_both_runners(tmp_path, ray_local):
    inp, cfg, _ = build(tmp_path, extra=EXTRA_STEPS)
    go(cfg, [inp], tmp_path / "local", True)
    go(cfg, [inp], tmp_path / "ray", False)
    local, ray = frames(tmp_path / "local"), frames(tmp_path / "ray")
    assert set(local) == set(ray) == {"text", "image_text", "interleaved"}
    for name in local:
        pd.testing.assert_frame_equal(local[name], ray[name])


def test_outputs_can_be_switched_off(tmp_path):
    """Only the kinds a step declares are written; a dropped page's tombstone goes to the first kind."""
    inp, cfg, _ = build(tmp_path, outputs="[image_text]")
    stats = go(cfg, [inp], tmp_path / "out", True)
    assert sorted(p.name for p in (tmp_path / "out").iterdir() if not p.name.startswith("_")) == [
        "image_text", "manifest.json", "report.html", "stats.json"]
    by = {s["step"]: s for s in stats["steps"]}
    assert by["extract"]["in"] == 4 and by["extract"]["dropped"] == {"no_text": 1}


def test_a_fan_out_kind_must_be_known(tmp_path):
    _, cfg, _ = build(tmp_path, outputs="[document, pictures]")
    with pytest.raises(ConfigError, match="unknown record kinds"):
        load_config(str(cfg))


def test_after_the_fan_out_each_lane_runs_in_a_thread_of_its_own(tmp_path):
    """A local run's lanes never meet again after the fan-out: each goes on in its own thread (pipelines/runner.py),
    so one lane's Stage and single-process steps overlap another lane's filters."""
    log = tmp_path / "threads.log"
    steps = "".join(f"  - use: tests.pipelines.fanout_step.ThreadLog\n    name: log_{kind}\n"
                    f"    with: {{kind: {kind}, log: {str(log)!r}}}\n" for kind in ("document", "image_text"))
    inp, cfg, _ = build(tmp_path, extra=steps)
    go(cfg, [inp], tmp_path / "out", True)
    threads = dict(line.split() for line in log.read_text().splitlines())
    assert set(threads) == {"document", "image_text"}
    assert all(name.startswith("winnow-lane-") for name in threads.values())
    assert threads["document"] != threads["image_text"]
    assert len(frames(tmp_path / "out")["text"]) == 3
