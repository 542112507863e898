"""Tests for crawler/frontier.py (URL priority, traps, host language, topics) and its Scrapy middleware.

The middleware tests crawl a small site served by a stdlib ThreadingHTTPServer on 127.0.0.1 under two host
names (127.0.0.1 and localhost, so two download slots); the crawl runs in a subprocess (this file run as a
script) because a Twisted reactor cannot be restarted inside the pytest process.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from crawler.frontier import (
    PRIORITY_MAX,
    PRIORITY_MIN,
    HostLanguage,
    TopicBalancer,
    TrapGuard,
    explain_priority,
    url_priority,
)

REPO = Path(__file__).resolve().parents[2]

# ---------------------------------------------------------------------------------------------------------
# Topical texts (written for these tests)
# ---------------------------------------------------------------------------------------------------------

COOKING = [
    "Knead the bread dough for ten minutes until it turns smooth and elastic under your palms.",
    "Sourdough starter needs flour and water every day to keep its wild yeast lively and sour.",
    "Simmer the tomato sauce slowly with garlic, basil and a splash of olive oil.",
    "Preheat the oven, grease the baking tin and whisk the eggs with sugar until pale.",
    "A sharp chef's knife makes chopping onions, carrots and celery quicker and safer.",
    "Season the roast chicken with salt, pepper, lemon zest and fresh thyme before roasting.",
    "Let the pastry rest in the fridge so the butter firms up and the crust stays flaky.",
    "Stir the risotto rice with warm stock, one ladle at a time, until creamy and tender.",
    "Caramelise the onions over low heat; patience turns them sweet, soft and golden brown.",
    "Fold the whipped cream gently into the chocolate so the mousse stays light and airy.",
    "Blanch the green beans in salted boiling water, then plunge them into iced water.",
    "Marinate the lamb overnight in yoghurt, cumin, coriander and crushed garlic cloves.",
]
ASTRONOMY = [
    "The telescope revealed the rings of Saturn and four of Jupiter's bright moons.",
    "A light year measures the distance that light travels through space in one year.",
    "Neutron stars form when massive stars collapse after a supernova explosion.",
    "The Andromeda galaxy is approaching the Milky Way and the two will merge in billions of years.",
    "Astronomers measure stellar spectra to learn a star's temperature, composition and velocity.",
    "A total solar eclipse happens when the Moon passes exactly between the Sun and Earth.",
    "Comets grow glowing tails of gas and dust as their orbits bring them close to the Sun.",
    "Dark matter does not emit light, yet its gravity shapes the rotation of galaxies.",
    "The orbit of Mars is elliptical, so its distance from the Sun changes through its year.",
    "Exoplanets are detected when they dim their host star during a transit across its disc.",
    "Observatories on high mountains escape the turbulence and glow of the lower atmosphere.",
    "The cosmic microwave background is the faint afterglow of the early hot universe.",
]
FRENCH = [
    "Le marché du samedi réunit les producteurs de la vallée sur la place de l'église.",
    "Les habitants du quartier se retrouvent au lavoir pour discuter des nouvelles du village.",
    "La bibliothèque municipale propose des ateliers de lecture pour les enfants chaque mercredi.",
    "Le conseil municipal a voté la rénovation du pont qui traverse la rivière depuis deux siècles.",
    "Les randonneurs suivent le sentier balisé jusqu'au sommet de la colline au lever du soleil.",
    "La fête du village attire chaque été des musiciens venus de toute la région.",
]


def topical_docs(sentences: list[str], n: int, seed: int) -> list[str]:
    """``n`` different texts of 6 sentences each drawn from ``sentences`` (deterministic)."""
    rng = random.Random(seed)
    return [" ".join(rng.sample(sentences, 6)) for _ in range(n)]


# ---------------------------------------------------------------------------------------------------------
# url_priority
# ---------------------------------------------------------------------------------------------------------

# (url, reasons that must be present, reasons that must be absent)
GOLDEN_PRIORITY = [
    # Google Search Central's URL-structure examples
    ("https://example.com/category?category=dresses&sort=low-to-high&sid=789", {"session_id", "sort"}, set()),
    ("https://example.com/index.php?topic=42&area=3a5ebc944f41daa6f849f730f1", {"hex_token"}, {"session_id"}),
    ("https://example.com/wiki/Aviation", {"content_section"}, {"article_slug"}),
    # session ids
    ("https://shop.example/products;jsessionid=A1B2C3D4E5F6", {"session_id"}, set()),
    ("https://forum.example/viewtopic.php?t=12&PHPSESSID=0123abcd0123abcd", {"session_id"}, set()),
    # calendars and date archives
    ("https://town.example/events/calendar?month=2025-03", {"calendar"}, {"far_date"}),
    ("https://town.example/events/calendar?month=2150-03", {"calendar", "far_date"}, set()),
    ("https://blog.example/2024/01/15/", {"day_archive"}, {"article_slug"}),
    ("https://blog.example/2024/01/", {"month_archive"}, {"day_archive"}),
    ("https://blog.example/2150/01/15/", {"day_archive", "far_date"}, set()),
    ("https://blog.example/1850/07/01/", {"far_date"}, set()),
    ("https://blog.example/2024/01/15/city-council-approves-new-park", {"article_slug"}, {"day_archive"}),
    # facets and pagination
    ("https://shop.example/shoes?filter_color=red&facet_size=9", {"filter"}, set()),
    ("https://shop.example/shoes?view=grid&per_page=96", {"display_variant"}, set()),
    ("https://news.example/archive?page=3", {"pagination"}, {"deep_pagination"}),
    ("https://news.example/archive?page=57", {"deep_pagination"}, {"pagination"}),
    ("https://news.example/archive/page/40/", {"deep_pagination"}, set()),
    ("https://news.example/a?x=1&y=2&z=3&w=4&v=5", {"many_params"}, set()),
    ("https://news.example/story?utm_source=feed&utm_medium=rss", {"tracking_params"}, set()),
    # pages without corpus content
    ("https://site.example/wp-login.php?redirect_to=%2F", {"login"}, set()),
    ("https://site.example/account/register", {"login"}, set()),
    ("https://shop.example/cart", {"cart"}, set()),
    ("https://shop.example/checkout/step-2", {"cart"}, set()),
    ("https://shop.example/product/42?add-to-cart=42", {"cart"}, set()),
    ("https://site.example/search?q=bread", {"search_results"}, set()),
    ("https://blog.example/?s=bread", {"search_results"}, set()),
    ("https://news.example/article/river-history-of-the-mill?print=1", {"print_share"}, set()),
    ("https://news.example/share/facebook", {"print_share"}, set()),
    ("https://blog.example/my-first-sourdough-loaf/?replytocom=17", {"comment_reply"}, set()),
    ("https://blog.example/feed/", {"feed"}, set()),
    ("https://blog.example/rss.xml", {"feed"}, set()),
    ("https://blog.example/tag/bread", {"tag_listing"}, set()),
    ("https://blog.example/tag-cloud", {"tag_listing"}, set()),
    ("https://en.wikipedia.org/w/index.php?title=Aviation&action=history", {"wiki_meta"}, set()),
    ("https://en.wikipedia.org/wiki/Special:RecentChanges", {"wiki_meta"}, set()),
    ("https://site.example/files/report.pdf", {"binary_extension"}, set()),
    ("https://site.example/a/b/c/d/e/f/g/h/i/j/k", {"deep_path"}, {"moderate_depth"}),
    # article-like pages
    ("https://news.example/blog/how-to-bake-sourdough-bread.html",
     {"article_slug", "content_section", "html_leaf"}, set()),
    ("https://news.example/news/2024/mill-museum-reopens-after-repairs", {"article_slug", "content_section"}, set()),
    ("https://example.com/", set(), {"article_slug", "moderate_depth"}),
]  # fmt: skip


@pytest.mark.parametrize(("url", "present", "absent"), GOLDEN_PRIORITY, ids=[g[0] for g in GOLDEN_PRIORITY])
def test_explain_priority_golden(url: str, present: set[str], absent: set[str]) -> None:
    reasons = dict(explain_priority(url))
    assert present <= reasons.keys(), reasons
    assert not (absent & reasons.keys()), reasons
    assert url_priority(url) == max(PRIORITY_MIN, min(PRIORITY_MAX, sum(reasons.values())))


def test_url_priority_orders_articles_above_traps() -> None:
    article = url_priority("https://news.example/blog/how-to-bake-sourdough-bread.html")
    assert article == PRIORITY_MAX == 20
    assert url_priority("https://example.com/") == 0
    plain = url_priority("https://news.example/about")
    assert article > plain > url_priority("https://news.example/tag/bread") > url_priority("https://shop.example/cart")
    # Several penalties add up but stay within the documented range.
    worst = "https://x.example/search/calendar/cart/login?sid=1&sort=a&filter=b&month=2150-01&page=99&print=1"
    assert url_priority(worst) == PRIORITY_MIN
    assert sum(w for _, w in explain_priority(worst)) < PRIORITY_MIN


def test_url_priority_tolerates_odd_urls() -> None:
    for url in ["", "not a url", "https://[::1", "mailto:someone@example.com", "https://example.com/%ZZ"]:
        assert PRIORITY_MIN <= url_priority(url) <= PRIORITY_MAX


# ---------------------------------------------------------------------------------------------------------
# TrapGuard
# ---------------------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------------------
# HostLanguage
# ---------------------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------------------
# TopicBalancer
# ---------------------------------------------------------------------------------------------------------


def _interleaved_corpus() -> list[tuple[str, str]]:
    cooking = topical_docs(COOKING, 30, seed=1)
    astronomy = topical_docs(ASTRONOMY, 30, seed=2)
    docs = []
    for i in range(30):
        docs.append(("cooking", cooking[i]))
        docs.append(("astronomy", astronomy[i]))
    return docs


def test_topic_balancer_features() -> None:
    tb = TopicBalancer(k=2, max_words=6)
    ids, tfs = tb._terms("Bread, bread! WELL-KNOWN 2024 -- a bread ignored-after-six-tokens")
    words = {tb._words[int(i)]: int(tf) for i, tf in zip(ids, tfs, strict=True)}
    assert words == {"bread": 2, "well": 1, "known": 1}  # "a" is too short, "2024" and "--" hold no word
    assert list(ids) == sorted(ids)
    assert tb._terms("2024 -- 42") is None and tb._terms("   ") is None


def test_topic_balancer_no_topic_before_seeding_and_for_empty_text() -> None:
    tb = TopicBalancer(k=2, seed_pages=10)
    docs = _interleaved_corpus()
    topics = [tb.observe("h.example", text) for _, text in docs[:9]]
    assert topics == [None] * 9
    assert tb.adjustment("h.example") == 0
    assert tb.distribution() == {}
    assert isinstance(tb.observe("h.example", docs[9][1]), int)  # the 10th page seeds
    assert tb.observe("h.example", "") is None
    assert tb.observe("h.example", "1234 5678 !!!") is None


def test_topic_balancer_separates_two_topics() -> None:
    for k in (2, 6):
        tb = TopicBalancer(k=k, seed_pages=20)
        labels: dict[str, set[int]] = {"cooking": set(), "astronomy": set()}
        for i, (topic, text) in enumerate(_interleaved_corpus()):
            tb.observe(f"doc{i}.{topic}", text)  # one host per page: host_topics gives every page's topic
        for host in [h for h in tb._host_topics]:
            labels[host.split(".")[1]].update(tb.host_topics(host))
        assert labels["cooking"] and labels["astronomy"]
        assert not labels["cooking"] & labels["astronomy"], (k, labels)
    dist = TopicBalancer(k=2, seed_pages=20)
    for topic, text in _interleaved_corpus():
        dist.observe(topic, text)
    report = dist.distribution()
    assert sorted(info["count"] for info in report.values()) == [30, 30]
    assert sum(info["share"] for info in report.values()) == pytest.approx(1.0)
    terms = {topic: set(info["top_terms"]) for topic, info in report.items()}
    food = {"bread", "dough", "garlic", "oven", "sauce", "butter", "onions", "salt", "cream", "rice"}
    space = {"sun", "stars", "star", "galaxy", "light", "moon", "orbit", "telescope", "galaxies", "space"}
    assert any(t & food and not t & space for t in terms.values()), terms
    assert any(t & space and not t & food for t in terms.values()), terms
    json.dumps(report)  # stats must be JSON-serialisable


def test_topic_balancer_is_deterministic() -> None:
    docs = _interleaved_corpus() + [("fr", text) for text in topical_docs(FRENCH, 10, seed=3)]

    def run() -> tuple[list[int | None], dict]:
        tb = TopicBalancer(k=4, seed_pages=16)
        return [tb.observe(host, text) for host, text in docs], tb.distribution()

    first, second = run(), run()
    assert first == second
    assert any(t is not None for t in first[0])


def test_topic_adjustment_penalises_host_of_over_represented_topic() -> None:
    tb = TopicBalancer(k=2, seed_pages=20, min_host_pages=3)
    cooking = topical_docs(COOKING, 48, seed=4)
    astronomy = topical_docs(ASTRONOMY, 12, seed=5)
    # food.example writes only about cooking; it and other cooking hosts make cooking 80% of the crawl
    for i, text in enumerate(cooking):
        tb.observe("food.example" if i % 2 == 0 else f"kitchen{i % 3}.example", text)
    for text in astronomy:
        tb.observe("stars.example", text)
    food = tb.adjustment("food.example")
    stars = tb.adjustment("stars.example")
    # over-representation 0.8 * k = 1.6 -> -10 * log2(1.6) = -7; astronomy is under-represented -> 0
    assert food == -7
    assert stars == 0
    assert tb.adjustment("never-seen.example") == 0
    # balance restored: many astronomy pages make cooking no longer over-represented
    for i, text in enumerate(topical_docs(ASTRONOMY, 60, seed=6)):
        tb.observe(f"observatory{i % 4}.example", text)
    assert tb.adjustment("food.example") == 0
    assert tb.adjustment("stars.example") < 0


def test_topic_balancer_creates_a_topic_for_a_subject_unseen_at_seeding() -> None:
    tb = TopicBalancer(k=2, seed_pages=20, min_new_topic_pages=5)
    for text in topical_docs(COOKING, 20, seed=8):  # the seed buffer holds nothing but cooking
        tb.observe("food.example", text)
    assert set(tb.distribution()) == {0, 1}
    astronomy_topics = [tb.observe("stars.example", text) for text in topical_docs(ASTRONOMY, 20, seed=9)]
    assert tb.topics_created == 1
    assert set(tb.distribution()) == {0, 1, 2} - {next(iter(tb._merged_into))}  # the two cooking topics merged
    assert astronomy_topics[-10:] == [2] * 10  # later astronomy pages go straight to the new topic
    assert tb.host_topics("stars.example") == {2: 20}  # earlier ones were moved there
    assert 2 not in tb.host_topics("food.example")
    assert sum(info["count"] for info in tb.distribution().values()) == 40


def test_topic_balancer_unrelated_outliers_make_no_topic() -> None:
    tb = TopicBalancer(k=2, seed_pages=20)
    for topic, text in _interleaved_corpus()[:20]:
        tb.observe(topic, text)

    def letters(n: int) -> str:
        return "".join(chr(ord("a") + int(d)) for d in f"{n:05d}")

    for i in range(40):  # pages sharing no word with each other or with the crawl
        tb.observe("odd.example", " ".join("zq" + letters(100 * i + j) for j in range(50)))
    assert len(tb._outliers) == 40  # all seen as outliers ...
    assert tb.topics_created == 0  # ... but no five of them alike


def test_topic_balancer_per_page_cost() -> None:
    """Mean observe() cost on 2,000-word pages; generous bound for shared CI machines (measured ~0.8 ms)."""
    rng = random.Random(7)
    vocabulary = ["".join(chr(ord("a") + int(d)) for d in f"{i:05d}") for i in range(20000)]
    weights = [1.0 / (rank + 1) for rank in range(len(vocabulary))]  # Zipf-like word frequencies
    pages = [" ".join(rng.choices(vocabulary, weights, k=2000)) for _ in range(60)]
    tb = TopicBalancer(k=16, seed_pages=40)
    for page in pages[:40]:
        tb.observe("a.example", page)
    started = time.perf_counter()
    for _ in range(3):
        for page in pages[40:]:
            tb.observe("a.example", page)
    mean_ms = 1000 * (time.perf_counter() - started) / 60
    assert mean_ms < 5.0, mean_ms


# ---------------------------------------------------------------------------------------------------------
# Middleware: in-process unit checks
# ---------------------------------------------------------------------------------------------------------


def _middleware(settings: dict[str, Any]) -> Any:
    from scrapy import Spider
    from scrapy.utils.test import get_crawler

    from crawler.frontier_middleware import FrontierMiddleware

    crawler = get_crawler(Spider, settings)
    return crawler, FrontierMiddleware.from_crawler(crawler)


def _html(url: str, body: str) -> Any:
    from scrapy import Request
    from scrapy.http import HtmlResponse

    return HtmlResponse(url=url, body=body.encode(), encoding="utf-8", request=Request(url))


def test_visible_text_skips_scripts_and_styles() -> None:
    from crawler.frontier_middleware import visible_text

    response = _html(
        "https://a.example/",
        "<html><head><title>T</title><script>var head=1</script></head><body><p>Knead the <b>dough</b> well"
        "</p><script>var body=2</script><!-- note --> then<style>.x{}</style><noscript>enable js</noscript>"
        " bake</body></html>",
    )
    text = " ".join(visible_text(response).split())
    assert text == "Knead the dough well then bake"
    assert len(visible_text(_html("https://a.example/", "<p>" + "word " * 10000 + "</p>"), max_chars=500)) == 500


def test_middleware_sync_and_async_output() -> None:
    from scrapy import Request

    crawler, mw = _middleware({"WINNOW_MAX_URL_LENGTH": 100, "WINNOW_TOPIC_SEED_PAGES": 16})
    response = _html("https://a.example/", "<p>" + COOKING[0] + "</p>")
    mw.process_spider_input(response)
    assert "winnow_topic" in response.meta and response.meta["winnow_topic"] is None
    requests = [
        Request("https://a.example/blog/how-to-bake-sourdough-bread.html", priority=5),
        Request("https://a.example/" + "x" * 200),
        {"an": "item"},
    ]
    out = list(mw.process_spider_output(response, iter(requests)))
    assert [o if isinstance(o, dict) else o.priority for o in out] == [25, {"an": "item"}]

    async def source() -> Any:
        for request in [Request("https://a.example/a/b/a/b/a/b/"), Request("https://a.example/cart")]:
            yield request

    async def collect() -> list[Any]:
        return [o async for o in mw.process_spider_output_async(response, source())]

    out = asyncio.run(collect())
    assert [(o.url, o.priority) for o in out] == [("https://a.example/cart", -50)]
    stats = crawler.stats.get_stats()
    assert stats["winnow/frontier/trap/url_too_long"] == 1
    assert stats["winnow/frontier/trap/repeated_segments"] == 1
    assert "winnow/frontier/requests_scored" not in stats  # counted locally, reported at close
    mw.spider_closed(None, "finished")
    assert crawler.stats.get_value("winnow/frontier/requests_scored") == 2
    # start requests (seeds) are left alone
    seed = Request("https://a.example/cart?sid=1")
    assert mw.get_processed_request(seed, None) is seed and seed.priority == 0


def test_middleware_scrapy_picks_async_output_without_warnings() -> None:
    import warnings

    from scrapy.core.spidermw import SpiderMiddlewareManager

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # e.g. the deprecated spider argument
        crawler, mw = _middleware({})
        method = SpiderMiddlewareManager._get_process_spider_output(mw)
        manager = SpiderMiddlewareManager(mw, crawler=crawler)
    assert method.__name__ == "process_spider_output_async"
    assert manager.methods["process_spider_input"]


def test_middleware_observation_failure_does_not_fail_the_page() -> None:
    from scrapy import Spider
    from scrapy.utils.test import get_crawler

    from crawler.frontier_middleware import FrontierMiddleware

    def broken_detect(text: str) -> tuple[str, float]:
        raise RuntimeError("model exploded")

    crawler = get_crawler(Spider, {})
    mw = FrontierMiddleware(crawler, languages=["en"], detect=broken_detect)
    response = _html("https://a.example/", "<p>" + COOKING[1] + "</p>")
    mw.process_spider_input(response)  # must not raise
    assert response.meta["winnow_topic"] is None
    assert crawler.stats.get_value("winnow/frontier/observe_errors") == 1


def test_middleware_host_language_steers_priorities() -> None:
    from scrapy import Request, Spider
    from scrapy.utils.test import get_crawler

    from crawler.frontier_middleware import FrontierMiddleware

    crawler = get_crawler(Spider, {})
    mw = FrontierMiddleware(crawler, languages=["en"], detect=lambda text: ("de", 0.95), topics_enabled=False)
    for i in range(3):
        mw.process_spider_input(_html(f"https://de.example/{i}", "<p>Ein Text</p>"))
    (request,) = mw.process_spider_output(_html("https://x.example/", "<p>x</p>"), [Request("https://de.example/")])
    assert request.priority == -40
    mw.spider_closed(Spider("s"), "finished")
    # only process_spider_input observes pages; output processing does not
    assert crawler.stats.get_value("winnow/frontier/host_languages") == {"de.example": {"de": 3}}
    assert crawler.stats.get_value("winnow/frontier/topics") == {}


def test_middleware_languages_setting_parsing() -> None:
    from crawler.frontier_middleware import _languages

    assert _languages("en, FR,") == ["en", "fr"]
    assert _languages(["en", "de"]) == ["en", "de"]
    assert _languages(None) == [] and _languages("") == []
    _, mw = _middleware({"WINNOW_TOPICS_ENABLED": False})
    assert mw.topics is None and mw.host_language is None


# ---------------------------------------------------------------------------------------------------------
# Middleware: a real crawl of a loopback site
# ---------------------------------------------------------------------------------------------------------

TRAP_PATHS = {
    "long": "/long/" + "x" * 2100,
    "deep": "/" + "/".join(f"d{i}" for i in range(22)),
    "params": "/list?" + "&".join(f"p{i}=1" for i in range(12)),
    "repeat": "/a/b/a/b/a/b/page.html",
}
SORTS = ["price", "name", "date", "rating", "colour", "size", "brand", "stock"]
EN_SLUGS = [
    *(f"{w}-notes-for-curious-readers" for w in ["bread", "sauce", "pastry", "risotto", "onions", "beans", "lamb"]),
    "mousse-notes-for-curious-readers",
    *(f"{w}-guide-for-night-watchers" for w in ["saturn", "comets", "galaxies", "eclipse", "mars", "exoplanets"]),
]


def _site_page(host: str, path: str) -> tuple[int, str, str] | None:
    """(status, content type, body) of the fixture site: English articles on 127.0.0.1, French on localhost."""

    def page(text: str, links: list[str]) -> str:
        anchors = "".join(f'<a href="{href}">link</a> ' for href in links)
        head = "<head><title>t</title><script>var tracking = 1;</script></head>"
        return f"<html>{head}<body><p>{text}</p>{anchors}</body></html>"

    if host == "127.0.0.1":
        articles = [f"/articles/{slug}.html" for slug in EN_SLUGS]
        if path == "/":
            links = [*articles, *TRAP_PATHS.values(), *(f"/list?sort={s}" for s in SORTS), "/notes.txt"]
            return 200, "text/html", page("Welcome to the kitchen and observatory journal.", links)
        if path.startswith("/articles/"):
            slug = path.removeprefix("/articles/").removesuffix(".html")
            if slug not in EN_SLUGS:
                return None
            i = EN_SLUGS.index(slug)
            text = " ".join(topical_docs(COOKING if i < 8 else ASTRONOMY, 1, seed=i)[0] for _ in range(3))
            return 200, "text/html", page(text, ["/", articles[(i + 1) % len(articles)]])
        if path.startswith("/list"):
            return 200, "text/html", page("This is a sorted list of our recipes and of the star charts.", ["/"])
        if path == "/notes.txt":
            return 200, "text/plain", "plain notes"
        return 200, "text/html", page("A page that should never be fetched.", [])
    if host == "localhost":
        # The index links 3 pages, page i links page i + 3: most links are found after the first pages.
        pages = [f"/p/{i}" for i in range(10)]
        if path == "/":
            return 200, "text/html", page(" ".join(FRENCH), pages[:3])
        if path in pages:
            i = int(path.rsplit("/", 1)[1])
            links = ["/", *pages[i + 3 : i + 4]]
            return 200, "text/html", page(" ".join(topical_docs(FRENCH, 1, seed=10 + i)), links)
    return None


class _SiteHandler(BaseHTTPRequestHandler):
    log: list[tuple[float, str, str]]  # (time, host, path), set on the subclass

    def do_GET(self) -> None:
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0]
        self.log.append((time.monotonic(), host, self.path))
        time.sleep(0.01)  # a little latency, so per-slot concurrency decides the fetch order
        result = _site_page(host, self.path)
        status, ctype, body = result if result else (404, "text/html", "<html><body>not found</body></html>")
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", f"{ctype}; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:  # keep pytest output quiet
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[int, list[tuple[float, str, str]]]]:
    log: list[tuple[float, str, str]] = []
    handler = type("Handler", (_SiteHandler,), {"log": log})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], log
    server.shutdown()
    server.server_close()


def _crawl(port: int, out: Path, extra_settings: dict[str, Any] | None = None) -> dict[str, Any]:
    args = {"port": port, "out": str(out), "settings": extra_settings or {}}
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run(
        [sys.executable, __file__, json.dumps(args)], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(out.read_text())


def _crawl_with_log(site: tuple[int, list], out: Path, extra_settings: dict[str, Any] | None = None) -> dict[str, Any]:
    port, log = site
    log.clear()
    result = _crawl(port, out, extra_settings)
    result["server_log"] = list(log)
    return result


@pytest.fixture(scope="module")
def crawl(site: tuple[int, list], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _crawl_with_log(site, tmp_path_factory.mktemp("crawl") / "result.json")


def test_crawl_does_not_fetch_traps(crawl: dict[str, Any]) -> None:
    fetched = {(host, path) for _, host, path in crawl["server_log"]}
    for path in TRAP_PATHS.values():
        assert ("127.0.0.1", path) not in fetched
    sorts = sorted(path for host, path in fetched if path.startswith("/list?sort="))
    assert sorts == sorted(f"/list?sort={s}" for s in SORTS[:3])  # WINNOW_MAX_QUERY_VARIANTS = 3
    assert {f"/articles/{slug}.html" for slug in EN_SLUGS} <= {p for h, p in fetched if h == "127.0.0.1"}
    assert {f"/p/{i}" for i in range(10)} <= {p for h, p in fetched if h == "localhost"}
    stats = crawl["stats"]
    for reason in ["url_too_long", "too_many_segments", "too_many_params", "repeated_segments"]:
        assert stats[f"winnow/frontier/trap/{reason}"] >= 1, reason
    assert stats["winnow/frontier/trap/query_explosion"] == 5


def test_crawl_stats_topics_languages_and_meta(crawl: dict[str, Any]) -> None:
    stats = crawl["stats"]
    pages = crawl["pages"]
    html_pages = [p for p in pages if p["html"]]
    assert stats["winnow/frontier/pages_observed"] == len(html_pages)
    assert stats["winnow/frontier/requests_scored"] > 0
    assert stats["winnow/frontier/observe_ms_mean"] > 0
    languages = stats["winnow/frontier/host_languages"]  # the first 5 pages of each host
    assert set(languages) == {"127.0.0.1", "localhost"}
    assert sum(languages["127.0.0.1"].values()) == 5 and languages["127.0.0.1"].get("en", 0) >= 4, languages
    assert languages["localhost"] == {"fr": 5}
    topics = stats["winnow/frontier/topics"]
    assert len(topics) == 2  # WINNOW_TOPIC_CLUSTERS = 2 (ids may exceed 1 if a new topic replaced a merged one)
    assert sum(t["count"] for t in topics.values()) == len(html_pages)
    assert all(t["top_terms"] for t in topics.values())
    # every HTML page carries the meta key; pages after the seed buffer (6) have a topic id
    assert all("winnow_topic" in p["meta_keys"] for p in html_pages)
    assert sum(isinstance(p["topic"], int) for p in html_pages) >= len(html_pages) - 6
    # priorities: article pages favoured; French pages after the language evidence pushed down
    en_articles = [p for p in pages if "/articles/" in p["url"]]
    assert all(p["priority"] >= 10 for p in en_articles), en_articles
    assert min(p["priority"] for p in pages if p["url"].startswith("http://localhost")) <= -30


def _fetch_order(crawl: dict[str, Any]) -> tuple[list[str], int]:
    """Hosts in the order the server saw requests, cut to while both hosts had pages left; longest run of
    consecutive fetches from the English host in that window."""
    hosts = [host for _, host, _ in sorted(crawl["server_log"])]
    n_en, n_fr = hosts.count("127.0.0.1"), hosts.count("localhost")
    assert n_en >= 15 and n_fr == 11
    window = hosts[: 2 * n_fr]
    runs = "".join("e" if host == "127.0.0.1" else "f" for host in window).split("f")
    return window, max(len(run) for run in runs)


def test_crawl_two_hosts_progress_interleaved(crawl: dict[str, Any]) -> None:
    """DownloaderAwarePriorityQueue (Scrapy's default) + CONCURRENT_REQUESTS_PER_DOMAIN=1: both hosts advance
    together although every English article outranks every French page (by 20 to 60 points)."""
    window, longest_run = _fetch_order(crawl)
    assert window.count("localhost") >= 0.4 * len(window), window
    assert longest_run <= 3, window


def test_crawl_global_priority_queue_lets_one_host_run_ahead(
    site: tuple[int, list], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The control for the test above: with one global priority queue the English host's higher-priority
    backlog fills the downloader first, so the interleaving assertion would fail."""
    out = tmp_path_factory.mktemp("crawl-global") / "result.json"
    control = _crawl_with_log(site, out, {"SCHEDULER_PRIORITY_QUEUE": "scrapy.pqueues.ScrapyPriorityQueue"})
    window, longest_run = _fetch_order(control)
    assert longest_run > 3, window


# ---------------------------------------------------------------------------------------------------------
# The crawl helper (this file run as a script in a subprocess)
# ---------------------------------------------------------------------------------------------------------


def _crawl_main(args: dict[str, Any]) -> None:
    import scrapy
    from scrapy.crawler import CrawlerProcess
    from scrapy.http import HtmlResponse

    port = args["port"]
    pages: list[dict[str, Any]] = []

    class SiteSpider(scrapy.Spider):
        name = "frontier-test"

        async def start(self) -> Any:
            for host in ("127.0.0.1", "localhost"):
                yield scrapy.Request(f"http://{host}:{port}/")

        def parse(self, response: Any) -> Any:
            html = isinstance(response, HtmlResponse)
            pages.append(
                {
                    "url": response.url,
                    "priority": response.request.priority,
                    "html": html,
                    "topic": response.meta.get("winnow_topic"),
                    "meta_keys": sorted(response.meta),
                }
            )
            if html:
                for href in response.css("a::attr(href)").getall():
                    yield response.follow(href, callback=self.parse)

    settings = {
        "SPIDER_MIDDLEWARES": {"crawler.frontier_middleware.FrontierMiddleware": 850},
        "WINNOW_LANGUAGES": "en",
        "WINNOW_MAX_QUERY_VARIANTS": 3,
        "WINNOW_TOPIC_CLUSTERS": 2,
        "WINNOW_TOPIC_SEED_PAGES": 6,
        "CONCURRENT_REQUESTS": 8,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
        # Not 0: with the asyncio reactor and DOWNLOAD_DELAY = 0, Scrapy 2.19's downloader starts every
        # request queued in a slot at once (Downloader._process_queue schedules the download as a task, so
        # slot.transferring is still empty when it checks free_transfer_slots): up to 7 parallel
        # connections to one host were seen with CONCURRENT_REQUESTS_PER_DOMAIN = 1.
        "DOWNLOAD_DELAY": 0.02,
        "RANDOMIZE_DOWNLOAD_DELAY": False,
        "ROBOTSTXT_OBEY": False,
        "TELNETCONSOLE_ENABLED": False,
        "LOG_LEVEL": "WARNING",
        **args["settings"],
    }
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(SiteSpider)
    process.crawl(crawler)
    process.start()
    result = {"stats": crawler.stats.get_stats(), "pages": pages}
    Path(args["out"]).write_text(json.dumps(result, default=str))


if __name__ == "__main__":
    _crawl_main(json.loads(sys.argv[1]))
