"""Tests for crawler/frontier/traps.py: the crawler-trap guard."""

from __future__ import annotations

import pytest

from crawler.frontier.traps import TrapGuard


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("https://e.example/" + "x" * 2100, "url_too_long"),
        ("https://e.example/" + "/".join(f"s{i}" for i in range(21)), "too_many_segments"),
        ("https://e.example/list?" + "&".join(f"k{i}=1" for i in range(11)), "too_many_params"),
        ("https://e.example/a/a/a/page.html", "repeated_segments"),  # Heritrix: /a/a/a = 3 consecutive
        ("https://e.example/a/b/a/b/a/b/", "repeated_segments"),  # a repeated block
        # Google's broken-relative-link example: "category" and "html" recur 4 times, not consecutively
        (
            "https://www.example.com/index.shtml/discuss/category/school/061121/html/interview/category/health/"
            "070223/html/category/business/070302/html/category/community/070413/html/FAQ.htm",
            "repeated_segments",
        ),
        ("https://e.example/a/a/page.html", None),  # twice is allowed (Heritrix maxRepetitions = 2)
        ("https://e.example/docs/en/guide/en/intro", None),
        ("https://e.example/list?" + "&".join(f"k{i}=1" for i in range(10)), None),
        ("https://e.example/" + "x" * 2000, None),
        ("https://e.example/blog/how-to-bake-sourdough-bread.html", None),
    ],
)
def test_trap_guard_reasons(url: str, reason: str | None) -> None:
    guard = TrapGuard()
    assert guard.check(url) == reason
    if reason:
        assert guard.counts[reason] == 1


def test_trap_guard_max_url_length_is_configurable() -> None:
    url = "https://e.example/" + "x" * 100
    assert TrapGuard(max_url_length=100).check(url) == "url_too_long"
    assert TrapGuard(max_url_length=200).check(url) is None


def test_query_explosion_counts_distinct_variants_per_host_and_path() -> None:
    guard = TrapGuard(max_query_variants=3)
    base = "https://shop.example/list"
    sorts = ["price", "name", "date", "rating", "colour"]
    assert [guard.check(f"{base}?sort={s}") for s in sorts] == [None, None, None, "query_explosion", "query_explosion"]
    # a variant already seen still passes; parameter order does not make a new variant
    assert guard.check(f"{base}?sort=name") is None
    assert guard.check(f"{base}?sort=name&filter=red") == "query_explosion"
    guard2 = TrapGuard(max_query_variants=3)
    for q in ["a=x&b=y", "b=y&a=x", "a=x&b=y"]:
        assert guard2.check(f"{base}?{q}") is None
    # other paths and other hosts have their own budget
    assert guard.check("https://shop.example/other?sort=price") is None
    assert guard.check("https://other.example/list?sort=price") is None
    assert guard.counts["query_explosion"] == 3


def test_query_explosion_ignores_ids_but_catches_session_tokens() -> None:
    guard = TrapGuard(max_query_variants=3)
    # digits are masked: a forum's topics or a shop's products are one variant
    assert all(guard.check(f"https://forum.example/viewtopic.php?t={i}&start={15 * i}") is None for i in range(500))
    tokens = [f"{i}f3a9c2e7b1d4" + "abcd"[i] for i in range(4)]  # session tokens: their letters differ
    results = [guard.check(f"https://forum.example/index.php?sid={token}") for token in tokens]
    assert results == [None, None, None, "query_explosion"]


def test_query_explosion_memory_is_bounded() -> None:
    guard = TrapGuard(max_query_variants=10, max_variants_per_host=50, max_hosts=3)
    for path in range(40):
        for q in range(10):
            guard.check(f"https://big.example/p{path}?q={q}")
    assert guard._host_sizes["big.example"] <= 50
    assert sum(len(v) for v in guard._variants["big.example"].values()) <= 50
    for host in range(10):
        guard.check(f"https://h{host}.example/p?q=1")
    assert len(guard._variants) == 3
