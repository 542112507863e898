"""Family generators for ``bench/junk_eval.py``, the evaluation-only junk set (see that module's docstring for the
families, their styles, the text sources and the rules: evaluation only, never training or threshold choice; written
without reading the project's other junk generators or its quality signals).

Each generator takes the family's state (``_Ctx``: random stream, sites, page size), a style and the page's index in
its family, and returns a ``_Body``: title, main-area HTML, language, and optionally a whole bare document.
"""

from __future__ import annotations

import base64
import functools
import html
import json
import random
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench import junk_eval_templates as T

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
ARTICLES = DATA / "extraction_bench" / "ground-truth.json"
LANGID = DATA / "langid_dev.jsonl"

STYLES: dict[str, tuple[str, ...]] = {
    "keyword_stuffing": ("seo_filler", "stuffed_article", "keyword_lists", "search_footer", "hidden_block",
                         "alt_runs", "faq_stuffed"),
    "word_salad": ("sentences", "unpunctuated", "comma_runs", "bigram_chains", "titled_snippets"),
    "link_farm": ("keyword_ul", "numbered_ol", "table_directory", "blogroll_div", "directory_descriptions",
                  "resources_grouped", "bare_urls"),
    "spun_text": ("spun_news", "spun_news_heavy", "spun_seo", "leaked_spintax", "tortured_academic"),
    "scraped_mashup": ("sentence_stitch", "paragraph_splice", "snippet_list", "autoblog_sources",
                       "multilingual_stitch"),
    "doorway_pages": ("service_city", "near_me", "service_city_de", "service_city_fr", "hotels_city", "jobs_city"),
    "auto_generated_listing": ("phone_lookup", "zip_codes", "product_feed", "exchange_rates", "top_searches",
                               "site_value"),
    "error_or_soft404": ("themed_404", "server_error", "moved", "no_results", "bot_check", "js_required",
                         "coming_soon", "default_server_page", "index_of", "parked_domain",
                         "suspended_or_maintenance", "localized_404"),
    "navigation_only": ("category_tree", "tag_cloud", "archive_calendar", "html_sitemap", "paginated_titles",
                        "facet_filters", "mega_menu"),
    "comment_spam": ("generic_praise", "pharma_casino", "crypto_recovery", "backlink_names", "foreign_spam",
                     "spintax_comments", "guestbook"),
    "gibberish": ("random_letters", "keyboard_mash", "encoded_blob", "mixed_script", "repeated_chars", "mojibake",
                  "pseudo_words"),
    "fake_reviews_or_ads": ("star_reviews", "ad_copy", "testimonials", "top10_affiliate", "sales_letter",
                            "app_reviews"),
    "gate_or_wall": ("cookie_wall", "paywall", "login_required", "age_gate", "geo_block", "newsletter_popup"),
    "placeholder_content": ("lorem_ipsum", "cms_default", "theme_demo", "unfilled_template"),
}
HOST_WORDS = {  # words a family's made-up host names are built from, besides T.SPAM_HOST_WORDS
    "keyword_stuffing": "deals cheap best top finder compare 4u guide info", "word_salad": "news info portal daily",
    "link_farm": "links directory sites web list seo free top", "spun_text": "articles blog tips hub guide",
    "scraped_mashup": "news daily feed today post trends", "doorway_pages": "local pros 24 city service near",
    "auto_generated_listing": "lookup data info stats rates find", "error_or_soft404": "site web my host",
    "navigation_only": "shop store mall catalog blog", "comment_spam": "blog journal diary notes my life",
    "gibberish": "x q z data tmp", "fake_reviews_or_ads": "reviews offer deal official buy shop",
    "gate_or_wall": "news times daily mag club", "placeholder_content": "my new site demo test studio",
}


# -- text sources ---------------------------------------------------------------------------------------------------
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_SPLIT = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][”\"’]))\s+(?=[\"“‘(]?[A-Z])")


@dataclass
class _Corpus:
    articles: list[tuple[str, list[list[str]]]]  # (url, paragraphs of sentences)
    sentences: dict[str, list[str]]  # lang -> sentences ("en": from the articles)
    tokens: dict[str, list[str]]  # lang -> content-word occurrences, so that draws follow frequency
    following: dict[str, dict[str, list[str]]]  # lang -> content word -> content words seen right after it

    def sentence(self, r: random.Random, lang: str = "en") -> str:
        return r.choice(self.sentences[lang])

    def words(self, r: random.Random, lang: str, k: int) -> list[str]:
        return r.choices(self.tokens[lang], k=k)


def _content(word: str, lang: str) -> bool:
    """A content word of ``lang``: not a function word, three letters or more, in the language's script (quoted
    foreign words are no part of its word list), and for English no contraction (``didn't``, ``I'm``)."""
    if len(word) < 3 or word.lower() in T.FUNCTION_WORDS[lang] or (lang == "en" and re.search("['’]", word)):
        return False
    cyrillic = lang == "ru"
    return all(("\u0400" <= ch <= "\u04ff") if cyrillic else (ch < "\u0250" or "\u1e00" <= ch <= "\u1eff")
               for ch in word if ch.isalpha())


def _english(text: str) -> bool:
    """Most of the benchmark's articles are English; a few are Italian, Portuguese, Russian or Korean."""
    words = [w.lower() for w in _WORD.findall(text)]
    return sum(w in T.FUNCTION_WORDS["en"] for w in words) > 0.3 * max(1, len(words))


@functools.lru_cache(maxsize=1)
def _corpus() -> _Corpus:
    gold = json.loads(ARTICLES.read_text(encoding="utf-8"))
    articles = []
    for key in sorted(k for k in gold if _english(gold[k]["articleBody"])):
        paras = [[s for s in _SPLIT.split(p.strip()) if 4 <= len(s.split()) <= 60]
                 for p in gold[key]["articleBody"].split("\n")]
        articles.append((gold[key]["url"], [p for p in paras if p]))
    sentences: dict[str, list[str]] = defaultdict(list)
    for line in LANGID.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        sentences[row["lang"]].append(row["text"])
    sentences["en"] = [s for _, paras in articles for p in paras for s in p]
    tokens: dict[str, list[str]] = {}
    following: dict[str, dict[str, list[str]]] = {}
    for lang in T.SALAD_LANGS:
        forms, seq, nxt = Counter(), [], defaultdict(list)
        for s in sentences[lang]:
            words = _WORD.findall(s)
            forms.update(words)
            for a, b in zip([None, *words], words, strict=False):
                if _content(b, lang):
                    seq.append(b)
                    if a and _content(a, lang):
                        nxt[a.lower()].append(b)
        best: dict[str, str] = {}
        for form, _ in forms.most_common():
            best.setdefault(form.lower(), form)
        tokens[lang] = [best[w.lower()] for w in seq]
        following[lang] = {k: [best[w.lower()] for w in v] for k, v in nxt.items()}
    return _Corpus(articles, dict(sentences), tokens, following)


# -- small helpers ----------------------------------------------------------------------------------------------------
esc = html.escape


def _fill(template: str, **values: object) -> str:
    """``{name}`` -> value in one pass; unknown names stay as they are."""
    return re.sub(r"\{(\w+)\}", lambda m: str(values.get(m.group(1), m.group(0))), template)


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _title(s: str) -> str:
    return " ".join(w[:1].upper() + w[1:] for w in s.split())


def _slug(s: str) -> str:
    ascii_ = unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", ascii_).strip("-")[:60].rstrip("-")


def _clip(sentence: str, k: int) -> str:
    return " ".join(sentence.split()[:k]).rstrip(",.;:!?\"'“”")


def _when(r: random.Random) -> datetime:
    return datetime(2012, 1, 1, tzinfo=UTC) + timedelta(minutes=r.randrange(12 * 365 * 24 * 60))


def _some(r: random.Random, seq: tuple | list, k: int) -> list:
    """``k`` distinct items of ``seq`` (all of them when it is shorter)."""
    return r.sample(seq, min(k, len(seq)))


def _p(text: str) -> str:
    return f"<p>{esc(text)}</p>"


def _ul(items: list[str], cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return f"<ul{attr}>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>"


def _a(href: str, text: str, extra: str = "") -> str:
    return f'<a href="{esc(href)}"{extra}>{esc(text)}</a>'


def _phone(r: random.Random) -> str:
    return f"({r.randint(201, 989)}) 555-01{r.randint(0, 99):02d}"


def _product(r: random.Random) -> str:
    return f"{r.choice(T.BRAND_PARTS[0])}{r.choice(T.BRAND_PARTS[1])} {r.choice(T.PRODUCT_KINDS)}"


def _spam_host(r: random.Random) -> str:
    words = r.sample(T.SPAM_HOST_WORDS, 2)
    sep = r.choice(("-", "", "-", "-"))
    tail = r.choice(("", "", str(r.randint(1, 99)), "-online", "24"))
    return f"{words[0]}{sep}{words[1]}{tail}.{r.choice(T.TLDS['en'].split())}"


def _spam_url(r: random.Random, kw: str = "") -> str:
    path = r.choice(("/", f"/{_slug(kw)}/", f"/{_slug(kw)}.html", f"/?ref={r.randint(100, 9999)}", "/go.php?id=7"))
    return f"http://{_spam_host(r)}{path if kw else '/'}"


def _spin(text: str, r: random.Random, rate: float) -> str:
    def swap(m: re.Match[str]) -> str:
        word = m.group(0)
        options = T.SYNONYMS.get(word.lower())
        if not options or r.random() > rate:
            return word
        new = r.choice(options)
        return _cap(new) if word[0].isupper() else new
    return re.sub(r"[A-Za-z]+", swap, text)


def _spintax(text: str, r: random.Random, keep: float = 0.0) -> str:
    """Resolve ``{a|b|c}`` groups; with ``keep`` > 0 some stay unresolved, as broken spinners leave them."""
    def pick(m: re.Match[str]) -> str:
        return m.group(0).replace("{", "\x00").replace("}", "\x01") if r.random() < keep else \
            r.choice(m.group(1).split("|"))
    text = " ".join(text.split())
    while re.search(r"\{[^{}]*\}", text):
        text = re.sub(r"\{([^{}]*)\}", pick, text)
    return " ".join(text.replace("\x00", "{").replace("\x01", "}").split())


# -- keyword topics --------------------------------------------------------------------------------------------------
_TOPICS = [tuple(line.split("|")) for line in T.KEYWORD_TOPICS]


def _keywords(r: random.Random, k: int, lang: str | None = "en") -> tuple[list[str], str]:
    head, obj, conn, mods, sufs, tlang = r.choice([t for t in _TOPICS if lang is None or t[5] == lang])
    mods_, sufs_ = mods.split(","), sufs.split(",")
    out = [" ".join(f"{r.choice(mods_)} {head} {obj}".split())]
    pats = [*T.KEYWORD_PATTERNS, *(("{h} {o} near me",) if tlang == "en" else ())]
    for _ in range(80):
        kw = " ".join(_fill(r.choice(pats), m=r.choice(mods_), h=head, o=obj, c=conn, s=r.choice(sufs_)).split())
        if kw not in out:
            out.append(kw)
        if len(out) >= k:
            break
    return out, tlang


def _seo(r: random.Random, kws: list[str], site: str, bold: float = 0.0) -> str:
    kw = r.sample(kws, min(3, len(kws))) + kws[:1] * 2

    def mark(s: str) -> str:
        return f"<strong>{esc(s)}</strong>" if r.random() < bold else esc(s)
    return _fill(esc(r.choice(T.SEO_SENTENCES)), kw=mark(kw[0]), Kw=mark(_cap(kw[0])), kw2=mark(kw[1]),
                 Kw2=mark(_cap(kw[1])), kw3=mark(kw[2]), site=esc(site), year=r.randint(2018, 2025),
                 pct=r.choice((30, 40, 50, 70, 80, 90)))


# -- the page being made ---------------------------------------------------------------------------------------------
@dataclass
class _Site:
    host: str
    name: str
    theme: str
    lang: str
    seed: int
    old: bool
    tagline: str
    generator: str


@dataclass
class _Body:
    title: str
    main: str = ""
    lang: str = "en"
    h1: str | None = None
    path: str | None = None
    meta: str = ""
    footer: str = ""
    bare: str | None = None  # a whole document, served instead of the site's shell
    site: _Site | None = None


_MAKERS = {"wp_classic": "WordPress", "joomla": "Joomla", "blogger": "Blogger"}  # the generator meta a theme implies


class _Ctx:
    """One family's generation state: its random stream, its sites, the size of the page being made."""

    def __init__(self, r: random.Random, corpus: _Corpus, family: str, hosts: set[str]) -> None:
        self.r, self.c, self.family, self.hosts = r, corpus, family, hosts
        self.sites: dict[tuple[str, str], list[_Site]] = {}
        self.size = 1.0

    def n(self, base: float, lo: int = 1) -> int:
        return max(lo, round(base * self.size * self.r.uniform(0.8, 1.2)))

    def site(self, lang: str, group: str = "", fresh: bool = False) -> _Site:
        """A site of this family in ``lang`` (a few per language and group); ``fresh``: a new one of its own."""
        if fresh:
            return self._new_site(lang)
        key = (lang, group)
        if key not in self.sites:
            self.sites[key] = [self._new_site(lang) for _ in range(self.r.randint(3, 5))]
        return self.r.choice(self.sites[key])

    def _new_site(self, lang: str) -> _Site:
        r = self.r
        pool = sorted(set(HOST_WORDS[self.family].split()) | set(T.SPAM_HOST_WORDS[::3]))
        if lang in T.FUNCTION_WORDS and lang != "ru":
            local = [w for w in (_slug(x) for x in self.c.words(r, lang, 30)) if 3 < len(w) < 10 and "-" not in w]
            pool = local[:6] + pool[:10] if local else pool
        tlds = T.TLDS.get(lang, T.TLDS["mul"]).split()
        while True:
            a, b = r.sample(pool, 2)
            label = r.choice((f"{a}-{b}", f"{a}{b}", f"{a}-{b}-{r.randint(1, 99)}", f"{a}{r.randint(2, 9)}{b}",
                              f"{a}-{b}"))
            host = r.choice(("", "", "", "www.", "blog.")) + f"{label}.{r.choice(tlds)}"
            if host not in self.hosts:
                self.hosts.add(host)
                break
        theme = r.choice(sorted(T.THEMES))
        return _Site(host, _title(label.replace("-", " ")), theme, lang, r.randrange(1 << 30),
                     theme == "table_layout" or r.random() < 0.15, r.choice(T.TAGLINES),
                     r.choice([g for g in T.GENERATORS if g.startswith(_MAKERS.get(theme, ""))]))


def _bare(title: str, body: str, lang: str = "en", extra_head: str = "", charset: bool = True) -> str:
    meta = '<meta charset="utf-8">\n' if charset else ""
    return (f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n{meta}<title>{esc(title)}</title>\n{extra_head}'
            f"</head>\n<body>\n{body}\n</body>\n</html>\n")



# -- families --------------------------------------------------------------------------------------------------------
def _stuff(r: random.Random, s: str, kw: str) -> str:
    how = r.random()
    if how < 0.4:
        pre = _fill(r.choice(T.KW_INSERTS), kw=kw, Kw=_cap(kw))
        return pre + (s[:1].lower() + s[1:] if pre.endswith(", ") else s)
    if how < 0.8:
        out = s.rstrip(".!?\"”") + _fill(r.choice(T.KW_SUFFIXES), kw=kw, Kw=_cap(kw))
        return out if out.endswith("!") else out + "."
    words = s.split()
    words.insert(r.randrange(len(words)), kw)
    return " ".join(words)


def _keyword_stuffing(x: _Ctx, style: str, i: int) -> _Body:
    r = x.r
    kws, lang = _keywords(r, r.randint(3, 8), None if style in ("keyword_lists", "alt_runs") and i % 3 == 0 else "en")
    site = x.site(lang)
    title = r.choice((" | ".join(_title(k) for k in kws[:3]), f"{_title(kws[0])} - {_title(kws[1])} - {site.name}",
                      _title(kws[0])))
    meta = (f'<meta name="keywords" content="{esc(", ".join(kws * r.randint(1, 3)))}">\n'
            f'<meta name="description" content="{esc(" ".join(kws))}">')
    more = kws + [f"{k} {s}" for k in kws for s in ("2024", "online", "near me", "reviews", "cheap")]
    parts, footer = [], ""
    if style == "seo_filler":
        for j in range(x.n(4)):
            parts += [f"<h2>{esc(_title(r.choice(kws)))}</h2>"] if j else []
            parts.append("<p>" + " ".join(_seo(r, kws, site.name, 0.3) for _ in range(r.randint(3, 6))) + "</p>")
    elif style == "stuffed_article":
        density = r.uniform(0.25, 0.9)
        for j, para in enumerate(r.choice(x.c.articles)[1][:x.n(6, 2)]):
            parts += [f"<h2>{esc(_title(r.choice(kws)))}</h2>"] if j and r.random() < 0.4 else []
            parts.append(_p(" ".join(_stuff(r, s, r.choice(kws)) if r.random() < density else s for s in para)))
    elif style == "keyword_lists":
        parts += [f"<p>{_seo(r, kws, site.name)}</p>"] if lang == "en" and r.random() < 0.6 else []
        for _ in range(x.n(3)):
            sep = r.choice((", ", " ", " | ", " - ", " and ", " / ", ". "))
            parts.append(_p(sep.join(r.choice(kws) for _ in range(r.randint(8, 40)))))
    elif style == "search_footer":
        parts += ["<p>" + " ".join(_seo(r, kws, site.name) for _ in range(r.randint(2, 5))) + "</p>"
                  for _ in range(x.n(1.5))]
        tags = _some(r, more, x.n(25, 8))
        parts.append('<div class="tags">Tags: ' + ", ".join(_a(f"/tag/{_slug(t)}/", t, ' rel="tag"') for t in tags)
                     + "</div>")
        parts.append("<h3>People also search for</h3>" + _ul([_a(f"/search/{_slug(t)}", t) for t in r.sample(more, 8)]))
        footer = '<div class="footer-keywords">Popular searches: ' + esc(" | ".join(r.sample(more, 15))) + "</div>"
    elif style == "hidden_block":
        visible = [_p(" ".join(p)) for p in r.choice(x.c.articles)[1][:x.n(3)]]
        run, tag = esc(" ".join(r.choice(more) for _ in range(x.n(60, 20)))), r.choice(("div", "p", "span", "noscript"))
        hidden = (f"<noscript>{run}</noscript>" if tag == "noscript"
                  else f'<{tag} style="{r.choice(T.HIDE_STYLES)}">{run}</{tag}>')
        parts = [hidden, *visible] if r.random() < 0.5 else [*visible, hidden]
    elif style == "alt_runs":
        for j in range(x.n(5)):
            k, alt = r.choice(kws), esc(" ".join(r.sample(kws, len(kws))))
            parts += [f"<h2>{esc(_title(k))}</h2>", f'<p><img src="/wp-content/uploads/20{15 + j % 9}/0{1 + j % 9}/'
                      f'{_slug(k)}-{j}.jpg" alt="{alt}" title="{alt}" width="600" height="400"></p>',
                      f"<p>{_seo(r, kws, site.name)}</p>" if lang == "en" else _p(", ".join(_some(r, kws, 3)) + ".")]
    else:  # faq_stuffed
        parts.append(f"<p>{_seo(r, kws, site.name)} {_seo(r, kws, site.name)}</p>")
        for q in _some(r, T.FAQ_QUESTIONS, x.n(4, 2)):
            parts.append("<h3>" + esc(_fill(q, kw=r.choice(kws), site=site.name, year=r.randint(2019, 2025))) + "</h3>")
            parts.append("<p>" + " ".join(_seo(r, kws, site.name) for _ in range(r.randint(1, 3))) + "</p>")
    return _Body(title, "\n".join(parts), lang, h1=_title(kws[0]), meta=meta, footer=footer, site=site)


def _word_salad(x: _Ctx, style: str, i: int) -> _Body:
    r, c = x.r, x.c
    lang = T.SALAD_LANGS[(i // len(STYLES["word_salad"])) % len(T.SALAD_LANGS)]

    def words(k: int) -> list[str]:
        if style != "bigram_chains":
            return c.words(r, lang, k)
        out = c.words(r, lang, 1)
        while len(out) < k:
            nxt = c.following[lang].get(out[-1].lower())
            out.append(r.choice(nxt) if nxt and r.random() < 0.85 else c.words(r, lang, 1)[0])
        return out

    def sentence() -> str:
        w = words(r.randint(5, 14))
        if r.random() < 0.3:
            w[r.randrange(1, len(w))] += ","
        return _cap(" ".join(w).rstrip(",")) + r.choice("......!?")

    parts = []
    if style in ("sentences", "bigram_chains"):
        parts = [_p(" ".join(sentence() for _ in range(r.randint(3, 8)))) for _ in range(x.n(4))]
    elif style == "unpunctuated":
        parts = [_p(" ".join(words(r.randint(40, 250)))) for _ in range(x.n(2))]
    elif style == "comma_runs":
        parts = [_p(", ".join(words(r.randint(10, 40))) + ".") for _ in range(x.n(3))]
    else:  # titled_snippets
        for _ in range(x.n(5, 2)):
            head = _title(" ".join(words(r.randint(3, 6))))
            parts += [f"<h2>{_a(f'/{_slug(head) or r.randint(1, 999)}/', head)}</h2>",
                      _p(" ".join(sentence() for _ in range(r.randint(1, 3))))]
    return _Body(_title(" ".join(words(r.randint(3, 7)))), "\n".join(parts), lang)


def _link_farm(x: _Ctx, style: str, i: int) -> _Body:
    r = x.r
    topics = [_keywords(r, r.randint(3, 8), None) for _ in range(r.randint(2, 4))]
    kws, lang = [k for t in topics for k in t[0]], "en" if all(t[1] == "en" for t in topics) else "mul"
    n = x.n(30, 6)

    def link(anchor: str | None = None, kw: str | None = None) -> str:
        kw = kw or r.choice(kws)
        return _a(_spam_url(r, kw), anchor or kw, r.choice(("", "", ' target="_blank"', ' rel="dofollow"')))

    def host_name() -> str:
        return _spam_host(r).split(".")[0].replace("-", " ").title()

    intro = _p(_fill(r.choice(T.LINK_INTROS), kw=kws[0])) if r.random() < 0.5 else ""
    if style == "keyword_ul":
        main = _ul([link() for _ in range(n)], "links")
    elif style == "numbered_ol":
        main = "<ol>" + "".join(f"<li>{link(_title(k))}{r.choice(('', ' (NEW!)', f' [PR{r.randint(1, 7)}]', ' ★'))}"
                                "</li>" for k in r.choices(kws, k=n)) + "</ol>"
    elif style == "table_directory":
        rows = [f"<tr><td>{link(host_name())}</td><td>{esc(r.choice(T.DIRECTORY_CATEGORIES))}</td>"
                f"<td>PR{r.randint(0, 6)}</td><td>{esc(_fill(r.choice(T.LINK_DESCRIPTIONS), kw=k, Kw=_cap(k), kw2=k))}"
                f"</td></tr>" for k in r.choices(kws, k=n)]
        main = ('<table class="directory"><tr><th>Site</th><th>Category</th><th>Rank</th><th>Description</th></tr>'
                + "".join(rows) + "</table>")
    elif style == "blogroll_div":
        main = (f"<h3>{r.choice(('Blogroll', 'Partner sites', 'Friends', 'Links'))}</h3><div class=\"blogroll\">"
                + "".join(f'<div class="link-item">{link(host_name())}</div>' for _ in range(n)) + "</div>")
    elif style == "directory_descriptions":
        def entry(k: str) -> str:
            desc = _fill(r.choice(T.LINK_DESCRIPTIONS), kw=k, Kw=_cap(k), kw2=r.choice(kws))
            return (f'<div class="entry">{link(_title(k), k)} - {esc(desc)} '
                    f'<span class="url">{esc(_spam_host(r))}</span></div>')
        main = "".join(f"<h3>{esc(cat)}</h3>" + "".join(entry(k) for k in r.choices(kws, k=r.randint(3, 8)))
                       for cat in _some(r, T.DIRECTORY_CATEGORIES, x.n(3)))
    elif style == "resources_grouped":
        intro = intro or _p(_fill(T.LINK_INTROS[0], kw=kws[0]))
        main = "".join(f"<h3>{esc(_title(r.choice(kws)))}</h3>" + _ul([
            f"{esc(_cap(k))}: {link(r.choice(T.CLICK_ANCHORS), k)}" if r.random() < 0.4 else link(_cap(k), k)
            for k in r.choices(kws, k=r.randint(4, 10))]) for _ in range(x.n(3)))
    else:  # bare_urls
        urls = [_spam_url(r, r.choice(kws)) for _ in range(n)]
        main = "<p>" + "<br>\n".join(_a(u, u) for u in urls) + "</p>"
    title = r.choice(("Links", "Partner Sites", "Resources", f"Link Directory - {_title(kws[0])}", "Useful Links",
                      f"Web Directory: {r.choice(T.DIRECTORY_CATEGORIES)}", f"{_title(kws[0])} Links"))
    return _Body(title, intro + "\n" + main, lang, site=x.site("en"))


def _spun_text(x: _Ctx, style: str, i: int) -> _Body:
    r, parts = x.r, []
    if style in ("spun_news", "spun_news_heavy"):
        paras = r.choice(x.c.articles)[1]
        rate = r.uniform(0.45, 0.8) if style == "spun_news" else 1.0
        for p in paras[:x.n(7, 2)]:
            text = _spin(" ".join(p), r, rate)
            if style == "spun_news_heavy" and r.random() < 0.5:
                lead = r.choice(("In fact, ", "As a matter of fact, ", "Obviously, ", "It goes without saying that "))
                text = lead + text[:1].lower() + text[1:]
            parts.append(_p(text))
        title = _title(_spin(_clip(paras[0][0], r.randint(6, 11)), r, 1.0))
    elif style in ("spun_seo", "leaked_spintax"):
        keep = 0.0 if style == "spun_seo" else r.uniform(0.08, 0.3)
        for art in _some(r, T.SPINTAX_ARTICLES, x.n(1.5)):
            sents = re.split(r"(?<=[.!?]) ", _spintax(art, r, keep))
            if style == "leaked_spintax" and r.random() < 0.5:
                sents.insert(r.randrange(len(sents)), _fill(r.choice(T.MACRO_LEAKS), kw=_clip(sents[0], 3).lower()))
            k = r.randint(2, 4)
            parts += [_p(" ".join(sents[j:j + k])) for j in range(0, len(sents), k)]
        title = _title(_clip(re.sub(r"<[^>]+>|[{}|]", " ", parts[0][3:]), r.randint(4, 8)))
    else:  # tortured_academic
        tps = r.sample(T.TORTURED, 6)

        def prose(k: int) -> str:
            return " ".join(_fill(t, tp=r.choice(tps), tp2=r.choice(tps), tp3=r.choice(tps))
                            for t in r.sample(T.ABSTRACT_TEMPLATES, k))
        title = f"A Novel {_title(tps[0])} Approach for {_title(tps[1])} Using {_title(tps[2])}"
        parts = ["<h2>Abstract</h2>", _p(prose(r.randint(4, 7))), f"<p><b>Keywords:</b> {esc(', '.join(tps[:4]))}</p>"]
        for j, head in enumerate(("Introduction", "Related Work", "Proposed Method", "Conclusion")[:x.n(2)]):
            body = prose(r.randint(3, 6)) + " " + _spin(" ".join(x.c.sentence(r) for _ in range(2)), r, 1.0)
            parts += [f"<h2>{j + 1}. {head}</h2>", _p(body)]
    return _Body(title, "\n".join(parts), "en")


def _scraped_mashup(x: _Ctx, style: str, i: int) -> _Body:
    r, arts, parts = x.r, x.c.articles, []

    def stitched(k: int) -> str:
        return " ".join(r.choice(r.choice(r.choice(arts)[1])) for _ in range(k))
    lang = "en"
    if style == "sentence_stitch":
        parts = [_p(stitched(r.randint(2, 5))) for _ in range(x.n(4))]
    elif style == "paragraph_splice":
        parts = [_p(" ".join(r.choice(r.choice(arts)[1])[:r.randint(2, 4)])) for _ in range(x.n(4, 2))]
    elif style == "snippet_list":
        for _ in range(x.n(8, 3)):
            url, paras = r.choice(arts)
            s1, s2 = r.choice(r.choice(paras)), r.choice(r.choice(paras))
            parts.append(f'<div class="result"><h3>{_a(url, _clip(paras[0][0], 9))}</h3><p>… {esc(_clip(s1, 14))} … '
                         f'{esc(_clip(s2, 12))} …</p><cite>{esc(url.split("/")[2])}</cite></div>')
    elif style == "autoblog_sources":
        for _ in range(x.n(3)):
            url, paras = r.choice(arts)
            parts += [f"<h2>{esc(_clip(r.choice(paras)[0], 7))}</h2>", _p(stitched(r.randint(2, 4))),
                      f'<p class="source">Source: {_a(url, url.split("/")[2])}</p>']
    else:  # multilingual_stitch
        langs, lang = r.sample(sorted(x.c.sentences), r.randint(2, 5)), "mul"
        parts = [_p(" ".join(x.c.sentence(r, r.choice(langs)) for _ in range(r.randint(2, 5))))
                 for _ in range(x.n(4))]
    return _Body(_clip(x.c.sentence(r), r.randint(6, 11)), "\n".join(parts), lang)


def _doorway(x: _Ctx, style: str, i: int) -> _Body:
    r = x.r
    lang = {"service_city_de": "de", "service_city_fr": "fr"}.get(style, "en")
    site = x.site(lang, style)
    s, tpls = site.seed, T.DOORWAY_TEMPLATES[style]
    phone = f"({200 + s % 700}) 555-01{s % 100:02d}"
    if lang == "de":
        cities, st, phone = [(c, "") for c in T.DE_CITIES.split("|")], "", f"0800 {100000 + s % 900000}"
        service, activity = T.SERVICES_DE[s % len(T.SERVICES_DE)].split("|")
        services = service
    elif lang == "fr":
        cities, phone = [(c, "") for c in T.FR_CITIES.split("|")], f"01 {s % 90 + 10} {s % 89 + 10} {s % 79 + 20} 00"
        service, activity = T.SERVICES_FR[s % len(T.SERVICES_FR)].split("|")
        services = service + "s"
    else:
        service, services, activity = T.SERVICES_EN[s % len(T.SERVICES_EN)].split("|")
        cities = [tuple(c.split(", ")) for c in T.US_CITIES]
        if style == "service_city" and s % 3 == 0:
            cities = [(c, "UK") for c in T.UK_TOWNS.split("|")]
    city, st = r.choice(cities)
    others = [c for c, _ in _some(r, cities, x.n(10, 4)) if c != city]
    job = T.JOBS[s % len(T.JOBS)]
    values = {"city": city, "st": st, "service": service, "Service": _title(service), "services": services,
              "Services": _title(services), "activity": activity, "Activity": _cap(activity), "phone": phone,
              "zips": " ".join(str(r.randint(10000, 99999)) for _ in range(r.randint(4, 12))),
              "nearby": ", ".join(others[:r.randint(3, 6)]), "n": r.randint(12, 480), "price": r.randint(39, 99),
              "job": job, "wage": f"{r.randint(14, 38)}.{r.choice(('00', '50', '75'))}"}
    main = _fill(" ".join(tpls[s % len(tpls)].split()), **{k: esc(str(v)) for k, v in values.items()})
    head = {"de": "Weitere Standorte", "fr": "Nos villes d'intervention"}.get(lang, "Areas We Serve")
    label = {"hotels_city": "Hotels in {c}", "jobs_city": f"{job} Jobs in {{c}}"}.get(style, f"{_title(service)} {{c}}")
    main += f"\n<h3>{head}</h3>" + _ul([_a(f"/{_slug(label.format(c=c))}/", label.format(c=c)) for c in others])
    title = {"service_city": f"{_title(service)} {city}, {st} | 24/7 Emergency {_title(service)} | Call {phone}",
             "near_me": f"{_title(service)} Near Me {city}, {st} - Top Rated Local {_title(services)}",
             "service_city_de": f"{service} {city} – 24h Notdienst ✓ Festpreis ✓ {phone}",
             "service_city_fr": f"{_cap(service)} {city} - Dépannage 24h/24 - Devis gratuit",
             "hotels_city": f"Cheap Hotels in {city}, {st} - Compare {values['n']} Hotels",
             "jobs_city": f"{job} Jobs in {city}, {st} - Hiring Now ({values['n']} openings)"}[style]
    path = {"hotels_city": f"/hotels/{_slug(city)}-hotels.html", "jobs_city": f"/jobs/{_slug(job)}/{_slug(city)}"
            }.get(style, f"/{_slug(service)}-{_slug(city)}/")
    return _Body(title, main, lang, h1=title.split(" | ")[0].split(" - ")[0], path=path, site=site)


def _comment_spam(x: _Ctx, style: str, i: int) -> _Body:
    r = x.r
    post = _clip(x.c.sentence(r), r.randint(4, 9))
    n = x.n(15, 4)

    def link_html(u: str, anchor: str) -> str:
        return r.choice((f'<a href="{esc(u)}" rel="nofollow">{esc(u)}</a>', esc(f"[url={u}]{anchor}[/url]"),
                         esc(u), f'<a href="{esc(u)}" rel="nofollow ugc">{esc(anchor)}</a>'))

    def text_with_link(tpl: str, **kw: object) -> str:
        anchor = r.choice(("click here", "here", *T.DRUGS[:3], "best casino"))
        return esc(_fill(tpl, link="\x00", **kw)).replace("\x00", link_html(_spam_url(r, anchor), anchor))

    entries = []
    for j in range(n):
        name, home = f"{r.choice(T.COMMENT_NAMES)}{r.choice(('', '', ' ' + chr(65 + j % 26) + '.'))}", None
        if style in ("generic_praise", "guestbook"):
            text = esc(" ".join(r.sample(T.PRAISE, r.randint(1, 2))))
            home = _spam_url(r) if r.random() < 0.5 else None
            if style == "guestbook" and r.random() < 0.4:
                text = text_with_link(r.choice(T.PITCHES), drug=r.choice(T.DRUGS), year=r.randint(2015, 2025))
        elif style == "pharma_casino":
            text = text_with_link(r.choice(T.PITCHES), drug=r.choice(T.DRUGS), year=r.randint(2015, 2025))
            name = r.choice((f"buy {r.choice(T.DRUGS)} online", "casino bonus", name, "cheap meds", "slot online"))
        elif style == "crypto_recovery":
            hacker = r.choice(T.HACKERS)
            text = esc(_fill(r.choice(T.RECOVERY), amt=f"{r.randint(12, 480)},000", platform=r.choice(T.PLATFORMS),
                             hacker=hacker, n=r.randint(2, 9), phone=f"+1 (555) 01{r.randint(0, 99):02d}",
                             email=f"{_slug(hacker).replace('-', '')}@{r.choice(('gmail', 'proton'))}.com"))
            if j % 3 == 2:
                text = esc(r.choice(("Thanks, I will contact them!", "Is this legit?", "They helped me too!!!")))
        elif style == "backlink_names":
            name, home = _title(r.choice(_keywords(r, 3, None)[0])), _spam_url(r, "x")
            text = esc(r.choice(T.PRAISE))
        elif style == "foreign_spam":
            text = text_with_link(r.choice(T.FOREIGN_COMMENTS).split("|", 1)[1])
        else:  # spintax_comments
            text = esc(_spintax(r.choice(T.SPINTAX_COMMENTS), r, 0.05 if r.random() < 0.2 else 0.0))
        when = _when(r).strftime("%B %d, %Y at %I:%M %p")
        who = _a(home, name, ' rel="external nofollow ugc" class="url"') if home else esc(name)
        if style == "guestbook":
            entries.append(f"<tr><td><b>Name:</b> {esc(name)}<br><b>Homepage:</b> "
                           f"{_a(home, home) if home else '-'}<br><b>Date:</b> {when}</td><td>{text}</td></tr>")
        else:
            entries.append(f'<li class="comment" id="comment-{r.randint(1000, 99999)}"><div class="comment-body">'
                           f'<div class="comment-author vcard"><b class="fn">{who}</b> <span class="says">says:</span>'
                           f'</div><div class="comment-metadata">{when}</div><div class="comment-content"><p>{text}'
                           f'</p></div><div class="reply"><a class="comment-reply-link" href="#">Reply</a></div></div>'
                           "</li>")
    if style == "guestbook":
        return _Body(f"Guestbook - {r.choice(('Sign', 'Read'))} our guestbook", '<p><a href="/sign.php">Sign the '
                     'guestbook</a></p><table class="guestbook" border="1">' + "".join(entries) + "</table>", "en")
    intro = _p(x.c.sentence(r)) if r.random() < 0.5 else f'<p><img src="/uploads/{_slug(post)}.jpg" alt=""></p>'
    main = (f'{intro}\n<div id="comments" class="comments-area"><h2 class="comments-title">{n} thoughts on '
            f'&ldquo;{esc(post)}&rdquo;</h2><ol class="comment-list">' + "\n".join(entries) + '</ol><div id="respond">'
            '<h3>Leave a Reply</h3><form><textarea name="comment"></textarea><input name="author"><input name="url">'
            '<button type="submit">Post Comment</button></form></div></div>')
    return _Body(post, main, "mul" if style == "foreign_spam" else "en")


_SCRIPTS = ((0x61, 0x7A), (0x430, 0x44F), (0x3B1, 0x3C9), (0x4E00, 0x4FFF), (0x627, 0x64A), (0xAC00, 0xAD00),
            (0x5D0, 0x5EA), (0xE01, 0xE2E), (0x2600, 0x26FF), (0x1F600, 0x1F64F), (0x21, 0x2F))


def _garble(s: str, how: int) -> str:
    if how == 0:
        return s.encode("utf-8").decode("cp1252", errors="replace")
    if how == 1:
        return _garble(_garble(s, 0), 0)
    if how == 2:
        return s.encode("utf-8").decode("cp1251", errors="replace")
    if how == 3:
        return s.encode("cp1251", errors="replace").decode("cp1252", errors="replace")
    return s.encode("ascii", errors="replace").decode()


def _gibberish(x: _Ctx, style: str, i: int) -> _Body:
    r, lang, paras = x.r, "zxx", []

    def pseudo() -> str:
        return "".join(r.choice("bcdfghjklmnprstvwzbcdfghjklmnprstvwzqx") + r.choice("aeiouy")
                       + r.choice(("", "", "n", "r", "s")) for _ in range(r.randint(1, 4)))

    def mash() -> str:
        row = r.choice(("qwertyuiop", "asdfghjkl", "zxcvbnm", "1234567890", "asdf", "jkl;"))
        k = r.randrange(len(row))
        return row[k:k + r.randint(2, 7)] * r.choice((1, 1, 2, 3)) or "asd"

    def sentences(word: Callable[[], str]) -> str:
        return " ".join(_cap(" ".join(word() for _ in range(r.randint(3, 12)))) + r.choice("..!?") for _ in
                        range(r.randint(2, 6)))

    if style == "random_letters":
        paras = [_p(sentences(lambda: "".join(r.choices("abcdefghijklmnopqrstuvwxyz", k=r.randint(1, 12)))))
                 for _ in range(x.n(3))]
    elif style == "keyboard_mash":
        paras = [_p(r.choice((" ", "", " ", ";")).join(mash() for _ in range(r.randint(10, 60))))
                 for _ in range(x.n(3))]
    elif style == "encoded_blob":
        for _ in range(x.n(2)):
            raw = r.randbytes(r.randint(60, 900))
            blob = r.choice((base64.b64encode(raw).decode(), raw.hex(), "".join(f"%{b:02X}" for b in raw[:300])))
            paras.append(r.choice(("<pre>{}</pre>", "<p>{}</p>", '<div class="data">{}</div>')).format(
                "\n".join(blob[k:k + 76] for k in range(0, len(blob), 76))))
    elif style == "mixed_script":
        for _ in range(x.n(3)):
            ranges = r.sample(_SCRIPTS, r.randint(2, 4))
            paras.append(_p(" ".join("".join(chr(r.randint(*r.choice(ranges))) for _ in range(r.randint(1, 9)))
                                     for _ in range(r.randint(10, 60)))))
    elif style == "repeated_chars":
        units = ("a", "e", "o", "h", "!", ".", "?", "x", "z", "m", "1", "0", "★", "ha", "lol", "test ", "asd", "ok ")
        paras = [_p(" ".join(r.choice(units) * r.randint(3, 40) for _ in range(r.randint(3, 25))))
                 for _ in range(x.n(2))]
    elif style == "mojibake":
        lang = r.choice(("de", "fr", "es", "pl", "pt", "ru", "it", "sv", "uk", "cs", "el", "tr", "ja", "zh"))
        how = (2, 3)[i % 2] if lang in ("ru", "uk") and r.random() < 0.6 else r.choice((0, 0, 1, 4))
        paras = [_p(_garble(" ".join(x.c.sentence(r, lang) for _ in range(r.randint(2, 5))), how))
                 for _ in range(x.n(3))]
        return _Body(_garble(_clip(x.c.sentence(r, lang), 6), how), "\n".join(paras), lang)
    else:  # pseudo_words
        paras = [_p(sentences(pseudo)) for _ in range(x.n(3))]
    title = r.choice((" ".join(pseudo() for _ in range(3)), mash() + mash(), "Untitled", "asdf", "test"))
    return _Body(_cap(title), "\n".join(paras), lang)


def _fake_reviews(x: _Ctx, style: str, i: int) -> _Body:
    r = x.r
    product = _product(r)
    benefit = r.choice(T.BENEFITS)
    v = {"Product": product, "product": product, "benefit": benefit, "Benefit": _cap(benefit),
         "pct": r.choice((50, 60, 70, 75, 80)), "n": r.randint(2, 21), "k": f"{r.randint(1, 99)},{r.randint(100, 999)}",
         "price": f"{r.randint(19, 79)}.{r.choice(('95', '99', '00'))}", "price2": f"{r.randint(129, 299)}.00",
         "name": r.choice(T.COMMENT_NAMES), "Problem": r.choice(T.PROBLEMS)}

    def line(tpl: str, markup: bool = False) -> str:
        """``markup``: the template is HTML already (the sales letter), only the values are escaped."""
        return _fill(tpl if markup else esc(tpl), **{k: esc(str(val)) for k, val in v.items()})

    def who() -> str:
        return f"{r.choice(T.COMMENT_NAMES)} {chr(65 + r.randrange(26))}., {r.choice(T.US_CITIES).split(', ')[1]}"
    stars, parts = "★★★★★", []
    hook = r.choice(("Does It Work?", "Scam or Legit?", "MUST READ!!!"))
    title = f"{product} Reviews {r.randint(2019, 2025)} - {hook}"
    if style == "star_reviews":
        parts.append(f'<div class="rating-summary">{stars} 4.{r.randint(7, 9)} out of 5 ({v["k"]} reviews)</div>')
        for _ in range(x.n(8, 3)):
            text = line(r.choice(T.REVIEW_LINES))
            parts.append(f'<div class="review"><div class="stars">{stars}</div><h4>{text.split("!")[0]}!!!</h4>'
                         f'<p class="by">{esc(who())} &middot; Verified Purchase</p><p>{text}</p>'
                         f'<p class="helpful">Helpful ({r.randint(3, 400)})</p></div>')
    elif style == "ad_copy":
        title = f"{product} - {v['pct']}% OFF TODAY ONLY!!!"
        for tpl in r.choices(T.AD_LINES, k=x.n(8, 4)):
            parts.append(r.choice(("<h2>{}</h2>", "<p>{}</p>", '<div class="banner">{}</div>')).format(line(tpl)))
            parts += ['<p><a class="btn" href="/order">ORDER NOW &raquo;</a></p>'] if r.random() < 0.3 else []
    elif style == "testimonials":
        title = f"What Our Customers Say About {product}"
        parts = [f'<blockquote>&ldquo;{line(r.choice(T.REVIEW_LINES))}&rdquo; &mdash; {esc(who())} '
                 f'<span class="verified">✔ Verified Buyer</span></blockquote>' for _ in range(x.n(8, 3))]
    elif style == "top10_affiliate":
        kind = product.split(" ", 1)[1]
        title = f"Top 10 Best {kind} in {r.randint(2019, 2025)} - Reviews & Buying Guide"
        for k in range(1, min(10, x.n(8, 3)) + 1):
            name = _product(r).split(" ", 1)[0] + f" {kind} {r.choice(('Pro', 'X', '2.0', 'Max', 'Plus'))}"
            parts.append(f"<h3>#{k} {esc(name)}{' – Editor’s Choice' if k == 1 else ''}</h3><p>{stars} "
                         f"{9.9 - k * 0.1 - r.random() / 10:.1f}/10</p><p><b>Pros:</b> "
                         f"{esc(_cap(r.choice(T.BENEFITS)))}, "
                         f"easy to use, great value. <b>Cons:</b> none!</p><p><a href=\"https://www.amazon.com/dp/B0"
                         f"{r.randint(10**7, 10**8 - 1)}?tag={_slug(name)[:8]}-20\" rel=\"sponsored\">Check Price on "
                         "Amazon &raquo;</a></p>")
    elif style == "sales_letter":
        title = f"{product}: The Secret {v['Problem']} Solution They Don't Want You To Know!!!"
        parts = [line(tpl, True) for j, tpl in enumerate(T.SALES_LETTER) if j < 2 or r.random() < min(0.95, x.size / 2)]
    else:  # app_reviews
        title = f"{product.split(' ')[0]} App - Reviews ({v['k']})"
        parts = [f'<div class="review"><b>{esc(r.choice(T.COMMENT_NAMES))}</b> {stars[:r.choice((5, 5, 5, 4))]} '
                 f'<span class="date">{_when(r):%d/%m/%Y}</span><p>{esc(r.choice(T.APP_REVIEWS))}</p></div>'
                 for _ in range(x.n(15, 4))]
    return _Body(title, "\n".join(parts), "en")

