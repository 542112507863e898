"""Quality signals: the numbers a quality model reads, computed once per text from its parts.

The heuristic rules (Gopher, C4, FineWeb) each reduce a text to a few numbers and compare them with a
published threshold. The model (filters/quality_model.py) reads the same numbers, unthresholded,
plus the ones that tell the junk classes a rule set misses (bench/junk_set.py): link density for link
farms, placeholder Latin for lorem ipsum, consent/paywall vocabulary for walls, the rate of sentences
that end on a function word for word salad (real sentences almost never end on "the" or "of"; shuffled
words do as often as function words occur), the share of the most repeated content phrase for keyword
stuffing and SEO text. Every number is a ratio or a log count, so one model serves any text length.

Language: word statistics use filters/text.py (CJK characters are words). Function words come from
jusText's stop lists (Pomikálek 2011; 100 languages, shipped with ``justext``, a trafilatura
dependency), chosen by the record's ``lang`` (lid.176 code); where there is none the stop-word
features are missing (NaN), which gradient-boosted trees treat as their own branch, not as zero.
The consent/paywall and SEO vocabularies are English, German, French, Spanish, Italian, Dutch and
Portuguese (winnow's choice: the languages of most consent banners seen in WCXB).
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from functools import cache, lru_cache
from importlib import resources

from filters.parts import CACHE_SIZE, split
from filters.text import (
    DUP_NS,
    TOP_NS,
    count_words,
    duplicates,
    ends_with_punctuation,
    has_letter,
    ngram_shares,
    paragraphs,
    word_count,
    words,
)

# lid.176 code -> jusText stop-list name (the languages both know).
JUSTEXT_NAMES = {
    "af": "Afrikaans", "sq": "Albanian", "ar": "Arabic", "an": "Aragonese", "hy": "Armenian", "ast": "Asturian",
    "az": "Azerbaijani", "eu": "Basque", "be": "Belarusian", "bn": "Bengali", "bs": "Bosnian", "br": "Breton",
    "bg": "Bulgarian", "ca": "Catalan", "ceb": "Cebuano", "cv": "Chuvash", "hr": "Croatian", "cs": "Czech",
    "da": "Danish", "nl": "Dutch", "en": "English", "eo": "Esperanto", "et": "Estonian", "fi": "Finnish",
    "fr": "French", "gl": "Galician", "ka": "Georgian", "de": "German", "el": "Greek", "gu": "Gujarati",
    "ht": "Haitian", "he": "Hebrew", "hi": "Hindi", "hu": "Hungarian", "is": "Icelandic", "io": "Ido",
    "id": "Indonesian", "ga": "Irish", "it": "Italian", "jv": "Javanese", "kn": "Kannada", "kk": "Kazakh",
    "ko": "Korean", "ku": "Kurdish", "ky": "Kyrgyz", "la": "Latin", "lv": "Latvian", "lt": "Lithuanian",
    "lmo": "Lombard", "nds": "Low_Saxon", "lb": "Luxembourgish", "mk": "Macedonian", "ms": "Malay",
    "ml": "Malayalam", "mt": "Maltese", "mr": "Marathi", "nap": "Neapolitan", "ne": "Nepali", "new": "Newar",
    "no": "Norwegian_Bokmal", "nn": "Norwegian_Nynorsk", "oc": "Occitan", "fa": "Persian", "pms": "Piedmontese",
    "pl": "Polish", "pt": "Portuguese", "qu": "Quechua", "ro": "Romanian", "ru": "Russian", "sr": "Serbian",
    "sh": "Serbo_Croatian", "scn": "Sicilian", "sk": "Slovak", "sl": "Slovenian", "es": "Spanish",
    "su": "Sundanese", "sw": "Swahili", "sv": "Swedish", "tl": "Tagalog", "ta": "Tamil", "te": "Telugu",
    "tr": "Turkish", "tk": "Turkmen", "uk": "Ukrainian", "ur": "Urdu", "uz": "Uzbek", "vi": "Vietnamese",
    "vo": "Volapuk", "wa": "Walloon", "war": "Waray_Waray", "cy": "Welsh", "fy": "West_Frisian",
    "yo": "Yoruba",
}

# Placeholder Latin: the words of the classic lorem ipsum passages ("Lorem ipsum dolor sit amet ...",
# "Pellentesque habitant morbi tristique ...") that lorem generators draw from. Real Latin shares some of these
# words, so this is a share the model weighs, not a rule.
_LOREM_TEXT = """lorem ipsum dolor sit amet consectetur consectetuer adipiscing adipisicing elit sed do eiusmod
tempor incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris
nisi aliquip ex ea commodo consequat duis aute irure in reprehenderit voluptate velit esse cillum fugiat nulla
pariatur excepteur sint occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est laborum
pellentesque habitant morbi tristique senectus netus malesuada fames ac turpis egestas vestibulum tortor quam
feugiat vitae ultricies eget ante donec eu libero semper aenean mi placerat eleifend leo quisque sollicitudin
maecenas nunc nec mauris aliquam tellus tincidunt phasellus curabitur fusce integer proin vivamus etiam nullam
suspendisse nibh purus risus felis sapien neque mollis orci massa lacus eros erat dui dictum diam porttitor ligula
viverra vel praesent nam ullamcorper pharetra lobortis venenatis faucibus interdum hendrerit imperdiet luctus
cursus dapibus elementum condimentum convallis fermentum gravida iaculis lacinia laoreet lectus metus nisl odio
pretium pulvinar rhoncus rutrum sagittis scelerisque sodales tempus ultrices urna varius vehicula
vulputate accumsan aliquet arcu auctor bibendum blandit congue cras dignissim efficitur euismod facilisis
finibus justo maximus molestie nascetur natoque parturient penatibus posuere primis ridiculus magnis montes mus
sem suscipit torquent conubia nostra inceptos himenaeos litora sociosqu taciti aptent class"""
LOREM = frozenset(_LOREM_TEXT.split())

# Consent banners, paywalls and sign-in/ad-block interstitials (the wall classes of the junk set). Single words
# are looked up among the document's words and only the phrases go through a regular expression: one
# alternation of every term cost 1.7 ms on a long page, the set and the short phrase list a tenth of that.
_WALL_TEXT = """cookie cookies consent gdpr ccpa opt-out preferences subscribe subscription subscriber
subscribers paywall login register adblock adblocker whitelist disable personalised personalized tracking
third-party partners vendors einwilligung zustimmen akzeptieren abonnieren anmelden datenschutz consentement
accepter refuser abonnez connectez confidentialité aceptar rechazar suscríbete suscripción privacidad accetta
rifiuta abbonati toestemming accepteren weigeren abonneer aceitar rejeitar assine privacidade"""
WALL_WORDS = frozenset(_WALL_TEXT.split())
_WALL_PHRASES = re.compile(r"\b(?:opt out|manage (?:options|settings)|accept all|reject all|sign in|log in|"
                           r"free trial|unlimited access|ad block(?:er)?|third party)\b")
# Filler of machine-written SEO text: superlatives, calls to action, the article-about-the-article frame and the
# marketing clichés that spinners and template writers lean on.
_SEO_TEXT = """best cheap cheapest top top-rated affordable discount deal deals buy online amazing
incredible perfect guaranteed must-have game-changer hassle-free high-quality cost-effective user-friendly
one-stop state-of-the-art"""
SEO_WORDS = frozenset(_SEO_TEXT.split())
_SEO_PHRASES = re.compile(
    r"\b(?:order now|look no further|in this (?:article|post|guide)|this article is for you|in conclusion|to sum up|"
    r"we will (?:discuss|cover)|you need to know|ultimate guide|must have|highly recommend(?:ed)?|click here|"
    r"check out|don't miss|limited time|free shipping|satisfaction guaranteed|number one|right (?:place|choice)|"
    r"time and money|whether you(?:'re| are)|game changer|next level|hassle free|peace of mind|second to none|"
    r"state of the art|high quality|cost effective|user friendly|one stop|look at the (?:top|best)|"
    r"without further ado|when it comes to|it is important to|wide (?:range|variety) of|many people|"
    r"everyone needs|you won't regret|contact us today|top rated)\b")
_LINK = re.compile(r"\[([^\]\n]*)\]\((?:[^)\s]*)(?:\s+\"[^\"]*\")?\)")
_URL = re.compile(r"https?://\S+|www\.\S+")
_SENTENCE = re.compile(r"[^.!?。！？]+[.!?。！？]+")
_BULLET = re.compile(r"^(?:[-*+•·]|\d+[.)])\s")

NAMES = (
    "log_words", "symbol_ratio", "bullet_lines", "ellipsis_lines", "alpha_words", "stop_words",
    "stop_word_sentence_end", "stop_stop_bigrams", "punctuated_lines", "short_lines", "dup_lines", "dup_line_chars",
    "dup_paragraph_chars", "top_2gram", "top_3gram", "top_4gram", "dup_5gram", "dup_10gram", "top_content_ngram",
    "repeated_bigrams", "link_words", "links_per_word", "urls_per_word", "lorem_words", "wall_words", "seo_words",
    "exclamations", "questions",
)
_INDEX = {name: i for i, name in enumerate(NAMES)}
# Signals whose growth only ever means junk: the model is held to P(good) not rising with them (monotonic
# constraints), so that it cannot learn, say, "repeated lines are fine" from API reference pages whose
# "Parameters" headings repeat.
JUNK_WHEN_HIGH = frozenset({
    "symbol_ratio", "ellipsis_lines", "stop_word_sentence_end", "dup_lines", "dup_line_chars", "dup_paragraph_chars",
    "top_2gram", "top_3gram", "top_4gram", "dup_5gram", "dup_10gram", "top_content_ngram", "link_words",
    "links_per_word", "urls_per_word", "lorem_words", "wall_words", "seo_words",
})


@cache
def signal(values: tuple[float, ...], name: str) -> float:
    """One named signal out of ``compute``'s tuple."""
    return values[_INDEX[name]]


def stop_words(lang: str | None) -> frozenset[str] | None:
    """jusText's stop list for a lid.176 code; None where it has none."""
    name = JUSTEXT_NAMES.get(lang or "")
    if name is None:
        return None
    path = resources.files("justext") / "stoplists" / f"{name}.txt"
    try:
        return frozenset(w.strip().lower() for w in path.read_text(encoding="utf-8").splitlines() if w.strip())
    except FileNotFoundError:
        return None


def _ratio(a: float, b: float) -> float:
    return a / b if b else 0.0


def compute(text: str, lang: str | None = None) -> tuple[float, ...]:
    """The signals of ``text`` in ``NAMES`` order (NaN where a signal does not apply).

    Cached by value, like filters/parts.py: the clear-junk rules and the model read the same signals of a
    document in consecutive steps."""
    return _compute(text or "", lang)


@lru_cache(maxsize=CACHE_SIZE)
def _compute(text: str, lang: str | None) -> tuple[float, ...]:
    parts = split(text)
    prose = parts.prose
    linked = _LINK.findall(prose)
    prose_plain = _LINK.sub(lambda m: m.group(1), prose) if linked else prose
    ws = words(prose_plain)
    lower = [w.lower() for w in ws]
    n = len(ws)
    # Length counts every word, code included; the prose's words are the text's when nothing was taken out.
    n_all = word_count(text, lang) if prose_plain != text else count_words(ws)
    ls = [s for line in prose_plain.splitlines() if (s := line.strip())]
    n_lines = len(ls)
    stops = stop_words(lang)
    nan = float("nan")

    # One pass over the words for the vocabulary counts.
    n_stop = n_lorem = n_wall = n_seo = n_alpha = n_pairs = 0
    previous_stop = False
    for w, low in zip(ws, lower, strict=True):
        if w.isalpha() or has_letter(w):
            n_alpha += 1
        is_stop = stops is not None and low in stops
        n_stop += is_stop
        n_pairs += is_stop and previous_stop
        previous_stop = is_stop
        n_lorem += low in LOREM
        n_wall += low in WALL_WORDS
        n_seo += low in SEO_WORDS
    if stops is not None:
        sentences = [s.split() for s in _SENTENCE.findall(prose_plain)]
        stop_ratio = _ratio(n_stop, n) if n else nan
        ends = [s[-1].strip(".!?。！？\"'”’)").lower() for s in sentences if s]
        stop_end = _ratio(sum(e in stops for e in ends), len(ends)) if ends else nan
        stop_stop = _ratio(n_pairs, n - 1) if n > 1 else nan
    else:
        stop_ratio = stop_end = stop_stop = nan
        stops = frozenset()

    content = [w for w in lower if w not in stops and len(w) > 2]
    top_content = 0.0
    if len(content) >= 4:
        for k in (1, 2, 3):
            grams = Counter(zip(*(content[i:] for i in range(k)), strict=False))
            if grams:
                (_, count), = grams.most_common(1)
                top_content = max(top_content, count * k / len(content) if count > 1 else 0.0)

    # Word salad: real text repeats its collocations ("of the", "such as"; a quarter of the bigrams of a
    # median WCXB page occur twice or more), shuffled words almost never do (1-3%).
    bigrams = Counter(itertools.pairwise(lower))
    folded = prose_plain.lower()
    top, dup = ngram_shares(prose, TOP_NS, DUP_NS)  # positional, as the repetition rules call it: one cache entry
    n_dup_lines, dup_line_chars = duplicates(ls)
    _, dup_para_chars = duplicates(paragraphs(prose_plain))
    body = re.sub(r"^[ \t]*#{1,6}[ \t]", "", prose_plain, flags=re.MULTILINE)
    symbols = body.count("#") + body.count("...") + body.count("…")
    anchor_words = sum(len(a.split()) for a in linked)
    n_chars = len(prose_plain) or 1

    values = {
        "log_words": math.log1p(n_all),
        "symbol_ratio": _ratio(symbols, n),
        "bullet_lines": _ratio(sum(bool(_BULLET.match(line)) for line in ls), n_lines),
        "ellipsis_lines": _ratio(sum(line.endswith(("...", "…")) for line in ls), n_lines),
        "alpha_words": _ratio(n_alpha, n),
        "stop_words": stop_ratio,
        "stop_word_sentence_end": stop_end,
        "stop_stop_bigrams": stop_stop,
        "punctuated_lines": _ratio(sum(ends_with_punctuation(line) for line in ls), n_lines),
        "short_lines": _ratio(sum(len(line) <= 30 for line in ls), n_lines),
        "dup_lines": _ratio(n_dup_lines, n_lines),
        "dup_line_chars": _ratio(dup_line_chars, n_chars),
        "dup_paragraph_chars": _ratio(dup_para_chars, n_chars),
        "top_2gram": top[2],
        "top_3gram": top[3],
        "top_4gram": top[4],
        "dup_5gram": dup[5],
        "dup_10gram": dup[10],
        "top_content_ngram": top_content,
        "repeated_bigrams": _ratio(sum(c for c in bigrams.values() if c > 1), n - 1) if n > 1 else 0.0,
        "link_words": _ratio(anchor_words, n),
        "links_per_word": _ratio(len(linked), n),
        "urls_per_word": _ratio(len(_URL.findall(prose_plain)), n),
        "lorem_words": _ratio(n_lorem, n),
        "wall_words": _ratio(n_wall + len(_WALL_PHRASES.findall(folded)), n),
        "seo_words": _ratio(n_seo + len(_SEO_PHRASES.findall(folded)), n),
        "exclamations": _ratio(prose_plain.count("!"), n),
        "questions": _ratio(prose_plain.count("?"), n),
    }
    return tuple(values[name] for name in NAMES)
