"""Profanity, URL and image-alt filters: golden tests per rule."""

from __future__ import annotations

import random

import pytest

from filters.image_alt import AltTextQuality, InterleavedQuality, is_filename, is_generic, pair_text
from filters.profanity import Profanity, matcher_for, word_list
from filters.text import words
from filters.urls import URLFilter
from pipelines.records import Document, ImageTextPair, InterleavedDoc, Page, Segment, from_table, to_table
from pipelines.step import Drop
from tests.filters.golden import CLEAN, CLEAN_LINES


def doc(text: str, lang: str | None = "en", url: str | None = None) -> Document:
    return Document(id="d", url=url, source="s", text=text, lang=lang)


def reason(step, record) -> str | None:
    try:
        step.process(record)
    except Drop as drop:
        return drop.reason
    return None


# -- profanity -----------------------------------------------------------------------------------
def test_word_lists_come_from_the_package() -> None:
    assert {"fuck", "shit", "2 girls 1 cup"} <= word_list("en")
    assert "arschloch" in word_list("de") and word_list("xx") == frozenset()


def test_profanity_drops_by_ratio_and_masks_lines() -> None:
    step = Profanity()
    assert step.process(doc(CLEAN)).text == CLEAN
    one_line = CLEAN + "\nThe old miller said the new turbine was utter shit."
    kept = step.process(doc(one_line))
    assert kept.text == CLEAN  # 1 listed word in ~150: under the 1% ratio, its line is masked
    assert reason(step, doc("What the fuck is this shit, you asshole? " * 3)) == "profanity_ratio"
    assert reason(Profanity(max_ratio=0), doc(one_line)) == "profanity_ratio"  # C4's rule
    assert Profanity(mask_lines=False).process(doc(one_line)).text == one_line


def test_profanity_per_language_lists_and_phrases() -> None:
    german = "Du bist ein Arschloch und ein Hurensohn, sagte er laut."
    assert reason(Profanity(), doc(german, "de")) == "profanity_ratio"
    assert reason(Profanity(), doc(german, "fr")) is None  # the French (and English) lists do not have them
    assert reason(Profanity(), doc("They watched 2 girls 1 cup together.")) == "profanity_ratio"
    japanese = "この動画はアナルの映像を含みます。"
    assert reason(Profanity(), doc(japanese, "ja")) == "profanity_ratio"  # substring matching
    assert reason(Profanity(extra_words=["gadzooks"]), doc("Well gadzooks, said the miller.")) == "profanity_ratio"



def _count_every_position(matcher, text: str) -> int:
    """The phrase count as first written: every phrase length at every position (the reference)."""
    ws = [w.lower() for w in words(text)]
    n = sum(w in matcher.single for w in ws)
    for size in matcher.lengths:
        n += sum(tuple(ws[i:i + size]) in matcher.phrases for i in range(len(ws) - size + 1))
    return n


def test_phrase_lookup_from_first_words_counts_as_every_position() -> None:
    matcher = matcher_for("en")
    phrases = sorted(" ".join(p) for p in matcher.phrases)[:40]
    rng = random.Random(7)
    filler = [w for line in CLEAN_LINES for w in line.split()][:400]
    texts = [" ".join([*rng.sample(filler, 30), rng.choice(phrases), *rng.sample(filler, 5)]) for _ in range(50)]
    texts += [phrases[0], phrases[0] + " " + phrases[0], phrases[1].split()[0], "2 girls 1", "2 girls 1 cup"]
    counts = [matcher.count(t) for t in texts]
    assert counts == [_count_every_position(matcher, t) for t in texts]
    assert sum(counts) >= 50 and counts[-1] == 1 and counts[-2] == 0  # the phrases were found, one at the end

def test_profanity_on_alt_text_and_interleaved() -> None:
    pair = ImageTextPair(id="p", url=None, source="s", alt="a shit photo of the mill", lang="en")
    assert reason(Profanity(kind="image_text"), pair) == "profane_alt"
    inter = InterleavedDoc(id="i", url=None, source="s", lang="en", segments=[
        Segment("text", text=CLEAN), Segment("text", text="This is shit."), Segment("image", image_url="u")])
    out = Profanity(kind="interleaved").process(inter)
    assert [s.kind for s in out.segments] == ["text", "image"]


# -- URLs --------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def urls() -> URLFilter:
    step = URLFilter()
    step.load()
    return step


@pytest.mark.parametrize(
    ("url", "want"),
    [
        ("https://www.pornhub.com/view", "blocked_domain"),
        ("http://cdn.images.0-1sex.com/a.jpg", "blocked_domain"),  # a parent domain is listed
        ("http://0149614511.strimbat.fr/porno-anal-escort-granville-faire-sa-salope-baise-une-vache-video-"
         "gratuite-x-escort-girl-auxerre", "blocked_url"),
        ("https://example.org/best-porn-clips", "banned_word"),
        ("https://example.org/freesexvideos/today", "banned_subword"),
        ("https://example.org/hot-babes-and-bastard", "soft_banned_words"),
        ("https://example.org/the-bastard-executioner-review", None),  # one soft word is not enough
        ("https://en.wikipedia.org/wiki/Essex", None),
        ("https://www.bbc.co.uk/news/science", None),
        (None, None),
        ("not a url", None),
    ],
)
def test_url_rules(urls: URLFilter, url: str | None, want: str | None) -> None:
    hit = urls.verdict(url)
    assert (hit[0] if hit else None) == want


def test_url_filter_lists_and_kinds(urls: URLFilter) -> None:
    custom = URLFilter(extra_domains=["spam.example"], allow_domains=["pornhub.com"], url_words=False)
    assert custom.verdict("https://a.spam.example/x") == ("blocked_domain", "spam.example")
    assert custom.verdict("https://www.pornhub.com/") is None
    page = Page(id="p", url="https://www.pornhub.com/", source="s")
    assert reason(URLFilter(kind="page"), page) == "blocked_domain"
    pair = ImageTextPair(id="i", url="https://ok.example/", source="s", image_url="https://0-1sex.com/a.jpg")
    assert reason(URLFilter(kind="image_text"), pair) == "blocked_domain"
    inter = InterleavedDoc(id="d", url="https://ok.example/", source="s", segments=[
        Segment("text", text="t"), Segment("image", image_url="https://0-1sex.com/a.jpg"),
        Segment("image", image_url="https://ok.example/b.jpg")])
    out = URLFilter(kind="interleaved").process(inter)
    assert [s.image_url for s in out.segments if s.kind == "image"] == ["https://ok.example/b.jpg"]
    step = URLFilter()
    step.bind()
    rows = from_table(step(to_table([doc("x", url="https://xvideos.com/"), doc("y", url="https://a.org/")],
                                    "document")))
    assert [r.dropped_by for r in rows] == [None, "url_filter.blocked_domain"]


# -- image alt --------------------------------------------------------------------------------------
def pair(alt: str | None, image: str = "https://h/a.jpg", w: int | None = 800, h: int | None = 600,
         lang: str | None = "en", page: str = "d1") -> ImageTextPair:
    return ImageTextPair(id=image, url="https://h/", source="s", doc_id=page, image_url=image, alt=alt,
                         width=w, height=h, lang=lang)


@pytest.mark.parametrize(
    ("record", "want"),
    [
        (pair("A water wheel turning beside the old stone mill"), None),
        (pair(None), "no_alt"),
        (pair("   "), "no_alt"),
        (pair("Old mill"), "short_alt"),          # two words
        (pair("A b c"), "short_alt"),             # five characters
        (pair("word " * 300), "long_alt"),
        (pair("IMG_2041.jpg"), "filename_alt"),
        (pair("DSC01234"), "filename_alt"),
        (pair("3f9a0c7e5b1d2f4a6c8e"), "filename_alt"),
        (pair("Company logo"), "generic_alt"),
        (pair("image 3"), "generic_alt"),
        (pair("A water wheel turning beside the old stone mill", w=120, h=90), "small_image"),
        (pair("A water wheel turning beside the old stone mill", w=1200, h=300), "aspect_ratio"),
        (pair("A water wheel turning beside the old stone mill", w=None, h=None), None),  # size unknown: kept
    ],
)
def test_alt_text_rules(record: ImageTextPair, want: str | None) -> None:
    (result,) = AltTextQuality().process_batch([record])
    assert (result.reason if isinstance(result, Drop) else None) == want


def test_alt_language_and_repeats() -> None:
    fr = pair("Une roue à eau tourne à côté du vieux moulin", lang="fr")
    (result,) = AltTextQuality(languages=["en"]).process_batch([fr])
    assert result.reason == "alt_language"
    same = [pair("Product photo for this item", image=f"https://h/{i}.jpg") for i in range(3)]
    other_page = pair("Product photo for this item", image="https://h/x.jpg", page="d2")
    results = AltTextQuality().process_batch([*same, other_page])
    assert [r.reason if isinstance(r, Drop) else None for r in results] == ["repeated_alt"] * 3 + [None]
    assert is_generic("Logo.") and not is_generic("Logo of the mill society") and is_filename("photo_2019_01.png")


@pytest.mark.parametrize(
    ("segments", "want"),
    [
        ([Segment("text", text=CLEAN), Segment("image", image_url="a")], []),
        ([Segment("text", text=CLEAN)], ["too_few_images"]),
        ([Segment("text", text=CLEAN)] + [Segment("image", image_url=str(i)) for i in range(5)], []),
        ([Segment("text", text=" ".join(CLEAN_LINES[:2])), Segment("image", image_url="a")], ["short_text"]),
        ([Segment("text", text=CLEAN)] + [Segment("image", image_url=str(i)) for i in range(8)],
         ["image_text_ratio"]),
    ],
)
def test_interleaved_rules(segments: list[Segment], want: list[str]) -> None:
    record = InterleavedDoc(id="i", url=None, source="s", segments=segments, lang="en")
    assert InterleavedQuality().failures(record) == want


def test_interleaved_too_many_images() -> None:
    record = InterleavedDoc(id="i", url=None, source="s", lang="en",
                            segments=[Segment("text", text=CLEAN * 8)] + [Segment("image", image_url=str(i))
                                                                          for i in range(31)])
    assert InterleavedQuality().failures(record) == ["too_many_images"]


def test_interleaved_long_illustrated_chapter_is_kept() -> None:
    """OBELICS's 30-image cap would drop a long tutorial with a figure every few paragraphs; its text carries
    the images (at least 50 words per image), so it stays, while the same images over a short text do not."""
    words_per_copy = len(CLEAN.split())
    copies = -(-60 * 55 // words_per_copy)  # at least 55 words per image
    images = [Segment("image", image_url=str(i)) for i in range(60)]
    chapter = InterleavedDoc(id="c", url=None, source="s", lang="en",
                             segments=[Segment("text", text=" ".join([CLEAN] * copies)), *images])
    assert InterleavedQuality().failures(chapter) == []
    gallery = InterleavedDoc(id="g", url=None, source="s", lang="en",
                             segments=[Segment("text", text=" ".join([CLEAN] * 2)), *images])
    assert "too_many_images" in InterleavedQuality().failures(gallery)


@pytest.mark.parametrize(("alt", "expected"), [
    ("../_images/sphx_glr_plot_noisy_thumb.png", True), ("https://cdn.example/a/b/IMG_2041.JPG?w=300", True),
    ("C:\\Users\\me\\DSC01234.jpg", True), ("photo_2019_01.png", True),
    ("before/after comparison of the bridge", False), ("A heron on the weir", False)])
def test_file_names_and_paths(alt: str, expected: bool) -> None:
    assert is_filename(alt) is expected


def test_pair_text_prefers_a_real_alt_and_falls_back_to_the_caption() -> None:
    caption = "Noisy optimization problem"
    assert pair_text("../_images/sphx_glr_plot_noisy_thumb.png", caption) == (caption, "caption")
    assert pair_text(None, caption) == (caption, "caption")
    assert pair_text("image", caption) == (caption, "caption")  # generic
    assert pair_text("Noisy", caption) == (caption, "caption")  # under the caption rule's three words
    assert pair_text("A heron on the weir at dawn", caption) == ("A heron on the weir at dawn", "alt")
    assert pair_text("Heron", "Fig. 2") == ("Heron", "alt")  # neither passes the word rule: the alt stays
    assert pair_text("IMG_2041.jpg", None) == (None, None)
    assert pair_text("", "") == (None, None)


def test_alt_quality_judges_the_pair_text() -> None:
    path = "../_images/sphx_glr_plot_noisy_thumb.png"
    by_caption = ImageTextPair(id="c", url="u", source="s", doc_id="d", image_url="https://x.example/1.png",
                               alt=path, caption="Noisy optimization problem", text="Noisy optimization problem",
                               text_source="caption")
    path_only = ImageTextPair(id="p", url="u", source="s", doc_id="d", image_url="https://x.example/2.png", alt=path)
    kept, dropped = AltTextQuality().process_batch([by_caption, path_only])
    assert kept is by_caption
    assert isinstance(dropped, Drop) and dropped.reason == "filename_alt"
    # a figure's two-word title is a caption, a two-word alt is not (DataComp's rule stays for alts)
    two = {"id": "t", "url": "u", "source": "s", "doc_id": "d", "image_url": "https://x.example/3.png"}
    titled = ImageTextPair(**two, alt=path, caption="Radon transform", text="Radon transform", text_source="caption")
    labelled = ImageTextPair(**two, alt="Radon transform", text="Radon transform", text_source="alt")
    assert AltTextQuality().check(titled) is None
    assert AltTextQuality().check(labelled) == ("short_alt", "Radon transform")
