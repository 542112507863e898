"""bench/junk_set.py: the junk evaluation set is deterministic, complete, unique and within its word ranges."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections import Counter

import pytest

from bench.junk_set import CLASSES, junk_set
from tests.conftest import REPO, needs_shared

pytestmark = [needs_shared("wcxb", "dev", "ground-truth"),
              pytest.mark.slow]  # builds the junk set: one of the inner loop's slowest (scripts/test.sh --fast)

PER_CLASS = 60
EXPECTED_CLASSES = ("keyword_stuffing", "lorem_ipsum", "word_salad", "link_farm", "repeated_boilerplate",
                    "cookie_subscription_wall", "seo_spun_text")


@pytest.fixture(scope="module")
def docs() -> list[dict]:
    return junk_set(per_class=PER_CLASS, seed=0)


def _digest(docs: list[dict]) -> str:
    return hashlib.sha256(json.dumps(docs, sort_keys=True).encode()).hexdigest()


def test_same_seed_same_set(docs: list[dict]) -> None:
    assert junk_set(per_class=PER_CLASS, seed=0) == docs


@pytest.mark.slow
def test_same_seed_same_set_in_another_process() -> None:
    """No dependence on hash randomisation or on anything else that changes between runs."""
    code = ("import hashlib, json; from bench.junk_set import junk_set; "
            "print(hashlib.sha256(json.dumps(junk_set(per_class=5, seed=3), sort_keys=True).encode()).hexdigest())")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == _digest(junk_set(per_class=5, seed=3))


def test_other_seed_other_set(docs: list[dict]) -> None:
    other = junk_set(per_class=PER_CLASS, seed=1)
    assert [d["id"] for d in other] == [d["id"] for d in docs]
    texts = {d["text"] for d in docs}
    assert sum(d["text"] in texts for d in other) == 0  # every document differs, not just some


def test_classes_ids_and_fields(docs: list[dict]) -> None:
    assert CLASSES == EXPECTED_CLASSES
    assert Counter(d["class"] for d in docs) == dict.fromkeys(EXPECTED_CLASSES, PER_CLASS)
    assert all(set(d) == {"id", "class", "text"} for d in docs)
    assert len({d["id"] for d in docs}) == len(docs)
    assert all(d["id"].startswith(f"junk-{d['class']}-") for d in docs)
    assert len(junk_set(per_class=3, seed=0)) == 3 * len(CLASSES)


def test_no_two_documents_identical(docs: list[dict]) -> None:
    assert len({d["text"] for d in docs}) == len(docs)


def test_word_counts_in_range(docs: list[dict]) -> None:
    for d in docs:
        lo, hi = (40, 400) if d["class"] == "cookie_subscription_wall" else (80, 800)
        assert lo <= len(d["text"].split()) <= hi, (d["id"], len(d["text"].split()))


def test_classes_look_like_their_kind(docs: list[dict]) -> None:
    by_class = {c: [d["text"] for d in docs if d["class"] == c] for c in CLASSES}
    assert all(t.count("](") >= 5 for t in by_class["link_farm"])
    assert all(max(Counter(t.split("\n\n")).values()) >= 3 for t in by_class["repeated_boilerplate"])
    assert all("?" in t and "#" in t for t in by_class["seo_spun_text"])
    walls = " ".join(by_class["cookie_subscription_wall"]).lower()
    assert all(w in walls for w in ("cookies", "subscribe", "ad blocker", "sign in"))
    lorem = sum("ipsum" in t.lower() for t in by_class["lorem_ipsum"])
    assert lorem >= PER_CLASS // 2
