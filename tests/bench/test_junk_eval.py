"""bench/junk_eval.py: the evaluation-only junk pages (deterministic, complete, parseable, readable by winnow).

These tests check the set's shape only. They never run winnow's quality filters on it: the set measures those filters
and must not be tuned to them.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import lxml.html
import pytest

from bench.junk_eval import JUNK_FAMILIES, STYLES, JunkPage, junk_pages, main, page_text
from tests.conftest import REPO, needs_shared

pytestmark = [needs_shared("extraction_bench", "ground-truth.json"), needs_shared("langid_dev.jsonl")]

PER_FAMILY = 24


@pytest.fixture(scope="module")
def pages() -> list[JunkPage]:
    return junk_pages(per_family=PER_FAMILY, seed=0)


def _digest(pages: list[JunkPage]) -> str:
    rows = [[p.family, p.style, p.url, p.lang, p.html] for p in pages]
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()


def test_same_seed_same_pages(pages: list[JunkPage]) -> None:
    assert _digest(junk_pages(per_family=PER_FAMILY, seed=0)) == _digest(pages)


def test_same_seed_same_pages_in_another_process() -> None:
    """Nothing depends on string hashing (set order) or on anything else that changes between runs."""
    code = ("import hashlib, json; from bench.junk_eval import junk_pages; "
            "rows = [[p.family, p.style, p.url, p.lang, p.html] for p in junk_pages(per_family=5, seed=3)]; "
            "print(hashlib.sha256(json.dumps(rows).encode()).hexdigest())")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == _digest(junk_pages(per_family=5, seed=3))


def test_other_seed_other_pages(pages: list[JunkPage]) -> None:
    other = junk_pages(per_family=PER_FAMILY, seed=1)
    assert len(other) == len(pages)
    assert len({p.html for p in other} & {p.html for p in pages}) < len(pages) // 20


def test_every_family_with_its_pages_and_styles_evenly(pages: list[JunkPage]) -> None:
    assert len(JUNK_FAMILIES) >= 12
    assert {"keyword_stuffing", "word_salad", "link_farm"} <= set(JUNK_FAMILIES)
    assert Counter(p.family for p in pages) == dict.fromkeys(JUNK_FAMILIES, PER_FAMILY)
    for family in JUNK_FAMILIES:
        styles = Counter(p.style for p in pages if p.family == family)
        assert set(styles) == set(STYLES[family]), family
        assert max(styles.values()) - min(styles.values()) <= 1, (family, styles)


def test_urls_unique_on_made_up_hosts(pages: list[JunkPage]) -> None:
    urls = [p.url for p in pages]
    assert len(set(urls)) == len(urls)
    assert all(u.startswith("http://") for u in urls)
    for family in JUNK_FAMILIES:
        hosts = {urlsplit(p.url).hostname for p in pages if p.family == family}
        assert len(hosts) >= 3, family
    tlds = {urlsplit(u).hostname.rsplit(".", 1)[1] for u in urls}
    assert len(tlds) >= 8


def test_every_page_parses_and_has_a_title(pages: list[JunkPage]) -> None:
    for page in pages:
        root = lxml.html.document_fromstring(page.html)
        assert root.findtext(".//title").strip(), page.url
        assert root.find("body") is not None, page.url


def test_pages_are_whole_documents_on_varied_templates(pages: list[JunkPage]) -> None:
    with_charset = sum("charset=" in p.html.lower() or "<meta charset" in p.html.lower() for p in pages)
    assert with_charset > 0.9 * len(pages)
    assert sum(p.html.lstrip().lower().startswith("<!doctype") for p in pages) > 0.9 * len(pages)
    assert 0.2 * len(pages) < sum("<article" in p.html for p in pages) < 0.8 * len(pages)
    assert sum("<main" in p.html for p in pages) < 0.8 * len(pages)


def test_text_lengths_vary(pages: list[JunkPage]) -> None:
    words = sorted(len(page_text(p.html).split()) for p in pages if p.family != "error_or_soft404")
    assert words[len(words) // 10] < 60
    assert words[-len(words) // 10] > 300


def test_languages(pages: list[JunkPage]) -> None:
    salad = {p.lang for p in junk_pages(per_family=60, seed=0) if p.family == "word_salad"}
    assert {"en", "de", "fr", "es", "ru", "id", "pl", "pt", "it"} <= salad
    assert {p.lang for p in pages if p.family == "gibberish"} & {"zxx"}


def test_warc_round_trips_through_winnows_reader(tmp_path: Path, pages: list[JunkPage]) -> None:
    from pipelines.readers.warc import iter_pages

    out = tmp_path / "junk.warc.gz"
    assert main(["--warc", str(out), "--per-family", str(PER_FAMILY), "--seed", "0"]) == 0
    rows = list(iter_pages(str(out)))
    assert len(rows) == len(pages)
    assert [r.dropped_by for r in rows] == [None] * len(pages)
    assert [r.url for r in rows] == [p.url for p in pages]
    assert {r.http_status for r in rows} == {200}
    assert all(r.fetched_at is not None for r in rows)
    assert rows[5].html == pages[5].html
    families = json.loads((tmp_path / "junk.families.json").read_text())
    assert families == {p.url: p.family for p in pages}


def test_jsonl_rows(tmp_path: Path, pages: list[JunkPage]) -> None:
    out = tmp_path / "junk.jsonl"
    assert main(["--jsonl", str(out), "--per-family", str(PER_FAMILY)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["url"], r["family"]) for r in rows] == [(p.url, p.family) for p in pages]
    assert len({r["id"] for r in rows}) == len(rows)
    assert all(r["text"].strip() for r in rows)
    assert not any("<p>" in r["text"] or "<div" in r["text"] for r in rows)


def test_show_prints_examples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--show", "link_farm"]) == 0
    out = capsys.readouterr().out
    assert out.count("== link_farm / ") == len(STYLES["link_farm"])
