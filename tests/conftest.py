"""Shared fixtures: paths to the evaluation data beside the checkout, and one local Ray per session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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
