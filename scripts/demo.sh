#!/usr/bin/env bash
# Set up (venv + pinned packages), then, offline: `winnow demo` serves the bundled demo site on 127.0.0.1, crawls it
# politely into WARC files, runs the default pipeline on the crawl on embedded local Ray and writes the three
# outputs and report.html (pipelines/app/demo.py). Extra arguments go to `winnow demo` (e.g. --local).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/winnow demo --output "${WINNOW_DEMO_OUT:-out/demo}" "$@"
