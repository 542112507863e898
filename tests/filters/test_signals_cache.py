"""The quality signals' cache is shared by a page's document and its interleaved document (filters/signals.py)."""

from __future__ import annotations

from filters import signals
from filters.signals import compute, signal

TEXT = ("The river rose through the night and the town woke to water in its streets. "
        "Volunteers filled sandbags while the [council](https://example.org/c) opened the school hall. ") * 4


def test_link_density_is_not_part_of_the_cache_key() -> None:
    signals._compute.cache_clear()
    plain = compute(TEXT, "en")  # an interleaved document: the page's text, no link density of its own
    dense = compute(TEXT, "en", 0.6)  # the page's document: the same text, with extraction's link density
    assert signals._compute.cache_info().misses == 1  # one computation for both lanes
    anchors = signal(plain, "link_words")
    assert 0 < anchors < 0.6
    assert signal(dense, "link_words") == 0.6
    assert signal(compute(TEXT, "en", 0.01), "link_words") == anchors  # the larger of the two, as before
    assert signal(compute(TEXT, "en", float("nan")), "link_words") == anchors
    assert signal(compute(TEXT, "en", 0.123456), "link_words") == 0.1235  # rounded as extraction writes it
    others = [i for i, name in enumerate(signals.NAMES) if name != "link_words"]
    assert [plain[i] for i in others] == [dense[i] for i in others]
