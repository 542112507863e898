"""Golden tests: for each rule, a text that trips exactly that rule of its family (and the clean base trips none)."""

from __future__ import annotations

import pytest

from filters.heuristics_c4 import C4Filter
from filters.heuristics_fineweb import FineWebQuality
from filters.heuristics_gopher import GopherQuality, GopherRepetition
from filters.text import is_unspaced, word_count, words
from pipelines.records import Document, InterleavedDoc, Segment, from_table, to_table
from pipelines.step import Drop
from tests.filters.golden import CLEAN, CLEAN_LINES, unique_words, with_repeated_ngram

GQ, GR, C4, FW = GopherQuality(), GopherRepetition(), C4Filter(), FineWebQuality()

JA = ("東京は日本の首都であり、政治と経済の中心地です。多くの人々が毎日電車で通勤しています。"
      "春には桜が咲き、公園は花見をする人でにぎわいます。夏は暑く、秋には紅葉が美しいです。")
ZH = ("北京是中国的首都，也是政治和文化中心。这座城市有三千多年的历史，保存了许多古老的建筑。"
      "每年都有大量游客来参观故宫和长城，品尝当地的美食。")


def test_clean_base_passes_every_family() -> None:
    assert GQ.failures(CLEAN) == []
    assert GR.failures(CLEAN) == []
    assert C4.failures(CLEAN) == []
    assert FW.failures(CLEAN) == []
    assert C4.clean(CLEAN) == CLEAN


# -- Gopher quality ------------------------------------------------------------------------------
GOPHER_QUALITY = {
    "too_few_words": " ".join(CLEAN_LINES[:2]),
    "short_mean_word": ("I am in it to be on the go, as we do so. If he is up, we go by it and do as we are. " * 4),
    "long_mean_word": ("Internationalization of telecommunications infrastructure and the interoperability "
                       "of the decentralized authentication mechanisms with multidisciplinary "
                       "responsibilities. " * 5),
    "symbol_ratio": CLEAN + "\n" + " ".join(f"#topic{w}" for w in unique_words(20)) + ".",
    "bullet_lines": "\n".join(f"- {line}" for line in CLEAN_LINES),
    "ellipsis_lines": "\n".join(line[:-1] + "..." if i < 3 else line for i, line in enumerate(CLEAN_LINES)),
    "few_alpha_words": CLEAN + "\n" + " ".join(str(1000 + i) for i in range(40)) + ".",
    "few_stop_words": ("Bright autumn leaves drift across quiet village lanes. Farmers gather apples, pears, "
                       "plums. Children chase geese near old stone bridges. Bakers sell warm bread, honey cakes, "
                       "cinnamon rolls. Evening lamps glow softly inside small cottages. Owls call from tall "
                       "oak trees. Rain returns before dawn, washing dusty roads clean. Markets reopen "
                       "early; traders shout prices loudly."),
}


@pytest.mark.parametrize("rule", sorted(GOPHER_QUALITY))
def test_gopher_quality_golden(rule: str) -> None:
    assert GQ.failures(GOPHER_QUALITY[rule], "en") == [rule]


def test_gopher_too_many_words() -> None:
    step = GopherQuality(max_words=120)
    text = CLEAN + "\n" + CLEAN.replace("The ", "A ")
    assert step.failures(text, "en") == ["too_many_words"]


def test_markdown_headings_are_not_symbols() -> None:
    doc = "\n".join(f"# Heading {i}\n{line}" for i, line in enumerate(CLEAN_LINES))
    assert GQ.failures(doc, "en") == []


def test_cjk_is_counted_and_not_held_to_english_stop_words() -> None:
    assert is_unspaced(JA, None) and is_unspaced(ZH, "zh") and not is_unspaced(CLEAN, None)
    assert 40 <= word_count(ZH) <= 60  # 83 characters / 1.5, not 1 and not 83
    assert word_count(JA * 2) >= 50
    assert GQ.failures(JA * 2, "ja") == []  # no stop-word rule, no mean-word-length rule
    assert GQ.failures(JA * 2, None) == []  # script detection without a language
    assert GQ.failures(ZH, "zh") == ["too_few_words"]
    french = ("Le moulin de la rivière a été construit au dix-huitième siècle pour moudre le grain des fermes "
              "voisines. Sa roue tournait avec le courant, et le meunier réglait les vannes à la main. ") * 3
    assert "few_stop_words" not in GQ.failures(french, "fr")
    assert "few_stop_words" in GQ.failures(french, "en")


def test_words_strip_punctuation_and_split_cjk() -> None:
    assert words("Hello, world! ... — C3PO") == ["Hello", "world", "C3PO"]
    assert words("東京。") == ["東", "京"]


# -- Gopher repetition -----------------------------------------------------------------------------
def _long(n: int) -> str:
    return "x" * n


PARAGRAPHS = ["\n".join(CLEAN_LINES[i:i + 2]) for i in range(0, 8, 2)]
GOPHER_REPETITION = {
    "dup_lines": "\n".join([*CLEAN_LINES[:6], "Yes.", "Yes.", "Yes.", "Yes.", "Yes."]),
    "dup_paragraphs": "\n\n".join(PARAGRAPHS + ["Indeed."] * 4),
    "dup_line_chars": "\n".join([*CLEAN_LINES[:4], _long(300), *CLEAN_LINES[4:6], _long(300)]),
    # trailing spaces inside a paragraph count for it, not for its (stripped) lines
    "dup_paragraph_chars": "\n\n".join([*PARAGRAPHS, "Ja" + " " * 400 + "\nNein.", "Ja" + " " * 400 + "\nNein."]),
    "top_2gram": with_repeated_ngram(2, 25, 200),
    "top_3gram": with_repeated_ngram(3, 16, 200),
    "top_4gram": with_repeated_ngram(4, 10, 200),
    "dup_5gram": with_repeated_ngram(5, 2, 60),
    "dup_6gram": with_repeated_ngram(6, 2, 83),
    "dup_7gram": with_repeated_ngram(7, 2, 104),
    "dup_8gram": with_repeated_ngram(8, 2, 129),
    "dup_9gram": with_repeated_ngram(9, 2, 160),
    "dup_10gram": with_repeated_ngram(10, 2, 190),
}


@pytest.mark.parametrize("rule", list(GOPHER_REPETITION))
def test_gopher_repetition_golden(rule: str) -> None:
    assert GR.failures(GOPHER_REPETITION[rule]) == [rule]


# -- C4 ----------------------------------------------------------------------------------------------
C4_DOCUMENT = {
    "lorem_ipsum": CLEAN + "\nLorem ipsum dolor sit amet, consectetur adipiscing elit.",
    "curly_bracket": CLEAN + "\nThe template prints {name} in the greeting line.",
    "too_few_sentences": "\n".join(CLEAN_LINES[:4]),
}


@pytest.mark.parametrize("rule", sorted(C4_DOCUMENT))
def test_c4_document_golden(rule: str) -> None:
    assert C4.failures(C4_DOCUMENT[rule]) == [rule]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("Read more about the mill", "no_terminal_punctuation"),
        ("Home.", "few_words"),
        ("Please enable JavaScript to view the comments.", "javascript"),
        ("By using this site you accept our privacy policy.", "policy"),
        ("This site uses cookies to improve your experience.", "policy"),
        ("The hash is " + "a" * 1001 + " here.", "long_word"),
        ("The mill was restored in 1998 by volunteers.", None),
    ],
)
def test_c4_line_rules(line: str, reason: str | None) -> None:
    assert C4.line_reason(line) == reason


def test_c4_cleaning_keeps_good_lines_and_removes_citations() -> None:
    text = "# The river mill\n" + CLEAN_LINES[0] + "[1]\nShare this\n\n" + CLEAN_LINES[1] + "[citation needed]"
    assert C4.clean(text) == CLEAN_LINES[0] + "\n\n" + CLEAN_LINES[1]
    fineweb_style = C4Filter(require_terminal_punctuation=False)
    assert fineweb_style.clean(text).startswith("# The river mill\n")
    assert C4.line_reason("東京は日本の首都であり、政治と経済の中心地です。", "ja") is None


def test_c4_step_rewrites_documents_and_interleaved() -> None:
    step = C4Filter()
    doc = Document(id="d", url=None, source="s", text=CLEAN + "\nSubscribe now\nPlease enable JavaScript now.")
    assert step.process(doc).text == CLEAN
    inter = InterleavedDoc(id="i", url=None, source="s", segments=[
        Segment("text", text=CLEAN), Segment("image", image_url="http://x/a.png"), Segment("text", text="Menu")])
    out = step.process(inter)
    assert [s.kind for s in out.segments] == ["text", "image"]
    with pytest.raises(Drop) as info:
        step.process(Document(id="e", url=None, source="s", text=C4_DOCUMENT["curly_bracket"]))
    assert info.value.reason == "curly_bracket"


# -- FineWeb -----------------------------------------------------------------------------------------
FINEWEB = {
    "few_punctuated_lines": "\n".join(line.rstrip(".") for line in CLEAN_LINES),
    "short_lines": "\n".join([*CLEAN_LINES[:2], "The gate was shut.", "Rain fell all night.", "Owls called.",
                              "Bread was baked.", "The wheel stopped.", "We walked home.", "Lamps were lit."]),
    "dup_line_chars": CLEAN + "\n" + CLEAN_LINES[3],
    "many_newlines": "\n".join(f"{w.capitalize()}ification comprehensiveness." for w in unique_words(10, 5)),
}


@pytest.mark.parametrize("rule", sorted(FINEWEB))
def test_fineweb_golden(rule: str) -> None:
    assert FW.failures(FINEWEB[rule]) == [rule]


def test_rule_filter_step_drops_with_reason_through_the_framework() -> None:
    step = GopherQuality()
    step.bind()
    docs = [Document(id="ok", url=None, source="s", text=CLEAN, lang="en"),
            Document(id="short", url=None, source="s", text="Too short.", lang="en")]
    rows = {r.id: r for r in from_table(step(to_table(docs, "document")))}
    assert rows["ok"].dropped_by is None
    assert rows["short"].dropped_by == "gopher_quality.too_few_words"
    inter = InterleavedDoc(id="i", url=None, source="s", lang="en", segments=[Segment("text", text=CLEAN)])
    assert GopherQuality(kind="interleaved").process(inter) is inter


@pytest.mark.parametrize(
    ("cls", "kwargs"),
    [(GopherQuality, {"min_words": -1}), (GopherQuality, {"max_symbol_word_ratio": "x"}),
     (GopherQuality, {"kind": "page"}), (GopherQuality, {"stop_words": "the"}),
     (GopherRepetition, {"max_dup_lines": 2}), (GopherRepetition, {"top_ngram": {0: 0.2}}),
     (C4Filter, {"min_sentences": 1.5}), (C4Filter, {"require_terminal_punctuation": "yes"}),
     (FineWebQuality, {"min_punctuated_lines": 1.2}), (FineWebQuality, {"kind": "image_text"})],
)
def test_bad_arguments_fail_at_construction(cls: type, kwargs: dict) -> None:
    with pytest.raises(ValueError):
        cls(**kwargs)
