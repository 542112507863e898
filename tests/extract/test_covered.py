"""Matching trafilatura's text back to blocks where its choice is the page's text (``covered_flags``).

Found on GIMP's Japanese manual: trafilatura leaves out a paragraph's leading ``<span class="guimenuitem">``, so the
paragraph was not found whole in its text, and the page (a script the block model never saw, where trafilatura's
choice stands) came out with no text at all.
"""

from __future__ import annotations

import pytest

import extract.core
from extract.core import ExtractOptions, extract_raw
from extract.features import covered_flags, kept_flags
from extract.parse import parse_html
from extract.segment import Block, segment

PARAGRAPH = ("コマンドは画像全体を時計回りまたは反時計回りに九十度ずつ回転させます。レイヤーも選択範囲もガイドも"
             "一緒に回転するので、撮影したときの向きが横になってしまった写真を正しい向きに直すときに便利です。")
PAGE = f"""<html lang="ja"><head><title>画像の回転</title></head><body>
<div class="navheader"><a href="prev.html">戻る</a> <a href="next.html">次へ</a></div>
<h3>3.12. 画像の回転</h3>
<p><span class="guimenuitem">画像の回転</span> {PARAGRAPH}</p>
<p>回転は何度繰り返しても画質が落ちることはありません。任意の角度で回したいときは変形ツールの回転を使ってください。</p>
</body></html>"""


def blocks_of(html: str) -> list[Block]:
    tree, _ = parse_html(html)
    return segment(tree.find("body")).blocks


def test_a_block_trafilatura_rendered_without_its_leading_span_is_covered() -> None:
    blocks = blocks_of(PAGE)
    paragraph = next(i for i, b in enumerate(blocks) if PARAGRAPH[:10] in b.plain)
    assert not kept_flags(blocks, PARAGRAPH)[paragraph]  # the model's feature: found whole only
    assert covered_flags(blocks, PARAGRAPH)[paragraph]


def test_a_block_mostly_absent_from_the_text_or_too_short_to_place_is_not_covered() -> None:
    blocks = blocks_of(PAGE)
    flags = covered_flags(blocks, PARAGRAPH[:30])  # a third of the paragraph
    assert not any(flags)
    # most of the headline's characters are in the text, but a short block counts only where it is found whole
    headline = [b.kind for b in blocks].index("h3")
    assert not covered_flags(blocks, "画像の回転 " + PARAGRAPH)[headline]
    assert covered_flags(blocks, "3.12 画像の回転 " + PARAGRAPH)[headline]


def test_a_page_in_an_untrained_script_keeps_trafilaturas_text_with_the_span_left_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(extract.core, "full_model_text", lambda tree, url, options: PARAGRAPH)
    raw = extract_raw(PAGE, "https://manual.example/ja/rotate.html", ExtractOptions())
    assert "fallback_trafilatura.script" in raw.flags
    assert PARAGRAPH[:20] in raw.text and "戻る" not in raw.text
