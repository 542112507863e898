"""Per-step statistics, computed from the writer's tallies (datatrove-style: in, kept, dropped by reason).

Every record read becomes exactly one row that reaches the writer: a kept row, or a tombstone with
``dropped_by = "<step>.<reason>"``. So for each step, ``in`` is the rows that reached it (the rows
of input kinds that flow through it, not dropped by an earlier step), and ``in = kept + sum(dropped)``
holds by construction. A fan-out step (extraction: page -> text, image-text pairs, interleaved) also reports
``produced`` per output; rows of its second and later kinds are counted only by the steps after it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

from pipelines.records import OUTPUT_DIRS

READ_STEP = "read"


def _lane_steps(steps: list[Any], origin: str, kind: str) -> tuple[set[str], str | None]:
    """The steps that rows of ``kind`` written for an input of kind ``origin`` passed through, and the fan-out
    step that made them (None: they are the input's own records).

    A lane follows the kinds from the input to the output. At a fan-out step (several output kinds) rows of the
    first output kind continue the input's lane (dropped inputs become tombstones of that kind); rows of the other
    kinds are born there, so only the steps after it count them.
    """
    current, names, born_at = origin, {READ_STEP}, None
    for step in steps:
        if step.input_kind != current:
            continue
        kinds = step.produces_kinds
        if len(kinds) > 1 and kind in kinds[1:]:
            names, current, born_at = set(), kind, step.name
            continue
        names.add(step.name)
        current = step.produces
    return names, born_at


def summarize(tallies: list[dict[str, Any]], steps: list[Any], kind_of_input: Callable[[str], str]) -> dict[str, Any]:
    """``tallies``: rows of the writer's tally table (kind, input, dropped_by, detail, rows, shard)."""
    rows_by_lane: dict[tuple[str, str], Counter[str | None]] = defaultdict(Counter)
    per_input: dict[str, Counter[str]] = defaultdict(Counter)
    errors: list[str] = []
    outputs: dict[str, dict[str, int]] = {}
    metrics: Counter[str] = Counter()
    lanes: dict[tuple[str, str], tuple[set[str], str | None]] = {}
    for t in tallies:
        if t.get("metric"):
            metrics[t["metric"]] += t["rows"]
            continue
        if t["shard"] is not None:
            out = outputs.setdefault(OUTPUT_DIRS[t["kind"]], {"rows": 0, "shards": 0})
            out["shards"] += 1
            continue
        origin = kind_of_input(t["input"])
        lane = (origin, t["kind"])
        rows_by_lane[lane][t["dropped_by"]] += t["rows"]
        if lane not in lanes:
            lanes[lane] = _lane_steps(steps, *lane)
        if lanes[lane][1] is None:  # records read from the input, not rows a fan-out step made of them
            per_input[t["input"]]["records"] += t["rows"]
            per_input[t["input"]]["kept" if t["dropped_by"] is None else "dropped"] += t["rows"]
        if t["detail"]:
            errors.append(t["detail"])
        if t["dropped_by"] is None:
            out = outputs.setdefault(OUTPUT_DIRS[t["kind"]], {"rows": 0, "shards": 0})
            out["rows"] += t["rows"]

    step_stats = []
    for step in [None, *steps]:
        name = READ_STEP if step is None else step.name
        entering = 0
        dropped: Counter[str] = Counter()
        for lane, counts in rows_by_lane.items():
            if name not in lanes[lane][0]:
                continue
            for reason, n in counts.items():
                owner = reason.split(".", 1)[0] if reason else None
                if owner == name:
                    dropped[reason.split(".", 1)[1]] += n
                if not _dropped_before(owner, name, steps):
                    entering += n
        entry: dict[str, Any] = {"step": name, "in": entering, "kept": entering - sum(dropped.values()),
                                 "dropped": dict(sorted(dropped.items()))}
        if step is not None and len(step.produces_kinds) > 1:
            # What a fan-out step made: its first kind is the kept inputs; the others are rows born here.
            made = {OUTPUT_DIRS.get(step.produces, step.produces): entry["kept"]}
            for kind in step.produces_kinds[1:]:
                made[OUTPUT_DIRS.get(kind, kind)] = sum(sum(counts.values()) for lane, counts in rows_by_lane.items()
                                                        if lane[1] == kind and lanes[lane][1] == name)
            entry["produced"] = made
        step_stats.append(entry)
    return {
        "steps": step_stats,
        "outputs": outputs,
        "inputs": {k: dict(v) for k, v in sorted(per_input.items())},
        "errors": sorted(errors),
        "metrics": dict(sorted(metrics.items())),
    }


def _dropped_before(owner: str | None, name: str, steps: list[Any]) -> bool:
    """Whether a row dropped by ``owner`` was gone before step ``name``."""
    if owner is None:
        return False
    order = [READ_STEP, *(s.name for s in steps)]
    if owner not in order:  # a reason from a step no longer in the config: count it as before all
        return True
    return order.index(owner) < order.index(name)
