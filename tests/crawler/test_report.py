from __future__ import annotations

from crawler.report import merge_sessions


def test_merge_sums_counters_and_keeps_first_start() -> None:
    first = {"start_time": "t1", "finish_time": "t2", "winnow/gate/offsite": 3, "memusage/max": 100,
             "finish_reason": "shutdown", "elapsed_time_seconds": 10.5, "only_before": 1}
    second = {"start_time": "t3", "finish_time": "t4", "winnow/gate/offsite": 2, "memusage/max": 80,
              "finish_reason": "finished", "elapsed_time_seconds": 4.5, "only_now": 7}
    merged = merge_sessions(first, second)
    assert merged["start_time"] == "t1" and merged["finish_time"] == "t4"
    assert merged["winnow/gate/offsite"] == 5 and merged["memusage/max"] == 100
    assert merged["elapsed_time_seconds"] == 15.0 and merged["finish_reason"] == "finished"
    assert merged["only_before"] == 1 and merged["only_now"] == 7
    assert merged["sessions"] == 2 and merged["last_session"] == second
    third = merge_sessions(merged, {"winnow/gate/offsite": 1})
    assert third["sessions"] == 3 and third["winnow/gate/offsite"] == 6
    assert "last_session" not in third["last_session"]
