"""extract/math_markup.py on the markup of MathJax v2/v3, KaTeX, MathML, Wikipedia, Sphinx and image renderers."""

from __future__ import annotations

from lxml import etree

from extract.math_markup import (
    RENDERING,
    is_math_rendering,
    math_at,
    math_markdown,
    math_source,
    mathml_to_latex,
)
from extract.parse import parse_html


def _body(html: str) -> etree._Element:
    tree, _ = parse_html(f"<html><head><title>t</title></head><body>{html}</body></html>")
    return tree.find("body")


def _formulas(html: str) -> list[str]:
    """Markdown of each formula, as a top-down caller finds them (renderings skipped)."""
    found: list[str] = []

    def walk(el: etree._Element) -> None:
        if is_math_rendering(el):
            return
        source = math_source(el)
        if source is not None:
            found.append(math_markdown(*source))
            return
        for child in el:
            if isinstance(child.tag, str):
                walk(child)

    walk(_body(html))
    return found


def _formulas_at(html: str) -> list[str]:
    """The same walk with the one-call ``math_at``."""
    found: list[str] = []

    def walk(el: etree._Element) -> None:
        at = math_at(el)
        if at is not None:
            if at != RENDERING:
                found.append(math_markdown(*at))
            return
        for child in el:
            if isinstance(child.tag, str):
                walk(child)

    walk(_body(html))
    return found


def _latex(mathml: str) -> str:
    return mathml_to_latex(_body(mathml).find(".//math"))


# --- MathJax v2 ------------------------------------------------------------------------------------------

MATHJAX2 = (
    '<p>Let <span class="MathJax_Preview" style="color: inherit;"></span>'
    '<span class="MathJax" id="MathJax-Element-1-Frame" tabindex="0" style="position: relative;" '
    'data-mathml="&lt;math xmlns=&quot;http://www.w3.org/1998/Math/MathML&quot;&gt;&lt;msup&gt;&lt;mi&gt;x&lt;/mi&gt;'
    '&lt;mn&gt;2&lt;/mn&gt;&lt;/msup&gt;&lt;/math&gt;" role="presentation"><nobr aria-hidden="true"><span class="math" '
    'id="MathJax-Span-1" style="width: 1.03em;"><span><span class="mi">x</span><span class="mn">2</span></span></span>'
    '</nobr><span class="MJX_Assistive_MathML" role="presentation"><math xmlns="http://www.w3.org/1998/Math/MathML">'
    '<msup><mi>x</mi><mn>2</mn></msup></math></span></span><script type="math/tex" id="MathJax-Element-1">x^2</script>'
    ' be positive.</p>\n'
    '<span class="MathJax_Preview" style="color: inherit;"></span><div class="MathJax_Display" style="text-align: '
    'center;">'
    '<span class="MathJax" id="MathJax-Element-2-Frame" tabindex="0"><nobr aria-hidden="true">∑</nobr>'
    '<span class="MJX_Assistive_MathML MJX_Assistive_MathML_Block" role="presentation"><math display="block">'
    '<mo>∑</mo></math></span></span></div><script type="math/tex; mode=display" id="MathJax-Element-2">'
    '\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}</script>'
)


def test_mathjax2_script_is_the_source_and_the_rendering_is_skipped():
    expected = ["$x^2$", "$$\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}$$"]
    assert _formulas(MATHJAX2) == expected
    assert _formulas_at(MATHJAX2) == expected


def test_mathjax2_frames_are_renderings():
    body = _body(MATHJAX2)
    classes = {el.get("class"): is_math_rendering(el) for el in body.iter("span", "div") if el.get("class")}
    assert classes["MathJax_Preview"] is True
    assert classes["MathJax"] is True
    assert classes["MathJax_Display"] is True


def test_mathjax2_chtml_frame_without_its_script_gives_its_assistive_mathml():
    html = (
        '<p><span class="MathJax_Preview"></span><span class="mjx-chtml MathJax_CHTML" id="MathJax-Element-3-Frame">'
        '<span class="mjx-math"><span class="mjx-mrow">…</span></span><span class="MJX_Assistive_MathML">'
        '<math xmlns="http://www.w3.org/1998/Math/MathML"><msqrt><mi>a</mi></msqrt></math></span></span> ok</p>'
    )
    assert _formulas(html) == ["$\\sqrt{a}$"]


def test_mathjax2_frame_data_mathml_when_nothing_else_is_left():
    html = (
        '<span class="MathJax_SVG" id="MathJax-Element-4-Frame" data-mathml="&lt;math xmlns=&quot;'
        'http://www.w3.org/1998/Math/MathML&quot;&gt;&lt;mi&gt;n&lt;/mi&gt;&lt;mo&gt;!&lt;/mo&gt;&lt;/math&gt;">'
        '<svg><g></g></svg></span>'
    )
    assert _formulas(html) == ["$n!$"]


def test_mathjax2_cdata_wrapped_script_and_asciimath():
    html = (
        '<script type="math/tex">% <![CDATA[\na < b\n%]]></script>'
        '<script type="math/asciimath">sum_(i=1)^n i</script>'
        '<script type="math/mml"><math><mfrac><mi>a</mi><mi>b</mi></mfrac></math></script>'
    )
    assert _formulas(html) == ["$a < b$", "$\\frac{a}{b}$"]


# --- MathJax v3 ------------------------------------------------------------------------------------------

def test_mathjax3_container_with_assistive_mathml():
    html = (
        '<p>so <mjx-container class="MathJax CtxtMenu_Attached_0" jax="CHTML" style="font-size: 119.5%; position: '
        'relative;" '
        'tabindex="0" ctxtmenu_counter="0"><mjx-math class="MJX-TEX" aria-hidden="true"><mjx-msup><mjx-mi '
        'class="mjx-i">'
        '<mjx-c class="mjx-c1D452 TEX-I"></mjx-c></mjx-mi></mjx-msup></mjx-math><mjx-assistive-mml unselectable="on" '
        'display="inline"><math xmlns="http://www.w3.org/1998/Math/MathML"><msup><mi>e</mi><mrow><mi>i</mi><mi>π</mi>'
        '</mrow></msup><mo>+</mo><mn>1</mn><mo>=</mo><mn>0</mn></math></mjx-assistive-mml></mjx-container>.</p>'
        '<mjx-container class="MathJax" jax="SVG" display="true"><svg xmlns="http://www.w3.org/2000/svg" width="10ex">'
        '<g></g></svg><mjx-assistive-mml unselectable="on" display="block"><math '
        'xmlns="http://www.w3.org/1998/Math/MathML" '
        'display="block"><mfrac><mn>1</mn><mn>2</mn></mfrac></math></mjx-assistive-mml></mjx-container>'
    )
    assert _formulas(html) == ["$e^{i\\pi} + 1 = 0$", "$$\\frac{1}{2}$$"]
    assert _formulas_at(html) == ["$e^{i\\pi} + 1 = 0$", "$$\\frac{1}{2}$$"]


def test_mathjax_container_data_latex_wins_and_speech_label_is_not_tex():
    body = _body(
        '<mjx-container class="MathJax" jax="CHTML" data-latex="\\alpha^2"><mjx-math></mjx-math></mjx-container>'
        '<mjx-container class="MathJax" jax="CHTML" aria-label="x squared"><mjx-math></mjx-math></mjx-container>'
    )
    assert [math_source(el) for el in body] == [("\\alpha^2", False), None]
    mml = body.find(".//mjx-math")
    assert is_math_rendering(mml)


# --- KaTeX -----------------------------------------------------------------------------------------------

KATEX = (
    '<p>Euler: <span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML">'
    '<semantics><mrow><msup><mi>e</mi><mrow><mi>i</mi><mi>π</mi></mrow></msup></mrow>'
    '<annotation encoding="application/x-tex">e^{i\\pi}</annotation></semantics></math></span>'
    '<span class="katex-html" aria-hidden="true"><span class="base"><span class="strut" style="height:0.6644em;">'
    '</span>'
    '<span class="mord"><span class="mord mathnormal">e</span></span></span></span></span>.</p>'
    '<p><span class="katex-display"><span class="katex"><span class="katex-mathml">'
    '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><semantics><mrow><mi>x</mi></mrow>'
    '<annotation encoding="application/x-tex">\\int_0^1 x\\,dx = \\tfrac12</annotation></semantics></math></span>'
    '<span class="katex-html" aria-hidden="true"><span class="base">∫</span></span></span></span></p>'
)


def test_katex_annotation_inline_and_display():
    expected = ["$e^{i\\pi}$", "$$\\int_0^1 x\\,dx = \\tfrac12$$"]
    assert _formulas(KATEX) == expected
    assert _formulas_at(KATEX) == expected


def test_katex_html_is_a_rendering_beside_its_mathml():
    body = _body(KATEX)
    html_parts = [el for el in body.iter("span") if el.get("class") == "katex-html"]
    assert [is_math_rendering(el) for el in html_parts] == [True, True]


# --- bare MathML -----------------------------------------------------------------------------------------

def test_mathml_fraction_and_sqrt():
    assert _latex('<math><mfrac><mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow><mn>2</mn></mfrac></math>') == (
        "\\frac{a + b}{2}")
    assert _latex('<math><msqrt><mrow><msup><mi>x</mi><mn>2</mn></msup><mo>+</mo><mn>1</mn></mrow></msqrt></math>') == (
        "\\sqrt{x^{2} + 1}")
    assert _latex('<math><mroot><mi>x</mi><mn>3</mn></mroot></math>') == "\\sqrt[3]{x}"


def test_mathml_sum_with_limits_and_sub_sup():
    mathml = (
        '<math display="block"><mrow><munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi>'
        '</munderover><msubsup><mi>x</mi><mi>i</mi><mn>2</mn></msubsup><mo>≤</mo><mi>α</mi><mo>·</mo><mi>β</mi>'
        '</mrow></math>'
    )
    assert _latex(mathml) == "\\sum_{i=1}^{n} x_{i}^{2} \\leq \\alpha \\cdot \\beta"
    assert _formulas(mathml) == ["$$\\sum_{i=1}^{n} x_{i}^{2} \\leq \\alpha \\cdot \\beta$$"]


def test_mathml_integral_limit_and_operators():
    assert _latex(
        '<math><msubsup><mo>∫</mo><mn>0</mn><mi>∞</mi></msubsup><msup><mi>e</mi><mrow><mo>−</mo><mi>x</mi></mrow>'
        '</msup><mi>d</mi><mi>x</mi></math>') == "\\int_{0}^{\\infty} e^{-x}dx"
    assert _latex(
        '<math><munder><mo movablelimits="true" form="prefix">lim</mo><mrow><mi>x</mi><mo stretchy="false">→</mo>'
        '<mn>0</mn></mrow></munder><mfrac><mrow><mi>sin</mi><mo>⁡</mo><mi>x</mi></mrow><mi>x</mi></mfrac>'
        '<mo>=</mo><mn>1</mn></math>') == "\\lim_{x\\to0} \\frac{\\sin x}{x} = 1"
    assert _latex('<math><mi>a</mi><mo>±</mo><mi>b</mi><mo>×</mo><mi>c</mi><mo>≠</mo><mo>−</mo><mn>1</mn></math>') == (
        "a \\pm b \\times c \\neq -1")


def test_mathml_matrix_cases_and_binomial():
    pmatrix = (
        '<math><mi>A</mi><mo>=</mo><mrow><mo>(</mo><mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr>'
        '<mtr><mtd><mn>0</mn></mtd><mtd><mn>1</mn></mtd></mtr></mtable><mo>)</mo></mrow></math>'
    )
    bare = '<math><mtable><mtr><mtd><mi>a</mi></mtd><mtd><mi>b</mi></mtd></mtr></mtable></math>'
    cases = (
        '<math><mrow><mo>{</mo><mtable><mtr><mtd><mn>1</mn></mtd><mtd><mtext>if </mtext><mi>x</mi><mo>&gt;</mo>'
        '<mn>0</mn></mtd></mtr><mtr><mtd><mn>0</mn></mtd><mtd><mtext>otherwise</mtext></mtd></mtr></mtable>'
        '<mo fence="true" stretchy="true"></mo></mrow></math>'
    )
    binom = '<math><mrow><mo>(</mo><mfrac linethickness="0"><mi>n</mi><mi>k</mi></mfrac><mo>)</mo></mrow></math>'
    assert _latex(pmatrix) == "A = \\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\end{pmatrix}"
    assert _latex(bare) == "\\begin{matrix} a & b \\end{matrix}"
    assert _latex(cases) == (
        "\\begin{cases} 1 & \\text{if }x > 0 \\\\ 0 & \\text{otherwise} \\end{cases}")
    assert _latex(binom) == "\\binom{n}{k}"


def test_mathml_accents_fences_and_styles():
    assert _latex('<math><mover><mi>x</mi><mo>^</mo></mover><mo>,</mo><mover accent="true"><mi>v</mi><mo>→</mo>'
                  '</mover><mo>,</mo><mover><mrow><mi>A</mi><mi>B</mi></mrow><mo>¯</mo></mover></math>') == (
        "\\hat{x},\\vec{v},\\overline{AB}")
    assert _latex('<math><mfenced><mi>a</mi><mi>b</mi></mfenced></math>') == "(a,b)"
    assert _latex('<math><mfenced open="[" close="]" separators=";"><mi>a</mi><mi>b</mi></mfenced></math>') == (
        "[a;b]")
    assert _latex('<math><mi mathvariant="bold">v</mi><mo>∈</mo><mi>ℝ</mi><mo>,</mo><mi>𝒜</mi><mo>,</mo>'
                  '<mi mathvariant="normal">d</mi><mi>x</mi></math>') == (
        "\\mathbf{v} \\in \\mathbb{R},\\mathcal{A},\\mathrm{d}x")
    assert _latex('<math><mi>softmax</mi><mo>(</mo><mi>z</mi><mo>)</mo></math>') == "\\mathrm{softmax}(z)"
    assert _latex('<math><munder><mo>argmax</mo><mi>θ</mi></munder><mi>L</mi></math>') == (
        "\\operatorname*{argmax}_{\\theta} L")


def test_mathml_underbrace_enclose_multiscripts_space_and_unknown():
    assert _latex('<math><munder><munder><mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow><mo>⏟</mo></munder><mi>n</mi>'
                  '</munder></math>') == "\\underbrace{a + b}_{n}"
    assert _latex('<math><menclose notation="box"><mi>x</mi></menclose></math>') == "\\boxed{x}"
    assert _latex('<math><mmultiscripts><mi>F</mi><mi>i</mi><none/><mprescripts/><mn>2</mn><none/></mmultiscripts>'
                  '</math>') == "{}_{2}F_{i}"
    assert _latex('<math><mi>a</mi><mspace width="1em"/><mi>b</mi></math>') == "a\\quad b"
    assert _latex('<math><mi>x</mi><mo>′</mo></math>') == "x'"
    assert _latex('<math><msup><mi>f</mi><mo>′</mo></msup></math>') == "f'"
    assert _latex('<math><mglyph alt="@"/><mlongdiv><mn>7</mn></mlongdiv></math>') == "@7"


def test_mathml_semantics_annotation_wins():
    html = (
        '<math><semantics><mrow><mi>wrong</mi></mrow><annotation encoding="application/x-tex">'
        '\\mathcal{O}(n)</annotation>'
        '</semantics></math>'
    )
    assert _formulas(html) == ["$\\mathcal{O}(n)$"]
    assert _latex(html) == "\\mathcal{O}(n)"


def test_mathml_alttext_when_nothing_converts():
    assert _formulas('<math alttext="\\emptyset"></math>') == ["$\\emptyset$"]


# --- Wikipedia -------------------------------------------------------------------------------------------

WIKIPEDIA = (
    '<p>The area is <span class="mwe-math-element"><span class="mwe-math-mathml-inline mwe-math-mathml-a11y" '
    'style="display: none;"><math xmlns="http://www.w3.org/1998/Math/MathML" alttext="{\\displaystyle \\pi r^{2}}">'
    '<semantics><mrow class="MJX-TeXAtom-ORD"><mstyle displaystyle="true" scriptlevel="0"><mi>π<!-- π --></mi>'
    '<msup><mi>r</mi><mrow class="MJX-TeXAtom-ORD"><mn>2</mn></mrow></msup></mstyle></mrow>'
    '<annotation encoding="application/x-tex">{\\displaystyle \\pi r^{2}}</annotation></semantics></math></span>'
    '<img src="https://wikimedia.org/api/rest_v1/media/math/render/svg/1f9ea" class="mwe-math-fallback-image-inline '
    'mw-invert skin-invert" aria-hidden="true" style="vertical-align: -0.338ex; width:4.34ex; height:2.676ex;" '
    'alt="{\\displaystyle \\pi r^{2}}"></span>.</p>'
)


def test_wikipedia_math_element_once_without_displaystyle_wrapper():
    assert _formulas(WIKIPEDIA) == ["$\\pi r^{2}$"]
    assert _formulas_at(WIKIPEDIA) == ["$\\pi r^{2}$"]
    img = _body(WIKIPEDIA).find(".//img")
    assert is_math_rendering(img)


def test_wikipedia_fallback_image_alone_is_the_source():
    html = (
        '<dl><dd><img src="https://wikimedia.org/api/rest_v1/media/math/render/svg/5a8" '
        'class="mwe-math-fallback-image-display mw-invert skin-invert" aria-hidden="true" '
        'alt="{\\displaystyle \\int _{a}^{b}f(x)\\,dx}"></dd></dl>'
    )
    assert _formulas(html) == ["$$\\int _{a}^{b}f(x)\\,dx$$"]


# --- Sphinx, pandoc, arithmatex, image renderers --------------------------------------------------------

def test_sphinx_imgmath_inline_and_display():
    html = (
        '<p>where <img class="math" src="../_images/math/6b2f.png" alt="\\alpha_i" style="vertical-align: -3px"/> is'
        ' the weight.</p>\n<div class="math">\n<p><img src="../_images/math/9a1c.png" alt="\\sum_i \\alpha_i = 1"/></p>'
        '\n</div>'
    )
    assert _formulas(html) == ["$\\alpha_i$", "$$\\sum_i \\alpha_i = 1$$"]


def test_sphinx_mathjax_span_and_numbered_display():
    html = (
        '<p>with <span class="math notranslate nohighlight">\\(a^2 + b^2\\)</span> given</p>\n'
        '<div class="math notranslate nohighlight" id="equation-pythagoras">\n<span class="eqno">(1)'
        '<a class="headerlink" href="#equation-pythagoras" title="Link to this equation">¶</a></span>'
        '\\[c = \\sqrt{a^2 + b^2}\\]</div>'
    )
    assert _formulas(html) == ["$a^2 + b^2$", "$$c = \\sqrt{a^2 + b^2}$$"]


def test_pandoc_arithmatex_and_undelimited_math_class():
    html = (
        '<p><span class="math inline">\\(x\\)</span> and <span class="math display">\\[\\begin{aligned}\n'
        'a &amp;= b\\\\\n\nc &amp;= d\n\\end{aligned}\\]</span></p>'
        '<p><span class="arithmatex">\\(y_1\\)</span></p><div class="arithmatex">\\[\nE = mc^2\n\\]</div>'
        '<p><span class="math inline"><em>x</em><sup>2</sup></span></p>'
    )
    assert _formulas(html) == [
        "$x$", "$$\\begin{aligned}\na &= b\\\\\nc &= d\n\\end{aligned}$$", "$y_1$", "$$E = mc^2$$",
    ]


def test_latex_rendering_images():
    html = (
        '<p><img src="https://s0.wp.com/latex.php?latex=x%5E2&amp;bg=ffffff&amp;fg=000000&amp;s=0" alt="x^2" '
        'title="x^2" class="latex"></p>'
        '<p><img src="https://latex.codecogs.com/svg.image?\\frac{a}{b}" alt="\\frac{a}{b}"></p>'
        '<p><img src="//latex.artofproblemsolving.com/a/b/c.png" class="latexcenter" alt="$$\\int f$$"></p>'
        '<p><img src="/photo.jpg" alt="A photo of a cat"></p>'
    )
    assert _formulas(html) == ["$x^2$", "$\\frac{a}{b}$", "$$\\int f$$"]


# --- Markdown --------------------------------------------------------------------------------------------

def test_math_markdown():
    assert math_markdown("  x^2 ", False) == "$x^2$"
    assert math_markdown("a +\n  b", False) == "$a + b$"
    assert math_markdown("a % note\n+ b", False) == "$a + b$"
    assert math_markdown("\\begin{aligned}\na &= b\n\n\\end{aligned}\n", True) == (
        "$$\\begin{aligned}\na &= b\n\\end{aligned}$$")
    assert math_markdown("", True) == ""


def test_not_math():
    body = _body(
        '<p class="mathematics-intro">Text</p><span class="context">x</span><img src="/cat.jpg" alt="$5 off">'
        '<script type="text/javascript">var x = 1;</script><div class="math-teacher">Ms. Smith</div>'
    )
    assert [math_source(el) for el in body.iter() if el is not body] == [None] * 5
    assert [is_math_rendering(el) for el in body.iter()] == [False] * 6
