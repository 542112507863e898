"""The render detector (crawler/render/detect.py): which raw pages need JavaScript. Pure, no browser."""

from __future__ import annotations

import pytest

from crawler.render.detect import EXTERNAL_SCRIPT_CHARS, assess, text_gain, visible_words

WORDS_300 = " ".join(f"Bread and rivers sentence {i} is here." for i in range(50))


def page(body: str, head: str = "") -> str:
    return f"<!doctype html><html><head><title>T</title>{head}</head><body>{body}</body></html>"


@pytest.mark.parametrize(("html", "reason"), [
    # Empty SPA mount points, as create-react-app, Vue CLI, Next.js, Nuxt, Gatsby and Angular emit them.
    (page('<div id="root"></div><script src="/static/js/main.js"></script>'), "spa_root"),
    (page('<div id="app"></div><script type="module" src="/src/main.ts"></script>'), "spa_root"),
    (page('<div id="__next"></div>'), "spa_root"),
    (page('<div id="__nuxt"> </div>'), "spa_root"),
    (page("<app-root></app-root><script src=main.js></script>"), "spa_root"),
    (page('<main data-reactroot=""></main>'), "spa_root"),
    # noscript warnings, in the head or the body.
    (page("<p>Loading</p>", head="<noscript>You need to enable JavaScript to run this app.</noscript>"),
     "noscript_warning"),
    (page("<noscript><p>JavaScript is required to view this site.</p></noscript><div class=shell></div>"),
     "noscript_warning"),
    (page("<noscript>This page does not work without JavaScript</noscript>"), "noscript_warning"),
    # Little text against big scripts.
    (page("<p>Welcome</p><script>" + "var x=1;" * 2000 + "</script>"), "script_heavy"),
    (page("<h1>Shop</h1><p>Loading products</p><script src=a.js></script><script src=b.js></script>"),
     "script_heavy"),
])
def test_pages_that_need_rendering(html, reason):
    result = assess(html)
    assert result.needed and result.reason == reason


@pytest.mark.parametrize("html", [
    page(f"<article><p>{WORDS_300}</p></article><script src=/analytics.js async></script>"),
    # A server-rendered app: the mount point is full.
    page(f'<div id="root"><p>{WORDS_300}</p></div><script src=/bundle.js></script>'),
    # A widget mount point on a page with plenty of text.
    page(f'<p>{WORDS_300}</p><div id="app"></div><script src=widget.js></script>'),
    # A noscript note on a page that works without JavaScript.
    page(f"<p>{WORDS_300}</p><noscript>Enable JavaScript for comments.</noscript>"),
    # Tracking pixels in noscript are not warnings.
    page("<p>Short page, no scripts at all.</p><noscript><img src=/pixel.gif></noscript>"),
    # JSON data blocks are not code.
    page("<p>Short page.</p><script type=application/ld+json>" + '{"a": 1}' * 3000 + "</script>"),
    "",
    "   ",
    b"\x00\x01 not html at all",
])
def test_pages_that_do_not(html):
    assert not assess(html).needed


def test_measurements_and_bytes_input():
    html = page("<p>one two three</p><script>abcd</script><script src=x.js></script><style>p{}</style>")
    result = assess(html.encode())
    assert (result.words, result.external_scripts) == (3, 1)
    assert result.script_chars == 4 + EXTERNAL_SCRIPT_CHARS
    assert result.text_chars == len("one two three")


def test_xml_declaration_in_text():
    result = assess('<?xml version="1.0" encoding="utf-8"?><html><body><div id="app"></div></body></html>')
    assert result.reason == "spa_root"


def test_visible_words_ignore_scripts_styles_and_head():
    html = page("<p>alpha beta</p><script>gamma delta</script><style>epsilon</style><template>zeta</template>",
                head="<title>title words</title>")
    assert visible_words(html) == 2


@pytest.mark.parametrize(("raw", "rendered", "helped"), [
    (0, 120, True), (10, 300, True), (0, 30, False), (200, 260, False), (100, 199, False), (100, 200, True),
])
def test_text_gain(raw, rendered, helped):
    assert text_gain(raw, rendered) is helped
