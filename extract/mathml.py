"""MathML presentation markup to LaTeX, for formulas a page carries only as MathML (extract/math_markup.py).

OpenWebMath (Paster et al. 2023, Appendix B) keeps such formulas as LaTeX too; this converter is winnow's own.

``mathml_to_latex`` converts MathML 3 presentation markup (w3.org/TR/MathML3/chapter3): token elements map
characters to LaTeX commands (Greek letters, operators, relations, arrows, big operators, Unicode mathematical
alphanumerics to ``\\mathbf``/``\\mathbb``/...); multi-letter identifiers are upright (MathML's default
``mathvariant="normal"``), as ``\\sin`` for TeX's named operators or ``\\mathrm{...}``; scripts are braced;
``munder``/``mover`` on big operators and ``lim``-like names are limits, with an accent character they are
accents (``\\hat``, ``\\bar``, ``\\vec``, ``\\overbrace``...), otherwise ``\\underset``/``\\overset``; a table
is a ``matrix`` (``pmatrix``/``bmatrix``/``vmatrix``/``Bmatrix``/``cases`` by the fences around it, ``aligned``
when its ``columnalign`` alternates right/left); unknown elements give their text.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from lxml import etree

# --- MathML token characters to LaTeX --------------------------------------------------------------------
_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "varepsilon", "ϵ": "epsilon", "ζ": "zeta",
    "η": "eta", "θ": "theta", "ϑ": "vartheta", "ι": "iota", "κ": "kappa", "ϰ": "varkappa", "λ": "lambda",
    "μ": "mu", "ν": "nu", "ξ": "xi", "ο": "o", "π": "pi", "ϖ": "varpi", "ρ": "rho", "ϱ": "varrho", "σ": "sigma",
    "ς": "varsigma", "τ": "tau", "υ": "upsilon", "φ": "varphi", "ϕ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega",
    "Γ": "Gamma", "Δ": "Delta", "Θ": "Theta", "Λ": "Lambda", "Ξ": "Xi", "Π": "Pi", "Σ": "Sigma", "Υ": "Upsilon",
    "Φ": "Phi", "Ψ": "Psi", "Ω": "Omega", "ϝ": "digamma",
}
_SYMBOLS = {
    "∑": r"\sum", "∏": r"\prod", "∐": r"\coprod", "∫": r"\int", "∬": r"\iint", "∭": r"\iiint", "∮": r"\oint",
    "⋃": r"\bigcup", "⋂": r"\bigcap", "⨁": r"\bigoplus", "⨂": r"\bigotimes", "⨀": r"\bigodot", "⋁": r"\bigvee",
    "⋀": r"\bigwedge", "⨄": r"\biguplus", "⨆": r"\bigsqcup",
    "≤": r"\leq", "≥": r"\geq", "≦": r"\leqq", "≧": r"\geqq", "⩽": r"\leqslant", "⩾": r"\geqslant", "≠": r"\neq",
    "≈": r"\approx", "≡": r"\equiv", "∼": r"\sim", "≃": r"\simeq", "≅": r"\cong", "∝": r"\propto", "≪": r"\ll",
    "≫": r"\gg", "≺": r"\prec", "≻": r"\succ", "⪯": r"\preceq", "⪰": r"\succeq", "≲": r"\lesssim",
    "≳": r"\gtrsim", "≍": r"\asymp", "≐": r"\doteq", "≜": r"\triangleq", "≔": ":=",
    "±": r"\pm", "∓": r"\mp", "×": r"\times", "÷": r"\div", "·": r"\cdot", "⋅": r"\cdot", "∘": r"\circ",
    "∙": r"\bullet", "⊕": r"\oplus", "⊖": r"\ominus", "⊗": r"\otimes", "⊙": r"\odot", "∗": r"\ast", "⋆": r"\star",
    "†": r"\dagger", "‡": r"\ddagger", "∧": r"\wedge", "∨": r"\vee", "¬": r"\neg", "∩": r"\cap", "∪": r"\cup",
    "⊓": r"\sqcap", "⊔": r"\sqcup", "∖": r"\setminus", "⊂": r"\subset", "⊃": r"\supset", "⊆": r"\subseteq",
    "⊇": r"\supseteq", "⊊": r"\subsetneq", "⊋": r"\supsetneq", "⊈": r"\nsubseteq", "∈": r"\in", "∉": r"\notin",
    "∋": r"\ni", "∅": r"\emptyset", "∀": r"\forall", "∃": r"\exists", "∄": r"\nexists", "∂": r"\partial",
    "∇": r"\nabla", "∞": r"\infty", "ℵ": r"\aleph", "ℏ": r"\hbar", "ℓ": r"\ell", "℘": r"\wp", "ℜ": r"\Re",
    "ℑ": r"\Im", "∠": r"\angle", "∡": r"\measuredangle", "⊥": r"\perp", "⊤": r"\top", "∥": r"\parallel",
    "∣": r"\mid", "∤": r"\nmid", "⊢": r"\vdash", "⊨": r"\models", "∴": r"\therefore", "∵": r"\because",
    "→": r"\to", "←": r"\leftarrow", "↔": r"\leftrightarrow", "⇒": r"\Rightarrow", "⇐": r"\Leftarrow",
    "⇔": r"\Leftrightarrow", "↦": r"\mapsto", "↑": r"\uparrow", "↓": r"\downarrow", "⟶": r"\longrightarrow",
    "⟵": r"\longleftarrow", "⟷": r"\longleftrightarrow", "⟹": r"\Longrightarrow", "⟸": r"\Longleftarrow",
    "⟺": r"\iff", "↪": r"\hookrightarrow", "⇝": r"\rightsquigarrow", "⇀": r"\rightharpoonup",
    "…": r"\ldots", "⋯": r"\cdots", "⋮": r"\vdots", "⋱": r"\ddots", "⟨": r"\langle", "⟩": r"\rangle",
    "〈": r"\langle", "〉": r"\rangle", "⌈": r"\lceil", "⌉": r"\rceil", "⌊": r"\lfloor", "⌋": r"\rfloor",
    "‖": r"\|", "∎": r"\blacksquare", "□": r"\square", "△": r"\triangle", "▽": r"\triangledown", "⊲": r"\lhd",
    "⊳": r"\rhd", "√": r"\surd", "°": r"^{\circ}", "′": "'", "″": "''", "‴": "'''", "−": "-", "∕": "/",
    "{": r"\{", "}": r"\}", "#": r"\#", "%": r"\%", "&": r"\&", "$": r"\$", "_": r"\_", "\\": r"\backslash",
    "~": r"\sim", "^": r"\wedge", "\u00a0": " ",
}
_INVISIBLE = frozenset("\u2061\u2062\u2063\u2064\u200b\u200c\u200d\ufeff")
_FUNCTIONS = frozenset({
    "sin", "cos", "tan", "cot", "sec", "csc", "sinh", "cosh", "tanh", "coth", "arcsin", "arccos", "arctan", "log",
    "ln", "lg", "exp", "lim", "liminf", "limsup", "max", "min", "sup", "inf", "det", "dim", "ker", "deg", "gcd",
    "hom", "arg", "Pr",
})
# bases whose under/over scripts are limits (TeX puts them below/above in display style itself)
_LIMIT_BASES = frozenset({
    r"\sum", r"\prod", r"\coprod", r"\int", r"\iint", r"\iiint", r"\oint", r"\bigcup", r"\bigcap", r"\bigoplus",
    r"\bigotimes", r"\bigodot", r"\bigvee", r"\bigwedge", r"\biguplus", r"\bigsqcup", r"\lim", r"\liminf",
    r"\limsup", r"\max", r"\min", r"\sup", r"\inf", r"\det", r"\Pr", r"\gcd", r"\arg",
})
# written with a space on each side in a row (relations, binary operators, arrows)
_SPACED_OPS = frozenset({
    "=", "<", ">", "+", "-", ":=", r"\pm", r"\mp", r"\times", r"\cdot", r"\div", r"\circ", r"\bullet", r"\oplus",
    r"\ominus", r"\otimes", r"\odot", r"\ast", r"\star", r"\wedge", r"\vee", r"\cap", r"\cup", r"\sqcap",
    r"\sqcup", r"\setminus", r"\leq", r"\geq", r"\leqq", r"\geqq", r"\leqslant", r"\geqslant", r"\neq", r"\approx",
    r"\equiv", r"\sim", r"\simeq", r"\cong", r"\propto", r"\ll", r"\gg", r"\prec", r"\succ", r"\preceq",
    r"\succeq", r"\lesssim", r"\gtrsim", r"\asymp", r"\doteq", r"\triangleq", r"\subset", r"\supset",
    r"\subseteq", r"\supseteq", r"\subsetneq", r"\supsetneq", r"\nsubseteq", r"\in", r"\notin", r"\ni",
    r"\perp", r"\parallel", r"\mid", r"\nmid", r"\vdash", r"\models", r"\to", r"\leftarrow",
    r"\leftrightarrow", r"\Rightarrow", r"\Leftarrow", r"\Leftrightarrow", r"\mapsto", r"\longrightarrow",
    r"\longleftarrow", r"\longleftrightarrow", r"\Longrightarrow", r"\Longleftarrow", r"\iff", r"\hookrightarrow",
    r"\rightsquigarrow", r"\therefore", r"\because",
})
_SIGNS = frozenset({"+", "-", r"\pm", r"\mp"})
_OPENERS = frozenset({"(", "[", r"\{", r"\langle", r"\lceil", r"\lfloor", "|", r"\|", ","})
_OVER_ACCENTS = {
    "^": "hat", "ˆ": "hat", "\u0302": "hat", "~": "tilde", "˜": "tilde", "\u0303": "tilde", "¯": "bar",
    "‾": "bar", "\u0304": "bar", "\u0305": "bar", "_": "bar", "→": "vec", "\u20d7": "vec", "⇀": "vec", "˙": "dot",
    "\u0307": "dot", "¨": "ddot", "\u0308": "ddot", "\u20db": "dddot", "ˇ": "check", "\u030c": "check",
    "˘": "breve", "\u0306": "breve", "´": "acute", "\u0301": "acute", "`": "grave", "\u0300": "grave",
    "⏞": "overbrace", "︷": "overbrace", "←": "overleftarrow", "↔": "overleftrightarrow",
}
# a big operator, or a named operator with limits: the operand after it is set off by a space
_BIG_OPERATOR = re.compile(r"\\(?:sum|prod|coprod|i{1,3}nt|oint|big(?:cup|cap|oplus|otimes|odot|vee|wedge|uplus|"
                           r"sqcup))(?![A-Za-z])|\\(?:lim|liminf|limsup|max|min|sup|inf|det|Pr|gcd|arg|"
                           r"operatorname\*\{[^{}]*\})[_^]")
_WIDE_ACCENTS = {"hat": "widehat", "tilde": "widetilde", "bar": "overline", "vec": "overrightarrow"}
_UNDER_ACCENTS = {"_": "underline", "\u0332": "underline", "¯": "underline", "‾": "underline", "⏟": "underbrace",
                  "︸": "underbrace"}
_VARIANTS = {
    "bold": "mathbf", "double-struck": "mathbb", "script": "mathcal", "bold-script": "mathcal", "fraktur": "mathfrak",
    "bold-fraktur": "mathfrak", "sans-serif": "mathsf", "monospace": "mathtt", "bold-italic": "boldsymbol",
    "italic": "mathit",
}
_ALPHANUMERIC = re.compile(
    r"^(?:MATHEMATICAL )?(BOLD ITALIC|BOLD SCRIPT|BOLD FRAKTUR|BOLD|ITALIC|DOUBLE-STRUCK ITALIC|DOUBLE-STRUCK|"
    r"SCRIPT|FRAKTUR|BLACK-LETTER|SANS-SERIF BOLD ITALIC|SANS-SERIF BOLD|SANS-SERIF ITALIC|SANS-SERIF|MONOSPACE) "
    r"(CAPITAL|SMALL|DIGIT) ([A-Z]+)(?: SYMBOL)?$")
_STYLE_COMMANDS = {"BOLD": "mathbf", "BOLD ITALIC": "boldsymbol", "BOLD SCRIPT": "mathcal", "BOLD FRAKTUR": "mathfrak",
                   "ITALIC": "", "DOUBLE-STRUCK": "mathbb", "DOUBLE-STRUCK ITALIC": "mathbb", "SCRIPT": "mathcal",
                   "FRAKTUR": "mathfrak", "BLACK-LETTER": "mathfrak", "SANS-SERIF": "mathsf",
                   "SANS-SERIF BOLD": "mathbf", "SANS-SERIF ITALIC": "mathsf", "SANS-SERIF BOLD ITALIC": "boldsymbol",
                   "MONOSPACE": "mathtt"}
_DIGIT_NAMES = {"ZERO": "0", "ONE": "1", "TWO": "2", "THREE": "3", "FOUR": "4", "FIVE": "5", "SIX": "6",
                "SEVEN": "7", "EIGHT": "8", "NINE": "9"}
_MATRIX_ENVS = {("(", ")"): "pmatrix", ("[", "]"): "bmatrix", ("{", "}"): "Bmatrix", ("|", "|"): "vmatrix",
                ("‖", "‖"): "Vmatrix", ("∥", "∥"): "Vmatrix"}
_NAMED_SPACES = {"veryverythinmathspace": 1 / 18, "verythinmathspace": 2 / 18, "thinmathspace": 3 / 18,
                 "mediummathspace": 4 / 18, "thickmathspace": 5 / 18, "verythickmathspace": 6 / 18,
                 "veryverythickmathspace": 7 / 18}
_LENGTH = re.compile(r"^\s*(-?\d*\.?\d+)\s*(em|ex|px|pt|mu|%)?\s*$")
_CONTROL_WORD_END = re.compile(r"\\[A-Za-z]+$")
_CONTROL_WORD = re.compile(r"\\[A-Za-z]+")
_COMMAND_NAME = re.compile(r"\\[A-Za-z]+\*?")  # \operatorname*
_WS = re.compile(r"\s+")
_TEXT_ESCAPES = str.maketrans({"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&",
                               "#": r"\#", "%": r"\%", "_": r"\_", "^": r"\^{}", "~": r"\~{}", "\u00a0": " "})


def local_name(tag: object) -> str:
    """Tag name without a namespace prefix (``m:math`` in XHTML-ish pages); '' for comments and the like."""
    if not isinstance(tag, str):
        return ""
    return tag.rpartition(":")[2] if ":" in tag else tag


# <annotation encoding=...> values that hold TeX (KaTeX, MathJax, MediaWiki and hand-written MathML)
TEX_ENCODINGS = frozenset({"application/x-tex", "tex", "text/x-tex", "application/x-latex", "latex",
                            "text/latex", "text/tex"})
_STYLE_WRAPPER = re.compile(r"^\{\\(?:displaystyle|textstyle|scriptstyle|scriptscriptstyle)\b(.*)\}$", re.DOTALL)


def _strip_style_wrapper(tex: str) -> str:
    """``{\\displaystyle x^{2}}`` -> ``x^{2}`` (MediaWiki's wrapper), when the braces close at the very end."""
    match = _STYLE_WRAPPER.match(tex)
    if not match:
        return tex
    inner = match.group(1)
    depth = 0
    for i, ch in enumerate(inner):  # the wrapper's brace must be the one closing at the end
        if ch == "{" and (i == 0 or inner[i - 1] != "\\"):
            depth += 1
        elif ch == "}" and (i == 0 or inner[i - 1] != "\\"):
            depth -= 1
            if depth < 0:
                return tex
    return inner.strip() if depth == 0 else tex


def clean_tex(tex: str | None) -> str | None:
    if tex is None:
        return None
    tex = _strip_style_wrapper(tex.strip())
    return tex or None

def annotation_tex(semantics: etree._Element) -> str | None:
    """The TeX annotation of a ``<semantics>`` element (``TEX_ENCODINGS``), cleaned; None without one."""
    for child in semantics:
        if local_name(child.tag) == "annotation" and (child.get("encoding") or "").lower() in TEX_ENCODINGS:
            return clean_tex(child.text)
    return None


# --- MathML to LaTeX -------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=4096)
def _char(ch: str) -> str:
    """LaTeX for one character of a token element."""
    if ch in _INVISIBLE:
        return ""
    name = _GREEK.get(ch)
    if name:
        return "\\" + name
    symbol = _SYMBOLS.get(ch)
    if symbol is not None:
        return symbol
    if ord(ch) < 0x2100:
        return ch
    # Unicode's mathematical alphanumerics (U+1D400-1D7FF) and letterlike symbols (U+2100-214F) carry
    # their style in their name: "MATHEMATICAL DOUBLE-STRUCK CAPITAL R", "SCRIPT CAPITAL L"
    match = _ALPHANUMERIC.match(unicodedata.name(ch, ""))
    if not match:
        return "h" if ch == "\u210e" else ch  # PLANCK CONSTANT is the italic h
    style, kind, letter = match.groups()
    if kind == "DIGIT":
        base = _DIGIT_NAMES.get(letter, "")
    elif len(letter) == 1:
        base = letter if kind == "CAPITAL" else letter.lower()
    else:
        try:
            base = _char(unicodedata.lookup(f"GREEK {kind} LETTER {letter}"))
        except KeyError:
            base = ""
    if not base:
        return ch
    command = _STYLE_COMMANDS.get(style, "")
    return f"\\{command}{{{base}}}" if command else base


def _chars(text: str) -> str:
    return _join([_char(ch) for ch in text])


def _join(parts: list[str]) -> str:
    """Concatenate LaTeX pieces, with a space only where a control word would run into a letter (``\\pi r``)."""
    out = ""
    for part in parts:
        if not part:
            continue
        if out and part[0].isascii() and part[0].isalpha() and _CONTROL_WORD_END.search(out):
            out += " "
        out += part
    return out


def _token_text(el: etree._Element) -> str:
    return "".join(el.itertext()).strip()


def _mi(el: etree._Element) -> str:
    text = _token_text(el)
    if not text:
        return ""
    variant = el.get("mathvariant")
    if len(text) > 1 and text in _FUNCTIONS:
        return "\\" + text
    if len(text) > 1 and all(ch.isascii() and ch.isalpha() for ch in text):
        command = _VARIANTS.get(variant or "", "mathrm")
        return f"\\{command}{{{text}}}"
    tex = _chars(text)
    if variant and variant in _VARIANTS:
        return f"\\{_VARIANTS[variant]}{{{tex}}}"
    if variant == "normal" and len(text) == 1 and text.isascii() and text.isalpha():
        return f"\\mathrm{{{text}}}"
    return tex


def _mo(el: etree._Element) -> str:
    text = _token_text(el)
    if not text:
        return ""
    if text in _FUNCTIONS:
        return "\\" + text
    if len(text) > 1 and text.isascii() and text.isalpha():
        return f"\\operatorname{{{text}}}"
    return _chars(text)


def _mtext(el: etree._Element) -> str:
    text = "".join(el.itertext())
    if not text.strip():
        return "\\ " if text else ""
    text = _WS.sub(" ", text)
    return "\\text{" + text.translate(_TEXT_ESCAPES) + "}"


def _is_atom(tex: str) -> bool:
    """A base that takes a script without braces: one character, a number, a control word, a command with
    its braced arguments, or a fenced group (TeX attaches the script to the closing fence, which looks the same)."""
    if len(tex) == 1 or tex.isdigit() or _CONTROL_WORD.fullmatch(tex):
        return True
    if tex[0] == "\\" and _balanced_command(tex):
        return True
    return tex[0] in "([" and tex[-1] in ")]" and _balanced(tex, "([", ")]")


def _balanced(tex: str, opens: str, closes: str) -> bool:
    """The first character's group closes at the last character."""
    depth = 0
    for i, ch in enumerate(tex):
        if ch in opens:
            depth += 1
        elif ch in closes:
            depth -= 1
            if depth == 0 and i != len(tex) - 1:
                return False
    return depth == 0


def _balanced_command(tex: str) -> bool:
    """``\\name{...}{...}`` or ``\\name[...]{...}`` and nothing after its last group."""
    match = _COMMAND_NAME.match(tex)
    if not match:
        return False
    i = match.end()
    if i == len(tex):
        return True
    while i < len(tex):
        if tex[i] not in "{[":
            return False
        opening, closing = tex[i], "}" if tex[i] == "{" else "]"
        depth = 0
        while i < len(tex):
            ch = tex[i]
            if ch == "\\":
                i += 2
                continue
            if ch == opening:
                depth += 1
            elif ch == closing:
                depth -= 1
                if depth == 0:
                    break
            i += 1
        if depth != 0:
            return False
        i += 1
    return True


def _base(tex: str) -> str:
    return tex if tex and _is_atom(tex) else "{" + tex + "}"


def _children(el: etree._Element) -> list[etree._Element]:
    return [c for c in el if isinstance(c.tag, str)]


def _padded(el: etree._Element, n: int) -> list[etree._Element | None]:
    """The first ``n`` element children, None for missing ones (malformed MathML has fewer)."""
    children: list[etree._Element | None] = [*_children(el)[:n]]
    return children + [None] * (n - len(children))


def _row(el: etree._Element, compact: bool) -> str:
    children = _children(el)
    fenced = _fenced_construct(children, compact)
    if fenced is not None:
        return fenced
    if compact:
        return _join([_convert(c, True) for c in children])
    return _spaced(children)


def _spaced(children: list[etree._Element]) -> str:
    """A row as a person writes it: spaces around relations and binary operators (not around a sign, as in
    ``-x`` or ``= -1``), and after a big operator with its limits (``\\sum_{i=1}^{n} x_{i}``)."""
    out = ""
    prev = ""  # kind of the previous piece: "", "op", "sign", "open", "big", "atom"
    for child in children:
        tex = _convert(child, False)
        if not tex:
            continue
        is_mo = local_name(child.tag) == "mo"
        if is_mo and tex in _SPACED_OPS:
            kind = "sign" if tex in _SIGNS and prev in ("", "op", "sign", "open") else "op"
            space = bool(out) and (kind == "op" or prev in ("op", "big"))
        else:
            kind = "open" if is_mo and tex in _OPENERS else ("big" if _BIG_OPERATOR.match(tex) else "atom")
            space = prev in ("op", "big")
        if not space and out and tex[0].isascii() and tex[0].isalpha() and _CONTROL_WORD_END.search(out):
            space = True  # \\pi r, not \\pir
        out += (" " + tex) if space and not out.endswith(" ") else tex
        prev = kind
    return out


def _fenced_construct(children: list[etree._Element], compact: bool) -> str | None:
    """Fences around one table (a matrix environment, ``cases``) or one zero-thickness fraction (``\\binom``)."""
    if len(children) not in (2, 3) or local_name(children[0].tag) != "mo":
        return None
    opening = _token_text(children[0])
    middle = local_name(children[1].tag)
    if len(children) == 2:
        return _table(children[1], compact, "cases") if opening == "{" and middle == "mtable" else None
    if local_name(children[2].tag) != "mo":
        return None
    closing = _token_text(children[2])
    if middle == "mtable":
        env = _MATRIX_ENVS.get((opening, closing)) or ("cases" if opening == "{" and not closing else None)
        return _table(children[1], compact, env) if env else None
    if middle == "mfrac" and _zero_thickness(children[1]) and (opening, closing) == ("(", ")"):
        parts = _padded(children[1], 2)
        return f"\\binom{{{_convert(parts[0], compact)}}}{{{_convert(parts[1], compact)}}}"
    return None


def _zero_thickness(frac: etree._Element) -> bool:
    thickness = (frac.get("linethickness") or "").strip()
    return thickness in ("0", "0pt", "0em", "0px", "0.0em")


def _table(el: etree._Element, compact: bool, env: str | None = None) -> str:
    if env is None:
        align = (el.get("columnalign") or "").split()
        env = "aligned" if len(align) >= 2 and align[0] == "right" and align[1] == "left" else "matrix"
    rows = []
    for row in _children(el):
        local = local_name(row.tag)
        if local not in ("mtr", "mlabeledtr"):
            rows.append(_convert(row, compact))
            continue
        cells = _children(row)
        if local == "mlabeledtr":
            cells = cells[1:]  # the equation label is not part of the formula
        rows.append(" & ".join(_convert(cell, compact) for cell in cells))
    return f"\\begin{{{env}}} " + " \\\\ ".join(rows) + f" \\end{{{env}}}"


def _script(base: etree._Element | None, sub: etree._Element | None, sup: etree._Element | None,
            compact: bool) -> str:
    base_tex = _convert(base, compact)
    sub_tex = _convert(sub, True) if sub is not None else ""
    sup_tex = _convert(sup, True) if sup is not None else ""
    out = _base(base_tex)
    if sub_tex:
        out += "_{" + sub_tex + "}"
    if sup_tex:
        out += sup_tex if set(sup_tex) == {"'"} else "^{" + sup_tex + "}"
    return out


def _accent(marker: etree._Element | None, table: dict[str, str]) -> str | None:
    if marker is None or local_name(marker.tag) not in ("mo", "mi", "mtext"):
        return None
    return table.get(_token_text(marker))


def _under_over(el: etree._Element, local: str, compact: bool) -> str:
    children = _padded(el, 3)
    base = children[0]
    if local == "munder":
        under, over = children[1], None
    elif local == "mover":
        under, over = None, children[1]
    else:
        under, over = children[1], children[2]
    base_tex = _convert(base, compact)
    if under is not None:
        command = _accent(under, _UNDER_ACCENTS)
        if command and over is None:
            return f"\\{command}{{{base_tex}}}"
    if over is not None and under is None:
        command = _accent(over, _OVER_ACCENTS)
        if command:
            if len(base_tex) > 1 and not (base_tex.startswith("\\") and _is_atom(base_tex)):
                command = _WIDE_ACCENTS.get(command, command)  # over several symbols
            return f"\\{command}{{{base_tex}}}"
    if base_tex in _LIMIT_BASES or base_tex.startswith(("\\overbrace", "\\underbrace", "\\operatorname")):
        if base_tex.startswith("\\operatorname{"):
            base_tex = "\\operatorname*" + base_tex[len("\\operatorname"):]
        return _script_tex(base_tex, _convert(under, True) if under is not None else "",
                           _convert(over, True) if over is not None else "")
    out = base_tex
    if over is not None:
        out = f"\\overset{{{_convert(over, True)}}}{{{out}}}"
    if under is not None:
        out = f"\\underset{{{_convert(under, True)}}}{{{out}}}"
    return out


def _script_tex(base_tex: str, sub_tex: str, sup_tex: str) -> str:
    out = _base(base_tex)
    if sub_tex:
        out += "_{" + sub_tex + "}"
    if sup_tex:
        out += "^{" + sup_tex + "}"
    return out


def _fenced(el: etree._Element, compact: bool) -> str:
    opening = el.get("open", "(")
    closing = el.get("close", ")")
    children = _children(el)
    if len(children) == 1 and local_name(children[0].tag) == "mtable":
        env = _MATRIX_ENVS.get((opening, closing)) or ("cases" if opening == "{" and not closing else None)
        if env:
            return _table(children[0], compact, env)
    separators = "".join(el.get("separators", ",").split())
    parts: list[str] = []
    for i, child in enumerate(children):
        if i and separators:
            parts.append(_chars(separators[min(i - 1, len(separators) - 1)]))
        parts.append(_convert(child, compact))
    return _join([_fence_char(opening), *parts, _fence_char(closing)])


def _fence_char(ch: str) -> str:
    if ch in ("(", ")", "[", "]", "|", ""):
        return ch
    return _chars(ch)


def _space(el: etree._Element) -> str:
    if el.get("linebreak") == "newline":
        return "\\\\"
    width = (el.get("width") or "").strip()
    if not width:
        return ""
    em = _NAMED_SPACES.get(width)
    if em is None:
        match = _LENGTH.match(width)
        if not match:
            return "\\ "
        value, unit = float(match.group(1)), match.group(2) or "em"
        em = {"em": value, "ex": value / 2, "px": value / 16, "pt": value / 10, "mu": value / 18}.get(unit, 0.0)
    if em <= 0:
        return ""
    if em >= 2:
        return "\\qquad"
    if em >= 1:
        return "\\quad"
    if em >= 5 / 18:
        return "\\;"
    if em >= 4 / 18:
        return "\\:"
    return "\\,"


def _enclose(el: etree._Element, compact: bool) -> str:
    inner = _row(el, compact)
    notation = (el.get("notation") or "longdiv").split()
    if any(n in ("box", "roundedbox", "circle") for n in notation):
        return f"\\boxed{{{inner}}}"
    if "updiagonalstrike" in notation:
        return f"\\cancel{{{inner}}}"
    if "downdiagonalstrike" in notation:
        return f"\\bcancel{{{inner}}}"
    if "radical" in notation:
        return f"\\sqrt{{{inner}}}"
    if "top" in notation:
        return f"\\overline{{{inner}}}"
    if "bottom" in notation:
        return f"\\underline{{{inner}}}"
    return inner


def _multiscripts(el: etree._Element, compact: bool) -> str:
    children = _children(el)
    if not children:
        return ""
    base, rest = children[0], children[1:]
    post, pre = rest, []
    for i, child in enumerate(rest):
        if local_name(child.tag) == "mprescripts":
            post, pre = rest[:i], rest[i + 1:]
            break

    def scripts(pairs: list[etree._Element]) -> str:
        out = ""
        for j in range(0, len(pairs) - 1, 2):
            sub, sup = _convert(pairs[j], True), _convert(pairs[j + 1], True)
            out += ("_{" + sub + "}" if sub else "") + ("^{" + sup + "}" if sup else "")
        return out

    prefix = scripts(pre)
    return ("{}" + prefix if prefix else "") + _base(_convert(base, compact)) + scripts(post)


def _semantics(el: etree._Element, compact: bool) -> str:
    tex = annotation_tex(el)
    if tex:
        return tex
    children = [c for c in _children(el) if local_name(c.tag) not in ("annotation", "annotation-xml")]
    return _convert(children[0], compact) if children else ""


def _convert(el: etree._Element | None, compact: bool = False) -> str:
    """LaTeX of one MathML element (recursive; MathML nests as deep as its formula, libxml2 stops at 256)."""
    if el is None:
        return ""
    local = local_name(el.tag)
    if local in ("mrow", "math", "mstyle", "mpadded", "merror", "mtd", "mlabeledtr", "mtr"):
        return _row(el, compact)
    if local == "mi":
        return _mi(el)
    if local == "mn":
        return _chars(_token_text(el))
    if local == "mo":
        return _mo(el)
    if local == "mtext":
        return _mtext(el)
    if local == "ms":
        return "\\text{\"" + _token_text(el).translate(_TEXT_ESCAPES) + "\"}"
    if local == "mspace":
        return _space(el)
    if local in ("msup", "msub", "msubsup"):
        children = _padded(el, 3)
        if local == "msup":
            return _script(children[0], None, children[1], compact)
        if local == "msub":
            return _script(children[0], children[1], None, compact)
        return _script(children[0], children[1], children[2], compact)
    if local == "mfrac":
        children = _padded(el, 2)
        num, den = _convert(children[0], compact), _convert(children[1], compact)
        if _zero_thickness(el):
            return f"{{{num} \\atop {den}}}"
        if el.get("bevelled") == "true":
            return f"{_base(num)}/{_base(den)}"
        return f"\\frac{{{num}}}{{{den}}}"
    if local == "msqrt":
        return f"\\sqrt{{{_row(el, compact)}}}"
    if local == "mroot":
        children = _padded(el, 2)
        return f"\\sqrt[{_convert(children[1], True)}]{{{_convert(children[0], compact)}}}"
    if local in ("munder", "mover", "munderover"):
        return _under_over(el, local, compact)
    if local == "mfenced":
        return _fenced(el, compact)
    if local == "mtable":
        return _table(el, compact)
    if local == "menclose":
        return _enclose(el, compact)
    if local == "mmultiscripts":
        return _multiscripts(el, compact)
    if local == "mphantom":
        return f"\\phantom{{{_row(el, compact)}}}"
    if local == "semantics":
        return _semantics(el, compact)
    if local == "maction":
        children = _children(el)
        return _convert(children[0], compact) if children else ""
    if local in ("annotation", "annotation-xml", "none", "mprescripts", "malignmark", "maligngroup"):
        return ""
    if local == "mglyph":
        return el.get("alt") or ""
    return _chars(_token_text(el))  # unknown: its text


def mathml_to_latex(el: etree._Element) -> str:
    """LaTeX for a MathML element (usually ``<math>``): see the module docstring for what it covers."""
    return _convert(el).strip()


