"""The twelve families of ``bench/junk_final.py``: one function per family, each turning a :class:`Ctx` (the page's
random generator, the real text sources and a length scale) and a style name into a :class:`Body` (title, the HTML
of the main area, language). The page around it (head, header, nav, sidebars, footer) is ``junk_final.py``'s job.
Word lists and templates live in ``bench/junk_final_templates.py``. Final evaluation only: see ``junk_final.py``.
"""

from __future__ import annotations

import base64
import calendar
import html
import random
import re
import unicodedata
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bench import junk_final_templates as T

# -- the text sources and the per-page context ------------------------------------------------------------------


@dataclass(frozen=True)
class Doc:
    """One WCXB page's main content (real text), split into paragraphs, with a guessed language."""

    title: str
    host: str
    paras: tuple[str, ...]
    lang: str


@dataclass
class Texts:
    sents: dict[str, list[str]]  # language -> real sentences (langid_dev, plus WCXB sentences of that language)
    docs: list[Doc]  # WCXB documents with a guessed language
    function_words: dict[str, frozenset[str]]  # the templates' lists, or the most frequent words of the language
    docs_by_lang: dict[str, list[Doc]] = field(default_factory=dict)


@dataclass
class Body:
    title: str
    main: str  # HTML of the main area; for ``bare`` pages the whole <body> content
    lang: str
    bare: bool = False  # served without the site's chrome (server error pages, listings, bot checks)
    head: str = ""  # extra <head> markup
    side: str = ""  # extra sidebar widget HTML
    related: list[str] = field(default_factory=list)  # titles for the sidebar's "recent posts"
    path: str | None = None  # a URL path that fits the page (else one is made from the title)


SPACED_LANGS = ("en", "de", "fr", "es", "it", "pt", "nl", "pl", "ru", "tr", "id", "sv", "da", "nb", "cs", "ro",
                "hu", "fi", "ca", "vi", "af", "hr", "lt", "sk", "sw", "tl", "uk", "bg", "el", "et", "lv", "sl")


class Ctx:
    def __init__(self, rng: random.Random, texts: Texts, scale: float) -> None:
        self.rng, self.texts, self.scale = rng, texts, scale

    def pick(self, seq: Sequence):
        return seq[self.rng.randrange(len(seq))]

    def sample(self, seq: Sequence, k: int) -> list:
        return self.rng.sample(list(seq), min(k, len(seq)))

    def n(self, lo: int, hi: int) -> int:
        """A count between lo and hi, scaled by the page's length (short pages get fewer items)."""
        return max(1, round(self.rng.randint(lo, hi) * self.scale))

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def sent(self, lang: str = "en") -> str:
        return self.pick(self.texts.sents.get(lang) or self.texts.sents["en"])

    def sents(self, lang: str, k: int) -> list[str]:
        return [self.sent(lang) for _ in range(k)]

    def doc(self, lang: str = "en") -> Doc:
        return self.pick(self.texts.docs_by_lang.get(lang) or self.texts.docs)

    def year(self) -> int:
        return self.rng.randint(2017, 2025)

    def anchor(self, lang: str = "en") -> str:
        return self.pick(T.SPAM_ANCHORS.get(lang) or T.SPAM_ANCHORS["en"])

    def spam_host(self, lang: str = "en") -> str:
        words = [self.pick(T.SPAM_HOST_WORDS) for _ in range(self.rng.randint(1, 3))]
        sep = "-" if self.chance(0.3) else ""
        num = str(self.rng.randint(1, 999)) if self.chance(0.25) else ""
        tld = self.pick(T.LANG_TLDS.get(lang, ()) + T.SPAM_TLDS) if self.chance(0.4) else self.pick(T.SPAM_TLDS)
        return f"{sep.join(words)}{num}.{tld}"

    def spam_url(self, lang: str = "en", anchor: str | None = None) -> str:
        slug = slugify(anchor or self.anchor(lang))
        path = self.pick(("", f"/{slug}", f"/{slug}/", f"/?ref={self.rng.randint(100, 99999)}", f"/go/{slug}",
                          f"/{slug}.html", f"/index.php?id={self.rng.randint(1, 9999)}"))
        return f"{self.pick(('http', 'https'))}://{self.pick(('', 'www.'))}{self.spam_host(lang)}{path}"

    def phone(self) -> str:
        return f"({self.rng.randint(201, 989)}) {self.rng.randint(200, 999)}-{self.rng.randint(0, 9999):04d}"

    def ip(self) -> str:
        return ".".join(str(self.rng.randint(1, 254)) for _ in range(4))

    def email(self) -> str:
        user = "".join(self.sample(T.USER_SYLLABLES, 2)) + str(self.rng.randint(1, 99))
        return f"{user}@{self.pick(('gmail.com', 'yahoo.com', 'outlook.com', 'mail.ru', 'proton.me', 'hotmail.com'))}"

    def user(self) -> str:
        name = "".join(self.sample(T.USER_SYLLABLES, self.rng.randint(1, 2)))
        return name + (str(self.rng.randint(1, 2025)) if self.chance(0.6) else "")

    def date(self) -> str:
        return f"{self.year()}-{self.rng.randint(1, 12):02d}-{self.rng.randint(1, 28):02d}"

    def content_words(self, lang: str, k: int) -> list[str]:
        stop = self.texts.function_words.get(lang, frozenset())
        out: list[str] = []
        for _ in range(200):
            out += [w for w in words_of(self.sent(lang)) if w.lower() not in stop and len(w) > 1]
            if len(out) >= k:
                break
        self.rng.shuffle(out)
        return out[:k]


# -- small HTML helpers --------------------------------------------------------------------------------------------
SENT_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[\"“‘(]?[A-Z0-9])")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")
_WORD = re.compile(r"[^\W\d_](?:[\w'’-]*\w)?")


def clean(text: str) -> str:
    return _CONTROL.sub("", text)


def esc(text: str) -> str:
    return html.escape(clean(text), quote=True)


def tag(name: str, inner: str, cls: str | None = None, **attrs: str) -> str:
    if cls:
        attrs = {"class": cls, **attrs}
    attr = "".join(f' {k.rstrip("_").replace("_", "-")}="{esc(v)}"' for k, v in attrs.items())
    return f"<{name}{attr}>{inner}</{name}>"


def p(text: str, cls: str | None = None) -> str:
    return tag("p", esc(text), cls)


def h(level: int, text: str, cls: str | None = None) -> str:
    return tag(f"h{level}", esc(text), cls)


def a(href: str, text: str, **attrs: str) -> str:
    return tag("a", esc(text), href=href, **attrs)


def ul(items: Sequence[str], cls: str | None = None, ordered: bool = False) -> str:
    return tag("ol" if ordered else "ul", "".join(f"<li>{i}</li>" for i in items), cls)


def table(head: Sequence[str], rows: Sequence[Sequence[str]], cls: str | None = None) -> str:
    th = "".join(f"<th>{esc(c)}</th>" for c in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return tag("table", f"<thead><tr>{th}</tr></thead><tbody>{body}</tbody>", cls)


def slugify(text: str, limit: int = 60) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:limit].strip("-") or "page"


def words_of(text: str) -> list[str]:
    return _WORD.findall(text)


def doc_sentences(doc: Doc) -> list[str]:
    return [s for x in doc.paras for s in SENT_SPLIT.split(x) if len(s.split()) >= 5] or list(doc.paras)


def lower_first(s: str) -> str:
    return s[:1].lower() + s[1:] if s[:2] != s[:2].upper() else s


def spin(template: str, c: Ctx, keyword: str) -> str:
    text = template.replace("{KEYWORD}", keyword)
    while True:
        new = re.sub(r"\{([^{}]*\|[^{}]*)\}", lambda m: c.pick(m.group(1).split("|")), text)
        if new == text:
            return new
        text = new


def _kw_en(c: Ctx, head: str, city: str, state: str, year: int) -> str:
    parts = [c.pick(T.KEYWORD_PREFIXES_EN)] if c.chance(0.6) else []
    parts.append(head)
    if c.chance(0.7):
        parts.append(c.pick(T.KEYWORD_SUFFIXES_EN).format(city=city, state=state, year=year))
    return " ".join(parts)


# -- keyword_stuffing -------------------------------------------------------------------------------------------
def keyword_stuffing(c: Ctx, style: str) -> Body:
    if style == "local_i18n":
        lang = c.pick(sorted(T.KEYWORDS_I18N))
        kd = T.KEYWORDS_I18N[lang]
        head, city = c.pick(kd["heads"]), c.pick(kd["cities"])

        def kw() -> str:
            return " ".join([head] + ([c.pick(kd["mods"])] if c.chance(0.6) else []))

        paras = [" ".join(c.pick(kd["frames"]).format(kw=kw(), city=c.pick((city, city, c.pick(kd["cities"]))),
                                                      s=c.sent(lang)) for _ in range(c.rng.randint(2, 4)))
                 for _ in range(c.n(3, 8))]
        title = f"{head.capitalize()} {city} {c.pick(kd['mods'])} | {kw()} {city}"
        areas = ul([esc(f"{head} {x}") for x in c.sample(kd["cities"], c.n(5, 12))])
        main = h(1, f"{kw()} {city}") + "".join(p(x) for x in paras) + h(2, f"{head} – {', '.join(kd['mods'][:3])}")
        return Body(title, main + areas, lang, related=[f"{head} {x}" for x in kd["cities"][:6]])
    head, (city, state), year = c.pick(T.KEYWORD_HEADS_EN), c.pick(T.CITIES_EN), c.year()

    def kw() -> str:
        return _kw_en(c, head, city, state, year)

    pool = doc_sentences(c.doc("en"))
    title = c.pick((f"{kw().title()} | {head.title()} Near Me | {city} {state}", f"#1 {kw().title()} in {city}",
                    f"{head.title()} {city} {state} - {kw().title()} - Call Now!"))
    related = [kw().title() for _ in range(6)]
    if style == "local_service":
        out = [h(1, kw().title())]
        for _ in range(c.n(4, 10)):
            sents = []
            for _ in range(c.rng.randint(2, 4)):
                s = c.pick(pool)
                sents.append(c.pick(T.STUFF_FRAMES_EN).format(kw=kw(), kw2=kw(), kw3=kw(), s=s, s_lower=lower_first(s),
                                                             city=city))
            out.append(tag("p", " ".join(f"<strong>{esc(x)}</strong>" if c.chance(0.2) else esc(x) for x in sents)))
        out.append(h(2, f"{head.title()} Service Areas") + ul([esc(f"{head} {x} {st}") for x, st in
                                                               c.sample(T.CITIES_EN, c.n(8, 25))]))
        out.append(p(f"Call now for {kw()}: {c.phone()}"))
        return Body(title, "".join(out), "en", related=related)
    if style == "faq_stuffed":
        out = [h(1, f"{kw().title()} – FAQ"), p(f"{kw()} {kw()} {kw()}. {c.pick(pool)}")]
        for q in c.sample(T.FAQ_FRAMES_EN, c.n(4, 9)):
            out.append(h(3, q.format(kw=kw())) + p(c.pick(T.FAQ_ANSWERS_EN).format(kw=kw(), kw2=kw(), kw3=kw())))
        return Body(title, "".join(out), "en", related=related)
    if style == "tag_dump":
        tags = [kw() for _ in range(c.n(40, 160))]
        main = (h(1, kw().title()) + p(" ".join(c.sample(pool, c.rng.randint(1, 3)))) + tag("p", "<b>Tags:</b> " +
                ", ".join(a(f"/tag/{slugify(t)}/", t, rel="tag") for t in tags)) +
                h(3, "Related searches") + ul([esc(kw()) for _ in range(c.n(8, 20))]))
        meta = f'<meta name="keywords" content="{esc(", ".join(tags[:60]))}">'
        return Body(title, main, "en", head=meta, related=related)
    if style == "hidden_text":
        hidden = " ".join(kw() for _ in range(c.n(60, 200)))
        css = c.pick(("display:none", "color:#ffffff;background:#ffffff;font-size:1px",
                      "position:absolute;left:-9999px",
                      "visibility:hidden;height:0;overflow:hidden"))
        main = (h(1, kw().title()) + "".join(p(s) for s in c.sample(pool, c.rng.randint(1, 3))) +
                tag("div", esc(hidden), style=css) + tag("p", "Popular searches: " + " | ".join(
                    a(f"/{slugify(x)}", x) for x in (kw() for _ in range(c.n(10, 30))))))
        return Body(title, main, "en", related=related)
    # spun_article: resolved spintax and keyword frames, the product of an article spinner
    keyword = kw()
    out = [h(1, spin(T.SPINTAX[0], c, keyword.title()))]
    for _ in range(c.n(3, 9)):
        out.append(p(" ".join(spin(c.pick(T.SPINTAX), c, c.pick((keyword, kw(), kw()))) for _ in range(c.n(3, 6)))))
    return Body(title, "".join(out), "en", related=related)


# -- word_salad ------------------------------------------------------------------------------------------------------
def _salad_sentences(c: Ctx, words: list[str], k: int) -> list[str]:
    out = []
    for _ in range(k):
        n = c.rng.randint(5, 15)
        chunk = [c.pick(words) for _ in range(n)]
        out.append(chunk[0][:1].upper() + chunk[0][1:] + " " + " ".join(chunk[1:]) + c.pick(".....!?"))
    return out


def word_salad(c: Ctx, style: str) -> Body:
    lang = c.pick(("en", "en", "en", *SPACED_LANGS)) if style not in ("spun_synonyms", "mt_frames") else "en"
    if style == "content_shuffle":
        words = c.content_words(lang, 400)
        paras = [" ".join(_salad_sentences(c, words, c.rng.randint(3, 7))) for _ in range(c.n(2, 8))]
        title = " ".join(w.capitalize() for w in c.sample(words, c.rng.randint(3, 7)))
        return Body(title, h(1, title) + "".join(p(x) for x in paras), lang)
    if style == "markov_chain":
        chain: dict[str, list[str]] = {}
        starts = []
        for s in c.sents(lang, 60):
            ws = s.split()
            if len(ws) > 3:
                starts.append(ws[0])
                for x, y in zip(ws, [*ws[1:], "."], strict=True):
                    chain.setdefault(x, []).append(y)
        paras = []
        for _ in range(c.n(2, 8)):
            sents = []
            for _ in range(c.rng.randint(3, 6)):
                w, out = c.pick(starts), []
                while w != "." and len(out) < 30:
                    out.append(w)
                    w = c.pick(chain.get(w, ["."]))
                sents.append(" ".join(out).rstrip(".,;:") + ".")
            paras.append(" ".join(sents))
        title = paras[0].split(".")[0][:70]
        return Body(title, h(1, title) + "".join(p(x) for x in paras), lang)
    if style == "spun_synonyms":
        doc = c.doc("en")
        while len(doc.paras) < 3:
            doc = c.doc("en")
        paras = []
        for para in [x for x in doc.paras if x != doc.title][: max(2, c.n(3, 10))]:
            def swap(m: re.Match[str]) -> str:
                w = m.group(0)
                alts = T.SPIN_SYNONYMS.get(w.lower())
                if not alts or not c.chance(0.9):
                    return w
                alt = c.pick(alts)
                return alt.capitalize() if w[0].isupper() else alt
            spun = _WORD.sub(swap, para)
            spun = re.sub(r"\b(the|a|an) ", lambda m: "" if c.chance(0.35) else m.group(0), spun)
            paras.append(spun)
        title = _WORD.sub(lambda m: c.pick(T.SPIN_SYNONYMS.get(m.group(0).lower(), (m.group(0),))), doc.title)
        return Body(title or "Article", h(1, title) + "".join(p(x) for x in paras), "en")
    if style == "mt_frames":
        words = [w.lower() for w in c.content_words("en", 200)]
        paras = [" ".join(c.pick(T.MT_FRAMES_EN).format(a=c.pick(words), b=c.pick(words), c=c.pick(words))
                          for _ in range(c.rng.randint(3, 7))) for _ in range(c.n(2, 7))]
        title = " ".join(w.capitalize() for w in c.sample(words, 3)) + " " + c.pick(("Good Way", "The Best Method",
                                                                                     "For You", "Is Very Important"))
        return Body(title, h(1, title) + "".join(p(x) for x in paras), "en")
    if style == "product_pileup":
        lang = c.pick(("en", "en", *sorted(T.PRODUCT_PILE_I18N)))
        pile = T.PRODUCT_PILE_EN if lang == "en" else T.PRODUCT_PILE_I18N[lang] + T.PRODUCT_PILE_EN[:20]
        items = [" ".join(c.pick(pile) for _ in range(c.rng.randint(9, 22))) for _ in range(c.n(8, 40))]
        cur = "€" if lang in ("de", "fr", "es") else ("R$" if lang == "pt" else "US $")
        rows = [tag("div", a(f"/item/{c.rng.randint(10**9, 10**10)}.html", it) +
                    tag("span", esc(f"{cur}{c.rng.randint(1, 60)}.{c.rng.randint(0, 99):02d}"), "price") +
                    tag("span", esc(f"{c.rng.randint(0, 9999)} sold"), "sold"), "product") for it in items]
        return Body(items[0][:90], h(1, items[0]) + "".join(rows), lang)
    # mixed_language: content words of two or three languages strung together
    langs = c.sample(SPACED_LANGS, c.rng.randint(2, 3))
    words = [w for lg in langs for w in c.content_words(lg, 120)]
    paras = [" ".join(_salad_sentences(c, words, c.rng.randint(3, 6))) for _ in range(c.n(2, 7))]
    title = " ".join(c.sample(words, 5))
    return Body(title, h(1, title) + "".join(p(x) for x in paras), langs[0])


# -- link_farm ------------------------------------------------------------------------------------------------------
def link_farm(c: Ctx, style: str) -> Body:
    lang = c.pick(("en", "en", "en", "de", "fr", "es", "pl", "ru", "id", "tr", "pt"))
    ui = T.UI.get(lang, T.UI["en"])
    if style == "blogroll":
        title = c.pick(T.LINK_PAGE_TITLES)
        links = [a(c.spam_url(lang), c.anchor(lang).title() if c.chance(0.5) else c.anchor(lang))
                 for _ in range(c.n(40, 200))]
        cols = c.rng.randint(1, 4)
        main = h(1, title) + p(c.sent(lang)) if c.chance(0.4) else h(1, title)
        main += "".join(ul(links[i::cols], "blogroll") for i in range(cols))
        return Body(title, main, lang, related=[c.anchor(lang) for _ in range(5)])
    if style == "web_directory":
        cat, lang = c.pick(T.DIRECTORY_CATEGORIES), "en"
        out = [h(1, f"{cat} – Web Directory"), p(f"Home » {cat} » {c.pick(T.DIRECTORY_CATEGORIES)}"),
               ul([a(f"/category/{slugify(x)}/", x) + f" ({c.rng.randint(3, 900)})"
                   for x in c.sample(T.DIRECTORY_CATEGORIES, 10)], "subcats")]
        for _ in range(c.n(10, 40)):
            an = c.anchor(lang)
            desc = c.pick(T.LINK_DESCRIPTIONS_EN).format(a=an, b=c.anchor(lang))
            out.append(tag("div", h(3, an.title()) + tag("p", a(c.spam_url(lang, an), c.spam_url(lang, an))) + p(desc) +
                           p(f"{c.pick(T.LINK_EXCHANGE_BITS)} · {c.date()}"), "listing"))
        out.append(p("Submit your site » Add URL · Featured listing $9.99"))
        return Body(f"{cat} | Free Web Directory", "".join(out), "en", path=f"/category/{slugify(cat)}/")
    if style == "exchange_table":
        lang = "en"
        rows = [[a(c.spam_url(lang, an), an), str(c.rng.randint(0, 9)), str(c.rng.randint(1, 99)),
                 esc(c.pick(T.LINK_EXCHANGE_BITS)), esc(c.date())]
                for an in (c.anchor(lang) for _ in range(c.n(20, 80)))]
        code = f'<a href="https://{c.spam_host()}/">{c.anchor()}</a>'
        main = (h(1, c.pick(("Link Exchange", "Partner Sites", "Reciprocal Links"))) + p(c.pick(T.LINK_EXCHANGE_BITS))
                + tag("pre", esc(code)) + table(("Site", "PR", "DA", "Status", "Added"), rows, "links"))
        return Body("Link Exchange - Add Your Site", main, "en")
    if style == "anchor_paragraph":
        chunks = [a(c.spam_url(lang), c.anchor(lang)) for _ in range(c.n(30, 150))]
        seps = (", ", " | ", " - ", " ", " · ")
        paras = [c.pick(seps).join(chunks[i:i + 25]) for i in range(0, len(chunks), 25)]
        main = h(2, ui["related"]) + "".join(tag("p", x) for x in paras)
        return Body(f"{c.anchor(lang).title()} {ui['blog']}", main, lang)
    # gambling_mirrors: the "link alternatif" mirror lists of slot and betting sites
    lg = c.pick(("id", "id", "tr", "ru", "en"))
    brand = c.pick(T.SPAM_ANCHORS[lg]).title()
    rows = [tag("div", a(c.spam_url(lg, brand), f"{brand} {c.pick(T.SPAM_ANCHORS[lg])} {k + 1}") +
                tag("span", "✅ " + c.pick(("ONLINE", "AKTIF", "100% GACOR", "TERPERCAYA", "VIP", "NEW"))), "mirror")
            for k in range(c.n(12, 60))]
    main = h(1, f"{brand} {c.pick(T.SPAM_ANCHORS[lg])}") + p(" ".join(c.pick(T.SPAM_ANCHORS[lg]) for _ in range(12)))
    return Body(f"{brand} | {c.pick(T.SPAM_ANCHORS[lg]).title()} {c.year()}", main + "".join(rows), lg)


# -- lorem_or_template ---------------------------------------------------------------------------------------------
def _ipsum(c: Ctx, vocab: Sequence[str], k: int) -> list[str]:
    return _salad_sentences(c, list(vocab), k)


def lorem_or_template(c: Ctx, style: str) -> Body:
    if style == "lorem_classic":
        paras = [T.LOREM_CLASSIC] * (1 if c.chance(0.5) else 0) + [
            " ".join(_ipsum(c, T.LOREM_WORDS, c.rng.randint(3, 8))) for _ in range(c.n(2, 9))]
        title = c.pick(("Lorem ipsum dolor sit amet", "Hello world!", "Sample Page", "Blog Post Title",
                        " ".join(c.sample(T.LOREM_WORDS, 4)).capitalize()))
        main = h(1, title) + "".join(p(x) + (h(2, " ".join(c.sample(T.LOREM_WORDS, 3)).title()) if c.chance(0.3)
                                            else "") for x in paras)
        return Body(title, main, "la", related=[" ".join(c.sample(T.LOREM_WORDS, 4)).title() for _ in range(5)])
    if style == "themed_ipsum":
        vocab = c.pick((T.FOOD_IPSUM_WORDS, T.HIPSTER_WORDS, T.FOOD_IPSUM_WORDS + T.LOREM_WORDS))
        paras = [" ".join(_ipsum(c, vocab, c.rng.randint(3, 7))) for _ in range(c.n(2, 8))]
        title = " ".join(c.sample(vocab, 3)).title()
        return Body(title, h(1, title) + "".join(p(x) for x in paras), "en")
    if style == "blindtext":
        lang = c.pick(sorted(T.BLINDTEXT))
        bt = T.BLINDTEXT[lang]
        out = [h(1, bt[4])]
        for _ in range(c.n(2, 8)):
            out.append(h(2, bt[4]) if c.chance(0.3) else "")
            out.append(p(" ".join(c.pick(bt[:4] + bt[5:7]) for _ in range(c.rng.randint(3, 8)))))
        out.append(p(bt[7]))
        return Body(f"{bt[4]} – {T.UI[lang]['home']}", "".join(out), lang)
    if style == "theme_demo":
        out = []
        for _ in range(c.n(4, 12)):
            item = c.pick(T.THEME_DEMO_EN)
            out.append(h(c.pick((2, 3)), item) if len(item) < 40 else p(item))
            if c.chance(0.25):
                out.append(tag("a", esc(c.pick(("Learn More", "Get Started", "Button text"))), "button", href="#"))
        if c.chance(0.5):
            out += [h(int(x[-1]), x) if x.startswith("Heading") else p(x) for x in T.TYPOGRAPHY_DEMO]
        title = c.pick(("Sample Page", "Hello world!", "Home", "Your Title Goes Here", "Just another site"))
        return Body(title, "".join(out), "en", related=["Hello world!", "Sample Page", "Uncategorized"])
    # unfilled_template: template variables, shortcodes and PHP notices where content should be
    out = []
    for _ in range(c.n(4, 14)):
        r = c.rng.random()
        if r < 0.45:
            out.append(p(" ".join(c.sample(T.PLACEHOLDERS, c.rng.randint(1, 3)))))
        elif r < 0.7:
            out.append(tag("div", "<b>" + esc(c.pick(T.TEMPLATE_ERRORS)) + "</b>", "php-notice"))
        elif r < 0.85:
            out.append(p(c.pick(T.SPINTAX)))
        else:
            out.append(h(2, c.pick(T.PLACEHOLDERS)))
    title = c.pick(("{{ page.title }}", "%%title%% %%sep%% %%sitename%%", "Untitled", "undefined", "[PAGE_TITLE]",
                    "Home - {SITE_NAME}", "New Page (2)"))
    return Body(title, "".join(out), "en")


# -- repeated_boilerplate ----------------------------------------------------------------------------------------
def repeated_boilerplate(c: Ctx, style: str) -> Body:
    lang = c.pick(("en", "en", "de", "fr", "es"))
    ui = T.UI[lang]
    lead = c.sents(lang, c.rng.randint(1, 3))
    title = " ".join(words_of(lead[0])[:8]) or "Post"
    reps = max(6, c.n(8, 40))
    if style == "share_bar_loop":
        block = tag("div", " ".join(a("#", x) for x in T.SHARE_BARS[lang]) + "".join(p(x) for x in T.LIKE_LINES[lang]),
                    "sharedaddy")
    elif style == "disclaimer_loop":
        block = p(c.pick(T.DISCLAIMERS[lang]), "disclaimer")
    elif style == "newsletter_loop":
        nl = T.NEWSLETTER[lang]
        block = tag("form", h(3, nl[0]) + p(nl[1]) + f'<input type="email" placeholder="{esc(nl[2])}">' +
                    tag("button", esc(nl[3])) + p(nl[4]), "newsletter")
    elif style == "teaser_loop":
        t, s = c.pick(lead), c.sent(lang)
        block = tag("div", h(3, t[:80]) + p(f"{ui['posted']} {c.date()} {ui['by']} admin") + p(s[:140] + " […]") +
                    a("#", ui["read_more"]), "teaser")
    else:  # duplicated_paragraph: one paragraph printed over and over by a broken loop
        block = p(" ".join(c.sents(lang, c.rng.randint(1, 3))))
    main = h(1, title) + "".join(p(x) for x in lead) + block * reps
    return Body(title, main, lang)


# -- cookie_or_login_wall ------------------------------------------------------------------------------------------
def cookie_or_login_wall(c: Ctx, style: str) -> Body:
    if style == "consent":
        lang = c.pick(sorted(T.COOKIE_WALL))
        cw = T.COOKIE_WALL[lang]
        purposes = "".join(tag("div", h(4, x) + tag("label", "<input type='checkbox' checked> " + esc(
            c.pick(cw["buttons"][6:])))) for x in c.sample(cw["purposes"], c.n(3, 11)))  # type: ignore[arg-type]
        vendors = ul([esc(v) + " " + a("#", T.UI.get(lang, T.UI["en"])["privacy"]) for v in
                      c.sample(T.AD_VENDORS, c.n(4, 26))]) if c.chance(0.6) else ""
        buttons = "".join(tag("button", esc(b)) for b in cw["buttons"][:4])  # type: ignore[index]
        main = tag("div", h(2, str(cw["title"])) + p(str(cw["intro"]).format(n=c.rng.randint(120, 1450))) +
                   p(str(cw["more"])) + purposes + vendors + buttons, "consent-dialog", role="dialog")
        return Body(c.pick((str(cw["title"]), "Cookie consent", T.UI.get(lang, T.UI["en"])["home"])), main, lang)
    if style == "paywall":
        lang = c.pick(sorted(T.PAYWALL))
        pw = T.PAYWALL[lang]
        teaser = c.sent(lang)
        plans = "".join(tag("div", h(4, x) + p(f"{c.rng.randint(1, 19)}.99 / {T.PERIODS[lang]}"),
                            "plan") for x in c.sample(pw["plans"], 3))
        body_lines = [x.format(price=f"{c.rng.randint(1, 9)}.99") for x in c.sample(pw["body"], c.n(3, 7))]
        main = (h(1, teaser[:90]) + p(teaser) + tag("div", h(2, c.pick(pw["head"])) +
                "".join(p(x) for x in body_lines) + plans, "paywall"))
        return Body(teaser[:90], main, lang)
    if style == "login":
        lang = c.pick(sorted(T.LOGIN))
        lg = T.LOGIN[lang]
        form = (h(1, lg[0]) + p(lg[1]) + f'<input type="email" placeholder="{esc(lg[2])}">'
                f'<input type="password" placeholder="{esc(lg[3])}">' + "".join(p(x) for x in lg[4:]))
        return Body(lg[0], tag("form", form, "login-form", method="post", action="/login"), lang, path="/login")
    if style == "age_gate":
        lang = c.pick(sorted(T.AGE_GATE))
        ag = T.AGE_GATE[lang]
        main = tag("div", "".join(h(2, x) if i == 0 else p(x) for i, x in enumerate(ag)), "age-gate")
        return Body(ag[0], main, lang)
    if style == "adblock":
        lang = c.pick(sorted(T.ADBLOCK))
        main = tag("div", "".join(h(2, x) if i == 0 else p(x) for i, x in enumerate(T.ADBLOCK[lang])), "adblock-wall")
        return Body(T.ADBLOCK[lang][0], main, lang)
    lang = c.pick(sorted(T.GEO_BLOCK))  # geo_block
    gb = T.GEO_BLOCK[lang]
    main = tag("div", h(1, gb[0]) + "".join(p(x) for x in c.sample(gb[1:], c.n(1, 4))), "geo-block")
    return Body(gb[0], main, lang)


# -- error_page ----------------------------------------------------------------------------------------------------
def _search_form(ui: dict[str, str]) -> str:
    return f'<form role="search" action="/"><input type="search" name="s"><button>{esc(ui["search"])}</button></form>'


def error_page(c: Ctx, style: str) -> Body:
    if style == "not_found":
        lang = c.pick(("en", "en", *sorted(T.NOT_FOUND)))
        nf, ui = T.NOT_FOUND[lang], T.UI.get(lang, T.UI["en"])
        main = (h(1, nf[0]) + "".join(p(x) for x in c.sample(nf[1:], c.n(1, 3))) + _search_form(ui) +
                a("/", ui["home"]))
        return Body(f"{nf[0]} – {c.pick(('404', 'Error 404', nf[0]))}", main, lang)
    if style == "soft_404":
        lang = c.pick(sorted(T.SOFT_404))
        q = " ".join(c.content_words("en", 2)).lower()
        lines = [x.format(q=q, q2=q[::-1][:8]) for x in c.sample(T.SOFT_404[lang], c.n(2, 5))]
        return Body(lines[0], h(1, lines[0]) + "".join(p(x) for x in lines[1:]) + _search_form(T.UI[lang]), lang,
                    path=f"/search?q={slugify(q)}")
    host = "{host}"
    if style == "server_error":
        code, name, text = c.pick(T.SERVER_ERRORS)
        sw = c.pick(T.SERVER_SOFTWARE)
        if sw.startswith("Apache"):
            body = h(1, name) + p(text) + "<hr>" + tag("address", esc(sw))
        else:
            body = f"<center>{h(1, f'{code} {name}')}</center><hr><center>{esc(sw)}</center>"
        return Body(f"{code} {name}", body, "en", bare=True)
    if style == "app_error":
        err = c.pick(T.APP_ERRORS)
        trace = "".join(tag("div", esc(c.pick(T.TEMPLATE_ERRORS))) for _ in range(c.n(1, 5)))
        body = tag("div", h(1, err) + (p(c.pick(("Please try again later.", "Learn more about troubleshooting.",
                                                 "Details have been logged."))) if c.chance(0.7) else "") + trace,
                   "wp-die-message")
        return Body(c.pick((err, "Error", "Database Error", "Site error")), body, "en", bare=c.chance(0.7))
    if style == "maintenance":
        lang = c.pick(sorted(T.MAINTENANCE))
        mt = T.MAINTENANCE[lang]
        main = h(1, mt[0]) + "".join(p(x) for x in c.sample(mt[1:], c.n(1, 4)))
        if c.chance(0.4):
            main += p(f"{c.rng.randint(0, 30)} : {c.rng.randint(0, 23):02d} : {c.rng.randint(0, 59):02d}")
        return Body(mt[0], main, lang, bare=c.chance(0.6))
    if style == "parked_domain":
        lang = c.pick(("en", "en", "de", "fr"))
        pk = T.PARKED[lang]
        links = ul([a(f"/search?q={slugify(x)}", x.title()) for x in c.sample(T.KEYWORD_HEADS_EN, c.n(6, 14))])
        main = (h(1, pk[1].format(host=host)) + "".join(p(x.format(host=host, year=c.year())) for x in
                c.sample(pk, c.n(2, 6))) + h(2, pk[4 if lang == "en" else 3]) + links)
        return Body(pk[0].format(host=host), main, lang, bare=True)
    if style == "directory_listing":
        files = c.sample(T.DIR_FILES, c.n(5, 30))
        rows = "".join(f'{a(f, f)}{" " * max(1, 40 - len(f))}{c.date()} {c.rng.randint(0, 23):02d}:'
                       f'{c.rng.randint(0, 59):02d}  {c.pick(("-", f"{c.rng.randint(1, 999)}K", "4.0K"))}\n'
                       for f in files)
        path = c.pick(("/", "/wp-content/uploads/", "/backup/", "/files/", "/old/", "/images/"))
        body = (h(1, f"Index of {path}") + "<pre>" + a("../", "Parent Directory") + "\n" + rows + "</pre><hr>" +
                tag("address", esc(c.pick(T.SERVER_SOFTWARE).format(host=host))))
        return Body(f"Index of {path}", body, "en", bare=True, path=path)
    if style == "default_server_page":
        title, lines = c.pick(T.DEFAULT_PAGES[:5] + T.DEFAULT_PAGES[6:])
        body = h(1, title) + "".join(p(x) for x in lines)
        return Body(title, body, "en", bare=True, path="/")
    # bot_check
    lines = [x.format(host=host, ray=f"{c.rng.getrandbits(64):016x}", ip=c.ip(), ref=f"{c.rng.getrandbits(40):x}")
             for x in c.sample(T.BOT_CHECK, c.n(3, 8))]
    return Body(c.pick(("Just a moment...", "Attention Required!", "Access denied", "Verify you are human")),
                h(1, lines[0]) + "".join(p(x) for x in lines[1:]) + '<noscript>Please enable JavaScript</noscript>',
                "en", bare=True)


# -- thin_affiliate ----------------------------------------------------------------------------------------------
def _brand(c: Ctx) -> str:
    return "".join(c.pick(T.BRAND_SYLLABLES) for _ in range(c.rng.randint(2, 3))).upper()


def thin_affiliate(c: Ctx, style: str) -> Body:
    if style == "top_n_list":
        lang = c.pick(("en", "en", "en", *sorted(set(T.AFFIL_I18N) - {"en"})))
        af = T.AFFIL_I18N[lang]
        prod = c.pick(T.AFFIL_PRODUCTS_EN if lang == "en" else T.AFFIL_PRODUCTS_I18N[lang])
        n, year = c.rng.randint(5, 15), c.year()
        title = c.pick(af["title"]).format(n=n, P=prod.title(), year=year, price=c.pick((50, 100, 200)),
                                           month=c.pick(T.MONTHS.get(lang, T.MONTHS["en"])))
        out = [h(1, title), p(c.pick(af["intro"]).format(p=prod, year=year))]
        if lang == "en":
            out.append(p(T.DISCLAIMERS["en"][0], "disclosure"))
        for k in range(1, min(n, c.n(3, 15)) + 1):
            name = f"{_brand(c)} {prod.title()} {c.pick(('Pro', 'Max', 'X', 'Plus', 'S', '2.0', 'Lite'))}"
            out.append(tag("div", h(2, f"{k}. {name}") + p(c.pick(af["labels"])) +
                           p("★" * c.rng.randint(4, 5) + f" ({c.rng.randint(120, 40000)})") +
                           ul([esc("✔ " + x) for x in c.sample(af["pros"], 3)]) +
                           ul([esc("✘ " + x) for x in c.sample(af["cons"], 1)]) +
                           a(f"https://amzn.to/{c.rng.getrandbits(28):07x}", c.pick(af["buy"]),
                             rel="nofollow sponsored"),
                           "product-box"))
        out.append(p(c.pick(af["verdict"]).format(p=prod)))
        return Body(title, "".join(out), lang, related=[f"Best {x.title()}" for x in c.sample(T.AFFIL_PRODUCTS_EN, 5)])
    if style == "coupon_list":
        store, month, year = c.pick(T.STORE_NAMES), c.pick(T.MONTHS["en"]), c.year()
        out = [h(1, f"{store} Coupon Codes & Promo Codes – {month} {year}"),
               p(f"{c.rng.randint(10, 60)} {store} coupons available. Save up to {c.rng.randint(20, 80)}% today!")]
        for _ in range(c.n(6, 30)):
            nn, m = c.pick((10, 15, 20, 25, 30, 40, 50)), c.pick((5, 10, 20, 25, 50))
            code = c.pick(T.COUPON_WORDS).format(n=nn)
            meta = c.pick(T.COUPON_META).format(u=c.rng.randint(2, 900), date=c.date(), d=c.rng.randint(1, 30),
                                                s=c.rng.randint(40, 100), h=c.rng.randint(1, 23))
            out.append(tag("div", h(3, c.pick(T.COUPON_LABELS).format(n=nn, m=m)) + p(meta) +
                           tag("button", esc(c.pick(("Show Code", "Get Deal", code)))), "coupon"))
        return Body(f"{store} Coupons: {c.rng.randint(20, 70)}% Off Promo Codes {month} {year}", "".join(out), "en",
                    path=f"/coupons/{slugify(store)}/")
    if style == "price_comparison":
        prod = c.pick(T.AFFIL_PRODUCTS_EN)
        name = f"{_brand(c)} {prod.title()} {c.rng.randint(100, 9999)}"
        base = c.rng.randint(20, 600)
        rows = [[esc(shop), esc(f"${base + c.rng.randint(-15, 90)}.{c.rng.randint(0, 99):02d}"),
                 esc(c.pick(T.PRICE_CMP_BITS).format(n=c.rng.randint(2, 40), h=c.rng.randint(1, 48))),
                 a(f"/out/{c.rng.getrandbits(32):x}", "Go to shop", rel="nofollow")]
                for shop in c.sample(T.SHOP_NAMES + T.STORE_NAMES, c.n(4, 16))]
        main = (h(1, f"{name} – Compare Prices") + p(f"{c.rng.randint(3, 40)} offers from ${base}") +
                table(("Shop", "Price", "Info", ""), rows, "offers") +
                p(c.pick(T.PRICE_CMP_BITS).format(n=len(rows), h=c.rng.randint(1, 48))))
        return Body(f"{name} price comparison – from ${base}", main, "en")
    if style == "product_stub":
        prod = c.pick(T.AFFIL_PRODUCTS_EN)
        name = f"{_brand(c)} {prod.title()}"
        af = T.AFFIL_I18N["en"]
        rows = [[esc(k), esc(c.pick(("N/A", "See on Amazon", "-", "Check price", "Yes", name.split()[0])))]
                for k in c.sample(T.SPEC_LABELS_EN, c.n(5, 12))]
        main = (h(1, f"{name} Review {c.year()}: Is It Worth It?") + p(T.DISCLAIMERS["en"][0]) +
                p(c.pick(af["intro"]).format(p=prod, year=c.year())) + table(("Feature", "Value"), rows) +
                h(2, "Pros") + ul([esc(x) for x in c.sample(af["pros"], 4)]) + h(2, "Verdict") +
                p(c.pick(af["verdict"]).format(p=prod)) + a("https://amzn.to/x", c.pick(af["buy"]), rel="sponsored"))
        return Body(f"{name} Review", main, "en")
    # deal_roundup: today's "deals", nothing but names, prices and buttons
    items = []
    for _ in range(c.n(8, 40)):
        prod = c.pick(T.AFFIL_PRODUCTS_EN)
        was = c.rng.randint(30, 900)
        now = int(was * c.rng.uniform(0.4, 0.9))
        items.append(tag("li", esc(f"{_brand(c)} {prod.title()} – ${now} (was ${was}) ") +
                         a(f"/deal/{c.rng.getrandbits(30):x}", "Get Deal »", rel="nofollow")))
    title = f"Today's Best Deals: {c.pick(T.MONTHS['en'])} {c.rng.randint(1, 28)}, {c.year()}"
    return Body(title, h(1, title) + tag("ul", "".join(items), "deals"), "en")


# -- autogenerated_data ----------------------------------------------------------------------------------------------
def autogenerated_data(c: Ctx, style: str) -> Body:
    if style == "ip_lookup":
        ip = c.ip()
        country, cc = c.pick(T.COUNTRIES)
        isp = c.pick(T.ISP_NAMES)
        vals = {"IP address details": ip, "Hostname": f"{ip.replace('.', '-')}.{c.spam_host()}", "ISP": isp,
                "Organization": isp, "ASN": f"AS{c.rng.randint(1000, 65000)} {isp}", "Country": f"{country} ({cc})",
                "Region": c.pick(T.US_STATES) if cc == "US" else "-", "City": c.pick(T.CITIES_EN)[0] if cc == "US"
                else "-", "Latitude": f"{c.rng.uniform(-50, 60):.4f}", "Longitude": f"{c.rng.uniform(-120, 140):.4f}",
                "Time zone": f"UTC{c.rng.randint(-8, 9):+d}:00", "Postal code": str(c.rng.randint(10000, 99999)),
                "Reverse DNS": f"{ip.replace('.', '-')}.static.{c.spam_host()}", "IPv4": ip,
                "IPv6": f"::ffff:{ip}", "Blacklist status": c.pick(("Not listed", "Listed (3/52)", "Clean")),
                "Connection type": c.pick(("Cable/DSL", "Corporate", "Cellular")),
                "Usage type": c.pick(("ISP / Residential", "Data Center / Web Hosting", "Commercial"))}
        rows = [[esc(k), esc(vals.get(k, c.pick(("Yes", "No", "Unknown"))))] for k in T.IP_BITS
                if k not in ("Map", "Nearby IP addresses") and c.chance(0.85)]
        near = ul([a(f"/ip/{x}", x) for x in (".".join([*ip.split(".")[:3], str(k)]) for k in
                                              range(1, c.n(10, 120)))])
        return Body(f"{ip} IP Address Lookup - {isp} - {country}", h(1, f"IP address {ip}") +
                    table(("Field", "Value"), rows) + h(2, "Nearby IP addresses") + near, "en", path=f"/ip/{ip}")
    if style == "phone_lookup":
        num = c.phone()
        ac = num[1:4]
        bits = [x.format(num=num, ac=ac) for x in c.sample(T.PHONE_BITS[1:], c.n(5, 12))]
        comments = "".join(tag("div", p(f"{c.user()} · {c.date()}") + p(c.pick(T.CALLER_COMMENTS)), "comment")
                           for _ in range(c.n(2, 12)))
        others = ul([a(f"/{ac}-{k:03d}", f"({ac}) {k:03d}-xxxx") for k in range(200, 200 + c.n(10, 60))])
        return Body(f"{num} - Who called me from {num}?", h(1, f"Who called me from {num}?") +
                    ul([esc(x) for x in bits]) + comments + others, "en",
                    path=f"/number/{re.sub(r'[^0-9]', '', num)}")
    if style == "zip_lookup":
        st = c.pick(sorted({s for _, s in T.CITIES_EN}))
        state = T.STATE_NAMES[st]
        towns = [x for x, s in T.CITIES_EN if s == st] + [
            f"{c.pick(T.TOWN_PARTS[0])}{c.pick(T.HOST_FILLERS).title()}{c.pick(T.TOWN_PARTS[1])}" for _ in range(40)]
        counties = [f"{c.pick(T.HOST_FILLERS).title()} County" for _ in range(6)]
        rows = [[a(f"/zip/{z}", str(z)), esc(c.pick(towns)), esc(st), esc(c.pick(counties)),
                 esc(str(c.rng.randint(200, 989))), esc(f"{c.rng.randint(500, 90000):,}")]
                for z in sorted(c.rng.randint(10000, 99950) for _ in range(c.n(15, 80)))]
        return Body(f"{state} ZIP Codes List - Map, Population & Area Codes", h(1, f"ZIP Codes in {state}") +
                    table(("ZIP Code", "City", "State", "County", "Area Code", "Population"), rows), "en")
    if style == "domain_worth":
        dom = c.spam_host() if c.chance(0.5) else c.doc().host

        def value(k: str) -> str:
            if "worth" in k or "revenue" in k:
                return f"${c.rng.randint(8, 90000):,}"
            if k.endswith(("visitors", "pageviews", "rank", "Backlinks", "shares", "index")):
                return f"{c.rng.randint(1, 999999):,}"
            if "IP" in k:
                return c.ip()
            if k in ("Load time", "Domain age", "Page size"):
                return c.pick((f"{c.rng.uniform(0.2, 9):.2f} s", f"{c.rng.randint(1, 25)} years",
                               f"{c.rng.randint(20, 900)} KB"))
            return c.pick(("Yes", "No", "Safe", "Unknown", "Missing", "OK", "UTF-8", "HTML5", c.pick(T.ISP_NAMES)))

        rows = [[esc(k), esc(value(k))] for k in c.sample(T.DOMAIN_STATS, c.n(8, 30))]
        similar = ul([a(f"/www.{d}", d) + f" ${c.rng.randint(10, 9000)}" for d in
                      (c.spam_host() for _ in range(c.n(5, 25)))])
        return Body(f"{dom} - Website Worth & Traffic Estimate", h(1, f"{dom} is worth ${c.rng.randint(10, 99999):,}")
                    + table(("Metric", "Value"), rows) + h(2, "Similar websites") + similar, "en",
                    path=f"/www.{dom}")
    if style == "serp_snippets":
        q = " ".join(c.content_words("en", 3)).lower()
        out = [h(1, f"{q} - Search Results"), p(T.SERP_BITS[0].format(n=f"{c.rng.randint(10**4, 10**8):,}",
                                                                      t=f"{c.rng.uniform(0.2, 0.9):.2f}"))]
        for _ in range(c.n(5, 20)):
            d = c.doc()
            snip = c.pick(d.paras)[: c.rng.randint(100, 180)].rsplit(" ", 1)[0] + " ..."
            out.append(tag("div", h(3, d.title[:70] or d.host) + tag("cite", esc(f"https://{d.host}/ › ...")) +
                           p(snip) + a(f"https://{d.host}/", c.pick(T.SERP_BITS[9:])), "result"))
        out.append(h(3, "Related searches") + ul([esc(f"{q} {w.lower()}") for w in c.content_words("en", 8)]))
        return Body(f"{q} - Search", "".join(out), "en", path=f"/search?q={slugify(q)}")
    if style == "calendar":
        lang = c.pick(sorted(T.MONTHS))
        year, cw = c.year(), T.CALENDAR_WORDS[lang]
        out = [h(1, f"{cw[0]} {year}")]
        for m in range(1, 13) if c.scale > 0.9 else [c.rng.randint(1, 12)]:
            weeks = calendar.Calendar().monthdayscalendar(year, m)
            rows = [[esc(str(d) if d else "") for d in w] for w in weeks]
            out.append(h(2, f"{T.MONTHS[lang][m - 1]} {year}") + table(T.WEEKDAYS[lang], rows, "cal"))
            out.append(p(f"{c.pick(cw[6:10])}: {c.rng.randint(1, 28)}. {T.MONTHS[lang][m - 1]}"))
        out.append(a("#", cw[12]))
        return Body(f"{cw[0]} {year} – {cw[4]}", "".join(out), lang, path=f"/{slugify(cw[0])}-{year}")
    if style == "sitemap_dump":
        heads = [c.pick(T.KEYWORD_HEADS_EN) for _ in range(8)]
        out = [h(1, "Sitemap")]
        for _ in range(c.n(3, 10)):
            out.append(h(2, f"{c.pick(T.MONTHS['en'])} {c.year()}"))
            out.append(ul([a(f"/{slugify(t)}/", t) for t in (
                f"{c.pick(T.KEYWORD_PREFIXES_EN).title()} {c.pick(heads).title()} {c.pick(T.CITIES_EN)[0]}"
                for _ in range(c.n(10, 50)))]))
        return Body("Sitemap", "".join(out), "en", path="/sitemap/")
    # word_finder
    letters = c.pick(("qu", "ex", "z", "ph", "st", "ab", "ing", "tion", "er", "un"))
    vocab = sorted({w.lower() for w in c.content_words("en", 600) if w.isascii()})
    hits = [w for w in vocab if letters in w] or vocab[:30]
    head = c.pick(T.WORD_TOOL_HEADS).format(x=letters.upper(), n=c.rng.randint(4, 9))
    by_len: dict[int, list[str]] = {}
    for w in hits:
        by_len.setdefault(len(w), []).append(w)
    out = [h(1, head), p(f"{len(hits)} words found")]
    for n in sorted(by_len):
        out.append(h(2, f"{n} Letter Words") + ul([a(f"/word/{w}", w) for w in by_len[n]]))
    return Body(f"{head} | Word Finder", "".join(out), "en", path=f"/words/{slugify(head)}")


# -- forum_or_comment_spam -------------------------------------------------------------------------------------------
def _spam_post(c: Ctx, lang: str) -> str:
    frames = T.SPAM_POST_EN if lang == "en" else T.SPAM_POST_I18N.get(lang, T.SPAM_POST_EN)
    an = c.anchor(lang)
    return c.pick(frames).format(anchor=an, link=c.spam_url(lang, an), phone=f"1-{c.phone()}", email=c.email(),
                                 brand=c.pick(T.SUPPORT_BRANDS))


def _signature(c: Ctx, lang: str) -> str:
    anchors = [c.anchor(lang) for _ in range(3)]
    sig = c.pick(T.SIGNATURES_EN)
    if "{url}" in sig:  # BBCode or HTML that the board printed as text
        return esc(sig.format(url=c.spam_url(lang, anchors[0]), anchor=anchors[0], anchor2=anchors[1],
                              anchor3=anchors[2]))
    out = esc(sig)
    for key, x in zip(("{anchor}", "{anchor2}", "{anchor3}"), anchors, strict=True):
        out = out.replace(key, a(c.spam_url(lang, x), x))
    return out


def forum_or_comment_spam(c: Ctx, style: str) -> Body:
    if style in ("forum_thread", "foreign_thread"):
        lang = "en" if style == "forum_thread" else c.pick(("ru", "id", "tr", "de", "fr", "es", "pl", "pt"))
        if lang == "en":
            title = c.pick(T.FORUM_THREAD_TITLES_EN).format(thing=c.pick(T.FORUM_THINGS_EN))
        else:
            title = " ".join(_spam_post(c, lang).split()[:8])
        first = " ".join(c.sents(lang, c.rng.randint(1, 2))) if c.chance(0.5) else _spam_post(c, lang)
        posts = [first] + [_spam_post(c, lang) if c.chance(0.8) else c.pick(T.PRAISE_EN) for _ in range(c.n(5, 30))]
        out = [h(2, title)]
        for k, post in enumerate(posts):
            meta = (f"{c.pick(T.FORUM_BITS[10:])} · Posts: {c.rng.randint(1, 40)} · Joined: {c.date()} · "
                    f"{'Re: ' if k else ''}{T.FORUM_BITS[9]} {c.date()}")
            out.append(tag("div", tag("div", esc(c.user()), "author") + p(meta, "postmeta") + p(post, "content") +
                           tag("div", _signature(c, lang), "signature") + p(" · ".join(T.FORUM_BITS[1:4])), "post"))
        out.append(p(f"Page 1 of {c.rng.randint(2, 90)} · Next »"))
        return Body(title, "".join(out), lang,
                    path=f"/forum/viewtopic.php?t={c.rng.randint(100, 999999)}")
    if style == "blog_comments":
        lang = c.pick(("en", "en", "en", "de", "fr", "es", "ru", "id", "pl"))
        lead = c.sents(lang, c.rng.randint(1, 3))
        praise = T.PRAISE_EN if lang == "en" else T.PRAISE_I18N[lang] + T.PRAISE_EN
        out = [h(1, " ".join(words_of(lead[0])[:9])), *(p(x) for x in lead),
               h(2, f"{c.rng.randint(40, 900)} {c.pick(('Comments', 'Responses', 'thoughts on this post'))}")]
        for _ in range(c.n(8, 40)):
            an = c.anchor(lang)
            who = a(c.spam_url(lang, an), an if c.chance(0.6) else c.user(), rel="external nofollow ugc")
            text = c.pick(praise) + (" " + _spam_post(c, lang) if c.chance(0.35) else "")
            out.append(tag("div", tag("cite", who) + " says:" + p(c.date()) + p(text) + a("#respond", "Reply"),
                           "comment"))
        return Body(" ".join(words_of(lead[0])[:9]), "".join(out), lang)
    if style == "guestbook":
        lang = "en"
        bits = T.GUESTBOOK_BITS
        out = [h(1, f"Guestbook – {c.pick(bits[:2])}"), a("#sign", bits[0])]
        for _ in range(c.n(8, 40)):
            an = c.anchor()
            out.append(tag("div", p(f"{bits[2]} {c.user()}  {bits[4]} {c.pick(T.COUNTRIES)[0]}  {bits[6]} {c.date()}")
                           + tag("p", esc(bits[3]) + " " + a(c.spam_url("en", an), c.spam_url("en", an))) +
                           p(f"{bits[5]} {c.pick(T.PRAISE_EN) if c.chance(0.5) else _spam_post(c, 'en')}") +
                           (p(f"{bits[7]} thanks!") if c.chance(0.1) else ""), "entry"))
        out.append(p(bits[8].format(n=1, m=c.rng.randint(5, 400)) + " " + bits[9]))
        return Body("Guestbook", "".join(out), lang, path=f"/guestbook.php?page={c.rng.randint(1, 400)}")
    # support_number_spam: the tech-support-number floods of open Q&A boards
    brand = c.pick(T.SUPPORT_BRANDS)
    num = f"+1-{c.rng.randint(800, 888)}-{c.rng.randint(200, 999)}-{c.rng.randint(1000, 9999)}"
    title = f"{brand} Support Number {num} {c.pick(('Toll Free', '24/7', 'Customer Care', 'Helpline'))}"
    posts = [f"{c.pick((brand, brand.upper()))} {c.pick(('support', 'customer service', 'helpline', 'phone number'))} "
             f"{num} {c.pick(('call now', 'toll free', 'USA', '24x7', 'for any issue'))}" for _ in range(c.n(10, 50))]
    out = [h(1, title)] + [tag("div", p(f"{c.user()} asked · {c.date()}") + p(x), "question") for x in posts]
    return Body(title, "".join(out), "en")


# -- scraped_fragments_spam ----------------------------------------------------------------------------------------
def _source_link(c: Ctx, lang: str, host: str) -> str:
    return tag("p", esc(c.pick(T.SCRAPE_LABELS.get(lang, T.SCRAPE_LABELS["en"]))) + " " + a(f"https://{host}/", host),
               "source")


def _insert(c: Ctx, kw: str) -> str:
    return p(c.pick(T.SCRAPE_INSERTS_EN).format(kw=kw), "ad-insert")


def scraped_fragments_spam(c: Ctx, style: str) -> Body:
    lang = c.pick(("en", "en", "en", "en", *sorted(T.SCRAPE_LABELS)))
    kw = c.pick(T.KEYWORD_HEADS_EN) if lang == "en" else c.anchor(lang)

    def fragment() -> tuple[str, str, str]:  # (title, text, source host)
        if lang == "en":
            d = c.doc("en")
            i = c.rng.randrange(len(d.paras))
            return d.title, " ".join(d.paras[i:i + c.rng.randint(1, 2)]), d.host
        text = " ".join(c.sents(lang, c.rng.randint(1, 3)))
        host = f"{c.pick(T.HOST_FILLERS)}{c.pick(T.HOST_WORDS['scraped_fragments_spam'])}"
        return " ".join(words_of(text)[:8]), text, f"{host}.{c.pick(T.LANG_TLDS.get(lang, ('com',)))}"

    if style == "snippet_aggregator":
        out = [h(1, f"{kw.title()} – {c.pick(('Latest', 'Top Stories', 'Roundup', 'Everything'))}")]
        for _ in range(c.n(4, 15)):
            t, text, host = fragment()
            out.append(tag("div", h(2, t[:90]) + p(text[: c.rng.randint(150, 500)] + "…") + _source_link(c, lang, host)
                           + (_insert(c, kw) if c.chance(0.4) else ""), "snippet"))
        return Body(f"{kw.title()} News", "".join(out), lang)
    if style == "stitched_article":
        parts = [fragment() for _ in range(c.n(3, 8))]
        out = [h(1, parts[0][0][:90] or kw)]
        for _, text, host in parts:
            out.append(p(text))
            if c.chance(0.5):
                out.append(_insert(c, kw))
            if c.chance(0.5):
                out.append(_source_link(c, lang, host))
        out.append(tag("div", "".join(_source_link(c, lang, host) for _, _, host in parts), "sources"))
        return Body(parts[0][0][:90] or kw, "".join(out), lang)
    if style == "news_ticker":
        items = []
        for _ in range(c.n(8, 40)):
            t, text, host = fragment()
            ago = c.pick(T.TIME_AGO).format(n=c.rng.randint(1, 59))
            items.append(tag("li", a(f"/r/{c.rng.getrandbits(32):x}", t[:100]) + f" — {esc(text[:120])}… " +
                             tag("small", esc(f"{host} · {ago}"))))
        return Body(f"{kw.title()} – {c.pick(('Live feed', 'Trending now', 'Headlines'))}",
                    h(1, f"{kw.title()} feed") + tag("ul", "".join(items), "feed"), lang)
    # people_also_ask: scraped answers to made-up questions, each from a different site
    out = [h(1, f"{kw.title()}: {c.pick(('Questions and Answers', 'People Also Ask', 'FAQ'))}")]
    for _ in range(c.n(4, 14)):
        t, text, host = fragment()
        if lang != "en":
            q = " ".join(words_of(text)[: c.rng.randint(4, 9)]) + "?"
        else:
            q = c.pick(T.FAQ_FRAMES_EN).format(kw=kw) if c.chance(0.5) else t.rstrip("?.") + "?"
        out.append(tag("details", tag("summary", esc(q)) + p(text[:400]) + _source_link(c, lang, host)))
        if c.chance(0.3):
            out.append(_insert(c, kw))
    return Body(f"{kw.title()} - People Also Ask", "".join(out), lang)


# -- encoding_garbage ------------------------------------------------------------------------------------------------
_SCRIPT_LANGS = {"latin": ("en", "de", "fr", "es", "pt", "it", "pl", "cs", "tr", "hu", "ro", "sv", "vi"),
                 "cyrillic": ("ru", "uk", "bg", "mk", "be"), "greek": ("el",), "cjk": ("ja", "zh", "ko"),
                 "other": ("hr", "sk", "sl", "lt", "lv", "et", "is", "ca")}
_CJK_ENCODING = {"ja": "shift_jis", "zh": "gbk", "ko": "euc-kr"}
_RANDOM_BLOCKS = ((0x21, 0x7E), (0xA1, 0xFF), (0x370, 0x3FF), (0x400, 0x4FF), (0x2500, 0x257F), (0x2200, 0x22FF),
                  (0x2700, 0x27BF), (0x4E00, 0x4FFF), (0x3040, 0x30FF), (0xE000, 0xE0FF), (0x1F300, 0x1F5FF),
                  (0x0600, 0x06FF), (0x0E00, 0x0E7F), (0xFF01, 0xFF5E))


def mojibake(text: str, enc: str, dec: str) -> str:
    raw = text.encode(enc, errors="replace")
    if dec == "utf-8-replace":
        return raw.decode("utf-8", errors="replace")
    return raw.decode(dec, errors="replace")


def _random_bytes(c: Ctx, n: int) -> bytes:
    return bytes(c.rng.getrandbits(8) for _ in range(n))


def encoding_garbage(c: Ctx, style: str) -> Body:
    if style == "mojibake":
        group = c.pick(sorted(T.MOJIBAKE_PAIRS))
        lang = c.pick(_SCRIPT_LANGS[group])
        enc, dec = c.pick(T.MOJIBAKE_PAIRS[group])
        if group == "cjk" and enc != "utf-8":
            lang = {v: k for k, v in _CJK_ENCODING.items()}[enc]
        paras = [mojibake(" ".join(c.sents(lang, c.rng.randint(2, 5))), enc, dec) for _ in range(c.n(2, 8))]
        title = mojibake(c.sent(lang)[:60], enc, dec)
        return Body(title, h(1, title) + "".join(p(x) for x in paras), lang)
    if style == "random_unicode":
        lines = []
        for _ in range(c.n(5, 30)):
            lo, hi = c.pick(_RANDOM_BLOCKS)
            lines.append("".join(chr(c.rng.randint(lo, hi)) if c.chance(0.9) else " "
                                 for _ in range(c.rng.randint(20, 120))))
        return Body(lines[0][:40], "".join(p(x) for x in lines), "zxx")
    if style == "base64_dump":
        data = zlib.compress(" ".join(c.sents("en", 30)).encode()) if c.chance(0.5) else _random_bytes(c, 3000)
        b64 = base64.b64encode(data[: int(len(data) * min(1.0, c.scale))]).decode()
        wrapped = "\n".join(b64[i:i + 76] for i in range(0, len(b64), 76))
        pre = c.pick(("", "Content-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n\n",
                      "data:application/pdf;base64,", "-----BEGIN ENCRYPTED DATA-----\n"))
        title = c.pick(("attachment", "download", "data", "export", b64[:24]))
        return Body(title, tag("pre", esc(pre + wrapped)), "zxx",
                    bare=c.chance(0.4))
    if style == "hex_dump":
        data = c.sent("en").encode() * 3 + _random_bytes(c, c.n(128, 1500))
        rows = []
        for off in range(0, len(data), 16):
            chunk = data[off:off + 16]
            hx = " ".join(chunk[i:i + 2].hex() for i in range(0, len(chunk), 2))
            rows.append(f"{off:08x}: {hx:<40}  {''.join(chr(b) if 32 <= b < 127 else '.' for b in chunk)}")
        return Body(c.pick(("dump.bin", "core", "Hex view", "firmware.img")), tag("pre", esc("\n".join(rows))), "zxx")
    if style == "keyboard_mash":
        lines = []
        for _ in range(c.n(5, 40)):
            parts = []
            for _ in range(c.rng.randint(2, 12)):
                src = c.pick((T.MASH_BITS, T.KEYBOARD_ROWS))
                bit = c.pick(src)
                if src is T.KEYBOARD_ROWS:
                    i = c.rng.randrange(len(bit))
                    bit = bit[i:i + c.rng.randint(3, 8)]
                parts.append(bit * c.rng.randint(1, 3) + c.pick(("", "", "!!!", "??", "...", "1111")))
            lines.append(" ".join(parts))
        return Body(lines[0][:30], "".join(p(x) for x in lines), "zxx")
    # binary_as_text: a PDF, ZIP or image body shown as text
    head = c.pick(T.BINARY_HEADERS)
    raw = head.encode("latin-1") + _random_bytes(c, c.n(400, 4000))
    text = raw.decode(c.pick(("latin-1", "cp1252", "utf-8")), errors="replace")
    name = c.pick(("download.php", "file.pdf", "image.jpg", "archive.zip", "attachment"))
    return Body(name, tag("pre", esc(text)) if c.chance(0.5) else esc(text), "zxx", bare=c.chance(0.6))


# -- the families -----------------------------------------------------------------------------------------------------
FAMILIES: dict[str, tuple[tuple[str, ...], Callable[[Ctx, str], Body]]] = {
    "keyword_stuffing": (("local_service", "local_i18n", "faq_stuffed", "tag_dump", "hidden_text", "spun_article"),
                         keyword_stuffing),
    "word_salad": (("content_shuffle", "markov_chain", "spun_synonyms", "mt_frames", "product_pileup",
                    "mixed_language"), word_salad),
    "link_farm": (("blogroll", "web_directory", "exchange_table", "anchor_paragraph", "gambling_mirrors"), link_farm),
    "lorem_or_template": (("lorem_classic", "themed_ipsum", "blindtext", "theme_demo", "unfilled_template"),
                          lorem_or_template),
    "repeated_boilerplate": (("share_bar_loop", "disclaimer_loop", "newsletter_loop", "teaser_loop",
                              "duplicated_paragraph"), repeated_boilerplate),
    "cookie_or_login_wall": (("consent", "paywall", "login", "age_gate", "adblock", "geo_block"),
                             cookie_or_login_wall),
    "error_page": (("not_found", "soft_404", "server_error", "app_error", "maintenance", "parked_domain",
                    "directory_listing", "default_server_page", "bot_check"), error_page),
    "thin_affiliate": (("top_n_list", "coupon_list", "price_comparison", "product_stub", "deal_roundup"),
                       thin_affiliate),
    "autogenerated_data": (("ip_lookup", "phone_lookup", "zip_lookup", "domain_worth", "serp_snippets", "calendar",
                            "sitemap_dump", "word_finder"), autogenerated_data),
    "forum_or_comment_spam": (("forum_thread", "foreign_thread", "blog_comments", "guestbook",
                               "support_number_spam"), forum_or_comment_spam),
    "scraped_fragments_spam": (("snippet_aggregator", "stitched_article", "news_ticker", "people_also_ask"),
                               scraped_fragments_spam),
    "encoding_garbage": (("mojibake", "random_unicode", "base64_dump", "hex_dump", "keyboard_mash", "binary_as_text"),
                         encoding_garbage),
}
