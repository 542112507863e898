"""`winnow submit` and `winnow jobs` (pipelines/app/jobs.py) against a real Ray head on 127.0.0.1, and their one-line
refusals without one.

The head is `ray start --head --block` with its own --temp-dir and free ports: other Ray instances on the machine
(other tests, other people) neither find it (the address file goes to that temp dir, not /tmp/ray) nor get stopped
with it (teardown signals its own process group and the processes under its temp dir, never `ray stop`). It runs
with token auth on (RAY_AUTH_MODE=token and a token of its own), as Ray 2.60 does by default, so the client side of
auth is exercised too. The CLI runs in subprocesses: Ray reads RAY_AUTH_MODE into its config once per process.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
import requests

from pipelines.app import jobs
from pipelines.app.cli import main
from pipelines.app.job_entry import job_entry
from pipelines.app.sample import build_sample_warc
from pipelines.config import load_config
from pipelines.runner import RunOptions, run

REPO = Path(__file__).resolve().parents[2]
RAY = Path(sys.executable).parent / "ray"
PORT_FLAGS = ("port", "dashboard-port", "dashboard-agent-listen-port", "dashboard-agent-grpc-port",
              "ray-client-server-port", "metrics-export-port", "runtime-env-agent-port", "node-manager-port",
              "object-manager-port")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _client_env(token: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("RAY_ADDRESS", "RAY_API_SERVER_ADDRESS", "RAY_AUTH_MODE", "RAY_AUTH_TOKEN",
                        "RAY_AUTH_TOKEN_PATH")}
    if token:
        env.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=token)
    return env


def _stop_head(proc: subprocess.Popen, temp_dir: str) -> None:
    """Only this head: its process group (start_new_session), then anything still running under its temp dir."""
    import psutil

    for sig, wait_s in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(timeout=wait_s)
        except subprocess.TimeoutExpired:
            continue
    # `ray start --block` may exit on SIGTERM before its children; they are in its group, which SIGKILL reaches.
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    for p in psutil.process_iter(["cmdline"]):
        if any(temp_dir in arg for arg in (p.info["cmdline"] or [])):
            with contextlib.suppress(psutil.Error):
                p.kill()
    shutil.rmtree(temp_dir, ignore_errors=True)


@pytest.fixture(scope="module")
def head() -> Iterator[tuple[str, str]]:
    """(dashboard URL, token) of a one-node Ray cluster with the job server, for this module."""
    if not RAY.exists():
        pytest.skip(f"no {RAY}")
    temp_dir = tempfile.mkdtemp(prefix="wj", dir="/tmp")  # short: Ray's socket paths live under it
    ports = {flag: _free_port() for flag in PORT_FLAGS}
    token = uuid.uuid4().hex
    env = _client_env(token)
    cmd = [str(RAY), "start", "--head", "--block", "--node-ip-address", "127.0.0.1", "--dashboard-host", "127.0.0.1",
           "--include-dashboard=true", "--num-cpus", "2", "--temp-dir", temp_dir, "--disable-usage-stats",
           *(f"--{flag}={port}" for flag, port in ports.items())]
    log = open(os.path.join(temp_dir, "head.log"), "w")  # noqa: SIM115 - closed in the teardown below
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{ports['dashboard-port']}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if requests.get(f"{url}/api/version", headers={"Authorization": f"Bearer {token}"},
                                timeout=2).ok:
                    break
            except requests.RequestException:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the Ray head did not come up:\n{Path(temp_dir, 'head.log').read_text()[-3000:]}")
            time.sleep(0.5)
        yield url, token
    finally:
        log.close()
        _stop_head(proc, temp_dir)


def _cli(*args: str, token: str | None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pipelines.app.cli", *args], env=_client_env(token), cwd=REPO,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def submitted(head: tuple[str, str], tmp_path_factory: pytest.TempPathFactory) -> dict:
    url, token = head
    tmp = tmp_path_factory.mktemp("jobs")
    warc = build_sample_warc(tmp / "site.warc.gz")
    job_id = f"winnow-test-{uuid.uuid4().hex[:8]}"
    started = time.monotonic()
    proc = _cli("submit", "light", "--address", url, "--input", str(warc), "--output", str(tmp / "out"),
                "--wait", "--submission-id", job_id, token=token)
    return {"url": url, "token": token, "tmp": tmp, "warc": warc, "job_id": job_id, "proc": proc,
            "seconds": time.monotonic() - started}


def _ids(folder: Path) -> list[str]:
    return sorted(pd.read_parquet(folder, columns=["id"])["id"])


@pytest.mark.ray
@pytest.mark.slow
def test_submit_wait_runs_the_pipeline_as_a_job_with_the_rows_of_a_local_run(submitted: dict) -> None:
    proc = submitted["proc"]
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert f"submitted {submitted['job_id']}" in proc.stdout
    assert "out/text:" in proc.stdout  # the job's own summary, streamed back while waiting
    assert f"job {submitted['job_id']}: SUCCEEDED" in proc.stderr
    tmp = submitted["tmp"]
    local = tmp / "local"
    run(RunOptions(config=load_config("light"), inputs=[str(submitted["warc"])], output=local, local=True,
                   progress=False))
    for name in ("text", "interleaved"):
        assert _ids(tmp / "out" / name) == _ids(local / name) != []
    import json

    manifest = json.loads((tmp / "out" / "manifest.json").read_text())
    assert manifest["runner"] == "ray@auto" and manifest["finished_at"]


@pytest.mark.ray
@pytest.mark.slow
def test_jobs_list_status_and_logs_show_the_job(submitted: dict) -> None:
    url, token, job_id = submitted["url"], submitted["token"], submitted["job_id"]
    listed = _cli("jobs", "list", "--address", url, token=token)
    assert listed.returncode == 0, listed.stderr
    row = next(line for line in listed.stdout.splitlines() if line.startswith(job_id))
    assert "SUCCEEDED" in row and "light" in row and str(submitted["tmp"] / "out") in row

    status = _cli("jobs", "status", job_id, "--address", url.removeprefix("http://"), token=token)  # HOST:PORT too
    assert status.returncode == 0, status.stderr
    assert "status:     SUCCEEDED" in status.stdout
    assert "-m pipelines.app.cli run light" in status.stdout and "--address auto" in status.stdout

    logs = _cli("jobs", "logs", job_id, "--address", url, token=token)
    assert logs.returncode == 0 and "out/text:" in logs.stdout
    followed = _cli("jobs", "logs", job_id, "--follow", "--address", url, token=token)  # ended: prints, returns
    assert followed.returncode == 0 and "out/text:" in followed.stdout

    missing = _cli("jobs", "status", "raysubmit_nosuchjob", "--address", url, token=token)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "no such job" in missing.stderr
    stopped = _cli("jobs", "stop", job_id, "--address", url, token=token)
    assert stopped.returncode == 0 and "was not running" in stopped.stdout


@pytest.mark.ray
@pytest.mark.slow
def test_a_cluster_with_token_auth_without_a_token_is_one_line(head: tuple[str, str]) -> None:
    url, _ = head
    proc = _cli("jobs", "list", "--address", url, token=None)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "RAY_AUTH_MODE=token" in proc.stderr, proc.stderr
    wrong = _cli("jobs", "list", "--address", url, token="0" * 32)
    assert wrong.returncode == 2 and "refused the token" in wrong.stderr and "Traceback" not in wrong.stderr


@pytest.mark.parametrize("argv", [
    ["jobs", "list"],
    ["jobs", "status", "raysubmit_x"],
    ["submit", "light", "--input", "/data/a.warc.gz", "--output", "/data/out"],
])
def test_an_unreachable_address_is_one_line_and_status_2(argv: list[str], capsys: pytest.CaptureFixture,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    address = f"http://127.0.0.1:{_free_port()}"  # nothing listens there
    assert main([*argv, "--address", address]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot reach the Ray job server" in err and address in err


def test_relative_paths_are_refused_before_anything_is_sent(tmp_path: Path) -> None:
    with pytest.raises(jobs.JobsError, match="absolute path"):
        jobs.build_submission("light", ["crawl/"], "/data/out")
    with pytest.raises(jobs.JobsError, match="--output out"):
        jobs.build_submission("light", ["/data/crawl"], "out")
    with pytest.raises(jobs.JobsError, match="--dedup-against"):
        jobs.build_submission("light", ["/data/crawl"], "/data/out", dedup_against=["runs/old"])


def test_a_bundled_config_goes_by_name_with_the_run_options() -> None:
    sub = jobs.build_submission("light", ["/data/crawl/*.warc.gz"], "/data/out", python="/opt/venv/bin/python",
                                run_args=["--annotate"], dedup_against=["/data/runs/a"])
    assert sub.entrypoint == ("/opt/venv/bin/python -m pipelines.app.cli run light --input '/data/crawl/*.warc.gz' "
                              "--output /data/out --annotate --dedup-against /data/runs/a --address auto "
                              "--no-progress")  # the glob quoted: winnow expands it on the cluster, not the shell
    assert sub.runtime_env["working_dir"] == str(REPO)
    assert {".git", "/.venv", "/out", "/bench/results", "__pycache__"} <= set(sub.runtime_env["excludes"])
    assert jobs.CONFIG_ENV not in sub.runtime_env["env_vars"]
    assert sub.metadata == {"winnow": "run", "config": "light", "output": "/data/out"}


def test_a_config_file_travels_in_the_job_and_is_run_from_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture) -> None:
    config = tmp_path / "mine.yaml"
    config.write_text((REPO / "pipelines" / "configs" / "light.yaml").read_text())
    warc = build_sample_warc(tmp_path / "site.warc.gz")
    sub = jobs.build_submission(str(config), [str(warc)], str(tmp_path / "out"))
    assert " -m pipelines.app.job_entry run mine.yaml " in sub.entrypoint and str(tmp_path) not in sub.entrypoint.split(
        "--input")[0]
    env = sub.runtime_env["env_vars"]
    assert env[jobs.CONFIG_ENV] == config.read_text() and env[jobs.CONFIG_NAME_ENV] == "mine.yaml"
    # What the entrypoint does on the cluster, here: its working directory stands for the shipped copy.
    job_cwd = tmp_path / "job"
    job_cwd.mkdir()
    monkeypatch.chdir(job_cwd)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    argv = sub.entrypoint.split(" -m pipelines.app.job_entry ")[1].split()
    assert job_entry([*argv, "--dry-run"]) == 0
    assert (job_cwd / jobs.CONFIG_DIR / "mine.yaml").read_text() == config.read_text()
    assert "_winnow_job/mine.yaml" in capsys.readouterr().out


def test_address_comes_from_the_flag_then_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAY_ADDRESS", "http://from-env:8265")
    assert jobs.normalize_address("head:8265") == "http://head:8265"
    assert jobs.normalize_address(None) == "http://from-env:8265"
    with jobs._without_address_env():  # Ray's client would let the environment override the flag
        assert "RAY_ADDRESS" not in os.environ
    assert os.environ["RAY_ADDRESS"] == "http://from-env:8265"
    monkeypatch.delenv("RAY_ADDRESS")
    monkeypatch.delenv("RAY_API_SERVER_ADDRESS", raising=False)
    with pytest.raises(jobs.JobsError, match="--address"):
        jobs.normalize_address(None)
