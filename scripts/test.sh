#!/usr/bin/env bash
# Set up (venv + pinned packages), lint, and run the whole test suite (slow, Ray, browser and LLM
# tests included). Extra arguments go to pytest.
#
#   bash scripts/test.sh [PYTEST ARGS]          everything (what CI runs, via .ci/run)
#   bash scripts/test.sh --fast [PYTEST ARGS]   the inner loop: tests not marked slow, ray, browser or llm, on
#                                               every core (pytest-xdist); CI still runs everything
set -euo pipefail
cd "$(dirname "$0")/.."
fast=0
if [[ "${1:-}" == "--fast" ]]; then
    fast=1
    shift
fi
WINNOW_EXTRAS=dev,clip bash scripts/setup.sh  # the clip extra: tests/filters/test_clip_score.py
.venv/bin/ruff check .
.venv/bin/lint-imports --no-cache  # the layers and no import cycles (pyproject.toml, docs/architecture.md)
if (( fast )); then
    exec .venv/bin/python -m pytest -m "not slow and not ray and not browser and not llm" -n auto "$@"
fi
exec .venv/bin/python -m pytest "$@"
