"""Generated junk, second part: the web junk that is not spam text (junk.py beside it has the spam-text families).

Each family is what a crawl meets on real hosts and what no page-type of value looks like; each is made from real
words given by the caller (junk.py ``Vocabulary``: sentences and words of the good pages, UT1's spam words,
and content words of other languages):

- ``bare_words``: content words strung together without function words, punctuated like sentences or not, in
  English and in the other languages of the vocabulary (keyword soup, machine-made "articles");
- ``spun_text``: real sentences run through a synonym spinner (a fixed table of clumsy substitutions) with filler
  phrases pushed in;
- ``doorway``: one template per page set, mass-produced with only a place or product name changed;
- ``error_page``: not-found, forbidden and server-error pages, moved pages, empty search results, JavaScript-required
  shells, bot checks, parked domains, default server pages and coming-soon pages, in several languages;
- ``navigation``: menus, category trees, breadcrumbs, pagination, tag clouds, archive lists and HTML sitemaps;
- ``comment_spam``: floods of generic praise and pitches with links;
- ``gibberish``: random letter strings, keyboard mashes, encoded blobs and text decoded with the wrong charset;
- ``data_listing``: machine-made rows (lookup pages, product feeds, price tables) with no prose;
- ``ad_copy``: exclamation-heavy affiliate and review spam.

Training data only (filters/quality_model.py's default model, scripts/train_quality_model.py); the evaluation junk is
written apart (bench/junk_set.py, bench/junk_eval.py).
"""

from __future__ import annotations

import base64
import random
import string
from typing import Any

_FUNCTION_TEXT = """a an the and or but if of to in on at by for with from as is are was were be been it its this that
these those you your we our they their he she his her not no so do does did have has had will can would could should
about into than then there here what which who how when where all any more most also just very"""
_FUNCTION_WORDS = frozenset(_FUNCTION_TEXT.split())

_SPIN = {"important": ["of huge significance", "critical in nature"], "car": ["automobile", "motor vehicle"],
         "said": ["mentioned", "expressed"], "people": ["individuals", "persons"], "big": ["huge", "sizable"],
         "use": ["utilize", "make use of"], "help": ["assist", "aid"], "show": ["showcase", "display"],
         "new": ["brand new", "novel"], "make": ["create", "generate"], "good": ["excellent", "superb"],
         "many": ["numerous", "a great number of"], "also": ["additionally", "in addition"],
         "because": ["due to the fact that", "owing to the reality that"], "but": ["however", "nevertheless"],
         "very": ["extremely", "exceptionally"], "get": ["obtain", "acquire"], "buy": ["purchase", "procure"],
         "year": ["twelve months", "calendar year"], "home": ["residence", "dwelling"], "best": ["finest", "greatest"],
         "work": ["function", "operate"], "need": ["require", "call for"], "start": ["commence", "initiate"]}
_FILLER = ["In the current day and age,", "It goes without saying that", "At the end of the day,",
           "Needless to say,", "As a matter of fact,", "In this day and age,", "All things considered,"]
_PLACES = ["Springfield", "Riverside", "Fairview", "Franklin", "Greenville", "Bristol", "Clinton", "Salem",
           "Madison", "Georgetown", "Arlington", "Ashland", "Dover", "Oxford", "Jackson", "Burlington", "Manchester",
           "Milton", "Newport", "Auburn", "Dayton", "Lexington", "Milford", "Winchester", "Hamburg", "Lyon", "Porto"]
_SERVICES = ["plumber", "locksmith", "electrician", "roofing contractor", "dentist", "car rental", "moving company",
             "pest control", "carpet cleaning", "personal injury lawyer", "payday loans", "web design"]
_DOORWAY = [
    ["# {S} in {P}", "Looking for a {s} in {P}? You have come to the right place.",
     "Our {P} {s} team is available 24/7. Call us now for the best {s} in {P} and the surrounding area.",
     "- {S} {P}\n- Emergency {s} {P}\n- Cheap {s} {P}\n- {S} near {P}",
     "We are the number one {s} in {P}. Contact our {P} office today."],
    ["{S} {P} | Fast & Reliable", "Need {s} services in {P}? We serve all of {P}.",
     "Why choose our {s} in {P}? Licensed, insured, affordable.", "Areas we serve: {P}, {Q}, {R} and more.",
     "Call now for a free {s} quote in {P}!"],
]
_ERRORS = [
    ["# 404 Not Found", "The requested URL {path} was not found on this server.",
     "Apache/2.4.{n} (Ubuntu) Server at {host} Port 80"],
    ["# Page not found", "Sorry, the page you are looking for does not exist or has been moved.",
     "Go back to the homepage", "Search our site"],
    ["# 403 Forbidden", "You don't have permission to access this resource."],
    ["# 500 Internal Server Error", "The server encountered an internal error and was unable to complete your "
     "request.", "Please try again later."],
    ["# This page has moved", "The document has moved here.", "You will be redirected in 5 seconds."],
    ["# No results found", "Your search for \"{q}\" did not match any documents.", "Suggestions:",
     "- Make sure all words are spelled correctly.\n- Try different keywords.\n- Try more general keywords."],
    ["You need to enable JavaScript to run this app.", "Loading..."],
    ["# Checking your browser before accessing {host}", "This process is automatic. Your browser will redirect to "
     "your requested content shortly.", "Please allow up to 5 seconds...", "Ray ID: {hexid}"],
    ["# {host}", "This domain may be for sale!", "Buy this domain", "Related searches:",
     "- {k1}\n- {k2}\n- {k3}"],
    ["# Welcome to nginx!", "If you see this page, the nginx web server is successfully installed and working. "
     "Further configuration is required.", "Thank you for using nginx."],
    ["# Coming soon", "We are working hard to launch our new website.", "Stay tuned!", "Notify me"],
    ["# Seite nicht gefunden", "Die angeforderte Seite existiert leider nicht.", "Zur Startseite"],
    ["# Page introuvable", "La page que vous recherchez n'existe pas ou a été déplacée.", "Retour à l'accueil"],
    ["# Página no encontrada", "Lo sentimos, la página que buscas no existe.", "Volver al inicio"],
    ["# Страница не найдена", "Запрашиваемая страница не существует.", "На главную"],
    ["# Index of /{dir}", "- Parent Directory\n- {f1}\n- {f2}\n- {f3}",
     "Apache Server at {host} Port 80"],
    ["# Site under maintenance", "We are performing scheduled maintenance. We will be back online shortly.",
     "Thank you for your patience."],
]
_NAV_LABELS = ["Home", "About", "Products", "Services", "Blog", "News", "Contact", "Shop", "Cart", "Account",
               "Support", "FAQ", "Careers", "Press", "Partners", "Events", "Resources", "Downloads", "Gallery",
               "Categories", "Archives", "Sitemap", "Privacy Policy", "Terms of Use", "Help Center", "Login"]
_COMMENTS = ["Great post! Thanks for sharing.", "Very informative article, keep it up!",
             "I have been reading your blog for a while and it is awesome.", "Nice article, visit my site {url}",
             "Thanks for this, bookmarked!", "This is exactly what I was looking for.", "Awesome!!! {url}",
             "Best {k} here: {url}", "I made $8,000 last month working from home, check {url}",
             "Buy {k} online without prescription {url}", "Wow, amazing content. Check out {url} for {k}",
             "Hello admin, nice site. {url}", "Very useful information, thank you very much."]
_ADS = ["★★★★★ Best {k} ever!!!", "Buy now and save {n}% OFF!!!", "Limited offer: {k} only ${price}!",
        "Free shipping on all {k} orders!!!", "Click here to claim your {k} discount!!!", "Hurry, only {n} left!",
        "5 stars!!! Highly recommended {k}!!!", "Don't miss out on the #1 {k} of {year}!", "Order today!!!"]
_QWERTY = "qwertyuiopasdfghjklzxcvbnm"


def _words(v: Any, rng: random.Random) -> tuple[str, list[str]]:
    """Content words of one language: English from the good pages or one of the other languages'."""
    foreign = getattr(v, "foreign", None) or {}
    if foreign and rng.random() < 0.5:
        lang = rng.choice(sorted(foreign))
        return lang, foreign[lang]
    return "en", [w for w in v.words if w.lower() not in _FUNCTION_WORDS and len(w) > 3]


def bare_words(rng: random.Random, v: Any) -> str:
    _, pool = _words(v, rng)
    paras = []
    punctuated = rng.random() < 0.7
    for _ in range(rng.randint(2, 8)):
        sents = []
        for _ in range(rng.randint(2, 7)):
            s = " ".join(rng.choice(pool) for _ in range(rng.randint(5, 16)))
            sents.append(s[:1].upper() + s[1:] + ("." if punctuated else ""))
        paras.append(" ".join(sents))
    if rng.random() < 0.4:
        paras.insert(0, "# " + " ".join(rng.choice(pool) for _ in range(3)).title())
    return "\n\n".join(paras)


def spun_text(rng: random.Random, v: Any) -> str:
    out = []
    for _ in range(rng.randint(3, 9)):
        sents = []
        for s in (rng.choice(v.sentences) for _ in range(rng.randint(2, 5))):
            ws = [rng.choice(_SPIN[w.lower()]) if w.lower() in _SPIN and rng.random() < 0.8 else w for w in s.split()]
            text = " ".join(ws)
            if rng.random() < 0.4:
                text = rng.choice(_FILLER) + " " + text[:1].lower() + text[1:]
            sents.append(text)
        out.append(" ".join(sents))
    return "\n\n".join(out)


def doorway(rng: random.Random, v: Any) -> str:
    template = rng.choice(_DOORWAY)
    service = rng.choice(_SERVICES)
    p, q, r = rng.sample(_PLACES, 3)
    fill = {"s": service, "S": service.title(), "P": p, "Q": q, "R": r}
    lines = [t.format(**fill) for t in template]
    for _ in range(rng.randint(0, 4)):
        lines.append(rng.choice(template).format(**{**fill, "P": rng.choice(_PLACES)}))
    return "\n\n".join(lines)


def error_page(rng: random.Random, v: Any) -> str:
    template = rng.choice(_ERRORS)
    host = "".join(rng.sample(v.spam, 2)) + rng.choice([".com", ".net", ".org", ".de", ".info"])
    fill = {"path": "/" + "/".join(rng.sample(v.spam, 2)) + ".html", "host": host, "n": rng.randint(10, 60),
            "q": " ".join(rng.sample(v.spam, 2)), "hexid": f"{rng.getrandbits(64):016x}",
            "k1": rng.choice(v.spam), "k2": rng.choice(v.spam), "k3": rng.choice(v.spam),
            "dir": rng.choice(v.spam), "f1": rng.choice(v.spam) + ".zip", "f2": rng.choice(v.spam) + ".tar.gz",
            "f3": rng.choice(v.spam) + "/"}
    lines = [t.format(**fill) for t in template]
    if rng.random() < 0.4:  # the site's menu left around the error
        lines.insert(0, "\n".join(rng.sample(_NAV_LABELS, rng.randint(3, 8))))
    return "\n\n".join(lines)


def navigation(rng: random.Random, v: Any) -> str:
    style = rng.randrange(4)
    words = [w for w in v.words if len(w) > 3]
    if style == 0:  # a menu and a category tree
        lines = rng.sample(_NAV_LABELS, rng.randint(5, 12))
        for _ in range(rng.randint(3, 8)):
            head = rng.choice(words).title()
            lines.append(f"- {head}")
            lines += [f"  - {head} {rng.choice(words).title()}" for _ in range(rng.randint(2, 6))]
        return "\n".join(lines)
    if style == 1:  # breadcrumbs and pagination around a list of titles
        crumbs = " > ".join(["Home", *(rng.choice(words).title() for _ in range(rng.randint(1, 3)))])
        titles = [" ".join(rng.choice(words).title() for _ in range(rng.randint(2, 6))) for _ in range(12)]
        pages = " ".join(str(i) for i in range(1, rng.randint(5, 12))) + " Next »"
        return "\n\n".join([crumbs, *titles, pages])
    if style == 2:  # a tag cloud
        return "Tags\n\n" + " ".join(rng.choice(words).lower() for _ in range(rng.randint(30, 120)))
    months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
              "November", "December"]
    return "# Archives\n\n" + "\n".join(f"- {m} {y} ({rng.randint(1, 40)})" for y in range(2024, 2010, -1)
                                         for m in rng.sample(months, rng.randint(2, 12)))


def comment_spam(rng: random.Random, v: Any) -> str:
    out = []
    for _ in range(rng.randint(5, 25)):
        url = f"http://{''.join(rng.sample(v.spam, 2))}.com/{rng.choice(v.spam)}"
        name = rng.choice([rng.choice(v.spam).title(), " ".join(rng.sample(v.spam, 2)), "admin", "John"])
        text = rng.choice(_COMMENTS).format(url=url, k=" ".join(rng.sample(v.spam, 2)))
        out.append(f"{name} says:\n\n{text}" + ("\n\nReply" if rng.random() < 0.5 else ""))
    return "\n\n".join(out)


def gibberish(rng: random.Random, v: Any) -> str:
    style = rng.randrange(4)
    if style == 0:  # random letter strings
        words = ["".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(2, 12)))
                 for _ in range(rng.randint(60, 400))]
    elif style == 1:  # keyboard mashes
        words = []
        for _ in range(rng.randint(60, 300)):
            start = rng.randrange(len(_QWERTY) - 6)
            words.append("".join(rng.choice(_QWERTY[start:start + 7]) for _ in range(rng.randint(3, 10))))
    elif style == 2:  # encoded blobs
        blob = base64.b64encode(rng.randbytes(rng.randint(300, 3000))).decode()
        return "\n".join(blob[i:i + 76] for i in range(0, len(blob), 76))
    else:  # real text decoded with the wrong charset
        text = "\n\n".join(rng.choice(v.sentences) for _ in range(rng.randint(4, 20)))
        accented = text.replace("e", "é").replace("a", "à").replace("'", "’")
        return accented.encode("utf-8").decode("latin-1")
    return "\n\n".join(" ".join(words[i:i + 40]) for i in range(0, len(words), 40))


def data_listing(rng: random.Random, v: Any) -> str:
    style = rng.randrange(3)
    if style == 0:
        return "\n".join(f"({rng.randint(200, 999)}) 555-{rng.randint(100, 199):04d} - {rng.choice(_PLACES)}, "
                         f"{rng.choice(['AL', 'CA', 'TX', 'NY', 'FL', 'OH'])} - Lookup"
                         for _ in range(rng.randint(20, 80)))
    if style == 1:
        return "\n".join(f"SKU {rng.randint(10000, 99999)} | {rng.choice(v.spam).title()} "
                         f"{rng.choice(v.spam)} | ${rng.randint(1, 500)}.{rng.randint(0, 99):02d} | In stock: "
                         f"{rng.randint(0, 900)}" for _ in range(rng.randint(20, 80)))
    rows = [f"| {''.join(rng.sample(string.ascii_uppercase, 3))} | {rng.uniform(0.1, 150):.4f} | "
            f"{rng.uniform(-2, 2):+.2f}% |" for _ in range(rng.randint(20, 60))]
    return "| Currency | Rate | Change |\n|---|---|---|\n" + "\n".join(rows)


def ad_copy(rng: random.Random, v: Any) -> str:
    key = " ".join(rng.sample(v.spam, rng.randint(1, 2)))
    lines = [rng.choice(_ADS).format(k=key, n=rng.randint(10, 90), price=rng.randint(9, 99), year=2025)
             for _ in range(rng.randint(6, 25))]
    if rng.random() < 0.5:
        lines.insert(0, f"# {key.title()} - Official Site")
    return "\n\n".join(lines)


WEB_GENERATORS = {
    "bare_words": bare_words, "spun_text": spun_text, "doorway": doorway, "error_page": error_page,
    "navigation": navigation, "comment_spam": comment_spam, "gibberish": gibberish, "data_listing": data_listing,
    "ad_copy": ad_copy,
}
