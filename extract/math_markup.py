"""Math of the DOM as LaTeX: where each kind of page keeps its source, and its Markdown.

Which sources are kept follows OpenWebMath (Paster et al. 2023, "OpenWebMath: An Open Dataset of High-Quality
Mathematical Web Text", §3 and Appendix B): the LaTeX a page carries is kept as LaTeX, whatever renders it, from
MathJax's ``<script type="math/tex">``, KaTeX's TeX annotation, MathML (converted to LaTeX when it carries no TeX
annotation) and the alt text of images that render LaTeX; the visual rendering beside a source is dropped,
so each formula appears once; inline math is written ``$...$`` and display math ``$$...$$``.

``math_source(el)`` knows these markups (the element a top-down walk meets first is the one it answers for):

- MathJax v2 (docs.mathjax.org/en/v2.7-latest/advanced/model.html): the source is
  ``<script type="math/tex">`` (``; mode=display`` for display math; ``math/mml`` holds MathML); the
  rendering is a ``span.MathJax_Preview`` before it and a frame after the preview (``span.MathJax``,
  ``span.MathJax_CHTML``/``mjx-chtml``, ``span.MathJax_SVG``, inside ``div.MathJax_Display`` /
  ``div.MathJax_SVG_Display`` / ``div.MJXc-display`` for display math) with an assistive ``span.MJX_Assistive_MathML``.
  A frame whose script is missing (a saved DOM without scripts) is the source itself: its ``data-mathml``
  attribute or its assistive MathML.
- MathJax v3/v4 (docs.mathjax.org/en/latest/output/): ``<mjx-container>`` (``display="true"`` for display math)
  with the rendering in ``<mjx-math>``/``<svg>`` and the source as MathML in ``<mjx-assistive-mml>``; a
  ``data-latex`` attribute (v4) wins; an ``aria-label`` is used only when it looks like TeX, since v4 puts its
  speech text ("x squared") there.
- KaTeX (katex.org/docs/options: ``output: "htmlAndMathml"``, the default): ``span.katex`` holds
  ``span.katex-mathml`` (MathML whose ``<annotation encoding="application/x-tex">`` is the source) and
  ``span.katex-html`` (the rendering); ``span.katex-display`` around it means display math.
- MathML ``<math>`` (``display="block"`` for display math): its TeX annotation, else the conversion of its
  presentation markup (``mathml_to_latex``), else its ``alttext``.
- Wikipedia: ``span.mwe-math-element`` holds a ``<math>`` with a TeX annotation (``alttext`` too) and an
  ``img.mwe-math-fallback-image-inline``/``-display`` whose ``alt`` is the same TeX; MediaWiki wraps it in
  ``{\\displaystyle ...}``/``{\\textstyle ...}``, which goes (math mode is known from the markup).
- Images that render LaTeX: Sphinx imgmath (``img.math``; a display formula is an unclassed ``<img>`` in
  ``div.math > p``), ``img.latex``/``img.tex`` (WordPress' ``latex.php``), and images served by a LaTeX
  renderer (``latex.codecogs.com``, ``s0.wp.com/latex.php``, ``latex.artofproblemsolving.com``,
  ``i.upmath.me``, Google Charts ``cht=tx``); their ``alt`` is the source, without ``$``/``\\(``/``\\[``
  delimiters. An alt beginning ``{\\displaystyle`` says math on its own.
- TeX in text with its delimiters, in an element that says it holds math: Sphinx's MathJax output
  (``span.math`` with ``\\(...\\)``, ``div.math`` with ``\\[...\\]`` and an equation number in ``span.eqno``,
  which is not math), pandoc's ``span.math.inline``/``.display``, pymdownx.arithmatex (``.arithmatex``),
  ``.tex2jax_process``. Delimiters decide display: ``\\(``/``$`` inline, ``\\[``/``$$``/a bare
  ``\\begin{...}`` display. Without delimiters (pandoc's plain-HTML fallback) it is not source, and None.

``is_math_rendering(el)`` says an element is only a rendering whose source the caller meets elsewhere (skip
it): MathJax v2 previews and frames with their script beside them, ``mjx-assistive-mml``/``mjx-math`` in a
container, KaTeX's ``katex-html`` beside its ``katex-mathml``, Wikipedia's fallback image beside its MathML.
``math_at(el)`` answers both in one call with one read of the class (a walk's per-element cost):
``(latex, display)``, ``RENDERING`` for a rendering, or None. Both look at the tag first (``SOURCE_TAGS``,
``RENDERING_TAGS``), then at most one class attribute with a few substring scans.

``mathml_to_latex`` (extract/mathml.py) converts MathML without a TeX annotation.

``math_markdown`` writes ``$...$`` (whitespace collapsed to one line: a line break inside inline math would
end the paragraph's math for most Markdown math parsers) or ``$$...$$`` (blank lines removed: a blank line is
an error in TeX math mode and ends a Markdown paragraph).
"""

from __future__ import annotations

import re

import lxml.html
from lxml import etree

from extract.mathml import annotation_tex, clean_tex, local_name, mathml_to_latex

# the only tags math_source / is_math_rendering can answer for (besides a prefixed "x:math"): a walk that
# already holds an element's tag can skip the call for every other element with one set lookup
SOURCE_TAGS = frozenset({"span", "div", "p", "script", "img", "mjx-container", "math"})
RENDERING_TAGS = frozenset({"span", "div", "img", "mjx-assistive-mml", "mjx-math"})

_V2_FRAMES = frozenset({"MathJax", "MathJax_CHTML", "mjx-chtml", "MathJax_SVG", "MathJax_MathML", "MathJax_PHTML",
                        "MathJax_HTML-CSS"})
_V2_DISPLAYS = frozenset({"MathJax_Display", "MathJax_SVG_Display", "MJXc-display", "MathJax_MathML_Display"})
_V2_ALWAYS = frozenset({"MathJax_Preview", "MJX_Assistive_MathML"})
_MATH_TEXT_CLASSES = frozenset({"math", "arithmatex", "tex2jax_process"})
_MATH_IMG_CLASSES = frozenset({"math", "latex", "tex", "mathtex", "mwe-math-fallback-image-inline",
                               "mwe-math-fallback-image-display", "wp-latex", "latexcenter"})
# image URLs of LaTeX renderers (CodeCogs, WordPress.com, Art of Problem Solving, Upmath, Google Charts)
_RENDERER = re.compile(r"latex\.codecogs\.com|codecogs\.com/(?:png|gif|svg)\.latex|/latex\.php\?|"
                       r"latex\.artofproblemsolving\.com|upmath\.me/|cht=tx")

_CDATA = re.compile(r"^\s*%?\s*<!\[CDATA\[(.*?)%?\s*\]\]>\s*$", re.DOTALL)
# longest first: "$$" before "$"
_DELIMITERS = (("$$", "$$", True), ("\\[", "\\]", True), ("\\(", "\\)", False), ("$", "$", False))
_TEXISH = re.compile(r"[\\^_{}]")
_COMMENT = re.compile(r"(?<!\\)%.*$", re.MULTILINE)



def _math_hint(cls: str) -> bool:
    """A superset of the classes math_source / is_math_rendering answer for (math, MathJax, katex, MJX, mjx):
    most elements fail these few C-level substring scans, faster than one regex."""
    return "ath" in cls or "tex" in cls or "MJX" in cls or "mjx" in cls


def _classes(el: etree._Element) -> list[str]:
    cls = el.get("class")
    return cls.split() if cls else []


# --- where the source is ---------------------------------------------------------------------------------
def _script_source(script: etree._Element) -> tuple[str, bool] | None:
    kind = (script.get("type") or "").lower()
    if not kind.startswith("math/"):
        return None
    text = script.text or ""
    display = "mode=display" in kind
    if kind.startswith("math/tex"):
        match = _CDATA.match(text)  # XHTML pages wrap it: % <![CDATA[ ... %]]>
        tex = clean_tex(match.group(1) if match else text)
        return (tex, display) if tex else None
    if kind.startswith("math/mml"):
        try:
            math = lxml.html.fragment_fromstring(text.strip())
        except (etree.ParserError, ValueError):
            return None
        if local_name(math.tag) != "math":
            return None
        tex = _math_tex(math)
        return (tex, display or math.get("display") == "block") if tex else None
    return None  # AsciiMath is not LaTeX


def _v2_script(frame: etree._Element) -> etree._Element | None:
    """The MathJax v2 source script after a preview/frame/display wrapper, if the page has it."""
    node = frame
    parent = frame.getparent()
    if parent is not None and not _V2_DISPLAYS.isdisjoint(_classes(parent)):
        node = parent  # display math: the frame sits in a div; the script follows the div
    for _ in range(3):
        node = node.getnext()
        if node is None:
            return None
        if node.tag == "script":
            return node if _script_source(node) else None
        classes = _classes(node)
        if _V2_FRAMES.isdisjoint(classes) and _V2_DISPLAYS.isdisjoint(classes) and "MathJax_Preview" not in classes:
            return None
    return None


def _annotation(math: etree._Element) -> str | None:
    """The TeX annotation of a ``<math>``'s top-level ``<semantics>`` (possibly inside one mrow/mstyle)."""
    node = math
    for _ in range(4):
        children = [c for c in node if isinstance(c.tag, str)]
        if len(children) != 1:
            return None
        node = children[0]
        local = local_name(node.tag)
        if local == "semantics":
            return annotation_tex(node)
        if local not in ("mrow", "mstyle"):
            return None
    return None


def _math_tex(math: etree._Element) -> str | None:
    """LaTeX of a ``<math>``: its TeX annotation, ``data-latex``, its conversion, or its ``alttext``."""
    tex = _annotation(math) or clean_tex(math.get("data-latex"))
    if tex:
        return tex
    return clean_tex(mathml_to_latex(math)) or clean_tex(math.get("alttext"))


def _is_display_math(math: etree._Element) -> bool:
    return math.get("display") == "block" or math.get("mode") == "display"


def _find_math(el: etree._Element) -> etree._Element | None:
    for node in el.iter():
        if local_name(node.tag) == "math":
            return node
    return None


def _v2_frame_source(frame: etree._Element, display: bool) -> tuple[str, bool] | None:
    data = frame.get("data-mathml")
    math = None
    if data:
        try:
            math = lxml.html.fragment_fromstring(data)
        except (etree.ParserError, ValueError):
            math = None
    if math is None or local_name(math.tag) != "math":
        math = _find_math(frame)
    if math is None:
        return None
    tex = _math_tex(math)
    return (tex, display or _is_display_math(math)) if tex else None


def _img_source(img: etree._Element, cls: str | None) -> tuple[str, bool] | None:
    alt = img.get("alt")
    if not alt:
        return None
    alt = alt.strip()
    classes = cls.split() if cls else []
    sphinx_display = False
    if (_MATH_IMG_CLASSES.isdisjoint(classes) and not alt.startswith(("{\\displaystyle", "{\\textstyle"))
            and not _renderer_src(img.get("src"))):
        # Sphinx imgmath display math: <div class="math"><p><img src alt></p></div>
        parent = img.getparent()
        grand = parent.getparent() if parent is not None and parent.tag == "p" else None
        if grand is None or grand.tag != "div" or "math" not in _classes(grand):
            return None
        sphinx_display = True
    display = sphinx_display or any(c.endswith("-display") or c == "latexcenter" for c in classes)
    for opening, closing, is_display in _DELIMITERS:
        if len(alt) > len(opening) + len(closing) and alt.startswith(opening) and alt.endswith(closing):
            alt = alt[len(opening):-len(closing)]
            display = display or is_display
            break
    tex = clean_tex(alt)
    return (tex, display) if tex else None


def _renderer_src(src: str | None) -> bool:
    # the substring tests first: most image URLs have neither and skip the regex
    return bool(src) and ("latex" in src or "cht=tx" in src or "upmath" in src) and _RENDERER.search(src) is not None


def _delimited(text: str) -> tuple[str, bool] | None:
    """TeX with its delimiters (Sphinx, pandoc, arithmatex): the inside and whether it is display math."""
    text = text.strip()
    for opening, closing, display in _DELIMITERS:
        if len(text) > len(opening) + len(closing) and text.startswith(opening) and text.endswith(closing):
            tex = clean_tex(text[len(opening):-len(closing)])
            return (tex, display) if tex else None
    if text.startswith("\\begin{") and text.endswith("}") and "\\end{" in text:
        return text, True
    return None


def _text_math_source(el: etree._Element) -> tuple[str, bool] | None:
    parts = [el.text or ""]
    for child in el:
        if isinstance(child.tag, str) and "eqno" not in _classes(child):  # Sphinx's equation number
            if child.tag == "img":
                continue
            parts.append("".join(child.itertext()))
        parts.append(child.tail or "")
    found = _delimited("".join(parts))
    if found:
        return found
    img = el.find(".//img")  # Sphinx imgmath: <div class="math"><p><img alt="..."></p></div>
    if img is not None and img.get("alt"):
        tex = clean_tex(img.get("alt"))
        return (tex, el.tag == "div") if tex else None
    return None


def math_source(el: etree._Element) -> tuple[str, bool] | None:
    """``(latex, display)`` of the formula ``el`` is (see the module docstring); None when ``el`` is not math."""
    tag = el.tag
    if tag not in SOURCE_TAGS:
        if tag.__class__ is str and tag.endswith(":math"):  # a namespace prefix kept by the HTML parser (m:math)
            tex = _math_tex(el)
            return (tex, _is_display_math(el)) if tex else None
        return None
    if tag == "script":
        return _script_source(el)
    if tag == "img":
        return _img_source(el, el.get("class"))
    if tag == "mjx-container":
        return _mjx_source(el)
    if tag == "math":
        tex = _math_tex(el)
        return (tex, _is_display_math(el)) if tex else None
    cls = el.get("class")  # span, div, p
    if not cls or not _math_hint(cls):
        return None
    return _classed_source(el, cls.split())


def _classed_source(el: etree._Element, classes: list[str]) -> tuple[str, bool] | None:
    """math_source of a span/div/p with these classes."""
    if "katex-display" in classes:
        inner = next((n for n in el.iter("span") if "katex" in _classes(n)), None)
        found = math_source(inner) if inner is not None else None
        return (found[0], True) if found else None
    if "katex" in classes or "katex-mathml" in classes:
        math = _find_math(el)
        if math is None:
            return None
        tex = _math_tex(math)
        parent = el.getparent()
        display = _is_display_math(math) or (parent is not None and "katex-display" in _classes(parent))
        return (tex, display) if tex else None
    if "mwe-math-element" in classes:
        math = _find_math(el)
        if math is not None:
            tex = _math_tex(math)
            if tex:
                return tex, _is_display_math(math)
        img = el.find(".//img")
        return _img_source(img, img.get("class")) if img is not None else None
    if not _V2_FRAMES.isdisjoint(classes):
        if _v2_script(el) is not None:
            return None  # a rendering: the script is the source
        parent = el.getparent()
        return _v2_frame_source(el, parent is not None and not _V2_DISPLAYS.isdisjoint(_classes(parent)))
    if not _V2_DISPLAYS.isdisjoint(classes):
        for child in el:
            if not _V2_FRAMES.isdisjoint(_classes(child)):
                return None if _v2_script(child) is not None else _v2_frame_source(child, True)
        return None
    if not _MATH_TEXT_CLASSES.isdisjoint(classes):
        return _text_math_source(el)
    return None


def _mjx_source(container: etree._Element) -> tuple[str, bool] | None:
    display = container.get("display") in ("true", "block")
    tex = clean_tex(container.get("data-latex"))
    if not tex:
        math = _find_math(container)
        if math is not None:
            display = display or _is_display_math(math)
            tex = _math_tex(math)
    if not tex:
        label = (container.get("aria-label") or "").strip()
        if label and _TEXISH.search(label):  # v4's speech text is words; TeX has \ ^ _ { }
            tex = clean_tex(label)
    return (tex, display) if tex else None


def is_math_rendering(el: etree._Element) -> bool:
    """Whether ``el`` is only a visual rendering of math whose source the caller meets elsewhere (skip it)."""
    tag = el.tag
    if tag not in RENDERING_TAGS:
        return False
    if tag == "img":
        return _img_rendering(el, el.get("class"))
    if tag == "mjx-assistive-mml" or tag == "mjx-math":
        parent = el.getparent()
        return parent is not None and parent.tag == "mjx-container"
    cls = el.get("class")  # span, div
    return bool(cls) and _math_hint(cls) and _classed_rendering(el, cls.split())


def _img_rendering(img: etree._Element, cls: str | None) -> bool:
    if not cls or "mwe-math-fallback-image" not in cls:
        return False
    parent = img.getparent()  # Wikipedia: <span class="mwe-math-element"> holds the MathML and this image
    return parent is not None and "mwe-math-element" in _classes(parent) and _find_math(parent) is not None


def _classed_rendering(el: etree._Element, classes: list[str]) -> bool:
    """is_math_rendering of a span/div with these classes."""
    if not _V2_ALWAYS.isdisjoint(classes):
        return True
    if not _V2_FRAMES.isdisjoint(classes):
        return _v2_script(el) is not None
    if not _V2_DISPLAYS.isdisjoint(classes):
        return any(not _V2_FRAMES.isdisjoint(_classes(c)) and _v2_script(c) is not None for c in el)
    if "katex-html" in classes:
        parent = el.getparent()
        return parent is not None and any("katex-mathml" in _classes(c) for c in parent)
    return False


RENDERING = ("", False)  # math_at's answer for a rendering: nothing to write, subtree to skip


def math_at(el: etree._Element) -> tuple[str, bool] | None:
    """``math_source`` and ``is_math_rendering`` in one call (one class read) for a walk: ``(latex, display)``
    for a formula, ``RENDERING`` (``("", False)``) for a rendering whose source is elsewhere (``math_markdown``
    gives '' for it: write nothing, skip the subtree either way), None for anything else."""
    tag = el.tag
    if tag == "div" or tag == "span" or tag == "p":
        cls = el.get("class")
        # _math_hint inlined: this line runs for most elements of a page
        if not cls or not ("ath" in cls or "tex" in cls or "MJX" in cls or "mjx" in cls):
            return None
        classes = cls.split()
        if tag != "p" and _classed_rendering(el, classes):
            return RENDERING
        return _classed_source(el, classes)
    if tag == "img":
        cls = el.get("class")
        return RENDERING if _img_rendering(el, cls) else _img_source(el, cls)
    if tag == "mjx-assistive-mml" or tag == "mjx-math":
        return RENDERING if is_math_rendering(el) else None
    return math_source(el)


def math_markdown(latex: str, display: bool) -> str:
    """``$latex$`` (inline, on one line) or ``$$latex$$`` (display), trimmed; '' for no LaTeX."""
    latex = latex.strip()
    if not latex:
        return ""
    if display:
        if "\n" in latex:
            latex = "\n".join(line for line in latex.split("\n") if line.strip())
        return f"$${latex}$$"
    if "\n" in latex or "\t" in latex or "\r" in latex:
        if "%" in latex:  # joining lines would comment out what follows a TeX comment
            latex = _COMMENT.sub("", latex)
        latex = " ".join(latex.split())
    return f"${latex}$"
