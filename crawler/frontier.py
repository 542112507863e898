"""Frontier logic: URL priority heuristics, crawler-trap guards, host language and topic balancing.

Pure Python + numpy, no Scrapy import: ``crawler/frontier_middleware.py`` wires these into a crawl.
Everything here is deterministic given the same calls in the same order.

Where the heuristics and thresholds come from
---------------------------------------------
- URL patterns that waste a crawl (session ids, sort/filter parameters, "additive filtering", unbounded
  calendars, broken relative links that repeat path elements, referral/tracking parameters): Google Search
  Central, "URL structure best practices for Google Search", the list of causes of "unnecessarily high
  numbers of URLs" under "Overly complex URLs" (developers.google.com/search/docs/crawling-indexing/
  url-structure). Its examples (``sid=789``, ``sort=low-to-high``, ``area=3a5ebc944f41daa6f849f730f1``,
  ``/wiki/Aviation``, the repeated-path example) are golden URLs in tests/crawler/test_frontier.py.
- ``repeated_segments``: Heritrix 3 ``PathologicalPathDecideRule`` rejects a URI whose path repeats the
  same segment (or block of segments) consecutively more than ``maxRepetitions`` = 2 times, e.g.
  ``/a/a/a/``. We use the same default and also catch a segment that recurs non-consecutively more than 3
  times (Google's broken-relative-link example repeats ``category`` and ``html`` four times each).
- ``too_many_segments``: Heritrix 3 ``TooManyPathSegmentsDecideRule`` rejects paths deeper than 20
  segments; same default.
- ``url_too_long``: default 2,048 characters (the project's choice), just below Scrapy's ``URLLENGTH_LIMIT``
  of 2,083 (the old Internet Explorer limit), so such drops are counted under our stats key.
- ``too_many_params`` (10), ``query_explosion`` (64 distinct query "shapes" per host+path), the URL
  priority weights, the host-language rule and the topic balancer's parameters are our own choices,
  explained where they are defined. Weights are small integers so a priority can be read off its
  ``explain_priority`` breakdown.
- Topic clustering: hashed TF-IDF (feature hashing, Weinberger et al. 2009, as in scikit-learn's
  ``HashingVectorizer``; sublinear tf and idf as in scikit-learn's ``TfidfVectorizer(sublinear_tf=True)``)
  and spherical k-means (Dhillon & Modha 2001) seeded by k-means++ (Arthur & Vassilvitskii 2007), then
  updated online with per-centre learning rates 1/n (Sculley 2010, "Web-scale k-means clustering"),
  floored so centres keep adapting to a drifting crawl. Making new topics from groups of outliers (and
  merging the two closest topics to make room) is our own addition, described in ``TopicBalancer``.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import math
import re
import zlib
from collections import Counter, OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import SplitResult, parse_qsl, unquote, urlsplit

import numpy as np

# ---------------------------------------------------------------------------------------------------------
# URL priority
# ---------------------------------------------------------------------------------------------------------

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
_DIGIT_RUN = re.compile(r"\d+")
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


# ---------------------------------------------------------------------------------------------------------
# Trap guard
# ---------------------------------------------------------------------------------------------------------


def _has_repeated_block(segments: list[str], max_repeats: int) -> bool:
    """True when a block of 1..n segments occurs more than ``max_repeats`` times in a row (/a/b/a/b/a/b)."""
    n = len(segments)
    times = max_repeats + 1
    for size in range(1, n // times + 1):
        for start in range(n - size * times + 1):
            block = segments[start : start + size]
            if all(segments[start + r * size : start + (r + 1) * size] == block for r in range(1, times)):
                return True
    return False


class TrapGuard:
    """Drop URLs that look like crawler traps; ``check(url)`` returns a reason or None.

    ``query_explosion`` counts distinct query-string variants per host+path, where a variant is the query
    with its parameters sorted and every digit run replaced by ``#``: ``?t=1`` ... ``?t=99999`` (a forum's
    topics, a shop's products) are one variant and never trip it, while sort/filter/facet combinations and
    session tokens (``sid=3a5e...``) make new ones. Unbounded numeric parameters (``?date=2024-01-15``,
    ``?page=N``) are left to ``url_priority``, which pushes calendars and deep pagination back.

    Stateful only for ``query_explosion``: per host, it remembers hashes of the distinct variants seen
    per path (an 8-byte hash each), at most ``max_query_variants`` per path and ``max_variants_per_host`` per
    host, least-recently-used paths forgotten first; at most ``max_hosts`` hosts, least-recently-used first.
    So memory is bounded by ``max_hosts * max_variants_per_host`` hashes (defaults: 2,048 x 2,048, about
    250 MB in the worst case, a few KB per host in practice). A forgotten path may admit another
    ``max_query_variants`` variants: a bounded leak, not a trap.
    """

    def __init__(
        self,
        max_url_length: int = 2048,
        max_segments: int = 20,
        max_params: int = 10,
        max_segment_repeats: int = 2,
        max_segment_occurrences: int = 3,
        max_query_variants: int = 64,
        max_variants_per_host: int = 2048,
        max_hosts: int = 2048,
    ) -> None:
        self.max_url_length = max_url_length
        self.max_segments = max_segments
        self.max_params = max_params
        self.max_segment_repeats = max_segment_repeats
        self.max_segment_occurrences = max_segment_occurrences
        self.max_query_variants = max_query_variants
        self.max_variants_per_host = max_variants_per_host
        self.max_hosts = max_hosts
        # host -> (path -> variant hashes), both least-recently-used first; plus a per-host hash count
        self._variants: OrderedDict[str, OrderedDict[str, set[int]]] = OrderedDict()
        self._host_sizes: dict[str, int] = {}
        self.counts: Counter[str] = Counter()

    def check(self, url: str) -> str | None:
        """The drop reason for ``url`` (``url_too_long``, ``too_many_segments``, ``too_many_params``,
        ``repeated_segments``, ``query_explosion``) or None to keep it. Records the URL's query variant."""
        reason = self._check(url)
        if reason is not None:
            self.counts[reason] += 1
        return reason

    def _check(self, url: str) -> str | None:
        if len(url) > self.max_url_length:
            return "url_too_long"
        try:
            parts = split_url(url)
        except ValueError:
            return None  # malformed URLs are the address guard's business, not a trap
        segments = [s for s in parts.path.split("/") if s]
        if len(segments) > self.max_segments:
            return "too_many_segments"
        params = parse_qsl(parts.query, keep_blank_values=True) if parts.query else []
        if len(params) > self.max_params:
            return "too_many_params"
        if len(segments) > self.max_segment_repeats:
            if _has_repeated_block(segments, self.max_segment_repeats):
                return "repeated_segments"
            if Counter(segments).most_common(1)[0][1] > self.max_segment_occurrences:
                return "repeated_segments"
        if params and self._new_variant_explodes(parts.netloc.lower(), parts.path, params):
            return "query_explosion"
        return None

    def _new_variant_explodes(self, host: str, path: str, params: list[tuple[str, str]]) -> bool:
        # Parameter order does not make a new page (?a=1&b=2 = ?b=2&a=1), nor does an id (?t=1 ~ ?t=2).
        canonical = _DIGIT_RUN.sub("#", "&".join(f"{k}={v}" for k, v in sorted(params)))
        variant = int.from_bytes(hashlib.blake2b(canonical.encode("utf-8", "replace"), digest_size=8).digest())
        paths = self._variants.get(host)
        if paths is None:
            paths = self._variants[host] = OrderedDict()
            self._host_sizes[host] = 0
            while len(self._variants) > self.max_hosts:
                old, _ = self._variants.popitem(last=False)
                del self._host_sizes[old]
        else:
            self._variants.move_to_end(host)
        seen = paths.get(path)
        if seen is None:
            seen = paths[path] = set()
        else:
            paths.move_to_end(path)
        if variant in seen:
            return False
        if len(seen) >= self.max_query_variants:
            return True
        seen.add(variant)
        self._host_sizes[host] += 1
        while self._host_sizes[host] > self.max_variants_per_host and len(paths) > 1:
            _, dropped = paths.popitem(last=False)
            self._host_sizes[host] -= len(dropped)
        return False


# ---------------------------------------------------------------------------------------------------------
# Host language
# ---------------------------------------------------------------------------------------------------------


class HostLanguage:
    """Estimate each host's share of target-language pages from its first pages; penalise off-target hosts.

    Our own rule: a page counts as on-target when its language is a target with score >= ``min_score``;
    a page with a lower score (short or mixed text) counts as half on-target, because it is evidence of
    neither. From ``min_pages`` observed pages on, a host whose on-target share is below one half gets
    ``-max_penalty * (1 - share / 0.5)``: -40 at share 0, -8 at share 0.4 of 5 pages, 0 at a half or more
    (a bilingual host still yields target pages). Only the first ``pages_per_host`` pages are used: the
    estimate is for steering the frontier early, and detection costs time.
    """

    def __init__(
        self,
        languages: Iterable[str],
        pages_per_host: int = 5,
        min_pages: int = 3,
        min_score: float = 0.5,
        max_penalty: int = 40,
    ) -> None:
        self.languages = frozenset(lang.strip().lower() for lang in languages if lang.strip())
        self.pages_per_host = pages_per_host
        self.min_pages = max(1, min(min_pages, pages_per_host))
        self.min_score = min_score
        self.max_penalty = max_penalty
        self._langs: dict[str, Counter[str]] = {}
        self._on_target: dict[str, float] = {}
        self._adjust: dict[str, int] = {}

    def wants(self, host: str) -> bool:
        """Whether an observation of ``host`` would still be used (so callers can skip detecting)."""
        counts = self._langs.get(host)
        return counts is None or counts.total() < self.pages_per_host

    def observe(self, host: str, lang: str, score: float) -> None:
        """Record one page of ``host`` in language ``lang`` with detector confidence ``score``."""
        counts = self._langs.setdefault(host, Counter())
        if counts.total() >= self.pages_per_host:
            return
        counts[lang] += 1
        credit = 1.0 if lang in self.languages else 0.0
        if score < self.min_score:
            credit = 0.5  # too unsure to count either way
        self._on_target[host] = self._on_target.get(host, 0.0) + credit
        self._adjust[host] = self._compute(host)

    def share(self, host: str) -> float | None:
        """Estimated on-target share of ``host``'s pages, or None before ``min_pages`` pages."""
        pages = self._langs.get(host)
        if not pages or pages.total() < self.min_pages:
            return None
        return self._on_target[host] / pages.total()

    def _compute(self, host: str) -> int:
        share = self.share(host)
        if share is None or share >= 0.5 or not self.languages:
            return 0
        return -round(self.max_penalty * (1.0 - share / 0.5))

    def adjustment(self, host: str) -> int:
        """Priority adjustment for requests to ``host``: 0 until enough evidence, negative when off-target."""
        return self._adjust.get(host, 0)

    def distribution(self) -> dict[str, dict[str, int]]:
        """Observed pages per host and language: ``{host: {lang: count}}``, hosts and languages sorted."""
        return {host: dict(sorted(counts.items())) for host, counts in sorted(self._langs.items())}


# ---------------------------------------------------------------------------------------------------------
# Topic balancer
# ---------------------------------------------------------------------------------------------------------

# Words: runs of 2+ letters in any script (digits and underscores excluded). Scripts without spaces (Chinese,
# Japanese) come out as long runs, coarse but stable features; the balancer only needs a rough topic signal.
_WORD = re.compile(r"[^\W\d_]{2,}")


@dataclass
class _Outlier:
    """A page far from every topic centre, kept to see whether it starts a new topic."""

    host: str
    ids: np.ndarray
    values: np.ndarray
    topic: int  # the topic it was counted in
    neighbours: set[int] = field(default_factory=set)  # keys of buffered outliers similar to it


class TopicBalancer:
    """Unsupervised topic clusters of crawled pages, and a per-host penalty that keeps the crawl diverse.

    Features: the words (runs of 2+ letters, lower-cased) of a page's first ``max_words`` whitespace-separated
    tokens, each hashed with
    ``zlib.crc32`` into ``n_features`` buckets (stable across processes, unlike ``hash()``); tf = 1 + ln(count),
    idf = ln((1 + N) / (1 + df)) with document frequencies counted online (0 for a word in every page so far,
    so no stop-word list is needed); L2-normalised.

    Clustering (spherical k-means, cosine similarity): the first ``seed_pages`` pages are buffered, then
    k-means++ with a fixed-seed generator picks k centres and ``lloyd_iterations`` batch passes refine them.
    After that each page goes to its most similar centre, which moves towards it with rate
    max(1/n, ``min_learning_rate``), n = pages in that topic.

    New topics (our own addition; plain online k-means cannot make one, so a crawl whose first pages are
    all about cooking would lump astronomy into a cooking cluster): a page whose best similarity is below
    ``novelty`` x the running mean best similarity is an outlier. It is counted in its nearest topic but
    does not move that centre, and is kept in a buffer of ``outlier_buffer`` pages. When
    ``min_new_topic_pages`` buffered outliers are each within ``pair_similarity`` (cosine) of one of them,
    they become a new topic with a fresh id: the two most similar existing topics merge to free a slot
    (the smaller one's id then reports as the larger one's), and the pages move to the new topic. Topic ids
    are never reused, so an id recorded in WARC metadata keeps its meaning (up to merging).

    ``adjustment(host)``: with global topic shares p_t and the host's own topic shares q_t (from at least
    ``min_host_pages`` pages), the host's over-representation is o = sum_t q_t * p_t * k (1 when its
    topics are as common as under a uniform split, k when the crawl holds nothing but its one topic). The
    adjustment is ``-penalty_per_doubling * log2(o)``, rounded, at most ``max_penalty`` down, 0 when o <= 1.
    Caveat: k-means splits a dominant topic across several clusters when k exceeds the number of real
    topics, which dilutes the penalty; choose k near the number of topics worth balancing.

    Memory: centres are n_features x k float32 (16 MB at the defaults), document frequencies n_features
    int32 (1 MB), a scratch vector (2 MB), the seed buffer (``seed_pages`` sparse vectors), the outlier
    buffer, a word->bucket cache and a bucket->word map for top terms (each at most ``max_vocabulary``).
    """

    def __init__(
        self,
        k: int = 16,
        n_features: int = 2**18,
        seed_pages: int = 200,
        max_words: int = 2000,
        min_host_pages: int = 3,
        penalty_per_doubling: int = 10,
        max_penalty: int = 30,
        min_learning_rate: float = 0.002,
        lloyd_iterations: int = 10,
        novelty: float = 0.5,
        pair_similarity: float = 0.2,
        min_new_topic_pages: int = 5,
        outlier_buffer: int = 64,
        seed: int = 0,
        top_terms: int = 8,
        max_vocabulary: int = 2**17,
    ) -> None:
        if k < 2:
            raise ValueError(f"k must be >= 2, got {k}")
        if n_features & (n_features - 1):
            raise ValueError(f"n_features must be a power of two, got {n_features}")
        self.k = k
        self.n_features = n_features
        self.seed_pages = max(seed_pages, k)
        self.max_words = max_words
        # ~6 characters per word in European languages; the cap keeps lower() and split() bounded.
        self.max_chars = max_words * 10
        self.min_host_pages = min_host_pages
        self.penalty_per_doubling = penalty_per_doubling
        self.max_penalty = max_penalty
        self.min_learning_rate = min_learning_rate
        self.lloyd_iterations = lloyd_iterations
        self.novelty = novelty
        # 0.2: on 60 unrelated real news articles (../shared/data/extraction_bench) 99% of page pairs are
        # below 0.16, so five pages this close to one another are a topic, not chance.
        self.pair_similarity = pair_similarity
        self.min_new_topic_pages = min_new_topic_pages
        self.outlier_buffer = outlier_buffer
        self.seed = seed
        self.top_terms = top_terms
        self.max_vocabulary = max_vocabulary
        self._mask = n_features - 1
        self._df = np.zeros(n_features, dtype=np.int32)
        self._n_docs = 0
        self._buffer: list[tuple[str, np.ndarray, np.ndarray]] = []  # (host, bucket ids, raw tf) before seeding
        # Per slot (0..k-1): centre = _scale[slot] * _centres[:, slot], its squared norm, its page count, the
        # topic id it holds now. Topic ids start as the slot numbers; a new topic gets the next unused id.
        # Centres are stored bucket-major (n_features x k): a page's ~500 buckets are then ~500 cache lines
        # of k floats each, not k x 500 scattered reads; this halved the cost of assigning a page.
        self._centres: np.ndarray | None = None
        self._scale = np.ones(k, dtype=np.float64)
        self._sq_norm = np.zeros(k, dtype=np.float64)
        self._sizes = np.zeros(k, dtype=np.int64)
        self._slot_ids = np.arange(k, dtype=np.int64)
        self._next_id = k
        self._merged_into: dict[int, int] = {}
        self._host_topics: dict[str, np.ndarray] = {}  # host -> pages per slot
        self._typical = 0.0  # running mean of a page's best similarity
        self._outliers: OrderedDict[int, _Outlier] = OrderedDict()
        self._outlier_key = 0
        self._scratch = np.zeros(n_features, dtype=np.float64)
        self._token_buckets: dict[str, int | tuple[int, ...]] = {}
        self._multi_word_tokens: set[str] = set()
        self._words: dict[int, str] = {}  # bucket -> first word seen in it, for top terms
        self._adjust_cache: dict[str, int] = {}
        self.pages_observed = 0
        self.pages_without_topic = 0
        self.topics_created = 0

    @property
    def seeded(self) -> bool:
        return self._centres is not None

    # --- features

    def _terms(self, text: str) -> tuple[np.ndarray, np.ndarray] | None:
        """Sorted unique bucket ids and their term counts for ``text``'s first ``max_words`` tokens.

        Splits on whitespace and counts raw tokens first ("bread," and "bread" separately), then maps each
        distinct token to its words' buckets through a cache: the regex then runs once per new token
        instead of over the whole text, ~3x faster; counts of tokens sharing a bucket are summed.
        """
        tokens = text[: self.max_chars].lower().split()
        if not tokens:
            return None
        counts = Counter(tokens[: self.max_words])
        cache = self._token_buckets
        buckets = [cache.get(token) for token in counts]  # a list comprehension: no per-token numpy writes
        # Tokens holding several words ("well-known", "état-major") map to tuples; they are few, so they are
        # looked up by set intersection rather than by testing every token.
        multi = {token: cache[token] for token in self._multi_word_tokens.intersection(counts)}
        if None in buckets:
            for i, token in enumerate(counts):
                if buckets[i] is None:
                    value = buckets[i] = self._learn_token(token)
                    if isinstance(value, tuple):
                        multi[token] = value
        weights = np.fromiter(counts.values(), dtype=np.float64, count=len(counts))
        if multi:
            ids = np.array([-1 if isinstance(b, tuple) else b for b in buckets], dtype=np.int64)
            extra = [(bucket, counts[token]) for token, value in multi.items() for bucket in value]
            ids = np.concatenate([ids, np.array([b for b, _ in extra], dtype=np.int64)])
            weights = np.concatenate([weights, np.array([c for _, c in extra], dtype=np.float64)])
        else:
            ids = np.array(buckets, dtype=np.int64)
        if (ids < 0).any():  # tokens without a word ("2024", "--")
            keep = ids >= 0
            ids, weights = ids[keep], weights[keep]
            if not len(ids):
                return None
        unique, inverse = np.unique(ids, return_inverse=True)
        return unique, np.bincount(inverse, weights=weights, minlength=len(unique))

    def _learn_token(self, token: str) -> int | tuple[int, ...]:
        """Bucket of the token's word, a tuple when it holds several words, -1 when it holds none."""
        buckets = []
        for word in _WORD.findall(token):
            bucket = zlib.crc32(word.encode("utf-8", "replace")) & self._mask
            if len(self._words) < self.max_vocabulary:
                self._words.setdefault(bucket, word)
            buckets.append(bucket)
        value: int | tuple[int, ...] = -1 if not buckets else buckets[0] if len(buckets) == 1 else tuple(buckets)
        if len(self._token_buckets) >= self.max_vocabulary:
            # The simplest bounded cache: deterministic, and refilling it is cheap.
            self._token_buckets.clear()
            self._multi_word_tokens.clear()
        self._token_buckets[token] = value
        if isinstance(value, tuple):
            self._multi_word_tokens.add(token)
        return value

    def _vector(self, ids: np.ndarray, tfs: np.ndarray) -> np.ndarray | None:
        """L2-normalised sublinear tf-idf weights for ``ids`` under the current document frequencies."""
        idf = np.log((1.0 + self._n_docs) / (1.0 + self._df[ids]))
        values = (1.0 + np.log(tfs)) * idf
        norm = float(np.sqrt(values @ values))
        if norm == 0.0:
            return None
        return values / norm

    # --- observing pages

    def observe(self, host: str, text: str) -> int | None:
        """Count ``text`` (a page of ``host``); return its topic id, or None before seeding / for empty text."""
        self._adjust_cache.clear()
        self.pages_observed += 1
        terms = self._terms(text or "")
        if terms is None:
            self.pages_without_topic += 1
            return None
        ids, tfs = terms
        self._df[ids] += 1
        self._n_docs += 1
        if self._centres is None:
            self._buffer.append((host, ids, tfs))
            if len(self._buffer) >= self.seed_pages:
                return self._seed()[-1]
            return None
        values = self._vector(ids, tfs)
        if values is None:
            self.pages_without_topic += 1
            return None
        return self._assign(host, ids, values)

    def seed_now(self) -> bool:
        """Seed from the pages buffered so far (at least k of them), e.g. when a small crawl ends."""
        if self._centres is None and len(self._buffer) >= self.k:
            self._seed()
        return self._centres is not None

    def _count(self, host: str, slot: int, delta: int = 1) -> None:
        self._sizes[slot] += delta
        counts = self._host_topics.get(host)
        if counts is None:
            counts = self._host_topics[host] = np.zeros(self.k, dtype=np.int64)
        counts[slot] += delta

    def _assign(self, host: str, ids: np.ndarray, values: np.ndarray) -> int:
        centres = self._centres
        assert centres is not None
        dots = (values.astype(np.float32) @ centres[ids]).astype(np.float64) * self._scale
        similarities = dots / np.sqrt(np.maximum(self._sq_norm, 1e-30))
        slot = int(np.argmax(similarities))
        best = float(similarities[slot])
        outlier = best < self.novelty * self._typical
        # ~100-page memory: follows a drifting crawl, ignores single odd pages.
        self._typical += 0.01 * (best - self._typical)
        self._count(host, slot)
        topic = int(self._slot_ids[slot])
        if outlier:
            new_topic = self._add_outlier(_Outlier(host, ids, values, topic))
            return topic if new_topic is None else new_topic
        # Move the centre: c <- (1 - eta) c + eta x, with c stored as scale * row so only x's buckets
        # are touched; the squared norm follows from ||x|| = 1 and the dot product already computed.
        eta = max(1.0 / self._sizes[slot], self.min_learning_rate)
        dot = dots[slot]
        self._sq_norm[slot] = (1 - eta) ** 2 * self._sq_norm[slot] + 2 * eta * (1 - eta) * dot + eta**2
        self._scale[slot] *= 1 - eta
        centres[ids, slot] += (eta / self._scale[slot]) * values
        if self._scale[slot] < 1e-6:
            # Fold the scale back into the column before float32 loses precision (every ~7,000 updates at
            # the minimum rate); recompute the norm exactly, which also removes accumulated rounding.
            self._set_centre(slot, centres[:, slot] * np.float32(self._scale[slot]))
        return topic

    # --- new topics from outliers

    def _add_outlier(self, page: _Outlier) -> int | None:
        """Buffer an outlier; if it completes a group of similar outliers, make them a topic (its new id)."""
        key = self._outlier_key
        self._outlier_key += 1
        scratch = self._scratch
        scratch[page.ids] = page.values
        for other_key, other in self._outliers.items():
            if float(scratch[other.ids] @ other.values) >= self.pair_similarity:
                page.neighbours.add(other_key)
                other.neighbours.add(key)
        scratch[page.ids] = 0.0
        self._outliers[key] = page
        while len(self._outliers) > self.outlier_buffer:
            old_key, old = self._outliers.popitem(last=False)
            for other_key in old.neighbours:
                if other_key in self._outliers:
                    self._outliers[other_key].neighbours.discard(old_key)
        if key not in self._outliers:
            return None
        # Only the new page and its neighbours gained a neighbour: the best core is among them.
        core = max([key, *sorted(page.neighbours)], key=lambda k: (len(self._outliers[k].neighbours), -k))
        members = [core, *sorted(self._outliers[core].neighbours)]
        if len(members) < self.min_new_topic_pages:
            return None
        new_topic = self._new_topic([self._outliers.pop(k) for k in members])
        for other in self._outliers.values():
            other.neighbours.difference_update(members)
        return new_topic if key in members else None

    def _slot_of(self, topic: int) -> int | None:
        while topic in self._merged_into:
            topic = self._merged_into[topic]
        slots = np.flatnonzero(self._slot_ids == topic)
        return int(slots[0]) if len(slots) else None

    def _new_topic(self, pages: list[_Outlier]) -> int:
        """Merge the two most similar topics to free a slot, and start a topic there from ``pages``."""
        centres = self._centres
        assert centres is not None
        true = centres * self._scale[None, :].astype(np.float32)  # n_features x k
        gram = (true.T @ true).astype(np.float64)
        norms = np.sqrt(np.maximum(np.diag(gram), 1e-30))
        cosine = gram / np.outer(norms, norms)
        np.fill_diagonal(cosine, -np.inf)
        a, b = np.unravel_index(int(np.argmax(cosine)), cosine.shape)  # first maximum: deterministic
        keep, free = (int(a), int(b)) if (self._sizes[a], -a) >= (self._sizes[b], -b) else (int(b), int(a))
        n_keep, n_free = int(self._sizes[keep]), int(self._sizes[free])
        merged = (n_keep * true[:, keep] + n_free * true[:, free]) / max(n_keep + n_free, 1)
        self._set_centre(keep, merged)
        self._sizes[keep] += self._sizes[free]
        for counts in self._host_topics.values():
            counts[keep] += counts[free]
            counts[free] = 0
        self._merged_into[int(self._slot_ids[free])] = int(self._slot_ids[keep])

        topic = self._next_id
        self._next_id += 1
        self.topics_created += 1
        self._slot_ids[free] = topic
        self._sizes[free] = 0
        centre = np.zeros(self.n_features, dtype=np.float64)
        for page in pages:
            centre[page.ids] += page.values
        self._set_centre(free, centre / len(pages))
        for page in pages:  # move each page from the topic it was counted in
            old = self._slot_of(page.topic)
            if old is not None and self._host_topics[page.host][old] > 0:
                self._count(page.host, old, -1)
            self._count(page.host, free)
        return topic

    def _set_centre(self, slot: int, centre: np.ndarray) -> None:
        assert self._centres is not None
        self._centres[:, slot] = centre
        self._scale[slot] = 1.0
        column = self._centres[:, slot]
        self._sq_norm[slot] = float(np.dot(column, column))

    def _seed(self) -> list[int | None]:
        """k-means++ on the buffered pages, then Lloyd passes; returns the buffered pages' topics.

        Stays unseeded (returns all None) while fewer than k buffered pages have a non-zero vector; the
        uninformative ones are dropped from the buffer then, so it stays small.
        """
        vectors = [self._vector(ids, tfs) for _, ids, tfs in self._buffer]
        informative = [i for i, values in enumerate(vectors) if values is not None]
        if len(informative) < self.k:
            self.pages_without_topic += len(self._buffer) - len(informative)
            self._buffer = [self._buffer[i] for i in informative]
            return [None] * len(vectors)
        hosts = [self._buffer[i][0] for i in informative]
        doc_ids = [self._buffer[i][1] for i in informative]
        doc_values = [vectors[i] for i in informative]
        self.pages_without_topic += len(self._buffer) - len(informative)
        self._buffer = []
        n_docs = len(doc_ids)
        lengths = [len(ids) for ids in doc_ids]
        # Work in the columns the buffered pages use, not all n_features buckets: far less memory.
        columns, flat_cols = np.unique(np.concatenate(doc_ids), return_inverse=True)
        flat_values = np.concatenate(doc_values)
        offsets = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        row_of = np.repeat(np.arange(n_docs), lengths)
        doc_cols = np.split(flat_cols, np.cumsum(lengths)[:-1])

        def similarities(centres: np.ndarray) -> np.ndarray:
            # pages x centres dot products: per-element products summed per page (pages are contiguous)
            return np.add.reduceat(centres[:, flat_cols] * flat_values, offsets, axis=1).T

        def one_hot(index: int) -> np.ndarray:
            row = np.zeros(len(columns))
            row[doc_cols[index]] = doc_values[index]
            return row

        # k-means++ with distance 1 - cos, deterministic through the seeded generator
        rng = np.random.default_rng(self.seed)
        chosen = [int(rng.integers(n_docs))]
        best = np.full(n_docs, -np.inf)
        for _ in range(1, self.k):
            best = np.maximum(best, similarities(one_hot(chosen[-1])[None, :])[:, 0])
            weights = np.maximum(1.0 - best, 0.0) ** 2
            total = float(weights.sum())
            chosen.append(int(rng.choice(n_docs, p=weights / total)) if total > 0 else int(np.argmin(best)))
        centres = np.stack([one_hot(index) for index in chosen])

        labels = np.full(n_docs, -1, dtype=np.int64)
        for _ in range(self.lloyd_iterations):
            sims = similarities(centres)
            new_labels = np.argmax(sims, axis=1)
            if np.array_equal(new_labels, labels):
                break
            labels = new_labels
            sums = np.zeros_like(centres)
            np.add.at(sums, (labels[row_of], flat_cols), flat_values)
            own = sims[np.arange(n_docs), labels]
            for j in np.flatnonzero(np.bincount(labels, minlength=self.k) == 0):
                # An empty centre takes the page worst served by its own centre (deterministic).
                far = int(np.argmin(own))
                own[far] = np.inf
                sums[j] = one_hot(far)
            centres = sums / np.maximum(np.linalg.norm(sums, axis=1, keepdims=True), 1e-30)
        labels = np.argmax(similarities(centres), axis=1)

        # The online state: each centre is the mean of its pages (not normalised), as the online update keeps.
        sums = np.zeros_like(centres)
        np.add.at(sums, (labels[row_of], flat_cols), flat_values)
        sizes = np.bincount(labels, minlength=self.k)
        means = sums / np.maximum(sizes, 1)[:, None]
        self._centres = np.zeros((self.n_features, self.k), dtype=np.float32)
        self._centres[columns, :] = means.T
        self._scale = np.ones(self.k, dtype=np.float64)
        self._sq_norm = np.einsum("ij,ij->i", means, means)
        for host, label in zip(hosts, labels, strict=True):
            self._count(host, int(label))
        # The running mean best similarity starts from each seed page's similarity to its topic without
        # itself (leave-one-out): with the page in, small seed topics would look tighter than later pages.
        own = similarities(sums)[np.arange(n_docs), labels]  # x . S, S = sum of the page's topic
        rest_sq = np.einsum("ij,ij->i", sums, sums)[labels] - 2 * own + 1.0  # ||S - x||^2
        shared = sizes[labels] > 1
        if shared.any():
            loo = (own[shared] - 1.0) / np.sqrt(np.maximum(rest_sq[shared], 1e-30))
            self._typical = float(np.mean(loo))
        out: list[int | None] = [None] * len(vectors)
        for i, label in zip(informative, labels, strict=True):
            out[i] = int(label)
        return out

    # --- steering and reporting

    def adjustment(self, host: str) -> int:
        """Priority adjustment (<= 0) for requests to ``host`` from its topic mix; 0 before seeding."""
        cached = self._adjust_cache.get(host)
        if cached is not None:
            return cached
        value = 0
        counts = self._host_topics.get(host)
        total = int(self._sizes.sum())
        if counts is not None and total > 0 and counts.sum() >= self.min_host_pages:
            over = float((counts / counts.sum()) @ (self._sizes / total)) * self.k
            if over > 1.0:
                value = -min(self.max_penalty, round(self.penalty_per_doubling * math.log2(over)))
        self._adjust_cache[host] = value
        return value

    def host_topics(self, host: str) -> dict[int, int]:
        """Pages of ``host`` per topic id (topics with at least one page)."""
        counts = self._host_topics.get(host)
        return {} if counts is None else {int(self._slot_ids[slot]): int(c) for slot, c in enumerate(counts) if c}

    def distribution(self) -> dict[int, dict]:
        """Per topic id: ``count``, ``share``, ``hosts`` (hosts with a page in it), ``top_terms``; {} before seeding.

        Ids are the current topics' (0..k-1 at seeding, higher for topics created since); a merged topic's
        pages are counted under the topic it was merged into.
        """
        if self._centres is None:
            return {}
        total = int(self._sizes.sum())
        hosts = np.zeros(self.k, dtype=np.int64)
        for counts in self._host_topics.values():
            hosts += counts > 0
        out: dict[int, dict] = {}
        for slot in np.argsort(self._slot_ids, kind="stable"):
            row = self._centres[:, slot]
            # Partition only the non-zero buckets: argpartition over 2**18 mostly-equal zeros is slow.
            nonzero = np.flatnonzero(row > 0)
            n_top = min(self.top_terms, len(nonzero))
            top = nonzero[np.argpartition(row[nonzero], -n_top)[-n_top:]] if n_top else nonzero
            # Highest weight first; ties by bucket id so the report is deterministic.
            top = top[np.lexsort((top, -row[top]))]
            terms = [self._words.get(int(b), f"#{int(b)}") for b in top]
            out[int(self._slot_ids[slot])] = {
                "count": int(self._sizes[slot]),
                "share": round(int(self._sizes[slot]) / total, 4) if total else 0.0,
                "hosts": int(hosts[slot]),
                "top_terms": terms,
            }
        return out
