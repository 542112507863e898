"""Golden tests for crawler.policy.signals: the per-page training-use verdict from every publisher signal."""

from __future__ import annotations

import random
from typing import Any

import pytest

from crawler.policy.signals import VERDICT_HEADERS, Verdict, page_verdict
from crawler.policy.tdmrep import TdmRep
from tests.crawler.signal_helpers import BOT, URL, head, outcome, rules, verdict

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


def test_the_verdict_reads_only_verdict_headers() -> None:
    # crawler/spider.py passes only VERDICT_HEADERS: any other header must not change a verdict
    rng = random.Random(5)
    values = {"Content-Usage": ["train-ai=n", "train-ai=y", "ai=n"], "X-Robots-Tag": ["noai", f"{BOT}: noimageai",
              "nofollow", "all"], "TDM-Reservation": ["1", "0"], "TDM-Policy": ["https://p.example/policy.json"],
              "Content-Type": ["text/html"], "Link": ['<https://p.example/>; rel="tdm-policy"'], "X-Other": ["noai"]}
    for _ in range(200):
        headers = {name: [rng.choice(options)] for name, options in values.items() if rng.random() < 0.6}
        kept = {name.lower(): v for name, v in headers.items() if name.lower() in VERDICT_HEADERS}
        assert verdict(headers=headers) == verdict(headers=kept), headers
