"""``winnow submit`` and ``winnow jobs``: `winnow run` as a Ray job on a cluster, through Ray's Job Submission API.

What this relies on (Ray 2.60, its Job Submission docs and ``ray/dashboard/modules/job/sdk.py``):

- ``ray.job_submission.JobSubmissionClient(address)`` speaks HTTP to the job server inside the head's dashboard
  (``http://HEAD:8265`` by default), so the head must run ``ray[default]`` with the dashboard on
  (``ray start --head --include-dashboard=true``; ``--dashboard-host 0.0.0.0`` to be reached from other machines).
  The client's constructor checks the connection (``GET /api/version``) without a timeout, so winnow asks first,
  with one, to fail fast on an address that does not answer.
- The client's ``address`` argument is *overridden* by ``RAY_API_SERVER_ADDRESS`` or ``RAY_ADDRESS`` in the
  environment. A command-line flag should win, so winnow hides those two while it builds the client when
  ``--address`` is given, and uses them only when it is not.
- ``runtime_env={"working_dir": DIR, "excludes": [...]}``: the client zips DIR (gitignore-style ``excludes``; the
  ``.gitignore`` files in DIR are honoured too unless ``RAY_RUNTIME_ENV_IGNORE_GITIGNORE=1``), uploads it to the
  cluster's GCS (bounded by the gRPC message size, 512 MiB) and every node unpacks it. The entrypoint runs with that
  copy as its working directory and the job's workers get it first on ``PYTHONPATH``: the cluster runs the code
  that was submitted, not whatever is installed there (an editable install's finder comes after ``sys.path``).
- The entrypoint is a shell command (``shell=True``) run on the head by a supervisor actor, with ``RAY_ADDRESS``
  set, so ``ray.init(address="auto")`` in it joins the cluster and its tasks inherit the job's runtime_env. It runs
  with the cluster's environment, not the submitter's: ``python`` there may not be the one with winnow's packages
  (STACK-NOTES: a job's entrypoint must use the venv's python), hence ``--python``.
- Token auth (on by default in 2.60 for clusters started where a token exists): a client sends
  ``Authorization: Bearer <token>`` only when ``RAY_AUTH_MODE=token`` is in its environment (an explicit address
  never switches it on by itself); the token comes from ``RAY_AUTH_TOKEN``, else the file named by
  ``RAY_AUTH_TOKEN_PATH``, else ``~/.ray/auth_token``. Without it the server answers 401, with a wrong one 403.
- Job states: PENDING, RUNNING, then STOPPED, SUCCEEDED or FAILED (terminal); an entrypoint that exits non-zero is
  FAILED. ``tail_job_logs`` streams the driver's output over a websocket until the job ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shlex
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from pipelines.config import BUNDLED

REPO_ROOT = Path(__file__).resolve().parents[2]
# Never shipped: the environment and everything a run or a tool leaves beside the code (anchored at the root with
# "/" where a name could also be a real folder deeper down).
EXCLUDES = [".git", "/.venv", "/venv", "/out", "/bench/results", "/build", "/dist", "__pycache__", "*.pyc",
            ".pytest_cache", ".ruff_cache", ".mypy_cache", "*.egg-info", "*.tmp"]
# A config file (not a bundled name) travels in the job's environment and is written out beside the code by
# ``pipelines.app.job_entry`` before the run: a file outside the repo cannot be in the shipped folder, and one inside
# it may be git-ignored (so left out of the upload). Configs are a few KB; Linux caps one environment string at 128 KiB.
CONFIG_ENV = "WINNOW_JOB_CONFIG"
CONFIG_NAME_ENV = "WINNOW_JOB_CONFIG_NAME"
CONFIG_DIR = "_winnow_job"
MAX_CONFIG_BYTES = 100_000
TERMINAL = {"SUCCEEDED", "FAILED", "STOPPED"}
PREFLIGHT_TIMEOUT_S = 10.0
AUTH_HINT = ("set RAY_AUTH_MODE=token and the cluster's token in RAY_AUTH_TOKEN (or a file named by "
             "RAY_AUTH_TOKEN_PATH, or ~/.ray/auth_token)")


class JobsError(Exception):
    """Something the user can fix (an address, a path, a token): one line, exit status 2."""


@dataclass
class Submission:
    """What ``winnow submit`` sends: the entrypoint, the runtime_env and the metadata of one job."""

    entrypoint: str
    runtime_env: dict[str, Any]
    metadata: dict[str, str] = field(default_factory=dict)


def build_submission(config: str, inputs: Sequence[str], output: str, *, python: str | None = None,
                     run_args: Sequence[str] = (), dedup_against: Sequence[str] = (),
                     working_dir: Path = REPO_ROOT) -> Submission:
    """The job for ``winnow run CONFIG --input ... --output ... RUN_ARGS --address auto`` on the cluster.

    Paths are read and written on the cluster, where the job's working directory is a temporary copy of the code:
    a relative path would land in that copy and vanish with it, so only absolute paths and URLs (``s3://...``: the
    way a cluster without a shared file system reads and writes) are accepted."""
    from pipelines import storage

    for flag, paths in (("--input", inputs), ("--output", [output]), ("--dedup-against", dedup_against)):
        for p in paths:
            if not (storage.is_remote(p) or os.path.isabs(p)):
                raise JobsError(f"{flag} {p}: give an absolute path as the cluster sees it (the job runs in a "
                                "temporary copy of the code, where a relative path would vanish with it)")
    env_vars = {"PYTHONWARNINGS": "ignore::DeprecationWarning"}  # as the embedded runner sets for its workers
    if config in BUNDLED and not Path(config).is_file():
        # A bundled name resolves on the cluster inside the shipped pipelines/configs, as it does here.
        module, config_arg = "pipelines.app.cli", config
    else:
        path = Path(config)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise JobsError(f"config {config}: {exc.strerror or exc}") from exc
        if len(text.encode()) > MAX_CONFIG_BYTES:
            raise JobsError(f"config {config}: over {MAX_CONFIG_BYTES} bytes, too large to ship in the job's "
                            "environment")
        env_vars[CONFIG_ENV] = text
        env_vars[CONFIG_NAME_ENV] = path.name
        module, config_arg = "pipelines.app.job_entry", path.name
    argv = [python or sys.executable, "-m", module, "run", config_arg, "--input", *inputs, "--output", output,
            *run_args, *(["--dedup-against", *dedup_against] if dedup_against else []),
            "--address", "auto", "--no-progress"]
    runtime_env = {"working_dir": str(working_dir), "excludes": list(EXCLUDES), "env_vars": env_vars}
    metadata = {"winnow": "run", "config": config if module == "pipelines.app.cli" else Path(config).name,
                "output": storage.redact(output)}
    return Submission(shlex.join(argv), runtime_env, metadata)


def normalize_address(address: str | None) -> str:
    """The job server's URL: ``--address``, else ``RAY_API_SERVER_ADDRESS`` / ``RAY_ADDRESS``; ``HOST:PORT`` means
    ``http://HOST:PORT`` (the dashboard's port, 8265 by default, not the GCS port)."""
    address = address or os.environ.get("RAY_API_SERVER_ADDRESS") or os.environ.get("RAY_ADDRESS")
    if not address:
        raise JobsError("no cluster address: give --address http://HEAD:8265 (the head's dashboard) or set "
                        "RAY_API_SERVER_ADDRESS")
    if address == "auto" or "://" in address:
        return address.rstrip("/")
    return f"http://{address}".rstrip("/")


@contextlib.contextmanager
def _without_address_env() -> Iterator[None]:
    """Ray lets RAY_API_SERVER_ADDRESS / RAY_ADDRESS override the client's address argument; --address must win."""
    saved = {k: os.environ.pop(k) for k in ("RAY_API_SERVER_ADDRESS", "RAY_ADDRESS") if k in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


def _preflight(url: str) -> None:
    """Fail fast and in one line: the client's own check has no timeout and Ray's auth message spans lines."""
    import requests

    try:
        r = requests.get(f"{url}/api/version", timeout=PREFLIGHT_TIMEOUT_S)
    except requests.RequestException as exc:
        raise JobsError(f"cannot reach the Ray job server at {url} ({type(exc).__name__}): is the head's dashboard "
                        "running (ray start --head --include-dashboard=true) and is this its address and port "
                        "(8265 by default)?") from exc
    token_mode = os.environ.get("RAY_AUTH_MODE", "").lower() == "token"
    if r.status_code == 401 and not token_mode:
        raise JobsError(f"the Ray cluster at {url} requires token authentication: {AUTH_HINT}")
    if r.status_code not in (200, 401, 403):
        raise JobsError(f"{url} answered {r.status_code} to /api/version: is it a Ray dashboard (port 8265 by "
                        "default, not the GCS port)?")


def connect(address: str | None) -> Any:
    """A JobSubmissionClient for the cluster, or JobsError with one line saying what is wrong."""
    url = normalize_address(address)
    if url.startswith(("http://", "https://")):
        _preflight(url)
    from ray.exceptions import AuthenticationError
    from ray.job_submission import JobSubmissionClient

    try:
        if address:
            with _without_address_env():
                return JobSubmissionClient(url)
        return JobSubmissionClient(url)
    except AuthenticationError as exc:
        raise JobsError(f"the Ray cluster at {url} refused the token: {AUTH_HINT}") from exc
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise JobsError(f"cannot use the Ray job server at {url}: {_first_line(exc)}") from exc


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


@contextlib.contextmanager
def _requests_as_jobs_errors(what: str) -> Iterator[None]:
    """The client's calls raise RuntimeError (with the HTTP status) or requests' errors: one line each."""
    import requests
    from ray.exceptions import AuthenticationError

    try:
        yield
    except AuthenticationError as exc:
        raise JobsError(f"{what}: the cluster refused the request: {AUTH_HINT}") from exc
    except requests.RequestException as exc:
        raise JobsError(f"{what}: lost the Ray job server ({type(exc).__name__})") from exc
    except RuntimeError as exc:
        msg = _first_line(exc)
        if "status code 404" in msg:
            msg = "no such job on this cluster"
        raise JobsError(f"{what}: {msg}") from exc


def submit(client: Any, sub: Submission, submission_id: str | None = None) -> str:
    with _requests_as_jobs_errors("submit"):
        return client.submit_job(entrypoint=sub.entrypoint, runtime_env=sub.runtime_env, metadata=sub.metadata,
                                 submission_id=submission_id)


def status(client: Any, job_id: str) -> Any:
    """The job's JobDetails (status, message, start and end times, entrypoint, metadata)."""
    with _requests_as_jobs_errors(f"job {job_id}"):
        return client.get_job_info(job_id)


def list_jobs(client: Any) -> list[Any]:
    with _requests_as_jobs_errors("list"):
        jobs = client.list_jobs()
    return sorted(jobs, key=lambda j: j.start_time or 0)


def logs(client: Any, job_id: str) -> str:
    with _requests_as_jobs_errors(f"job {job_id}"):
        return client.get_job_logs(job_id)


def stop(client: Any, job_id: str) -> bool:
    """Ask the job to stop (SIGTERM, then SIGKILL after Ray's grace period); True if it was running."""
    with _requests_as_jobs_errors(f"job {job_id}"):
        return bool(client.stop_job(job_id))


def follow(client: Any, job_id: str, out: IO[str] = sys.stdout, poll_s: float = 1.0) -> str:
    """Write the job's logs to ``out`` as they come until the job ends; its final status."""
    logging.getLogger("ray.dashboard.modules.job.sdk").setLevel(logging.WARNING)  # "WebSocket closed ..." at the end
    written = 0
    try:
        async def tail() -> None:
            nonlocal written
            async for chunk in client.tail_job_logs(job_id):
                out.write(chunk)
                out.flush()
                written += len(chunk)

        asyncio.run(tail())
    except Exception:  # a websocket that drops (a proxy, a restart): polling below takes over
        pass
    # The websocket closes when the job ends; polling covers both the last lines and a dropped stream.
    with _requests_as_jobs_errors(f"job {job_id}"):
        while True:
            state = str(client.get_job_status(job_id))
            text = client.get_job_logs(job_id)
            if len(text) > written:
                out.write(text[written:])
                out.flush()
                written = len(text)
            if state in TERMINAL:
                return state
            time.sleep(poll_s)


def describe(job: Any) -> list[str]:
    """Lines of ``winnow jobs status``."""
    lines = [f"job:        {job.submission_id or job.job_id}", f"status:     {job.status}"]
    if job.message:
        lines.append(f"message:    {_first_line(Exception(job.message))}")
    lines.append(f"started:    {_when(job.start_time)}")
    if job.end_time:
        lines.append(f"ended:      {_when(job.end_time)} ({(job.end_time - job.start_time) / 1000:.1f} s)")
    for key, value in sorted((job.metadata or {}).items()):
        lines.append(f"{key + ':':<12}{value}")
    lines.append(f"entrypoint: {job.entrypoint}")
    return lines


def table(jobs: Sequence[Any]) -> list[str]:
    """Lines of ``winnow jobs list``: one job a line, oldest first."""
    lines = [f"{'job':<30}{'status':<11}{'started':<21}{'config':<12}output"]
    for j in jobs:
        meta = j.metadata or {}
        lines.append(f"{(j.submission_id or j.job_id or '-'):<30}{j.status!s:<11}{_when(j.start_time):<21}"
                     f"{meta.get('config', '-'):<12}{meta.get('output', _short(j.entrypoint))}")
    return lines


def _when(ms: int | None) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S") if ms else "-"


def _short(text: str | None, width: int = 60) -> str:
    text = text or "-"
    return text if len(text) <= width else text[: width - 3] + "..."

