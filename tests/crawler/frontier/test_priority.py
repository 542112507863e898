"""Tests for crawler/frontier/priority.py: URL priority heuristics and their explanation."""

from __future__ import annotations

import pytest

from crawler.frontier.priority import PRIORITY_MAX, PRIORITY_MIN, explain_priority, url_priority

# (url, reasons that must be present, reasons that must be absent)
GOLDEN_PRIORITY = [
    # Google Search Central's URL-structure examples
    ("https://example.com/category?category=dresses&sort=low-to-high&sid=789", {"session_id", "sort"}, set()),
    ("https://example.com/index.php?topic=42&area=3a5ebc944f41daa6f849f730f1", {"hex_token"}, {"session_id"}),
    ("https://example.com/wiki/Aviation", {"content_section"}, {"article_slug"}),
    # session ids
    ("https://shop.example/products;jsessionid=A1B2C3D4E5F6", {"session_id"}, set()),
    ("https://forum.example/viewtopic.php?t=12&PHPSESSID=0123abcd0123abcd", {"session_id"}, set()),
    # calendars and date archives
    ("https://town.example/events/calendar?month=2025-03", {"calendar"}, {"far_date"}),
    ("https://town.example/events/calendar?month=2150-03", {"calendar", "far_date"}, set()),
    ("https://blog.example/2024/01/15/", {"day_archive"}, {"article_slug"}),
    ("https://blog.example/2024/01/", {"month_archive"}, {"day_archive"}),
    ("https://blog.example/2150/01/15/", {"day_archive", "far_date"}, set()),
    ("https://blog.example/1850/07/01/", {"far_date"}, set()),
    ("https://blog.example/2024/01/15/city-council-approves-new-park", {"article_slug"}, {"day_archive"}),
    # facets and pagination
    ("https://shop.example/shoes?filter_color=red&facet_size=9", {"filter"}, set()),
    ("https://shop.example/shoes?view=grid&per_page=96", {"display_variant"}, set()),
    ("https://news.example/archive?page=3", {"pagination"}, {"deep_pagination"}),
    ("https://news.example/archive?page=57", {"deep_pagination"}, {"pagination"}),
    ("https://news.example/archive/page/40/", {"deep_pagination"}, set()),
    ("https://news.example/a?x=1&y=2&z=3&w=4&v=5", {"many_params"}, set()),
    ("https://news.example/story?utm_source=feed&utm_medium=rss", {"tracking_params"}, set()),
    # pages without corpus content
    ("https://site.example/wp-login.php?redirect_to=%2F", {"login"}, set()),
    ("https://site.example/account/register", {"login"}, set()),
    ("https://shop.example/cart", {"cart"}, set()),
    ("https://shop.example/checkout/step-2", {"cart"}, set()),
    ("https://shop.example/product/42?add-to-cart=42", {"cart"}, set()),
    ("https://site.example/search?q=bread", {"search_results"}, set()),
    ("https://blog.example/?s=bread", {"search_results"}, set()),
    ("https://news.example/article/river-history-of-the-mill?print=1", {"print_share"}, set()),
    ("https://news.example/share/facebook", {"print_share"}, set()),
    ("https://blog.example/my-first-sourdough-loaf/?replytocom=17", {"comment_reply"}, set()),
    ("https://blog.example/feed/", {"feed"}, set()),
    ("https://blog.example/rss.xml", {"feed"}, set()),
    ("https://blog.example/tag/bread", {"tag_listing"}, set()),
    ("https://blog.example/tag-cloud", {"tag_listing"}, set()),
    ("https://en.wikipedia.org/w/index.php?title=Aviation&action=history", {"wiki_meta"}, set()),
    ("https://en.wikipedia.org/wiki/Special:RecentChanges", {"wiki_meta"}, set()),
    ("https://site.example/files/report.pdf", {"binary_extension"}, set()),
    ("https://site.example/a/b/c/d/e/f/g/h/i/j/k", {"deep_path"}, {"moderate_depth"}),
    # article-like pages
    ("https://news.example/blog/how-to-bake-sourdough-bread.html",
     {"article_slug", "content_section", "html_leaf"}, set()),
    ("https://news.example/news/2024/mill-museum-reopens-after-repairs", {"article_slug", "content_section"}, set()),
    ("https://example.com/", set(), {"article_slug", "moderate_depth"}),
]  # fmt: skip


@pytest.mark.parametrize(("url", "present", "absent"), GOLDEN_PRIORITY, ids=[g[0] for g in GOLDEN_PRIORITY])
def test_explain_priority_golden(url: str, present: set[str], absent: set[str]) -> None:
    reasons = dict(explain_priority(url))
    assert present <= reasons.keys(), reasons
    assert not (absent & reasons.keys()), reasons
    assert url_priority(url) == max(PRIORITY_MIN, min(PRIORITY_MAX, sum(reasons.values())))


def test_url_priority_orders_articles_above_traps() -> None:
    article = url_priority("https://news.example/blog/how-to-bake-sourdough-bread.html")
    assert article == PRIORITY_MAX == 20
    assert url_priority("https://example.com/") == 0
    plain = url_priority("https://news.example/about")
    assert article > plain > url_priority("https://news.example/tag/bread") > url_priority("https://shop.example/cart")
    # Several penalties add up but stay within the documented range.
    worst = "https://x.example/search/calendar/cart/login?sid=1&sort=a&filter=b&month=2150-01&page=99&print=1"
    assert url_priority(worst) == PRIORITY_MIN
    assert sum(w for _, w in explain_priority(worst)) < PRIORITY_MIN


def test_url_priority_tolerates_odd_urls() -> None:
    for url in ["", "not a url", "https://[::1", "mailto:someone@example.com", "https://example.com/%ZZ"]:
        assert PRIORITY_MIN <= url_priority(url) <= PRIORITY_MAX
