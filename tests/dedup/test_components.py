import random
from itertools import pairwise

import pyarrow as pa
import pytest

from dedup.components import connected_components
from pipelines.dataset import LocalDataset

RUNNERS = ["local", pytest.param("ray", marks=[pytest.mark.ray, pytest.mark.slow])]


def dataset(runner, tables, request):
    if runner == "local":
        return LocalDataset(tables)
    request.getfixturevalue("ray_local")
    from pipelines.ray_data import RayDataset

    return RayDataset.from_tables(tables)


def union_find(edges):
    parent = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for u, v in edges:
        a, b = find(u), find(v)
        if a != b:
            parent[max(a, b)] = min(a, b)
    return {n: find(n) for n in list(parent) if find(n) != n}


def edge_tables(edges, per_table=37):
    return [pa.table({"u": [u for u, _ in edges[i:i + per_table]], "v": [v for _, v in edges[i:i + per_table]]})
            for i in range(0, len(edges), per_table)]


def labels(ds):
    out = {}
    for table in ds.tables():
        for row in table.to_pylist():
            assert row["node"] not in out
            out[row["node"]] = row["root"]
    return out


def random_graph(rng, nodes):
    names = sorted({f"n{rng.randrange(10**6):06d}" for _ in range(nodes)})
    edges = [(rng.choice(names), rng.choice(names)) for _ in range(rng.randint(1, 2 * len(names)))]
    path = names[:]
    rng.shuffle(path)
    edges += list(pairwise(path[: len(path) // 3 + 1]))  # a long chain
    return [(u, v) for u, v in edges if u != v]


def test_matches_union_find_on_random_graphs():
    rng = random.Random(7)
    for _ in range(25):
        edges = random_graph(rng, rng.randint(2, 300))
        assert labels(connected_components(LocalDataset(edge_tables(edges)), buckets=4)) == union_find(edges)


def test_long_path_and_duplicate_edges():
    nodes = [f"{i:04d}" for i in range(200)]
    edges = list(zip(nodes[::-1], nodes[-2::-1], strict=False)) * 2
    got = labels(connected_components(LocalDataset(edge_tables(edges)), buckets=3))
    assert got == {n: "0000" for n in nodes[1:]}


def test_no_edges():
    assert labels(connected_components(LocalDataset([]), buckets=4)) == {}


@pytest.mark.parametrize("runner", RUNNERS)
def test_same_components_on_both_runners(runner, request):
    rng = random.Random(11)
    edges = random_graph(rng, 150) + random_graph(rng, 40)
    got = labels(connected_components(dataset(runner, edge_tables(edges), request), buckets=8))
    assert got == union_find(edges)
