"""Shared fixtures: paths to the evaluation data beside the checkout, and one local Ray per session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests import s3_server

# The object-storage tests' S3 server (tests/s3_server.py): its address and test credentials are the standard chain's
# variables for the whole session, set before any Ray worker or subprocess starts, so that each finds the server on
# 127.0.0.1 and none reaches a real store with a developer's own credentials. The server starts on first use.
_S3_PORT = s3_server.free_port()
for _name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN", "AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE"):
    os.environ.pop(_name, None)
os.environ.update(s3_server.session_env(_S3_PORT))

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"
SHARED_REASON = "needs ../shared/data (the evaluation data beside the checkout; CI has it)"


def needs_shared(*parts: str) -> pytest.MarkDecorator:
    """Mark a test (or a module, as ``pytestmark``) that reads ``../shared/data/<parts>``: it runs where the data
    is (CI) and is skipped, with the reason, on a clone without it (a user's machine). Never passes without it."""
    path = SHARED_DATA.joinpath(*parts)
    return pytest.mark.skipif(not path.exists(), reason=f"{SHARED_REASON}: {path} is absent")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(SHARED_REASON)
    return SHARED_DATA


@pytest.fixture(scope="session")
def ray_local():
    """One embedded Ray for the whole session (starting one costs seconds and ~1 GB)."""
    os.environ.setdefault("RAY_DEDUP_LOGS", "1")
    from pipelines.ray_data import init_ray, shutdown_ray

    init_ray(None)
    yield
    shutdown_ray()


def step_counts(steps: list[dict]) -> list[dict]:
    """stats.json step entries without their measured times (which differ between runs and runners)."""
    return [{k: v for k, v in s.items() if k not in ("seconds", "cpu_seconds")} for s in steps]


@pytest.fixture(scope="session")
def s3() -> s3_server.MotoServer:
    """The session's S3-compatible server on 127.0.0.1 (moto); ``s3.bucket()`` makes a fresh bucket."""
    server = s3_server.MotoServer(_S3_PORT)
    yield server
    server.stop()
