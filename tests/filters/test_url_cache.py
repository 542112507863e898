"""The UT1 domain table's cache is keyed by the archive's bytes: one file per list, however often it is installed."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from filters import urls


@pytest.fixture
def fresh_table() -> Iterator[None]:
    urls.blocked_domains.cache_clear()
    yield
    urls.blocked_domains.cache_clear()


def test_same_archive_in_two_environments_shares_one_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            fresh_table: None) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("WINNOW_CACHE_DIR", str(cache))
    # two installations of the same list: other paths, other modification times, the same bytes
    first, second, other = tmp_path / "a" / "ut1.tar.gz", tmp_path / "b" / "ut1.tar.gz", tmp_path / "c" / "ut1.tar.gz"
    for path, data in ((first, b"list v1"), (second, b"list v1"), (other, b"list v2")):
        path.parent.mkdir()
        path.write_bytes(data)
    os.utime(second, (1_000_000, 1_000_000))
    monkeypatch.setattr(urls, "_read_member", lambda name: ["spam.example", "bad.example"])

    tables = []
    for archive in (first, second, other):
        monkeypatch.setattr(urls, "ut1_archive", lambda archive=archive: archive)
        urls.blocked_domains.cache_clear()
        tables.append(np.asarray(urls.blocked_domains()))
    built = sorted(p.name for p in cache.glob("ut1-domains-*.npy"))
    assert len(built) == 2  # v1 once for both installations, v2 apart
    assert urls.archive_key(first) == urls.archive_key(second) != urls.archive_key(other)
    assert f"ut1-domains-{urls.archive_key(first)}.npy" in built
    assert all(np.array_equal(tables[0], t) for t in tables[1:])
    assert urls._hash("spam.example") in set(tables[0].tolist())
