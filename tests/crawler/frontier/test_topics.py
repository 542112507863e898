"""The topic balancer: crawler/frontier/topics.py, topic_features.py and topic_kmeans.py."""

from __future__ import annotations

import json
import random
import time

import pytest

from crawler.frontier.topics import TopicBalancer
from tests.crawler.topical_texts import ASTRONOMY, COOKING, FRENCH, topical_docs


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
