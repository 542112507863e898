"""filters/parts.py and the rules that read the prose: code, math and tables are taken apart once; on plain
prose every rule gives the published result; on a technical page the prose rules stop misreading code."""

from __future__ import annotations

import pytest

from filters.heuristics_c4 import C4Filter
from filters.heuristics_fineweb import FineWebQuality
from filters.heuristics_gopher import GopherQuality, GopherRepetition
from filters.langid import LanguageID
from filters.parts import split
from pipelines.records import Document
from pipelines.step import Drop
from tests.filters.golden import CLEAN, CLEAN_LINES
from tests.filters.test_heuristics import C4_DOCUMENT, FINEWEB, GOPHER_QUALITY, GOPHER_REPETITION

PROSE = ", ".join(CLEAN_LINES[:3])

TUTORIAL = "\n".join([
    "# Counting words with a dictionary",
    "",
    "A dictionary maps each word to the number of times it occurs. We read the file line by line, split each",
    "line into words and add one to the word's count. The standard library already has a class for this,",
    "but writing the loop once shows what it does. Each step below is short, and the session shows the result.",
    "",
    "```python",
    "counts = {}",
    "for line in open('book.txt'):",
    "    for word in line.split():",
    "        counts[word] = counts.get(word, 0) + 1",
    "print(f'{len(counts)} distinct words')",
    "",
    "def top(counts, n=10):",
    "    pairs = sorted(",
    "        counts.items(),",
    "        key=lambda kv: kv[1],",
    "        reverse=True,",
    "    )",
    "    return pairs[:n]",
    "",
    "def show(pairs):",
    "    for word, n in pairs:",
    "        print(word, n)",
    "    return None",
    "```",
    "",
    "The same in an interactive session, with `collections.Counter`:",
    "",
    ">>> from collections import Counter",
    ">>> c = Counter('the cat and the hat'.split())",
    ">>> c['the']",
    "2",
    ">>> c['cat']",
    "1",
    ">>> c['hat']",
    "1",
    ">>> for word in ['the', 'cat', 'the']:",
    "...     print(word)",
    "...",
    "the",
    "cat",
    "the",
    "",
    "The counter prints its most common words first, which is what a frequency table needs. It also adds and",
    "subtracts counts, so two books can be compared. Try it on a text of your own and look at the top ten words.",
    "",
    "| Word | Count |",
    "| --- | --- |",
    "| the | 2 |",
    "| cat | 1 |",
    "",
    "$$p(w) = \\frac{c(w)}{\\sum_v c(v)}$$",
    "",
    "The probability of a word is its count divided by the total number of words in the text.",
])


def test_plain_prose_is_the_text_itself() -> None:
    for text in (CLEAN, PROSE, "Prices: $5 and $10 | or $7.", "Use > to quote. In the end.",
                 "Սամվել Կարապետյանի ելութը` պաշտպանության նախարարությանն, հանգիստը` Իտալիայում"):
        parts = split(text)
        assert parts.prose == text and parts.code == () and parts.line_kinds == ()


def test_parts_of_a_technical_page() -> None:
    parts = split(TUTORIAL)
    assert len(parts.code) == 2 and parts.code[0].startswith("counts = {}") and parts.code[1].startswith(">>> from")
    assert parts.tables == ("| Word | Count |\n| --- | --- |\n| the | 2 |\n| cat | 1 |",)
    assert parts.math == ("p(w) = \\frac{c(w)}{\\sum_v c(v)}",)
    assert "collections.Counter" in parts.prose  # inline code that reads as a word stays in the sentence
    assert "{" not in parts.prose and ">>>" not in parts.prose and "|" not in parts.prose
    assert 0.3 < parts.code_ratio < 0.6, parts.code_ratio
    assert len(parts.line_kinds) == len(TUTORIAL.splitlines())
    assert [k for k, line in zip(parts.line_kinds, TUTORIAL.splitlines(), strict=True) if line.startswith("```")] \
        == ["code", "code"]


@pytest.mark.parametrize(("text", "code", "prose"), [
    ("Intro.\n\n   ```py\n   x = {1: 2}\n   ```\n\nEnd.", ("   x = {1: 2}",), "Intro.\n\nEnd."),  # in a list item
    ("Intro.\n\n~~~\ny = 1\n~~~\nEnd.", ("y = 1",), "Intro.\n\nEnd."),
    ("Intro.\n\n```\nnever closed {", ("never closed {",), "Intro."),  # CommonMark: runs to the end
    ("Run it:\n\n$ pip install winnow\n$ winnow run default\n\nDone.", ("$ pip install winnow\n$ winnow run default",),
     "Run it:\n\nDone."),
    ("It costs $ 5 today.\n$ 10 tomorrow.", (), "It costs $ 5 today.\n$ 10 tomorrow."),  # prices, not prompts
    ("In [1]: x = 2\nOut[1]: 2\n\nSo x is two.", ("In [1]: x = 2\nOut[1]: 2",), "So x is two."),
])
def test_code_blocks_and_transcripts(text: str, code: tuple[str, ...], prose: str) -> None:
    parts = split(text)
    assert parts.code == code and parts.prose == prose


def test_inline_code_and_math() -> None:
    parts = split("Call `np.sum` or `fit()` with `{'a': 1}`; the mean is $\\bar x$ and costs $5 or $10.")
    assert parts.prose == "Call np.sum or fit() with ; the mean is  and costs $5 or $10."
    assert parts.code_chars == len("{'a':1}")


def _all_published(text: str) -> list[list[str]]:
    return [GopherQuality(prose_only=p).failures(text, "en") + GopherRepetition(prose_only=p).failures(text)
            + C4Filter(prose_only=p).failures(text) + FineWebQuality(prose_only=p).failures(text)
            + [C4Filter(prose_only=p).clean(text)] for p in (True, False)]


@pytest.mark.parametrize("text", [CLEAN, *GOPHER_QUALITY.values(), *GOPHER_REPETITION.values(),
                                  *C4_DOCUMENT.values(), *FINEWEB.values()])
def test_published_rules_unchanged_on_prose(text: str) -> None:
    """Every golden text of the rule families: prose-only rules give exactly the published result."""
    prose_only, published = _all_published(text)
    assert prose_only == published


def test_code_is_not_read_as_junk() -> None:
    # Published, on the whole text: the dictionary is C4's curly bracket, the listing's and the session's short
    # lines are FineWeb's fragments.
    assert C4Filter(prose_only=False).failures(TUTORIAL, "en") == ["curly_bracket"]
    assert FineWebQuality(prose_only=False).failures(TUTORIAL, "en") == ["short_lines"]
    # On the prose: none of that.
    assert C4Filter().failures(TUTORIAL, "en") == []
    assert FineWebQuality().failures(TUTORIAL, "en") == []
    assert GopherRepetition().failures(TUTORIAL, "en") == []
    assert GopherQuality().failures(TUTORIAL, "en") == []


def test_c4_cleaning_keeps_code_math_and_tables_verbatim() -> None:
    cleaned = C4Filter(require_terminal_punctuation=True).clean(TUTORIAL, "en")
    for block in split(TUTORIAL).code + split(TUTORIAL).tables:
        assert block in cleaned
    assert "$$p(w)" in cleaned
    assert "# Counting words with a dictionary" not in cleaned  # prose lines still follow C4's rules


def test_langid_scores_the_prose_and_records_code_ratio() -> None:
    code = "\n".join(["```python", *[f"result_{i} = compute(values[{i}], axis={i % 2})" for i in range(30)], "```"])
    text = TUTORIAL.split("```python")[0] + code + "\n\nThe loop fills the table one value at a time."
    whole = Document(id="w", url=None, source="t", text=text)
    prose = Document(id="p", url=None, source="t", text=text)
    LanguageID(prose_only=False).process_batch([whole])
    LanguageID().process_batch([prose])
    assert prose.lang == "en" and prose.lang_score > whole.lang_score
    assert prose.code_ratio == pytest.approx(split(text).code_ratio, abs=1e-4) and prose.code_ratio > 0.4
    assert whole.code_ratio == 0.0


def test_rules_as_signals() -> None:
    step = C4Filter(drop=["lorem_ipsum"])
    step.bind()
    doc = Document(id="d", url=None, source="t", text=C4_DOCUMENT["too_few_sentences"], lang="en")
    assert step.process(doc) is doc and doc.quality_signals == ["c4.too_few_sentences"]
    lorem = Document(id="l", url=None, source="t", text=C4_DOCUMENT["lorem_ipsum"], lang="en")
    with pytest.raises(Drop) as info:
        step.process(lorem)
    assert info.value.reason == "lorem_ipsum"
    gq = GopherQuality(drop=[])
    gq.bind()
    short = Document(id="s", url=None, source="t", text=GOPHER_QUALITY["too_few_words"], lang="en",
                     quality_signals=["c4.too_few_sentences"])
    assert gq.process(short) is short
    assert short.quality_signals == ["c4.too_few_sentences", "gopher_quality.too_few_words"]


@pytest.mark.parametrize("kwargs", [{"drop": ["no_such_rule"]}, {"drop": "some"}, {"prose_only": "yes"}])
def test_bad_drop_or_prose_only_fails_at_construction(kwargs: dict) -> None:
    for cls in (GopherQuality, GopherRepetition, C4Filter, FineWebQuality):
        with pytest.raises(ValueError):
            cls(**kwargs)
