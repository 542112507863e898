"""Golden tests for crawler.policy.tdmrep: parsing /.well-known/tdmrep.json and matching a page to its rules."""

from __future__ import annotations

import time
from typing import Any

import pytest

from crawler.policy.tdmrep import TdmRep
from tests.crawler.signal_helpers import rules

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
