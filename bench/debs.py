"""Debian packages as benchmark data (documentation sites, sample photographs): fetched once with ``apt-get
download`` into a cache folder and unpacked with ``dpkg-deb``, never installed. Used by bench/quality_corpus.py,
bench/docsite_crawl.py and bench/image_dedup_bench.py."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path


class DebianDataError(RuntimeError):
    """A package that could not be fetched or unpacked; the message says why and what to do."""


def debian_package(package: str, cache: Path) -> Path:
    """The newest ``<package>_*.deb`` in ``cache``, downloaded there first when there is none."""
    if missing := [tool for tool in ("apt-get", "dpkg-deb") if shutil.which(tool) is None]:
        raise DebianDataError(f"{', '.join(missing)} not found: {package} (Debian main) is fetched and unpacked "
                              "with them")
    cache.mkdir(parents=True, exist_ok=True)
    debs = sorted(cache.glob(f"{package}_*.deb"))
    if not debs:
        got = subprocess.run(["apt-get", "download", package], cwd=cache, capture_output=True, text=True)
        debs = sorted(cache.glob(f"{package}_*.deb"))
        if got.returncode or not debs:
            raise DebianDataError(f"apt-get download {package} failed: {got.stderr.strip()[-300:]} "
                                  f"(run apt-get update, or put the .deb into {cache})")
    return debs[-1]


@contextlib.contextmanager
def unpacked(deb: Path, cache: Path) -> Iterator[Path]:
    """The package's files, unpacked into a temporary folder inside ``cache`` (so that a rename out of it stays on
    one file system); the folder is removed afterwards."""
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        subprocess.run(["dpkg-deb", "-x", str(deb), tmp], check=True)
        yield Path(tmp)


def package_folder(package: str, folder: str, cache: Path) -> Path:
    """``folder`` of a package's files, unpacked once under ``cache/x/<package>`` (the package fetched first when
    there is none in ``cache``)."""
    target = cache / "x" / package
    if not (target / folder).is_dir():
        with unpacked(debian_package(package, cache), cache) as tmp:  # DebianDataError says why and what to do
            shutil.rmtree(target, ignore_errors=True)
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp.rename(target)
    return target / folder
