"""`-s KEY=VALUE`: one parser for every command that takes settings."""

from __future__ import annotations

import pytest

from pipelines.app.cli import main
from pipelines.app.cli_args import settings


def test_settings_keep_everything_after_the_first_equals_sign_and_the_last_of_a_key() -> None:
    assert settings(["DOWNLOAD_DELAY=0.5", "USER_AGENT=a=b c", "EMPTY=", "DOWNLOAD_DELAY=2"]) == {
        "DOWNLOAD_DELAY": "2", "USER_AGENT": "a=b c", "EMPTY": ""}


@pytest.mark.parametrize("bad", ["DOWNLOAD_DELAY", "=0.5", " =1"])
def test_settings_refuse_what_is_not_a_setting(bad: str) -> None:
    with pytest.raises(ValueError, match="-s expects KEY=VALUE"):
        settings(["A=1", bad])


@pytest.mark.parametrize("argv", [
    ["crawl", "http://127.0.0.1:9/", "--output", "crawl/", "-s", "DOWNLOAD_DELAY"],
    ["images", "fetch", "out/", "--output", "fetched/", "-s", "DOWNLOAD_DELAY"],
])
def test_a_bad_setting_is_one_line_rc_2_before_anything_starts(argv: list[str], tmp_path, monkeypatch,
                                                               capsys) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [f"winnow {argv[0] if argv[0] == 'crawl' else 'images fetch'}: "
                                        "-s expects KEY=VALUE, got 'DOWNLOAD_DELAY'"]
    assert not any(tmp_path.iterdir())  # nothing written
