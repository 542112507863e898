"""Shared fixtures: paths to the evaluation data beside the checkout, and one local Ray per session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    assert SHARED_DATA.is_dir(), f"evaluation data expected at {SHARED_DATA} (../shared/data beside the repo)"
    return SHARED_DATA


@pytest.fixture(scope="session")
def ray_local():
    """One embedded Ray for the whole session (starting one costs seconds and ~1 GB)."""
    os.environ.setdefault("RAY_DEDUP_LOGS", "1")
    from pipelines.ray_data import init_ray, shutdown_ray

    init_ray(None)
    yield
    shutdown_ray()
