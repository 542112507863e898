"""``winnow crawl --workers N`` (crawler/distributed.py): hosts sharded over Ray actors, one crawl subprocess each.

The end-to-end tests serve each host on its own loopback address (127.0.0.2, .3, ...): two ports of one address
would be one host to the crawl (and one Scrapy download slot), so they could never go to different workers.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import urlsplit

import pandas as pd
import pytest

from crawler.distributed import (
    WORKERS_FILE,
    WorkerResult,
    assign_seeds,
    merge_worker_stats,
    split_max_pages,
    worker_of,
)
from crawler.site_server import Route, SiteServer
from pipelines.app.cli import main as cli_main
from tests.crawler.test_crawl import FAST, WINNOW, page, pages_in

PAGES_PER_HOST = 8


def test_worker_of_is_a_stable_hash_of_the_lower_cased_host():
    # crc32, not Python's salted hash(): the same host goes to the same worker in every process and session
    assert [worker_of(f"host{i}.example", 4) for i in range(6)] == [worker_of(f"HOST{i}.Example", 4)
                                                                    for i in range(6)]
    assert worker_of("docs.example.org", 7) == 3659611462 % 7  # zlib.crc32(b"docs.example.org")
    shares = assign_seeds(["http://A.example/x", "http://a.example:8080/y", "http://b.example/", "ftp://c/",
                           "http://[::1"], 2)
    where = {seed: k for k, seeds in shares.items() for seed in seeds}
    # the port does not split a host; unusable seeds are counted as skipped by one worker
    assert where["http://A.example/x"] == where["http://a.example:8080/y"] == worker_of("a.example", 2)
    assert where["ftp://c/"] == where["http://[::1"] == min(shares)


def test_max_pages_is_shared_by_hosts():
    assert split_max_pages(10, {0: 3, 1: 1}) == {0: 8, 1: 2}
    assert sum(split_max_pages(1000, {0: 1, 1: 1, 2: 1}).values()) == 1000
    assert split_max_pages(0, {0: 2, 1: 5}) == {0: 0, 1: 0}  # no cap stays no cap
    assert split_max_pages(1, {0: 1, 1: 1}) == {0: 1, 1: 1}  # every started worker may fetch its seed


def test_merge_sums_counters_and_keeps_each_worker():
    a = {"winnow/pages": 5, "winnow/hosts": 2, "memusage/max": 10, "elapsed_time_seconds": 3.0, "sessions": 2,
         "start_time": "2026-01-01T00:00:02", "finish_time": "2026-01-01T00:00:05", "finish_reason": "finished"}
    b = {"winnow/pages": 7, "winnow/hosts": 1, "memusage/max": 30, "elapsed_time_seconds": 4.0, "sessions": 2,
         "start_time": "2026-01-01T00:00:01", "finish_time": "2026-01-01T00:00:04", "finish_reason": "finished",
         "winnow/robots/disallowed": 1}
    merged = merge_worker_stats([WorkerResult(1, 0, "", b), WorkerResult(0, 0, "", a)], 3)
    assert merged["winnow/pages"] == 12 and merged["winnow/hosts"] == 3 and merged["winnow/robots/disallowed"] == 1
    assert merged["memusage/max"] == 30 and merged["elapsed_time_seconds"] == 4.0 and merged["sessions"] == 2
    assert (merged["start_time"], merged["finish_time"]) == ("2026-01-01T00:00:01", "2026-01-01T00:00:05")
    assert merged["finish_reason"] == "finished" and merged["workers"]["worker-0"] == a
    assert merged["winnow/workers"] == 3 and merged["winnow/workers_failed"] == 0
    failed = merge_worker_stats([WorkerResult(0, 0, "", a), WorkerResult(1, 1, "Traceback ... boom", None)], 2)
    assert failed["finish_reason"] == "mixed" and failed["winnow/workers_failed"] == 1
    assert failed["finish_reasons"]["worker-1"] == "failed (exit status 1)" and failed["winnow/pages"] == 5
    assert "boom" in failed["workers"]["worker-1"]["error"]


def test_refusals_before_any_worker_starts(tmp_path, capsys):
    seed = ["http://127.0.0.2:1/", "--allow-private", "--render", "never", "--no-progress"]
    assert cli_main(["crawl", *seed, "-o", str(tmp_path / "a"), "--address", "127.0.0.1:6379"]) == 2
    assert "--address needs --workers" in capsys.readouterr().err
    record = tmp_path / "b" / WORKERS_FILE
    record.parent.mkdir(parents=True)
    record.write_text(json.dumps({"workers": 2}))
    assert cli_main(["crawl", *seed, "-o", str(tmp_path / "b"), "--workers", "3", "--resume"]) == 2
    assert "--workers 2" in capsys.readouterr().err  # another N would move hosts between workers
    assert cli_main(["crawl", *seed, "-o", str(tmp_path / "b"), "--workers", "2"]) == 2
    assert "--resume" in capsys.readouterr().err
    assert cli_main(["crawl", *seed, "-o", str(tmp_path / "b"), "--resume"]) == 2  # a plain --resume of it
    assert "with --workers" in capsys.readouterr().err
    plain = tmp_path / "c" / ".crawl" / "journal.jsonl"
    plain.parent.mkdir(parents=True)
    plain.write_text('{"e":"q","u":"http://127.0.0.2:1/","d":0,"p":0,"r":null}\n')
    assert cli_main(["crawl", *seed, "-o", str(tmp_path / "c"), "--workers", "2", "--resume"]) == 2
    assert "without --workers" in capsys.readouterr().err


def hosts_for_two_workers(per_worker: int = 2) -> list[str]:
    """Loopback addresses that the hash gives ``per_worker`` each to workers 0 and 1 (of 2)."""
    picked: dict[int, list[str]] = defaultdict(list)
    for last in range(2, 60):
        host = f"127.0.0.{last}"
        if len(picked[worker_of(host, 2)]) < per_worker:
            picked[worker_of(host, 2)].append(host)
    return sorted(picked[0] + picked[1])


def host_site(name: str, others: list[str], delay: float = 0.0) -> dict:
    routes = {"/robots.txt": Route(body="User-agent: *\nAllow: /\n", content_type="text/plain")}
    for i in range(PAGES_PER_HOST):
        links = [f"/p{j}.html" for j in (i + 1, i + 2, i * 2 + 1) if j < PAGES_PER_HOST]
        links += [f"{other}/p1.html" for other in others]  # to hosts of the other worker: offsite there
        routes[f"/p{i}.html"] = Route(body=page(f"{name} page {i}", links=links), delay=delay)
    return routes


def start_sites(delay: float = 0.0) -> list[SiteServer]:
    hosts = hosts_for_two_workers()
    servers = [SiteServer(host=h) for h in hosts]  # bound first: the pages link to each other's ports
    for server in servers:
        server.routes = host_site(server.base, [s.base for s in servers if s is not server], delay)
        server.start()
    return servers


def distributed_cmd(servers: list[SiteServer], out: Path, *extra: str) -> list[str]:
    return [WINNOW, "crawl", *[s.url("/p0.html") for s in servers], "--output", str(out), "--workers", "2",
            "--allow-private", "--render", "never", "--max-depth", "99", *FAST, *extra]


def worker_pages(out: Path) -> dict[int, dict[str, dict]]:
    return {int(d.name.split("-")[1]): pages_in(d) for d in sorted(out.glob("worker-*"))}


def page_hits(server: SiteServer) -> Counter:
    return Counter(p for p in server.paths() if p.startswith("/p"))


@pytest.fixture(scope="module")
def two_worker_crawl(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist") / "crawl"
    servers = start_sites()
    try:
        result = subprocess.run(distributed_cmd(servers, out), capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr[-4000:]
        yield servers, out
    finally:
        for server in servers:
            server.stop()


@pytest.mark.slow
@pytest.mark.ray
def test_each_host_is_crawled_by_one_worker_once(two_worker_crawl):
    servers, out = two_worker_crawl
    by_worker = worker_pages(out)
    assert sorted(by_worker) == [0, 1]
    workers_of_host: dict[str, set[int]] = defaultdict(set)
    for k, pages in by_worker.items():
        for url in pages:
            workers_of_host[urlsplit(url).hostname].add(k)
    assert {h: ws for h, ws in workers_of_host.items()} == {
        s.base.split("//")[1].split(":")[0]: {worker_of(s.base.split("//")[1].split(":")[0], 2)} for s in servers}
    for server in servers:  # every page of every host, each fetched once, and robots.txt once
        assert page_hits(server) == Counter({f"/p{i}.html": 1 for i in range(PAGES_PER_HOST)}), server.base
        assert server.paths().count("/robots.txt") == 1
    assert not list(out.rglob("*.open"))


@pytest.mark.slow
@pytest.mark.ray
def test_merged_stats_are_the_workers_sums(two_worker_crawl):
    servers, out = two_worker_crawl
    merged = json.loads((out / "crawl-stats.json").read_text())
    workers = [json.loads((out / f"worker-{k}" / "crawl-stats.json").read_text()) for k in (0, 1)]
    assert merged["workers"] == {"worker-0": workers[0], "worker-1": workers[1]}
    for key in ("winnow/pages", "winnow/hosts", "winnow/warc/files", "downloader/request_count",
                "winnow/gate/offsite"):
        assert merged[key] == sum(w.get(key, 0) for w in workers), key
    assert merged["winnow/pages"] == len(servers) * PAGES_PER_HOST and merged["winnow/hosts"] == len(servers)
    assert merged["winnow/gate/offsite"] > 0  # the links to the other worker's hosts
    assert merged["finish_reason"] == "finished" and merged["winnow/workers_failed"] == 0
    assert json.loads((out / WORKERS_FILE).read_text())["workers"] == 2


@pytest.mark.slow
@pytest.mark.ray
def test_winnow_run_reads_the_worker_folders(two_worker_crawl, tmp_path):
    servers, out = two_worker_crawl
    subprocess.run([WINNOW, "run", "light", "--input", str(out), "--output", str(tmp_path / "o"), "--local",
                    "--no-progress"], check=True, capture_output=True, timeout=300)
    docs = pd.read_parquet(tmp_path / "o" / "text")
    crawled = {url for pages in worker_pages(out).values() for url in pages}
    assert set(docs["url"]) <= crawled
    assert {urlsplit(u).hostname for u in docs["url"]} == {urlsplit(s.base).hostname for s in servers}


def _sigint_as_at_a_terminal() -> None:
    """In the child before exec: SIGINT handled as a user's terminal leaves it. A suite started in the background
    by a non-interactive shell (``tests &``) has SIGINT ignored, which every child inherits, and Python then installs
    no KeyboardInterrupt handler: the interrupt would never reach the command."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def wait_for_worker_pages(out: Path, n: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        journals = [out / f"worker-{k}" / ".crawl" / "journal.jsonl" for k in (0, 1)]
        if all(j.exists() and j.read_text().count('"o":"page"') >= n for j in journals):
            return
        time.sleep(0.1)
    raise AssertionError("the workers made no progress")


@pytest.mark.slow
@pytest.mark.ray
def test_interrupt_then_resume_continues_each_worker(tmp_path):
    out = tmp_path / "crawl"
    servers = start_sites(delay=0.05)
    try:
        # 2 s per host: a worker's 16 pages take 16 s, time enough for the interrupt to land mid-crawl on a loaded
        # machine (at 1 s both workers finished before it arrived, under a load of 10 on 2 cores)
        cmd = distributed_cmd(servers, out, "-s", "DOWNLOAD_DELAY=2")
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                preexec_fn=_sigint_as_at_a_terminal)
        wait_for_worker_pages(out, 3)
        os.kill(proc.pid, signal.SIGINT)  # the driver alone: it stops each worker's crawl as Ctrl-C does
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 130, err[-3000:]
        first = json.loads((out / "crawl-stats.json").read_text())
        assert first["winnow/interrupted"] and first["finish_reason"] == "shutdown", first["finish_reasons"]
        total = len(servers) * PAGES_PER_HOST
        assert 6 <= first["winnow/pages"] < total
        fetched_before = sum(sum(page_hits(s).values()) for s in servers)
        result = subprocess.run([*cmd, "--resume"], capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr[-4000:]
        merged = json.loads((out / "crawl-stats.json").read_text())
        assert merged["winnow/pages"] == total and merged["sessions"] == 2 and merged["finish_reason"] == "finished"
        assert {url for pages in worker_pages(out).values() for url in pages} == {
            s.url(f"/p{i}.html") for s in servers for i in range(PAGES_PER_HOST)}  # no page lost
        refetched = sum(sum(page_hits(s).values()) for s in servers) - total
        assert 0 <= refetched <= max(fetched_before - first["winnow/pages"], 0)  # at most what was in flight
        for server in servers:  # and nothing twice otherwise
            assert max(page_hits(server).values()) <= 2
    finally:
        for server in servers:
            server.stop()


@pytest.mark.slow
@pytest.mark.ray
def test_a_failing_worker_is_reported_and_the_others_output_stays(tmp_path):
    out = tmp_path / "crawl"
    servers = start_sites()
    try:
        # Worker 1's journal is a folder: its crawl cannot start. A resumed crawl, so the folder is accepted.
        (out / WORKERS_FILE).parent.mkdir(parents=True)
        (out / WORKERS_FILE).write_text(json.dumps({"workers": 2}))
        (out / "worker-1" / ".crawl" / "journal.jsonl").mkdir(parents=True)
        result = subprocess.run([*distributed_cmd(servers, out), "--resume"], capture_output=True, text=True,
                                timeout=300)
        assert result.returncode == 1
        assert "worker-1 failed" in result.stderr and "IsADirectoryError" in result.stderr
        merged = json.loads((out / "crawl-stats.json").read_text())
        assert merged["winnow/workers_failed"] == 1 and merged["finish_reason"] == "mixed"
        assert merged["winnow/pages"] == 2 * PAGES_PER_HOST == len(worker_pages(out)[0])  # worker 0's two hosts
    finally:
        for server in servers:
            server.stop()
