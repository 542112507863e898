"""extract/cleanup.py: heading permalinks of Sphinx, MkDocs, GitHub, Docusaurus and others, and their glyphs."""

from __future__ import annotations

from lxml import etree

from extract.cleanup import clean_heading_text, clean_title, is_permalink
from extract.parse import parse_html


def _body(html: str) -> etree._Element:
    tree, _ = parse_html(f"<html><head><title>t</title></head><body>{html}</body></html>")
    return tree.find("body")


def _heading_text(html: str) -> list[str]:
    """The text of each heading with the permalinks removed, as a caller would render it."""
    body = _body(html)
    out = []
    for heading in body.iter("h1", "h2", "h3", "h4", "h5", "h6"):
        parts = []

        def walk(el: etree._Element, parts: list[str] = parts) -> None:
            if el.text:
                parts.append(el.text)
            for child in el:
                if not is_permalink(child):
                    walk(child)
                if child.tail:
                    parts.append(child.tail)

        walk(heading)
        out.append("".join(parts).strip())
    return out


def _permalinks(html: str) -> list[str]:
    return [el.get("class") or el.tag for el in _body(html).iter() if is_permalink(el)]


def test_sphinx_headerlink():
    html = (
        '<section id="installation"><h2>Installation<a class="headerlink" href="#installation" '
        'title="Link to this heading">¶</a></h2></section>'
        '<dl class="py function"><dt class="sig sig-object py" id="pkg.run"><span class="sig-name descname">'
        '<span class="pre">run</span></span><span class="sig-paren">()</span><a class="headerlink" href="#pkg.run" '
        'title="Link to this definition">¶</a></dt></dl>'
    )
    assert _heading_text(html) == ["Installation"]
    assert _permalinks(html) == ["headerlink", "headerlink"]


def test_pydata_sphinx_theme_hash_headerlink():
    html = (
        '<section id="usage"><h1>Usage<a class="headerlink" href="#usage" title="Link to this heading">#</a></h1>'
        '</section>'
    )
    assert _heading_text(html) == ["Usage"]


def test_mkdocs_material_headerlink():
    html = (
        '<h2 id="getting-started">Getting started<a class="headerlink" href="#getting-started" '
        'title="Permanent link">¶</a></h2>'
    )
    assert _heading_text(html) == ["Getting started"]


def test_github_markdown_heading_anchor_after_the_heading():
    html = (
        '<div class="markdown-heading" dir="auto"><h2 tabindex="-1" class="heading-element" dir="auto">Install</h2>'
        '<a id="user-content-install" class="anchor" aria-label="Permalink: Install" href="#install">'
        '<svg class="octicon octicon-link" viewBox="0 0 16 16" version="1.1" width="16" height="16" aria-hidden="true">'
        '<path d="m7.775 3.275"></path></svg></a></div>'
        '<h3><a id="user-content-older" class="anchor" aria-hidden="true" href="#older">'
        '<span aria-hidden="true" class="octicon octicon-link"></span></a>Older style</h3>'
    )
    assert _permalinks(html) == ["anchor", "octicon octicon-link", "anchor"]
    assert _heading_text(html) == ["Install", "Older style"]


def test_docusaurus_hash_link_with_zero_width_space():
    html = (
        '<h2 class="anchor anchorTargetHideOnScrollNavbar_qJOx" id="fast-track">Fast Track ⏱️'
        '<a href="#fast-track" class="hash-link" aria-label="Direct link to Fast Track ⏱️" '
        'title="Direct link to Fast Track ⏱️" translate="no">\u200b</a></h2>'
    )
    assert _heading_text(html) == ["Fast Track ⏱️"]


def test_vuepress_anchorjs_nbconvert_rustdoc_and_plain_glyph_links():
    html = (
        '<h2 id="config"><a href="#config" class="header-anchor">#</a> Config</h2>'
        '<h2 id="api">API<a class="anchorjs-link " aria-label="Anchor" data-anchorjs-icon="" href="#api" '
        'style="font: 1em / 1 anchorjs-icons; padding-left: 0.375em;"></a></h2>'
        '<h2 id="Plotting">Plotting<a class="anchor-link" href="#Plotting">¶</a></h2>'
        '<h2 id="implementations" class="section-header">Implementations<a href="#implementations" class="anchor">§</a>'
        '</h2>'
        '<h3 id="faq">FAQ <a href="#faq" aria-hidden="true">🔗</a></h3>'
        '<section id="sec-2"><h2>Second <a href="#sec-2">#</a></h2></section>'
    )
    assert _heading_text(html) == ["Config", "API", "Plotting", "Implementations", "FAQ", "Second"]


def test_content_links_in_headings_are_kept():
    html = (
        '<h2>See <a href="/docs">the docs</a></h2>'
        '<h2 id="x">Back <a href="#top">#</a></h2>'
        '<h2>C# <a href="https://example.com/#">#</a></h2>'
        '<p>Paragraph <a href="#x">¶</a></p>'
    )
    assert _permalinks(html) == []
    assert _heading_text(html) == ["See the docs", "Back #", "C# #"]


def test_clean_heading_text():
    assert clean_heading_text("Installation¶") == "Installation"
    assert clean_heading_text("Installation #") == "Installation"
    assert clean_heading_text("Usage#") == "Usage"
    assert clean_heading_text("Introduction to C#") == "Introduction to C#"
    assert clean_heading_text("F# ¶") == "F#"
    assert clean_heading_text("# Config") == "Config"
    assert clean_heading_text("#include directives") == "#include directives"
    assert clean_heading_text("Scope §") == "Scope"
    assert clean_heading_text("§ 1983. Civil action") == "§ 1983. Civil action"
    assert clean_heading_text("Links 🔗") == "Links"
    assert clean_heading_text("🔗 Links") == "Links"
    assert clean_heading_text("#️⃣ Tags") == "Tags"
    assert clean_heading_text("Fast Track ⏱️\u200b") == "Fast Track ⏱️"
    assert clean_heading_text("Title ¶ #") == "Title"
    assert clean_heading_text("  Plain words  ") == "  Plain words  "


def test_clean_title():
    assert clean_title("Usage¶ | Project Docs") == "Usage | Project Docs"
    assert clean_title("Usage — Project Docs") == "Usage — Project Docs"
    assert clean_title("API reference¶") == "API reference"
