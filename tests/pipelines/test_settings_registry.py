"""Every WINNOW_* setting is declared once (pipelines/settings.py), listed in the docs, and refused when misspelt."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from scrapy.settings import Settings

import crawler.settings as crawl_settings
from crawler.run import CrawlConfigError, CrawlOptions, build_settings
from pipelines.settings import SETTINGS, crawl_defaults, markdown_table, read, unknown

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("crawler", "extract", "filters", "dedup", "pipelines")


def test_every_winnow_name_in_the_code_is_declared() -> None:
    used = set()
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            used |= set(re.findall(r"\bWINNOW_[A-Z0-9_]*[A-Z0-9]\b", path.read_text(encoding="utf-8")))
    assert used, "no WINNOW_ names found: the scan is broken"
    assert sorted(used - set(SETTINGS)) == []


def test_the_docs_table_is_the_registry() -> None:
    text = (REPO / "docs" / "reference.md").read_text(encoding="utf-8")
    table = text.split("<!-- settings table: pipelines.settings.markdown_table() -->\n")[1].split(
        "\n<!-- end of settings table -->")[0]
    assert table == markdown_table()


def test_scrapy_settings_module_carries_every_crawl_default() -> None:
    settings = Settings()
    settings.setmodule(crawl_settings)
    for name, default in crawl_defaults().items():
        if name == "WINNOW_DENY_EXTENSIONS":
            assert "ipynb" in settings.getlist(name) and "png" in settings.getlist(name)
        else:
            assert settings[name] == default, name


def test_read_applies_the_declared_type_and_default() -> None:
    settings = Settings({"WINNOW_MAX_PAGES": "7", "WINNOW_ROBOTS_ENABLED": "False", "WINNOW_LANGUAGES": "de,fr"})
    assert read(settings, "WINNOW_MAX_PAGES") == 7
    assert read(settings, "WINNOW_ROBOTS_ENABLED") is False
    assert read(settings, "WINNOW_LANGUAGES") == ["de", "fr"]
    assert read(Settings(), "WINNOW_MAX_QUERY_PARAMS") == SETTINGS["WINNOW_MAX_QUERY_PARAMS"].default == 10
    with pytest.raises(KeyError):
        read(settings, "WINNOW_NOT_A_SETTING")


def test_a_misspelt_setting_is_refused_with_the_nearest_names(tmp_path: Path) -> None:
    assert unknown(["DOWNLOAD_DELAY", "WINNOW_MAX_PAGES"]) is None  # Scrapy's own names are Scrapy's business
    assert "did you mean WINNOW_MAX_PAGES" in unknown(["WINNOW_MAX_PAGE"])
    opts = CrawlOptions(seeds=["http://127.0.0.1:1/"], output=tmp_path / "c", allow_private=True,
                        overrides={"WINNOW_RETRY_TIMEZ": "2"})
    with pytest.raises(CrawlConfigError, match="WINNOW_RETRY_TIMEZ: no such winnow setting; did you mean "
                                                "WINNOW_RETRY_TIMES"):
        build_settings(opts)
    opts.overrides = {"WINNOW_RETRY_TIMES": "2"}
    assert build_settings(opts).getint("WINNOW_RETRY_TIMES") == 2
