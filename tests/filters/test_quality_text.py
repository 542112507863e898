from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from filters import quality_fasttext
from filters.quality_text import DEFAULT_MODEL, SETTINGS, TextQuality, load_settings, settings_path
from pipelines.records import Document, InterleavedDoc, Segment, from_table, to_table
from pipelines.step import Drop
from tests.script_loader import load_script

FURNITURE = "\n".join([
    "Home", "About us", "Services", "Blog", "Contact",
    "Sign up for our newsletter and get the latest news, offers and updates delivered to your inbox.",
    "Enter your email address", "Subscribe", "Follow us on Facebook, Twitter, Instagram and LinkedIn",
    "Related posts", "Privacy Policy", "Terms of Use", "Cookie settings", "Accessibility statement", "Sitemap",
    "Copyright 2024 Example Media Group. All rights reserved.", "Share this article", "Leave a comment",
    "Posted in News, Events | 12 comments", "Previous post", "Next post", "Search this site", "Back to top"])
PROSE = ("The mitochondrion is an organelle found in the cells of most eukaryotes. Mitochondria use aerobic "
         "respiration to generate adenosine triphosphate, which is used throughout the cell as a source of chemical"
         " energy. They were discovered by Albert von Kolliker in 1857 in the voluntary muscles of insects. The "
         "term mitochondrion was coined by Carl Benda in 1898. Mitochondria are commonly between 0.75 and 3 "
         "micrometres across but vary considerably in size and structure. In addition to supplying cellular energy,"
         " mitochondria are involved in other tasks, such as signaling, cellular differentiation, and cell death.")


def doc(i: str, text: str, quality_score: float | None, page_type: str | None = None,
        link_density: float | None = None, lang: str | None = "en") -> Document:
    return Document(id=i, url=f"https://example.org/{i}", source="s", text=text, lang=lang,
                    quality_score=quality_score, page_type=page_type, link_density=link_density)


def run(step: TextQuality, docs: list[Document]) -> dict[str, Document]:
    step.bind()
    step.setup()
    return {r.id: r for r in from_table(step(to_table(docs, "document")))}


def test_shipped_model_has_its_settings() -> None:
    stored = load_settings(DEFAULT_MODEL)
    assert set(SETTINGS) <= set(stored)
    assert 0 < stored["threshold"] < 0.5 and stored["band"] == 0.5 and stored["min_words"] == 50
    assert stored["spread"][0] <= stored["threshold"] <= stored["spread"][1]
    # learnt from real text only: no generator's junk
    assert set(stored["trained_on"]["junk_families"]) == {"boilerplate", "doc_index", "errors"}


def test_shipped_model_holds_texts_that_are_links_all_through_to_a_bar_of_their_own() -> None:
    stored = load_settings(DEFAULT_MODEL)
    assert stored["links_from"] == 0.8
    # a table of contents reads as a menu to a model of words: its bar is lower than the one for any other text
    assert 0 < stored["links_threshold"] < stored["threshold"]
    assert stored["links_spread"][0] <= stored["links_threshold"] <= stored["links_spread"][1]


def test_a_text_that_is_links_all_through_is_held_to_the_links_threshold() -> None:
    step = TextQuality(threshold=0.9, band=1.0, min_words=5, skip_page_types=[], links_from=0.8,
                       links_threshold=0.0)
    rows = run(step, [doc("menu", FURNITURE, 0.3, link_density=0.95), doc("edge", FURNITURE, 0.3, link_density=0.8),
                      doc("text", FURNITURE, 0.3, link_density=0.2), doc("no_links", FURNITURE, 0.3)])
    assert rows["menu"].dropped_by is None and rows["edge"].dropped_by is None
    for name in ("text", "no_links"):  # no link density (a text input): the general bar
        assert rows[name].dropped_by == "quality_text.low_quality" and "< 0.9," in rows[name].drop_detail, name
    # without the link settings, one bar for every text
    rows = run(TextQuality(threshold=0.9, band=1.0, min_words=5, skip_page_types=[]),
               [doc("menu", FURNITURE, 0.3, link_density=0.95)])
    assert rows["menu"].dropped_by == "quality_text.low_quality"


def test_shipped_model_judges_short_texts_against_a_bar_of_their_own() -> None:
    stored = load_settings(DEFAULT_MODEL)
    assert stored["short_from"] == 10 and stored["min_words"] == 50
    assert 0 < stored["short_threshold"] < 0.5
    assert stored["short_spread"][0] <= stored["short_threshold"] <= stored["short_spread"][1]
    assert stored["calib"]["good_asked_short"] > 0


SHORT_FURNITURE = "Home | About us | Subscribe | Privacy Policy | Terms of Use | Cookie settings | All rights reserved."


def test_a_short_text_is_judged_where_its_language_is_written_with_spaces() -> None:
    step = TextQuality(threshold=0.0, band=1.0, min_words=50, skip_page_types=[], short_from=10,
                       short_threshold=0.5)
    assert 10 <= len(SHORT_FURNITURE.split()) < 50
    rows = run(step, [
        doc("en", SHORT_FURNITURE, 0.3),
        doc("ja", SHORT_FURNITURE, 0.3, lang="ja"),  # words are not counted by spaces there: left alone
        doc("unknown", SHORT_FURNITURE, 0.3, lang=None),
        doc("tiny", "Home | About us | Subscribe", 0.3),  # under short_from
        doc("menu", SHORT_FURNITURE, 0.3, link_density=0.95),  # the short bar, whatever the link share
        doc("long", FURNITURE, 0.3),  # 50+ words: the general bar (0.0 here)
    ])
    for name in ("en", "menu"):
        assert rows[name].dropped_by == "quality_text.low_quality" and "< 0.5," in rows[name].drop_detail, name
    for name in ("ja", "unknown", "tiny"):
        assert rows[name].dropped_by is None and rows[name].text_quality_score is None, name
    assert rows["long"].dropped_by is None and rows["long"].text_quality_score is not None
    # without the short settings, texts under min_words are left alone
    rows = run(TextQuality(threshold=0.0, band=1.0, min_words=50, skip_page_types=[]),
               [doc("en", SHORT_FURNITURE, 0.3)])
    assert rows["en"].text_quality_score is None


def test_shipped_settings_drop_a_short_error_page_and_keep_a_short_stub() -> None:
    error = ("Not Found. The requested URL was not found on this server. Additionally, a 404 Not Found error was "
             "encountered while trying to use an ErrorDocument to handle the request.")
    stub = ("Compute the discrete Fourier transform of a real sequence along the given axis, using the fast "
            "Fourier transform algorithm; the result holds only the non-negative frequency terms.")
    rows = run(TextQuality(), [doc("error", error, 0.4), doc("stub", stub, 0.4, page_type="documentation")])
    assert rows["error"].dropped_by == "quality_text.low_quality"
    assert rows["stub"].dropped_by is None and rows["stub"].text_quality_score is not None


def test_shipped_model_widens_the_band_where_words_are_spaced() -> None:
    stored = load_settings(DEFAULT_MODEL)
    assert stored["band"] < stored["wide_band"] < 1
    assert stored["spread"][0] <= stored["threshold"] <= stored["spread"][1]
    # chosen on calib by the scan stored beside it: each step it took dropped 5+ junk pieces per good page more
    scan = {step["wide_band"]: step for step in stored["wide_scan"]}
    assert scan[stored["wide_band"]]["threshold"] == stored["threshold"]
    assert scan[None]["junk_dropped"] < scan[stored["wide_band"]]["junk_dropped"]


def test_the_wide_band_holds_long_texts_in_spaced_languages_to_the_general_bar() -> None:
    step = TextQuality(threshold=0.5, band=0.5, wide_band=0.8, min_words=50, skip_page_types=[], links_from=0.8,
                       links_threshold=0.0, short_from=10, short_threshold=0.5)
    rows = run(step, [
        doc("en", FURNITURE, 0.6), doc("prose", PROSE, 0.6),
        doc("ja", FURNITURE, 0.6, lang="ja"),  # written without spaces: the band only
        doc("unknown", FURNITURE, 0.6, lang=None),
        doc("menu", FURNITURE, 0.6, link_density=0.95),  # links all through: the band only
        doc("short", SHORT_FURNITURE, 0.6),  # a short text: the band only
        doc("above", FURNITURE, 0.8),
        doc("ja_band", FURNITURE, 0.4, lang="ja"),  # in the band, every language written as it is
    ])
    assert rows["en"].dropped_by == "quality_text.low_quality" and "signals 0.600 < 0.8" in rows["en"].drop_detail
    assert rows["prose"].dropped_by is None and rows["prose"].text_quality_score > 0.9
    for name in ("ja", "unknown", "menu", "short", "above"):
        assert rows[name].dropped_by is None and rows[name].text_quality_score is None, name
    assert rows["ja_band"].dropped_by == "quality_text.low_quality" and "< 0.5" in rows["ja_band"].drop_detail
    # without wide_band, the band is the band
    rows = run(TextQuality(threshold=0.5, band=0.5, min_words=50, skip_page_types=[]), [doc("en", FURNITURE, 0.6)])
    assert rows["en"].dropped_by is None and rows["en"].text_quality_score is None
    with pytest.raises(ValueError, match="wide_band"):
        TextQuality(wide_band=1.5)


def test_shipped_settings_in_the_wide_band() -> None:
    rows = run(TextQuality(), [doc("furniture", FURNITURE, 0.55), doc("prose", PROSE, 0.55)])
    assert rows["furniture"].dropped_by == "quality_text.low_quality"
    assert rows["prose"].dropped_by is None and rows["prose"].text_quality_score > 0.9


def test_second_opinion_in_the_band_only() -> None:
    assert len(FURNITURE.split()) >= 50 and len(PROSE.split()) >= 50
    rows = run(TextQuality(), [
        doc("furniture", FURNITURE, 0.42), doc("prose", PROSE, 0.42),
        doc("sure", FURNITURE, 0.71),  # the signals model is sure enough: not asked
        doc("unscored", FURNITURE, None),  # no signals model before it: not asked
        doc("shop", FURNITURE, 0.42, page_type="listing"),  # a page type left alone
        doc("short", "Home\nAbout us\nSubscribe\nPrivacy Policy\nAll rights reserved.", 0.42),
    ])
    assert rows["furniture"].dropped_by == "quality_text.low_quality"
    assert "text 0.0000 <" in rows["furniture"].drop_detail and "signals 0.420 < 0.5" in rows["furniture"].drop_detail
    assert rows["prose"].dropped_by is None and rows["prose"].text_quality_score > 0.9
    for name in ("sure", "unscored", "shop", "short"):
        assert rows[name].dropped_by is None and rows[name].text_quality_score is None, name


def test_interleaved_documents_judged_as_their_pages_text() -> None:
    """An interleaved document carries its page's type: the page types left alone are left alone there too."""
    def inter(i: str, text: str, page_type: str | None) -> InterleavedDoc:
        segments = [Segment(kind="text", text=text), Segment(kind="image", image_url="https://example.org/a.png")]
        return InterleavedDoc(id=i, url=f"https://example.org/{i}", source="s", segments=segments, lang="en",
                              quality_score=0.42, page_type=page_type)

    step = TextQuality(kind="interleaved")
    step.bind()
    step.setup()
    rows = {r.id: r for r in from_table(step(to_table([
        inter("furniture", FURNITURE, "article"), inter("prose", PROSE, "article"),
        inter("shop", FURNITURE, "listing")], "interleaved")))}
    assert rows["furniture"].dropped_by == "quality_text.low_quality"
    assert rows["prose"].dropped_by is None and rows["prose"].text_quality_score > 0.9
    assert rows["shop"].dropped_by is None and rows["shop"].text_quality_score is None


def test_arguments_override_the_stored_settings() -> None:
    step = TextQuality(threshold=0.999, band=1.0, min_words=5, skip_page_types=[])
    (out,) = step.process_batch([doc("p", PROSE, 0.9, page_type="listing")])
    assert isinstance(out, Drop) and out.reason == "low_quality"
    (out,) = TextQuality(threshold=0.0).process_batch([doc("f", FURNITURE, 0.3)])
    assert isinstance(out, Document) and out.text_quality_score is not None


def test_a_model_of_your_own_needs_its_settings(tmp_path: Path) -> None:
    model = tmp_path / "mine.bin"
    sentences, lines = PROSE.split(". "), FURNITURE.split("\n")
    quality_fasttext.train([". ".join(sentences[i % 4:] + sentences[:i % 4]) for i in range(60)],
                           ["\n".join(lines[i % 9:] + lines[:i % 9]) for i in range(60)], model, dim=16,
                           bucket=10_000, epoch=10)
    step = TextQuality(model=str(model))
    with pytest.raises(FileNotFoundError, match=r"mine\.json"):
        step.setup()
    settings_path(model).write_text(json.dumps({"threshold": 0.5}), encoding="utf-8")
    with pytest.raises(ValueError, match="lack"):
        step.setup()
    # every setting given: no JSON read
    rows = run(TextQuality(model=str(model), threshold=0.5, band=1.0, min_words=1, skip_page_types=[]),
               [doc("f", FURNITURE, 0.2), doc("p", PROSE, 0.2)])
    assert rows["f"].dropped_by == "quality_text.low_quality" and rows["p"].dropped_by is None


def test_bad_model_files_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a file"):
        TextQuality(model=str(tmp_path / "missing.ftz"))
    broken = tmp_path / "broken.ftz"
    broken.write_bytes(b"not a fastText model")
    shutil.copy(settings_path(DEFAULT_MODEL), settings_path(broken))
    with pytest.raises(ValueError, match=r"broken\.ftz"):
        TextQuality(model=str(broken)).setup()
    settings_path(broken).write_text("{", encoding="utf-8")
    with pytest.raises(ValueError, match=r"broken\.json"):
        TextQuality(model=str(broken)).settings()
    for bad in ({"threshold": 2}, {"band": -1}, {"min_words": 1.5}, {"skip_page_types": "listing"},
                {"links_from": 0.8}, {"links_from": 1.5, "links_threshold": 0.1}, {"short_threshold": 0.1},
                {"short_from": 0, "short_threshold": 0.1}, {"short_from": 10, "short_threshold": 2}):
        with pytest.raises(ValueError):
            TextQuality(**bad)
    stored = json.loads(settings_path(DEFAULT_MODEL).read_text(encoding="utf-8"))
    shutil.copy(DEFAULT_MODEL, broken)
    settings_path(broken).write_text(json.dumps({k: v for k, v in stored.items() if k != "links_threshold"}),
                                     encoding="utf-8")
    with pytest.raises(ValueError, match="links_from"):
        TextQuality(model=str(broken)).settings()
    settings_path(broken).write_text(json.dumps({k: v for k, v in stored.items() if k != "short_threshold"}),
                                     encoding="utf-8")
    with pytest.raises(ValueError, match="short_from"):
        TextQuality(model=str(broken)).settings()




def test_the_wide_band_is_widened_while_each_step_pays() -> None:
    script = load_script("train_text_model")

    def step(band: float | None, good: int, junk: int) -> dict[str, object]:
        return {"wide_band": band, "threshold": 0.1, "good_dropped": good, "junk_dropped": junk}

    scan = [step(None, 5, 500), step(0.55, 6, 530), step(0.6, 6, 531), step(0.65, 7, 535), step(0.7, 7, 560)]
    # +30 for +1, +1 for nothing, +4 for +1: under 5 junk pieces per good page, so it stops (0.7 is not reached)
    assert script.choose_wide_band(scan) == 0.6
    assert script.choose_wide_band([step(None, 5, 500), step(0.55, 6, 502)]) is None
    assert script.choose_wide_band([step(None, 5, 500), step(0.55, 5, 500)]) is None  # nothing gained


def test_the_training_script_asks_about_the_pages_the_step_asks_about() -> None:
    import pandas as pd

    script = load_script("train_text_model")
    rows = pd.DataFrame({
        "text": [PROSE, PROSE, PROSE, PROSE, PROSE, SHORT_FURNITURE, PROSE],
        "quality_score": [0.4, 0.6, 0.6, 0.6, 0.75, 0.6, 0.6],
        "lang": ["en", "en", "ja", None, "en", "en", "en"],
        "link_density": [None, 0.1, None, None, None, None, 0.9],
        "page_type": ["article"] * 7,
        "passed": [True] * 7,
    })
    assert script.judged(rows, None).tolist() == [True, False, False, False, False, False, False]
    assert script.judged(rows, 0.7).tolist() == [True, True, False, False, False, False, False]
    assert not script.judged(rows.assign(passed=False), 0.7).any()
    assert not script.judged(rows.assign(page_type="listing"), 0.7).any()
