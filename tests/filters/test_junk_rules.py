"""Clear-cut junk rules: each fires on the junk it names, none on real page shapes, and as a step they drop with
the reason (or record a signal when told not to drop)."""

from __future__ import annotations

import pytest

from filters.junk_rules import ClearJunk
from pipelines.records import Document
from pipelines.step import Drop
from tests.filters.golden import CLEAN, CLEAN_LINES
from tests.filters.test_quality_model import GOOD

LOREM = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit. Pellentesque habitant morbi tristique senectus et "
         "netus et malesuada fames ac turpis egestas. Vestibulum tortor quam, feugiat vitae, ultricies eget, tempor "
         "sit amet, ante. Donec eu libero sit amet quam egestas semper. Aenean ultricies mi vitae est.")
BLOCK = "Home\nShop\nAbout us\nContact\nShare on Facebook\nTweet\n© 2024 Example Ltd. All rights reserved."
WALL = ("We value your privacy. We and our 842 partners use cookies and similar technologies to store and access "
        "information on your device, and process personal data for personalised ads and content. You can accept or "
        "reject all cookies, or manage your preferences and consent at any time. Accept all. Reject all. Manage "
        "options. Subscribe to keep reading: sign in or register for unlimited access.")
_ANCHORS = ["replica watches", "payday loans", "casino bonus", "diet pills", "cheap flights", "car insurance",
            "web hosting", "dating site", "forex signals", "essay writing"]
LINKS = "\n".join(f"- [{a} {n}](https://spam{i}.example/{n}) and more" for i, a in enumerate(_ANCHORS)
                  for n in ("uk", "online"))
STUFFED = " ".join(f"{line} Cheap flights London, cheap flights London cheap flights." for line in CLEAN_LINES)
# random letter strings, all different, with a few real words between them
GARBLED = " ".join(f"{a}{b}rtz qwxp{b}{a} the" for a in "bcdfgh" for b in "klmnpst")

ERROR = ("Home\nProducts\nBlog\n\n# 404 Not Found\n\nThe requested URL /spring-sale.html was not found on this "
         "server.\n\nApache/2.4.41 (Ubuntu) Server at example.com Port 80")
SHORT_WALL = "We use cookies to improve your experience. Accept all cookies or manage your consent preferences."

CASES = {
    "placeholder_text": LOREM + "\n\n" + LOREM.replace("Lorem ipsum", "Nam"),
    "repeated_content": "\n\n".join([BLOCK] * 8 + [CLEAN_LINES[0]]),
    "consent_or_paywall": WALL,
    "link_list": LINKS,
    "keyword_stuffing": STUFFED,
    "garbled_text": GARBLED,
    "error_page": ERROR,
}


@pytest.mark.parametrize("reason", list(CASES))
def test_each_rule_fires_on_its_junk(reason: str) -> None:
    assert ClearJunk().failures(CASES[reason], "en") == [reason]


def test_keyword_stuffing_is_not_judged_on_unspaced_scripts() -> None:
    # a Japanese manual naming its program in Latin letters throughout: the content words of a CJK text are not its
    # Latin words (17 GIMP pages went to this rule before)
    text = "GIMP の ツール ボックス は 画面 の 左 に あります。GIMP で 画像 を 開きます。" * 20
    assert ClearJunk().failures(text, "ja") == []


def test_api_stubs_that_name_their_subject_throughout_are_not_keyword_stuffing() -> None:
    # the two good calib pages the rule fired on at 0.4 (SymPy's particle-in-a-box module: 0.417; an astropy stub:
    # 0.400) once extraction gave documentation stubs their text (2026-12-06): the bar sits above them
    piab = ("# Particle in a Box\n\n1D quantum particle in a box.\n\n" + "".join(
        f"class sympy.physics.quantum.piab.PIAB{name}(*args, **kwargs)[source]\n\nParticle in a box {what}.\n\n"
        for name, what in (("Bra", "eigenbra"), ("Hamiltonian", "Hamiltonian operator"), ("Ket", "eigenket"))))
    unbroadcast = ("Given an array, return a new array that is the smallest subset of the original array that can be "
                   "re-broadcasted back to the original array.\n\nSee "
                   "https://stackoverflow.com/questions/40845769/un-broadcasting-numpy-arrays for more details.")
    for text in (piab, unbroadcast):
        assert ClearJunk().failures(text, "en") == []
        assert "keyword_stuffing" in ClearJunk(max_keyword=0.4).failures(text, "en")


def test_real_page_shapes_pass() -> None:
    for text in [CLEAN, *GOOD]:
        assert ClearJunk().failures(text, "en") == []


def test_short_texts_are_not_judged() -> None:
    assert ClearJunk().failures("Lorem ipsum dolor sit amet.", "en") == []
    # thirty words counts prose only: a code listing under a four-word introduction is not judged on the four
    listing = "# Glossary\n\nWork in progress\n\n```\n" + "array\n    Numerical array, see numpy.\n" * 40 + "```"
    assert ClearJunk().failures(listing, "en") == []


def test_link_lists_are_a_signal_not_a_drop() -> None:
    step = ClearJunk()
    step.bind()
    doc = Document(id="l", url=None, source="t", text=LINKS, lang="en")
    assert step.process(doc) is doc and doc.quality_signals == ["clear_junk.link_list"]
    # extraction's link density counts too: a page of link anchors written out as plain text
    plain = Document(id="p", url=None, source="t", text=CLEAN, lang="en", link_density=0.9)
    assert step.process(plain) is plain and plain.quality_signals == ["clear_junk.link_list"]


def test_step_drops_or_records() -> None:
    step = ClearJunk()
    step.bind()
    with pytest.raises(Drop) as info:
        step.process(Document(id="w", url=None, source="t", text=WALL, lang="en"))
    assert info.value.reason == "consent_or_paywall"
    lenient = ClearJunk(drop=[])
    lenient.bind()
    doc = Document(id="w", url=None, source="t", text=WALL, lang="en")
    assert lenient.process(doc) is doc and doc.quality_signals == ["clear_junk.consent_or_paywall"]


@pytest.mark.parametrize("kwargs", [{"max_lorem": 2}, {"min_words": -1}, {"drop": ["spam"]}])
def test_bad_arguments(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        ClearJunk(**kwargs)


@pytest.mark.parametrize("text", [
    "Page introuvable\n\nLa page que vous cherchez n'existe pas ou a été déplacée.",
    "# Error 503\n\nService temporarily unavailable. Please try again later.",
    "This domain is for sale!\n\nBuy this domain today. Contact the owner for a price.",
    "Checking your browser before accessing example.com. This process is automatic.",
    "# 451: Unavailable for legal reasons\n\nThis website is currently unavailable to visitors from your location.",
    "# Search\n\nApril 02, 2012\n\n## No results found for liquid tvs\n\nTry a new search.",
    "Apache2 Debian Default Page\n\nThis is the default welcome page used to test the correct operation of the "
    "Apache2 server after installation.",
    "## Please enter your date of birth\n\nYou must be of legal drinking age to view this site.",
])
def test_error_pages_in_their_forms(text: str) -> None:
    assert ClearJunk().failures(text, "en") == ["error_page"]


def test_error_words_further_down_or_on_long_pages_are_not_an_error_page() -> None:
    # an API stub says "not found" in its body; a long article may open on an error (it is about one)
    stub = "# dask.dataframe.DataFrame.pop\n\nReturn item and drop from frame. Raise KeyError if not found."
    assert ClearJunk().failures(stub, "en") == []
    article = "# 404 Not Found: what it means\n\n" + CLEAN
    assert ClearJunk().failures(article, "en") == []


def test_short_walls() -> None:
    assert ClearJunk().failures(SHORT_WALL, "en") == ["consent_or_paywall"]
    # a short dialog that opens on its consent statement, whatever its share of consent words
    dialog = ("## Nous respectons votre vie privée\n\nNos 881 partenaires et nous utilisons des cookies pour stocker "
              "et accéder à des informations sur votre appareil.")
    assert ClearJunk().failures(dialog, "fr") == ["consent_or_paywall"]
    # one sign-in word above a table is a job board, not a wall (Hacker News's /jobs)
    board = "login\n\nThese are jobs at YC startups. See more at ycombinator.com/jobs.\n\n| 1. | SigNoz is hiring |"
    assert ClearJunk().failures(board, "en") == []
