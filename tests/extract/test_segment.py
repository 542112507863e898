"""extract/segment.py: blocks and their Markdown, on pages the project wrote (every block kept)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from extract.core import strip_furniture, units, with_rules
from extract.parse import parse_html
from extract.segment import ANCESTOR_TAGS, KEYWORDS, Segmentation, segment

FIXTURES = Path(__file__).parent / "fixtures"


def cut(html: str) -> Segmentation:
    tree, _ = parse_html(html)
    strip_furniture(tree, html)
    body = tree.find("body")
    return segment(body if body is not None else tree)


def everything(html: str) -> str:
    seg = cut(html)
    return "\n\n".join(units(seg.blocks, [True] * len(seg.blocks))[0])


@pytest.fixture(scope="module")
def sphinx() -> str:
    return everything((FIXTURES / "sphinx_tutorial.html").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def maths() -> str:
    return everything((FIXTURES / "math_article.html").read_text(encoding="utf-8"))


def test_hyperlinked_code_is_verbatim_with_its_indentation_and_language(sphinx: str) -> None:
    assert (
        "```python\n"
        "import numpy as np\n"
        "\n"
        "def model(t, amplitude, omega, phase):\n"
        "    return amplitude * np.sin(omega * t + phase)\n"
        "\n"
        "t = np.linspace(0, 4 * np.pi, 200)\n"
        "```"
    ) in sphinx


def test_line_number_gutter_is_not_code(sphinx: str) -> None:
    assert (
        "```python\n"
        "from scipy.optimize import curve_fit\n"
        "params, covariance = curve_fit(model, t, y)\n"
        "errors = np.sqrt(np.diag(covariance))\n"
        "```"
    ) in sphinx
    assert "1\n2\n3" not in sphinx


def test_code_in_a_list_item_stays_a_fenced_block_inside_the_item(sphinx: str) -> None:
    assert (
        "1. Compare the fitted amplitude with the true one.\n"
        "2. Look at the residuals in an interactive session:\n"
        "   ```pycon\n"
        "   >>> residuals = y - model(t, *params)\n"
        "   >>> round(residuals.std(), 2)\n"
        "   0.1\n"
        "   ```\n"
        "3. Plot the data and the fitted curve together."
    ) in sphinx


def test_inline_code_and_inline_math(sphinx: str) -> None:
    assert ("This tutorial fits a sine wave to noisy samples with `scipy.optimize.curve_fit` and checks the fit "
            "against the known parameters. The model is $y = A \\sin(\\omega t + \\phi)$ with three unknowns."
            ) in sphinx


def test_heading_permalinks_are_left_out(sphinx: str) -> None:
    assert "# Fitting a sine wave\n" in sphinx
    assert "## Generating the data\n" in sphinx
    assert "¶" not in sphinx


def test_table_cells_keep_their_lists_and_paragraphs(sphinx: str) -> None:
    assert (
        "| Parameter | True | Fitted | Notes |\n"
        "| --- | --- | --- | --- |\n"
        "| amplitude | 2.0 | 1.98 | within one error; no bias |\n"
        "| omega | 1.5 | 1.501 | Best constrained. Two periods suffice. |"
    ) in sphinx


def test_display_math_is_a_block(sphinx: str) -> None:
    assert "\n\n$$\\chi^2 = \\sum_{i=1}^{n} \\frac{(y_i - f(t_i))^2}{\\sigma^2}$$\n\n" in sphinx
    assert "A reduced $\\chi^2$ close to one means the noise model is right." in sphinx


def test_mathjax_katex_mathml_and_math_images(maths: str) -> None:
    assert ("The integral over the real line is $\\int_{-\\infty}^{\\infty} e^{-x^2}\\,dx$ and its value is the "
            "square root of pi:\n\n$$\\int_{-\\infty}^{\\infty} e^{-x^2}\\,dx = \\sqrt{\\pi}$$") in maths
    assert "from which the source can be read back: $e^{-x^{2}}$ is the integrand." in maths
    assert "KaTeX writes an annotation with the TeX source next to its HTML: $I = \\sqrt{\\pi}$." in maths
    assert "\n\n$$I^{2} = \\frac{1}{2}\\int e^{-r}dr$$\n\n" in maths
    assert "whose alternative text is the LaTeX: $\\pi r^{2}$ for the area of a disc." in maths
    for rendering in ("rendered", "I=√π", "∫e^{-x^2}"):
        assert rendering not in maths


def test_images_are_placed_before_the_block_they_precede() -> None:
    html = (FIXTURES / "sphinx_tutorial.html").read_text(encoding="utf-8")
    seg = cut(html)
    [image] = seg.images
    assert image.element.get("src") == "_images/sine_fit.png"
    assert seg.blocks[image.before].text == "The fitted curve follows the samples closely."


def test_hidden_and_noscript_text_is_kept_and_marked_for_the_classifier() -> None:
    seg = cut("<html><body><p>Shown text here.</p><div hidden>Streamed section</div><p style='display: none'>FAQ "
              "answer</p><noscript><p>Enable JavaScript</p><img src='/real.jpg' alt='Real'></noscript><p>After.</p>"
              "</body></html>")
    assert [b.text for b in seg.blocks] == ["Shown text here.", "Streamed section", "FAQ answer", "Enable JavaScript",
                                            "After."]
    hidden = 1 << KEYWORDS.index("hidden")
    assert [bool(b.kw_all & hidden) for b in seg.blocks] == [False, True, True, False, False]
    assert seg.blocks[3].tags & (1 << ANCESTOR_TAGS.index("noscript"))
    assert [(i.element.get("src"), i.before) for i in seg.images] == [("/real.jpg", 4)]


def test_styled_inline_siblings_are_not_glued() -> None:
    seg = cut("<html><body><ul><li><a href='/p'><span class='title'>Gaiters</span><span class='price'>39 EUR</span>"
              "</a></li></ul><p>snake<span class='hl'>case</span> stays one word</p></body></html>")
    assert [b.markdown() for b in seg.blocks] == ["- Gaiters 39 EUR", "snakecase stays one word"]


def test_a_sphinx_signature_reads_as_code_not_as_fields_set_apart() -> None:
    """Sphinx 4+ writes an API signature as styled spans side by side (SciPy's BLAS wrappers, as the
    python-scipy-doc package ships them); the card rule put a space between each ("blas. cgemv ( alpha")."""
    sig = ('<span class="sig-prename descclassname"><span class="pre">scipy.linalg.blas.</span></span>'
           '<span class="sig-name descname"><span class="pre">cgemv</span></span><span class="sig-paren">(</span>'
           '<em class="sig-param"><span class="n"><span class="pre">alpha</span></span></em>, '
           '<em class="sig-param"><span class="n"><span class="pre">x</span></span></em>'
           '<span class="optional">[</span>, <em class="sig-param"><span class="n"><span class="pre">beta</span>'
           '</span></em><span class="optional">]</span><span class="sig-paren">)</span>'
           '<em class="property"><span class="w"> </span><span class="p"><span class="pre">=</span></span>'
           '<span class="w"> </span><span class="pre">&lt;fortran</span> <span class="pre">function</span> '
           '<span class="pre">cgemv&gt;</span></em>')
    seg = cut(f'<html><body><dl class="py function"><dt class="sig sig-object py" id="cgemv">{sig}</dt>'
              '<dd><p>Wrapper for cgemv.</p></dd></dl></body></html>')
    assert [b.markdown() for b in seg.blocks] == [
        "scipy.linalg.blas.cgemv(alpha, x[, beta]) = <fortran function cgemv>", "Wrapper for cgemv."]


def test_code_spans_side_by_side_stay_two_spans() -> None:
    """Glued, two code spans would be one garbled span ("`root #``emerge`": a Gentoo wiki prompt and its command)."""
    seg = cut("<html><body><p>Run <code>root #</code><code>emerge --ask x</code>, then <kbd>Ctrl</kbd>+<kbd>F</kbd>"
              "<kbd>Tab</kbd>.</p></body></html>")
    assert seg.blocks[0].text == "Run `root #` `emerge --ask x`, then `Ctrl`+`F` `Tab`."


def test_a_signature_of_sphinx_before_4_reads_as_code_too() -> None:
    """Sphinx 1.3 to 3 wrote the module and name as code elements, the parentheses as sig-paren spans."""
    seg = cut('<html><body><dl class="function"><dt id="numpy.sum"><code class="descclassname">numpy.</code>'
              '<code class="descname">sum</code><span class="sig-paren">(</span><em>a</em>, <em>axis=None</em>'
              '<span class="sig-paren">)</span><a class="headerlink" href="#numpy.sum">¶</a></dt>'
              '<dd><p>Sum of <code>a</code>.</p></dd></dl></body></html>')
    assert [b.markdown() for b in seg.blocks] == ["numpy.sum(a, axis=None)", "Sum of `a`."]


def test_a_numpydoc_parameter_and_its_type_read_apart_as_sphinx_shows_them() -> None:
    """Sphinx's CSS writes the " : " between a parameter and its type; without it they read as one word."""
    seg = cut("<html><body><dl><dt><strong>alpha</strong><span class='classifier'>input complex</span></dt>"
              "<dt><strong>b</strong> : <span class='classifier'>int</span></dt>"  # older docutils writes it
              "<dt><strong>c</strong>:<span class='classifier'>float</span></dt>"
              "<dt><span class='classifier'>no name before it</span></dt></dl></body></html>")
    assert [b.plain for b in seg.blocks] == ["alpha : input complex", "b : int", "c:float", "no name before it"]


def test_layout_tables_are_walked_and_quotes_and_nested_lists_rendered() -> None:
    html = ("<html><body><table><tr><td><h2>Welcome</h2><p>First column text of the layout.</p>"
            "<p>More prose in the same cell.</p></td><td><p>Second column.</p></td></tr></table>"
            "<blockquote><p>Quoted line one.</p><p>Quoted line two.</p></blockquote>"
            "<ol start='3'><li>Three<ul><li>nested</li></ul></li><li>Four</li></ol></body></html>")
    assert everything(html) == (
        "## Welcome\n\nFirst column text of the layout.\n\nMore prose in the same cell.\n\nSecond column.\n\n"
        "> Quoted line one.\n\n> Quoted line two.\n\n3. Three\n   - nested\n4. Four")


def test_line_breaks_stay_inside_a_block() -> None:
    seg = cut("<html><body><p>Line one<br>line two<br><br>line three</p></body></html>")
    assert [b.text for b in seg.blocks] == ["Line one\nline two\nline three"]


SIDEBAR = "".join(f'<li><a href="m{i}.html">Module {i} (<code>numlib.m{i}</code>)</a></li>' for i in range(30))


def test_page_furniture_is_stripped_unless_it_holds_most_of_the_page_in_prose() -> None:
    stub = (f"<html><body><nav class='bd-links'><ul>{SIDEBAR}</ul></nav><main><h1>numlib.grid.expm1</h1>"
            "<p>Element-wise exp(x) - 1, accurate near zero.</p></main><footer>Copyright 2023</footer></body></html>")
    text = everything(stub)
    # the sidebar holds most of the page's text, but it is links all through: furniture (SciPy's API stubs)
    assert "Module 3" not in text and "Copyright" not in text
    assert "Element-wise exp(x) - 1" in text
    prose = " ".join(f"Sentence {i} of an article that a site wrapped in a nav element by mistake." for i in range(30))
    wrapped = f"<html><body><nav><h1>Title</h1><p>{prose} See <a href='x.html'>this</a>.</p></nav></body></html>"
    assert "Sentence 29 of an article" in everything(wrapped)  # a misused <nav> holding the page stays


def test_checkbox_and_radio_labels_are_flagged_and_a_repeated_option_name_is_left_out() -> None:
    swatches = "".join(f"<span><input type='checkbox' id='c{i}'><label for='c{i}'><span>Swatch</span></label></span>"
                       for i in range(5))
    sizes = "".join(f"<label><input type='radio' name='size'>{size}</label>" for size in ("Small", "Medium", "Large"))
    html = (f"<html><body><main><h1>Tumbler</h1><div>{swatches}</div><form>{sizes}</form>"
            "<p>Keeps cold drinks cold and hot drinks hot until the last sip.</p>"
            "<ul><li><label><input type='checkbox' disabled checked> Write the tests</label></li></ul>"
            "<label for='email'>Email</label><input type='email' id='email'></main></body></html>")
    seg = cut(html)
    flagged = [b.text for b in seg.blocks if b.option]
    # the names of checkboxes and radio buttons, by for= or by holding the control; not a disabled checkbox (a
    # Markdown task list's item) nor a text field's label
    assert flagged == ["Swatch"] * 5 + ["Small", "Medium", "Large"]
    kept = with_rules(seg.blocks, np.ones(len(seg.blocks), dtype=bool))
    text = [b.text for b, k in zip(seg.blocks, kept, strict=True) if k]
    # a name that five options share names none of them; distinct option names are the page's (WCXB's ground truth
    # keeps a collection's facets and a product's fabric names)
    assert "Swatch" not in text
    assert {"Small", "Medium", "Large", "Write the tests", "Email"} <= {t.strip() for t in text}


def test_a_label_that_swallowed_the_page_is_no_option_name() -> None:
    # an unclosed <label> holds the rest of the page in libxml2's tree
    prose = " ".join(f"Sentence {i} of the page." for i in range(40))
    seg = cut(f"<html><body><label><input type='checkbox'>Remember me<p>{prose}</p></body></html>")
    assert not any(b.option for b in seg.blocks)
