"""Per-step statistics, computed from the writer's tallies (datatrove-style: in, kept, dropped by reason).

Every record read becomes exactly one row that reaches the writer: a kept row, or a tombstone with
``dropped_by = "<step>.<reason>"``. So for each step, ``in`` is the rows that reached it (the rows
of input kinds that flow through it, not dropped by an earlier step), and ``in = kept + sum(dropped)``
holds by construction. Steps do not fan out yet; a step that does will need its own count.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from pipelines.records import OUTPUT_DIRS

READ_STEP = "read"


def _flows(steps: list[Any], input_kinds: Iterable[str]) -> dict[str, set[str]]:
    """input kind -> names of the steps its records pass through."""
    flows: dict[str, set[str]] = {}
    for origin in input_kinds:
        current, names = origin, {READ_STEP}
        for step in steps:
            if step.input_kind == current:
                names.add(step.name)
                current = step.produces
        flows[origin] = names
    return flows


def summarize(tallies: list[dict[str, Any]], steps: list[Any], kind_of_input: Callable[[str], str]) -> dict[str, Any]:
    """``tallies``: rows of the writer's tally table (kind, input, dropped_by, detail, rows, shard)."""
    rows_by_origin: dict[str, Counter[str | None]] = defaultdict(Counter)
    per_input: dict[str, Counter[str]] = defaultdict(Counter)
    errors: list[str] = []
    outputs: dict[str, dict[str, int]] = {}
    metrics: Counter[str] = Counter()
    for t in tallies:
        if t.get("metric"):
            metrics[t["metric"]] += t["rows"]
            continue
        if t["shard"] is not None:
            out = outputs.setdefault(OUTPUT_DIRS[t["kind"]], {"rows": 0, "shards": 0})
            out["shards"] += 1
            continue
        origin = kind_of_input(t["input"])
        rows_by_origin[origin][t["dropped_by"]] += t["rows"]
        per_input[t["input"]]["records"] += t["rows"]
        per_input[t["input"]]["kept" if t["dropped_by"] is None else "dropped"] += t["rows"]
        if t["detail"]:
            errors.append(t["detail"])
        if t["dropped_by"] is None:
            out = outputs.setdefault(OUTPUT_DIRS[t["kind"]], {"rows": 0, "shards": 0})
            out["rows"] += t["rows"]

    flows = _flows(steps, rows_by_origin)
    step_stats = []
    for name in [READ_STEP, *(s.name for s in steps)]:
        entering = 0
        dropped: Counter[str] = Counter()
        for origin, counts in rows_by_origin.items():
            if name not in flows[origin]:
                continue
            for reason, n in counts.items():
                owner = reason.split(".", 1)[0] if reason else None
                if owner == name:
                    dropped[reason.split(".", 1)[1]] += n
                if not _dropped_before(owner, name, steps):
                    entering += n
        step_stats.append({"step": name, "in": entering, "kept": entering - sum(dropped.values()),
                           "dropped": dict(sorted(dropped.items()))})
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
