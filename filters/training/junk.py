"""Generated junk: part of the negative class the default quality model learns from (scripts/train_quality_model.py).

Classes of web junk that heuristic rules miss or that a relaxed rule set lets through, each made from real text
given by the caller (junk_vocabulary.py: sentences and words of documentation, spam vocabulary from the UT1
blocklist's addresses, content words of other languages) so that the model cannot separate the classes by vocabulary
alone:

- ``keyword_stuffing``: real sentences with a commercial phrase forced in, plus keyword and tag lists;
- ``lorem_ipsum``: placeholder Latin (generated from the lorem vocabulary) with template labels;
- ``word_salad``: real words in random order, punctuated and capitalised like sentences;
- ``link_farm``: lists and runs of Markdown links with spam anchors;
- ``repeated_boilerplate``: one navigation/share/footer block repeated, around a line of content;
- ``wall``: cookie-consent, paywall, sign-in and ad-block interstitials;
- ``seo_text``: template-spun filler around a keyword ("Are you looking for the best ...");
- and the web junk of filters/training/junk_web.py: bare content words, spinner output, doorway pages, error pages,
  navigation-only pages, comment spam, gibberish, machine-made listings, ad copy.

The model also learns from two generators written apart from this one (bench/junk_set.py, bench/junk_eval.py) and
from real non-content text; a fourth (bench/junk_final.py) is its final evaluation (bench/quality_corpus.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from filters.signals import LOREM
from filters.training.junk_web import WEB_GENERATORS


@dataclass
class Vocabulary:
    sentences: list[str]
    words: list[str]
    spam: list[str]  # spam/commercial words (UT1 addresses)
    foreign: dict[str, list[str]] = field(default_factory=dict)  # content words of other languages, by lid.176 code


_LABELS = ["Home", "About us", "Contact", "Blog", "Shop", "Cart", "Login", "Register", "Search", "Menu", "FAQ",
           "Privacy", "Terms", "Sitemap", "Careers", "Press", "Help", "Support", "Newsletter", "Categories",
           "Share", "Tweet", "Pin it", "Email", "Print", "Read more", "Next", "Previous", "Back to top",
           "Skip to content", "Follow us", "Related posts", "Recent comments", "Archives", "Tags", "Subscribe"]
_TEMPLATE = ["Product title", "Add to cart", "Price: $0.00", "Sample page", "Your headline here", "Button",
             "Category: Uncategorized", "Post title", "Read more", "Description", "Feature one", "Feature two",
             "Hello world!", "This is an example page.", "Insert text here", "Author name", "Learn more"]
_WALLS = [
    ["We value your privacy", "We and our {n} partners store and/or access information on a device, such as cookies, "
     "and process personal data, such as unique identifiers and standard information sent by a device for "
     "personalised ads and content, ad and content measurement, and audience insights.",
     "You can accept or reject cookies and manage your preferences at any time by clicking Cookie Settings.",
     "Accept all", "Reject all", "Manage options", "Cookie settings"],
    ["This site uses cookies", "By continuing to browse the site you are agreeing to our use of cookies.",
     "Strictly necessary cookies", "Performance cookies", "Functional cookies", "Targeting cookies",
     "Allow all", "Confirm my choices", "Find out more in our cookie policy."],
    ["Subscribe to continue reading", "You have reached your limit of {n} free articles this month.",
     "Subscribe now for unlimited access to award-winning journalism.", "Already a subscriber? Sign in",
     "Get {n}% off your first year", "Cancel anytime.", "Subscribe"],
    ["This content is for members only", "Please log in or register to read the rest of this article.",
     "Log in", "Register for free", "Forgot your password?", "Remember me"],
    ["Ad blocker detected", "It looks like you are using an ad blocker.",
     "We rely on advertising to keep our content free. Please disable your ad blocker or whitelist our site.",
     "How do I disable my ad blocker?", "I have disabled my ad blocker", "Continue without supporting us"],
    ["Wir verwenden Cookies", "Wir und unsere {n} Partner speichern und/oder greifen auf Informationen auf einem "
     "Gerät zu, beispielsweise Cookies, und verarbeiten personenbezogene Daten.", "Alle akzeptieren",
     "Ablehnen", "Einstellungen verwalten", "Datenschutzerklärung"],
    ["Nous respectons votre vie privée", "Nous et nos {n} partenaires utilisons des cookies pour stocker et accéder "
     "à des informations sur votre appareil.", "Tout accepter", "Tout refuser", "Paramétrer les cookies"],
    ["Your privacy choices", "We use essential cookies to make our site work. With your consent, we may also use "
     "non-essential cookies to improve user experience and analyze website traffic.",
     "By clicking Accept, you agree to our website's cookie use as described in our Cookie Policy.",
     "- Accept", "- Decline", "- Customize", "Powered by a consent management platform"],
    ["You've read all your free stories", "Become a member to keep reading and get unlimited access to every "
     "story.", "- Monthly plan", "- Annual plan: save {n}%", "Start free trial", "Already have an account? Log in",
     "Terms apply. Cancel anytime."],
    ["Please turn off your ad blocker", "Ads help us keep this site free.", "- Turn off ad blocker",
     "- Add this site to your allow list", "- Refresh the page", "Thanks for your support!"],
    ["Sign in to continue", "Create a free account or sign in to keep reading.", "Continue with Google",
     "Continue with Apple", "Continue with email", "By continuing you agree to the Terms of Service and Privacy "
     "Policy."],
    ["Privacy preference center", "When you visit any website, it may store or retrieve information on your "
     "browser, mostly in the form of cookies.", "- Strictly necessary cookies: always active",
     "- Performance cookies", "- Functional cookies", "- Targeting cookies", "Vendor list", "Save settings"],
    ["Utilizamos cookies", "Utilizamos cookies propias y de terceros para mejorar nuestros servicios y mostrarle "
     "publicidad relacionada con sus preferencias.", "Aceptar todas", "Rechazar", "Configurar cookies"],
]
_SEO_OPEN = ["Are you looking for the best {k}?", "Looking for {k}? Look no further!",
             "If you want {k}, you have come to the right place.", "Finding the perfect {k} can be hard.",
             "Everyone needs {k} these days."]
_SEO_BODY = ["In this article we will discuss everything you need to know about {k}.",
             "Our {k} is the best {k} on the market.", "There are many reasons why {k} is so popular.",
             "{K} is one of the most important things you can buy.", "Many people ask us about {k}.",
             "With our {k} you will get amazing results.", "We offer high quality {k} at affordable prices.",
             "Choosing the right {k} is very important for you and your family.",
             "Our experts have reviewed the top {k} so you don't have to.",
             "{K} has many benefits that you should know about.", "Check out our amazing {k} deals today!",
             "The best {k} will help you save time and money.", "You will not regret choosing our {k}."]
_SEO_HEAD = ["Why {K} Matters", "Benefits of {K}", "How to Choose the Best {K}", "Top 10 {K} in 2024",
             "What Is {K}?", "Final Thoughts", "Things to Consider Before Buying {K}", "{K}: The Ultimate Guide"]
_SEO_LIST = ["High quality {k}", "Affordable prices", "Fast delivery", "Best {k} for beginners",
             "Trusted by thousands of customers", "Easy to use", "Great value for money", "24/7 customer support",
             "Perfect for every budget", "Top rated {k}"]
_SEO_CLOSE = ["In conclusion, {k} is a great choice for everyone.", "Order your {k} now and enjoy free shipping!",
              "Contact us today to learn more about our {k}.", "Don't miss out on the best {k} deals!"]


def _sentences(rng: random.Random, v: Vocabulary, n: int) -> list[str]:
    return [rng.choice(v.sentences) for _ in range(n)]


_MODIFIERS = ["online", "cheap", "best", "free", "uk", "near me", "2024", "reviews", "guide"]


def _keyword(rng: random.Random, v: Vocabulary) -> str:
    # Half the keywords are ordinary words of the good pages: the model must learn the stuffing, not the spam words.
    pool = v.spam if rng.random() < 0.5 else [w.lower() for w in v.words]
    return " ".join([*rng.sample(pool, rng.randint(1, 3)), rng.choice(_MODIFIERS)])


def keyword_stuffing(rng: random.Random, v: Vocabulary) -> str:
    key = _keyword(rng, v)
    out = []
    for s in _sentences(rng, v, rng.randint(3, 12)):
        ws = s.split()
        for _ in range(rng.randint(1, 3)):
            ws.insert(rng.randint(0, len(ws)), key)
        out.append(" ".join(ws))
    if rng.random() < 0.7:
        out.append("Tags: " + ", ".join(f"{key} {rng.choice(v.spam)}" for _ in range(rng.randint(8, 30))))
    if rng.random() < 0.5:
        out.insert(0, f"# {key.title()}")
    return "\n\n".join(out)


def lorem_ipsum(rng: random.Random, v: Vocabulary) -> str:
    lorem = sorted(LOREM)
    mix = rng.choice([0.0, 0.0, 0.15, 0.3])  # share of real words mixed into the placeholder sentences
    paras = []
    for _ in range(rng.randint(1, 6)):
        sents = []
        for _ in range(rng.randint(1, 8)):
            ws = [rng.choice(v.words).lower() if rng.random() < mix else rng.choice(lorem)
                  for _ in range(rng.randint(4, 18))]
            sents.append(" ".join(ws).capitalize() + rng.choice([".", ".", ".", "?", "!"]))
        paras.append(" ".join(sents))
        if rng.random() < 0.3:  # a theme's list of placeholder items
            paras.append("\n".join(f"- {' '.join(rng.sample(lorem, rng.randint(2, 6))).capitalize()}"
                                    for _ in range(rng.randint(2, 6))))
    if rng.random() < 0.5:
        paras[0] = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " + paras[0]
    if rng.random() < 0.6:
        paras += rng.sample(_LABELS + _TEMPLATE, rng.randint(2, 6))
    for _ in range(rng.choice([0, 0, 1, 2])):  # a page that is partly real
        paras.insert(rng.randint(0, len(paras)), rng.choice(v.sentences))
    if rng.random() < 0.4:
        paras.insert(0, f"# {rng.choice([*_TEMPLATE, ' '.join(rng.sample(lorem, 3)).title()])}")
    return "\n\n".join(paras)


def word_salad(rng: random.Random, v: Vocabulary) -> str:
    pool = [w for s in _sentences(rng, v, 30) for w in s.split()]

    def sentence(lo: int, hi: int) -> str:
        if rng.random() < 0.5:
            ws = rng.sample(pool, min(len(pool), rng.randint(lo, hi)))
        else:  # fragments of 2-3 words from different sentences, chained
            ws = []
            while len(ws) < rng.randint(lo, hi):
                src = rng.choice(v.sentences).split()
                i = rng.randrange(max(1, len(src) - 2))
                ws += src[i:i + rng.randint(2, 3)]
        s = " ".join(w.strip(".,;:!?") for w in ws)
        return s[:1].upper() + s[1:]

    paras = []
    if rng.random() < 0.5:  # laid out like a page: headings and a list, so that layout does not give it away
        paras.append("# " + sentence(2, 5).title())
    for _ in range(rng.randint(2, 8)):
        if rng.random() < 0.25:
            paras.append("## " + sentence(2, 5))
        if rng.random() < 0.15:
            paras.append("\n".join("- " + sentence(3, 9) for _ in range(rng.randint(2, 5))))
        paras.append(" ".join(sentence(6, 22) + "." for _ in range(rng.randint(2, 7))))
    return "\n\n".join(paras)


def link_farm(rng: random.Random, v: Vocabulary) -> str:
    out = []
    if rng.random() < 0.5:
        out.append(f"# {rng.choice(['Related searches', 'Top sites', 'Partners', 'Links', 'Directory'])}")
    for _ in range(rng.randint(10, 60)):
        anchor = " ".join(rng.sample(v.spam, rng.randint(1, 4)))
        host = "".join(rng.sample(v.spam, 2)) + rng.choice([".com", ".net", ".info", ".biz", ".xyz", ".co.uk"])
        link = f"[{anchor}](https://{host}/{rng.choice(v.spam)})"
        out.append(("- " + link) if rng.random() < 0.6 else link + rng.choice([" |", "", " ·"]))
    if rng.random() < 0.3:
        out.insert(rng.randint(0, len(out)), rng.choice(v.sentences))
    sep = "\n" if rng.random() < 0.7 else " "
    return sep.join(out)


def repeated_boilerplate(rng: random.Random, v: Vocabulary) -> str:
    block = rng.sample(_LABELS, rng.randint(3, 9))
    if rng.random() < 0.5:
        block.append(f"© {rng.randint(2005, 2026)} {rng.choice(v.spam).title()}. All rights reserved.")
    copies = rng.randint(3, 12)
    out = []
    for i in range(copies):
        out.append(("\n" if rng.random() < 0.7 else " | ").join(block))
        if i == copies // 2 or rng.random() < 0.15:
            out.append(rng.choice(v.sentences))
    return "\n\n".join(out)


def wall(rng: random.Random, v: Vocabulary) -> str:
    lines = []
    for template in rng.sample(_WALLS, rng.randint(1, 3)):
        chosen = [t for i, t in enumerate(template) if i < 2 or rng.random() < 0.8]
        lines += [t.replace("{n}", str(rng.randint(3, 900))) for t in chosen]
    if rng.random() < 0.5:  # the article's headline and teaser above the wall
        lines.insert(0, f"# {rng.choice(v.sentences)[:80]}")
        if rng.random() < 0.6:
            lines.insert(1, rng.choice(v.sentences))
    return "\n\n".join(lines)


def seo_text(rng: random.Random, v: Vocabulary) -> str:
    key = _keyword(rng, v)
    fill = {"k": key, "K": key.title()}
    paras = []
    if rng.random() < 0.6:
        paras.append("# " + rng.choice(_SEO_HEAD).format(**fill))
    paras.append(rng.choice(_SEO_OPEN).format(**fill))
    for _ in range(rng.randint(1, 6)):
        if rng.random() < 0.5:
            paras.append("## " + rng.choice(_SEO_HEAD).format(**fill))
        sents = [rng.choice(_SEO_BODY).format(**fill) for _ in range(rng.randint(2, 5))]
        if rng.random() < 0.3:
            sents.append(rng.choice(v.sentences))
        paras.append(" ".join(sents))
        if rng.random() < 0.3:
            paras.append("\n".join("- " + x.format(**fill) for x in rng.sample(_SEO_LIST, rng.randint(3, 6))))
    if rng.random() < 0.5:
        paras.append(f"## FAQ\n\nWhat is the best {key}?\n\nThe best {key} is ours.")
    paras.append(rng.choice(_SEO_CLOSE).format(**fill))
    return "\n\n".join(paras)


GENERATORS: dict[str, Callable[[random.Random, Vocabulary], str]] = {
    "keyword_stuffing": keyword_stuffing, "lorem_ipsum": lorem_ipsum, "word_salad": word_salad,
    "link_farm": link_farm, "repeated_boilerplate": repeated_boilerplate, "wall": wall, "seo_text": seo_text,
    **WEB_GENERATORS,
}


def generate(vocabulary: Vocabulary, per_class: int, seed: int = 0) -> list[tuple[str, str]]:
    """``per_class`` documents of each class as ``(class, text)``, deterministic for ``seed``."""
    rng = random.Random(seed)
    return [(name, fn(rng, vocabulary)) for name, fn in GENERATORS.items() for _ in range(per_class)]
