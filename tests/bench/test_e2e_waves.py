"""bench/e2e.py ``wave_peaks``: a winnow run's trace read per wave (issue 28: peak RSS at 1x and Nx the input)."""

from __future__ import annotations

import json
from pathlib import Path

from bench.e2e import wave_peaks


def test_peaks_per_wave_leave_out_the_report_after_the_last_commit(tmp_path: Path) -> None:
    samples = [(0, 300, 0), (0, 500, 400), (0, 450, 200),  # wave 1: extraction, then a filter worker
               (1, 600, 300), (1, 550, 500),  # wave 2
               (2, 900, 0)]  # after the last commit: the run's report, no wave's
    trace = tmp_path / "r1-default.trace.jsonl"
    trace.write_text("".join(json.dumps({"t": i, "rss_mb": rss, "arrow_mb": 0, "children_rss_mb": children,
                                         "waves": waves, "main": []}) + "\n"
                             for i, (waves, rss, children) in enumerate(samples)))
    assert wave_peaks(trace) == [{"wave": 1, "run_mb": 500, "tree_mb": 900},
                                 {"wave": 2, "run_mb": 600, "tree_mb": 1050}]
    assert wave_peaks(tmp_path / "missing.jsonl") == []
