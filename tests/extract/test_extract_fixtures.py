"""The whole extraction on pages the project wrote, one per construct of issue 12, against the exact text.

``fixtures/<name>.html`` goes through ``extract_page`` with the defaults; the text must equal
``fixtures/expected/<name>.md`` character for character. The text is what the shipped block model chooses
(extract/models/blocks.zip), rendered by extract/segment.py: a retrained model that moves a block, or a change of
rendering, shows up here as a diff to review (and, when it is right, to copy into the expected file).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from extract.page import Extraction, extract_page

FIXTURES = Path(__file__).parent / "fixtures"
PAGES = ("sphinx_tutorial", "math_article", "forum_thread", "product_page")


def run(name: str) -> Extraction:
    return extract_page((FIXTURES / f"{name}.html").read_text(encoding="utf-8"), f"https://example.org/{name}",
                        time_limit_s=None)


@pytest.mark.parametrize("name", PAGES)
def test_exact_text(name: str) -> None:
    expected = (FIXTURES / "expected" / f"{name}.md").read_text(encoding="utf-8").rstrip("\n")
    assert run(name).document.text == expected


def test_documentation_page() -> None:
    ext = run("sphinx_tutorial")
    doc = ext.document
    assert (doc.page_type, doc.title) == ("documentation", "Fitting a sine wave")  # no ¶ in the title either
    # the sidebar's table of contents, the navigation bar, the download link and the footer stay out
    for absent in ("Table of Contents", "Previous topic", "SciTutorials 1.4 documentation", "Download Python",
                   "Copyright", "¶"):
        assert absent not in doc.text
    # the figure: one content image, its Sphinx caption read without the permalink
    [pair] = ext.image_pairs
    assert (pair.image_url, pair.caption) == ("https://example.org/_images/sine_fit.png",
                                              "The fitted curve follows the samples closely.")
    assert ext.content_images == 1 and ext.skipped_images == {}


def test_forum_thread_keeps_every_post_and_reply() -> None:
    doc = run("forum_thread").document
    assert doc.page_type == "forum"
    for post in ("My starter is nine days old", "That smell means the yeast", "Two days of feeding",
                 "Same thing happened to mine"):
        assert post in doc.text
    for absent in ("Who is online", "Jump to", "Powered by phpBB", "Board index", "Post Reply"):
        assert absent not in doc.text


def test_product_page_has_description_specs_and_json_ld_text() -> None:
    ext = run("product_page")
    doc = ext.document
    assert doc.page_type == "product"
    assert "| Weight (pair) | 480 g |" in doc.text
    assert doc.text.endswith("Three-section aluminium trekking poles with cork grips and flick locks.")
    assert "jsonld_product_description" in doc.extract_flags
    for absent in ("You may also like", "Summit Gaiters", "Free shipping", "Add to cart"):
        assert absent not in doc.text
    assert [p.image_url for p in ext.image_pairs] == ["https://example.org/img/ap2-main.jpg"]
