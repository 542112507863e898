from __future__ import annotations

import pytest

from crawler.frontier.seeds import seed_problem, split_seeds


@pytest.mark.parametrize(("url", "reason"), [
    ("http://host:99999/", "bad_port"), ("http://x:0/", "bad_port"), ("http://x:port/", "bad_port"),
    ("http://[::1", "bad_url"), ("notaurl", "not_http"), ("ftp://x/", "not_http"), ("mailto:a@b.test", "not_http"),
    ("http://", "no_host"), ("http://exa mple.com/", "bad_host"), ("http://a..b/", "bad_host"),
    ("http://" + "a" * 70 + ".com/", "bad_host"),
    ("http://127.0.0.1:8080/x", None), ("HTTPS://Example.COM", None), ("http://[::1]:8080/", None),
    ("http://bücher.example/", None), ("  http://padded.example/  ", None),
])
def test_seed_problem(url: str, reason: str | None) -> None:
    assert seed_problem(url) == reason


def test_split_keeps_order_and_reasons() -> None:
    good, bad = split_seeds(["notaurl", "http://a.example/", "http://b.example:99999/", " http://c.example/"])
    assert good == ["http://a.example/", "http://c.example/"]
    assert bad == {"notaurl": "not_http", "http://b.example:99999/": "bad_port"}
