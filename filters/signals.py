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
import zlib
from array import array
from collections import Counter
from functools import cache, lru_cache
from importlib import resources

from filters.parts import split
from filters.text import (
    DUP_NS,
    TOP_NS,
    UNSPACED_CHAR,
    count_words,
    duplicates,
    ends_with_punctuation,
    has_letter,
    is_unspaced,
    ngram_shares,
    paragraphs,
    word_count,
    words,
)
from pipelines import heap
from pipelines.memo import digest_memo

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
# The words counted: four letters or more. The short ones ("in", "id", "do", "et", "non", "est", "sed") are everyday
# words of English, Spanish, French or Latin, and counting them made ordinary English read as 2-4% placeholder.
LOREM_COUNTED = frozenset(w for w in LOREM if len(w) >= 4)

# Consent banners, paywalls and sign-in/ad-block interstitials (the wall classes of the junk set). Single words
# are looked up among the document's words and only the phrases go through a regular expression: one
# alternation of every term cost 1.7 ms on a long page, the set and the short phrase list a tenth of that.
_WALL_TEXT = """cookie cookies consent gdpr ccpa opt-out preferences subscribe subscription subscriber
subscribers paywall login register adblock adblocker whitelist disable personalised personalized tracking
third-party partners vendors einwilligung zustimmen akzeptieren abonnieren anmelden datenschutz consentement
accepter refuser abonnez connectez confidentialité aceptar rechazar suscríbete suscripción privacidad accetta
rifiuta abbonati toestemming accepteren weigeren abonneer aceitar rejeitar assine privacidade consenso accetto
akkoord zgoda akceptuję prywatności ciasteczka zaloguj souhlas přihlásit çerez kabul согласие принять подписка
войти конфиденциальности куки"""
WALL_WORDS = frozenset(_WALL_TEXT.split())
_WALL_PHRASES = re.compile(r"\b(?:opt out|manage (?:options|settings)|accept all|reject all|sign in|log in|"
                           r"free trial|unlimited access|ad block(?:er)?|third party)\b")
# What error and stand-in pages say: not found, forbidden, moved, maintenance, bot checks, parked domains, directory
# listings, default server pages, in the languages of the consent vocabulary and Russian and Polish (winnow's list).
_ERROR_PHRASES = re.compile(
    r"\b(?:404|403|500|502|503|not found|page not found|forbidden|internal server error|bad gateway|"
    r"service unavailable|(?:has|have) (?:been )?moved|moved permanently|no results|did not match|"
    r"enable javascript|javascript (?:is )?(?:disabled|required)|checking your browser|ddos protection|ray id|"
    r"captcha|are you (?:a )?(?:robot|human)|(?:domain|site) (?:is |may be )?for sale|buy this domain|parked|"
    r"coming soon|under construction|(?:scheduled )?maintenance|index of|parent directory|it works|"
    r"welcome to nginx|default (?:web )?page|access denied|account (?:has been )?suspended|does not exist|"
    r"nicht gefunden|existiert nicht|wartungsarbeiten|introuvable|n'existe pas|no encontrad[ao]|no existe|"
    r"mantenimiento|non trovat[ao]|manutenzione|não encontrad[ao]|manutenção|niet gevonden|nie znaleziono|"
    r"не найден[аоы]?|не существует|технические работы)\b")
# Stand-in text of unfinished sites and templates.
_TEMPLATE_PHRASES = re.compile(
    r"(?:\b(?:your (?:title|headline|heading|text|tagline|company|name|business) (?:here|goes here)|sample page|"
    r"hello world|just another wordpress site|lorem ipsum|add your|describe your|insert (?:your )?text|"
    r"click (?:here )?to edit|edit this (?:text|section)|dummy text|placeholder|company name|product (?:title|name) "
    r"here|testimonial text|client name|feature (?:one|two|three)|this is an example page|uncategori[sz]ed|"
    r"text goes here|write (?:something|a short description))\b|\{\{|\}\}|%%[a-z_]+%%)")
# Commercial spam vocabulary: gambling, pharmacy, loans, crypto schemes, replicas, adult, link selling (winnow's list,
# with German, French, Spanish, Italian and Russian words for the same).
_SPAM_TEXT = """casino casinos poker slots slot jackpot betting bets roulette blackjack viagra cialis levitra pharmacy
pills prescription payday loan loans lender bitcoin crypto cryptocurrency forex binary replica replicas escort escorts
porn xxx nude dating hookup backlinks backlink seo casinò scommesse apuestas préstamo préstamos prêt crédit kredit
kredite darlehen ohne schufa казино ставки займ займы кредит микрозайм порно"""
SPAM_WORDS = frozenset(_SPAM_TEXT.split())
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
_SENTENCE_END = ".!?。！？"
# A run of text and the sentence-final marks after it; a trailing run without one is matched whole (the ``$``) and
# left out by ``_sentences``. Written so because ``[^.!?]+[.!?]+`` alone retries from every position of a text's
# unpunctuated tail, quadratic in its length: 2.8 ms of a page's 12 ms of signals on the quality corpus, 100x less
# this way with the same sentences (checked on 5,000 of its texts).
_SENTENCE = re.compile(f"[^{_SENTENCE_END}]+(?:[{_SENTENCE_END}]+|$)")
_BULLET = re.compile(r"^(?:[-*+•·]|\d+[.)])\s")

NAMES = (
    "log_words", "symbol_ratio", "bullet_lines", "ellipsis_lines", "alpha_words", "stop_words",
    "stop_word_sentence_end", "stop_stop_bigrams", "punctuated_lines", "short_lines", "dup_lines", "dup_line_chars",
    "dup_paragraph_chars", "top_2gram", "top_3gram", "top_4gram", "dup_5gram", "dup_10gram", "top_content_ngram",
    "repeated_bigrams", "link_words", "links_per_word", "urls_per_word", "lorem_words", "wall_words", "seo_words",
    "exclamations", "questions",
    # what error and stand-in pages, unfinished templates and commercial spam say
    "error_words", "template_words", "spam_words",
    # how much of the page is prose at all, and how its words are made
    "log_prose_words", "code_share", "mean_word_length", "short_words", "digit_share", "title_case_lines",
    # function words in sentences at all (content words strung together have none); where sentences cannot put
    # them (shuffled or spliced text)
    "sentence_stops", "stop_before_punct", "sentence_start_stop", "mid_capital_stop",
    # vocabulary: how varied the content words are, how much of them a handful of words covers, how well it compresses
    "content_diversity", "top5_content", "compress_ratio",
    # characters: letter strings no language writes, text decoded with the wrong charset
    "odd_words", "mojibake",
)
_INDEX = {name: i for i, name in enumerate(NAMES)}
# Signals whose growth only ever means junk: the model is held to P(good) not rising with them (monotonic
# constraints), so that it cannot learn, say, "repeated lines are fine" from API reference pages whose
# "Parameters" headings repeat.
JUNK_WHEN_HIGH = frozenset({
    "symbol_ratio", "ellipsis_lines", "stop_word_sentence_end", "dup_lines", "dup_line_chars", "dup_paragraph_chars",
    "top_2gram", "top_3gram", "top_4gram", "dup_5gram", "dup_10gram", "top_content_ngram", "link_words",
    "links_per_word", "urls_per_word", "lorem_words", "wall_words", "seo_words", "mid_capital_stop", "top5_content",
    "odd_words", "mojibake", "error_words", "template_words", "spam_words",
})


_LINK_WORDS = _INDEX["link_words"]


def signal(values: tuple[float, ...], name: str) -> float:
    """One named signal out of ``compute``'s tuple. (Not memoised: a cache keyed by every document's tuple held each
    of them for the rest of the run, memory that grew with the input.)"""
    return values[_INDEX[name]]


@cache
def stop_words(lang: str | None) -> frozenset[str] | None:
    """jusText's stop list for a lid.176 code; None where it has none. Read once per language (a page's read was
    1.3 ms, a tenth of its signals)."""
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


_PUNCT_AFTER = (",", ".", ";", ":", "!", "?", "。", "，", "、", "！", "？", "؛", "،", "।")
_SENTENCE_FINAL = (".", "!", "?", "。", "！", "？", "…", "।", "؟")
_STRIP_TOKEN = "\"'“”‘’«»()[]{}*_`,.;:!?。，、！？؛،।…-–—"
MIN_ORDER_STOPS = 10  # stop-word tokens below which the word-order signals are missing: too few to say anything
MIN_SENTENCE_WORDS = 50  # words in sentences below which ``sentence_stops`` is missing


def _order_signals(lines: list[str], stops: frozenset[str]) -> tuple[float, float, float]:
    """Where the function words sit: the share followed by punctuation (real sentences rarely put a comma or full
    stop after "the", "of", "und", "и"; shuffled words do as often as function words occur), the share of sentences
    opening with one, and the share of capitalised function words inside a sentence ("... market The growth ..."): a
    sentence's first word carried into the middle, which only shuffling or splicing does. NaN when the text has
    fewer than ``MIN_ORDER_STOPS`` function words."""
    n_stop = before_punct = mid_capital = sentences = starts_stop = 0
    for line in lines:
        initial = True
        for token in line.split():
            bare = token.strip(_STRIP_TOKEN)
            if not bare:
                continue
            low = bare.lower()
            if initial:
                sentences += 1
                starts_stop += low in stops
            if low in stops:
                n_stop += 1
                before_punct += token.endswith(_PUNCT_AFTER)
                mid_capital += not initial and bare[:1].isupper() and bare != low and not bare.isupper()
            initial = token.endswith(_SENTENCE_FINAL)
    if n_stop < MIN_ORDER_STOPS:
        nan = float("nan")
        return nan, nan, nan
    return before_punct / n_stop, _ratio(starts_stop, sentences), mid_capital / n_stop


_VOWELS = frozenset("aeiouyàáâãäåæèéêëìíîïòóôõöøùúûüýÿœąęėįųůű")
_LATIN_WORD = re.compile(r"^[a-zà-ÿœąęėįųůűčćďěňřšťžłńśźżğış]{4,}$")
_CONSONANT_RUN = re.compile(r"[^aeiouyàáâãäåæèéêëìíîïòóôõöøùúûüýÿœąęėįųůű]{6,}")
# Byte sequences that UTF-8 text shows when it was decoded as Latin-1/cp1252 (Ã©, â€™, Â ...) and the
# replacement character that a failed decoding leaves.
_MOJIBAKE = re.compile(r"Ã[\x80-\xbf©¨§¶¼½¾¤¥ª«®°±²³´µ·¸¹º»¿]|â€|Â[\xa0-\xbf ]|Ð[\x80-\xbf]|Ñ[\x80-\x8f]|\ufffd|ï»¿|Ã¢")


_REPEATED_CHAR = re.compile(r"(\w)\1{3,}")


def _odd_words(lower: list[str]) -> float:
    """Share of the words with letters that no language writes: 30 characters or longer (encoded blobs), one
    character four times in a row ("zzzz", "oooo"), or, in Latin script, four letters or more with no vowel or with
    six consonants in a row (keyboard mashes, random letter strings). NaN under 10 words with letters."""
    lettered = [w for w in lower if has_letter(w)]
    if len(lettered) < 10:
        return float("nan")
    return sum(map(_odd, lettered)) / len(lettered)


@lru_cache(maxsize=1 << 17)
def _odd(w: str) -> bool:
    """Memoised: a text's words repeat (Zipf), and so do a corpus's; the regular expressions were a fifth of
    ``compute``'s time."""
    if len(w) >= 30 or _REPEATED_CHAR.search(w):
        return True
    return bool(_LATIN_WORD.match(w)) and (not (_VOWELS & set(w)) or bool(_CONSONANT_RUN.search(w)))


def _diversity(content: list[str], window: int = 50) -> float:
    """Moving-average type-token ratio of the content words (Covington and McFall 2010), over windows of ``window``
    words, so that it does not fall with length as the plain ratio does; the plain ratio under one window.

    The sum of the windows' distinct words, counted per word: word ``i`` is new in the windows that hold it and
    start after its previous occurrence. The same integer sum as sliding a Counter over the text (and so the same
    value), without a Python step per word and window (it was a tenth of ``compute``'s time)."""
    import numpy as np

    n = len(content)
    if n < 10:
        return float("nan")
    if n <= window:
        return len(set(content)) / n
    vocab: dict[str, int] = {}
    ids = np.array([vocab.setdefault(w, len(vocab)) for w in content], dtype=np.int64)
    order = np.argsort(ids, kind="stable")  # each word's occurrences in text order, words one after another
    prev = np.full(n, -1, dtype=np.int64)
    same = ids[order[1:]] == ids[order[:-1]]
    prev[order[1:][same]] = order[:-1][same]
    i = np.arange(n, dtype=np.int64)
    first = np.maximum(np.maximum(i - window + 1, prev + 1), 0)  # the first window holding word i as new
    last = np.minimum(i, n - window)  # the last window holding word i
    total = int(np.maximum(last - first + 1, 0).sum())
    return total / (n - window + 1) / window


def compute(text: str, lang: str | None = None, link_density: float | None = None) -> tuple[float, ...]:
    """The signals of ``text`` in ``NAMES`` order (NaN where a signal does not apply). ``link_density``: the share of
    the text that was link anchors in the page (extraction's ``Document.link_density``), where the text itself no
    longer shows its links; ``link_words`` is the larger of it and the text's own Markdown anchors.

    Cached by value, like filters/parts.py: the clear-junk rules and the model read the same signals of a
    document in consecutive steps. The cache is keyed by the text and its language only, and ``link_density`` is
    applied to the cached values here: a page's interleaved document usually has its document's very text (1,206
    of 1,518 on bench/e2e.py's input) but no link density of its own, and with the density in the key the two lanes
    never shared an entry."""
    values = _compute(text or "", lang)
    if link_density is None or link_density != link_density:
        return values
    density = round(float(link_density), 4)
    if not density > values[_LINK_WORDS]:
        return values
    return (*values[:_LINK_WORDS], density, *values[_LINK_WORDS + 1:])


def _pack(values: tuple[float, ...]) -> array:
    return array("d", values)


# By a digest of the text, for the whole wave, shared with the filter workers (pipelines/memo.py: why): a page's
# interleaved document reads its text document's signals.
@heap.per_wave
@digest_memo(pack=_pack, unpack=tuple)
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
    n_stop = n_lorem = n_wall = n_seo = n_spam = n_alpha = n_pairs = 0
    previous_stop = False
    for w, low in zip(ws, lower, strict=True):
        if w.isalpha() or has_letter(w):
            n_alpha += 1
        is_stop = stops is not None and low in stops
        n_stop += is_stop
        n_pairs += is_stop and previous_stop
        previous_stop = is_stop
        n_lorem += low in LOREM_COUNTED
        n_wall += low in WALL_WORDS
        n_seo += low in SEO_WORDS
        n_spam += low in SPAM_WORDS
    if stops is not None:
        sentences = [s.split() for s in _SENTENCE.findall(prose_plain) if s[-1] in _SENTENCE_END]
        stop_ratio = _ratio(n_stop, n) if n else nan
        ends = [s[-1].strip(".!?。！？\"'”’)").lower() for s in sentences if s]
        stop_end = _ratio(sum(e in stops for e in ends), len(ends)) if ends else nan
        stop_stop = _ratio(n_pairs, n - 1) if n > 1 else nan
        # function words inside sentences (six words or more, ending on . ! ?): a list of product names or a menu
        # has few, but a sentence of any language with a stop list has a fifth or more of them
        in_sentences = [w.strip(_STRIP_TOKEN).lower() for s in sentences if len(s) >= 6 for w in s]
        sentence_stops = (sum(w in stops for w in in_sentences) / len(in_sentences)
                          if len(in_sentences) >= MIN_SENTENCE_WORDS else nan)
    else:
        stop_ratio = stop_end = stop_stop = sentence_stops = nan
        stops = frozenset()

    # content words: for scripts written with spaces only (a CJK "word" here is one character)
    spaced = not is_unspaced(prose_plain, lang)
    content = [w for w in lower if w not in stops and len(w) > 2] if spaced else []
    top_content = 0.0 if spaced else nan
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

    # how the words are made
    n_prose = count_words(ws)
    alpha = [w for w in ws if w.isalpha()]
    short = [w for w in alpha if not UNSPACED_CHAR.search(w)]
    title_lines = [line for line in ls if len(line.split()) >= 2]
    order = _order_signals(ls, stops) if stop_ratio == stop_ratio else (nan, nan, nan)  # NaN: no stop list
    counted = Counter(content)
    prose_bytes = prose_plain.encode("utf-8", "replace")
    nonspace = len("".join(prose_plain.split())) or 1  # str.split() splits where str.isspace() is true

    values = {
        "log_prose_words": math.log1p(n_prose),
        "code_share": parts.code_ratio,
        "mean_word_length": sum(map(len, alpha)) / len(alpha) if alpha else nan,
        "short_words": sum(len(w) <= 3 for w in short) / len(short) if spaced and len(short) >= 20 else nan,
        "digit_share": sum(map(str.isdigit, prose_plain)) / nonspace,
        "title_case_lines": _ratio(sum(all(w[:1].isupper() for w in line.split() if len(w) >= 4)
                                       and any(len(w) >= 4 for w in line.split()) for line in title_lines),
                                   len(title_lines)) if title_lines else nan,
        "sentence_stops": sentence_stops,
        "stop_before_punct": order[0],
        "sentence_start_stop": order[1],
        "mid_capital_stop": order[2],
        "content_diversity": _diversity(content) if spaced else nan,
        "top5_content": (sum(c for _, c in counted.most_common(5)) / len(content)) if len(content) >= 20 and spaced
        else nan,
        "compress_ratio": len(zlib.compress(prose_bytes, 6)) / len(prose_bytes) if len(prose_bytes) >= 400 else nan,
        "odd_words": _odd_words(lower),
        "mojibake": _ratio(len(_MOJIBAKE.findall(prose_plain)), n) if n else 0.0,
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
        "link_words": _ratio(anchor_words, n),  # the page's link density, where higher, is applied in ``compute``
        "links_per_word": _ratio(len(linked), n),
        "urls_per_word": _ratio(len(_URL.findall(prose_plain)), n),
        "lorem_words": _ratio(n_lorem, n),
        "wall_words": _ratio(n_wall + len(_WALL_PHRASES.findall(folded)), n),
        "seo_words": _ratio(n_seo + len(_SEO_PHRASES.findall(folded)), n),
        "error_words": _ratio(len(_ERROR_PHRASES.findall(folded)), n),
        "template_words": _ratio(len(_TEMPLATE_PHRASES.findall(folded)), n),
        "spam_words": _ratio(n_spam, n),
        "exclamations": _ratio(prose_plain.count("!"), n),
        "questions": _ratio(prose_plain.count("?"), n),
    }
    return tuple(values[name] for name in NAMES)
