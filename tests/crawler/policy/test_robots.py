"""RFC 9309 conformance of `crawler.policy.robots`, table-driven.

Cases follow the RFC's sections and the behaviour pinned by Google's reference parser tests (robotstxt,
robots_test.cc), restated here. Where this module deliberately differs from Google's library the test says so:
the URL is percent-normalised here (RFC 9309 §2.2.2 requires it of the matcher; Google leaves it to the caller).
"""

from __future__ import annotations

import pytest

from crawler.policy.robots import (
    DEFAULT_MAX_BYTES,
    RobotsRules,
    is_allowed,
    normalize_path,
    path_of,
    product_token,
    rules_for_fetch,
)

U = "http://foo.bar"

# (id, robots.txt, user agent, url, expected)
Case = tuple[str, str, str, str, bool]


def _run(cases: list[Case]) -> pytest.MarkDecorator:
    ids = [c[0] for c in cases]
    return pytest.mark.parametrize(("robots", "agent", "url", "expected"), [c[1:] for c in cases], ids=ids)


# ---------------------------------------------------------------------------------------------------------------
# Groups: RFC 9309 §2.1, §2.2.1
# ---------------------------------------------------------------------------------------------------------------

GROUPS_TXT = (
    "allow: /foo/bar/\n"
    "\n"
    "user-agent: FooBot\n"
    "disallow: /\n"
    "allow: /x/\n"
    "user-agent: BarBot\n"
    "disallow: /\n"
    "allow: /y/\n"
    "\n"
    "\n"
    "allow: /w/\n"
    "user-agent: BazBot\n"
    "\n"
    "user-agent: FooBot\n"
    "allow: /z/\n"
    "disallow: /\n"
)

GROUP_CASES: list[Case] = [
    ("merged-first-group", GROUPS_TXT, "FooBot", f"{U}/x/b", True),
    ("merged-second-group", GROUPS_TXT, "FooBot", f"{U}/z/d", True),
    ("merged-not-other-group", GROUPS_TXT, "FooBot", f"{U}/y/c", False),
    ("own-group", GROUPS_TXT, "BarBot", f"{U}/y/c", True),
    ("blank-lines-do-not-end-group", GROUPS_TXT, "BarBot", f"{U}/w/a", True),
    ("other-group-not-applied", GROUPS_TXT, "BarBot", f"{U}/z/d", False),
    ("multiple-agents-one-group", GROUPS_TXT, "BazBot", f"{U}/z/d", True),
    ("rules-before-any-agent-ignored-foo", GROUPS_TXT, "FooBot", f"{U}/foo/bar/", False),
    ("rules-before-any-agent-ignored-bar", GROUPS_TXT, "BarBot", f"{U}/foo/bar/", False),
    ("rules-before-any-agent-ignored-baz", GROUPS_TXT, "BazBot", f"{U}/foo/bar/", False),
    ("rfc-merge-example-foo", "user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\n"
     "user-agent: ExampleBot\ndisallow: /baz\n", "ExampleBot", f"{U}/foo", False),
    ("rfc-merge-example-baz", "user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\n"
     "user-agent: ExampleBot\ndisallow: /baz\n", "ExampleBot", f"{U}/baz", False),
    ("rfc-merge-example-other", "user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\n"
     "user-agent: ExampleBot\ndisallow: /baz\n", "ExampleBot", f"{U}/qux", True),
    ("empty-file", "", "FooBot", f"{U}/x/y", True),
    ("global-ignored-when-specific", "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n", "FooBot",
     f"{U}/x/y", False),
    ("global-used-when-no-specific", "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n", "BarBot",
     f"{U}/x/y", True),
    ("no-group-no-global", "user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\n"
     "user-agent: BazBot\ndisallow: /\n", "QuxBot", f"{U}/x/y", True),
    ("global-groups-merged", "user-agent: *\ndisallow: /a\n\nuser-agent: FooBot\nallow: /\n\n"
     "user-agent: *\ndisallow: /b\n", "QuxBot", f"{U}/b", False),
    ("specific-group-implicitly-allows", "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n",
     "FooBot", f"{U}/x/page", True),
    ("specific-group-disallows", "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n",
     "FooBot", f"{U}/y/page", False),
    ("empty-last-group-allows", "User-Agent: *\nDisallow: /\n\nUser-Agent: quxbot\n", "quxbot", f"{U}/a", True),
    ("empty-group-still-shadows-global", "user-agent: FooBot\n\nuser-agent: *\ndisallow: /\n", "FooBot",
     f"{U}/a", False),  # FooBot and * share this group (no rule between the two user-agent lines)
    # a Sitemap line is no rule: FooBot and * still share the group (Google's HandleSitemap does nothing; §2.2.4)
    ("sitemap-does-not-close-empty-group", "user-agent: FooBot\nsitemap: http://x/s.xml\nuser-agent: *\n"
     "disallow: /\n", "FooBot", f"{U}/a", False),
    ("agent-and-global-in-one-group", "user-agent: *\nuser-agent: FooBot\ndisallow: /a\n", "FooBot", f"{U}/a",
     False),
    # Product-token matching is exact (case-insensitive), not by prefix: the deviation from Protego.
    ("no-prefix-match-extended", "user-agent: FooBot\ndisallow: /\n", "FooBot-Extended", f"{U}/a", True),
    ("no-prefix-match-other-way", "user-agent: FooBot-Extended\ndisallow: /\n", "FooBot", f"{U}/a", True),
    ("extended-falls-back-to-global", "user-agent: *\ndisallow: /\nuser-agent: FooBot\nallow: /\n",
     "FooBot-Extended", f"{U}/a", False),
    ("extended-own-group", "user-agent: FooBot\nallow: /\nuser-agent: FooBot-Extended\ndisallow: /private\n",
     "FooBot-Extended", f"{U}/private/x", False),
    ("agent-case-insensitive-upper", "User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n", "Foo", f"{U}/x/y", True),
    ("agent-case-insensitive-lower", "User-Agent: foo bar\nAllow: /x/\nDisallow: /\n", "Foo", f"{U}/a/b", False),
    ("agent-case-insensitive-camel", "User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n", "foo", f"{U}/x/y", True),
    ("agent-case-insensitive-query", "User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n", "foo", f"{U}/a/b", False),
    # Google: a user-agent value is read up to its first character outside [a-zA-Z_-].
    ("agent-value-up-to-space", "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n",
     "Foo", f"{U}/x/y", True),
    ("invalid-crawler-token-uses-global", "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\n"
     "Disallow: /\n", "Foo Bar", f"{U}/x/y", False),
    ("agent-value-with-version", "user-agent: FooBot/1.2\ndisallow: /\n", "FooBot", f"{U}/a", False),
    ("star-with-trailing-text-is-global", "user-agent: * # all\ndisallow: /a\n", "FooBot", f"{U}/a", False),
    ("star-glued-is-not-global", "user-agent: *bot\ndisallow: /a\n", "FooBot", f"{U}/a", True),
    ("full-user-agent-string", "user-agent: winnowbot\ndisallow: /a\n", "winnowbot/0.1 (+https://x.test/bot)",
     f"{U}/a", False),
    ("underscore-token", "user-agent: Foo_Bot\ndisallow: /a\n", "foo_bot", f"{U}/a", False),
    ("empty-agent-means-global-only", "user-agent: FooBot\ndisallow: /\n", "", "", True),
    ("empty-url-is-root", "user-agent: FooBot\ndisallow: /\n", "FooBot", "", False),
    ("everything-empty", "", "", "", True),
]


@_run(GROUP_CASES)
def test_groups(robots: str, agent: str, url: str, expected: bool) -> None:
    assert is_allowed(robots, agent, url) is expected


# ---------------------------------------------------------------------------------------------------------------
# Allow / Disallow matching: RFC 9309 §2.2.2, §2.2.3
# ---------------------------------------------------------------------------------------------------------------


def _foo(*lines: str) -> str:
    return "user-agent: FooBot\n" + "".join(f"{line}\n" for line in lines)


MATCH_CASES: list[Case] = [
    ("case-sensitive-path-match", _foo("disallow: /x/"), "FooBot", f"{U}/x/y", False),
    ("case-sensitive-path-miss", _foo("disallow: /X/"), "FooBot", f"{U}/x/y", True),
    ("longest-disallow-wins", _foo("disallow: /x/page.html", "allow: /x/"), "FooBot", f"{U}/x/page.html", False),
    ("longest-allow-wins", _foo("allow: /x/page.html", "disallow: /x/"), "FooBot", f"{U}/x/page.html", True),
    ("shorter-disallow-applies-elsewhere", _foo("allow: /x/page.html", "disallow: /x/"), "FooBot", f"{U}/x/",
     False),
    ("empty-allow-and-disallow", _foo("disallow: ", "allow: "), "FooBot", f"{U}/x/page.html", True),
    ("empty-disallow-allows", _foo("disallow:"), "FooBot", f"{U}/anything", True),
    ("empty-disallow-no-colon-value", "user-agent: FooBot\ndisallow\n", "FooBot", f"{U}/a", True),
    ("tie-allow-wins-root", _foo("disallow: /", "allow: /"), "FooBot", f"{U}/x/page.html", True),
    ("tie-allow-wins-page", _foo("disallow: /x/page.html", "allow: /x/page.html"), "FooBot", f"{U}/x/page.html",
     True),
    ("tie-allow-wins-order-independent", _foo("allow: /a", "disallow: /a"), "FooBot", f"{U}/a", True),
    ("dir-vs-file-no-slash", _foo("disallow: /x", "allow: /x/"), "FooBot", f"{U}/x", False),
    ("dir-vs-file-slash", _foo("disallow: /x", "allow: /x/"), "FooBot", f"{U}/x/", True),
    ("wildcard-longer-wins", _foo("allow: /page", "disallow: /*.html"), "FooBot", f"{U}/page.html", False),
    ("wildcard-no-match", _foo("allow: /page", "disallow: /*.html"), "FooBot", f"{U}/page", True),
    ("allow-longer-than-wildcard", _foo("allow: /x/page.", "disallow: /*.html"), "FooBot", f"{U}/x/page.html", True),
    ("wildcard-other-file", _foo("allow: /x/page.", "disallow: /*.html"), "FooBot", f"{U}/x/y.html", False),
    ("rfc-longest-match-example", "User-Agent: foobot\nAllow: /example/page/\n"
     "Disallow: /example/page/disallowed.gif\n", "foobot", f"{U}/example/page/disallowed.gif", False),
    ("star-middle-disallow", _foo("Disallow: /foo/bar/quz", "Allow: /foo/*/qux"), "FooBot", f"{U}/foo/bar/quz",
     False),
    ("star-middle-1", _foo("Disallow: /foo/bar/quz", "Allow: /foo/*/qux"), "FooBot", f"{U}/foo/quz", True),
    ("star-middle-2", _foo("Disallow: /foo/bar/quz", "Allow: /foo/*/qux"), "FooBot", f"{U}/foo//quz", True),
    ("star-middle-3", _foo("Disallow: /foo/bar/quz", "Allow: /foo/*/qux"), "FooBot", f"{U}/foo/bax/quz", True),
    ("dollar-exact", _foo("Disallow: /foo/bar$", "Allow: /foo/bar/qux"), "FooBot", f"{U}/foo/bar", False),
    ("dollar-longer-path-1", _foo("Disallow: /foo/bar$", "Allow: /foo/bar/qux"), "FooBot", f"{U}/foo/bar/qux", True),
    ("dollar-longer-path-2", _foo("Disallow: /foo/bar$", "Allow: /foo/bar/qux"), "FooBot", f"{U}/foo/bar/", True),
    ("dollar-longer-path-3", _foo("Disallow: /foo/bar$", "Allow: /foo/bar/qux"), "FooBot", f"{U}/foo/bar/baz", True),
    ("dollar-in-middle-is-literal", _foo("disallow: /a$b"), "FooBot", f"{U}/a$b", False),
    ("dollar-in-middle-not-anchor", _foo("disallow: /a$b"), "FooBot", f"{U}/a", True),
    ("only-dollar-matches-nothing", _foo("disallow: $"), "FooBot", f"{U}/", True),
    ("star-dollar", _foo("disallow: /*$"), "FooBot", f"{U}/anything", False),
    ("leading-star", "User-Agent: *\nDisallow: *.gif$\n", "FooBot", f"{U}/a/b.gif", False),
    ("leading-star-not-end", "User-Agent: *\nDisallow: *.gif$\n", "FooBot", f"{U}/a/b.gif?x", True),
    ("pattern-without-slash-never-matches", _foo("disallow: foo"), "FooBot", f"{U}/foo", True),
    ("multiple-stars", _foo("disallow: /a*b*c"), "FooBot", f"{U}/axxbyyc", False),
    ("multiple-stars-order", _foo("disallow: /a*b*c"), "FooBot", f"{U}/acb", True),
    ("multiple-stars-anchored", _foo("disallow: /a*b*c$"), "FooBot", f"{U}/abcabc", False),
    ("multiple-stars-anchored-miss", _foo("disallow: /a*b*c$"), "FooBot", f"{U}/abcab", True),
    ("anchored-tail-cannot-overlap", _foo("disallow: /a*ab$"), "FooBot", f"{U}/ab", True),
    ("anchored-tail-after-star", _foo("disallow: /a*ab$"), "FooBot", f"{U}/aab", False),
    ("consecutive-stars", _foo("disallow: /a**z"), "FooBot", f"{U}/abcz", False),
    ("query-is-part-of-path", _foo("disallow: /search?q="), "FooBot", f"{U}/search?q=cats", False),
    ("query-other-param", _foo("disallow: /search?q="), "FooBot", f"{U}/search?page=2", True),
    ("query-wildcard", _foo("disallow: /*?sessionid="), "FooBot", f"{U}/a/b?sessionid=1", False),
    ("fragment-ignored", _foo("disallow: /a$"), "FooBot", f"{U}/a#frag", False),
    ("params-part-of-path", _foo("disallow: /a;jsessionid"), "FooBot", f"{U}/a;jsessionid=1", False),
    ("no-path-is-root", _foo("disallow: /$"), "FooBot", "http://foo.bar", False),
    ("no-path-query-only", _foo("disallow: /?a"), "FooBot", "http://foo.bar?a=1", False),
    ("robots-txt-always-allowed", _foo("disallow: /"), "FooBot", f"{U}/robots.txt", True),
    ("robots-txt-explicitly-disallowed", _foo("disallow: /robots.txt"), "FooBot", f"{U}/robots.txt", True),
    ("robots-txt-query-not-special", _foo("disallow: /"), "FooBot", f"{U}/robots.txt?x=1", False),
    ("other-scheme-port", _foo("disallow: /a"), "FooBot", "https://foo.bar:8443/a", False),
    ("path-only-input", _foo("disallow: /a"), "FooBot", "/a/b", False),
    # Google: "index.html" at the end of an Allow also allows the directory itself.
    ("index-html-dir", "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n", "foobot",
     "http://foo.com/allowed-slash/", True),
    ("index-html-not-htm", "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n", "foobot",
     "http://foo.com/allowed-slash/index.htm", False),
    ("index-html-exact", "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n", "foobot",
     "http://foo.com/allowed-slash/index.html", True),
    ("index-html-other", "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n", "foobot",
     "http://foo.com/anyother-url", False),
]


@_run(MATCH_CASES)
def test_matching(robots: str, agent: str, url: str, expected: bool) -> None:
    assert is_allowed(robots, agent, url) is expected


# Google's documentation examples ("URL matching based on path values", "Order of precedence").
DOC_PATTERNS = {
    "/fish": (["/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html",
               "/fish.html?id=anything"], ["/bar", "/Fish.asp", "/catfish", "/?id=fish"]),
    "/fish*": (["/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html",
                "/fish.html?id=anything"], ["/bar", "/Fish.bar", "/catfish", "/?id=fish"]),
    "/fish/": (["/fish/", "/fish/salmon", "/fish/?salmon", "/fish/salmon.html", "/fish/?id=anything"],
               ["/bar", "/fish", "/fish.html", "/Fish/Salmon.html"]),
    "/*.php": (["/filename.php", "/folder/filename.php", "/folder/filename.php?parameters",
                "//folder/any.php.file.html", "/filename.php/", "/index?f=filename.php/"],
               ["/bar", "/php/", "/index?php", "/windows.PHP"]),
    "/*.php$": (["/filename.php", "/folder/filename.php"],
                ["/bar", "/filename.php?parameters", "/filename.php/", "/filename.php5", "/php/", "/filename?php",
                 "/aaaphpaaa", "//windows.PHP"]),
    "/fish*.php": (["/fish.php", "/fishheads/catfish.php?parameters"], ["/bar", "/Fish.PHP"]),
}


@pytest.mark.parametrize("pattern", list(DOC_PATTERNS))
def test_google_documentation_patterns(pattern: str) -> None:
    robots = _foo("disallow: /", f"allow: {pattern}")
    allowed, disallowed = DOC_PATTERNS[pattern]
    assert [p for p in allowed if not is_allowed(robots, "FooBot", U + p)] == []
    assert [p for p in disallowed if is_allowed(robots, "FooBot", U + p)] == []


@pytest.mark.parametrize(
    ("robots", "url", "expected"),
    [
        (_foo("allow: /p", "disallow: /"), "http://example.com/page", True),
        (_foo("allow: /folder", "disallow: /folder"), "http://example.com/folder/page", True),
        (_foo("allow: /page", "disallow: /*.htm"), "http://example.com/page.htm", False),
        (_foo("allow: /$", "disallow: /"), "http://example.com/", True),
        (_foo("allow: /$", "disallow: /"), "http://example.com/page.html", False),
    ],
)
def test_google_order_of_precedence(robots: str, url: str, expected: bool) -> None:
    assert is_allowed(robots, "FooBot", url) is expected


# ---------------------------------------------------------------------------------------------------------------
# Percent-encoding: RFC 9309 §2.2.2 (both pattern and URL), §2.2.3 (escaped special characters)
# ---------------------------------------------------------------------------------------------------------------

ENCODING_CASES: list[Case] = [
    ("query-with-url-unencoded", _foo("Disallow: /", "Allow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par"),
     "FooBot", f"{U}/foo/bar?qux=taz&baz=http://foo.bar?tar&par", True),
    ("utf8-pattern-encoded-url", _foo("Disallow: /", "Allow: /foo/bar/ツ"), "FooBot", f"{U}/foo/bar/%E3%83%84", True),
    # Google's library expects the caller to encode the URL and answers False here; RFC 9309 §2.2.2 makes the
    # matcher encode URI octets outside ASCII, so the raw URL matches too.
    ("utf8-pattern-raw-url", _foo("Disallow: /", "Allow: /foo/bar/ツ"), "FooBot", f"{U}/foo/bar/ツ", True),
    ("encoded-pattern-encoded-url", _foo("Disallow: /", "Allow: /foo/bar/%E3%83%84"), "FooBot",
     f"{U}/foo/bar/%E3%83%84", True),
    ("encoded-pattern-raw-url", _foo("Disallow: /", "Allow: /foo/bar/%E3%83%84"), "FooBot", f"{U}/foo/bar/ツ", True),
    ("lowercase-hex-pattern", _foo("Disallow: /", "Allow: /foo/bar/%e3%83%84"), "FooBot",
     f"{U}/foo/bar/%E3%83%84", True),
    ("lowercase-hex-url", _foo("Disallow: /", "Allow: /foo/bar/%E3%83%84"), "FooBot", f"{U}/foo/bar/%e3%83%84", True),
    # RFC 9309 §2.2.2 table: /foo/bar/%62%61%7A is matched as /foo/bar/baz (escaped unreserved octets decoded).
    # (Google's test notes its own answer for the plain URL "should not be relied on".)
    ("unreserved-escapes-decoded-plain-url", _foo("Disallow: /", "Allow: /foo/bar/%62%61%7A"), "FooBot",
     f"{U}/foo/bar/baz", True),
    ("unreserved-escapes-decoded-escaped-url", _foo("Disallow: /", "Allow: /foo/bar/%62%61%7A"), "FooBot",
     f"{U}/foo/bar/%62%61%7A", True),
    ("unreserved-escape-in-url", _foo("Disallow: /abc"), "FooBot", f"{U}/%61bc", False),
    ("unreserved-tilde", _foo("Disallow: /~joe"), "FooBot", f"{U}/%7Ejoe/x", False),
    # Reserved characters: the escaped and raw forms mean different things and are not conflated.
    ("reserved-slash-escaped-not-raw", _foo("Disallow: /a/b"), "FooBot", f"{U}/a%2Fb", True),
    ("reserved-escaped-pattern-escaped-url", _foo("Disallow: /a%2fb"), "FooBot", f"{U}/a%2Fb", False),
    ("reserved-escaped-pattern-raw-url", _foo("Disallow: /a%2Fb"), "FooBot", f"{U}/a/b", True),
    ("reserved-query-chars-raw", _foo("Disallow: /q?a=1&b=2"), "FooBot", f"{U}/q?a=1&b=2", False),
    ("rfc-table-https-in-query-escaped", _foo("Disallow: /foo/bar?baz=https%3A%2F%2Ffoo.bar"), "FooBot",
     f"{U}/foo/bar?baz=https%3A%2F%2Ffoo.bar", False),
    # RFC 9309 §2.2.3: to match '*' or '$' literally, the pattern escapes them.
    ("escaped-star-matches-literal", _foo("Disallow: /path/file-with-a-%2A.html"), "FooBot",
     "https://www.example.com/path/file-with-a-*.html", False),
    ("escaped-star-not-wildcard", _foo("Disallow: /path/file-with-a-%2A.html"), "FooBot",
     "https://www.example.com/path/file-with-a-b.html", True),
    ("escaped-dollar-matches-literal", _foo("Disallow: /path/foo-%24"), "FooBot", "https://www.example.com/path/foo-$",
     False),
    ("escaped-dollar-not-anchor", _foo("Disallow: /path/foo-%24"), "FooBot", "https://www.example.com/path/foo-", True),
    ("space-in-url-escaped", _foo("Disallow: /a%20b"), "FooBot", f"{U}/a b", False),
    ("space-in-pattern", _foo("Disallow: /a b"), "FooBot", f"{U}/a%20b", False),
    ("latin1-char", _foo("Disallow: /SanJoséSellers"), "FooBot", f"{U}/SanJos%C3%A9Sellers", False),
    ("stray-percent", _foo("Disallow: /100%"), "FooBot", f"{U}/100%25", False),
    ("unsafe-char-escaped-equals-raw", _foo("Disallow: /a|b"), "FooBot", f"{U}/a%7Cb", False),
]


@_run(ENCODING_CASES)
def test_encoding(robots: str, agent: str, url: str, expected: bool) -> None:
    assert is_allowed(robots, agent, url) is expected


@pytest.mark.parametrize(
    ("raw", "normal"),
    [
        ("/a/b/c", "/a/b/c"),
        ("/á", "/%C3%A1"),
        ("/%aa", "/%AA"),
        ("/%62%61%7A", "/baz"),
        ("/a%2fb", "/a%2Fb"),
        ("/a*b$c", "/a%2Ab%24c"),
        ("/a b", "/a%20b"),
        ("/%zz", "/%25zz"),
    ],
)
def test_normalize_path(raw: str, normal: str) -> None:
    assert normalize_path(raw) == normal


# ---------------------------------------------------------------------------------------------------------------
# Line syntax: keys, separators, comments, BOM, line endings (RFC 9309 §2.2, Google leniency)
# ---------------------------------------------------------------------------------------------------------------

SYNTAX_CASES: list[Case] = [
    ("correct-syntax", "user-agent: FooBot\ndisallow: /\n", "FooBot", f"{U}/x/y", False),
    ("unknown-keys-ignored", "foo: FooBot\nbar: /\n", "FooBot", f"{U}/x/y", True),
    ("missing-colon-accepted", "user-agent FooBot\ndisallow /\n", "FooBot", f"{U}/x/y", False),
    ("missing-colon-three-words-rejected", "user-agent FooBot\ndisallow / extra\n", "FooBot", f"{U}/x/y", True),
    ("missing-colon-tab", "user-agent\tFooBot\ndisallow\t/\n", "FooBot", f"{U}/x/y", False),
    ("keys-upper", "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n", "FooBot", f"{U}/x/y", True),
    ("keys-upper-disallowed", "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n", "FooBot", f"{U}/a/b", False),
    ("keys-camel", "uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n", "FooBot", f"{U}/x/y", True),
    ("keys-camel-disallowed", "uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n", "FooBot", f"{U}/a/b", False),
    ("whitespace-around-colon", "  user-agent  :  FooBot  \n\tdisallow\t:\t/a\t\n", "FooBot", f"{U}/a", False),
    ("no-space-after-colon", "User-Agent: foobot\nDisallow:/\nAllow:/example/page.html\n", "foobot",
     f"{U}/example/page.html", True),
    ("no-space-after-colon-disallowed", "User-Agent: foobot\nDisallow:/\nAllow:/example/page.html\n", "foobot",
     f"{U}/example/other", False),
    ("typo-useragent", "useragent: FooBot\ndisallow: /\n", "FooBot", f"{U}/a", False),
    ("typo-user-space-agent", "user agent: FooBot\ndisallow: /\n", "FooBot", f"{U}/a", False),
    ("typo-dissallow", "user-agent: FooBot\ndissallow: /\n", "FooBot", f"{U}/a", False),
    ("typo-dissalow", "user-agent: FooBot\ndissalow: /\n", "FooBot", f"{U}/a", False),
    ("typo-disalow", "user-agent: FooBot\ndisalow: /\n", "FooBot", f"{U}/a", False),
    ("typo-diasllow", "user-agent: FooBot\ndiasllow: /\n", "FooBot", f"{U}/a", False),
    ("typo-disallaw", "user-agent: FooBot\ndisallaw: /\n", "FooBot", f"{U}/a", False),
    ("comment-line", "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n", "FooBot",
     f"{U}/foo/bar", True),
    ("trailing-comment-cut", "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n", "FooBot",
     f"{U}/foo/quz", False),
    ("comment-after-agent", "User-agent: FooBot # our bot\nDisallow: /a # no\n", "FooBot", f"{U}/a", False),
    ("comment-between-agents-keeps-group", "User-agent: FooBot\n# comment\nUser-agent: BarBot\nDisallow: /a\n",
     "FooBot", f"{U}/a", False),
    ("crlf", "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n", "bar", f"{U}/x",
     False),
    ("crlf-first-group", "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n", "foo",
     f"{U}/x", True),
    ("cr-only", "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r", "bar", f"{U}/x", False),
    ("lf-no-final-newline", "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /", "bar", f"{U}/x",
     False),
    ("mixed-endings", "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /", "bar", f"{U}/x",
     False),
    ("bom-skipped", "\ufeffUser-Agent: foo\nDisallow: /AnyValue\n", "foo", f"{U}/AnyValue", False),
    ("bom-mid-file-breaks-line", "User-Agent: foo\n\ufeffDisallow: /AnyValue\n", "foo", f"{U}/AnyValue", True),
    ("sitemap-does-not-end-group", "User-agent: FooBot\nDisallow: /a\nSitemap: http://foo.bar/s.xml\n"
     "Disallow: /b\n", "FooBot", f"{U}/b", False),
    ("unknown-record-in-group", "User-agent: FooBot\nNoindex: /x\nDisallow: /b\n", "FooBot", f"{U}/b", False),
    # RFC 9309 §2.2.4: other records "MUST NOT interfere"; between two user-agent lines they do not end the group
    # (issue 15: this allowed BarBot everything)
    ("sitemap-between-agents", "User-agent: BarBot\nSitemap: https://foo.bar/s.xml\nUser-agent: *\nDisallow: /\n",
     "BarBot", f"{U}/x", False),
    ("unknown-between-agents", "User-agent: BarBot\nNoindex: /x\nUser-agent: *\nDisallow: /\n", "BarBot",
     f"{U}/x", False),
    ("crawl-delay-between-agents", "User-agent: BarBot\nCrawl-delay: 5\nUser-agent: BazBot\nDisallow: /p\n",
     "BarBot", f"{U}/p", False),
    ("disallow-still-ends-group", "User-agent: BarBot\nDisallow: /a\nUser-agent: *\nDisallow: /\n", "BarBot",
     f"{U}/x", True),
]


@_run(SYNTAX_CASES)
def test_line_syntax(robots: str, agent: str, url: str, expected: bool) -> None:
    assert is_allowed(robots, agent, url) is expected


# ---------------------------------------------------------------------------------------------------------------
# Limits: RFC 9309 §2.5 (500 KiB) and Google's per-line cap
# ---------------------------------------------------------------------------------------------------------------


def test_content_past_500_kib_is_ignored() -> None:
    head = "user-agent: FooBot\ndisallow: /early\n"
    padding = "# " + "x" * 1000 + "\n"
    body = head + padding * (DEFAULT_MAX_BYTES // len(padding) + 5) + "disallow: /late\n"
    assert len(body.encode()) > DEFAULT_MAX_BYTES
    assert not is_allowed(body, "FooBot", f"{U}/early")
    assert is_allowed(body, "FooBot", f"{U}/late")
    rules = RobotsRules.parse(body)
    assert rules.truncated


def test_content_just_inside_500_kib_is_used() -> None:
    head = "user-agent: FooBot\n"
    tail = "disallow: /late\n"
    filler = DEFAULT_MAX_BYTES - len(head) - len(tail)
    body = head + "#" + "x" * (filler - 2) + "\n" + tail
    assert len(body.encode()) == DEFAULT_MAX_BYTES
    assert not is_allowed(body, "FooBot", f"{U}/late")


def test_line_cut_by_limit_is_dropped() -> None:
    head = "user-agent: FooBot\ndisallow: /\n"
    filler = "#" + "x" * (DEFAULT_MAX_BYTES - len(head) - 20) + "\n"
    body = head + filler + "allow: /public/but/only/this\n"
    # The limit falls inside the allow line: half of it ("allow: /pu") would allow far more than written.
    assert not is_allowed(body, "FooBot", f"{U}/pu")
    assert not is_allowed(body, "FooBot", f"{U}/public/but/only/this")


# Google robots.cc keeps 8 x 2083 - 1 bytes of a line (the buffer holds a terminator too).
MAX_LINE_BYTES = 2083 * 8 - 1


def test_long_line_cut_disallow() -> None:
    prefix = "disallow: "
    # Sized so that the kept bytes end right after the slash before "qux".
    longline = "/x/" + "a" * (MAX_LINE_BYTES - len(prefix) - 1 - 3)
    robots = "user-agent: FooBot\n" + prefix + longline + "/qux\n"
    assert is_allowed(robots, "FooBot", f"{U}/fux")
    assert not is_allowed(robots, "FooBot", f"{U}{longline}/fux")
    assert is_allowed(robots, "FooBot", f"{U}{longline}x")  # the cut keeps the slash, no less


def test_long_line_cut_allow() -> None:
    prefix = "allow: "
    size = MAX_LINE_BYTES - len(prefix) - 1 - 3
    line_a, line_b = "/x/" + "a" * size, "/x/" + "b" * size
    robots = f"user-agent: FooBot\ndisallow: /\n{prefix}{line_a}/qux\n{prefix}{line_b}/qux\n"
    assert not is_allowed(robots, "FooBot", f"{U}/")
    assert is_allowed(robots, "FooBot", f"{U}{line_a}/qux")
    assert is_allowed(robots, "FooBot", f"{U}{line_b}/fux")


def test_pathological_wildcards_are_fast() -> None:
    import time

    robots = _foo("disallow: /" + "*a" * 200 + "$")
    url = U + "/" + "a" * 5000 + "b"
    start = time.perf_counter()
    assert is_allowed(robots, "FooBot", url)
    assert time.perf_counter() - start < 0.5


# ---------------------------------------------------------------------------------------------------------------
# Helpers: product token, path extraction
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("agent", "token"),
    [
        ("Foobot", "foobot"),
        ("Foobot-Bar", "foobot-bar"),
        ("Foo_Bar", "foo_bar"),
        ("winnowbot/0.1 (+https://example.test/bot)", "winnowbot"),
        (" FooBot ", "foobot"),
        ("", ""),
        ("ツ", ""),
        ("Foobot*", ""),
        ("Foobot Bar", ""),
        ("Foobot2", ""),
    ],
)
def test_product_token(agent: str, token: str) -> None:
    assert product_token(agent) == token


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("", "/"),
        ("http://www.example.com", "/"),
        ("http://www.example.com/", "/"),
        ("http://www.example.com/a", "/a"),
        ("http://www.example.com/a/", "/a/"),
        ("http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/"),
        ("http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"),
        ("example.com", "/"),
        ("example.com/", "/"),
        ("example.com/a", "/a"),
        ("example.com/a/", "/a/"),
        ("example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"),
        ("a", "/"),
        ("a/", "/"),
        ("/a", "/a"),
        ("a/b", "/b"),
        ("example.com?a", "/?a"),
        ("example.com/a;b#c", "/a;b"),
        ("//a/b/c", "/b/c"),
        ("http://u:p@host:8080/x?y", "/x?y"),
    ],
)
def test_path_of(url: str, path: str) -> None:
    assert path_of(url) == path


# ---------------------------------------------------------------------------------------------------------------
# RobotsRules: crawl-delay, sitemaps, Content-Usage, constructors
# ---------------------------------------------------------------------------------------------------------------

POLICY_TXT = """\
Sitemap: https://foo.bar/sitemap-a.xml
User-agent: *
Disallow: /never/
Content-Usage: / train-ai=n
Content-Usage: /ai-ok/ train-ai=y
Crawl-delay: 3

User-agent: winnowbot
Allow: /
Disallow: /private/
Crawl-delay: 1.5
Content-Usage: / train-ai=y
Content-Usage: /papers/ train-ai=n   # reserved for training
Content-Usage: /papers/ search=y

User-agent: winnowbot-Extended
Disallow: /members/
site-map: https://foo.bar/sitemap-b.xml
"""


def test_crawl_delay_per_group() -> None:
    rules = RobotsRules.parse(POLICY_TXT)
    assert rules.crawl_delay("winnowbot") == 1.5
    assert rules.crawl_delay("otherbot") == 3.0
    assert rules.crawl_delay("winnowbot-Extended") is None  # its own group has none; '*' does not add to it


@pytest.mark.parametrize(
    ("text", "delay"),
    [
        ("user-agent: a\ncrawl-delay: 2\ncrawl-delay: 5\n", 5.0),
        ("user-agent: a\ncrawl-delay: 0.25\n", 0.25),
        ("user-agent: a\ncrawl-delay: soon\n", None),
        ("user-agent: a\ncrawl-delay: -1\n", None),
        ("user-agent: a\ncrawl-delay: nan\n", None),
        ("user-agent: a\nCRAWL-DELAY: 4\n", 4.0),
        ("user-agent: a\ndisallow: /\nuser-agent: a\ncrawl-delay: 7\n", 7.0),
        ("crawl-delay: 9\nuser-agent: a\n", None),
    ],
)
def test_crawl_delay_values(text: str, delay: float | None) -> None:
    assert RobotsRules.parse(text).crawl_delay("a") == delay


def test_sitemaps_anywhere_in_file() -> None:
    assert RobotsRules.parse(POLICY_TXT).sitemaps == ["https://foo.bar/sitemap-a.xml", "https://foo.bar/sitemap-b.xml"]


@pytest.mark.parametrize(
    ("token", "path", "usage"),
    [
        ("winnowbot", "/", "train-ai=y"),
        ("winnowbot", "/papers/1", "train-ai=n\nsearch=y"),  # identical paths: each preference, in order
        ("winnowbot", "/private/x", None),  # not crawlable: no preference applies
        ("otherbot", "/test", "train-ai=n"),
        ("otherbot", "/ai-ok/test", "train-ai=y"),
        ("otherbot", "/never/test", None),
        ("winnowbot-Extended", "/papers/1", None),
    ],
)
def test_content_usage(token: str, path: str, usage: str | None) -> None:
    assert RobotsRules.parse(POLICY_TXT).content_usage("https://foo.bar" + path, token) == usage


def test_content_usage_draft_example() -> None:
    # draft-ietf-aipref-attach, "Robots Exclusion Protocol Content-Usage Rule", example and table.
    text = (
        "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: / train-ai=n\n"
        "Content-Usage: /ai-ok/ train-ai=y\n\nUser-Agent: ExampleBot\nAllow: /\nContent-Usage: / train-ai=y\n"
    )
    rules = RobotsRules.parse(text)
    assert rules.content_usage("/test", "AnyBot") == "train-ai=n"
    assert rules.content_usage("/never/test", "AnyBot") is None
    assert rules.content_usage("/ai-ok/test", "AnyBot") == "train-ai=y"
    assert rules.content_usage("/never/test", "ExampleBot") == "train-ai=y"


@pytest.mark.parametrize(
    ("line", "path", "usage"),
    [
        ("Content-Usage: train-ai=n", "/x", "train-ai=n"),  # no path (early drafts): every path
        ("Content-Usage: /a/ train-ai=n", "/b", None),
        ("Content-Usage: /a/*.pdf train-ai=n", "/a/x/y.pdf", "train-ai=n"),
        ("Content-Usage: /a/ツ/ train-ai=n", "/a/%E3%83%84/x", "train-ai=n"),
        ("Content-Usage: /a/", "/a/", None),  # a path with no preference is not a rule
        ("content-usage:/\ttrain-ai=n", "/x", "train-ai=n"),
    ],
)
def test_content_usage_rule_syntax(line: str, path: str, usage: str | None) -> None:
    rules = RobotsRules.parse(f"User-agent: *\n{line}\n")
    assert rules.content_usage(path, "bot") == usage


def test_content_usage_path_beats_pathless() -> None:
    rules = RobotsRules.parse("User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: / train-ai=y\n")
    assert rules.content_usage("/x", "bot") == "train-ai=y"


def test_allow_all_and_disallow_all() -> None:
    everything = RobotsRules.allow_all()
    nothing = RobotsRules.disallow_all()
    assert everything.allowed("http://foo.bar/x", "bot")
    assert not nothing.allowed("http://foo.bar/x", "bot")
    assert nothing.allowed("http://foo.bar/robots.txt", "bot")
    assert nothing.crawl_delay("bot") is None and nothing.content_usage("/x", "bot") is None
    assert everything.sitemaps == [] and everything.reason == "allow_all"


def test_policy_cached_per_token() -> None:
    rules = RobotsRules.parse(POLICY_TXT)
    assert rules.allowed("/private/x", "winnowbot/0.1") is False
    assert rules.allowed("/private/x", "WINNOWBOT") is False
    assert rules.allowed("/members/x", "winnowbot-extended") is False
    assert rules.allowed("/members/x", "winnowbot") is True


# ---------------------------------------------------------------------------------------------------------------
# Fetch outcomes: RFC 9309 §2.3.1
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "reason", "allows"),
    [
        (200, "parsed", False),
        (204, "parsed", True),  # empty body: no rules
        (301, "unavailable_redirects", True),
        (401, "unavailable_4xx", True),
        (403, "unavailable_4xx", True),
        (404, "unavailable_4xx", True),
        (410, "unavailable_4xx", True),
        (429, "unreachable_429", False),
        (500, "unreachable_5xx", False),
        (503, "unreachable_5xx", False),
        (None, "unreachable_error", False),
    ],
)
def test_rules_for_fetch_status(status: int | None, reason: str, allows: bool) -> None:
    body = b"User-agent: *\nDisallow: /\n" if status == 200 else b""
    rules = rules_for_fetch(status, body)
    assert rules.reason == reason
    assert rules.status == status
    assert rules.allowed("http://foo.bar/page", "winnowbot") is allows
    assert rules.allowed("http://foo.bar/robots.txt", "winnowbot")


@pytest.mark.parametrize("bom", [b"\xef\xbb\xbf", b"\xef\xbb", b"\xef"])
def test_rules_for_fetch_strips_whole_or_partial_bom(bom: bytes) -> None:
    rules = rules_for_fetch(200, bom + b"User-Agent: foo\nDisallow: /AnyValue\n")
    assert not rules.allowed("/AnyValue", "foo")


def test_rules_for_fetch_broken_bom_spoils_first_line_only() -> None:
    rules = rules_for_fetch(200, b"\xef\x11\xbfUser-Agent: foo\nDisallow: /AnyValue\n")
    assert rules.allowed("/AnyValue", "foo")  # the user-agent line is garbage, so the rule is outside any group
    rules = rules_for_fetch(200, b"User-Agent: *\n\xef\x11\xbfDisallow: /x\nDisallow: /AnyValue\n")
    assert not rules.allowed("/AnyValue", "foo") and rules.allowed("/x", "foo")


def test_rules_for_fetch_invalid_utf8_is_replaced() -> None:
    rules = rules_for_fetch(200, b"User-Agent: *\nDisallow: /caf\xe9\nDisallow: /b\n")
    assert not rules.allowed("/b", "foo")
    assert rules.allowed("/caf", "foo")


def test_rules_for_fetch_truncates_bytes() -> None:
    body = b"User-agent: *\nDisallow: /early\n" + b"#" * 600_000 + b"\nDisallow: /late\n"
    rules = rules_for_fetch(200, body)
    assert rules.truncated
    assert not rules.allowed("/early", "bot") and rules.allowed("/late", "bot")
    smaller = rules_for_fetch(200, b"User-agent: *\nDisallow: /early\nDisallow: /late\n", max_bytes=36)
    assert smaller.truncated and not smaller.allowed("/early", "bot") and smaller.allowed("/late", "bot")


# ---------------------------------------------------------------------------------------------------------------
# Why Protego is not used directly
# ---------------------------------------------------------------------------------------------------------------


def test_protego_prefix_matching_deviation() -> None:
    protego = pytest.importorskip("protego")
    text = "User-agent: *\nDisallow: /\n\nUser-agent: winnowbot\nAllow: /\n"
    parser = protego.Protego.parse(text)
    # Protego applies the winnowbot group to winnowbot-Extended (prefix match) ...
    assert parser.can_fetch("https://foo.bar/page", "winnowbot-Extended")
    # ... RFC 9309 §2.2.1 does not: the training token has no group of its own, so '*' applies.
    assert not is_allowed(text, "winnowbot-Extended", "https://foo.bar/page")
    assert is_allowed(text, "winnowbot", "https://foo.bar/page")
