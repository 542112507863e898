"""An evaluation-only set of web junk pages: full HTML pages, as a made-up site would serve them, for measuring
how well winnow's quality filters catch junk they were not built from.

RULES. This set is for evaluation only: never train a model on it, never choose a threshold or a rule with it, and
never tune the generator by running winnow's filters on its output. It was written without reading the project's
other junk generators (``bench/junk_set.py``, ``filters/training/``) or its quality signals and models, so that a
score on it says something about generalisation. Templates, word lists and phrases are in
``bench/junk_eval_templates.py``, written for it by hand.

Every page is a whole document (doctype, ``<head>`` with ``<title>`` and a charset, a site header and nav, the junk
in the main area, a sidebar or footer), on one of seven made-up themes (WordPress-like, 2000s table layout,
Bootstrap, plain HTML5, Joomla-like, Blogger-like, landing page; with and without ``<article>``/``<main>``). Server
error pages, bot checks, directory listings and parked domains are served bare, as servers serve them. Each page has
a URL ``http://HOST/...`` on a made-up host (several per family, TLDs by language), its family, its sub-style and the
language of its junk (``zxx``: no language, ``mul``: several). Families and their styles (spread evenly):

- ``keyword_stuffing``: seo_filler (marketing sentences around 3-8 keyword variants), stuffed_article (a real news
  article with keywords spliced into its sentences at varying density), keyword_lists (paragraphs of keyword runs),
  search_footer (short text, tag and "related searches" blocks, keyword footer), hidden_block (real text plus keyword
  runs hidden by CSS or noscript), alt_runs (keyword headings and image alt/title runs), faq_stuffed.
- ``word_salad``: sentences, unpunctuated, comma_runs, bigram_chains (chains of real adjacent content words),
  titled_snippets; in English, German, French, Spanish, Russian, Indonesian, Polish, Portuguese, Italian, Dutch,
  Swedish.
- ``link_farm``: keyword_ul, numbered_ol, table_directory, blogroll_div, directory_descriptions, resources_grouped,
  bare_urls.
- ``spun_text``: spun_news (synonym-substituted real articles), spun_news_heavy, spun_seo (spintax articles),
  leaked_spintax (unresolved ``{a|b}`` and macro leaks), tortured_academic ("counterfeit consciousness").
- ``scraped_mashup``: sentence_stitch, paragraph_splice, snippet_list, autoblog_sources, multilingual_stitch.
- ``doorway_pages``: service_city, near_me, service_city_de, service_city_fr, hotels_city, jobs_city; each host keeps
  one template and one service, and only the place changes between its pages.
- ``auto_generated_listing``: phone_lookup, zip_codes, product_feed, exchange_rates, top_searches, site_value.
- ``error_or_soft404``: themed_404, server_error, moved, no_results, bot_check, js_required, coming_soon,
  default_server_page, index_of, parked_domain, suspended_or_maintenance, localized_404.
- ``navigation_only``: category_tree, tag_cloud, archive_calendar, html_sitemap, paginated_titles, facet_filters,
  mega_menu.
- ``comment_spam``: generic_praise, pharma_casino, crypto_recovery, backlink_names, foreign_spam, spintax_comments,
  guestbook.
- ``gibberish``: random_letters, keyboard_mash, encoded_blob, mixed_script, repeated_chars, mojibake, pseudo_words.
- ``fake_reviews_or_ads``: star_reviews, ad_copy, testimonials, top10_affiliate, sales_letter, app_reviews.
- ``gate_or_wall`` (added: pages whose only content is a barrier): cookie_wall, paywall, login_required, age_gate,
  geo_block, newsletter_popup.
- ``placeholder_content`` (added: sites never filled in): lorem_ipsum, cms_default, theme_demo, unfilled_template.

Text sources (real text, so that vocabulary is realistic; read from ``../shared/data``, never copied):
``extraction_bench/ground-truth.json``, the gold text of the 60 news and blog articles of the public
article-extraction-benchmark (MIT licence), of which the 53 that are English prose are used (five are Italian,
Portuguese, Russian or Korean, two are mostly lists of scores or dates); ``langid_dev.jsonl``, sentences in 75 languages
from Lingua's test data, taken from the Leipzig corpora (non-English word salad, mashups, mojibake). Content words
are the words of these texts outside small hand-written function-word lists (``junk_eval_templates.FUNCTION_WORDS``),
in the language's script. Lorem ipsum pages are labelled ``la``. Only the standard library, lxml and warcio are used;
nothing is downloaded. Code layout: this module (API, site shells, page-shaped families, text rendering, output),
``junk_eval_families.py`` (text sources, helpers, text-shaped families), ``junk_eval_templates.py`` (word lists,
phrases, shells).

Usage::

    .venv/bin/python bench/junk_eval.py --show [FAMILY]
    .venv/bin/python bench/junk_eval.py --warc OUT.warc.gz [--per-family N] [--seed S]   # + OUT.families.json
    .venv/bin/python bench/junk_eval.py --jsonl OUT.jsonl [--per-family N] [--seed S]

The WARC holds one HTTP 200 ``text/html; charset=utf-8`` response record per page (after a warcinfo record); the
JSONL rows are ``{id, url, text, family}`` with ``text`` a rough rendering of the page's visible main text.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import math
import random
import re
import sys
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import lxml.html
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import junk_eval_templates as T  # noqa: E402
from bench.junk_eval_families import (  # noqa: E402
    STYLES,
    _a,
    _bare,
    _Body,
    _cap,
    _clip,
    _comment_spam,
    _corpus,
    _Ctx,
    _doorway,
    _fake_reviews,
    _fill,
    _gibberish,
    _keyword_stuffing,
    _keywords,
    _link_farm,
    _p,
    _scraped_mashup,
    _Site,
    _slug,
    _some,
    _spam_host,
    _spam_url,
    _spun_text,
    _title,
    _ul,
    _when,
    _word_salad,
    esc,
)

JUNK_FAMILIES: tuple[str, ...] = tuple(STYLES)


@dataclass(frozen=True)
class JunkPage:
    family: str
    style: str
    url: str
    html: str
    lang: str


# -- rendering a page in its site's shell ----------------------------------------------------------------------------
def _nav(r: random.Random, site: _Site, kind: str) -> str:
    labels = T.NAV.get(site.lang, T.NAV["en"]).split("|")
    labels = labels[:1] + r.sample(labels[1:], r.randint(3, len(labels) - 1))
    links = [(lab, "/" if i == 0 else f"/{_slug(lab) or i}/") for i, lab in enumerate(labels)]
    if kind == "pipes":
        return " | ".join(_a(h, t) for t, h in links)
    cls = ' class="nav-item"' if kind == "li_bs" else ' class="menu-item"'
    return "".join(f"<li{cls}>{_a(h, t)}</li>" for t, h in links)


def _sidebar(x: _Ctx, site: _Site) -> str:
    r, parts = x.r, []
    for widget in r.sample(("recent", "categories", "archives", "search", "blogroll"), r.randint(1, 3)):
        if widget == "recent":
            titles = [_clip(x.c.sentence(r), r.randint(4, 8)) if site.lang == "en" else
                      _title(" ".join(x.c.words(r, site.lang if site.lang in x.c.tokens else "en", 4)))
                      for _ in range(5)]
            items = [_a(f"/{_slug(t) or r.randint(1, 999)}/", t) for t in titles]
            parts.append('<section class="widget"><h3>Recent Posts</h3>' + _ul(items) + "</section>")
        elif widget == "categories":
            items = [_a(f"/category/{_slug(c)}/", c) for c in r.sample(T.CATEGORIES, 6)]
            parts.append('<section class="widget"><h3>Categories</h3>' + _ul(items) + "</section>")
        elif widget == "archives":
            months = T.MONTHS.split()
            items = [_a(f"/{2024 - i // 12}/{12 - i % 12:02d}/", f"{months[11 - i % 12]} {2024 - i // 12}")
                     for i in range(r.randint(3, 8))]
            parts.append('<section class="widget"><h3>Archives</h3>' + _ul(items) + "</section>")
        elif widget == "search":
            parts.append('<form role="search" method="get" action="/"><input type="search" name="s" '
                         'placeholder="Search …"><button type="submit">Search</button></form>')
        else:
            items = [_a(_spam_url(r), _spam_host(r).split(".")[0].replace("-", " ").title()) for _ in range(4)]
            parts.append('<section class="widget"><h3>Blogroll</h3>' + _ul(items) + "</section>")
    return "\n".join(parts)


_CSS = {"WordPress": "wp-content/themes/flavor/style.css", "Joomla!": "templates/protostar/css/template.css",
        "Drupal": "sites/all/themes/custom/css/styles.css"}


def _render(x: _Ctx, site: _Site, body: _Body) -> str:
    r = x.r
    when = _when(r)
    kind, shell = T.THEMES[site.theme]
    doctype = ('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">'
               if site.old else "<!DOCTYPE html>")
    charset = ('<meta http-equiv="Content-Type" content="text/html; charset=utf-8">' if site.old
               else r.choice(('<meta charset="utf-8">', '<meta charset="UTF-8">')))
    lang_attr = r.choice((site.lang, site.lang, "en-US" if site.lang == "en" else site.lang, ""))
    footer = f"&copy; {when.year} {esc(site.name)}. {esc(T.RIGHTS.get(site.lang, T.RIGHTS['en']))}"
    if r.random() < 0.5:
        footer += " " + esc(r.choice(T.THEME_CREDITS))
    fill = {"site": esc(site.name), "tagline": esc(site.tagline), "nav": _nav(r, site, kind),
            "main": body.main, "h1": esc(body.h1 if body.h1 is not None else body.title),
            "sidebar": _sidebar(x, site), "footer": footer + body.footer, "pid": str(r.randint(10, 99999)),
            "date": when.strftime("%B %d, %Y"), "iso": when.isoformat(), "author": r.choice(("admin", "editor",
            *T.COMMENT_NAMES)), "hits": str(r.randint(3, 99999)), "time": when.strftime("%I:%M %p")}
    head = [doctype, f'<html lang="{lang_attr}">' if lang_attr else "<html>", "<head>", charset,
            f"<title>{esc(body.title)}</title>", '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f'<meta name="generator" content="{esc(site.generator)}">', body.meta,
            f'<link rel="stylesheet" href="/{_CSS.get(site.generator.split()[0], "css/style.css")}'
            f'?ver={r.randint(1, 9)}.{r.randint(0, 9)}">']
    if r.random() < 0.6:
        script = r.choice(("analytics", "tracker", "stats"))
        head.append(f'<script async src="/js/{script}.js?id=UA-{r.randint(1000, 99999)}-1"></script>')
    page = re.sub(r"\{\{(\w+)\}\}", lambda m: fill[m.group(1)], shell)
    return "\n".join(h for h in head if h) + "\n</head>\n" + page + "\n</body>\n</html>\n"


def _path(r: random.Random, site: _Site, title: str) -> str:
    slug, pid, when = _slug(title) or f"page-{r.randint(1, 99999)}", r.randint(10, 99999), _when(r)
    if site.theme == "joomla":
        return f"/index.php?option=com_content&view=article&id={pid}:{slug}&catid={r.randint(2, 40)}"
    if site.theme == "blogger":
        return f"/{when.year}/{when.month:02d}/{slug[:40]}.html"
    if site.theme == "table_layout":
        return r.choice((f"/{slug}.html", f"/page.php?id={pid}", f"/articles/{slug}.htm"))
    return r.choice((f"/{when.year}/{when.month:02d}/{slug}/", f"/{slug}/", f"/?p={pid}", f"/blog/{slug}",
                     f"/{_slug(r.choice(T.CATEGORIES))}/{slug}/"))




# -- page-shaped families (listings, errors, navigation, walls, placeholders) ----------------------------------------
def _table(head: list[str], rows: list[list[str]], cls: str = "") -> str:
    """``rows`` hold HTML already."""
    attr = f' class="{cls}"' if cls else ""
    return (f"<table{attr}><tr>" + "".join(f"<th>{esc(h)}</th>" for h in head) + "</tr>"
            + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows) + "</table>")


def _listing(x: _Ctx, style: str, i: int) -> _Body:
    r, n = x.r, x.n(30, 5)
    city, st = r.choice(T.US_CITIES).split(", ")
    if style == "phone_lookup":
        ac = r.randint(201, 989)
        nums = sorted(r.sample(range(100), min(100, n)))
        rows = [[_a(f"/phone/{ac}55501{k:02d}", f"({ac}) 555-01{k:02d}"), esc(r.choice(T.CARRIERS)),
                 esc(f"{city}, {st}"), str(r.randint(0, 40)), f"{_when(r):%Y-%m-%d}"] for k in nums]
        main = _table(["Number", "Carrier", "Location", "Reports", "Last searched"], rows, "numbers")
        main += "<h3>Recently searched</h3>" + _ul([f"({r.randint(201, 989)}) 555-01{r.randint(0, 99):02d}"
                                                     for _ in range(8)])
        return _Body(f"({ac}) 555 Phone Numbers - Reverse Phone Lookup {city}, {st}", main, "en")
    if style == "zip_codes":
        county, towns = r.choice(T.COUNTIES.split()), [c.split(", ")[0] for c in r.sample(T.US_CITIES, 3)]
        rows = [[_a(f"/zip/{z}", str(z)), esc(r.choice(towns)), r.choice(("Standard", "PO Box")),
                 f"{r.randint(0, 60000):,}", str(r.randint(201, 989))]
                for z in sorted(r.sample(range(10000, 99999), n))]
        return _Body(f"ZIP Codes in {county} County, {st}", _table(
            ["ZIP Code", "City", "Type", "Population", "Area Code"], rows, "zips"), "en")
    if style == "product_feed":
        pfx, lines = r.choice(("SKU", "ART", "PN", "ITEM")), []
        for _ in range(n):
            unit = r.choice(("mm", "cm", "in", "pcs", "ml"))
            name = f"{r.choice(T.PRODUCT_ADJS.split('|'))} {r.choice(T.PRODUCT_NOUNS)} {r.randint(2, 60)}{unit}"
            lines.append([f"{pfx}-{r.randint(10000, 99999)}", esc(name), f"${r.randint(1, 199)}.{r.randint(0, 99):02d}",
                          r.choice(("In stock", "In stock", "Out of stock", "Ships in 3-5 days")),
                          str(r.randint(10**12, 10**13 - 1))])
        fmt = i % 3
        if fmt == 0:
            main = _table(["SKU", "Product", "Price", "Availability", "EAN"], lines, "feed")
        elif fmt == 1:
            main = "<pre>" + "\n".join(" | ".join(row) for row in lines) + "</pre>"
        else:
            main = "".join('<div class="row">' + " ".join(f"<span>{c}</span>" for c in row) + "</div>" for row in lines)
        return _Body(f"Product Feed - Page {r.randint(1, 400)}", main, "en")
    if style == "exchange_rates":
        curs = T.CURRENCIES.split()
        base, when = r.choice(curs[:6]), _when(r)
        rows = [[f"1 {base} = {r.uniform(0.01, 150):.4f} {c}", f"{r.uniform(-2, 2):+.2f}%", _a(f"/{base}-{c}", "Chart")]
                for c in curs if c != base][:n]
        hist = [[f"{when - timedelta(days=d):%Y-%m-%d}", f"{r.uniform(0.5, 1.5):.4f}"] for d in range(x.n(10, 3))]
        main = _table(["Rate", "Change", ""], rows, "rates") + _table(["Date", f"{base}/{curs[1]}"], hist, "history")
        return _Body(f"{base} Exchange Rates {when:%d %B %Y}", main, "en")
    if style == "top_searches":
        def query() -> str:
            w = [s.lower() for s in x.c.words(r, "en", 2)]
            return _fill(r.choice(T.SEARCH_PATTERNS), w=w[0], w2=w[1], year=r.randint(2015, 2025))
        items = [_a(f"/search?q={_slug(q).replace('-', '+')}", q) + (f" ({r.randint(2, 9999):,})" if i % 2 else "")
                 for q in (query() for _ in range(n))]
        return _Body(r.choice(("Top Searches", "Recent Searches", f"Trending Searches {_when(r):%B %Y}")),
                     _ul(items, "searches"), "en")
    domain = _spam_host(r)  # site_value
    facts = [("Estimated worth", f"${r.randint(10, 99999):,}"), ("Daily visitors", f"{r.randint(1, 9999):,}"),
             ("Daily pageviews", f"{r.randint(1, 30000):,}"), ("Daily ad revenue", f"${r.uniform(0, 99):.2f}"),
             ("Global rank", f"{r.randint(10**4, 10**7):,}"), ("IP address", f"203.0.113.{r.randint(1, 254)}"),
             ("Hosted in", r.choice(("United States", "Germany", "Netherlands", "Russia"))),
             ("Domain age", f"{r.randint(1, 20)} years"), ("Backlinks", f"{r.randint(0, 5000):,}")]
    main = "<dl>" + "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in facts[:max(4, x.n(9))]) + "</dl>"
    similar = [[_a(f"/site/{d}", d), f"${r.randint(10, 99999):,}"] for d in (_spam_host(r) for _ in range(x.n(10, 3)))]
    return _Body(f"{domain} - Website Value & Traffic Stats", main + "<h3>Similar sites</h3>"
                 + _table(["Site", "Worth"], similar, "similar"), "en", path=f"/site/{domain}")


def _error(x: _Ctx, style: str, i: int) -> _Body:
    r, lang = x.r, "en"
    if style in ("localized_404", "coming_soon"):
        lang, h, text, *rest = r.choice(T.LOCAL_404 if style == "localized_404" else T.COMING_SOON).split("|")
    site = x.site(lang, "", fresh=style in ("parked_domain", "default_server_page", "coming_soon"))
    host, old = site.host, f"/{_slug(_clip(x.c.sentence(r), r.randint(3, 6)))}{r.choice(('/', '.html', '.php'))}"
    if style in ("themed_404", "localized_404"):
        if style == "themed_404":
            h, text = r.choice(T.THEMED_ERRORS).split("|")
        form = '<form role="search" action="/"><input type="search" name="s"><button>Search</button></form>'
        return _Body(f"{h} | {site.name}", _p(text) + form, lang, h1=h, path=old, site=site)
    if style == "server_error":
        code, name, text = r.choice(T.SERVER_ERRORS).split("|")
        sig = T.SERVER_SIGS[i % len(T.SERVER_SIGS)].replace("{host}", host)
        if sig.startswith("Apache"):
            page = (f'<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>{code} {name}</title>\n'
                    f"</head><body>\n<h1>{name}</h1>\n<p>{esc(text)}</p>\n<hr>\n<address>{sig}</address>\n</body></html>\n")
        elif sig.startswith("nginx") or sig.startswith("openresty"):
            page = (f"<html>\r\n<head><title>{code} {name}</title></head>\r\n<body>\r\n<center><h1>{code} {name}</h1>"
                    f"</center>\r\n<hr><center>{sig}</center>\r\n</body>\r\n</html>\r\n")
        else:
            page = _bare(f"{code} - {name}", f'<div id="content"><h1>{code} - {name}.</h1><p>{esc(text)}</p>'
                         f"<p><small>{esc(sig)}</small></p></div>")
        return _Body(f"{code} {name}", lang=lang, bare=page, path=old, site=site)
    if style == "moved":
        h, t1, t2 = r.choice(T.MOVED).split("|")
        new = f"http://{_spam_host(r)}{old}"
        body = f"<p>{esc(t1)}</p><p>{_a(new, t2 or 'here')}</p>"
        if r.random() < 0.5:
            return _Body(h, body, path=old, site=site)
        body = f"<h1>{esc(h)}</h1>{body}"
        return _Body(h, bare=_bare(h, body, extra_head=f'<meta http-equiv="refresh" content="5;url={esc(new)}">\n'),
                     path=old, site=site)
    if style == "no_results":
        q = " ".join(w.lower() for w in x.c.words(r, "en", r.randint(1, 3)))
        title, h, text = (s.replace("{q}", q) for s in r.choice(T.NO_RESULTS).split("|"))
        form = f'<form action="/"><input type="search" name="s" value="{esc(q)}"><button>Search</button></form>'
        return _Body(f"{title} - {site.name}", f"<h2>{esc(h)}</h2>{_p(text)}{form}", h1=title, site=site,
                     path=r.choice((f"/?s={q.replace(' ', '+')}", f"/search?q={q.replace(' ', '+')}")))
    if style == "bot_check":
        h, t1, t2 = (s.replace("{host}", host) for s in r.choice(T.BOT_CHECKS).split("|"))
        body = (f'<div class="main-wrapper" role="main"><h1 class="zone-name-title">{esc(host)}</h1><h2>{esc(h)}</h2>'
                f'<p>{esc(t1)}</p><div id="challenge-spinner" class="spinner"></div><noscript><p>Please turn '
                f'JavaScript on and reload the page.</p></noscript><p>{esc(t2)}</p></div><div class="footer">Ray ID: '
                f'{r.randbytes(8).hex()} &bull; Performance &amp; security by {r.choice(("ShieldEdge", "GuardNet"))}'
                '</div><script>setTimeout(function(){document.forms[0]&&document.forms[0].submit()},5000);</script>')
        return _Body(h, bare=_bare(h, body), path=old, site=site)
    if style == "js_required":
        msg = r.choice(T.JS_SHELLS)
        body = r.choice((f'<noscript>{esc(msg)}</noscript>\n<div id="root"></div>',
                         f'<div id="app"><div class="loading">{esc(msg)}</div></div>',
                         f'<noscript><strong>{esc(msg)}</strong></noscript><div id="__next"></div>'))
        body += f'\n<script src="/static/js/main.{r.randbytes(4).hex()}.js"></script>'
        return _Body(site.name, bare=_bare(r.choice((site.name, "React App", "Loading...")), body), path=old, site=site)
    if style == "coming_soon":
        d = [r.randint(0, 99), r.randint(0, 23), r.randint(0, 59)]
        body = (f'<div class="cs-wrap"><h1>{esc(h)}</h1><p>{esc(text)}</p><div class="countdown"><span>{d[0]}</span> '
                f'days <span>{d[1]}</span> hours <span>{d[2]}</span> minutes</div><form><input type="email" '
                f'placeholder="Email"><button>{esc(rest[0])}</button></form></div>')
        return _Body(h, bare=_bare(f"{site.name} - {h}", body, lang), lang=lang, path="/", site=site)
    if style == "default_server_page":
        parts = r.choice(T.DEFAULT_PAGES).split("|")
        body = f"<h1>{esc(parts[0])}</h1>" + "".join(_p(s) for s in parts[1:])
        return _Body(parts[0], bare=_bare(parts[0], body), path="/", site=site)
    if style == "index_of":
        folder = r.choice(("", "files/", "uploads/", "backup/", "images/", "wp-content/uploads/2019/", "pub/"))
        rows = []
        for _ in range(x.n(15, 3)):
            name = "-".join(w.lower() for w in x.c.words(r, "en", r.randint(1, 3))) + r.choice(
                (".pdf", ".zip", ".jpg", ".mp3", ".tar.gz", ".txt", "/", ".doc", ".png"))
            rows.append([_a(name, name), f"{_when(r):%Y-%m-%d %H:%M}", "-" if name.endswith("/") else
                         f"{r.randint(1, 999)}{r.choice('KM')}", ""])
        table = _table(["Name", "Last modified", "Size", "Description"], [[_a("/", "Parent Directory"), "", "-", ""],
                                                                          *rows])
        page = (f'<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN">\n<html>\n <head>\n  <title>Index of /{folder}'
                f"</title>\n </head>\n <body>\n<h1>Index of /{folder}</h1>\n{table}\n<address>Apache Server at {host} "
                "Port 80</address>\n</body></html>\n")
        return _Body(f"Index of /{folder}", bare=page, path=f"/{folder}", site=site)
    if style == "parked_domain":
        h, t, rel = (s.replace("{host}", host) for s in r.choice(T.PARKED).split("|"))
        kws = _keywords(r, r.randint(4, 8), None)[0]
        links = _ul([_a(f"/search?q={_slug(k).replace('-', '+')}", _title(k)) for k in kws], "related")
        body = (f'<div class="parked"><h1>{esc(host)}</h1><h2>{esc(h)}</h2><p>{esc(t)}</p><h3>{esc(rel)}</h3>'
                f"{links}</div>")
        return _Body(host, bare=_bare(host, body), path="/", site=site)
    h, t1, t2 = r.choice(T.SUSPENDED).split("|")  # suspended_or_maintenance
    return _Body(h, bare=_bare(h, f"<h1>{esc(h)}</h1><p>{esc(t1)}</p><p>{esc(t2)}</p>"), path=r.choice(("/", old)),
                 site=site)


def _navigation(x: _Ctx, style: str, i: int) -> _Body:
    r = x.r

    def sub() -> str:
        return _title(" ".join(w.lower() for w in x.c.words(r, "en", r.randint(1, 2))))

    def post() -> str:
        return _clip(x.c.sentence(r), r.randint(5, 10)).strip("“”\"'‘’—– ")

    def links(labels: list[str], prefix: str = "/", count: bool = False) -> list[str]:
        return [_a(f"{prefix}{_slug(t) or r.randint(1, 999)}/", t) + (f" ({r.randint(1, 300)})" if count else "")
                for t in labels]
    crumbs = [_a("/", "Home"), *links([r.choice(T.CATEGORIES)])]
    crumb = '<nav class="breadcrumb">' + " &raquo; ".join(crumbs) + "</nav>"
    if style == "category_tree":
        tops = _some(r, T.CATEGORIES, x.n(8, 3))
        items = [_a(f"/c/{_slug(t)}/", t) + _ul(links([sub() for _ in range(r.randint(2, 8))], f"/c/{_slug(t)}/", True))
                 for t in tops]
        return _Body(r.choice(("All Categories", "Browse Categories", "Departments")), _ul(items, "cat-tree"), "en")
    if style == "tag_cloud":
        tags = sorted({w.lower() for w in x.c.words(r, "en", x.n(60, 15))})
        cloud = " ".join(f'<a href="/tag/{_slug(t)}/" class="tag-cloud-link" style="font-size: '
                         f'{8 + 14 * r.random() ** 2:.1f}pt;">{esc(t)}</a>' for t in tags)
        return _Body(r.choice(("Tags", "Tag Cloud", "Popular Tags")), f'<div class="tagcloud">{cloud}</div>', "en")
    if style == "archive_calendar":
        months, year, month = T.MONTHS.split(), r.randint(2012, 2024), r.randrange(12)
        def day(d: int) -> str:
            cell = _a(f"/{year}/{month + 1:02d}/{d + 1:02d}/", str(d + 1)) if r.random() < 0.3 else str(d + 1)
            return ("<tr>" if d % 7 == 0 else "") + f"<td>{cell}</td>" + ("</tr>" if d % 7 == 6 else "")
        days = "".join(day(d) for d in range(r.choice((28, 30, 31))))
        cal = (f'<table id="wp-calendar"><caption>{months[month]} {year}</caption><tr>'
               + "".join(f"<th>{d}</th>" for d in "MTWTFSS") + f"</tr>{days}</tr></table>")
        arch = [_a(f"/{year - k // 12}/{12 - k % 12:02d}/", f"{months[11 - k % 12]} {year - k // 12}")
                + f" ({r.randint(1, 40)})" for k in range(x.n(24, 6))]
        return _Body(f"{months[month]} {year} Archives", cal + "<h2>Archives</h2>" + _ul(arch), "en")
    if style == "html_sitemap":
        labels = T.NAV["en"].split("|")
        body = "<h2>Pages</h2>" + _ul(links(labels)) + "<h2>Posts by category</h2>" + "".join(
            f"<h3>{esc(c)}</h3>" + _ul(links([post() for _ in range(r.randint(3, 10))]))
            for c in _some(r, T.CATEGORIES, x.n(4)))
        return _Body("Sitemap", body, "en")
    if style == "paginated_titles":
        page, last = r.randint(2, 40), r.randint(41, 400)
        items = [f'<h2 class="entry-title">{_a(f"/{_slug(t)}/", t)}</h2><span class="date">{_when(r):%B %d, %Y}</span> '
                 f'{_a(f"/{_slug(t)}/", "Read more »")}' for t in (post() for _ in range(x.n(10, 3)))]
        pages = " ".join([_a(f"/page/{page - 1}/", "« Previous"), *(_a(f"/page/{k}/", str(k)) for k in
                          range(max(1, page - 2), page + 3)), "…", _a(f"/page/{last}/", str(last)),
                          _a(f"/page/{page + 1}/", "Next »")])
        main = crumb + "".join(f"<div>{t}</div>" for t in items) + f'<nav class="pagination">{pages}</nav>'
        return _Body(f"{r.choice(T.CATEGORIES)} - Page {page} of {last}", main, "en",
                     path=f"/category/news/page/{page}/")
    if style == "facet_filters":
        facets = "".join(f"<h4>{esc(f)}</h4>" + _ul(links([sub() for _ in range(r.randint(3, 9))], "/f/", True))
                         for f in _some(r, T.FACETS, x.n(4, 2)))
        sort = '<select name="orderby"><option>Sort by popularity</option><option>Sort by price</option></select>'
        return _Body(r.choice(T.CATEGORIES), crumb + sort + f'<div class="facets">{facets}</div>'
                     + _ul(links([sub() for _ in range(r.randint(4, 12))], "/c/")), "en")
    cols = "".join(f'<div class="col"><h3>{_a(f"/d/{_slug(c)}/", c)}</h3>' + _ul(links([sub() for _ in range(
                   r.randint(5, 10))], f"/d/{_slug(c)}/")) + "</div>" for c in _some(r, T.CATEGORIES, x.n(6, 3)))
    return _Body("Shop by Department", f'<div class="mega-menu">{cols}</div>', "en")


def _walls(x: _Ctx, style: str, i: int) -> _Body:
    r, lang = x.r, "en"
    if style == "cookie_wall":
        lang, h, text, b1, b2, b3 = r.choice(T.COOKIE_WALLS).split("|")
        box = (f'<div class="cmp-overlay" role="dialog" aria-modal="true"><div class="cmp-box"><h2>{esc(h)}</h2>'
               f'<p>{esc(text.replace("{n}", str(r.randint(80, 900))))}</p><button>{esc(b1)}</button> '
               f'<button>{esc(b2)}</button> <a href="#">{esc(b3)}</a></div></div>')
        if r.random() < 0.4:
            return _Body(h, bare=_bare(h, box, lang), lang=lang)
        return _Body(h, box, lang, h1="")
    if style == "paywall":
        h, t1, t2, t3 = (s.replace("{n}", str(r.randint(3, 10))).replace("{p}", f"{r.randint(1, 19)}.99")
                         for s in r.choice(T.PAYWALLS).split("|"))
        paras = r.choice(x.c.articles)[1]
        teaser = _p(paras[0][0]) if r.random() < 0.5 else ""
        box = (f'<div class="paywall"><h2>{esc(h)}</h2><p>{esc(t1)}</p><p>{esc(t2)}</p>'
               f'<a class="btn" href="/subscribe">Subscribe</a> <a href="/login">{esc(t3)}</a></div>')
        return _Body(_clip(paras[0][0], r.randint(6, 11)), teaser + box, lang)
    if style == "login_required":
        h, f1, f2, l1, l2, l3 = r.choice(T.LOGINS).split("|")
        form = (f'<form class="login" method="post" action="/login"><h2>{esc(h)}</h2><label>{esc(f1)}</label>'
                f'<input name="user"><label>{esc(f2)}</label><input type="password" name="pass"><button>{esc(h)}'
                f'</button><a href="/lost">{esc(l1)}</a> <a href="/register">{esc(l2)}</a> '
                f'<a href="/oauth">{esc(l3)}</a></form>')
        return _Body(h, form, lang) if r.random() < 0.6 else _Body(h, bare=_bare(h, form))
    if style == "age_gate":
        h, t, yes, no = r.choice(T.AGE_GATES).split("|")
        gate = (f'<div class="age-gate"><h2>{esc(h)}</h2><p>{esc(t)}</p><a class="btn" href="/?age=ok">{esc(yes)}</a> '
                f'<a class="btn" href="https://www.google.com/">{esc(no)}</a></div>')
        return _Body(h, bare=_bare(h, gate)) if r.random() < 0.5 else _Body(h, gate, lang, h1="")
    if style == "geo_block":
        h, t = r.choice(T.GEO_BLOCKS).split("|")
        return _Body(h, bare=_bare(h, f"<h1>{esc(h)}</h1><p>{esc(t)}</p><p>Reference #{r.randbytes(6).hex()}</p>"))
    h, t, field_, yes, no = (s.replace("{k}", f"{r.randint(5, 99)},000") for s in r.choice(T.NEWSLETTER).split("|"))
    popup = (f'<div class="modal newsletter" role="dialog"><h2>{esc(h)}</h2><p>{esc(t)}</p><form><input type="email" '
             f'placeholder="{esc(field_)}"><button>{esc(yes)}</button></form><a href="#" class="close">{esc(no)}</a>'
             "</div>")
    return _Body(h, popup, lang, h1="")


def _placeholder(x: _Ctx, style: str, i: int) -> _Body:
    r = x.r

    def lorem(k: int) -> str:
        return " ".join(_cap(" ".join(r.choices(T.LOREM, k=r.randint(6, 16)))) + "." for _ in range(k))
    opening = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. "
    if style == "lorem_ipsum":
        paras = [_p((opening if j == 0 else "") + lorem(r.randint(3, 8))) for j in range(x.n(4))]
        return _Body(r.choice(("Lorem Ipsum", "Lorem ipsum dolor sit amet", "Sample Post")), "\n".join(paras), "la")
    if style == "cms_default":
        h, t = r.choice(T.CMS_DEFAULTS).split("|")
        extra = ("<h3>1 Comment</h3><p><b>A WordPress Commenter</b>: Hi, this is a comment. To get started with "
                 "moderating, editing and deleting comments, visit the Comments screen in the dashboard.</p>"
                 if h == "Hello world!" and r.random() < 0.6 else "")
        return _Body(f"{h} – {x.site('en').name}", _p(t) + extra, "en", h1=h)
    if style == "theme_demo":
        blocks = _some(r, T.DEMO_BLOCKS, x.n(5, 3))
        body = "".join(f'<section class="block"><h3>{esc(h)}</h3>{_p(t)}<a class="btn" href="#">'
                       f'{r.choice(("Learn More", "Read More", "Get Started"))}</a></section>'
                       for h, t in (b.split("|") for b in blocks))
        return _Body(r.choice(("Home", "Just another WordPress site", "My Site")), body, "en",
                     h1=r.choice(("Welcome", "Your Title Here", "Home")))
    parts = [f"<h2>{esc(r.choice(T.UNFILLED))}</h2>" if j % 2 == 0 else _p(r.choice((r.choice(T.UNFILLED), lorem(2))))
             for j in range(x.n(6, 3))]
    return _Body(r.choice(("%%title%% %%sep%% %%sitename%%", "{{ page.title }}", "Untitled Document", "[title]")),
                 "\n".join(parts), "en")


GENERATORS: dict[str, Callable[[_Ctx, str, int], _Body]] = {
    "keyword_stuffing": _keyword_stuffing, "word_salad": _word_salad, "link_farm": _link_farm,
    "spun_text": _spun_text, "scraped_mashup": _scraped_mashup, "doorway_pages": _doorway,
    "auto_generated_listing": _listing, "error_or_soft404": _error, "navigation_only": _navigation,
    "comment_spam": _comment_spam, "gibberish": _gibberish, "fake_reviews_or_ads": _fake_reviews,
    "gate_or_wall": _walls, "placeholder_content": _placeholder,
}


# -- the set ----------------------------------------------------------------------------------------------------------
def junk_pages(per_family: int = 60, seed: int = 0) -> list[JunkPage]:
    """``per_family`` pages of every family in ``JUNK_FAMILIES``, styles in turn; the same for the same seed."""
    corpus, hosts, seen, pages = _corpus(), set(), set(), []
    for family in JUNK_FAMILIES:
        x = _Ctx(random.Random(f"junk_eval:{seed}:{family}"), corpus, family, hosts)
        styles = STYLES[family]
        for i in range(per_family):
            style = styles[i % len(styles)]
            x.size = math.exp(x.r.uniform(math.log(0.25), math.log(3.0)))
            body = GENERATORS[family](x, style, i)
            site = body.site or x.site(body.lang if body.lang in T.NAV else "en")
            page = body.bare if body.bare is not None else _render(x, site, body)
            url = f"http://{site.host}{body.path or _path(x.r, site, body.title)}"
            k = 2
            while url in seen:
                base = url.split("#")[0]
                url, k = f"{base}{'&' if '?' in base else '?'}n={k}", k + 1
            seen.add(url)
            pages.append(JunkPage(family, style, url, page, body.lang))
    return pages


# -- visible text (a rough rendering, for --show and --jsonl) --------------------------------------------------------
_MAIN_XPATHS = ("//div[contains(@class,'item-page')]", "//div[contains(@class,'content-area')]",
                "//td[contains(@class,'maincol')]", "//div[@class='page-body']", "//div[@class='post hentry']",
                "//main", "//article", "//body")
_SKIP = {"script", "style", "template", "head", "select", "svg", "iframe", "input", "textarea"}
_SPACED = {"td", "th", "button", "label", "input", "img", "select", "textarea"}
_BLOCKS = {"p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "table", "section", "article",
           "header", "footer", "main", "nav", "pre", "blockquote", "dd", "dt", "dl", "form", "address", "center",
           "caption", "aside"}


def page_text(page_html: str) -> str:
    """The text a reader sees in the page's main area (a rough rendering): theme chrome, scripts, elements hidden by
    ``display:none`` or ``visibility:hidden``, and attributes left out."""
    root = lxml.html.document_fromstring(page_html)
    main = next((hit[0] for xp in _MAIN_XPATHS if (hit := root.xpath(xp))), root)
    out: list[str] = []

    def walk(el: lxml.html.HtmlElement) -> None:
        tag = el.tag.lower() if isinstance(el.tag, str) else ""
        style = (el.get("style") or "").replace(" ", "").lower() if tag else ""
        out.append(" " if tag in _SPACED else "")
        if tag and tag not in _SKIP and "display:none" not in style and "visibility:hidden" not in style:
            out.append("\n" if tag in _BLOCKS or tag == "br" else "")
            out.append(el.text or "")
            for child in el:
                walk(child)
            out.append("\n" if tag in _BLOCKS else " " if tag in _SPACED else "")
        if el.tail and el is not main:
            out.append(el.tail)
    walk(main)
    lines = (" ".join(line.split()) for line in "".join(out).splitlines())
    return "\n".join(line for line in lines if line)


# -- output ----------------------------------------------------------------------------------------------------------
def _sidecar(path: Path) -> Path:
    name = path.name
    for suffix in (".warc.gz", ".warc"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return path.with_name(f"{name}.families.json")


def write_warc(pages: list[JunkPage], path: Path) -> Path:
    """One warcinfo record, then one HTTP 200 response per page (gzip per record for ``.gz``); the URL -> family map
    goes to ``<name>.families.json`` beside it. Returns the sidecar's path."""
    start = datetime(2024, 3, 4, 10, 0, tzinfo=UTC)
    with path.open("wb") as fh:
        writer = WARCWriter(fh, gzip=path.name.endswith(".gz"))
        writer.write_record(writer.create_warcinfo_record(path.name, {"software": "winnow bench/junk_eval.py",
                                                                     "description": "evaluation-only junk pages"}))
        for k, page in enumerate(pages):
            body = page.html.encode("utf-8")
            when = start + timedelta(seconds=7 * k)
            headers = [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body))),
                       ("Date", when.strftime("%a, %d %b %Y %H:%M:%S GMT"))]
            http = StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1")
            warc_headers = {"WARC-Date": when.strftime("%Y-%m-%dT%H:%M:%SZ"),
                            "WARC-Record-ID": f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, page.url)}>"}
            record = writer.create_warc_record(page.url, "response", payload=io.BytesIO(body), length=len(body),
                                               http_headers=http, warc_headers_dict=warc_headers)
            writer.write_record(record)
    sidecar = _sidecar(path)
    sidecar.write_text(json.dumps({p.url: p.family for p in pages}, indent=1) + "\n", encoding="utf-8")
    return sidecar


def write_jsonl(pages: list[JunkPage], path: Path) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for page in pages:
            row = {"id": "junk-" + hashlib.sha1(page.url.encode()).hexdigest()[:16], "url": page.url,
                   "text": page_text(page.html), "family": page.family}
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def _show(family: str, seed: int) -> None:
    if family and family not in STYLES:
        raise SystemExit(f"unknown family {family!r}; one of: {', '.join(JUNK_FAMILIES)}")
    pages = junk_pages(per_family=max(len(s) for s in STYLES.values()), seed=seed)
    shown: set[tuple[str, str]] = set()
    for page in pages:
        key = (page.family, page.style if family else "")
        if (family and page.family != family) or key in shown:
            continue
        shown.add(key)
        text = page_text(page.html)
        limit = 900 if family else 500
        print(f"== {page.family} / {page.style} / {page.lang} / {page.url}\n"
              f"{text[:limit]}{' …' if len(text) > limit else ''}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", nargs="?", const="", metavar="FAMILY", help="print examples (one family's styles)")
    parser.add_argument("--warc", type=Path, metavar="OUT.warc.gz", help="write the pages as a WARC (+ families.json)")
    parser.add_argument("--jsonl", type=Path, metavar="OUT.jsonl", help="write {id, url, text, family} rows")
    parser.add_argument("--per-family", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.show is None and not args.warc and not args.jsonl:
        parser.error("give --show, --warc or --jsonl")
    if args.show is not None:
        _show(args.show, args.seed)
    if args.warc or args.jsonl:
        pages = junk_pages(args.per_family, args.seed)
        if args.warc:
            sidecar = write_warc(pages, args.warc)
            print(f"{len(pages)} pages -> {args.warc} (families: {sidecar})")
        if args.jsonl:
            write_jsonl(pages, args.jsonl)
            print(f"{len(pages)} documents -> {args.jsonl}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
