"""Tests for crawler/frontier/host_language.py: per-host target-language share and priority adjustment."""

from __future__ import annotations

import pytest

from crawler.frontier.host_language import HostLanguage


def test_host_language_needs_evidence_then_penalises_off_target_hosts() -> None:
    hl = HostLanguage({"en", "fr"}, pages_per_host=5, min_pages=3)
    hl.observe("de.example", "de", 0.99)
    hl.observe("de.example", "de", 0.98)
    assert hl.adjustment("de.example") == 0  # two pages: not enough evidence yet
    hl.observe("de.example", "de", 0.97)
    assert hl.adjustment("de.example") == -40
    for lang in ["en", "fr", "en", "en"]:
        hl.observe("ok.example", lang, 0.9)
    assert hl.adjustment("ok.example") == 0
    for lang in ["en", "de", "de", "de", "de"]:
        hl.observe("mostly-de.example", lang, 0.9)
    assert hl.share("mostly-de.example") == pytest.approx(0.2)
    assert hl.adjustment("mostly-de.example") == -24
    for lang in ["en", "de", "en", "de"]:
        hl.observe("bilingual.example", lang, 0.9)
    assert hl.adjustment("bilingual.example") == 0
    assert hl.adjustment("unknown.example") == 0


def test_host_language_low_scores_count_half_and_only_first_pages_count() -> None:
    hl = HostLanguage(["en"], pages_per_host=5, min_pages=3)
    for _ in range(3):
        hl.observe("short.example", "de", 0.2)  # too unsure to count either way
    assert hl.share("short.example") == pytest.approx(0.5)
    assert hl.adjustment("short.example") == 0
    for _ in range(5):
        hl.observe("late.example", "de", 0.9)
    assert not hl.wants("late.example")
    for _ in range(20):
        hl.observe("late.example", "en", 0.9)  # ignored: only the first 5 pages count
    assert hl.adjustment("late.example") == -40
    assert hl.distribution()["late.example"] == {"de": 5}
    assert hl.distribution()["short.example"] == {"de": 3}
