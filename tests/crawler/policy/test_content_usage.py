"""Golden tests for crawler.policy.content_usage: IETF Content-Usage parsing and the training decision."""

from __future__ import annotations

from typing import Any

import pytest

from crawler.policy.content_usage import content_usage_denies_training, parse_content_usage


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
