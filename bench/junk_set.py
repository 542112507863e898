"""A deterministic junk evaluation set for web-text quality filters: seven classes of junk documents, each written
as a main-content extractor writes a page (Markdown: paragraphs separated by blank lines, optional ``#`` headings,
``- `` list items, ``[anchor](url)`` links), 80 to 800 words (cookie and subscription walls 40 to 400).

- ``keyword_stuffing``: real sentences and short pages in which one to three commercial keyword phrases (a page's
  topic or a built-in head term such as "car insurance quotes", in forms like "cheap ... online", "... near me")
  recur unnaturally: pushed into real sentences, stuffed sentences, keyword lists ("Tags: a, b, c").
- ``lorem_ipsum``: placeholder text: classic lorem ipsum, generated pseudo-Latin, "ipsum" mixed with real words,
  theme templates ("Product title", "Add to cart"), and pages only partly placeholder (65%+ of the words).
- ``word_salad``: real words in random order, punctuated and capitalised like sentences: words shuffled across
  sentences, within sentences, or spliced from 2-3 word fragments of different pages.
- ``link_farm``: pages of links and little else: "Related searches" lists, directories, link blobs, footer
  link blocks, with spammy anchors and domains.
- ``repeated_boilerplate``: one block of boilerplate (navigation, share buttons, "Read more", copyright,
  newsletter sign-up...) repeated three or more times, sometimes with one short real sentence.
- ``cookie_subscription_wall``: cookie banners in several vendors' styles, consent-partner notices, preference
  centres, paywalls, sign-in walls and ad-blocker interstitials, with their button labels, one or several per page.
- ``seo_spun_text``: template-spun SEO filler ("Are you looking for the best X? Look no further!"), spintax
  variation, generic claims, benefit lists, FAQ blocks and a conclusion, with no information in it.

Vocabulary (sentences, short lines used as anchors, headings and menus, page topics, content words) comes from the
gold ``main_content`` of the WCXB dev split (Web Content Extraction Benchmark v1.0, Foley 2026, CC-BY-4.0) in
``../shared/data/wcxb/dev/ground-truth``; pages without ``main_content`` and pages that do not read as English are
skipped. The templates are written here; nothing is shared with the training-side junk generator.

    .venv/bin/python bench/junk_set.py OUT.jsonl [--per-class 60] [--seed 0]
    .venv/bin/python bench/junk_set.py --show
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from pathlib import Path

DEFAULT_WCXB_DIR = Path(__file__).resolve().parents[2] / "shared" / "data" / "wcxb" / "dev"
CLASSES: tuple[str, ...] = ("keyword_stuffing", "lorem_ipsum", "word_salad", "link_farm", "repeated_boilerplate",
                            "cookie_subscription_wall", "seo_spun_text")
WORD_RANGE: dict[str, tuple[int, int]] = {c: (80, 800) for c in CLASSES} | {"cookie_subscription_wall": (40, 400)}

_STOP = frozenset(re.findall(r"\w+", "a an the and or but if of to in on at by for with from as is are was were be "
                                     "been it its this that these those you your we our they their he she his her i "
                                     "me my not no so do does did have has had will can would could should about into "
                                     "than then there here what which who how when where all any more most also just "
                                     "one new get like said out up"))
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]|[A-Za-z]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"“])")
_SPIN = re.compile(r"\{([^{}]*)\}")
_SLOT = re.compile(r"\$([A-Za-z]\w*)")
Rng = random.Random


@dataclass(frozen=True)
class Vocab:
    sentences: tuple[str, ...]  # real sentences of 6-40 words
    short_lines: tuple[str, ...]  # real headings, list items, menu entries (2-7 words)
    topics: tuple[str, ...]  # each page's most repeated content bigram (else word): keyword seeds
    words: tuple[str, ...]  # content words found on 3+ pages: site names, domains


@lru_cache(maxsize=4)
def load_vocab(wcxb_dir: Path = DEFAULT_WCXB_DIR) -> Vocab:
    """Real vocabulary from the gold text of the English pages of the WCXB split at ``wcxb_dir``."""
    sentences: list[str] = []
    lines: list[str] = []
    topics: list[str] = []
    df: Counter[str] = Counter()
    for path in sorted((Path(wcxb_dir) / "ground-truth").glob("*.json")):
        truth = json.loads(path.read_text(encoding="utf-8")).get("ground_truth")
        text = truth.get("main_content") if isinstance(truth, dict) else None
        if not text:
            continue
        tokens = [t.lower() for t in _WORD.findall(text)]
        if len(tokens) < 60 or sum(t in _STOP for t in tokens) < 0.15 * len(tokens):
            continue  # too short, or not English (the templates are English)
        content = [t for t in tokens if t not in _STOP and len(t) > 2 and t.isalpha()]
        df.update(set(content))
        pairs = Counter(f"{a} {b}" for a, b in pairwise(tokens)
                        if a not in _STOP and b not in _STOP and min(len(a), len(b)) > 2 and (a + b).isalpha())
        best = pairs.most_common(1)
        topics.append(best[0][0] if best and best[0][1] >= 3 else Counter(content).most_common(1)[0][0])
        for raw in text.splitlines():
            line = " ".join(raw.split()).removeprefix("- ").removeprefix("* ").strip("#* ")
            n = len(line.split())
            if any(c in line for c in "[]()|{}$") or "http" in line or "www." in line:
                continue
            if 2 <= n <= 7 and line[0].isupper() and line[-1].isalnum():
                lines.append(line)
            elif n > 6:
                sentences += [s for s in _SENTENCE_END.split(line)
                              if 6 <= len(s.split()) <= 40 and s[0].isupper() and s[-1] in ".!?"]
    words = sorted(w for w, n in df.items() if n >= 3 and len(w) <= 12)
    return Vocab(tuple(sentences), tuple(dict.fromkeys(lines)), tuple(dict.fromkeys(topics)), tuple(words))


def _wc(blocks: list[str]) -> int:
    return sum(len(b.split()) for b in blocks)


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _title(s: str) -> str:
    return " ".join(_cap(w) for w in s.split())


def _fill(rng: Rng, template: str, **slots: str | Callable[[], str]) -> str:
    """Resolve spintax ``{a|b|c}`` (innermost first), then ``$slot``s (a callable slot is drawn at each use)."""
    while m := _SPIN.search(template):
        template = template[:m.start()] + rng.choice(m.group(1).split("|")) + template[m.end():]

    def slot(m: re.Match[str]) -> str:
        value = slots.get(m.group(1), m.group(0))
        return value() if callable(value) else value
    return _SLOT.sub(slot, template)


def _sentence(rng: Rng, words: list[str]) -> str:
    """Words punctuated like a sentence: a capital, a comma now and then, a full stop (sometimes ? or !)."""
    words = [w + ("," if 1 < i < len(words) - 2 and rng.random() < 0.08 else "") for i, w in enumerate(words)]
    return _cap(" ".join(words)) + rng.choice(".....?!")


_CITIES = ("New York", "London", "Los Angeles", "Chicago", "Houston", "Toronto", "Sydney", "Dallas", "Miami",
           "Manchester", "Phoenix", "Denver", "Atlanta", "Seattle", "Boston", "Dublin", "Melbourne", "Austin")
_HEADS = ("car insurance quotes", "payday loans", "online casino", "weight loss pills", "cheap flights", "web hosting",
          "seo services", "replica watches", "cbd oil", "forex trading", "personal injury lawyer", "mortgage rates",
          "essay writing service", "bitcoin investment", "dental implants", "home security systems", "vpn service",
          "hotel deals", "used cars", "life insurance", "plumber", "roof repair", "keto diet pills", "dating sites")
_FORMS = ("cheap {}", "best {}", "buy {} online", "{} for sale", "{} near me", "discount {}", "{} reviews",
          "top rated {}", "affordable {} {year}", "cheap {} online", "{} free shipping", "{} coupon code",
          "best {} deals", "{} price", "online {}", "{} {city}", "buy cheap {}", "{} uk", "best {} {year}")
_SPAM_ANCHORS = ("click here", "visit site", "more info", "best deals online", "free download", "casino bonus",
                 "read more here", "official site", "get it now", "top 10 sites", "cheap prices", "100% free",
                 "this website", "see more", "check this out", "source", "homepage", "visit us")
_AFFIXES = ("", "", "-online", "-hq", "4u", "-pro", "247", "-deals", "-best", "-hub", "-zone", "world", "-guide")
_TLDS = ("com", "net", "info", "biz", "xyz", "top", "online", "site", "club", "shop", "pw", "co", "ru")


def _keyword(rng: Rng, v: Vocab, base: str | None = None) -> str:
    base = base or (rng.choice(v.topics) if rng.random() < 0.6 else rng.choice(_HEADS))
    form = rng.choice(_FORMS) if rng.random() < 0.85 else "{}"
    return form.format(base, year=rng.randint(2018, 2026), city=rng.choice(_CITIES).lower())


def _site(rng: Rng, v: Vocab) -> str:
    name = _title(" ".join(rng.sample(v.words, rng.randint(1, 2))))
    return name + rng.choice(("", "", " News", " Online", " Magazine", " Hub", " Blog", " Store", " Daily"))


def _link(rng: Rng, v: Vocab) -> str:
    r = rng.random()
    anchor = _keyword(rng, v) if r < 0.45 else rng.choice(v.short_lines) if r < 0.8 else rng.choice(_SPAM_ANCHORS)
    a, b = rng.sample(v.words, 2)
    host = f"{rng.choice(('', 'www.', 'www.'))}{a}{rng.choice(('', '-'))}{b}{rng.choice(_AFFIXES)}.{rng.choice(_TLDS)}"
    slug = re.sub(r"[^a-z0-9]+", "-", anchor.lower()).strip("-")
    tail = rng.choice(("", ".html", "/", f"?ref={rng.randint(100, 9999)}", f"?id={rng.randint(1, 99999)}"))
    return f"[{anchor}]({f'https://{host}/{slug}{tail}' if rng.random() < 0.8 else f'http://{host}/'})"


_STUFFED = (
    "{Looking for|Need|Searching for} $kw? {Our|We offer the best} $kw {is|are} the {best|cheapest|number one} $kw "
    "{in $city|online|on the market}.", "$KW {is|are} {what we do|our speciality}: $kw, $kw2 and more $kw.",
    "{Get|Find|Compare} $kw {today|now} and {save|get the best deal} on $kw{ in $city|}.",
    "{Why pay more|Don't overpay} for $kw when {you can get|we have} $kw {here|right here} {at the lowest price|"
    "for less}?", "Our $kw {experts|team} know $kw better than {anyone|any other $kw company}.",
    "$KW $city, $kw $city, $kw near me, $kw2.", "{Call|Contact} us {today|now} for $kw{, $kw2|} and {free|fast} $kw.",
    "{The best|Top} $kw {deals|offers}: $kw, $kw2, $kw {reviews|ratings}.",
    "{We are|As} the {leading|trusted|#1} provider of $kw, {we|our team} {deliver|provide} $kw {every day|24/7}.",
    "{Everyone|Thousands of customers} {choose|trust} us for $kw because our $kw is {simply|really} the best $kw.")
_TAG_HEADS = ("Tags", "Keywords", "Related", "Popular searches", "Search terms", "Related keywords", "Topics")


def _keyword_stuffing(rng: Rng, v: Vocab, target: int) -> list[str]:
    bases = [rng.choice(v.topics) if rng.random() < 0.6 else rng.choice(_HEADS) for _ in range(rng.randint(1, 2))]
    kws = [_keyword(rng, v, rng.choice(bases)) for _ in range(rng.randint(1, 3))]
    slots = {"kw": lambda: rng.choice(kws), "kw2": lambda: _keyword(rng, v, rng.choice(bases)),
             "KW": lambda: _cap(rng.choice(kws)), "city": lambda: rng.choice(_CITIES),
             "year": lambda: str(rng.randint(2018, 2026))}
    blocks = [f"# {_title(kws[0])}"] if rng.random() < 0.6 else []
    real_share = rng.uniform(0.2, 0.6)
    while _wc(blocks) < target:
        r = rng.random()
        if r < 0.6:
            sentences = []
            for _ in range(rng.randint(2, 6)):
                if rng.random() < real_share:  # a real sentence with the keyword pushed into it
                    words = rng.choice(v.sentences).split()
                    for _ in range(rng.randint(1, 2)):
                        words.insert(rng.randrange(1, len(words)), rng.choice(kws) + rng.choice(("", ",", "")))
                    sentences.append(" ".join(words))
                else:
                    sentences.append(_fill(rng, rng.choice(_STUFFED), **slots))
            blocks.append(" ".join(sentences))
        elif r < 0.8:
            item = rng.choice(("$KW in $city", "$KW {$year|today|now}", "{Cheap|Best|Affordable} $kw", "$KW"))
            blocks.append("\n".join("- " + _fill(rng, item, **slots) for _ in range(rng.randint(3, 8))))
        else:
            terms = [_keyword(rng, v, rng.choice(bases)) if rng.random() < 0.6 else rng.choice(kws)
                     for _ in range(rng.randint(8, 25))]
            blocks.append(f"{rng.choice(_TAG_HEADS)}: " + rng.choice((", ", " | ", ", ", " ")).join(terms))
    return blocks


_LOREM = tuple(re.findall(r"\w+", "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor "
                                  "incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud "
                                  "exercitation ullamco laboris nisi aliquip ex ea commodo consequat duis aute irure "
                                  "in reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint "
                                  "occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est "
                                  "laborum praesent vestibulum morbi tristique senectus netus malesuada fames ac "
                                  "turpis egestas pellentesque habitant curabitur nunc viverra integer feugiat "
                                  "scelerisque varius mauris nam aliquam"))
_CLASSIC = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et "
            "dolore magna aliqua.")
_SYLLABLES = ("la", "re", "mi", "tu", "qua", "ve", "ni", "sco", "ra", "ti", "um", "us", "or", "em", "pe", "dis", "con",
              "tem", "vi", "ae", "li", "bus", "nec", "fer", "ca", "mo", "sa", "an", "it", "ex")
_TEMPLATE_LINES = (
    "Product title", "Add to cart", "Price: $0.00", "Buy now", "Description", "Additional information",
    "Reviews (0)", "SKU: N/A", "Your Title Here", "Sample Page", "Heading 2", "Section title", "Quantity: 1",
    "Click here to edit this text.", "This is an example page.", "Read more", "Learn more", "Our Services",
    "About Us", "Contact Us", "Testimonials", "Post title", "Category: Uncategorized", "Hello world!",
    "Subtitle goes here", "Feature one", "Team member name", "Job title", "Button text", "Insert caption here")


def _lorem_ipsum(rng: Rng, v: Vocab, target: int) -> list[str]:
    style = rng.choice(("classic", "pseudo", "mixed", "template", "partial"))
    pool = list(_LOREM)
    if style == "pseudo":
        pool = ["".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(1, 4))) for _ in range(90)]
    elif style == "mixed":  # "ipsum" variants: a little Latin among real words
        pool = pool[: rng.randint(6, 20)] * 2 + rng.sample(v.words, 40)
    blocks: list[str] = [_CLASSIC] if style == "classic" or rng.random() < 0.3 else []
    real = 0
    while _wc(blocks) < target:
        r = rng.random()
        if style == "template" and r < 0.35:
            line = rng.choice(_TEMPLATE_LINES) if rng.random() < 0.7 else rng.choice(v.short_lines)
            blocks.append(rng.choice(("# ", "## ", "", "- ")) + line)
        elif style == "partial" and r < 0.35:  # a real line, while real lines stay at most 35% of the words
            line = rng.choice(v.sentences) if rng.random() < 0.5 else "## " + rng.choice(v.short_lines)
            if real + len(line.split()) <= 0.35 * (_wc(blocks) + len(line.split())):
                real += len(line.split())
                blocks.append(line)
        elif r < 0.5 and rng.random() < 0.4:
            blocks.append(rng.choice(("# ", "## ")) + _cap(" ".join(rng.choices(pool, k=rng.randint(2, 5)))))
        elif r < 0.6:
            blocks.append("\n".join("- " + _sentence(rng, rng.choices(pool, k=rng.randint(3, 12)))[:-1]
                                    for _ in range(rng.randint(3, 6))))
        else:
            blocks.append(" ".join(_sentence(rng, rng.choices(pool, k=rng.randint(5, 18)))
                                   for _ in range(rng.randint(2, 7))))
    return blocks


def _salad_tokens(sentence: str) -> list[str]:
    toks = [t.strip(".,;:!?\"“”‘’()[]*") for t in sentence.split()]
    toks = [t for t in toks if any(c.isalnum() for c in t)]
    if toks and not toks[0].isupper():
        toks[0] = toks[0].lower()
    return toks


def _word_salad(rng: Rng, v: Vocab, target: int) -> list[str]:
    style = rng.choice(("across", "within", "splice"))
    pool: list[str] = []
    blocks = [f"# {_title(' '.join(rng.sample(rng.choice(v.short_lines).split(), 2)))}"] if rng.random() < 0.3 else []
    while _wc(blocks) < target:
        sentences = []
        for _ in range(rng.randint(2, 7)):
            if style == "within":  # each real sentence's words shuffled
                toks = _salad_tokens(rng.choice(v.sentences))
                rng.shuffle(toks)
            elif style == "across":  # the words of many real sentences shuffled together, cut anew
                while len(pool) < 30:
                    pool += _salad_tokens(rng.choice(v.sentences))
                    rng.shuffle(pool)
                n = rng.randint(6, 22)
                toks, pool = pool[:n], pool[n:]
            else:  # fragments of 2-3 consecutive words, each from another page's sentence
                toks = []
                for _ in range(rng.randint(3, 7)):
                    src, k = _salad_tokens(rng.choice(v.sentences)), rng.randint(2, 3)
                    i = rng.randrange(max(1, len(src) - k))
                    toks += src[i:i + k]
            if len(toks) >= 3:
                sentences.append(_sentence(rng, toks))
        blocks.append(" ".join(sentences))
    return blocks


_LINK_HEADS = ("Related searches", "People also search for", "Popular searches", "Sponsored links", "Top links",
               "Recommended sites", "Trending searches", "Partner sites", "Blogroll", "Useful links", "Top sites",
               "Links", "Resources", "Friends", "More results", "Searches related to $kw")
_FOOTER_HEADS = ("Partners", "Our network", "Friends of the site", "Sponsored", "Link exchange", "Top resources")


def _link_farm(rng: Rng, v: Vocab, target: int) -> list[str]:
    style = rng.choice(("related", "directory", "blob", "footer"))
    kw = _keyword(rng, v)
    blocks = [f"# {_title(kw)}{rng.choice(('', ' Directory', ' Links', ' - Top Sites'))}"] if rng.random() < 0.5 else []
    if rng.random() < 0.3:
        blocks.append(_fill(rng, "{Find|Browse|Check out} the {best|top} $kw {links|sites} {below|here}.", kw=kw))
    while _wc(blocks) < target:
        head = _fill(rng, rng.choice(_LINK_HEADS), kw=kw)
        if style == "related":
            head = rng.choice((f"## {head}", f"{head}:", f"**{head}**"))
            blocks += [head, "\n".join(f"- {_link(rng, v)}" for _ in range(rng.randint(5, 14)))]
        elif style == "directory":
            items = [f"- {_link(rng, v)}" + (f" - {_cap(_keyword(rng, v))}" if rng.random() < 0.4 else "")
                     for _ in range(rng.randint(4, 10))]
            blocks += [f"## {rng.choice(v.short_lines)} ({rng.randint(3, 250)})", "\n".join(items)]
            if rng.random() < 0.2:
                blocks.append("[Submit your site](/submit) | [Add URL](/add-url) | [Top 100](/top)")
        elif style == "blob":
            blocks.append(rng.choice((" | ", ", ", " · ", " ")).join(_link(rng, v) for _ in range(rng.randint(6, 20))))
        else:
            blocks += [f"{rng.choice(_FOOTER_HEADS)}:", " | ".join(_link(rng, v) for _ in range(rng.randint(4, 12)))]
            if rng.random() < 0.3:
                blocks.append(f"© {rng.randint(2010, 2025)} {_site(rng, v)}")
    return blocks


_BOILER = (
    "Share this:\n\n- Facebook\n- Twitter\n- LinkedIn\n- Email\n- Print", "Share on Facebook Share on X Copy link",
    "Read more »", "Continue reading →", "Posted by admin on $date | Leave a comment", "Skip to content",
    "© $year $site. All rights reserved.", "Copyright © $year $site | Privacy Policy | Terms of Use | Sitemap",
    "Sign up for our newsletter\n\nGet the latest news and exclusive offers straight to your inbox.\n\n"
    "Enter your email address\n\nSubscribe", "Search for:\n\nSearch", "← Previous post Next post →",
    "Categories\n\n- Uncategorized\n- News\n- Events", "Back to top ↑", "Follow us on Instagram, Facebook and YouTube",
    "Like this:\n\nLike Loading...", "Related posts", "Tags: news, updates, $topic", "Powered by WordPress",
    "Was this article helpful? Yes No", "Log in | Register | My account | Cart (0)", "Filed under: $topic",
    "Don't miss out! Join our mailing list for updates. Subscribe", "Leave a Reply Cancel reply",
    "Your email address will not be published. Required fields are marked *", "Menu", "Close menu", "Home »",
    "$date by $site Team", "Comments (0)", "Download our app: App Store | Google Play", "Advertisement")


def _repeated_boilerplate(rng: Rng, v: Vocab, target: int) -> list[str]:
    date = f"{{January|March|April|June|August|October|December}} {rng.randint(1, 28)}, {rng.randint(2016, 2025)}"
    slots = {"site": _site(rng, v), "year": str(rng.randint(2012, 2025)), "date": _fill(rng, date),
             "topic": rng.choice(v.topics)}
    block = [_fill(rng, p, **slots) for p in rng.sample(_BOILER, rng.randint(2, 5))]
    if rng.random() < 0.5:  # a navigation menu made of real menu-like lines
        nav = ["Home", *rng.sample(v.short_lines, rng.randint(3, 7))]
        block.insert(0, " | ".join(nav) if rng.random() < 0.5 else "\n".join(f"- {x}" for x in nav))
    blocks = ["\n\n".join(block)] * 3
    while _wc(blocks) < target:
        blocks.append(blocks[0])
    if rng.random() < 0.4:  # one short real sentence
        short, at = [s for s in (rng.choice(v.sentences) for _ in range(8)) if len(s.split()) <= 15], rng.randrange(4)
        blocks[at:at] = short[:1]
    return blocks


_WALLS = {
    "banner": (
        "{This website uses cookies|Your privacy matters to us|We value your privacy|Cookie notice}",
        "We use cookies {and similar technologies|and other tracking technologies} to {improve your browsing "
        "experience|personalise content and ads|analyse our traffic}. By clicking \"{Accept All|Accept|OK}\", you "
        "{consent to|agree to} {the use of ALL cookies|our use of cookies|the storing of cookies on your device}. "
        "{You can|You may} {change your preferences|withdraw your consent} at any time{ in our [Cookie "
        "Policy](/cookie-policy)|}.", "{Some|Some of these} cookies are {essential|strictly necessary} for the site to "
        "work; others help us {understand how you use it|show you relevant advertising|remember your settings}. "
        "{See|Read} our [{Privacy Policy|Cookie Notice}](/privacy) {for details|to learn more}.",
        "- {Accept All|Accept all cookies|I agree|Allow all}\n- {Reject All|Decline|Necessary cookies only}\n"
        "- {Cookie Settings|Manage preferences|Customise}"),
    "partners": (
        "{We and our partners|$site and its $N partners} {store|use} and/or access information on your device, such "
        "as {cookies|unique identifiers} and {browsing data|device identifiers}, to {process personal data|serve "
        "personalised ads and content, measure them and develop our services}. You can accept or {manage|refuse} "
        "your choices {below|by clicking \"More options\"}, including your right to object where legitimate interest "
        "is used. Your choices {will be signalled to our partners|apply to this site only}.",
        "{We and our partners process data to provide|Purposes}:\n\n- {Store|Save} and/or {read|access} information "
        "on your device\n- {Personalised ads and content|Tailored advertising}, {ad and content measurement|measuring "
        "ads and content}\n- {Precise location data|Use of precise geolocation}\n- {Audience insights|Audience "
        "research} and {product development|service improvement}", "[{List of partners|View our $N vendors}](/vendors)",
        "- {AGREE|I Accept|Consent}\n- {DISAGREE|Do not consent}\n- {MORE OPTIONS|Show purposes|Manage options}"),
    "mini": ("🍪 {This site uses cookies|We use cookies}{ to give you the best experience| for analytics and ads|}. "
             "[{Learn more|More info}](/cookies) {Got it!|OK, I understand|Dismiss}",),
    "centre": (
        "# {Privacy Preference Center|Cookie Preferences|Manage Consent Preferences|Your Privacy Choices}",
        "When you visit any website, it may store or retrieve information on your browser, mostly in the form of "
        "cookies. {This information might be about you, your preferences or your device|It is mostly used to make "
        "the site work as you expect}. {Because we respect your right to privacy, you can choose not to allow some "
        "types of cookies|You can choose which categories you allow below}.",
        "## {Strictly Necessary Cookies|Essential cookies|Necessary}\n\nAlways Active\n\nThese cookies are "
        "{necessary for the website to function|required for basic site functions} and cannot be switched off.",
        "## {Performance Cookies|Analytics cookies|Statistics}\n\n{Toggle|On|Off}\n\nThese cookies {allow us to "
        "count visits and traffic sources|help us measure and improve the performance of our site}.",
        "## {Functional Cookies|Preferences}\n\nThese cookies enable {enhanced functionality|the site to remember "
        "choices you make} and personalisation.", "## {Targeting Cookies|Marketing|Advertising cookies}\n\nThese "
        "cookies may be set {through our site by our advertising partners|by third parties} to build a profile of "
        "your interests.", "- {Confirm My Choices|Save preferences|Save and exit}\n- {Allow All|Accept all}\n- "
        "{Reject All|Refuse all}\n- {Cookie List|Vendor list|View $N vendors}"),
    "paywall": (
        "{You've reached your limit of free articles|You have read your $F free articles this month|This article is "
        "for subscribers only|Subscribe to continue reading}.", "{Subscribe now|Become a member|Join $site} {for "
        "unlimited access|to keep reading|to continue reading} {to $site journalism|on any device|and support "
        "independent journalism}.", "- Digital access: ${1|2|4} for {6 months|the first month|4 weeks}\n"
        "- All access: ${4.99|7.99|9.99}/week\n- {Annual|Yearly} plan: save {25|40|50}%", "{Cancel anytime|No "
        "commitment, cancel anytime}. {Already a subscriber|Already have an account}? [{Sign in|Log in}](/login)",
        "{Subscribe now|Get access|Start my trial|See all offers}"),
    "signin": (
        "{Sign in to continue reading|Log in to read this article|Create a free account to keep reading}",
        "{Register for free|It only takes a minute} to {unlock this story|read $F articles a month|get our "
        "newsletters}{ and comment| and save articles|}.", "- Continue with Google\n- Continue with Apple\n- Continue "
        "with {email|Facebook}", "{Not now|Maybe later}", "By continuing, you agree to our [Terms of "
        "Service](/terms) and acknowledge our [Privacy Policy](/privacy)."),
    "adblock": (
        "{It looks like you're using an ad blocker|We noticed you're using an ad blocker|Ad blocker detected}{.|!}",
        "{Ads help us|Advertising helps} {fund our journalism|keep $site free|pay our writers}. Please {disable your "
        "ad blocker|whitelist $site|turn off your ad blocker} {or subscribe|and refresh the page|to continue}.",
        "- {How do I disable my ad blocker?|How to whitelist $site}\n- {I've disabled my ad blocker|Refresh page}\n"
        "- {Continue without supporting us|Subscribe instead}"),
}


def _cookie_subscription_wall(rng: Rng, v: Vocab, target: int) -> list[str]:
    slots = {"site": _site(rng, v), "N": str(rng.randint(12, 950)), "F": str(rng.randint(2, 10))}
    kinds = list(_WALLS)
    rng.shuffle(kinds)
    blocks = [f"# {rng.choice(v.short_lines)}"] if rng.random() < 0.2 else []  # a teaser headline, as on paywalls
    while _wc(blocks) < target and kinds:
        parts = _WALLS[kinds.pop()]
        blocks += [_fill(rng, p, **slots) for p in ([p for p in parts if rng.random() < 0.75] or parts[:1])]
    return blocks


_SEO_TITLE = ("{The Ultimate Guide to|Everything You Need to Know About|Top 10 Tips for Choosing|Why You Need|How to "
              "Choose the Best|The Complete $year Guide to} $XT{ in $place| for $aud|}")
_SEO_INTRO = ("{Are you looking for|Are you searching for|Do you need} {the best|the right|a reliable|high-quality} $x"
              "{ in $place| for $aud|}? {Look no further!|You have come to the right place!|Then this article is "
              "for you.} {In this article|In this post|In this guide}, we will {discuss|explore|cover} {everything you "
              "need to know about|the benefits of|the most important things about} $x{ and how it can help you| so "
              "you can make the right choice|}.")
_SEO_HEADS = ("What Is $XT?", "Why $XT Is {Important|Essential|So Popular}", "{Benefits|Advantages} of $XT",
              "How to Choose the {Best|Right} $XT", "{Tips|Things to Consider} {for|When Choosing} $XT",
              "$XT: {Pros and Cons|Key Features}", "{Top|Best} $XT {in|for} $year")
_SEO_SENTENCES = (
    "$XC is {one of the most {important|popular} {things|topics|choices}|a {very popular|truly essential} {choice|"
    "topic}} {for many people|in today's world|for $aud}.",
    "{There are many|There are a lot of} {benefits|reasons|factors} {to consider|to think about} when it comes to $x.",
    "{Whether you are|If you are} {a beginner|an expert|new to $x}, $x can {help you|make a big difference}.",
    "{It is important to|You should always} {do your research|compare options|read reviews} before {buying|using} $x.",
    "{Many people|Most customers|Experts} {agree|say} that $x is {worth it|the best choice|a great investment}.",
    "{With so many options|With so many choices} {available|on the market}, {finding|choosing} the {right|best} $x "
    "can be {difficult|overwhelming|challenging}.",
    "{Our|The best} $x {is designed to|will} {meet your needs|exceed your expectations|save you time and money}.",
    "{High-quality|Reliable|Affordable} $x {offers|provides} {many|numerous|great} {benefits|advantages} {for "
    "everyone|for $aud}.", "{In addition|Furthermore|Moreover}, $x {is|can be} {easy to use|cost-effective|very "
    "convenient}.", "{At the end of the day|Ultimately}, {the best|the right} $x {depends on|will depend on} your "
    "{needs|budget|preferences}.", "{That is why|This is why} {so many people|more and more people} {choose|are "
    "turning to} $x{ in $place|}.", "{Our team has|Our experts have} {years of experience|extensive knowledge} "
    "{in|with} $x.", "$XC {has become|is becoming} {more and more|increasingly} popular {in recent years|nowadays}.")
_SEO_LIST = ("{Saves|Save} {time|money}", "{Easy to use|User-friendly}", "{High quality|Top quality}", "{Affordable|"
             "Cost-effective} {prices|solution}", "{Great|Excellent} customer {service|support}", "{Fast|Quick} "
             "{results|delivery}", "{Trusted|Recommended} by {experts|thousands of customers}", "Peace of mind")
_SEO_FAQ = ("What is the best $x?", "How much does $x cost?", "Is $x worth it?", "Where can I find $x{ in $place|}?",
            "How do I choose $x?", "Why is $x important?")
_SEO_ANSWER = ("{The best|The right} $x depends on your {needs|budget}. {We recommend|It is a good idea} {to compare "
               "several options|to read reviews} {before making a decision|first}.")
_SEO_END = ("{In conclusion|To sum up|To conclude|All in all}, $x is {a great choice|an excellent investment|"
            "essential} {for anyone|for $aud}. {We hope|Hopefully} this {article|guide} {has helped you|was helpful}"
            "{ to understand $x better|}. {If you have any questions|For more information}, {feel free to|please} "
            "{contact us|leave a comment below}{!|.}")
_AUDIENCES = ("beginners", "small businesses", "families", "everyone", "seniors", "students", "homeowners", "you")


def _seo_spun_text(rng: Rng, v: Vocab, target: int) -> list[str]:
    x = _keyword(rng, v) if rng.random() < 0.4 else rng.choice(v.topics)
    slots = {"x": x, "XT": _title(x), "XC": _cap(x), "place": lambda: rng.choice(_CITIES),
             "aud": lambda: rng.choice(_AUDIENCES), "year": str(rng.randint(2019, 2026))}
    blocks = [f"# {_fill(rng, _SEO_TITLE, **slots)}", _fill(rng, _SEO_INTRO, **slots)]
    heads = rng.sample(_SEO_HEADS, len(_SEO_HEADS))
    while _wc(blocks) < target - 60 and heads:
        blocks.append("## " + _fill(rng, heads.pop(), **slots))
        for _ in range(rng.randint(1, 2)):
            if rng.random() < 0.25:
                blocks.append("\n".join("- " + _fill(rng, t, **slots)
                                        for t in rng.sample(_SEO_LIST, rng.randint(3, 6))))
            else:
                blocks.append(" ".join(_fill(rng, t, **slots) for t in rng.sample(_SEO_SENTENCES, rng.randint(3, 6))))
    if rng.random() < 0.6 or _wc(blocks) < target:
        blocks.append(rng.choice(("## Frequently Asked Questions", "## FAQ", "## FAQs")))
        for q in rng.sample(_SEO_FAQ, rng.randint(2, 4)):
            blocks += ["### " + _fill(rng, q, **slots), _fill(rng, _SEO_ANSWER, **slots)]
    return [*blocks, rng.choice(("## Conclusion", "## Final Thoughts", "## Summary")), _fill(rng, _SEO_END, **slots)]


_GENERATORS: dict[str, Callable[[Rng, Vocab, int], list[str]]] = {
    "keyword_stuffing": _keyword_stuffing, "lorem_ipsum": _lorem_ipsum, "word_salad": _word_salad,
    "link_farm": _link_farm, "repeated_boilerplate": _repeated_boilerplate,
    "cookie_subscription_wall": _cookie_subscription_wall, "seo_spun_text": _seo_spun_text}


def junk_set(per_class: int = 60, seed: int = 0, wcxb_dir: Path = DEFAULT_WCXB_DIR) -> list[dict]:
    """[{"id": "junk-<class>-<n>", "class": <class>, "text": <markdown>}], deterministic for (per_class, seed)."""
    vocab = load_vocab(Path(wcxb_dir))
    out: list[dict] = []
    seen: set[str] = set()
    for cls in CLASSES:
        lo, hi = WORD_RANGE[cls]
        for n in range(per_class):
            for attempt in range(100):  # redraw the rare document outside the word range or already made
                rng = random.Random(f"{seed}:{cls}:{n}:{attempt}")
                target = int(math.exp(rng.uniform(math.log(lo * 1.1), math.log(hi * 0.75))))
                text = re.sub(r"\n{3,}", "\n\n", "\n\n".join(_GENERATORS[cls](rng, vocab, target))).strip()
                if lo <= len(text.split()) <= hi and text not in seen:
                    break
            else:
                raise RuntimeError(f"no {cls} document {n} within {lo}-{hi} words")
            seen.add(text)
            out.append({"id": f"junk-{cls}-{n}", "class": cls, "text": text})
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Write the junk evaluation set as JSONL, or show it.")
    ap.add_argument("out", nargs="?", type=Path, help="JSONL file to write")
    ap.add_argument("--per-class", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--wcxb-dir", type=Path, default=DEFAULT_WCXB_DIR)
    ap.add_argument("--show", action="store_true", help="print counts and one example per class")
    args = ap.parse_args(argv)
    if args.out is None and not args.show:
        ap.error("give an output path or --show")
    docs = junk_set(args.per_class, args.seed, args.wcxb_dir)
    if args.out is not None:
        args.out.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs), encoding="utf-8")
        print(f"wrote {len(docs)} documents to {args.out}")
    if args.show:
        for cls in CLASSES:
            n = [len(d["text"].split()) for d in docs if d["class"] == cls]
            print(f"{cls:<26} {len(n):>4} docs, {min(n)}-{max(n)} words, mean {sum(n) / len(n):.0f}")
        for d in (next(d for d in docs if d["class"] == cls) for cls in CLASSES):
            print(f"\n===== {d['id']} =====\n{d['text']}")


if __name__ == "__main__":
    main()
