"""A multi-node Ray run: a cluster of two nodes on this machine (`ray start` processes, each node with its own temp
dir; tests/ray_cluster.py), input and output in the S3-compatible server the tests start: `winnow run --address`
gives the document ids of `--local` on the same files, and both nodes ran its tasks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pipelines.app.sample import build_sample_warc
from pipelines.config import load_config
from pipelines.runner import RunOptions, run
from tests.pipelines.test_run_object_store import _second_warc, ids
from tests.ray_cluster import Cluster

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.ray
@pytest.mark.slow
def test_two_nodes_reading_and_writing_a_bucket_give_the_ids_of_a_local_run(s3, tmp_path: Path) -> None:
    crawl = tmp_path / "crawl"
    crawl.mkdir()
    build_sample_warc(crawl / "site.warc.gz")
    _second_warc(crawl / "more.warc.gz")
    bucket = s3.bucket()
    for f in crawl.iterdir():
        s3.upload(f, bucket, f"crawl/{f.name}")
    out = f"s3://{bucket}/out"

    cluster = Cluster(workers=1, cpus=2)  # a whole CPU per node stays free beside the actor pools (ray_data.py)
    try:
        proc = subprocess.run([sys.executable, "-m", "pipelines.app.cli", "run", "light", "--input",
                               f"s3://{bucket}/crawl/", "--output", out, "--address", cluster.address,
                               "--no-progress"], env=cluster.env, cwd=tmp_path, capture_output=True, text=True,
                              timeout=420)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
        # Each node started Ray workers of its own for the run's tasks (the head's include the driver's helpers).
        assert all(node.worker_logs() for node in cluster.nodes), [n.temp_dir for n in cluster.nodes]
    finally:
        cluster.stop()

    local = tmp_path / "local"
    run(RunOptions(config=load_config("light"), inputs=sorted(str(p) for p in crawl.iterdir()), output=local,
                   local=True, progress=False))
    for name in ("text", "image_text", "interleaved"):
        assert ids(out, name) == ids(local, name), name
    assert ids(out)
    keys = s3.keys(bucket, "out/")
    assert {"out/stats.json", "out/manifest.json", "out/report.html"} <= set(keys)
    assert not any(k.startswith("out/_timing/") for k in keys)
    stats = json.loads(s3.get(bucket, "out/stats.json"))
    assert json.loads(s3.get(bucket, "out/manifest.json"))["runner"] == f"ray@{cluster.address}"
    assert any(s.get("seconds") for s in stats["steps"])  # step times from the workers of both nodes, via the bucket
