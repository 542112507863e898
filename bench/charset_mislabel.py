"""Mislabelled legacy-encoded pages: how often ``decode_html`` gets the exact text back, per language.

    .venv/bin/python bench/charset_mislabel.py [--sentences 20] [--repeat 3] [--no-real] [--json OUT]

Sample 1, per language: real sentences from ../shared/data/langid_dev.jsonl (Leipzig corpora, 75
languages) grouped per language into pages of ``--sentences`` sentences, wrapped in minimal HTML (no
<meta charset>) and encoded in the language's legacy code page (``CODEPAGE``). Only sentences that the
code page encodes, that decode back unchanged with the decoder a browser uses for that label
(Shift_JIS -> cp932, EUC-KR -> cp949) and that do not already hold mojibake of U+FFFD are used;
languages with fewer than ``--sentences`` such sentences are left out.

Sample 2, real Western pages: the pages of WCXB dev and the article-extraction benchmark whose whole
HTML windows-1252 can encode (mostly English, some other Western languages, 180 KiB on average with
their scripts and styles), with their <meta> charset declarations removed, encoded in windows-1252.

Each page is decoded three ways:

* ``utf8-label``: ``Content-Type: text/html; charset=utf-8`` (the label lies; the bytes are legacy),
* ``undeclared``: ``Content-Type: text/html``, no charset anywhere,
* ``declared``: the code page's own label in the header,

and counted exact when the decoded text equals the original HTML. ``old`` is the decoder as it was
before issue 14 (kept below as ``baseline_decode_html``: declared UTF-8 that does not decode went
straight to charset-normalizer's best guess), ``new`` is ``pipelines.readers.charset.decode_html``.
Speed is pages per second over the whole sample, per case, best of ``--repeat`` runs, one process.

Caveat on the data: the Leipzig Spanish sentences have had their accented letters stripped ("informacin"),
and several African and Austronesian languages are nearly ASCII; both are kept as they are, so they test
the easy path. Pages that are pure ASCII are valid UTF-8 and always come back exact.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import charset_normalizer

from pipelines.readers.charset import (
    DETECT_BYTES,
    Decoded,
    _meta_codec,
    _strict,
    codec_for,
    decode_html,
    header_charset,
    meta_charsets,
)

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
DATA = SHARED / "langid_dev.jsonl"
REAL = (SHARED / "wcxb" / "dev" / "html", SHARED / "extraction_bench" / "html")
_META_DECLARATION = re.compile(r"<meta\b[^>]*\bcharset\s*=[^>]*>", re.IGNORECASE)

# Language -> the legacy code page its pages were written in (the Windows code page of its locale; the
# locale defaults of the HTML standard's table use the same families).
CODEPAGE = {
    **{lang: "cp1252" for lang in ("af", "ca", "cy", "da", "de", "en", "es", "eu", "fi", "fr", "ga", "id", "is",
                                   "it", "la", "lg", "ms", "nb", "nl", "nn", "pt", "sn", "sq", "st", "sv", "sw",
                                   "tl", "tn", "ts", "xh", "zu")},
    **{lang: "cp1250" for lang in ("bs", "cs", "hr", "hu", "pl", "ro", "sk", "sl")},
    **{lang: "cp1251" for lang in ("be", "bg", "mk", "ru", "sr", "uk")},
    "el": "cp1253", "tr": "cp1254", "he": "cp1255", "ar": "cp1256",
    **{lang: "cp1257" for lang in ("et", "lt", "lv")},
    "th": "cp874", "ja": "shift_jis", "zh": "gbk", "ko": "euc_kr",
}
LABEL = {"cp1252": "windows-1252", "cp1250": "windows-1250", "cp1251": "windows-1251", "cp1253": "windows-1253",
         "cp1254": "windows-1254", "cp1255": "windows-1255", "cp1256": "windows-1256", "cp1257": "windows-1257",
         "cp874": "windows-874", "shift_jis": "Shift_JIS", "gbk": "GBK", "euc_kr": "EUC-KR"}
CASES: dict[str, Callable[[str], str]] = {
    "utf8-label": lambda codepage: "text/html; charset=utf-8",
    "undeclared": lambda codepage: "text/html",
    "declared": lambda codepage: f"text/html; charset={LABEL[codepage]}",
}


def baseline_decode_html(body: bytes, content_type: str | None = None) -> Decoded:
    """``decode_html`` as it was before issue 14, verbatim but for the names of the helpers it calls."""
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
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
    best = charset_normalizer.from_bytes(body[:DETECT_BYTES]).best()
    detected = codec_for(best.encoding) if best is not None else None
    if detected is not None:
        return Decoded(body.decode(detected, "replace"), detected, "detected")
    return Decoded(body.decode("utf-8", "replace"), "utf-8", "fallback")


def build_pages(per_page: int) -> list[tuple[str, str, str, bytes]]:
    """(lang, codepage, html, encoded html) for every full page of ``per_page`` usable sentences."""
    usable: dict[str, list[str]] = defaultdict(list)
    for line in DATA.open(encoding="utf-8"):
        row = json.loads(line)
        codepage = CODEPAGE.get(row["lang"])
        if codepage is None:
            continue
        try:
            encoded = row["text"].encode(codepage)
            if encoded.decode(codec_for(codepage) or codepage) != row["text"]:
                continue
        except UnicodeError:
            continue
        if b"\xef\xbf\xbd" in encoded:  # the corpus's own mojibake of U+FFFD ("ďż˝" in 5 Romanian sentences)
            continue
        usable[row["lang"]].append(row["text"])
    pages = []
    for lang in sorted(usable):
        sentences = usable[lang]
        for start in range(0, len(sentences) - per_page + 1, per_page):
            group = sentences[start:start + per_page]
            html = ("<!DOCTYPE html>\n<html><head><title>" + group[0][:40] + "</title></head>\n<body>\n"
                    + "".join(f"<p>{s}</p>\n" for s in group) + "</body></html>\n")
            pages.append((lang, CODEPAGE[lang], html, html.encode(CODEPAGE[lang])))
    return pages


def build_real_pages() -> list[tuple[str, str, str, bytes]]:
    """Real Western pages: every page of ``REAL`` whose whole HTML windows-1252 encodes, re-encoded so.

    Their <meta> charset declarations are removed (the header alone decides, per case); the pages
    stay as long as they are (scripts, styles, markup), so these also give realistic timings.
    """
    pages = []
    for folder in REAL:
        for path in sorted(folder.glob("*.html.gz")):
            html = _META_DECLARATION.sub("", decode_html(gzip.decompress(path.read_bytes())).text)
            try:
                body = html.encode("cp1252")
            except UnicodeEncodeError:
                continue
            if not html.isascii():
                pages.append(("web", "cp1252", html, body))
    return pages


def measure(decode: Callable[[bytes, str | None], Decoded], pages: list, repeat: int) -> dict:
    exact: dict[str, dict[str, int]] = {case: defaultdict(int) for case in CASES}
    charsets: dict[str, dict[str, dict[str, int]]] = {case: defaultdict(lambda: defaultdict(int)) for case in CASES}
    speed = {}
    for case, content_type in CASES.items():
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            results = [decode(body, content_type(codepage)) for _, codepage, _, body in pages]
            best = min(best, time.perf_counter() - start)
        speed[case] = len(pages) / best
        for (lang, _, html, _), got in zip(pages, results, strict=True):
            exact[case][lang] += got.text == html
            charsets[case][lang][got.charset] += 1
    return {"exact": exact, "charsets": charsets, "pages_per_s": speed}


def report(title: str, pages: list, old: dict, new: dict, repeat: int) -> None:
    per_lang: dict[str, int] = defaultdict(int)
    for lang, *_ in pages:
        per_lang[lang] += 1
    print(f"{title}; share of pages decoded exactly, old -> new")
    print(f"{'lang':5} {'codepage':10} {'pages':>5}  " + "  ".join(f"{case:>15}" for case in CASES))
    group_totals: dict[str, dict[str, list[int]]] = defaultdict(lambda: {c: [0, 0, 0] for c in CASES})
    for lang, n in per_lang.items():
        codepage = next(cp for lg, cp, *_ in pages if lg == lang)
        cells = []
        for case in CASES:
            o, w = old["exact"][case][lang], new["exact"][case][lang]
            cells.append(f"{o / n:6.0%} -> {w / n:4.0%}")
            for total in (group_totals[codepage][case], group_totals["all"][case]):
                total[0] += o
                total[1] += w
                total[2] += n
        flag = "" if all(old["exact"][c][lang] <= new["exact"][c][lang] for c in CASES) else "  (worse)"
        print(f"{lang:5} {codepage:10} {n:5}  " + "  ".join(cells) + flag)
    if len(per_lang) > 1:
        print("per code page:")
        for group, totals in sorted(group_totals.items(), key=lambda kv: kv[0] == "all"):
            cells = [f"{o / n:6.1%} -> {w / n:5.1%}" for o, w, n in totals.values()]
            print(f"{group:10} {next(iter(totals.values()))[2]:5}  " + "  ".join(cells))
    print(f"pages/s, best of {repeat}:")
    for case in CASES:
        print(f"  {case:11} old {old['pages_per_s'][case]:8.1f}   new {new['pages_per_s'][case]:8.1f}")
    print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=20, help="sentences per page (default 20)")
    parser.add_argument("--repeat", type=int, default=3, help="timing runs per case; the best counts")
    parser.add_argument("--no-real", action="store_true", help="skip the real Western pages")
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()

    figures = {}
    samples = {f"{args.sentences}-sentence pages": build_pages(args.sentences)}
    if not args.no_real:
        samples["real Western pages (WCXB dev, extraction benchmark)"] = build_real_pages()
    for title, pages in samples.items():
        old = measure(baseline_decode_html, pages, args.repeat)
        new = measure(decode_html, pages, args.repeat)
        size = sum(len(body) for *_, body in pages) / len(pages) / 1024
        report(f"{title}: {len(pages)} pages, {size:.1f} KiB on average", pages, old, new, args.repeat)
        figures[title] = {"pages": len(pages), "old": old, "new": new}
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1, default=dict))
    return 0


if __name__ == "__main__":
    sys.exit(main())
