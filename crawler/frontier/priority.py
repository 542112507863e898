"""URL priority heuristics: an additive score per URL, higher crawls first, with its reasons.

Pure Python, no Scrapy import: ``crawler/frontier/middleware.py`` adds the score to each request's priority.
Everything here is deterministic given the same calls in the same order.

Where the heuristics come from
------------------------------
- URL patterns that waste a crawl (session ids, sort/filter parameters, "additive filtering", unbounded
  calendars, broken relative links that repeat path elements, referral/tracking parameters): Google Search
  Central, "URL structure best practices for Google Search", the list of causes of "unnecessarily high
  numbers of URLs" under "Overly complex URLs" (developers.google.com/search/docs/crawling-indexing/
  url-structure). Its examples (``sid=789``, ``sort=low-to-high``, ``area=3a5ebc944f41daa6f849f730f1``,
  ``/wiki/Aviation``) are golden URLs in tests/crawler/test_url_priority.py; the repeated-path example is
  the trap guard's (``crawler/frontier/traps.py``).
- The URL priority weights are our own choices, explained where they are defined. Weights are small
  integers so a priority can be read off its ``explain_priority`` breakdown.
"""

from __future__ import annotations

import datetime
import functools
import re
from urllib.parse import SplitResult, parse_qsl, unquote, urlsplit

PRIORITY_MIN = -100
PRIORITY_MAX = 20

# Weights, one per reason. Penalties are sized by how much crawl they waste: pages that cannot hold new
# content for a corpus (login, cart) or that multiply without bound (search results, session ids,
# far-off calendar dates) cost most; duplicate views of content (print, sort order) less; listings that
# at least lead to content (tags, shallow pagination) least. Favours add up to PRIORITY_MAX exactly.
W_SESSION_ID = -40  # same page under endless URLs (Google: "session IDs ... create massive amounts of duplication")
W_HEX_TOKEN = -25  # a long opaque token is usually a session/cache key (Google's area=3a5e... example)
W_CALENDAR = -25  # calendar pages: little text, unbounded next/previous links (Google: "calendar issues")
W_FAR_DATE = -40  # a date outside [MIN_YEAR, now + YEARS_AHEAD]: the calendar trap itself
W_DAY_ARCHIVE = -15  # /2024/01/15/ as a leaf: one listing per day, mostly teasers of articles reached anyway
W_MONTH_ARCHIVE = -10  # /2024/01/ as a leaf: fewer of them than day archives, same content
W_SORT = -15  # sort order: the same items re-ordered (Google: "sorting parameters")
W_FILTER = -15  # facets combine multiplicatively (Google: "additive filtering of a set of items")
W_DISPLAY = -10  # view/layout/page-size variants: the same content re-rendered
W_PAGINATION = -5  # a shallow listing page: leads to content but holds little
W_DEEP_PAGINATION = -20  # beyond PAGE_DEEP: old, rarely linked, and often an endless "next" chain
W_TRACKING = -5  # utm_*/fbclid/...: duplicates of the canonical URL (Google: "referral parameters")
W_PER_EXTRA_PARAM = -5  # each parameter beyond MANY_PARAMS; capped at W_MANY_PARAMS_CAP
W_MANY_PARAMS_CAP = -20
W_LOGIN = -50  # login/register/account: no public content, and the crawler must not create accounts
W_CART = -50  # cart/checkout/wishlist: state-changing, no content
W_SEARCH = -40  # site search results: unbounded (Google advises blocking them in robots.txt)
W_PRINT_SHARE = -30  # print/share/e-mail views: duplicates of the article or off-site redirects
W_COMMENT_REPLY = -30  # WordPress ?replytocom=: one duplicate of the article per comment
W_FEED = -30  # RSS/Atom: not HTML; the articles they list are linked from HTML anyway
W_WIKI_META = -30  # wiki edit/history/diff/special pages: revisions, not articles
W_TAG = -15  # tag clouds/labels: listings; the tag set often explodes
W_BINARY = -20  # the crawl is HTML-only; Scrapy's LinkExtractor skips most of these already
W_PER_DEEP_SEGMENT = -3  # each path segment beyond DEEP_PATH; capped at W_DEEP_PATH_CAP
W_DEEP_PATH_CAP = -20
W_ARTICLE_SLUG = 10  # /how-to-bake-sourdough-bread: the strongest cheap signal of an article
W_CONTENT_SECTION = 5  # /article/, /blog/, /news/, /wiki/ ...
W_HTML_LEAF = 3  # a .html leaf is a document, not a directory listing
W_MODERATE_DEPTH = 2  # 2..5 segments: below the home page, above generated deep paths

PAGE_DEEP = 10  # pagination beyond this is "deep"
MANY_PARAMS = 3  # more query parameters than this are penalised one by one
DEEP_PATH = 8  # path segments beyond this are penalised one by one
SLUG_MIN_WORDS = 3  # "several hyphenated words"
MIN_YEAR = 1990  # before the web: a calendar generating past dates
YEARS_AHEAD = 1  # next year's events are real; later ones are a calendar generating future dates
CURRENT_YEAR = datetime.date.today().year  # read once at import so a crawl scores consistently

_SESSION_KEYS = frozenset(
    {"jsessionid", "phpsessid", "sid", "sessionid", "session_id", "sessid", "sess", "cfid", "cftoken", "zenid"}
)
_CALENDAR_KEYS = frozenset(
    {"month", "year", "day", "week", "date", "cal", "calendar", "ical", "eventdate", "event_date", "tribe-bar-date"}
)
_CALENDAR_SEGMENTS = frozenset({"calendar", "calendars", "kalender", "calendrier", "calendario", "events-calendar"})
_SORT_KEYS = frozenset(
    {"sort", "sortby", "sort_by", "order", "orderby", "order_by", "dir", "direction", "sortorder", "sort_order"}
)
_FILTER_KEYS = frozenset({"fq", "refine", "color", "colour", "size", "brand", "price", "min_price", "max_price"})
_DISPLAY_KEYS = frozenset(
    {"view", "layout", "display", "limit", "per_page", "perpage", "pagesize", "page_size", "show", "showall", "mode"}
)
_PAGE_KEYS = frozenset({"page", "pg", "paged", "pagenum", "page_num", "pageno", "page_no"})
_TRACKING_KEYS = frozenset({"fbclid", "gclid", "dclid", "msclkid", "mc_cid", "mc_eid", "ref", "ref_src", "igshid"})
_LOGIN_SEGMENTS = frozenset(
    {
        "login", "log-in", "logon", "logout", "log-out", "signin", "sign-in", "signup", "sign-up", "register",
        "registration", "account", "my-account", "myaccount", "password", "lostpassword", "lost-password",
        "reset-password", "forgot-password", "wp-login", "wp-admin", "auth", "oauth", "sso",
    }
)  # fmt: skip
_LOGIN_ACTIONS = frozenset({"login", "logout", "register", "signup", "signin", "lostpassword", "rp"})
_CART_SEGMENTS = frozenset({"cart", "basket", "checkout", "wishlist", "add-to-cart", "shopping-cart", "compare"})
_CART_KEYS = frozenset({"add-to-cart", "add_to_cart", "addtocart", "add-to-wishlist"})
_SEARCH_SEGMENTS = frozenset({"search", "suche", "recherche", "buscar", "busca", "cerca", "zoeken", "search-results"})
_SEARCH_KEYS = frozenset({"q", "s", "query", "search", "keyword", "keywords", "searchterm", "search_query"})
_PRINT_SEGMENTS = frozenset(
    {"print", "printable", "printer-friendly", "print-version", "share", "sharer", "email-a-friend", "send-to-friend"}
)
_PRINT_KEYS = frozenset({"print", "printable", "share", "printpage"})
_FEED_SEGMENTS = frozenset({"feed", "feeds", "rss", "atom", "rss2"})
_FEED_EXTENSIONS = (".rss", ".atom", "rss.xml", "atom.xml", "feed.xml")
_TAG_SEGMENTS = frozenset({"tag", "tags", "tagged", "tagcloud", "tag-cloud", "label", "labels"})
_WIKI_META_KEYS = frozenset({"oldid", "diff", "curid", "printable"})
_WIKI_META_ACTIONS = frozenset({"edit", "history", "raw", "info", "submit", "purge"})
_CONTENT_SECTIONS = frozenset(
    {
        "article", "articles", "blog", "blogs", "news", "wiki", "post", "posts", "story", "stories", "entry",
        "entries", "essay", "essays", "guide", "guides", "tutorial", "tutorials", "recipe", "recipes", "review",
        "reviews", "magazine", "column", "columns", "opinion", "artikel", "nachrichten", "actualites",
        "actualite", "noticias", "noticia",
    }
)  # fmt: skip
_BINARY_EXTENSIONS = frozenset(
    {
        "pdf", "jpg", "jpeg", "png", "gif", "webp", "svg", "ico", "bmp", "tif", "tiff", "mp3", "mp4", "m4a", "ogg",
        "wav", "avi", "mov", "webm", "zip", "gz", "tgz", "bz2", "xz", "7z", "rar", "tar", "exe", "dmg", "iso", "apk",
        "msi", "bin", "css", "js", "json", "woff", "woff2", "ttf", "eot", "doc", "docx", "xls", "xlsx", "ppt",
        "pptx", "odt", "ics",
    }
)  # fmt: skip
_HTML_EXTENSIONS = (".html", ".htm", ".shtml", ".xhtml")
_STEM_EXTENSIONS = re.compile(r"\.(?:php|aspx?|jsp|cgi|html?|shtml|xhtml|pl)$")
# A run of 24+ hex characters mixing letters and digits: md5 is 32, Google's example sid is 26. Pure digit
# runs are numeric ids, pure letter runs are words, so both kinds are required (checked in _has_hex_token).
_HEX_RUN = re.compile(r"[0-9a-f]{24,}")
_YEAR = re.compile(r"^(\d{4})$")
_DAY_OR_MONTH = re.compile(r"^(\d{1,2})$")
_PAGE_SEGMENT = re.compile(r"^page[-_]?(\d+)$")
_FIRST_NUMBER = re.compile(r"\d{4}")
_SLUG_SPLIT = re.compile(r"[-_+]+")
_LETTERS = re.compile(r"^[^\W\d_]{2,}$")


@functools.lru_cache(maxsize=8192)
def split_url(url: str) -> SplitResult:
    """``urlsplit`` with a cache: the trap guard, the URL score and the middleware each need the parts of
    the same URL (the stdlib's own cache holds 128 entries)."""
    return urlsplit(url)


def _stem(segment: str) -> str:
    """A path segment without its script extension: ``login.php`` -> ``login``."""
    return _STEM_EXTENSIONS.sub("", segment)


def _has_hex_token(text: str) -> bool:
    for match in _HEX_RUN.finditer(text):
        run = match.group()
        if not run.isdigit() and any(c.isdigit() for c in run):
            return True
    return False


def _int_or_none(value: str) -> int | None:
    value = value.strip()
    return int(value) if value.isdigit() and len(value) < 10 else None


@functools.lru_cache(maxsize=65536)
def _explain(url: str) -> tuple[tuple[str, int], ...]:
    # Cached: navigation links repeat on every page of a site, and Scrapy's duplicate filter runs only
    # after the spider middlewares, so the same URL is scored many times. 65,536 entries: ~20 MB at most.
    try:
        parts = split_url(url)
    except ValueError:
        return ()
    path = unquote(parts.path).lower()
    segments = [s for s in path.split("/") if s]
    stems = [_stem(s.split(";", 1)[0]) for s in segments]
    stemset = set(stems)  # set intersections below: ~10x cheaper than any() over the segments
    params = parse_qsl(parts.query, keep_blank_values=True)
    keys = [k.lower() for k, _ in params]
    keyset = set(keys)
    values = {k.lower(): v for k, v in params}
    out: list[tuple[str, int]] = []

    # --- session ids and opaque tokens
    if (
        ";jsessionid=" in path
        or "jsessionid" in path
        or keyset & _SESSION_KEYS
        or (keys and any(k.startswith("aspsessionid") for k in keys))
    ):
        out.append(("session_id", W_SESSION_ID))
    elif _has_hex_token(path) or (params and any(_has_hex_token(v.lower()) for _, v in params)):
        out.append(("hex_token", W_HEX_TOKEN))

    # --- calendars and date archives
    calendar_keys = keyset & _CALENDAR_KEYS
    if calendar_keys or stemset & _CALENDAR_SEGMENTS:
        out.append(("calendar", W_CALENDAR))
    years: list[int] = []
    for key in calendar_keys:
        match = _FIRST_NUMBER.search(values.get(key, ""))
        if match:
            years.append(int(match.group()))
    archive = None
    for i, segment in enumerate(stems):
        year_match = _YEAR.match(segment)
        if not year_match or i + 1 >= len(stems):
            continue
        month_match = _DAY_OR_MONTH.match(stems[i + 1])
        if not month_match or not 1 <= int(month_match.group(1)) <= 12:
            continue
        years.append(int(year_match.group(1)))
        rest = i + 2
        day_match = _DAY_OR_MONTH.match(stems[rest]) if rest < len(stems) else None
        if day_match and 1 <= int(day_match.group(1)) <= 31:
            rest += 1
            kind = "day_archive"
        else:
            kind = "month_archive"
        # An archive page when nothing but "index"/"page/N" follows the date; /2024/01/15/slug is an article.
        tail = [s for s in stems[rest:] if s not in ("index", "page") and not s.isdigit()]
        if not tail:
            archive = kind
        break
    if archive == "day_archive":
        out.append(("day_archive", W_DAY_ARCHIVE))
    elif archive == "month_archive":
        out.append(("month_archive", W_MONTH_ARCHIVE))
    if any(y < MIN_YEAR or y > CURRENT_YEAR + YEARS_AHEAD for y in years):
        out.append(("far_date", W_FAR_DATE))

    # --- facets: sort, filter, display, pagination, tracking, parameter count
    if keyset & _SORT_KEYS or (keys and any(k.startswith("sort") for k in keys)):
        out.append(("sort", W_SORT))
    if keyset & _FILTER_KEYS or (keys and any(k.startswith(("filter", "facet")) for k in keys)) or "filter" in stemset:
        out.append(("filter", W_FILTER))
    if keyset & _DISPLAY_KEYS:
        out.append(("display_variant", W_DISPLAY))
    page = None
    for key in keyset & _PAGE_KEYS:
        page = _int_or_none(values[key])
    for i, segment in enumerate(stems):
        if segment == "page" and i + 1 < len(stems):
            page = _int_or_none(stems[i + 1]) or page
        elif match := _PAGE_SEGMENT.match(segment):
            page = int(match.group(1))
    if page is not None and page > PAGE_DEEP:
        out.append(("deep_pagination", W_DEEP_PAGINATION))
    elif page is not None and page >= 2:
        out.append(("pagination", W_PAGINATION))
    if keyset & _TRACKING_KEYS or (keys and any(k.startswith("utm_") for k in keys)):
        out.append(("tracking_params", W_TRACKING))
    if len(keyset) > MANY_PARAMS:
        out.append(("many_params", max(W_MANY_PARAMS_CAP, W_PER_EXTRA_PARAM * (len(keyset) - MANY_PARAMS))))

    # --- pages without corpus content
    action = values.get("action", "").lower()
    if stemset & _LOGIN_SEGMENTS or action in _LOGIN_ACTIONS:
        out.append(("login", W_LOGIN))
    if stemset & _CART_SEGMENTS or keyset & _CART_KEYS:
        out.append(("cart", W_CART))
    if stemset & _SEARCH_SEGMENTS or keyset & _SEARCH_KEYS:
        out.append(("search_results", W_SEARCH))
    if stemset & _PRINT_SEGMENTS or keyset & _PRINT_KEYS or values.get("output") == "print":
        out.append(("print_share", W_PRINT_SHARE))
    if "replytocom" in keyset:
        out.append(("comment_reply", W_COMMENT_REPLY))
    feed_format = values.get("format", "").lower() in ("rss", "atom") or "feed" in keyset
    if stemset & _FEED_SEGMENTS or path.endswith(_FEED_EXTENSIONS) or feed_format:
        out.append(("feed", W_FEED))
    if stemset & _TAG_SEGMENTS:
        out.append(("tag_listing", W_TAG))
    special = ":" in path and any(s.startswith(("special:", "spezial:", "spécial:")) for s in segments)
    if keyset & _WIKI_META_KEYS or action in _WIKI_META_ACTIONS or special:
        out.append(("wiki_meta", W_WIKI_META))
    leaf = segments[-1] if segments and not path.endswith("/") else ""
    extension = leaf.rsplit(".", 1)[-1] if "." in leaf else ""
    if extension in _BINARY_EXTENSIONS:
        out.append(("binary_extension", W_BINARY))
    if len(segments) > DEEP_PATH:
        out.append(("deep_path", max(W_DEEP_PATH_CAP, W_PER_DEEP_SEGMENT * (len(segments) - DEEP_PATH))))

    # --- article-like pages
    if leaf or segments:
        slug = _stem((leaf or segments[-1]).split(";", 1)[0])
        words = [w for w in _SLUG_SPLIT.split(slug) if _LETTERS.match(w)]
        if len(words) >= SLUG_MIN_WORDS:
            out.append(("article_slug", W_ARTICLE_SLUG))
    if stemset & _CONTENT_SECTIONS:
        out.append(("content_section", W_CONTENT_SECTION))
    if leaf.endswith(_HTML_EXTENSIONS):
        out.append(("html_leaf", W_HTML_LEAF))
    if 2 <= len(segments) <= 5:
        out.append(("moderate_depth", W_MODERATE_DEPTH))
    return tuple(out)


def explain_priority(url: str) -> list[tuple[str, int]]:
    """The reasons behind :func:`url_priority`: ``[(reason, weight), ...]``; their sum, clamped, is the score."""
    return list(_explain(url))


def url_priority(url: str) -> int:
    """Additive URL score in [PRIORITY_MIN, PRIORITY_MAX] (-100..+20); 0 for a neutral URL, higher crawls first."""
    return max(PRIORITY_MIN, min(PRIORITY_MAX, sum(weight for _, weight in _explain(url))))
