"""`winnow images fetch --workers N`: image hosts split between forked processes (crawler/images/workers.py).

The image hosts are loopback addresses of their own (127.0.0.2, .3, .4): workers are split by host name, as Scrapy
keys its download slots, so two ports of one address would be one host.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil
import pyarrow.parquet as pq
import pytest

from crawler.images.split import assign_hosts
from crawler.images.workers import run_workers
from crawler.site_server import Route, SiteServer
from tests.crawler.images.helpers import (
    FAST,
    WINNOW,
    interleaved,
    make_image,
    pair,
    read_images,
    run_fetch,
    write_output,
)

pytestmark = pytest.mark.slow  # one of the inner loop's slowest modules (scripts/test.sh --fast); CI runs it

ADDRESSES = ("127.0.0.2", "127.0.0.3", "127.0.0.4")
ALLOW = ["--allow-private", "127.0.0.0/8"]


def test_hosts_are_assigned_largest_first_to_the_least_loaded_worker():
    assert assign_hosts({"a": 10, "b": 6, "c": 5, "d": 1}, 2) == {"a": 0, "b": 1, "c": 1, "d": 0}
    # a hash of the host could put both big hosts in one worker; every host is in exactly one
    owner = assign_hosts({f"h{n}": n for n in range(1, 20)}, 3)
    loads = Counter()
    for host, k in owner.items():
        loads[k] += int(host[1:])
    assert set(owner) == {f"h{n}" for n in range(1, 20)} and max(loads.values()) - min(loads.values()) <= 19
    assert assign_hosts({"x": 3, "y": 3}, 4) == {"x": 0, "y": 1}  # ties: name, then the lower worker


def test_each_worker_reports_its_result_or_how_it_failed():
    def target(k: int, on_row) -> dict:
        for _ in range(5):
            on_row()
        if k == 1:
            raise ValueError("boom")
        if k == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        return {"worker": k}

    progress: list[int] = []
    results = run_workers(3, target, progress.append)
    assert [r.worker for r in results] == [0, 1, 2]
    assert results[0].ok and results[0].result == {"worker": 0}
    assert not results[1].ok and results[1].exitcode == 1 and results[1].error == "ValueError: boom"
    assert not results[2].ok and results[2].error == "killed by signal 9"
    assert sum(progress) == 15


def image_routes(n: int, seed: int, delay: float = 0.0) -> dict:
    routes = {"/robots.txt": Route(body="User-agent: *\nDisallow: /private/\n", content_type="text/plain")}
    for i in range(n):
        routes[f"/i/{i}.png"] = Route(body=make_image("PNG", (40, 30), seed=seed * 100 + i), content_type="image/png",
                                      delay=delay)
    routes["/private/x.png"] = Route(body=make_image("PNG", (40, 30), seed=seed), content_type="image/png")
    return routes


def worker_hosts(images: Path) -> dict[int, set[str]]:
    """worker -> the image hosts of the shards its journal committed."""
    owners: dict[int, set[str]] = {}
    for journal in sorted((images / ".fetch").glob("journal-*.jsonl")):
        k = int(journal.stem.split("-")[1])
        for line in journal.read_text().splitlines():
            entry = json.loads(line)
            if "shard" in entry:
                urls = pq.read_table(images / "images" / entry["shard"], columns=["image_url"]).column(0)
                owners.setdefault(k, set()).update(u.split("/")[2].split(":")[0] for u in urls.to_pylist())
    return owners


@pytest.fixture(scope="module")
def three_hosts(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("workers")
    sizes = (12, 7, 4)
    servers = [SiteServer(routes=image_routes(n, seed), host=address)
               for n, seed, address in zip(sizes, (1, 2, 3), ADDRESSES, strict=True)]
    for server in servers:
        server.__enter__()
    try:
        pairs = [pair(f"h{h}-{i}", s.url(f"/i/{i}.png"))
                 for h, (s, n) in enumerate(zip(servers, sizes, strict=True)) for i in range(n)]
        pairs += [
            pair("shared", servers[0].url("/i/0.png")),  # one URL on two rows: fetched once
            pair("h1-0", servers[2].url("/i/1.png")),  # an id again, on another host: the first row's worker counts it
            pair("private", servers[1].url("/private/x.png")),
            pair("data", "data:image/png;base64,iVBORw0KGgo="),
            pair("page-denied", servers[2].url("/i/2.png"), training_allowed=False),
        ]
        docs = [interleaved("doc", [servers[1].url("/i/3.png")])]
        out = write_output(tmp / "out", pairs, docs, shards=2)
        two = run_fetch(out, tmp / "two", *ALLOW, "--workers", "2", "--shard-rows", "4")
        hits = Counter((n, h.path) for n, s in enumerate(servers) for h in s.hits)
        one = run_fetch(out, tmp / "one", *ALLOW, "--shard-rows", "4")
    finally:
        for server in servers:
            server.__exit__(None, None, None)
    return {"tmp": tmp, "two": two, "one": one, "hits": hits, "rows": len(pairs) + 1}


def test_every_row_is_stored_or_counted_once_as_with_one_process(three_hosts):
    assert three_hosts["two"].returncode == 0, three_hosts["two"].stderr[-3000:]
    assert three_hosts["one"].returncode == 0, three_hosts["one"].stderr[-3000:]
    two = json.loads((three_hosts["tmp"] / "two" / "fetch-stats.json").read_text())
    one = json.loads((three_hosts["tmp"] / "one" / "fetch-stats.json").read_text())
    assert two["rows"] == three_hosts["rows"] and two["pending"] == 0
    assert two["not_stored"] == one["not_stored"] == {
        "bad_url": 1, "duplicate_id": 1, "page_training_disallowed": 1, "robots_disallowed": 1}
    stored_two = sorted((r["id"], r["sha256"]) for r in read_images(three_hosts["tmp"] / "two"))
    stored_one = sorted((r["id"], r["sha256"]) for r in read_images(three_hosts["tmp"] / "one"))
    assert stored_two == stored_one and len(stored_two) == two["stored"] == 12 + 7 + 4 + 2
    assert len({i for i, _ in stored_two}) == len(stored_two)  # the repeated id stored once


def test_each_host_is_fetched_by_exactly_one_worker_and_each_image_once(three_hosts):
    two = json.loads((three_hosts["tmp"] / "two" / "fetch-stats.json").read_text())
    owners = worker_hosts(three_hosts["tmp"] / "two")
    assert set(owners) == {0, 1} and not owners[0] & owners[1]
    # largest host alone, the two smaller ones together
    assert sorted(map(sorted, owners.values())) == [["127.0.0.2"], ["127.0.0.3", "127.0.0.4"]]
    fetched = {key: n for key, n in three_hosts["hits"].items() if key[1].startswith("/i/")}
    assert len(fetched) == 12 + 7 + 4 and set(fetched.values()) == {1}
    workers = two["last_session"]["workers"]
    assert [w["worker"] for w in workers] == [0, 1] and sum(w["hosts"] for w in workers) == 3
    assert sum(w["stored"] for w in workers) == two["stored"]
    assert two["last_session"]["finish_reason"] == "finished"
    assert "worker 0:" in three_hosts["two"].stdout and "worker 1:" in three_hosts["two"].stdout
    assert not (three_hosts["tmp"] / "two" / ".fetch" / "shared").exists()


@dataclass
class Running:
    servers: list[SiteServer]
    out: Path
    images: Path
    proc: subprocess.Popen
    workers: list[psutil.Process]
    ids: list[str]

    def hits(self) -> Counter:
        return Counter((n, h.path) for n, s in enumerate(self.servers) for h in s.hits)


@contextlib.contextmanager
def fetch_under_way(tmp_path: Path) -> Iterator[Running]:
    """Two slow image hosts (20 images each, 0.15 s an image), a `--workers 2` fetch of them with 2 shards committed."""
    with contextlib.ExitStack() as stack:
        servers = [stack.enter_context(SiteServer(routes=image_routes(20, seed, delay=0.15), host=address))
                   for seed, address in zip((1, 2), ADDRESSES, strict=False)]
        ids = [f"w{h}-{i}" for h in range(2) for i in range(20)]
        out = write_output(tmp_path / "out", [pair(f"w{h}-{i}", s.url(f"/i/{i}.png"))
                                              for h, s in enumerate(servers) for i in range(20)])
        images = tmp_path / "images"
        proc = subprocess.Popen([WINNOW, "images", "fetch", str(out), "--output", str(images), *FAST, *ALLOW,
                                 "--workers", "2", "--shard-rows", "3"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        stack.callback(lambda: proc.poll() is None and proc.kill())
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(list((images / "images").glob("part-*.parquet"))) < 2:
            time.sleep(0.05)
        workers = psutil.Process(proc.pid).children()
        assert len(workers) == 2
        yield Running(servers, out, images, proc, workers, ids)


@pytest.mark.slow
def test_ctrl_c_stops_every_worker_and_a_resume_with_another_n_finishes(tmp_path):
    with fetch_under_way(tmp_path) as run:
        run.proc.send_signal(signal.SIGINT)  # to the parent only, as `kill -INT`: it passes it on
        stdout, stderr = run.proc.communicate(timeout=60)
        assert run.proc.returncode == 130, stderr[-3000:]
        assert "--resume" in stdout
        assert not any(w.is_running() and w.status() != psutil.STATUS_ZOMBIE for w in run.workers)
        stats = json.loads((run.images / "fetch-stats.json").read_text())
        assert stats["last_session"]["finish_reason"] == "shutdown"
        assert stats["pending"] > 0 and stats["stored"] + sum(stats["not_stored"].values()) + stats["pending"] == 40
        result = run_fetch(run.out, run.images, *ALLOW, "--resume", "--workers", "1")
        hits = run.hits()
    assert result.returncode == 0, result.stderr[-3000:]
    assert sorted(r["id"] for r in read_images(run.images)) == sorted(run.ids)
    assert max(n for (_, path), n in hits.items() if path.startswith("/i/")) <= 2  # at most once per session


@pytest.mark.slow
def test_kill_9_of_the_parent_takes_the_workers_with_it_and_resume_stores_every_id_once(tmp_path):
    with fetch_under_way(tmp_path) as run:
        run.proc.kill()
        run.proc.communicate()
        _, alive = psutil.wait_procs(run.workers, timeout=10)
        assert not alive, "a worker outlived its parent"
        before = {r["id"] for r in read_images(run.images)}
        assert 0 < len(before) < 40, "the kill came too late to test a resume"
        result = run_fetch(run.out, run.images, *ALLOW, "--resume", "--workers", "2")
    assert result.returncode == 0, result.stderr[-3000:]
    stored = [r["id"] for r in read_images(run.images)]
    assert len(stored) == len(set(stored)) and set(stored) == set(run.ids)
    stats = json.loads((run.images / "fetch-stats.json").read_text())
    assert (stats["stored"], stats["pending"], stats["not_stored"]) == (40, 0, {})


def test_workers_must_be_positive(tmp_path, capsys):
    from pipelines.app.cli import main

    out = write_output(tmp_path / "out", [pair("p1", "http://127.0.0.2:9/a.png")])
    rc = main(["images", "fetch", str(out), "--output", str(tmp_path / "images"), "--no-progress", "--workers", "0"])
    err = capsys.readouterr().err
    assert rc == 2 and "--workers" in err and len(err.strip().splitlines()) == 1


def test_a_failing_worker_is_reported_with_its_error_and_rc_1(tmp_path):
    servers = [SiteServer(routes=image_routes(2, seed), host=address)
               for seed, address in zip((1, 2), ADDRESSES, strict=False)]
    for server in servers:
        server.__enter__()
    try:
        out = write_output(tmp_path / "out", [pair(f"w{h}", s.url("/i/0.png")) for h, s in enumerate(servers)])
        # a setting that only the spider reads, in each worker, after the fork
        result = run_fetch(out, tmp_path / "images", *ALLOW, "--workers", "2",
                           "-s", "WINNOW_IMAGES_DECODE_THREADS=many")
    finally:
        for server in servers:
            server.__exit__(None, None, None)
    assert result.returncode == 1, result.stderr[-3000:]
    stats = json.loads((tmp_path / "images" / "fetch-stats.json").read_text())
    assert stats["last_session"]["failed_workers"] == [0, 1] and stats["pending"] == 2
    assert "could not start: ValueError" in result.stdout and "worker 1:" in result.stdout


def test_in_one_process_a_fetch_that_cannot_start_is_one_line_rc_2(tmp_path):
    out = write_output(tmp_path / "out", [pair("p1", "http://127.0.0.2:9/a.png")])
    result = run_fetch(out, tmp_path / "images", *ALLOW, "-s", "WINNOW_IMAGES_DECODE_THREADS=many")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1] == (
        "winnow images fetch: the fetch could not start: ValueError: invalid literal for int() with base 10: 'many'")
