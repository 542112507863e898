"""Decode an HTML payload to ``str``, recording which character set was used and why.

Sources, first usable one wins:

1. A byte-order mark. WHATWG HTML §13.2.3.2 ("determining the character encoding") puts the BOM
   ahead of every declaration; browsers do the same.
2. The ``charset`` parameter of the HTTP ``Content-Type`` header (RFC 9110 §8.3).
3. A ``<meta charset=...>`` or ``<meta http-equiv="Content-Type" content="...; charset=...">``
   in the first ``META_SCAN_BYTES`` bytes. The HTML standard requires the declaration within the
   first 1024 bytes; real pages often put it after long comments or scripts, so we look further.
4. Detection with charset-normalizer on the first ``DETECT_BYTES`` bytes (it samples anyway; a
   bounded input keeps multi-megabyte pages cheap).
5. UTF-8 with U+FFFD replacement characters.

A declared label falls through to the next source when Python does not know it as a text
encoding (``charset=none``, ``charset=base64``) or when the body is not valid in it (a page
labelled UTF-8 that is really windows-1252). A declared non-UTF-8 charset also loses to UTF-8 when
the body is valid UTF-8 and not pure ASCII: legacy-encoded text is almost never valid UTF-8 by
accident, whereas servers that label UTF-8 pages ISO-8859-1 by default are common.

Labels are mapped to the superset browsers actually decode with (WHATWG Encoding Standard §4.2,
"Names and labels"): ISO-8859-1 and US-ASCII are windows-1252, Shift_JIS is windows-31J (cp932),
GB2312 is GBK, EUC-KR is windows-949. The ``charset`` reported is Python's codec name of the
decoder used (``utf-8``, ``cp1252``, ``cp932``, ...).
"""

from __future__ import annotations

import codecs
import re
from typing import NamedTuple

import charset_normalizer

META_SCAN_BYTES = 4096
DETECT_BYTES = 64 * 1024

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
    source: str  # "bom" | "header" | "meta" | "utf8" | "detected" | "fallback"


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
    detected = _detect(body)
    if detected is not None:
        return Decoded(body.decode(detected, "replace"), detected, "detected")
    return Decoded(body.decode("utf-8", "replace"), "utf-8", "fallback")


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


def _detect(body: bytes) -> str | None:
    best = charset_normalizer.from_bytes(body[:DETECT_BYTES]).best()
    return codec_for(best.encoding) if best is not None else None
