"""extract/code.py on the markup of real generators: which element is the block, its text, its language."""

from __future__ import annotations

import time

import pytest
from lxml import etree

from extract.code import code_language, code_text, fence, inline_code, is_code_block, is_code_chrome
from extract.parse import parse_html


def _body(html: str) -> etree._Element:
    tree, _ = parse_html(f"<html><head><title>t</title></head><body>{html}</body></html>")
    return tree.find("body")


def _blocks(html: str) -> list[tuple[str, str | None, str]]:
    """(tag of the block, language, text) of each code block, as a top-down caller finds them."""
    found: list[tuple[str, str | None, str]] = []

    def walk(el: etree._Element) -> None:
        if is_code_block(el):
            found.append((el.tag, code_language(el), code_text(el)))
            return
        if is_code_chrome(el):
            return
        for child in el:
            if isinstance(child.tag, str):
                walk(child)

    walk(_body(html))
    return found


# --- Sphinx / Pygments -----------------------------------------------------------------------------------

SPHINX = (
    '<p>Define it:</p>\n<div class="highlight-python3 notranslate"><div class="highlight"><pre><span></span>'
    '<span class="kn">import</span> <span class="nn">os</span>\n\n'
    '<span class="k">def</span> <span class="nf">main</span><span class="p">():</span>\n'
    '    <span class="k">if</span> <span class="n">os</span><span class="o">.</span><span class="n">sep</span> '
    '<span class="o">==</span> <span class="s2">&quot;/&quot;</span><span class="p">:</span>\n'
    '\t<span class="k">return</span> <span class="mi">1</span> <span class="o">&lt;</span> <span class="mi">2</span>\n'
    '</pre></div>\n</div>'
)


def test_sphinx_block_keeps_indentation_tabs_blank_lines_and_entities():
    assert _blocks(SPHINX) == [(
        "div", "python",
        'import os\n\ndef main():\n    if os.sep == "/":\n\treturn 1 < 2',
    )]


def test_sphinx_highlighttable_with_linenos_drops_the_gutter():
    html = (
        '<div class="highlight-python notranslate"><table class="highlighttable"><tr><td class="linenos">'
        '<div class="linenodiv"><pre><span class="normal">1</span>\n<span class="normal">2</span>\n'
        '<span class="normal">3</span></pre></div></td><td class="code"><div class="highlight"><pre><span></span>'
        '<span class="k">for</span> <span class="n">i</span> <span class="ow">in</span> <span class="nb">range</span>'
        '<span class="p">(</span><span class="mi">3</span><span class="p">):</span>\n'
        '    <span class="nb">print</span><span class="p">(</span><span class="n">i</span><span class="p">)</span>\n'
        '<span class="c1"># done</span>\n</pre></div></td></tr></table></div>'
    )
    assert _blocks(html) == [("div", "python", "for i in range(3):\n    print(i)\n# done")]


def test_bare_highlighttable_is_a_block_and_its_gutter_pre_is_not():
    html = (
        '<table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre>1\n2</pre></div></td>'
        '<td class="code"><div class="highlight"><pre><span></span>a = 1\nb = 2\n</pre></div></td></tr></table>'
    )
    body = _body(html)
    assert is_code_block(body.find("table"))
    assert not is_code_block(body.find(".//td[@class='linenos']//pre"))
    assert code_text(body.find("table")) == "a = 1\nb = 2"


def test_pygments_inline_line_numbers_are_dropped():
    html = (
        '<div class="highlight-c notranslate"><div class="highlight"><pre><span></span>'
        '<span class="linenos">1</span><span class="kt">int</span> <span class="nf">main</span><span class="p">'
        '()</span>'
        ' <span class="p">{</span>\n<span class="linenos">2</span>    <span class="k">return</span> '
        '<span class="mi">0</span><span class="p">;</span>\n<span class="linenos">3</span><span class="p">}</span>\n'
        '</pre></div></div>'
    )
    assert _blocks(html) == [("div", "c", "int main() {\n    return 0;\n}")]


def test_old_pygments_lineno_spans_are_dropped():
    html = (
        '<div class="highlight"><pre><span class="lineno">1 </span>x = 1\n<span class="lineno">2 </span>y = 2</pre>'
        '</div>'
    )
    assert _blocks(html) == [("div", None, "x = 1\ny = 2")]


def test_sphinx_console_and_pycon_prompts_are_code():
    html = (
        '<div class="highlight-console notranslate"><div class="highlight"><pre><span></span>'
        '<span class="gp">$ </span>pip install numpy\n</pre></div></div>'
        '<div class="highlight-pycon notranslate"><div class="highlight"><pre><span></span>'
        '<span class="gp">&gt;&gt;&gt; </span><span class="k">for</span> <span class="n">x</span> '
        '<span class="ow">in</span> <span class="s2">&quot;ab&quot;</span><span class="p">:</span>\n'
        '<span class="gp">... </span>    <span class="nb">print</span><span class="p">(</span><span class="n">x</span>'
        '<span class="p">)</span>\n<span class="go">a</span>\n</pre></div></div>'
        '<div class="highlight-ipython3 notranslate"><div class="highlight"><pre><span></span>'
        '<span class="n">In</span> <span class="p">[</span><span class="mi">1</span><span class="p">]:</span> '
        '<span class="n">x</span> <span class="o">=</span> <span class="mi">2</span>\n</pre></div></div>'
        '<div class="highlight-default notranslate"><div class="highlight"><pre><span></span>x</pre></div></div>'
    )
    assert _blocks(html) == [
        ("div", "console", "$ pip install numpy"),
        ("div", "pycon", '>>> for x in "ab":\n...     print(x)\na'),
        ("div", "python", "In [1]: x = 2"),
        ("div", None, "x"),
    ]


def test_sphinx_gallery_intersphinx_links_keep_their_text():
    html = (
        '<div class="highlight-Python notranslate"><div class="highlight"><pre><span></span>'
        '<span class="kn">import</span> <span class="nn">numpy</span> <span class="k">as</span> <span class="nn">'
        'np</span>\n\n'
        '<span class="n">x</span> <span class="o">=</span> '
        '<a href="https://numpy.org/doc/stable/reference/generated/numpy.linspace.html#numpy.linspace" '
        'title="numpy.linspace" class="sphx-glr-backref-module-numpy sphx-glr-backref-type-py-function">'
        '<span class="n">np</span><span class="o">.</span><span class="n">linspace</span></a>'
        '<span class="p">(</span><span class="mi">0</span><span class="p">,</span> <span class="mi">2</span> '
        '<span class="o">*</span> <a href="https://numpy.org/doc/stable/reference/constants.html#numpy.pi" '
        'title="numpy.pi" class="sphx-glr-backref-module-numpy sphx-glr-backref-type-py-data">'
        '<span class="n">np</span><span class="o">.</span><span class="n">pi</span></a><span class="p">)</span>\n'
        '<a href="https://numpy.org/doc/stable/reference/generated/numpy.sin.html#numpy.sin" title="numpy.sin" '
        'class="sphx-glr-backref-module-numpy sphx-glr-backref-type-py-data"><span class="n">np</span>'
        '<span class="o">.</span><span class="n">sin</span></a><span class="p">(</span><span class="n">x</span>'
        '<span class="p">)</span>\n</pre></div>\n</div>'
    )
    assert _blocks(html) == [(
        "div", "python", "import numpy as np\n\nx = np.linspace(0, 2 * np.pi)\nnp.sin(x)",
    )]


# --- Jupyter ---------------------------------------------------------------------------------------------

def test_nbconvert_classic_input_without_its_prompt():
    html = (
        '<div class="cell border-box-sizing code_cell rendered">\n<div class="input">\n'
        '<div class="prompt input_prompt">In&nbsp;[1]:</div>\n<div class="inner_cell">\n    <div class="input_area">\n'
        '<div class=" highlight hl-ipython3"><pre><span></span><span class="kn">import</span> '
        '<span class="nn">numpy</span> <span class="k">as</span> <span class="nn">np</span>\n'
        '<span class="n">np</span><span class="o">.</span><span class="n">zeros</span><span class="p">(</span>'
        '<span class="mi">3</span><span class="p">)</span>\n</pre></div>\n\n    </div>\n</div>\n</div>\n</div>'
    )
    assert _blocks(html) == [("div", "python", "import numpy as np\nnp.zeros(3)")]
    assert is_code_block(_body(html).find(".//div[@class='input']"))


def test_jupyterlab_input_area_without_its_prompt():
    html = (
        '<div class="jp-Cell jp-CodeCell jp-Notebook-cell jp-mod-noOutputs  ">\n<div class="jp-Cell-inputWrapper">\n'
        '<div class="jp-Collapser jp-InputCollapser jp-Cell-inputCollapser">\n</div>\n'
        '<div class="jp-InputArea jp-Cell-inputArea">\n<div class="jp-InputPrompt jp-InputArea-prompt">'
        'In&nbsp;[2]:</div>\n'
        '<div class="jp-CodeMirrorEditor jp-Editor jp-InputArea-editor" data-type="inline">\n'
        '     <div class="CodeMirror cm-s-jupyter">\n   <div class=" highlight hl-ipython3"><pre><span></span>'
        '<span class="k">def</span> <span class="nf">f</span><span class="p">():</span>\n'
        '    <span class="k">pass</span>\n</pre></div>\n\n     </div>\n</div>\n</div>\n</div>\n</div>'
    )
    assert _blocks(html) == [("div", "python", "def f():\n    pass")]


def test_nbsphinx_input_and_output_prompts_are_not_code():
    html = (
        '<div class="nbinput docutils container">\n<div class="prompt highlight-none notranslate">'
        '<div class="highlight"><pre><span></span>[1]:\n</pre></div>\n</div>\n'
        '<div class="input_area highlight-ipython3 notranslate"><div class="highlight"><pre><span></span>'
        '<span class="nb">print</span><span class="p">(</span><span class="mi">42</span><span class="p">)</span>\n'
        '</pre></div>\n</div>\n</div>\n<div class="nboutput nblast docutils container">\n'
        '<div class="prompt empty docutils container">\n</div>\n<div class="output_area docutils container">\n'
        '<div class="highlight"><pre>\n42\n</pre></div>\n</div>\n</div>'
    )
    assert _blocks(html) == [("div", "python", "print(42)"), ("div", None, "42")]
    prompt_pre = _body(html).find(".//div[@class='prompt highlight-none notranslate']//pre")
    assert not is_code_block(prompt_pre)


def test_myst_nb_cell_input():
    html = (
        '<div class="cell docutils container"><div class="cell_input docutils container">\n'
        '<div class="highlight-ipython3 notranslate"><div class="highlight"><pre><span></span>'
        '<span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n</pre></div>\n</div>\n</div>'
        '</div>'
    )
    assert _blocks(html) == [("div", "python", "x = 1")]


# --- GitHub, GitLab, Stack Exchange, MDN ----------------------------------------------------------------

def test_github_rendered_markdown_drops_the_clipboard_button():
    html = (
        '<div class="highlight highlight-source-python notranslate position-relative overflow-auto" dir="auto">'
        '<pre><span class="pl-k">def</span> <span class="pl-en">greet</span>(<span class="pl-s1">name</span>):\n'
        '    <span class="pl-k">return</span> <span class="pl-s">f"hi <span class="pl-s1"><span class="pl-kos">{</span>'
        'name<span class="pl-kos">}</span></span>"</span></pre><div class="zeroclipboard-container">\n'
        '    <clipboard-copy aria-label="Copy" class="ClipboardButton btn btn-invisible js-clipboard-copy m-2 p-0" '
        'data-copy-feedback="Copied!" data-tooltip-direction="w" value="def greet" tabindex="0" role="button">\n'
        '      <svg aria-hidden="true" height="16" viewBox="0 0 16 16" version="1.1" width="16" '
        'class="octicon octicon-copy js-clipboard-copy-icon"><path d="M0 6.75C0"></path></svg>\n'
        '    </clipboard-copy>\n  </div></div>'
    )
    assert _blocks(html) == [("div", "python", 'def greet(name):\n    return f"hi {name}"')]


def test_github_shell_and_html_scopes():
    html = (
        '<div class="highlight highlight-source-shell notranslate position-relative overflow-auto" dir="auto">'
        '<pre>npm install</pre></div>'
        '<div class="highlight highlight-text-html-basic notranslate position-relative overflow-auto" dir="auto">'
        '<pre><span class="pl-kos">&lt;</span><span class="pl-ent">p</span><span class="pl-kos">&gt;</span>hi'
        '<span class="pl-kos">&lt;/</span><span class="pl-ent">p</span><span class="pl-kos">&gt;</span></pre></div>'
    )
    assert _blocks(html) == [("div", "bash", "npm install"), ("div", "html", "<p>hi</p>")]


def test_github_blob_table_one_line_per_row():
    html = (
        '<table class="highlight tab-size js-file-line-container" data-tab-size="8">\n      <tr>\n'
        '        <td id="L1" class="blob-num js-line-number" data-line-number="1"></td>\n'
        '        <td id="LC1" class="blob-code blob-code-inner js-file-line"><span class="pl-k">def</span> '
        '<span class="pl-en">f</span>():</td>\n      </tr>\n      <tr>\n'
        '        <td id="L2" class="blob-num js-line-number" data-line-number="2"></td>\n'
        '        <td id="LC2" class="blob-code blob-code-inner js-file-line">\n</td>\n      </tr>\n      <tr>\n'
        '        <td id="L3" class="blob-num js-line-number" data-line-number="3"></td>\n'
        '        <td id="LC3" class="blob-code blob-code-inner js-file-line">\t<span class="pl-k">return</span> '
        '<span class="pl-c1">1</span></td>\n      </tr>\n</table>'
    )
    assert _blocks(html) == [("table", None, "def f():\n\n\treturn 1")]


def test_gitlab_markdown_code_block():
    html = (
        '<div class="gl-relative markdown-code-block js-markdown-code">'
        '<pre class="code highlight js-syntax-highlight language-ruby" lang="ruby" v-pre="true"><code>'
        '<span id="LC1" class="line" lang="ruby"><span class="nb">puts</span> <span class="s2">"hi"</span></span>\n'
        '<span id="LC2" class="line" lang="ruby"><span class="k">end</span></span></code></pre>'
        '<copy-code><button class="btn btn-default" title="Copy to clipboard">Copy</button></copy-code></div>'
    )
    assert _blocks(html) == [("div", "ruby", 'puts "hi"\nend')]


def test_stack_exchange_pre():
    html = (
        '<pre class="lang-py s-code-block"><code class="hljs language-python"><span class="hljs-keyword">for</span> '
        'i <span class="hljs-keyword">in</span> <span class="hljs-built_in">range</span>(<span class="hljs-number">'
        '3</span>):\n'
        '    <span class="hljs-built_in">print</span>(i)\n</code></pre>'
        '<pre class="lang-none s-code-block"><code>plain output\n</code></pre>'
    )
    assert _blocks(html) == [("pre", "python", "for i in range(3):\n    print(i)"), ("pre", None, "plain output")]


def test_mdn_code_example_and_brush_class():
    html = (
        '<div class="code-example"><div class="example-header"><span class="language-name">js</span></div>'
        '<pre class="brush: js notranslate"><code><span class="token keyword">const</span> x '
        '<span class="token operator">=</span> <span class="token number">1</span>'
        '<span class="token punctuation">;</span>\n</code></pre></div>'
    )
    assert _blocks(html) == [("div", "javascript", "const x = 1;")]


# --- highlight.js, Prism, Docusaurus, SyntaxHighlighter, Hexo, Rouge, Chroma, pandoc ---------------------

def test_highlightjs_line_numbers_plugin_table():
    html = (
        '<pre><code class="hljs language-python"><table class="hljs-ln"><tbody><tr>'
        '<td class="hljs-ln-line hljs-ln-numbers" data-line-number="1"><div class="hljs-ln-n" data-line-number="1">'
        '</div></td>'
        '<td class="hljs-ln-line hljs-ln-code" data-line-number="1"><span class="hljs-keyword">def</span> '
        '<span class="hljs-title">f</span>():</td></tr><tr>'
        '<td class="hljs-ln-line hljs-ln-numbers" data-line-number="2"><div class="hljs-ln-n" data-line-number="2">'
        '</div></td>'
        '<td class="hljs-ln-line hljs-ln-code" data-line-number="2">    <span class="hljs-keyword">return</span> '
        '<span class="hljs-number">2</span></td></tr></tbody></table></code></pre>'
    )
    assert _blocks(html) == [("pre", "python", "def f():\n    return 2")]


def test_highlightjs_before_v10_bare_language_token():
    assert _blocks('<pre><code class="hljs ruby">puts 1</code></pre>') == [("pre", "ruby", "puts 1")]


def test_prism_line_numbers_rows_and_toolbar():
    html = (
        '<div class="code-toolbar"><pre class="line-numbers language-python" tabindex="0"><code '
        'class="language-python">'
        '<span class="token keyword">def</span> <span class="token function">f</span><span class="token punctuation">'
        '(</span>'
        '<span class="token punctuation">)</span><span class="token punctuation">:</span>\n'
        '    <span class="token keyword">return</span> <span class="token number">1</span>'
        '<span aria-hidden="true" class="line-numbers-rows"><span></span><span></span></span></code></pre>'
        '<div class="toolbar"><div class="toolbar-item"><span>Python</span></div><div class="toolbar-item">'
        '<button class="copy-to-clipboard-button" type="button" data-copy-state="copy"><span>Copy</span></button>'
        '</div></div></div>'
    )
    assert _blocks(html) == [("div", "python", "def f():\n    return 1")]


def test_docusaurus_token_lines_with_blank_line_and_copy_button():
    html = (
        '<div class="language-bash codeBlockContainer_jDV4 theme-code-block" style="--prism-color:#393A34">'
        '<div class="codeBlockContent_cKMj"><pre tabindex="0" class="prism-code language-bash codeBlock_Gebt '
        'thin-scrollbar">'
        '<code class="codeBlockLines_FJaf"><div class="token-line" style="color:#393A34">'
        '<span class="token builtin class-name">cd</span><span class="token plain"> my-website</span><br></div>'
        '<div class="token-line"><span class="token plain" style="display:inline-block"></span><br></div>'
        '<div class="token-line"><span class="token plain">npx docusaurus start</span><br></div></code></pre>'
        '<div class="buttonGroup__atx"><button type="button" aria-label="Copy code to clipboard" title="Copy" '
        'class="clean-btn"><span class="copyButtonIcons_eSgA" aria-hidden="true"><svg viewBox="0 0 24 24">'
        '<path d="M19"></path></svg></span></button></div></div></div>'
    )
    assert _blocks(html) == [("div", "bash", "cd my-website\n\nnpx docusaurus start")]


def test_docusaurus_block_with_a_title_leaves_the_title_to_the_caller():
    html = (
        '<div class="language-js codeBlockContainer_jDV4 theme-code-block">'
        '<div class="codeBlockTitle_Ktv7">src/index.js</div><div class="codeBlockContent_cKMj">'
        '<pre class="prism-code language-js"><code><div class="token-line">x<br></div></code></pre></div></div>'
    )
    body = _body(html)
    assert not is_code_block(body[0])
    assert _blocks(html) == [("pre", "javascript", "x")]


def test_syntaxhighlighter_lines_gutter_and_nbsp_indentation():
    html = (
        '<div id="highlighter_123" class="syntaxhighlighter  python"><div class="toolbar"><span>'
        '<a href="#" class="toolbar_item command_help help">?</a></span></div>'
        '<table border="0" cellpadding="0" cellspacing="0"><tbody><tr><td class="gutter">'
        '<div class="line number1 index0 alt2">1</div><div class="line number2 index1 alt1">2</div>'
        '<div class="line number3 index2 alt2">3</div></td><td class="code"><div class="container">'
        '<div class="line number1 index0 alt2"><code class="python keyword">def</code> <code class="python plain">'
        'f():</code></div>'
        '<div class="line number2 index1 alt1">&nbsp;</div>'
        '<div class="line number3 index2 alt2"><code class="python spaces">&nbsp;&nbsp;&nbsp;&nbsp;</code>'
        '<code class="python keyword">return</code> <code class="python value">1</code></div></div></td></tr></tbody>'
        '</table></div>'
    )
    assert _blocks(html) == [("div", "python", "def f():\n\n    return 1")]


def test_syntaxhighlighter_before_its_script_ran():
    html = '<pre class="brush: csharp; gutter: false; toolbar: false">var x = a &lt; b;\n</pre>'
    assert _blocks(html) == [("pre", "csharp", "var x = a < b;")]


def test_hexo_figure_with_gutter_table():
    html = (
        '<figure class="highlight python"><table><tr><td class="gutter"><pre><span class="line">1</span><br>'
        '<span class="line">2</span><br></pre></td><td class="code"><pre><span class="line">'
        '<span class="keyword">if</span> x:</span><br><span class="line">    <span class="keyword">pass</span></span>'
        '<br>'
        '</pre></td></tr></table></figure>'
    )
    assert _blocks(html) == [("figure", "python", "if x:\n    pass")]


def test_rouge_table_inside_pre():
    html = (
        '<figure class="highlight"><pre><code class="language-ruby" data-lang="ruby"><table class="rouge-table"><tbody>'
        '<tr><td class="gutter gl"><pre class="lineno">1\n2\n</pre></td><td class="code"><pre>'
        '<span class="k">def</span> <span class="nf">foo</span>\n<span class="k">end</span>\n</pre></td></tr>'
        '</tbody></table></code></pre></figure>'
    )
    assert _blocks(html) == [("figure", "ruby", "def foo\nend")]


def test_jekyll_rouge_without_line_numbers():
    html = (
        '<div class="language-yml highlighter-rouge"><div class="highlight"><pre class="highlight"><code>'
        '<span class="na">title</span><span class="pi">:</span> <span class="s">Blog</span>\n</code></pre></div></div>'
    )
    assert _blocks(html) == [("div", "yaml", "title: Blog")]


def test_hugo_chroma_inline_and_table_line_numbers():
    inline = (
        '<div class="highlight"><pre tabindex="0" class="chroma"><code class="language-go" data-lang="go">'
        '<span class="line"><span class="ln">1</span><span class="cl"><span class="kn">package</span> '
        '<span class="nx">main</span>\n</span></span><span class="line"><span class="ln">2</span><span class="cl">\n'
        '</span></span><span class="line"><span class="ln">3</span><span class="cl"><span class="kd">func</span> '
        '<span class="nf">main</span><span class="p">()</span> <span class="p">{}</span>\n</span></span></code></pre>'
        '</div>'
    )
    table = (
        '<div class="highlight"><div class="chroma"><table class="lntable"><tr><td class="lntd">'
        '<pre tabindex="0" class="chroma"><code><span class="lnt">1\n</span><span class="lnt">2\n</span></code></pre>'
        '</td>'
        '<td class="lntd"><pre tabindex="0" class="chroma"><code class="language-go" data-lang="go">'
        '<span class="line"><span class="cl">x := 1\n</span></span><span class="line"><span class="cl">y := 2\n'
        '</span></span></code></pre></td></tr></table></div></div>'
    )
    assert _blocks(inline) == [("div", "go", "package main\n\nfunc main() {}")]
    assert _blocks(table) == [("div", "go", "x := 1\ny := 2")]


def test_pandoc_and_quarto_source_code():
    pandoc = (
        '<div class="sourceCode" id="cb1"><pre class="sourceCode python"><code class="sourceCode python">'
        '<span id="cb1-1"><a href="#cb1-1" aria-hidden="true" tabindex="-1"></a><span class="im">import</span> '
        'sys</span>\n'
        '<span id="cb1-2"><a href="#cb1-2" aria-hidden="true" tabindex="-1"></a><span class="bu">print</span>'
        '(sys.argv)</span>'
        '</code></pre></div>'
    )
    quarto = (
        '<div class="sourceCode cell-code" id="cb2"><pre class="sourceCode r code-with-copy"><code class="sourceCode '
        'r">'
        '<span id="cb2-1"><span class="fu">summary</span>(cars)</span></code>'
        '<button title="Copy to Clipboard" class="code-copy-button"><i class="bi"></i></button></pre></div>'
    )
    old_pandoc = (
        '<table class="sourceCode haskell numberLines"><tr class="sourceCode"><td class="lineNumbers"><pre>1\n</pre>'
        '</td>'
        '<td class="sourceCode"><pre><code class="sourceCode haskell">main <span class="fu">=</span> '
        'return ()</code></pre></td></tr></table>'
    )
    assert _blocks(pandoc) == [("div", "python", "import sys\nprint(sys.argv)")]
    assert _blocks(quarto) == [("div", "r", "summary(cars)")]
    assert _blocks(old_pandoc) == [("table", "haskell", "main = return ()")]


def test_codehilite_and_mkdocs_material():
    codehilite = (
        '<div class="codehilite"><pre><span></span><code><span class="n">a</span> <span class="o">=</span> 1\n'
        '</code></pre></div>'
    )
    material = (
        '<div class="language-python highlight"><pre><span></span><code><span id="__span-0-1">'
        '<a id="__codelineno-0-1" name="__codelineno-0-1" href="#__codelineno-0-1"></a><span class="k">pass</span>\n'
        '</span></code></pre><button class="md-clipboard md-icon" title="Copy to clipboard" '
        'data-clipboard-target="#__code_0 &gt; code"></button></div>'
    )
    assert _blocks(codehilite) == [("div", None, "a = 1")]
    assert _blocks(material) == [("div", "python", "pass")]


def test_codemirror5_editor_lines():
    html = (
        '<div class="CodeMirror cm-s-default"><div style="overflow: hidden; position: relative;"><textarea></textarea>'
        '</div>'
        '<div class="CodeMirror-scroll"><div class="CodeMirror-sizer"><div style="position: relative;">'
        '<div class="CodeMirror-lines" role="presentation"><div role="presentation" style="position: relative;">'
        '<div class="CodeMirror-measure"><pre class="CodeMirror-line-like"><span>xxxxxxxxxx</span></pre></div>'
        '<div class="CodeMirror-cursors"></div><div class="CodeMirror-code" role="presentation">'
        '<div style="position: relative;"><div class="CodeMirror-gutter-wrapper"><div class="CodeMirror-linenumber">'
        '1</div></div>'
        '<pre class=" CodeMirror-line " role="presentation"><span role="presentation"><span class="cm-keyword">'
        'if</span> x:</span></pre></div>'
        '<div style="position: relative;"><pre class=" CodeMirror-line " role="presentation"><span role="presentation">'
        '<span cm-text="">\u200b</span></span></pre></div>'
        '<div style="position: relative;"><pre class=" CodeMirror-line " role="presentation"><span role="presentation">'
        '    go()</span></pre></div></div></div></div></div></div></div>'
    )
    assert _blocks(html) == [("div", None, "if x:\n\n    go()")]


# --- lists, empty lines, edge cases ---------------------------------------------------------------------

def test_pre_inside_a_list_item_keeps_its_indentation():
    html = (
        '<ol>\n  <li>\n    <p>Run:</p>\n    <div class="highlight-python notranslate"><div class="highlight"><pre>'
        '<span></span>'
        '<span class="k">for</span> <span class="n">x</span> <span class="ow">in</span> <span class="n">xs</span>'
        '<span class="p">:</span>\n    <span class="nb">print</span><span class="p">(</span><span class="n">x</span>'
        '<span class="p">)</span>\n</pre></div>\n</div>\n  </li>\n  <li><p>Then:</p><pre><code class="language-bash">'
        '  make install\n</code></pre></li>\n</ol>'
    )
    assert _blocks(html) == [
        ("div", "python", "for x in xs:\n    print(x)"),
        ("pre", "bash", "  make install"),
    ]


def test_first_line_indentation_kept_blank_edges_trimmed_br_is_a_newline():
    html = '<pre>\n\n    indented()\n  \nlast()<br>after()<br>\n\n</pre>'
    assert code_text(_body(html).find("pre")) == "    indented()\n  \nlast()\nafter()"


def test_copy_text_and_buttons_inside_pre_are_not_code():
    html = '<pre><button class="copybtn">Copy</button><span class="copy-button">Copy</span>x = 1</pre>'
    assert code_text(_body(html).find("pre")) == "x = 1"


def test_sphinx_copybutton_beside_pre_keeps_the_wrapper_a_block():
    html = (
        '<div class="highlight-python notranslate"><div class="highlight"><pre id="codecell0"><span></span>x\n</pre>'
        '<button class="copybtn o-tooltip--left" data-tooltip="Copy" data-clipboard-target="#codecell0">'
        '<svg><title>Copy to clipboard</title></svg></button></div></div>'
    )
    assert _blocks(html) == [("div", "python", "x")]


def test_wrapper_with_two_blocks_is_not_one_block():
    html = '<div class="highlight"><pre>a</pre><pre>b</pre></div>'
    assert not is_code_block(_body(html)[0])
    assert _blocks(html) == [("pre", None, "a"), ("pre", None, "b")]


def test_a_page_container_with_a_language_class_is_not_a_block():
    html = '<div class="language-en"><h1>Title</h1><p>Text.</p><pre>code</pre></div>'
    assert not is_code_block(_body(html)[0])
    assert _blocks(html) == [("pre", None, "code")]


def test_no_guessing_the_language():
    assert _blocks("<pre>import os\nprint(os.sep)</pre>") == [("pre", None, "import os\nprint(os.sep)")]
    assert _blocks('<pre><code data-lang="Python3">x</code></pre>') == [("pre", "python", "x")]
    assert _blocks('<pre data-language="TypeScript">x</pre>') == [("pre", "typescript", "x")]


def test_non_code_elements():
    body = _body('<div class="content"><p>text <code>x</code></p><table><tr><td>1</td></tr></table></div>')
    assert [el.tag for el in body.iter() if is_code_block(el)] == []


# --- Markdown ---------------------------------------------------------------------------------------------

def test_fence():
    assert fence("x = 1", "python") == "```python\nx = 1\n```"
    assert fence("x", None) == "```\nx\n```"
    assert fence("a ``` b", "md") == "````md\na ``` b\n````"
    assert fence("`` x ````", None) == "`````\n`` x ````\n`````"
    assert fence("", None) == "```\n```"
    assert fence("x", "c`b d") == "```cbd\nx\n```"


def test_inline_code():
    assert inline_code("x = 1") == "`x = 1`"
    assert inline_code("a`b") == "``a`b``"
    assert inline_code("`tick") == "`` `tick ``"
    assert inline_code("ends`") == "`` ends` ``"
    assert inline_code(" both ") == "`  both  `"
    assert inline_code(" lead") == "` lead`"
    assert inline_code("a ``` b") == "````a ``` b````"
    assert inline_code("two\nlines") == "`two lines`"
    assert inline_code("") == ""


def test_is_code_chrome():
    body = _body(
        '<div class="prompt input_prompt">In&nbsp;[1]:</div><div class="jp-OutputPrompt jp-OutputArea-prompt">'
        'Out[1]:</div>'
        '<button class="copybtn">Copy</button><div class="prompt-box">x</div>'
    )
    assert [is_code_chrome(el) for el in body] == [True, True, True, False]


@pytest.mark.parametrize("html", [SPHINX])
def test_cheap_on_elements_that_are_not_code(html):
    # a page of 2,000 ordinary elements: the check must cost microseconds each
    body = _body("<div class='post'><p>Some <a href='#'>text</a> <em>here</em>.</p></div>" * 500 + html)
    elements = list(body.iter())
    start = time.perf_counter()
    blocks = [el for el in elements if is_code_block(el)]
    elapsed = time.perf_counter() - start
    # the wrapper, div.highlight and the <pre> (a top-down caller stops at the first)
    assert [el.tag for el in blocks] == ["div", "div", "pre"]
    assert elapsed < 0.05
