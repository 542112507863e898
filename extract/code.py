"""Code blocks of the DOM: which element is one, its text verbatim, its language, and its Markdown.

Which element is THE block (``is_code_block``). A ``<pre>`` always is, unless it is a line-number gutter
(Pygments' ``td.linenos``/``div.linenodiv``, Rouge's ``pre.lineno``, Chroma's ``span.lnt`` column) or a
Jupyter prompt (``In [1]:``, nbsphinx writes it in a ``<pre>`` of its own). A wrapper is the block when a
generator's class says it wraps code and, looked into (at most ``_SEARCH_DEPTH`` levels and
``_SEARCH_ELEMENTS`` elements, so a page-wide ``div.language-en`` costs little), it holds exactly one code
holder (a ``<pre>`` or a code table) and no text outside it but chrome (copy buttons, toolbars, prompts,
line numbers). The caller walks top-down, so it meets the outermost such wrapper first and skips its
subtree; a wrapper with a title or other words beside its code is not a block, and the caller then reaches
the ``<pre>`` inside. Wrappers by generator:

- Sphinx/Pygments ``div.highlight-<lang> > div.highlight > pre`` and ``table.highlighttable`` with
  ``td.linenos``; MkDocs Material ``div.language-x.highlight``; Python-Markdown ``div.codehilite``;
  Rouge/Jekyll ``div.language-x.highlighter-rouge`` and ``table.rouge-table``; Hugo/Chroma ``table.lntable``;
  Hexo ``figure.highlight`` (its language is a bare class token);
- pandoc/Quarto ``div.sourceCode`` (and pandoc 1's ``table.sourceCode`` with ``td.lineNumbers``);
- GitHub rendered Markdown ``div.highlight.highlight-source-x``, ``div.snippet-clipboard-content`` and blob
  tables (``table.highlight`` with ``td.blob-num``/``td.blob-code``); GitLab ``div.markdown-code-block``;
- Jupyter: nbconvert classic ``div.input`` / ``div.input_area``, JupyterLab ``div.jp-Cell-inputWrapper`` /
  ``div.jp-InputArea``, nbsphinx ``div.nbinput``, MyST-NB ``div.cell_input``;
- Docusaurus ``div.language-x.theme-code-block``, Prism's toolbar ``div.code-toolbar``, Gatsby
  ``div.gatsby-highlight``, MDN ``div.code-example``, SyntaxHighlighter 3 ``div.syntaxhighlighter``
  (a table with ``td.gutter`` and ``td.code``), rendered CodeMirror 5/6 editors (``div.CodeMirror``,
  ``div.cm-editor``).

The text (``code_text``) is every character the browser shows in the block: ``<br>`` is a line break; a block
element inside the code (Docusaurus' ``div.token-line``, SyntaxHighlighter's ``div.line``, the rows of a line
table) starts and ends a line, and an empty line element is an empty line; hyperlinked identifiers
(Sphinx-Gallery's intersphinx links, ``<a>`` in Pygments output) keep their text. Left out: line-number gutters
(``td.linenos``, ``span.linenos``, ``span.lineno``, ``.gutter``, ``.line-numbers-rows``, GitHub's ``td.blob-num``,
highlight.js-line-numbers' ``td.hljs-ln-numbers``, Chroma's ``span.ln``/``span.lnt``, an element whose
``data-line-number`` is its only content), copy buttons and toolbars (``button``, ``clipboard-copy``, ``.copybtn``,
``.copy-button``, ``.md-clipboard``..., rustdoc/mdBook's "Run" link ``a.test-arrow``), Jupyter prompts outside the
``<pre>``. Whitespace is kept as written, tabs included; inter-element whitespace of a line table (between ``<tr>``
and ``<td>``) is not code. Three characters change: U+00A0 becomes a space (pages and SyntaxHighlighter write
``&nbsp;`` to keep indentation from collapsing; a real NBSP in source code is a syntax error in most languages),
and U+200B/U+FEFF go (CodeMirror writes a zero-width space into empty lines; neither is ever meant as code). Then
blank lines before the first and after the last line go, and the final newline; the first line's indentation stays.
Entities are decoded by the parser (libxml2 2.14 knows HTML5's named entities); a literal ``&lt;`` left in the text
came from ``&amp;lt;`` and is what the page shows, so it stays. REPL prompts (``>>> ``, ``... ``, ``$ ``,
``In [1]:``) inside the ``<pre>`` are code and stay exactly.

The language (``code_language``) is what the page declares, never guessed from the content: class tokens
``language-x``/``lang-x`` (HTML's own suggestion for ``<code>``, Prism, highlight.js, Stack Exchange,
Docusaurus, Rouge), ``highlight-x`` on a Sphinx wrapper whose child is the code (``highlight-source-x`` /
``highlight-text-x-...`` on GitHub), ``hl-x`` beside ``highlight`` (nbconvert), ``brush: x`` (SyntaxHighlighter,
MDN), the bare token beside ``sourceCode`` (pandoc), ``syntaxhighlighter``, ``highlight`` on a ``<figure>``
(Hexo) or ``hljs`` (highlight.js before v10), and ``data-lang``/``data-language``/``data-code-language``;
read on the code's ``<code>``, its ``<pre>``, and the wrappers up to 3 levels above the block, innermost first;
a wrapper counts only while it holds nothing but this code (a page container's ``language-en`` names a
natural language).
Names are lower-cased and aliases folded to one short name (``python3``/``py``/``ipython3`` -> ``python``,
``shell-session``/``console`` -> ``console``, ``js`` -> ``javascript``...); ``default``, ``none``, ``text``,
``plain``, ``nohighlight`` say nothing and give None (Sphinx's ``highlight-default`` means "whatever the
project's default is", which the page does not state).

Markdown (``fence``, ``inline_code``) follows CommonMark 0.31: a fenced code block (§4.5) opens with at least
three backticks and more than any backtick run inside, and its info string (the language) may not contain a
backtick; a code span (§6.1) is delimited by a backtick string longer than any run inside, and one space is
added at both ends when the content begins or ends with a backtick, or begins and ends with a space (the
parser strips one space from each end in that case).

Cost: ``is_code_block`` looks at the tag first (``CODE_TAGS``) and then at most the class of a div/figure
(a few substring scans reject nearly all); only a wrapper candidate is looked into. ``is_code_chrome`` tells
a caller which Jupyter prompts and copy buttons to drop where they sit outside any code block.
"""

from __future__ import annotations

import re

from lxml import etree

# the only tags is_code_block can answer True for: a walk that already holds an element's tag can skip the
# call for every other element with one set lookup
CODE_TAGS = frozenset({"pre", "table", "div", "figure"})

# --- classes by role -------------------------------------------------------------------------------------
# gutters: line numbers the browser shows beside the code (not code)
_GUTTER = frozenset({
    "linenos", "lineno", "linenodiv", "gutter", "rouge-gutter", "line-numbers-rows", "linenumber", "line-number",
    "lineNumbers", "lineNumber", "blob-num", "hljs-ln-numbers", "hljs-ln-n", "ln", "lnt", "CodeMirror-gutters",
    "CodeMirror-gutter-wrapper", "CodeMirror-linenumber", "cm-gutters", "cm-lineNumbers",
})
# chrome: UI drawn around or over the code (copy buttons, toolbars, prompts, editor internals)
_CHROME = frozenset({
    "copybtn", "copybutton", "copy-button", "btn-copy", "copy-code-button", "code-copy-button", "copy-to-clipboard",
    "copy-to-clipboard-button", "copy-code", "md-clipboard", "zeroclipboard-container", "clipboard", "toolbar",
    "buttonGroup", "jp-Collapser", "example-header", "line-highlight", "CodeMirror-measure",
    "CodeMirror-cursors", "CodeMirror-vscrollbar", "CodeMirror-hscrollbar", "CodeMirror-scrollbar-filler",
    "CodeMirror-gutter-filler", "cm-cursorLayer", "cm-selectionLayer", "cm-announced", "test-arrow", "run",
    "play-button", "clip-button",
})
_CHROME_TAGS = frozenset({"button", "clipboard-copy", "script", "style", "template", "svg", "textarea", "input",
                          "noscript"})
# Jupyter prompts beside the code (outside its <pre>); inside a <pre> a prompt is code
_PROMPT = frozenset({"prompt", "input_prompt", "output_prompt", "jp-InputPrompt", "jp-InputArea-prompt",
                     "jp-OutputPrompt", "jp-OutputArea-prompt"})
_COPY_BUTTONS = frozenset({"copybtn", "copybutton", "copy-button", "md-clipboard"})
_CHROMA_GUTTER = frozenset({"lnt"})
_SH_CELLS = frozenset({"code", "gutter"})
_HIGHLIGHT = frozenset({"highlight"})
# words a copy button shows when it is not a <button> (custom elements, spans)
_UI_WORDS = frozenset({"copy", "copied", "copied!", "copy code", "copy to clipboard", "copied to clipboard"})
# wrapper classes that hold one code block
_WRAPPERS = frozenset({
    "highlight", "codehilite", "sourceCode", "input", "input_area", "jp-InputArea", "jp-Cell-inputWrapper",
    "cell_input", "nbinput", "syntaxhighlighter", "code-example", "code-toolbar", "gatsby-highlight",
    "snippet-clipboard-content", "markdown-code-block", "theme-code-block", "highlighter-rouge",
})
_WRAPPER_PREFIXES = ("highlight-", "language-")
_WRAPPER_TAGS = frozenset({"div", "figure"})

# a table that is a code block by its class
_CODE_TABLES = frozenset({"highlighttable", "rouge-table", "lntable", "hljs-ln", "js-file-line-container",
                          "sourceCode", "highlight"})
# cells of a line table that hold code (the rest of a line table is gutter)
_CODE_CELLS = frozenset({"code", "blob-code", "hljs-ln-code", "rouge-code", "sourceCode"})
# an editor is a code holder of its own: its lines are separate <pre>s or divs
_EDITORS = frozenset({"CodeMirror", "cm-editor"})
# elements that are exactly one line each (an empty one is an empty line)
_LINE_CLASSES = frozenset({"line", "token-line", "CodeMirror-line", "cm-line"})
# elements that begin and end a line when they sit inside code
_BLOCK_TAGS = frozenset({
    "div", "p", "pre", "tr", "table", "li", "ul", "ol", "dl", "dt", "dd", "blockquote", "section", "article",
    "header", "footer", "figure", "figcaption", "h1", "h2", "h3", "h4", "h5", "h6", "details", "summary", "form",
})
# whitespace inside these is the table's layout, not code
_TABLE_STRUCTURE = frozenset({"table", "thead", "tbody", "tfoot", "tr", "colgroup"})

_SEARCH_DEPTH = 6  # JupyterLab: jp-Cell-inputWrapper > jp-InputArea > editor > div.highlight > pre is 4 deep
_SEARCH_ELEMENTS = 120  # a code wrapper has a handful of elements outside its code; a page container has more

# --- language names --------------------------------------------------------------------------------------
_NO_LANGUAGE = frozenset({"default", "none", "text", "txt", "plain", "plaintext", "nohighlight", "no-highlight",
                          "code", "auto", "output", "raw", "nolang", "unknown"})
_ALIASES = {
    "python3": "python", "python2": "python", "py": "python", "py3": "python", "py2": "python", "ipython": "python",
    "ipython3": "python", "ipython2": "python", "sage": "python",
    "shell-session": "console", "shellsession": "console", "sh-session": "console", "bash-session": "console",
    "sh": "bash", "shell": "bash", "shellscript": "bash", "js": "javascript", "jscript": "javascript",
    "node": "javascript",
    "ts": "typescript", "rb": "ruby", "yml": "yaml", "md": "markdown", "c++": "cpp", "cxx": "cpp", "c#": "csharp",
    "cs": "csharp", "c-sharp": "csharp", "f#": "fsharp", "golang": "go", "rs": "rust", "kt": "kotlin",
    "ps1": "powershell", "ps": "powershell", "objc": "objectivec", "objective-c": "objectivec", "hs": "haskell",
    "pl": "perl", "tex": "latex", "docker": "dockerfile", "xhtml": "html", "html5": "html", "vb": "vbnet",
}
# class tokens that sit beside a bare language token but are not one
_NOT_LANGUAGE = frozenset({
    "syntaxhighlighter", "nogutter", "collapsed", "ie", "highlight", "hljs", "sourcecode", "numbersource",
    "numberlines", "notranslate", "chroma", "prettyprint", "linenums", "code", "cell-code", "printable",
})
_LANGUAGE_NAME = re.compile(r"^[a-z0-9][a-z0-9+#._-]{0,31}$")
_BARE_TOKEN = re.compile(r"^[a-z][a-z0-9+#_]{0,31}$")  # as a generator writes it: lower case, no hyphen
_BRUSH = re.compile(r"brush\s*:\s*([A-Za-z0-9+#_.-]+)")
_DIGITS = re.compile(r"^\s*\d*\s*$")
_LANG_ATTRS = ("data-lang", "data-language", "data-code-language")


def _tokens(el: etree._Element) -> list[str]:
    cls = el.get("class")
    return cls.split() if cls else []


def _has(el: etree._Element, names: frozenset[str]) -> bool:
    cls = el.get("class")
    return bool(cls) and not names.isdisjoint(cls.split())


def _is_gutter(el: etree._Element) -> bool:
    cls = el.get("class")
    tokens = cls.split() if cls else ()
    if not _GUTTER.isdisjoint(tokens):
        return True
    if el.get("data-line-number") is not None and not any("code" in t for t in tokens):
        # highlight.js-line-numbers and GitHub put the number in the attribute and draw it with CSS;
        # the code cell of the same row has the attribute too (and "code" in its class)
        return bool(_DIGITS.match("".join(el.itertext())))
    return False


def _is_chrome(el: etree._Element) -> bool:
    return el.tag in _CHROME_TAGS or _has(el, _CHROME)


def _in_prompt(el: etree._Element) -> bool:
    """``el`` or one of its 3 nearest ancestors is a Jupyter prompt (``In [1]:``, nbsphinx's ``[1]:``)."""
    node: etree._Element | None = el
    for _ in range(4):
        if node is None:
            return False
        if _has(node, _PROMPT):
            return True
        node = node.getparent()
    return False


def _is_gutter_pre(pre: etree._Element) -> bool:
    """A ``<pre>`` that holds only line numbers: its own class, or its cell's/wrapper's, says so."""
    if _is_gutter(pre):
        return True
    parent = pre.getparent()
    if parent is not None and (_is_gutter(parent) or (
            (grand := parent.getparent()) is not None and _is_gutter(grand))):
        return True
    # Chroma's table gutter: <td class="lntd"><pre><code><span class="lnt">1
    first = pre[0] if len(pre) else None
    if first is not None and first.tag == "code":
        first = first[0] if len(first) else None
    return first is not None and _has(first, _CHROMA_GUTTER)


def _is_code_table(table: etree._Element) -> bool:
    tokens = _tokens(table)
    if not _CODE_TABLES.isdisjoint(tokens):
        if "highlight" in tokens or "sourceCode" in tokens:  # generic names: want a code cell as well
            return _first_row_has(table, _CODE_CELLS)
        return True
    # SyntaxHighlighter 3 and Hexo write an unclassed table: td.gutter + td.code
    return _first_row_has(table, _SH_CELLS)


def _first_row_has(table: etree._Element, names: frozenset[str]) -> bool:
    row = table.find("tr")
    if row is None:
        body = table.find("tbody")
        row = body.find("tr") if body is not None else None
    return row is not None and any(_has(cell, names) for cell in row)


def _is_holder(el: etree._Element) -> bool:
    """``el`` holds one code text itself: a ``<pre>``, a code table, a rendered editor."""
    tag = el.tag
    if tag == "pre":
        return True
    if tag == "table":
        return _is_code_table(el)
    return tag == "div" and _has(el, _EDITORS)


def _search(wrapper: etree._Element) -> tuple[list[etree._Element], bool] | None:
    """(code holders, whether any non-chrome text lies outside them) of a wrapper; None past the bounds.

    Stops at the second holder: one is the answer the callers want, two already mean "not one block".
    """
    holders: list[etree._Element] = []
    outside = False
    visited = 0
    stack: list[tuple[etree._Element, int]] = [(wrapper, 0)]
    while stack:
        el, depth = stack.pop()
        visited += 1
        if visited > _SEARCH_ELEMENTS:
            return None
        if el.text and el.text.strip() and el.text.strip().lower() not in _UI_WORDS:
            outside = True
        children = []
        for child in el:
            tail = child.tail
            if tail and tail.strip() and tail.strip().lower() not in _UI_WORDS:
                outside = True
            if not isinstance(child.tag, str) or _is_chrome(child) or _is_gutter(child) or _has(child, _PROMPT):
                continue
            if child.tag == "pre" and _is_gutter_pre(child):
                continue
            if _is_holder(child):
                holders.append(child)
                if len(holders) > 1:
                    return holders, outside
                continue
            if depth + 1 >= _SEARCH_DEPTH:
                return None
            children.append((child, depth + 1))
        stack.extend(reversed(children))  # document order: the first holder found is the first in the page
    return holders, outside


def is_code_block(el: etree._Element) -> bool:
    """Whether ``el`` is a whole code block (see the module docstring): render it with ``code_text``, skip inside."""
    tag = el.tag
    if tag not in CODE_TAGS:
        return False
    if tag == "pre":
        return not _is_gutter_pre(el) and not _in_prompt(el)
    if tag == "table":
        return el.get("class") is not None and _is_code_table(el) and not _in_prompt(el)
    cls = el.get("class")  # div, figure
    # substrings of every wrapper and editor class: most divs fail these few C-level scans (faster than a regex)
    if not cls or not ("highlight" in cls or "ode" in cls or "nput" in cls or "language-" in cls
                       or "snippet" in cls or "cm-editor" in cls):
        return False
    tokens = cls.split()
    if not _EDITORS.isdisjoint(tokens):
        return True
    if not any(t in _WRAPPERS or t.startswith(_WRAPPER_PREFIXES) for t in tokens) or _in_prompt(el):
        return False
    found = _search(el)
    if found is None:
        return False
    holders, outside = found
    return len(holders) == 1 and not outside


def _holder_of(el: etree._Element) -> etree._Element:
    if _is_holder(el) or el.tag not in _WRAPPER_TAGS:
        return el
    found = _search(el)
    if found and found[0]:
        return found[0][0]
    return el


def code_text(el: etree._Element) -> str:
    """The code of the block ``el`` verbatim (see the module docstring), without a trailing newline."""
    root = _holder_of(el)
    out: list[str] = []
    last = ""  # the last character written: lines are ensured, not added twice
    # a frame per open element: (skipped, is a block, len(out) when it opened, is a line element)
    frames: list[tuple[bool, bool, int, bool]] = []
    walker = etree.iterwalk(root, events=("start", "end"))
    for event, node in walker:
        tag = node.tag
        if event == "start":
            if node is not root and (not isinstance(tag, str) or _is_chrome(node) or _is_gutter(node)):
                walker.skip_subtree()
                frames.append((True, False, len(out), False))
                continue
            if tag == "br":
                out.append("\n")
                last = "\n"
                frames.append((True, False, len(out), False))
                continue
            block = node is not root and tag in _BLOCK_TAGS
            if block and last and last != "\n":
                out.append("\n")
                last = "\n"
            line = tag == "tr" or _has(node, _LINE_CLASSES)
            frames.append((False, block, len(out), line))
            text = node.text
            if text and tag not in _TABLE_STRUCTURE:
                out.append(text)
                last = text[-1]
            continue
        skipped, block, start, line = frames.pop()
        if not skipped and block:
            written = "".join(out[start:])
            if line and not written.replace("\u00a0", " ").strip(" \t\n\u200b"):
                # an empty line element (SyntaxHighlighter writes &nbsp; into it) is one empty line
                del out[start:]
                out.append("\n")
                last = "\n"
            elif last and last != "\n":
                out.append("\n")
                last = "\n"
        if node is root:
            break
        parent = node.getparent()
        tail = node.tail
        if tail and (parent is None or parent.tag not in _TABLE_STRUCTURE):
            out.append(tail)
            last = tail[-1]
    text = "".join(out)
    if "\u00a0" in text:
        text = text.replace("\u00a0", " ")
    if "\u200b" in text or "\ufeff" in text:
        text = text.replace("\u200b", "").replace("\ufeff", "")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _trim_blank_lines(text)


def _trim_blank_lines(text: str) -> str:
    lines = text.split("\n")
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return "\n".join(lines[start:end])


def _normalise(name: str) -> str | None:
    name = name.strip().lower()
    if not _LANGUAGE_NAME.match(name) or name in _NO_LANGUAGE:
        return None
    return _ALIASES.get(name, name)


def _direct_code_child(el: etree._Element) -> bool:
    return any(child.tag in ("pre", "table") or (child.tag == "div" and _has(child, _HIGHLIGHT)) for child in el)


def _declared(el: etree._Element) -> str | None:
    """The language ``el`` itself declares (attributes, then class tokens), normalised; None if none."""
    for attr in _LANG_ATTRS:
        value = el.get(attr)
        if value:
            lang = _normalise(value)
            if lang:
                return lang
    cls = el.get("class")
    if not cls:
        return None
    if "brush" in cls:
        match = _BRUSH.search(cls)
        if match:
            lang = _normalise(match.group(1))
            if lang:
                return lang
    tokens = cls.split()
    for token in tokens:
        low = token.lower()
        name = None
        if low.startswith("language-"):
            name = token[9:]
        elif low.startswith("lang-"):
            name = token[5:]
        elif low.startswith("highlight-source-"):
            name = token[17:]
        elif low.startswith("highlight-text-"):
            name = token[15:].split("-")[0]
        elif low.startswith("highlight-") and _direct_code_child(el):
            name = token[10:]
        elif low.startswith("hl-") and "highlight" in tokens:
            name = token[3:]
        if name:
            lang = _normalise(name)
            if lang:
                return lang
    # generators that write the language as a bare token beside their own class
    if ("syntaxhighlighter" in tokens or "sourceCode" in tokens or ("hljs" in tokens and el.tag == "code")
            or ("highlight" in tokens and el.tag == "figure")):
        for token in tokens:
            if _BARE_TOKEN.match(token) and token not in _NOT_LANGUAGE:
                lang = _normalise(token)
                if lang:
                    return lang
    return None


def code_language(el: etree._Element) -> str | None:
    """The language the page declares for the code block ``el`` (see the module docstring); None if none."""
    holder = _holder_of(el)
    if holder.tag != "pre":
        # a code table or an editor: the language sits on the <pre>/<code> of its code (Hexo, Rouge, and
        # JupyterLab's editor around div.highlight.hl-ipython3 > pre)
        holder = next((pre for pre in holder.iter("pre") if not _is_gutter_pre(pre)), holder)
    if holder.tag == "pre":
        code = holder.find("code")
        if code is not None:
            lang = _declared(code)
            if lang:
                return lang
    lang = _declared(holder)
    if lang:
        return lang
    # the wrappers: up to el, then 3 more levels; one counts only while it holds nothing but this code (a
    # page container's "language-en" is a natural language)
    above = 0
    node = holder.getparent()
    passed_el = holder is el
    while node is not None and above < 3:
        lang = _declared(node)
        if lang and _wraps_only(node):
            return lang
        if passed_el:
            above += 1
        passed_el = passed_el or node is el
        node = node.getparent()
    return None


def _wraps_only(wrapper: etree._Element) -> bool:
    """``wrapper`` holds one code block and nothing else but chrome."""
    found = _search(wrapper)
    return found is not None and len(found[0]) == 1 and not found[1]


def _longest_backtick_run(text: str) -> int:
    longest = run = 0
    for ch in text:
        if ch == "`":
            run += 1
            if run > longest:
                longest = run
        else:
            run = 0
    return longest


def fence(code: str, lang: str | None) -> str:
    """``code`` as a fenced code block: backticks, one more than its longest run (at least 3); info = ``lang``."""
    ticks = "`" * max(3, _longest_backtick_run(code) + 1) if "`" in code else "```"
    info = "".join(ch for ch in lang if ch != "`" and not ch.isspace()) if lang else ""
    if not code:
        return f"{ticks}{info}\n{ticks}"
    return f"{ticks}{info}\n{code}\n{ticks}"


def inline_code(text: str) -> str:
    """``text`` as a CommonMark code span (line breaks become spaces, as the parser would make them)."""
    if not text:
        return ""
    if "\n" in text or "\r" in text:
        text = text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
    ticks = "`" * (_longest_backtick_run(text) + 1) if "`" in text else "`"
    if text.startswith("`") or text.endswith("`") or (
            text.startswith(" ") and text.endswith(" ") and text.strip(" ")):
        return f"{ticks} {text} {ticks}"
    return f"{ticks}{text}{ticks}"


def is_code_chrome(el: etree._Element) -> bool:
    """UI around code that a caller meeting it outside a code block should drop: Jupyter prompts, copy buttons.

    nbsphinx and nbconvert write ``[1]:`` / ``In [1]:`` / ``Out[1]:`` in prompt elements beside the code
    (nbsphinx even in a ``<pre>`` of its own); they number the notebook's cells and are not text.
    """
    tag = el.tag
    if tag in ("button", "clipboard-copy"):
        return True
    if tag != "div":
        return False
    return _has(el, _PROMPT) or _has(el, _COPY_BUTTONS)
