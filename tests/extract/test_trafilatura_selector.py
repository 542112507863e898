"""``selector="trafilatura"`` keeps the blocks trafilatura's own extraction keeps.

winnow renders the blocks itself (code verbatim, tables, math), so the text is not trafilatura's byte for byte;
what must hold is that the choice of content is trafilatura's: the words of winnow's text against the words of
``trafilatura.extract`` with the same settings, per page (bag-of-words F1, as WCXB scores), on the 60 pages of
../shared/data/extraction_bench.
"""

from __future__ import annotations

import gzip
import re
import statistics
from collections import Counter
from pathlib import Path

import pytest
import trafilatura

from extract.page import extract_page
from pipelines.readers.charset import decode_html
from pipelines.step import Drop
from tests.conftest import SHARED_DATA, needs_shared

pytestmark = [pytest.mark.slow, needs_shared("extraction_bench", "html")]

BENCH = SHARED_DATA / "extraction_bench" / "html"
WORD = re.compile(r"\w+")


def _html(path: Path) -> str:
    return decode_html(gzip.decompress(path.read_bytes()), None).text


def _f1(ours: str, theirs: str) -> float:
    a, b = Counter(WORD.findall(ours.lower())), Counter(WORD.findall(theirs.lower()))
    if not a and not b:
        return 1.0
    overlap = sum((a & b).values())
    if not overlap:
        return 0.0
    precision, recall = overlap / sum(a.values()), overlap / sum(b.values())
    return 2 * precision * recall / (precision + recall)


@pytest.mark.parametrize("precision", [False, True], ids=["balanced", "precision"])
def test_trafilatura_selector_keeps_trafilaturas_content(precision: bool) -> None:
    pages = sorted(BENCH.glob("*.html.gz"))
    assert len(pages) == 60
    scores = []
    for path in pages:
        html = _html(path)
        theirs = trafilatura.extract(html, favor_precision=precision, include_tables=True) or ""
        try:
            ours = extract_page(html, "https://bench.example/page", selector="trafilatura",
                                favor_precision=precision, time_limit_s=None).document.text or ""
        except Drop:
            ours = ""
        scores.append(_f1(ours, theirs))
    # measured 2026-12: mean 0.993 in both modes, lowest 0.899 (block boundaries: a block trafilatura cut in two
    # is kept whole or left out whole here)
    assert statistics.fmean(scores) >= 0.985
    assert min(scores) >= 0.85
