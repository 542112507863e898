#!/usr/bin/env bash
# Set up (venv + pinned packages), lint, and run the whole test suite (slow, Ray, browser and LLM
# tests included). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
WINNOW_EXTRAS=dev,clip bash scripts/setup.sh  # the clip extra: tests/filters/test_clip_score.py
.venv/bin/ruff check .
.venv/bin/python -m pytest "$@"
