"""Golden tests for crawler.signals: the per-page training-use verdict and every parser behind it."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from crawler.signals import (
    HEAD_SCAN_LIMIT,
    TdmRep,
    Verdict,
    content_usage_denies_training,
    html_signals,
    page_verdict,
    parse_content_usage,
    parse_robots_directives,
)

BOT = "winnowbot"
URL = "https://example.org/articles/one.html"


def head(*metas: str, body: str = "<p>text</p>") -> str:
    return f"<!doctype html><html><head><title>t</title>{''.join(metas)}</head><body>{body}</body></html>"


def verdict(**kw: Any) -> Verdict:
    kw.setdefault("url", URL)
    kw.setdefault("bot_name", BOT)
    kw.setdefault("crawl_allowed", True)
    return page_verdict(**kw)


def outcome(v: Verdict) -> tuple[bool, bool, bool]:
    return v.training_allowed, v.images_allowed, v.follow_links


# ---------------------------------------------------------------------------------------------------
# Content-Usage parsing (RFC 9651 Dictionary, draft-ietf-aipref-vocab processing)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("train-ai=n", {"train-ai": False}),
        ("train-ai=y, search=n", {"train-ai": True, "search": False}),
        ("train-ai=n,search=y", {"train-ai": False, "search": True}),
        ("   train-ai=n\t ", {"train-ai": False}),
        ("train-ai=n ,\tsearch=y", {"train-ai": False, "search": True}),
        # lenient: case and whitespace around '=' / ';'
        ("TRAIN-AI=N", {"train-ai": False}),
        ("Train-Ai = N", {"train-ai": False}),
        ("train-ai=n ; note=1", {"train-ai": False}),
        # parameters are ignored
        ('train-ai=n;source="cdn";v=2', {"train-ai": False}),
        # only the Tokens y / n are preferences
        ('train-ai="n"', {}),
        ("train-ai", {}),
        ("train-ai=?0", {}),
        ("train-ai=0", {}),
        ("train-ai=no", {}),
        ("train-ai=(n)", {}),
        # a repeated key keeps its last value (the vocabulary's examples)
        ("train-ai=y, train-ai=n", {"train-ai": False}),
        ("train-ai=n, train-ai=y", {"train-ai": True}),
        ('train-ai=y, train-ai, search=n, search="n"', {}),
        ("train-ai;allow=n, train-ai=y", {"train-ai": True}),
        # unknown keys are kept, other members still parse
        ('foo-bar=n, train-ai=y, x=:aGk=:, d=@1700000000, s=%"caf%c3%a9"', {"foo-bar": False, "train-ai": True}),
        ("train-genai=n, ai-use=y, all=y", {"train-genai": False, "ai-use": True, "all": True}),
        (b"train-ai=n", {"train-ai": False}),
    ],
)
def test_parse_content_usage(value: Any, expected: dict[str, bool]) -> None:
    assert parse_content_usage(value) == expected


@pytest.mark.parametrize(
    "value",
    [
        "",
        "   ",
        "train-ai=n,",
        "train-ai=n, %%%",
        "train-ai=n search=y",
        "=n",
        "1train=n",
        "train-ai=n, , search=y",
        "train-ai=é",
        "train-ai=n\x00",
        'train-ai="unterminated',
        'train-ai="bad\\escape"',
        "train-ai=(y n",
        "train-ai=:not base64!:",
        "train-ai=?2",
        "train-ai=1234567890123456",
        "train-ai=1.2345",
        'train-ai=%"BAD%ZZ"',
        "train-ai=n; =x",
        "{train-ai: n}",
        "<html>",
        "train-ai=n\ntrain-ai=y",
    ],
)
def test_parse_content_usage_invalid_gives_no_preferences(value: str) -> None:
    assert parse_content_usage(value) == {}


@pytest.mark.parametrize("value", [None, 7, ["train-ai=n"], {"train-ai": "n"}])
def test_parse_content_usage_wrong_type_never_raises(value: Any) -> None:
    assert parse_content_usage(value) == {}


@pytest.mark.parametrize(
    ("prefs", "denied"),
    [
        ({}, False),
        ({"train-ai": False}, True),
        ({"train-ai": True}, False),
        # 2025 drafts: train-genai is the most specific category of generative training
        ({"train-genai": False}, True),
        ({"train-genai": False, "train-ai": True}, True),
        # -08 reads only train-ai; the more restrictive of the two readings wins
        ({"train-ai": False, "train-genai": True}, True),
        # "all" (Automated Processing) is inherited when nothing more specific is said
        ({"all": False}, True),
        ({"all": False, "train-ai": True}, False),
        ({"all": False, "train-genai": True}, False),
        ({"all": True}, False),
        # -00/-01 labels
        ({"ai": False}, True),
        ({"genai": False}, True),
        ({"tdm": False}, True),
        ({"tdm": False, "ai": True}, False),
        # search and ai-use never decide training
        ({"search": False}, False),
        ({"ai-use": False}, False),
        ({"search": True, "train-ai": False}, True),
        ({"inference": False, "foo": False}, False),
    ],
)
def test_content_usage_denies_training(prefs: dict[str, bool], denied: bool) -> None:
    assert content_usage_denies_training(prefs) is denied


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


# ---------------------------------------------------------------------------------------------------
# tdmrep.json

SPEC_EXAMPLE = """[
  {"location": "/directory-a/", "tdm-reservation": 1},
  {"location": "/directory-b/html/", "tdm-reservation": 1, "tdm-policy": "https://provider.com/policies/policy.json"},
  {"location": "/directory-b/images/*.jpg", "tdm-reservation": 0}
]"""


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/directory-a/doc.pdf", (True, None)),
        ("/directory-a/", (True, None)),
        ("/directory-a", (None, None)),
        ("/directory-b/html/page.html", (True, "https://provider.com/policies/policy.json")),
        ("/directory-b/images/cat.jpg", (False, None)),
        ("/directory-b/images/sub/cat.jpg", (False, None)),
        ("/directory-b/images/cat.jpgx", (False, None)),  # no '$': a prefix match
        ("/directory-b/images/cat.png", (None, None)),
        ("/directory-A/doc.pdf", (None, None)),  # case-sensitive
        ("/elsewhere", (None, None)),
        ("https://provider.com/directory-a/doc.pdf?x=1", (True, None)),
    ],
)
def test_tdmrep_spec_example(path: str, expected: tuple[bool | None, str | None]) -> None:
    assert TdmRep.parse(SPEC_EXAMPLE).reservation_for(path) == expected


def rules(*entries: tuple[str, int]) -> TdmRep:
    import json

    return TdmRep.parse(json.dumps([{"location": loc, "tdm-reservation": r} for loc, r in entries]))


@pytest.mark.parametrize(
    ("tdm", "path", "reserved"),
    [
        # the most specific (longest) location wins, whatever the order in the file
        (rules(("/", 1), ("/public/", 0)), "/public/a", False),
        (rules(("/public/", 0), ("/", 1)), "/public/a", False),
        (rules(("/", 0), ("/private/", 1)), "/private/a", True),
        (rules(("/", 0), ("/private/", 1)), "/other", False),
        # equally specific: the first in sequence
        (rules(("/a/", 1), ("/a/", 0)), "/a/x", True),
        (rules(("/a/", 0), ("/a/", 1)), "/a/x", False),
        # wildcards and the end anchor
        (rules(("/*.pdf$", 1)), "/docs/a.pdf", True),
        (rules(("/*.pdf$", 1)), "/docs/a.pdf?download=1", None),
        (rules(("/*.pdf$", 1)), "/docs/a.pdfx", None),
        (rules(("/*.pdf", 1)), "/docs/a.pdf?download=1", True),
        (rules(("/*/private/", 1)), "/team/private/x", True),
        (rules(("/*/private/", 1)), "/private/x", None),
        (rules(("*", 1)), "/anything", True),
        (rules(("/exact$", 1)), "/exact", True),
        (rules(("/exact$", 1)), "/exact/more", None),
        (rules(("/fish*", 1)), "/fish.html", True),
        (rules(("/fish*", 1)), "/Fish.html", None),
        (rules(("/a/*", 0), ("/a/b/", 1)), "/a/b/c", True),
        (rules(("/a/*", 0), ("/a/b", 1)), "/a/b/c", False),  # equally long (4 octets): the first in sequence
        # query strings are part of what is matched
        (rules(("/search?q=", 1)), "/search?q=cats", True),
        # percent-encoding: unreserved characters compare decoded, others stay encoded (and '$' literal)
        (rules(("/%7Euser/", 1)), "/~user/page", True),
        (rules(("/~user/", 1)), "/%7euser/page", True),
        (rules(("/caf%C3%A9/", 1)), "/café/menu", True),
        (rules(("/café/", 1)), "/caf%c3%a9/menu", True),
        (rules(("/path/foo-%24", 1)), "/path/foo-$", True),
        (rules(("/a%2Fb", 1)), "/a/b", None),
        (rules(("/", 1)), "", True),
    ],
)
def test_tdmrep_location_matching(tdm: TdmRep, path: str, reserved: bool | None) -> None:
    assert tdm.reservation_for(path)[0] is reserved


def test_tdmrep_hostile_location_is_cheap() -> None:
    tdm = rules(("/" + "*a" * 200 + "*b$", 1), ("/**" + "x" * 50 + "***", 1))
    start = time.perf_counter()
    for _ in range(20):
        assert tdm.reservation_for("/" + "a" * 5000) == (None, None)
    assert time.perf_counter() - start < 0.5
    assert tdm.reservation_for("/" + "a" * 300 + "b")[0] is True
    assert tdm.reservation_for("/q/" + "x" * 50)[0] is True


@pytest.mark.parametrize(
    ("value", "reserved"),
    [(1, True), (0, False), (1.0, True), ("1", True), (" 0 ", False), (2, None), (True, None), (None, None)],
)
def test_tdmrep_reservation_values(value: Any, reserved: bool | None) -> None:
    import json

    tdm = TdmRep.parse(json.dumps([{"location": "/", "tdm-reservation": value}]))
    assert tdm.reservation_for("/x")[0] is reserved


@pytest.mark.parametrize(
    "text",
    ["", "not json", "{", "{}", "null", '"x"', "1", '{"location": "/", "tdm-reservation": 1}', b"\xff\xfe\x00", None],
)
def test_tdmrep_invalid_file_is_empty_with_error(text: Any) -> None:
    tdm = TdmRep.parse(text)
    assert tdm.rules == ()
    assert tdm.error
    assert tdm.reservation_for("/") == (None, None)


def test_tdmrep_invalid_rules_are_skipped() -> None:
    tdm = TdmRep.parse(
        b'\xef\xbb\xbf[{"location": "/a/", "tdm-reservation": 2},'
        b' {"location": "/a/", "tdm-reservation": true},'
        b' {"location": "/a/", "tdm-reservation": "yes"},'
        b' {"tdm-reservation": 1}, {"location": 5, "tdm-reservation": 1}, {"location": "a/", "tdm-reservation": 1},'
        b' "junk", null, [],'
        b' {"location": "/a/", "tdm-reservation": "1", "tdm-policy": " https://p.example/t "},'
        b' {"location": "https://host.example/b/", "tdm-reservation": 0, "tdm-policy": 7}]'
    )
    assert tdm.error is None
    assert tdm.skipped == 9
    assert tdm.reservation_for("/a/x") == (True, "https://p.example/t")
    assert tdm.reservation_for("/b/x") == (False, None)
    assert TdmRep.parse("[]") == TdmRep()


# ---------------------------------------------------------------------------------------------------
# page_verdict: each signal alone flips the verdict exactly as specified

ALLOWED = (True, True, True)
NO_TRAINING = (False, False, True)
NO_IMAGES = (True, False, True)
NO_FOLLOW = (True, True, False)

SINGLE_SIGNALS: list[tuple[str, dict[str, Any], tuple[bool, bool, bool], tuple[str, ...]]] = [
    ("nothing", {}, ALLOWED, ()),
    ("crawl disallowed", {"crawl_allowed": False}, NO_TRAINING, ("input:crawl_allowed=false",)),
    (
        "training token disallowed",
        {"training_token_allowed": False, "robots_signals": ("robots:winnowbot-Extended=disallow",)},
        NO_TRAINING,
        ("robots:winnowbot-Extended=disallow", "input:training_token_allowed=false"),
    ),
    (
        "robots signals passed through",
        {"robots_signals": ("robots:winnowbot=allow", "robots:winnowbot-Extended=allow")},
        ALLOWED,
        ("robots:winnowbot=allow", "robots:winnowbot-Extended=allow"),
    ),
    (
        "robots.txt content-usage n",
        {"robots_content_usage": "train-ai=n"},
        NO_TRAINING,
        ("robots:content-usage=train-ai=n",),
    ),
    (
        "robots.txt content-usage y",
        {"robots_content_usage": "train-ai=y"},
        ALLOWED,
        ("robots:content-usage=train-ai=y",),
    ),
    (
        "robots.txt content-usage with its path left in",
        {"robots_content_usage": "/ train-ai=n"},
        NO_TRAINING,
        ("robots:content-usage=train-ai=n",),
    ),
    (
        "robots.txt rules with identical paths apply separately",
        {"robots_content_usage": "train-ai=y\ntrain-ai=n"},
        NO_TRAINING,
        ("robots:content-usage=train-ai=y", "robots:content-usage=train-ai=n"),
    ),
    (
        "robots.txt rules as a list",
        {"robots_content_usage": ["train-ai=y", "train-ai=n"]},
        NO_TRAINING,
        ("robots:content-usage=train-ai=y", "robots:content-usage=train-ai=n"),
    ),
    (
        "header content-usage n",
        {"headers": {"Content-Usage": ["train-ai=n"]}},
        NO_TRAINING,
        ("header:content-usage=train-ai=n",),
    ),
    (
        "header content-usage genai n",
        {"headers": {"Content-Usage": ["train-genai=n"]}},
        NO_TRAINING,
        ("header:content-usage=train-genai=n",),
    ),
    (
        "header content-usage search only",
        {"headers": {"Content-Usage": ["search=n, ai-use=n"]}},
        ALLOWED,
        ("header:content-usage=search=n, ai-use=n",),
    ),
    (
        "header content-usage invalid",
        {"headers": {"Content-Usage": ["train-ai=n,,"]}},
        ALLOWED,
        ("header:content-usage=invalid:train-ai=n,,",),
    ),
    ("x-robots-tag noai", {"headers": {"X-Robots-Tag": ["noai"]}}, NO_TRAINING, ("header:x-robots-tag=noai",)),
    (
        "x-robots-tag noimageai",
        {"headers": {"X-Robots-Tag": ["noimageai"]}},
        NO_IMAGES,
        ("header:x-robots-tag=noimageai",),
    ),
    (
        "x-robots-tag nofollow",
        {"headers": {"X-Robots-Tag": ["nofollow"]}},
        NO_FOLLOW,
        ("header:x-robots-tag=nofollow",),
    ),
    ("x-robots-tag none", {"headers": {"X-Robots-Tag": ["none"]}}, NO_FOLLOW, ("header:x-robots-tag=none",)),
    ("x-robots-tag noindex is not a training signal", {"headers": {"X-Robots-Tag": ["noindex"]}}, ALLOWED, ()),
    (
        "x-robots-tag scoped to this bot",
        {"headers": {"X-Robots-Tag": ["winnowbot: noai, nofollow"]}},
        (False, False, False),
        ("header:x-robots-tag=noai", "header:x-robots-tag=nofollow"),
    ),
    ("x-robots-tag scoped to another bot", {"headers": {"X-Robots-Tag": ["otherbot: noai, nofollow"]}}, ALLOWED, ()),
    ("tdm header 1", {"headers": {"tdm-reservation": ["1"]}}, NO_TRAINING, ("header:tdm-reservation=1",)),
    ("tdm header 0", {"headers": {"tdm-reservation": ["0"]}}, ALLOWED, ("header:tdm-reservation=0",)),
    ("tdm header invalid", {"headers": {"tdm-reservation": ["2"]}}, ALLOWED, ("header:tdm-reservation=invalid:2",)),
    (
        "tdm header with policy",
        {"headers": {"TDM-Reservation": [" 1 "], "TDM-Policy": ["https://example.org/Policy.json"]}},
        NO_TRAINING,
        ("header:tdm-reservation=1", "header:tdm-policy=https://example.org/Policy.json"),
    ),
    ("meta robots noai", {"html": head('<meta name="robots" content="noai">')}, NO_TRAINING, ("meta:robots=noai",)),
    (
        "meta robots noimageai",
        {"html": head('<meta name="robots" content="noimageai">')},
        NO_IMAGES,
        ("meta:robots=noimageai",),
    ),
    (
        "meta robots nofollow",
        {"html": head('<meta name="robots" content="nofollow">')},
        NO_FOLLOW,
        ("meta:robots=nofollow",),
    ),
    ("meta robots none", {"html": head('<meta name="robots" content="none">')}, NO_FOLLOW, ("meta:robots=none",)),
    ("meta bot noai", {"html": head('<meta name="winnowbot" content="noai">')}, NO_TRAINING, ("meta:winnowbot=noai",)),
    ("meta other bot noai", {"html": head('<meta name="googlebot" content="noai, nofollow">')}, ALLOWED, ()),
    (
        "meta tdm-reservation 1",
        {"html": head('<meta name="tdm-reservation" content="1">')},
        NO_TRAINING,
        ("meta:tdm-reservation=1",),
    ),
    (
        "meta tdm-reservation 0 with policy",
        {
            "html": head(
                '<meta name="tdm-reservation" content="0"><meta name="tdm-policy" content="https://p.example/">'
            )
        },
        ALLOWED,
        ("meta:tdm-reservation=0", "meta:tdm-policy=https://p.example/"),
    ),
    (
        "tdmrep.json reserves",
        {"tdmrep": rules(("/articles/", 1))},
        NO_TRAINING,
        ("tdmrep.json:tdm-reservation=1",),
    ),
    (
        "tdmrep.json with policy",
        {"tdmrep": TdmRep.parse('[{"location": "/", "tdm-reservation": 1, "tdm-policy": "https://p.example/x"}]')},
        NO_TRAINING,
        ("tdmrep.json:tdm-reservation=1", "tdmrep.json:tdm-policy=https://p.example/x"),
    ),
    ("tdmrep.json other location", {"tdmrep": rules(("/private/", 1))}, ALLOWED, ()),
    ("tdmrep.json invalid", {"tdmrep": TdmRep.parse("{oops")}, ALLOWED, ("tdmrep.json:invalid",)),
]


@pytest.mark.parametrize(
    ("kwargs", "expected", "signals"), [c[1:] for c in SINGLE_SIGNALS], ids=[c[0] for c in SINGLE_SIGNALS]
)
def test_each_signal_alone(kwargs: dict[str, Any], expected: tuple[bool, bool, bool], signals: tuple[str, ...]) -> None:
    v = verdict(**kwargs)
    assert outcome(v) == expected
    assert v.signals == signals


CONFLICTS: list[tuple[str, dict[str, Any], tuple[bool, bool, bool]]] = [
    # TDMRep priority: meta > header > tdmrep.json
    ("header 0 lifts tdmrep.json 1", {"headers": {"tdm-reservation": ["0"]}, "tdmrep": rules(("/", 1))}, ALLOWED),
    ("header 1 over tdmrep.json 0", {"headers": {"tdm-reservation": ["1"]}, "tdmrep": rules(("/", 0))}, NO_TRAINING),
    (
        "meta 0 over header 1",
        {"headers": {"tdm-reservation": ["1"]}, "html": head('<meta name="tdm-reservation" content="0">')},
        ALLOWED,
    ),
    (
        "meta 1 over header 0",
        {"headers": {"tdm-reservation": ["0"]}, "html": head('<meta name="tdm-reservation" content="1">')},
        NO_TRAINING,
    ),
    (
        "meta 0 lifts tdmrep.json 1",
        {"html": head('<meta name="tdm-reservation" content="0">'), "tdmrep": rules(("/", 1))},
        ALLOWED,
    ),
    (
        "invalid header falls through to tdmrep.json",
        {"headers": {"tdm-reservation": ["yes"]}, "tdmrep": rules(("/", 1))},
        NO_TRAINING,
    ),
    (
        "invalid meta falls through to header",
        {"headers": {"tdm-reservation": ["1"]}, "html": head('<meta name="tdm-reservation" content="true">')},
        NO_TRAINING,
    ),
    (
        "two meta values in one layer: 1 wins",
        {"html": head('<meta name="tdm-reservation" content="0"><meta name="tdm-reservation" content="1">')},
        NO_TRAINING,
    ),
    ("two header lines: 1 wins", {"headers": {"tdm-reservation": ["0", "1"]}}, NO_TRAINING),
    ("one combined header line: 1 wins", {"headers": {"tdm-reservation": ["0, 1"]}}, NO_TRAINING),
    # Content-Usage: statements from robots.txt and the header combine, any n wins
    (
        "robots.txt y, header n",
        {"robots_content_usage": "train-ai=y", "headers": {"Content-Usage": ["train-ai=n"]}},
        NO_TRAINING,
    ),
    (
        "robots.txt n, header y",
        {"robots_content_usage": "train-ai=n", "headers": {"Content-Usage": ["train-ai=y"]}},
        NO_TRAINING,
    ),
    # ...but header lines are one field, so a repeated key keeps its last value (RFC 9651)
    ("header lines n then y", {"headers": {"Content-Usage": ["train-ai=n", "train-ai=y"]}}, ALLOWED),
    ("header lines y then n", {"headers": {"Content-Usage": ["train-ai=y", "train-ai=n"]}}, NO_TRAINING),
    # across protocols the most restrictive answer wins
    ("content-usage y, tdm 1", {"headers": {"Content-Usage": ["train-ai=y"], "tdm-reservation": ["1"]}}, NO_TRAINING),
    ("content-usage y, noai", {"headers": {"Content-Usage": ["train-ai=y"], "X-Robots-Tag": ["noai"]}}, NO_TRAINING),
    (
        "tdm 0, noai meta",
        {"headers": {"tdm-reservation": ["0"]}, "html": head('<meta name="robots" content="noai">')},
        NO_TRAINING,
    ),
    (
        "everything permits but crawl",
        {"crawl_allowed": False, "headers": {"Content-Usage": ["train-ai=y"]}},
        NO_TRAINING,
    ),
    ("noai and noimageai", {"headers": {"X-Robots-Tag": ["noai, noimageai"]}}, NO_TRAINING),
    (
        "noimageai and nofollow",
        {"html": head('<meta name="robots" content="noimageai,nofollow">')},
        (True, False, False),
    ),
    (
        "generic allows, bot meta forbids",
        {"html": head('<meta name="robots" content="all"><meta name="winnowbot" content="noai">')},
        NO_TRAINING,
    ),
    (
        "other bot forbids in header, this bot only noimageai",
        {"headers": {"X-Robots-Tag": ["googlebot: noai, nofollow", "winnowbot: noimageai"]}},
        NO_IMAGES,
    ),
]


@pytest.mark.parametrize(("kwargs", "expected"), [c[1:] for c in CONFLICTS], ids=[c[0] for c in CONFLICTS])
def test_conflicting_signals(kwargs: dict[str, Any], expected: tuple[bool, bool, bool]) -> None:
    assert outcome(verdict(**kwargs)) == expected


@pytest.mark.parametrize(
    "headers",
    [
        {"Content-Usage": ["train-ai=n"]},
        {"content-usage": ["train-ai=n"]},
        {"CONTENT-USAGE": ["TRAIN-AI=N"]},
        {" Content-Usage ": ["  train-ai = n  "]},
        {b"Content-Usage": [b"train-ai=n"]},
        {"Content-Usage": "train-ai=n"},
        {"Content-Usage": ("search=y", "train-ai=n")},
        {"content-usage": ["search=y"], "Content-Usage": ["train-ai=n"]},
    ],
)
def test_header_names_and_values_are_normalised(headers: dict[Any, Any]) -> None:
    v = verdict(headers=headers)
    assert outcome(v) == NO_TRAINING
    assert len([s for s in v.signals if s.startswith("header:content-usage=")]) == 1


def test_bot_name_case_is_ignored() -> None:
    v = verdict(bot_name="WinnowBot", html=head('<meta name="WINNOWBOT" content="NoAI">'))
    assert outcome(v) == NO_TRAINING
    assert v.signals == ("meta:winnowbot=noai",)


def test_signals_are_ordered_deduplicated_and_deterministic() -> None:
    kwargs: dict[str, Any] = {
        "robots_signals": ("robots:winnowbot=allow", "robots:winnowbot=allow"),
        "training_token_allowed": False,
        "robots_content_usage": "train-ai=y",
        "headers": {
            "tdm-policy": ["https://p.example/"],
            "tdm-reservation": ["1"],
            "X-Robots-Tag": ["noai", "NOAI", "noindex, noimageai"],
            "Content-Usage": ["train-ai=n"],
        },
        "html": head(
            '<meta name="tdm-reservation" content="1">',
            '<meta name="winnowbot" content="nofollow">',
            '<meta name="robots" content="noai">',
        ),
        "tdmrep": rules(("/", 1)),
    }
    v = verdict(**kwargs)
    assert v.signals == (
        "robots:winnowbot=allow",
        "input:training_token_allowed=false",
        "robots:content-usage=train-ai=y",
        "header:content-usage=train-ai=n",
        "header:x-robots-tag=noai",
        "header:x-robots-tag=noimageai",
        "header:tdm-reservation=1",
        "header:tdm-policy=https://p.example/",
        "meta:robots=noai",
        "meta:winnowbot=nofollow",
        "meta:tdm-reservation=1",
        "tdmrep.json:tdm-reservation=1",
    )
    assert verdict(**kwargs) == v
    assert outcome(v) == (False, False, False)


def test_signal_values_are_bounded_and_printable() -> None:
    v = verdict(headers={"tdm-policy": ["https://p.example/" + "x" * 5000 + "\x00\r\n"], "tdm-reservation": ["1"]})
    policy = next(s for s in v.signals if s.startswith("header:tdm-policy="))
    assert policy.isprintable()
    assert len(policy) <= len("header:tdm-policy=") + 200


def test_malformed_inputs_never_raise() -> None:
    rng = random.Random(1234)
    alphabet = 'abcnoiy=,;:"()?*%@<>/\\ \t\n\x00é-_1$'
    fragments = ["<meta ", 'name="robots" ', "content=", '"noai"', "<head>", "</head>", "<!--", "<script>", ">", "'"]
    for _ in range(300):
        junk = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        html = "".join(rng.choice([*fragments, junk]) for _ in range(rng.randint(0, 12)))
        v = page_verdict(
            url=rng.choice([URL, "", "not a url", "http://[::1", "/relative?q=1"]),
            bot_name=BOT,
            crawl_allowed=rng.random() < 0.9,
            robots_content_usage=rng.choice([None, junk, "train-ai=" + junk]),
            headers={
                rng.choice(["Content-Usage", "X-Robots-Tag", "tdm-reservation", "tdm-policy"]): [junk],
                "X-Robots-Tag": [junk + ", winnowbot: " + junk],
            },
            html=rng.choice([html, html.encode("utf-8", "surrogatepass"), junk.encode("latin-1", "replace")]),
            tdmrep=TdmRep.parse(
                rng.choice(["[" + junk + "]", junk, '[{"location": "' + junk + '", "tdm-reservation": 1}]'])
            ),
        )
        assert isinstance(v, Verdict)
        assert v.images_allowed <= v.training_allowed
        assert all(isinstance(s, str) and s for s in v.signals)
