"""What the Ray adapter asks Ray to reserve per task and per actor (no cluster needed: the CPU count is given)."""

from __future__ import annotations

import pytest

from extract.trafilatura_step import TrafilaturaExtract
from filters.heuristics_gopher import GopherQuality

ray_data = pytest.importorskip("pipelines.ray_data")


@pytest.fixture
def cpus(monkeypatch: pytest.MonkeyPatch):
    def set_cpus(n: float, actor_steps: int) -> None:
        monkeypatch.setattr(ray_data.ray, "cluster_resources", lambda: {"CPU": float(n)})
        # one node, as the embedded Ray: without this the count asks a running Ray, and passes only after a test
        # that left one running
        monkeypatch.setattr(ray_data, "_cpu_nodes", lambda: 1)
        ray_data.plan_actor_steps(actor_steps)

    yield set_cpus
    ray_data.plan_actor_steps(1)


@pytest.mark.parametrize(("n", "actor_steps", "expected"), [
    (2, 1, 0.5),    # two actors at 0.5 hold one CPU: two extraction tasks share the other
    (2, 0, 1.0),    # nothing else reserves: one task per CPU
    (2, 2, 0.5),    # two pools at 0.25 per actor still hold one CPU
    (16, 1, 0.5),   # 16 actors at 0.5 hold 8 CPUs: 16 tasks share the other 8
    (1, 1, 0.5),    # one CPU: the single actor holds half, the task the other half
])
def test_out_of_process_steps_reserve_so_that_one_runs_per_cpu(cpus, n, actor_steps, expected) -> None:
    cpus(n, actor_steps)
    share = ray_data._task_cpus(TrafilaturaExtract())
    assert share == pytest.approx(expected)
    pools = ray_data._actor_pool_size() * ray_data._actor_cpus() * actor_steps
    assert pools + share * n <= n + 1e-9  # together never more than the machine


def test_steps_that_work_here_keep_rays_default(cpus) -> None:
    cpus(2, 1)
    assert ray_data._task_cpus(GopherQuality()) is None
    assert ray_data._task_cpus(None) is None
