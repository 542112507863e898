#!/usr/bin/env bash
# Whether the disk has room for scripts/setup.sh's pip install: a clear error before pip starts, instead of pip's own
# "[Errno 28] No space left on device", which comes after minutes of work, halfway through a package, and names neither
# the folder nor what is needed (a CI run of this project failed so, 24 s in, on a disk filled by old clones).
#
#   bash scripts/check_disk.sh EXTRAS VENV [DIR ...]     exit 1 with a message when a folder's disk is too full
#
# Measured here (2026-12-07, Python 3.11): a venv with the dev extra takes 2.0 GB, with dev,clip 7.3 GB (torch 2.14.1
# is a CUDA build of 5.5 GB); pip's build and unpack folders under $TMPDIR need room too while it works, so the
# figures below leave about 1 GB over. What VENV already holds counts as installed: a venv brought up to date needs
# only the difference.
set -euo pipefail
extras=$1
venv=$2
shift 2
need_mb=3000
[[ ",$extras," == *,clip,* ]] && need_mb=8500
have_mb=0
[ -d "$venv" ] && have_mb=$(du -sm "$venv" 2>/dev/null | cut -f1)
need_mb=$(( need_mb - have_mb > 1000 ? need_mb - have_mb : 1000 ))
for dir in "$venv" "$@"; do
  [ -e "$dir" ] || dir=$(dirname "$dir")
  # a df that answers nothing (a filesystem it cannot read) is no reason to stop: pip will tell, as before
  free_mb="" mount=""
  read -r free_mb mount < <(df -Pm "$dir" 2>/dev/null | awk 'NR == 2 {print $4, $6}') || true
  if [ -n "${free_mb:-}" ] && [ "$free_mb" -lt "$need_mb" ]; then
    echo "setup: $free_mb MB free on the disk of $dir (mounted at $mount); installing winnow with the extras" \
         "'$extras' needs about $need_mb MB more. Free some space and run it again." >&2
    exit 1
  fi
done
