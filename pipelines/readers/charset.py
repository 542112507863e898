"""Decode an HTML payload to ``str``, recording which character set was used and why.

Sources, first usable one wins:

1. A byte-order mark. WHATWG HTML §13.2.3.2 ("determining the character encoding") puts the BOM
   ahead of every declaration; browsers do the same.
2. The ``charset`` parameter of the HTTP ``Content-Type`` header (RFC 9110 §8.3).
3. A ``<meta charset=...>`` or ``<meta http-equiv="Content-Type" content="...; charset=...">``
   in the first ``META_SCAN_BYTES`` bytes. The HTML standard requires the declaration within the
   first 1024 bytes; real pages often put it after long comments or scripts, so we look further.
4. UTF-8, when the body is valid UTF-8.
5. No usable declaration: windows-1252 unless the bytes argue clearly for another encoding (below).

A declared label falls through to the next source when Python does not know it as a text
encoding (``charset=none``, ``charset=base64``) or when the body is not valid in it (a page
labelled UTF-8 that is really windows-1252). A declared non-UTF-8 charset also loses to UTF-8 when
the body is valid UTF-8 and not pure ASCII: legacy-encoded text is almost never valid UTF-8 by
accident, whereas servers that label UTF-8 pages ISO-8859-1 by default are common.

Pages without a usable declaration, and pages whose UTF-8 label the bytes contradict. The HTML
standard's sniffing algorithm (HTML §13.2.3.2, "determining the character encoding") may
"autodetect the character encoding from applying frequency analysis or other algorithms" and
otherwise ends in "an implementation-defined or user-specified default character encoding"; its
table of suggested locale defaults (the intersection of Windows, Chrome and Firefox defaults) gives
windows-1252 to every locale it does not list, which covers Western Europe and the Americas. A
browser keeps a UTF-8 label even when the bytes contradict it (U+FFFD for each bad byte); we treat
that label as absent instead, because behind it is nearly always a legacy Western page served by a
UTF-8-by-default server. The rule (``_undeclared``):

1. Read the bytes as windows-1252 the way the WHATWG Encoding Standard does (its five unassigned
   bytes become U+0081, U+008D, ..., as in browsers) and count its doubt (``_doubt``): characters no
   single language would write. These are Latin letters outside the alphabet of the best-fitting
   language (``_LATIN_ALPHABETS``; Czech "řeč" read as windows-1252 is "øeè", and no language has
   ø and è together), symbols between two Latin letters ("g³os" for Polish "głos", "Ã©t" for "ét"),
   letters of another script glued to ASCII letters ("S緌 Paulo" for "São Paulo" read as Big5),
   U+FFFD and C1 controls, plus one per valid UTF-8 multi-byte sequence in the bytes (each is two
   to four wrong characters in any legacy reading). Doubt is counted on ``DOUBT_BYTES`` from the
   first non-ASCII byte (and the detector below reads from there too), so that a long ASCII
   ``<head>`` does not hide the text.
2. No doubt: windows-1252, and the detector is not run. charset-normalizer's first guess is what
   this replaces: on short Western text it rates "crčme" (cp1257), "S緌" (Big5) and "crème" alike,
   and its candidate order then decides.
3. Otherwise, for Latin-script text (more ASCII letters than non-ASCII bytes), the Latin code pages
   that a windows-1252 reading garbles (``_LATIN_CANDIDATES``: windows-1250 and ISO-8859-2 for
   Central Europe, windows-1257 for the Baltic states, windows-1254 for Turkish) are read too; the
   alphabets tell these apart, so the least doubtful one that is clearly better (below) than
   windows-1252 is kept, Windows code pages winning ties. With no doubt left it is the answer.
4. Otherwise charset-normalizer's first proposal for ``DETECT_BYTES`` bytes from the same place (it
   samples anyway; a bounded input keeps multi-megabyte pages cheap) or, when it proposes nothing,
   windows-1251, and UTF-8 with replacement characters (a UTF-8 page with a few stray legacy bytes;
   each U+FFFD counts twice, since it loses a character for good) are read; the less doubtful of the
   two replaces the reading of steps 1-3 if it is clearly better. The doubt count cannot rank
   windows-1251 against KOI8-R or windows-1256 (it only sees other scripts where they touch ASCII
   letters), so the detector's order is kept among non-Latin code pages.

"Clearly better" is at least 2 doubtful characters fewer and at most half as many. When the
evidence is thinner than that, windows-1252 stays, as in a browser with a Western locale: a false
Central European reading of a Western page is the failure this rule exists to prevent, and a page
whose only evidence is one letter reads nearly the same either way.

Labels are mapped to the superset browsers actually decode with (WHATWG Encoding Standard §4.2,
"Names and labels"): ISO-8859-1 and US-ASCII are windows-1252, Shift_JIS is windows-31J (cp932),
GB2312 is GBK, EUC-KR is windows-949. The ``charset`` reported is Python's codec name of the
decoder used (``utf-8``, ``cp1252``, ``cp932``, ...).
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections import Counter
from functools import lru_cache
from typing import NamedTuple

import charset_normalizer

META_SCAN_BYTES = 4096
DETECT_BYTES = 64 * 1024
DOUBT_BYTES = 16 * 1024  # bytes whose readings are weighed, from the first non-ASCII one

# WHATWG label -> the decoder browsers use; keyed by Python codec name (codecs.lookup(...).name).
_BROWSER_SUPERSET = {
    "ascii": "cp1252",
    "iso8859-1": "cp1252",
    "iso8859-9": "cp1254",
    "iso8859-11": "cp874",
    "tis-620": "cp874",
    "shift_jis": "cp932",
    "gb2312": "gbk",
    "euc_kr": "cp949",
    "big5": "big5hkscs",
}
# WHATWG labels that Python's codec registry does not know.
_EXTRA_LABELS = {
    "windows-31j": "cp932",
    "x-sjis": "cp932",
    "ms_kanji": "cp932",
    "x-gbk": "gbk",
    "x-cp1252": "cp1252",
    "windows-874": "cp874",
    "dos-874": "cp874",
    "unicode-1-1-utf-8": "utf-8",
    "unicode11utf8": "utf-8",
    "unicode20utf8": "utf-8",
    "x-unicode20utf8": "utf-8",
}
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))

_HEADER_CHARSET = re.compile(r"""charset\s*=\s*["']?\s*([^"';\s]+)""", re.IGNORECASE)
# Matches both <meta charset=x> and the http-equiv form (its content="text/html; charset=x").
_META_CHARSET = re.compile(rb"""<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([A-Za-z0-9._:\-]+)""", re.IGNORECASE)


class Decoded(NamedTuple):
    text: str
    charset: str  # Python codec name of the decoder used
    # "bom" | "header" | "meta" | "utf8" (valid UTF-8) | "default" (windows-1252, the browsers' default)
    # | "detected" (another legacy encoding, on clear evidence) | "fallback" (UTF-8 with U+FFFD)
    source: str


def codec_for(label: str | None) -> str | None:
    """A charset label -> the Python codec a browser-equivalent decoder uses; None if unusable."""
    if not label:
        return None
    label = label.strip().strip("\"'").lower()
    label = _EXTRA_LABELS.get(label, label)
    try:
        name = codecs.lookup(label).name
        # bytes.decode refuses codecs that are not text encodings (base64, rot13, zlib, ...); an
        # empty input would skip that check, and "replace" keeps UTF-16's odd byte from raising.
        b"x".decode(name, "replace")
    except (LookupError, ValueError):
        return None
    return _BROWSER_SUPERSET.get(name, name)


def header_charset(content_type: str | None) -> str | None:
    """The raw ``charset`` parameter of a Content-Type header value, if any."""
    if not content_type:
        return None
    match = _HEADER_CHARSET.search(content_type)
    return match.group(1) if match else None


def meta_charsets(body: bytes) -> list[str]:
    """Charset labels declared by <meta> elements near the top of the document, in order."""
    return [m.group(1).decode("ascii") for m in _META_CHARSET.finditer(body, 0, META_SCAN_BYTES)]


def decode_html(body: bytes, content_type: str | None = None) -> Decoded:
    """Decode ``body`` following the source order in the module docstring; never raises."""
    for bom, codec in _BOMS:
        if body.startswith(bom):
            return Decoded(body[len(bom):].decode(codec, "replace"), codec, "bom")

    utf8_text = _strict(body, "utf-8")
    non_ascii_utf8 = utf8_text is not None and not body.isascii()

    declared = [("header", header_charset(content_type))]
    declared += [("meta", _meta_codec(label)) for label in meta_charsets(body)]
    for source, label in declared:
        codec = codec_for(label)
        if codec is None:
            continue
        if codec != "utf-8" and non_ascii_utf8:
            return Decoded(utf8_text, "utf-8", "utf8")
        text = utf8_text if codec == "utf-8" else _strict(body, codec)
        if text is not None:
            return Decoded(text, codec, source)

    if utf8_text is not None:
        return Decoded(utf8_text, "utf-8", "utf8")
    return _undeclared(body)


def _meta_codec(label: str) -> str:
    # A <meta> that can be read as ASCII rules out UTF-16; the HTML prescan turns it into UTF-8.
    return "utf-8" if label.lower().startswith("utf-16") else label


def _strict(body: bytes, codec: str) -> str | None:
    """Decode strictly, except that a character cut off at the very end is replaced.

    Crawlers truncate long payloads at a byte limit (Common Crawl at 1 MiB), which can split the
    last multi-byte character; that must not make a correctly labelled page look mislabelled.
    """
    decoder = codecs.getincrementaldecoder(codec)("strict")
    try:
        text = decoder.decode(body, final=False)
    except UnicodeDecodeError:
        return None
    pending = decoder.getstate()[0]
    return text + pending.decode(codec, "replace") if pending else text


# -- pages without a usable declaration -------------------------------------------------------------

# windows-1252 as the WHATWG Encoding Standard decodes it: Python's cp1252 raises on the five bytes
# Microsoft left unassigned, browsers map them to the C1 control of the same number.
_WINDOWS_1252 = "".join(
    chr(byte) if byte in (0x81, 0x8D, 0x8F, 0x90, 0x9D) else bytes([byte]).decode("cp1252") for byte in range(256)
)
# Latin code pages whose letters a windows-1252 reading garbles; tried before the detector, in this
# order (Windows code pages first: far more common on the web than their ISO counterparts).
_LATIN_CANDIDATES = ("cp1250", "iso8859-2", "cp1257", "cp1254")

# Non-ASCII letters (lower case) of the languages written in the Latin legacy code pages. A reading
# whose accented letters one of these alphabets covers is plausible; Czech read as windows-1252
# ("øeè" for "řeč") or French read as windows-1250 ("crčme" for "crème") is covered by none.
_LATIN_ALPHABETS = {
    alphabet: frozenset(alphabet)
    for alphabet in (
        # windows-1252 / ISO-8859-1 / ISO-8859-15
        "àâæçéèêëîïôœùûüÿ",  # French
        "äöüß",  # German (also in windows-1250 and -1257)
        "áéíñóúü",  # Spanish, Galician
        "áàâãçéêíóôõúü",  # Portuguese
        "àèéìíîòóùú",  # Italian
        "àçéèíïòóúü",  # Catalan, Occitan
        "áéèêëíïóöü",  # Dutch
        "åäöé",  # Swedish
        "æøåéóòô",  # Danish, Norwegian
        "äöåšž",  # Finnish
        "áðéíóúýþæö",  # Icelandic
        "áðíóúýæø",  # Faroese
        "áéíóúàèìòù",  # Irish, Scottish Gaelic
        "âêîôûŵŷáéíóúàèäëïöü",  # Welsh
        "áéèêëíîïóôöúûü",  # Afrikaans
        "çë",  # Albanian
        "äöõüšž",  # Estonian (also windows-1257)
        # windows-1250 / ISO-8859-2
        "áčďéěíňóřšťúůýž",  # Czech
        "áäčďéíĺľňóôŕšťúýž",  # Slovak
        "ąćęłńóśźż",  # Polish (also windows-1257)
        "áéíóöőúüű",  # Hungarian
        "ăâîșțşţ",  # Romanian
        "čćđšž",  # Croatian, Bosnian, Serbian (Latin), Slovene
        # windows-1257 / ISO-8859-13
        "ąčęėįšųūž",  # Lithuanian
        "āčēģīķļņšūž",  # Latvian
        # windows-1254 / ISO-8859-9
        "çğıöşüâîûİ",  # Turkish
        # ISO-8859-3
        "àċèġħìòùż",  # Maltese
        "ĉĝĥĵŝŭ",  # Esperanto
    )
}
# Punctuation that may stand between two letters of a word: apostrophes, the Catalan middle dot,
# hyphens and dashes, the soft hyphen.
_WORD_PUNCTUATION = frozenset("’‘ʼ·‧‐‑–—\u00ad")
_LATIN, _SYMBOL, _NEUTRAL, _BAD = range(4)
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_NON_ASCII_BYTE = re.compile(rb"[\x80-\xff]")
_ASCII_LETTERS = bytes(range(65, 91)) + bytes(range(97, 123))
_HIGH_BYTES = bytes(range(128, 256))
_UTF8_SEQUENCE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")
# Letters of another script glued to an ASCII letter ("crиme", "S緌o"): Greek to Thai, Georgian, ...
# on either side; scripts written without spaces (CJK, kana, Hangul) only between two ASCII letters,
# since "iPhone用" is ordinary Japanese.
_LATIN_LETTER = "[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f]"
_GLUED_SCRIPT = re.compile(r"[\u0370-\u1cff](?:(?<=[A-Za-z].)|(?=[A-Za-z]))")
_GLUED_UNSPACED = re.compile(
    r"[\u2e80-\u9fff\ua000-\ua4cf\uac00-\ud7af\uf900-\ufaff\uff66-\uffdc](?<=[A-Za-z].)(?=[A-Za-z])"
)


def _undeclared(body: bytes) -> Decoded:
    """Windows-1252 unless another reading is clearly more plausible (module docstring)."""
    # Evidence comes from the text, not from a long ASCII <head> (on which charset-normalizer guesses
    # at random): it is read from the first non-ASCII byte on. The byte before that one is ASCII, so
    # every decoder starts there on a character boundary.
    first = _NON_ASCII_BYTE.search(body)
    start = max(first.start() - 1, 0) if first else 0
    sample = body[start:start + DOUBT_BYTES]
    cut = len(body) > start + DOUBT_BYTES
    # Every valid UTF-8 multi-byte sequence is two to four wrong characters in a legacy reading.
    utf8_sequences = len(_UTF8_SEQUENCE.findall(sample))

    def doubt_of(codec: str) -> int:
        text = _windows_1252(sample) if codec == "cp1252" else sample.decode(codec, "replace")
        if cut and text.endswith("\ufffd"):
            text = text[:-1]  # a multi-byte character split by the end of the sample
        if codec == "utf-8":
            # A U+FFFD loses a character for good, where a legacy reading keeps the bytes.
            return 2 * _doubt(text)
        return _doubt(text) + utf8_sequences

    western_doubt = doubt_of("cp1252")
    if western_doubt == 0:
        return _decoded(body, "cp1252")

    # Latin code pages: the alphabets tell them apart, so the least doubtful reading wins. Skipped
    # for text with more non-ASCII bytes than ASCII letters, which no Latin-script language has.
    latin, latin_doubt = "cp1252", western_doubt
    high_bytes = len(sample) - len(sample.translate(None, _HIGH_BYTES))
    ascii_letters = len(sample) - len(sample.translate(None, _ASCII_LETTERS))
    for codec in _LATIN_CANDIDATES if ascii_letters > high_bytes else ():
        doubt = doubt_of(codec)
        if doubt < latin_doubt and _clearly_better(doubt, western_doubt):
            latin, latin_doubt = codec, doubt
    if latin_doubt == 0:
        return _decoded(body, latin)

    # Other scripts: the doubt count sees them only where they touch ASCII letters, so it cannot
    # rank windows-1251 against KOI8-R or windows-1256: the detector's first proposal is taken and
    # only checked against the Latin reading. When it proposes nothing (some Cyrillic pages, such as
    # Belarusian typed with a Latin "i"), windows-1251, the most used non-Latin legacy code page.
    # UTF-8 with replacement characters covers a UTF-8 page with a few stray legacy bytes.
    best = charset_normalizer.from_bytes(body[start:start + DETECT_BYTES]).best()
    other = (codec_for(best.encoding) if best is not None else None) or "cp1251"
    other_doubt = doubt_of(other)
    if other != "utf-8" and (utf8_doubt := doubt_of("utf-8")) < other_doubt:
        other, other_doubt = "utf-8", utf8_doubt
    return _decoded(body, other if _clearly_better(other_doubt, latin_doubt) else latin)


def _clearly_better(doubt: int, baseline: int) -> bool:
    # Two doubtful characters fewer and at most half as many: a single odd letter on a Western page
    # (a name in another language) must not flip the whole page to another code page.
    return baseline - doubt >= 2 and 2 * doubt <= baseline


def _decoded(body: bytes, codec: str) -> Decoded:
    if codec == "cp1252":
        return Decoded(_windows_1252(body), "cp1252", "default")
    if codec == "utf-8":
        return Decoded(body.decode("utf-8", "replace"), "utf-8", "fallback")
    return Decoded(body.decode(codec, "replace"), codec, "detected")


def _windows_1252(body: bytes) -> str:
    return codecs.charmap_decode(body, "strict", _WINDOWS_1252)[0]


def _doubt(text: str) -> int:
    """How many characters of ``text`` no single language would write (module docstring)."""
    chars = Counter(_NON_ASCII.findall(text))
    doubt = len(_GLUED_SCRIPT.findall(text)) + len(_GLUED_UNSPACED.findall(text))
    letters: Counter[str] = Counter()
    symbols = []
    for char, count in chars.items():
        kind, key = _kind(char)
        if kind == _LATIN:
            letters[key] += count
        elif kind == _BAD:
            doubt += count
        elif kind == _SYMBOL:
            symbols.append(char)
    if symbols:
        # "g³os" for "głos", "Ã©t" for UTF-8 "ét": a symbol inside a Latin word is a letter of another
        # code page. (Only Latin words: "データ" and "日本、中国" are ordinary Japanese and Chinese.
        # Non-ASCII characters are never special in a regular expression.)
        doubt += len(re.findall(rf"[{''.join(symbols)}](?<={_LATIN_LETTER}.)(?={_LATIN_LETTER})", text))
    if letters:
        # Letters outside the alphabet of the language that explains most of them.
        doubt += letters.total() - max(sum(letters[letter] for letter in alphabet.intersection(letters))
                                       for alphabet in _LATIN_ALPHABETS.values())
    return doubt


@lru_cache(maxsize=8192)
def _kind(char: str) -> tuple[int, str]:
    """Class of a non-ASCII character for ``_doubt``, and for Latin letters its lower case."""
    category = unicodedata.category(char)
    if char == "\ufffd" or category in ("Cc", "Co", "Cn", "Cs"):
        return _BAD, char
    if category[0] in "ZM" or category == "Cf" or char in _WORD_PUNCTUATION:
        return _NEUTRAL, char
    if category in ("Lu", "Ll", "Lt", "Lo") and char not in "ªºµ":
        if unicodedata.name(char, "").startswith("LATIN"):
            lower = char.lower()
            return _LATIN, lower if len(lower) == 1 else char
        return _NEUTRAL, char  # other scripts: only where glued to ASCII letters (_GLUED_SCRIPT)
    return _SYMBOL, char  # punctuation, symbols, numbers, modifier letters (ˆ ˇ), ª º µ
