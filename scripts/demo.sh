#!/usr/bin/env bash
# Set up (venv + pinned packages), then, offline: serve the bundled demo site on 127.0.0.1, crawl it
# politely into WARC files (`winnow crawl`), and run the default pipeline on the crawl on embedded
# local Ray (`winnow run`). Extra arguments go to `winnow run`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
OUT=${WINNOW_DEMO_OUT:-out/demo}
rm -rf "$OUT"
mkdir -p "$OUT"
.venv/bin/python -m crawler.site_server > "$OUT/site-url" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$OUT/site-url" ] && break; sleep 0.1; done
URL=$(head -1 "$OUT/site-url")
echo "demo site at $URL"
# --allow-private: the demo site is on 127.0.0.1, which the address guard otherwise refuses.
.venv/bin/winnow crawl "$URL" --output "$OUT/crawl" --allow-private --max-pages 100 -s DOWNLOAD_DELAY=0.2
.venv/bin/winnow run default --input "$OUT/crawl" --output "$OUT/corpus" "$@"
.venv/bin/winnow inspect "$OUT/corpus"
