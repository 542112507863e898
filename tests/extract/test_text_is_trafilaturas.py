"""winnow's Document text has exactly the words of trafilatura's own extraction with the same settings.

What winnow changes on the way (its own parse, the pre-stripped tree, the text joined from rendered blocks)
must not change the words; the one intended difference, underscores inside words left unescaped, is applied
to trafilatura's text before comparing. Fixture pages and the 60 pages of ../shared/data/extraction_bench, in
precision and balanced mode.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
import trafilatura

from extract.core import _unescape_intraword
from extract.page import extract_page
from pipelines.readers.charset import decode_html
from pipelines.step import Drop

pytestmark = pytest.mark.slow

HERE = Path(__file__).parent
BENCH = HERE.parents[2] / "shared" / "data" / "extraction_bench" / "html"
PAGES = sorted(BENCH.glob("*.html.gz")) + sorted((HERE / "fixtures").glob("*.html")) + \
    sorted((HERE / "llm_fixtures").glob("*.html"))
WORD = re.compile(r"\w+")


def _html(path: Path) -> str:
    data = path.read_bytes()
    return decode_html(gzip.decompress(data) if path.suffix == ".gz" else data, None).text


def test_there_are_pages_to_compare() -> None:
    assert len(PAGES) >= 60


@pytest.mark.parametrize("precision", [True, False], ids=["precision", "balanced"])
def test_same_words_as_trafilatura(precision: bool) -> None:
    differ = []
    for path in PAGES:
        html = _html(path)
        theirs = trafilatura.extract(html, favor_precision=precision, include_formatting=True, include_tables=True,
                                     include_comments=False) or ""
        try:
            ours = extract_page(html, "https://bench.example/page", favor_precision=precision,
                                time_limit_s=None).document.text
        except Drop:
            ours = ""
        if WORD.findall(_unescape_intraword(theirs)) != WORD.findall(ours):
            differ.append(path.name)
    assert differ == []
