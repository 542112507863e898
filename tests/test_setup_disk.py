"""scripts/check_disk.sh: setup stops with a clear message before pip starts when the disk is too full.

``df`` is replaced by a stub on PATH that reports a chosen number of free megabytes, so the test does not depend on
this machine's disk."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "check_disk.sh"


def _check(tmp_path: Path, free_mb: int, extras: str, venv_mb: int = 0) -> subprocess.CompletedProcess[str]:
    stub = tmp_path / "bin"
    stub.mkdir()
    (stub / "df").write_text(
        "#!/bin/sh\n"
        'echo "Filesystem 1048576-blocks Used Available Capacity Mounted on"\n'
        f'echo "/dev/stub 100000 1 {free_mb} 99% /stubmount"\n'
    )
    (stub / "df").chmod(0o755)
    venv = tmp_path / "venv"
    if venv_mb:
        venv.mkdir()
        (venv / "blob").write_bytes(b"\0" * (venv_mb << 20))
    env = {"PATH": f"{stub}:/usr/bin:/bin"}
    return subprocess.run(["bash", str(SCRIPT), extras, str(venv), str(tmp_path)], capture_output=True, text=True,
                          env=env, timeout=30)


@pytest.mark.parametrize(("free_mb", "extras", "ok"), [
    (200, "dev", False), (2500, "dev", False), (4000, "dev", True),
    (4000, "dev,clip", False), (9000, "dev,clip", True), (9000, "clip,dev", True),
])
def test_enough_or_a_clear_error(tmp_path: Path, free_mb: int, extras: str, ok: bool) -> None:
    result = _check(tmp_path, free_mb, extras)
    assert (result.returncode == 0) is ok, result.stderr
    if not ok:
        assert f"{free_mb} MB free" in result.stderr
        assert "/stubmount" in result.stderr and f"'{extras}'" in result.stderr


def test_what_the_venv_holds_counts_as_installed(tmp_path: Path) -> None:
    # 2,600 MB free: too little for a new dev venv (3,000 MB), enough beside one that already holds 500 MB of it
    (tmp_path / "new").mkdir()
    (tmp_path / "update").mkdir()
    assert _check(tmp_path / "new", 2600, "dev").returncode == 1
    assert _check(tmp_path / "update", 2600, "dev", venv_mb=500).returncode == 0


def test_a_df_that_answers_nothing_does_not_stop_setup(tmp_path: Path) -> None:
    stub = tmp_path / "bin"
    stub.mkdir()
    (stub / "df").write_text("#!/bin/sh\nexit 1\n")
    (stub / "df").chmod(0o755)
    result = subprocess.run(["bash", str(SCRIPT), "dev", str(tmp_path / "venv"), str(tmp_path)], capture_output=True,
                            text=True, env={"PATH": f"{stub}:/usr/bin:/bin"}, timeout=30)
    assert result.returncode == 0, result.stderr
