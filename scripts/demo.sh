#!/usr/bin/env bash
# Set up (venv + pinned packages) and run winnow's default pipeline, offline, on embedded local Ray,
# over a sample WARC built from the demo site the project ships (crawler/demo_site).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
OUT=${WINNOW_DEMO_OUT:-out/demo}
mkdir -p out/sample
.venv/bin/python -m pipelines.sample out/sample/demo-site.warc.gz
.venv/bin/winnow run default --input out/sample/demo-site.warc.gz --output "$OUT" "$@"
.venv/bin/winnow inspect "$OUT"
