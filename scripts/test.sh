#!/usr/bin/env bash
# Set up (venv + pinned packages), lint, and run the whole test suite (slow, Ray, browser and LLM
# tests included). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/python -m pytest "$@"
