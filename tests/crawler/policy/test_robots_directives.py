"""Golden tests for crawler.policy.robots_directives: robots directives for a bot and the HTML head scan."""

from __future__ import annotations

import time
from typing import Any

import pytest

from crawler.policy.robots_directives import HEAD_SCAN_LIMIT, html_signals, parse_robots_directives
from tests.crawler.signal_helpers import BOT, head, outcome, verdict

# ---------------------------------------------------------------------------------------------------
# Robots directives (X-Robots-Tag, meta content)


@pytest.mark.parametrize(
    ("value", "bot", "expected"),
    [
        ("noai", BOT, {"noai"}),
        ("NoAI, NoImageAI", BOT, {"noai", "noimageai"}),
        ("noai,noimageai,nofollow", BOT, {"noai", "noimageai", "nofollow"}),
        ("  none  ", BOT, {"none"}),
        ("noindex nofollow", BOT, {"noindex", "nofollow"}),
        ("noai; noimageai", BOT, {"noai", "noimageai"}),
        # bot scoping
        ("winnowbot: noai, nofollow", BOT, {"noai", "nofollow"}),
        ("WinnowBot : NoAI", BOT, {"noai"}),
        ("winnowbot:noai", "WINNOWBOT", {"noai"}),
        ("googlebot: noai, nofollow", BOT, set()),
        ("noindex, googlebot: noai, nofollow", BOT, {"noindex"}),
        ("googlebot: noai, winnowbot: noimageai", BOT, {"noimageai"}),
        ("winnowbot: noai, googlebot: nofollow", BOT, {"noai"}),
        ("winnowbot-extended: noai", BOT, set()),
        ("otherbot: noai", "otherbot", {"noai"}),
        # directives with values are not bot prefixes
        ("max-snippet: 20, noai", BOT, {"max-snippet:20", "noai"}),
        ("max-image-preview:large, winnowbot: nofollow", BOT, {"max-image-preview:large", "nofollow"}),
        ("", BOT, set()),
        (" , ,; ", BOT, set()),
        ("winnowbot:", BOT, set()),
    ],
)
def test_parse_robots_directives(value: str, bot: str, expected: set[str]) -> None:
    assert parse_robots_directives(value, bot) == expected


def test_unavailable_after_date_is_not_a_bot_scope() -> None:
    got = parse_robots_directives("unavailable_after: Friday, 25-Jun-2010 15:00:00 PST, noai", BOT)
    assert "noai" in got
    assert any(d.startswith("unavailable_after:") for d in got)


# ---------------------------------------------------------------------------------------------------
# HTML head scanning


@pytest.mark.parametrize(
    "tag",
    [
        '<meta name="robots" content="noai">',
        "<meta name='robots' content='noai' />",
        "<meta name=robots content=noai>",
        '<META CONTENT="NoAI" NAME="ROBOTS">',
        '<meta\n  content="noai"\n  name="Robots"\n>',
        '<meta data-x="a>b" name="robots" content="noai">',
        '<meta name=" robots " content=" noai ">',
    ],
)
def test_html_meta_attribute_forms(tag: str) -> None:
    assert html_signals(head(tag), BOT)["robots"] == ["noai"]


def test_html_multiple_meta_tags_and_sources() -> None:
    got = html_signals(
        head(
            '<meta name="robots" content="noindex, noai">',
            '<meta name="robots" content="noimageai">',
            '<meta name="WinnowBot" content="nofollow">',
            '<meta name="googlebot" content="none">',
            '<meta name="tdm-reservation" content="1">',
            '<meta name="tdm-policy" content="https://example.org/policy?a=1&amp;b=2">',
            '<meta name="description" content="noai">',
        ),
        BOT,
    )
    assert got == {
        "robots": ["noindex", "noai", "noimageai", "nofollow"],
        "meta-robots": ["noindex", "noai", "noimageai"],
        "meta-bot": ["nofollow"],
        "tdm-reservation": ["1"],
        "tdm-policy": ["https://example.org/policy?a=1&b=2"],
    }


@pytest.mark.parametrize(
    "doc",
    [
        head(body='<meta name="robots" content="noai">'),  # after </head>
        '<html><head><title>x</title><body><meta name="robots" content="noai">',  # head closed implicitly
        head('<!-- <meta name="robots" content="noai"> -->'),
        head('<script>document.write(\'<meta name="robots" content="noai">\')</script>'),
        head('<template><meta name="robots" content="noai"></template>'),
        head('<meta name="robots">'),  # no content
        head('<meta content="noai">'),  # no name
        head('<meta http-equiv="robots" content="noai">'),
    ],
)
def test_html_ignores_meta_outside_head_or_inert(doc: str) -> None:
    assert html_signals(doc, BOT)["robots"] == []


def test_html_bytes_with_any_charset_never_raise() -> None:
    doc = b'<html><head><meta charset="latin-1"><title>caf\xe9</title><meta name="robots" content="noai"></head>'
    assert html_signals(doc, BOT)["robots"] == ["noai"]
    assert html_signals(b"\xff\xfe<\x00h\x00", BOT)["robots"] == []
    assert html_signals("", BOT)["robots"] == []


def test_html_scans_a_bounded_prefix_only() -> None:
    filler = "<link rel=x>" * (HEAD_SCAN_LIMIT // 12 + 10)
    late = f'<html><head>{filler}<meta name="robots" content="noai"></head>'
    assert html_signals(late, BOT)["robots"] == []
    assert html_signals(late.encode(), BOT)["robots"] == []
    early = '<html><head><meta name="robots" content="noai">' + filler + "</head>"
    assert html_signals(early, BOT)["robots"] == ["noai"]


class GuardedBytes(bytes):
    """A body that fails the test if anything but a bounded prefix slice is read from it."""

    largest_slice = 0

    def __getitem__(self, key: Any) -> Any:
        if not isinstance(key, slice) or key.stop is None or key.start not in (None, 0):
            raise AssertionError(f"unbounded read {key!r}")
        GuardedBytes.largest_slice = max(GuardedBytes.largest_slice, key.stop)
        return super().__getitem__(key)

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the whole body was read")

    decode = find = index = lower = split = count = startswith = __iter__ = __contains__ = _refuse  # type: ignore[assignment]


def test_twenty_megabyte_body_is_fast_and_only_a_prefix_is_read() -> None:
    body = b"<p>" + b"word " * (4 * 1024 * 1024) + b'<meta name="robots" content="noai"></p>'
    doc = b'<html><head><meta name="robots" content="nofollow"></head><body>' + body + b"</body></html>"
    assert len(doc) > 20_000_000
    guarded = GuardedBytes(doc)
    start = time.perf_counter()
    got = html_signals(guarded, BOT)
    v = verdict(html=guarded)
    elapsed = time.perf_counter() - start
    assert got["robots"] == ["nofollow"]
    assert outcome(v) == (True, True, False)
    assert 0 < GuardedBytes.largest_slice <= HEAD_SCAN_LIMIT
    assert elapsed < 0.5, elapsed
