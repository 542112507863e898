"""extract/tables.py: GFM pipe tables from data tables, layout tables left to the caller."""

from __future__ import annotations

from lxml import etree

from extract.parse import parse_html
from extract.tables import cell_text, is_layout_table, table_markdown


def _table(html: str) -> etree._Element:
    tree, _ = parse_html(f"<html><head><title>t</title></head><body>{html}</body></html>")
    return tree.find(".//table")


def test_list_in_a_cell_joined_with_semicolons():
    table = _table(
        '<table class="wikitable"><thead><tr><th>Library</th><th>Features</th></tr></thead><tbody>'
        '<tr><td><a href="/lxml">lxml</a></td><td>Supports:\n<ul>\n<li>XPath 1.0;</li>\n<li>XSLT <em>1.0</em></li>\n'
        '<li>C14N<ul><li>exclusive</li><li>inclusive</li></ul></li>\n</ul></td></tr>'
        '<tr><td>html5lib</td><td><ol><li>pure Python</li><li></li></ol></td></tr></tbody></table>'
    )
    assert not is_layout_table(table)
    assert table_markdown(table) == (
        "| Library | Features |\n"
        "| --- | --- |\n"
        "| lxml | Supports: XPath 1.0; XSLT 1.0; C14N exclusive; inclusive |\n"
        "| html5lib | pure Python |"
    )


def test_several_paragraphs_br_pipes_and_inline_code_in_a_cell():
    table = _table(
        '<table class="docutils align-default"><thead><tr class="row-odd"><th class="head"><p>Option</p></th>'
        '<th class="head"><p>Meaning</p></th></tr></thead><tbody><tr class="row-even"><td><p><code class="docutils '
        'literal '
        'notranslate"><span class="pre">a|b</span></code></p></td><td><p>First paragraph.</p>\n<p>Second one,<br>'
        'after a break | with a pipe.</p></td></tr><tr class="row-odd"><td><p><kbd>Ctrl</kbd>+<kbd>C</kbd></p></td>'
        '<td><p>Uses <code>`tick`</code>   and   spaces.</p></td></tr></tbody></table>'
    )
    assert table_markdown(table) == (
        "| Option | Meaning |\n"
        "| --- | --- |\n"
        "| `a\\|b` | First paragraph. Second one, after a break \\| with a pipe. |\n"
        "| `Ctrl`+`C` | Uses `` `tick` `` and spaces. |"
    )


def test_colspan_rowspan_ragged_rows_and_caption():
    table = _table(
        '<table><caption>Results <sup>[1]</sup></caption><thead><tr><th rowspan="2">Model</th><th colspan="2">'
        'Score</th>'
        '</tr><tr><th>dev</th><th>test</th></tr></thead><tbody><tr><td rowspan="2">A</td><td>1.0</td><td>2.0</td></tr>'
        '<tr><td>1.5</td></tr><tr><td>B</td><td colspan="2">n/a</td></tr><tr><td>C</td></tr>'
        '<tr><td></td><td> </td></tr></tbody></table>'
    )
    assert table_markdown(table) == (
        "Results [1]\n\n"
        "| Model | Score |  |\n"
        "| --- | --- | --- |\n"
        "| Model | dev | test |\n"
        "| A | 1.0 | 2.0 |\n"
        "| A | 1.5 |  |\n"
        "| B | n/a |  |\n"
        "| C |  |  |"
    )


def test_rowspan_stops_at_its_row_group_and_zero_spans_the_group():
    table = _table(
        '<table><thead><tr><th>k</th><th>v</th></tr></thead><tbody><tr><td rowspan="9">x</td><td>1</td></tr>'
        '<tr><td>2</td></tr></tbody><tbody><tr><td rowspan="0">y</td><td>3</td></tr><tr><td>4</td></tr></tbody>'
        '<tfoot><tr><td>total</td><td>10</td></tr></tfoot></table>'
    )
    assert table_markdown(table) == (
        "| k | v |\n| --- | --- |\n| x | 1 |\n| x | 2 |\n| y | 3 |\n| y | 4 |\n| total | 10 |"
    )


def test_tfoot_written_last_and_first_row_header_without_th():
    table = _table(
        '<table border="1"><tfoot><tr><td>Sum</td><td>3</td></tr></tfoot><tr><td>Item</td><td>Qty</td></tr>'
        '<tr><td>Apples</td><td>3</td></tr></table>'
    )
    assert table_markdown(table) == "| Item | Qty |\n| --- | --- |\n| Apples | 3 |\n| Sum | 3 |"


def test_hidden_sort_keys_images_and_math_in_cells():
    table = _table(
        '<table class="wikitable sortable"><tr><th>Name</th><th>Free</th><th>Formula</th></tr><tr>'
        '<td><span style="display:none">0001</span>Alpha</td><td><img src="/check.png" alt="Yes" width="16"></td>'
        '<td><span class="katex"><span class="katex-mathml"><math><semantics><mi>x</mi>'
        '<annotation encoding="application/x-tex">x^2 | y</annotation></semantics></math></span>'
        '<span class="katex-html" aria-hidden="true">x2|y</span></span></td></tr></table>'
    )
    assert table_markdown(table) == (
        "| Name | Free | Formula |\n| --- | --- | --- |\n| Alpha | Yes | $x^2 \\| y$ |"
    )


def test_cell_text_alone():
    td = _table('<table><tr><td>  a\n b <br/>c<p>d</p><ul><li>e</li><li>f|g</li></ul>h</td></tr></table>').find(".//td")
    assert cell_text(td) == "a b c d e; f\\|g h"


def test_multiline_code_in_a_cell_is_left_to_the_caller():
    table = _table(
        '<table><tr><th>Example</th><th>Output</th></tr><tr><td><pre>for x in y:\n    print(x)</pre></td>'
        '<td>lines</td></tr></table>'
    )
    assert not is_layout_table(table)
    assert table_markdown(table) is None
    one_line = _table('<table><tr><th>Command</th><th>Does</th></tr><tr><td><pre>ls -l\n</pre></td><td>lists</td></tr>'
                      '</table>')
    assert table_markdown(one_line) == "| Command | Does |\n| --- | --- |\n| `ls -l` | lists |"


# --- layout tables ---------------------------------------------------------------------------------------

def test_classic_layout_table_with_nested_table_and_headings():
    table = _table(
        '<table width="100%" border="0" cellpadding="0" cellspacing="0"><tr><td width="180" valign="top">'
        '<table><tr><td><a href="/">Home</a></td></tr><tr><td><a href="/about">About</a></td></tr></table></td>'
        '<td valign="top"><h1>Welcome</h1><p>This is the page text, laid out in a table cell as sites did.</p>'
        '<p>Another paragraph.</p></td></tr></table>'
    )
    assert is_layout_table(table)
    assert table_markdown(table) is None


def test_layout_rules():
    presentation = _table('<table role="presentation"><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr>'
                          '</table>')
    heading = _table('<table><tr><td><h2>News</h2><p>Today.</p></td><td>x</td></tr><tr><td>1</td><td>2</td></tr>'
                     '</table>')
    form = _table('<table><tr><td>Name</td><td><input name="n"></td></tr><tr><td>Mail</td><td>m</td></tr></table>')
    box = _table('<table><tr><td>Only one cell holding a notice.</td></tr></table>')
    one_row = _table('<table><tr><td><p>Left column text.</p></td><td><img src="a.jpg" alt="photo"></td></tr></table>')
    one_column = _table('<table><tr><td><p>Block one.</p></td></tr><tr><td><ul><li>x</li></ul></td></tr></table>')
    prose = "word " * 80
    long_prose = _table(f'<table><tr><td>Intro</td><td>{prose}</td></tr><tr><td>More</td><td>x</td></tr></table>')
    paragraphs = _table('<table><tr><td>a</td><td><p>One.</p><p>Two.</p></td></tr><tr><td>b</td><td>c</td></tr>'
                        '</table>')
    for table in (presentation, heading, form, box, one_row, one_column, long_prose, paragraphs):
        assert is_layout_table(table), etree.tostring(table)[:60]


def test_data_tables_are_not_layout():
    with_header_prose = _table(
        f'<table><tr><th>Term</th><th>Definition</th></tr><tr><td>a</td><td>{"word " * 80}</td></tr></table>')
    single_column_list = _table('<table><tr><td>one</td></tr><tr><td>two</td></tr></table>')
    single_row = _table('<table><tr><td>1</td><td>2</td><td>3</td></tr></table>')
    for table in (with_header_prose, single_column_list, single_row):
        assert not is_layout_table(table)
    assert table_markdown(single_column_list) == "| one |\n| --- |\n| two |"
    assert table_markdown(single_row) == "| 1 | 2 | 3 |\n| --- | --- | --- |"


def test_wordpress_headings_as_header_cells_are_data():
    table = _table(
        '<table style="width: 100%; border-collapse: collapse;" border="1">\n<tbody>\n<tr style="height: 23px;">\n'
        '<td>\n<h3>Platform</h3>\n</td>\n<td>\n<h3>Trustpilot rating</h3>\n</td>\n</tr>\n<tr style="height: 23px;">\n'
        '<td><strong>Brighterly</strong></td>\n<td>⭐4.4/5</td>\n</tr>\n<tr style="height: 47px;">\n'
        f'<td><strong>Tutor.com</strong></td>\n<td>{"Mixed reviews. " * 25}</td>\n</tr>\n</tbody>\n</table>'
    )
    assert not is_layout_table(table)
    assert table_markdown(table).split("\n")[:3] == [
        "| Platform | Trustpilot rating |", "| --- | --- |", "| Brighterly | ⭐4.4/5 |"]


def test_a_docbook_admonition_box_is_layout_and_a_data_table_in_a_note_is_not() -> None:
    # DocBook XSL with admon.graphics (GIMP's manual): the icon, the title as a <th>, the note's text below
    note = ('<table border="0" summary="{summary}"><tr><td rowspan="2" align="center" valign="top" width="25">'
            '<img alt="[注記]" src="images/note.png"></td><th align="left">注記</th></tr>'
            '<tr><td align="left" valign="top"><p>These options are described in Common Features.</p></td></tr>'
            '</table>')
    assert is_layout_table(_table(f'<div class="note">{note.format(summary="Note")}</div>'))
    assert is_layout_table(_table(note.format(summary="Warning")))  # the summary alone says it
    assert is_layout_table(_table(f'<div class="tip">{note.format(summary="")}</div>'))  # the class alone says it
    assert not is_layout_table(_table(note.format(summary="")))  # without either, a table with a header row
    data = '<table><tr><th>Key</th><th>Action</th></tr><tr><td>Ctrl+Z</td><td>Undo</td></tr></table>'
    # a note that holds a data table among its paragraphs: the table is data
    assert not is_layout_table(_table(f'<div class="note"><p>Shortcuts:</p>{data}</div>'))
