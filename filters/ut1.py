"""The UT1 blocklist (Université Toulouse 1 Capitole, CC BY-SA 4.0) as installed: the archive datatrove ships in its
assets, read without importing datatrove. The URL filter (filters/urls.py) reads its adult, malware and phishing
lists; the quality models' training (filters/training/) reads its spam addresses."""

from __future__ import annotations

import importlib.util
import tarfile
from pathlib import Path


def ut1_archive() -> Path:
    """The UT1 blocklist archive inside the installed ``datatrove`` (located without importing it)."""
    spec = importlib.util.find_spec("datatrove")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("datatrove is not installed; it carries the UT1 blocklist (see pyproject.toml)")
    for location in spec.submodule_search_locations:
        path = Path(location) / "assets" / "url_filterblacklistsv0_3_0.tar.gz"
        if path.is_file():
            return path
    raise FileNotFoundError("the UT1 blocklist archive is missing from datatrove's assets")


def ut1_lines(name: str) -> list[str]:
    """The lines of one member of the UT1 archive (``urls``, ``domains``, ...), as written."""
    with tarfile.open(ut1_archive()) as archive:
        member = archive.extractfile(name)
        if member is None:
            raise FileNotFoundError(f"{name} missing from the UT1 archive")
        return member.read().decode("utf-8", "replace").splitlines()
