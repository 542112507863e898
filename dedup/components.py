"""Connected components of the candidate-pair graph, distributed: large-star / small-star over the Dataset interface.

The algorithm is Kiveris, Lattanzi, Mirrokni, Rastogi and Vassilvitskii, "Connected Components in MapReduce and
Beyond" (SoCC 2014): alternate two rounds on the edge list until neither changes it; every component is then a
star whose centre is its smallest node.

- large-star: for every node u, m = min(u, neighbours); link every *larger* neighbour v > u to m.
- small-star: for every node u, m = min(smaller neighbours); link u and its other smaller neighbours to m.

Each round is one hash shuffle of the edges (``Dataset.map_groups`` on a bucket of the node, about
``buckets`` groups, each reduced with vectorised Arrow group-bys), never a pass of all edges through one process.
The only values that reach the driver are one count per block (how many edges changed). Rounds: O(log^2 n) in
the worst case, 2-4 on near-duplicate graphs (mostly small stars already).

Nodes are strings whose order is the representative rule (``dedup.near`` builds them from ``fetched_at`` and
``id``), so the centre of each star is the document to keep.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from dedup.minhash import hash_strings

log = logging.getLogger(__name__)

EDGE_SCHEMA = pa.schema([pa.field("u", pa.string()), pa.field("v", pa.string())])
LABEL_SCHEMA = pa.schema([pa.field("node", pa.string()), pa.field("root", pa.string())])
BUCKET = "_bucket"
MAX_ROUNDS = 64


def buckets_of(values: pa.Array | pa.ChunkedArray, buckets: int) -> pa.Array:
    """A stable bucket in [0, buckets) for each string (XXH3-64 of its UTF-8 bytes)."""
    return pa.array((hash_strings(values) % np.uint64(buckets)).astype(np.int32))


def count_rows(dataset: Any, column: str | None = None) -> int:
    """Rows of a (materialised) dataset, or the sum of a column (booleans: how many are true); one number per
    block reaches the driver."""

    def summary(table: pa.Table) -> pa.Table:
        n = table.num_rows if column is None else int(pc.sum(table.column(column)).as_py() or 0)
        return pa.table({"n": pa.array([n], pa.int64())})

    return sum(int(pc.sum(t.column("n")).as_py() or 0) for t in dataset.map_batches(summary).tables())


def _keyed(buckets: int, a: pa.Array, b: pa.Array, extra: dict[str, pa.Array] | None = None) -> pa.Table:
    cols = {"a": a, "b": b, **(extra or {})}
    return pa.table({**cols, BUCKET: buckets_of(a, buckets)})


def _unique_pairs(table: pa.Table) -> pa.Table:
    return table.select(["a", "b"]).group_by(["a", "b"], use_threads=False).aggregate([])


def _large_map(buckets: int) -> Callable[[pa.Table], pa.Table]:
    def both_ways(table: pa.Table) -> pa.Table:
        u, v = table.column("u").combine_chunks(), table.column("v").combine_chunks()
        return _keyed(buckets, pa.concat_arrays([u, v]), pa.concat_arrays([v, u]))

    return both_ways


def _large_reduce(table: pa.Table) -> pa.Table:
    """For each node a: m = min(a, neighbours); emit (b, m) for every neighbour b > a; changed iff m != a."""
    pairs = _unique_pairs(table)
    lowest = pairs.group_by("a", use_threads=False).aggregate([("b", "min")])
    joined = pairs.join(lowest, "a", use_threads=False)
    a, b, b_min = joined.column("a"), joined.column("b"), joined.column("b_min")
    m = pc.if_else(pc.less(b_min, a), b_min, a)
    keep = pc.greater(b, a)
    return pa.table({"u": b.filter(keep), "v": m.filter(keep),
                     "changed": pc.not_equal(m, a).filter(keep)})


def _small_map(buckets: int) -> Callable[[pa.Table], pa.Table]:
    def larger_first(table: pa.Table) -> pa.Table:
        u, v = table.column("u"), table.column("v")
        hi = pc.if_else(pc.greater(u, v), u, v).combine_chunks()
        lo = pc.if_else(pc.greater(u, v), v, u).combine_chunks()
        return _keyed(buckets, hi, lo)

    return larger_first


def _small_reduce(table: pa.Table) -> pa.Table:
    """For each node a and its smaller neighbours N: m = min N; emit (a, m) and (b, m) for b in N - {m}."""
    pairs = _unique_pairs(table)
    stats = pairs.group_by("a", use_threads=False).aggregate([("b", "min"), ("b", "count")])
    joined = pairs.join(stats, "a", use_threads=False)
    b, m = joined.column("b"), joined.column("b_min")
    others = pc.not_equal(b, m)
    changed_others = pc.greater(joined.column("b_count"), 1).filter(others)
    return pa.table({
        "u": pa.concat_arrays([stats.column("a").combine_chunks(), b.filter(others).combine_chunks()]),
        "v": pa.concat_arrays([stats.column("b_min").combine_chunks(), m.filter(others).combine_chunks()]),
        "changed": pa.concat_arrays([pc.greater(stats.column("b_count"), 1).combine_chunks(),
                                     changed_others.combine_chunks()]),
    })


def connected_components(edges: Any, buckets: int = 32) -> Any:
    """``edges`` (a Dataset of ``u``, ``v`` strings) -> a Dataset of ``node``, ``root`` for every node that is not
    the smallest of its component (``root`` is that smallest node). Nodes without edges do not appear."""
    current = edges.map_batches(_select_edges).materialize()
    if count_rows(current) == 0:
        return current.map_batches(_to_labels)
    for rounds in range(1, MAX_ROUNDS + 1):
        current = current.map_batches(_large_map(buckets)).map_groups(BUCKET, _large_reduce).materialize()
        large_changes = count_rows(current, "changed")
        current = current.map_batches(_small_map(buckets)).map_groups(BUCKET, _small_reduce).materialize()
        small_changes = count_rows(current, "changed")
        log.debug("connected components round %d: %d + %d edges changed", rounds, large_changes, small_changes)
        if large_changes == 0 and small_changes == 0:
            return current.map_batches(_to_labels)
    raise RuntimeError(f"connected components did not converge in {MAX_ROUNDS} rounds")


def _select_edges(table: pa.Table) -> pa.Table:
    return table.select(["u", "v"]).cast(EDGE_SCHEMA)


def _to_labels(table: pa.Table) -> pa.Table:
    return pa.table({"node": table.column("u"), "root": table.column("v")}, schema=LABEL_SCHEMA)
