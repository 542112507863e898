"""The labelled corpus the quality step is trained, calibrated and judged on: real pages of many kinds, real
non-content text, and junk from three generators, each item with a family, a label and a split.

Good (label 1), real pages, as HTML through winnow's own extraction unless said otherwise:

- ``wcxb.<type>``: WCXB dev (Web Content Extraction Benchmark v1.0, Foley 2026, CC-BY-4.0; ../shared/data/wcxb/dev),
  the seven page types, pages with at least ``MIN_GOLD_WORDS`` words of ground truth; English and other languages.
- ``news``: the 60 pages of ../shared/data/extraction_bench (article-extraction-benchmark, MIT).
- ``docs.<package>``: whole documentation sites as Debian ships them (``apt-get download``, unpacked with
  ``dpkg-deb``; ``DEBIAN_SITES``): Sphinx sites with sphinx-gallery code-example pages (scikit-image, scikit-learn),
  API references (SciPy, SymPy, Astropy, Django, Dask, xarray, the Python 3.11 manual) and DocBook manuals in German,
  Russian, Japanese, Chinese, French, Spanish, Italian and Portuguese (GIMP's help, the Debian Reference). Pages a
  generator writes for navigation (``genindex``, ``search``, module indexes, ``_modules`` source listings, the
  gallery's execution-time tables) are left out: they are neither content nor junk.
- ``handbook.<lang>``: coherent prose in other languages: the Debian Administrator's Handbook (``debian-handbook``,
  Hertzog and Mas, CC-BY-SA/GPL-2+), its translated sections, their paragraphs left in English taken out
  (``translated``), ``HANDBOOK_PAGES`` to a language with at least ``HANDBOOK_MIN_PAGES`` of them (15 languages);
  ``eval`` only, so that the shipped model's recipe stays as it was trained.
- ``prose.<lang>``: real sentences in 75 languages (../shared/data/langid_dev.jsonl, Lingua's test data from the
  Leipzig corpora), 15 sentences of one language to a page, as text documents. The sentences of a page are
  unrelated, as a scraped mash-up's are; bench/filters_quality.py reports them apart from the handbook's coherent
  prose.

Junk (label 0):

- ``doc_index``: the real navigation pages of those documentation sites (general and module indexes, search pages).
- ``boilerplate``: the real non-content text of WCXB pages (menus, footers, teasers, cookie and sign-up notices, share
  bars: DOM text blocks whose words are mostly not in the page's ground truth), cut into pages, as text documents.
- ``chrome`` (eval only): the eval split's WCXB pages as HTML with their main content's text blanked (every text node
  and image alt whose words are mostly the ground truth's), through extraction: what a crawl gets from a page whose
  content did not load or was never there, its navigation, footers, teasers, author boxes and sign-up forms as the
  page lays them out (links, lists, headings). ``boilerplate`` is the same text without its markup, cut at every DOM
  text node; a model learnt on it alone dropped 0.02-0.05 of these pages, and learning these pages too made the
  general model worse (docs/quality-figures.md), so nothing learns from them.
- ``errors.<source>``: real error pages as web servers and proxies serve them, Apache httpd's (17 HTTP errors, 21
  languages) and Squid's (20 of 42 errors a language, 45 languages), from Debian packages (bench/error_pages.py), each
  page on a host of its own; split by language.
- ``gen_a.<family>``: filters/training/junk.py, the training generator (seven families).
- ``gen_b.<family>``: bench/junk_set.py (the same seven families, other templates, WCXB's vocabulary).
- ``gen_c.<family>``: bench/junk_eval.py, written apart from both and from the quality signals, with families the
  other two did not have when it was written (spun text, doorway pages, error pages, navigation-only pages, comment
  spam, gibberish, ...), as HTML pages through extraction; seed 0 trains, seed 1 is development evaluation.
- ``gen_d.<family>``: bench/junk_final.py, a fourth generator written apart from all of the above and from the
  quality code, after them: the final evaluation, never trained on, tuned on or read during development.

Splits: ``train`` (the model learns from it), ``calib`` (the threshold is chosen on it), ``eval`` (only measured).
WCXB, its boilerplate and its chrome pages split by site (``bench.wcxb.site_of``), so no site is in two splits;
documentation sites split whole (``DEBIAN_SITES``); the prose by sentence; the error pages by language; ``news``,
``handbook``, ``chrome`` and ``gen_d`` are eval only; ``gen_a`` is train only; ``gen_b`` and ``gen_c`` are drawn
twice, seed 0 for train and seed 1 for eval.

    .venv/bin/python -m bench.quality_corpus [--split eval] [--summary]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import wcxb  # noqa: E402
from bench.debs import package_folder  # noqa: E402
from bench.error_pages import base_language, error_pages  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
CACHE = Path.home() / ".cache" / "winnow-bench" / "quality"
SPLITS = ("train", "calib", "eval")
MIN_GOLD_WORDS = 100
SENTENCES_PER_PAGE = 15
PAGES_PER_SITE = 200  # a sample per documentation site, so that no one site outweighs the others
HANDBOOK = "debian-handbook"
HANDBOOK_FOLDER = "usr/share/doc/debian-handbook/html"
HANDBOOK_PAGES = 20  # sections per language, at most
HANDBOOK_MIN_PAGES = 12  # translated sections a language needs to count (``translated``)
HANDBOOK_ENGLISH = 0.05  # share of English-only function words from which a paragraph is English
HANDBOOK_MIN_PARAGRAPHS = 8
HANDBOOK_MIN_SHARE = 0.6
# English function words that are not words of the handbook's other languages ("of", Dutch for "or", is left out)
_ENGLISH_ONLY = frozenset({"the", "and", "that", "with", "this", "which", "from", "were", "would", "should"})

# package -> (folder of the HTML inside the .deb, split, language of the site)
DEBIAN_SITES: dict[str, tuple[str, str, str]] = {
    "python-sklearn-doc": ("usr/share/doc/python-sklearn-doc/html", "train", "en"),
    "python-dask-doc": ("usr/share/doc/python-dask-doc/html", "train", "en"),
    "python-django-doc": ("usr/share/doc/python-django-doc/html", "train", "en"),
    "python3.11-doc": ("usr/share/doc/python3.11/html", "train", "en"),
    "gimp-help-de": ("usr/share/gimp/2.0/help/de", "train", "de"),
    "debian-reference-de": ("usr/share/debian-reference", "train", "de"),
    "debian-reference-fr": ("usr/share/debian-reference", "train", "fr"),
    "debian-reference-ja": ("usr/share/debian-reference", "train", "ja"),
    "debian-reference-es": ("usr/share/debian-reference", "train", "es"),
    "python-astropy-doc": ("usr/share/doc/python-astropy-doc/html", "calib", "en"),
    "python-sympy-doc": ("usr/share/doc/python-sympy-doc/html", "calib", "en"),
    "python-xarray-doc": ("usr/share/doc/python-xarray-doc/html", "calib", "en"),
    "gimp-help-ru": ("usr/share/gimp/2.0/help/ru", "calib", "ru"),
    "debian-reference-it": ("usr/share/debian-reference", "calib", "it"),
    "debian-reference-pt": ("usr/share/debian-reference", "calib", "pt"),
    "python-skimage-doc": ("usr/share/doc/python-skimage-doc/html", "eval", "en"),
    "python-scipy-doc": ("usr/share/doc/python-scipy-doc/html", "eval", "en"),
    "gimp-help-ja": ("usr/share/gimp/2.0/help/ja", "eval", "ja"),
    "debian-reference-zh-cn": ("usr/share/debian-reference", "eval", "zh"),
}
# Pages a documentation generator writes for navigation, not prose: indexes, search, highlighted source listings,
# sphinx-gallery's timing tables, the copied reStructuredText sources.
_GENERATED = re.compile(r"(?:^|/)(?:genindex[^/]*|search|py-modindex|np-modindex|modindex|sg_execution_times|"
                        r"objects\.inv)\.html$|(?:^|/)(?:_modules|_sources|_downloads|_static|_images)/")
_TOKEN = re.compile(r"\w+")


@dataclass(frozen=True)
class Item:
    """One labelled input: an HTML page (``html``) that goes through extraction, or a text document (``text``)."""

    id: str
    family: str
    label: int  # 1 good, 0 junk
    split: str
    url: str
    html: bytes | None = None
    text: str | None = None

    @property
    def group(self) -> str:
        """The family's first part (``wcxb``, ``docs``, ``prose``, ``news``, ``boilerplate``, ``gen_a`` ...)."""
        return self.family.split(".", 1)[0]


def _bucket(key: str) -> float:
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big") / 2**64


def split_of(key: str, train: float = 0.5, calib: float = 0.25) -> str:
    """A stable split for ``key`` (a site, a sentence): ``train`` below ``train``, then ``calib``, then ``eval``."""
    b = _bucket(key)
    return "train" if b < train else "calib" if b < train + calib else "eval"


def _id(*parts: str) -> str:
    return hashlib.blake2b("\x1f".join(parts).encode(), digest_size=10).hexdigest()


# -- good: WCXB, news, documentation sites, prose ------------------------------------------------------------------

def wcxb_items(root: Path = wcxb.WCXB_DEV) -> Iterator[Item]:
    for page in wcxb.load_pages(root):
        if len(page.gold.split()) < MIN_GOLD_WORDS:
            continue
        url = page.url or f"https://wcxb.invalid/{page.id}"
        yield Item(_id("wcxb", page.id), f"wcxb.{page.page_type}", 1, split_of(wcxb.site_of(url)), url,
                   html=page.html())


def news_items(root: Path = SHARED / "extraction_bench") -> Iterator[Item]:
    truth = json.loads((root / "ground-truth.json").read_text(encoding="utf-8"))
    for key in sorted(truth):
        url = truth[key].get("url") or f"https://news.invalid/{key}"
        yield Item(_id("news", key), "news", 1, "eval", url, html=gzip.decompress((root / "html" / f"{key}.html.gz")
                                                                                 .read_bytes()))


def obtain_debian_site(package: str, cache: Path = CACHE / "debian", folder: str | None = None) -> Path:
    """The unpacked HTML folder of a Debian documentation package (``folder`` in it, by default its
    ``DEBIAN_SITES`` entry's), fetched once with ``apt-get download``."""
    return package_folder(package, folder or DEBIAN_SITES[package][0], cache)


def site_pages(package: str, root: Path) -> list[Path]:
    """The content pages of a site (generated navigation pages left out), a fixed sample of ``PAGES_PER_SITE``."""
    pages = []
    for path in sorted(root.rglob("*.html")):
        rel = path.relative_to(root).as_posix()
        if _GENERATED.search(rel) or path.is_symlink():
            continue
        suffix = package.removeprefix("debian-reference-")
        if package.startswith("debian-reference") and not rel.endswith(f".{suffix}.html"):
            continue  # the package folder holds the English pages too
        pages.append(path)
    rng = random.Random(package)
    return sorted(rng.sample(pages, PAGES_PER_SITE)) if len(pages) > PAGES_PER_SITE else pages


_INDEX_PAGE = re.compile(r"(?:^|/)(?:genindex[^/]*|search|py-modindex|np-modindex|modindex)\.html$")


def doc_index_items(packages: list[str] | None = None, cache: Path = CACHE / "debian") -> Iterator[Item]:
    """Real navigation-only pages: the indexes and search pages documentation generators write (junk)."""
    for package in packages or list(DEBIAN_SITES):
        _, split, _ = DEBIAN_SITES[package]
        root = obtain_debian_site(package, cache)
        host = f"{package.replace('.', '-')}.docs.example"
        for path in sorted(root.rglob("*.html")):
            rel = path.relative_to(root).as_posix()
            if _INDEX_PAGE.search(rel) and not path.is_symlink():
                yield Item(_id("doc_index", package, rel), "doc_index", 0, split, f"https://{host}/{rel}",
                           html=path.read_bytes())


def docs_items(packages: list[str] | None = None, cache: Path = CACHE / "debian") -> Iterator[Item]:
    for package in packages or list(DEBIAN_SITES):
        _, split, _ = DEBIAN_SITES[package]
        root = obtain_debian_site(package, cache)
        host = f"{package.replace('.', '-')}.docs.example"
        for path in site_pages(package, root):
            rel = path.relative_to(root).as_posix()
            url = f"https://{host}/{rel}"
            yield Item(_id("docs", package, rel), f"docs.{package}", 1, split, url, html=path.read_bytes())


def translated(html: bytes) -> bytes | None:
    """A handbook section with its untranslated paragraphs taken out, or None where too little of it is translated.

    The translations are kept up by paragraph: a section in Spanish carries the English of every paragraph changed
    since it was translated. A paragraph counts as English when ``HANDBOOK_ENGLISH`` or more of its words are
    English function words no other language of the handbook writes (a paragraph of English prose has about 15%; one
    in Spanish with command names in it, none). A section is kept when at least ``HANDBOOK_MIN_PARAGRAPHS``
    paragraphs and ``HANDBOOK_MIN_SHARE`` of its paragraph text are translated."""
    import lxml.html

    root = lxml.html.fromstring(html, parser=lxml.html.HTMLParser(encoding="utf-8"))  # the handbook is UTF-8
    kept = dropped = n_kept = 0
    for para in root.xpath('//p|//div[@class="para"]'):
        words = _TOKEN.findall(para.text_content().lower())
        if not words or para.xpath('.//div[@class="para"]|.//p'):
            continue  # empty, or a wrapper whose paragraphs are judged one by one
        size = sum(map(len, words))
        if sum(w in _ENGLISH_ONLY for w in words) >= HANDBOOK_ENGLISH * len(words):
            dropped += size
            para.drop_tree()
        else:
            kept += size
            n_kept += 1
    if n_kept < HANDBOOK_MIN_PARAGRAPHS or kept < HANDBOOK_MIN_SHARE * (kept + dropped):
        return None
    return lxml.html.tostring(root, encoding="utf-8", doctype="<!DOCTYPE html>")


def handbook_items(cache: Path = CACHE / "debian") -> Iterator[Item]:
    """Coherent prose in other languages (module docstring): ``HANDBOOK_PAGES`` translated sections a language."""
    root = obtain_debian_site(HANDBOOK, cache, HANDBOOK_FOLDER)
    for lang_dir in sorted(d for d in root.iterdir() if d.is_dir() and d.name not in ("en-US", "Common_Content")):
        lang = lang_dir.name
        sections = {p.name: html for p in sorted(lang_dir.glob("sect.*.html")) if (html := translated(p.read_bytes()))}
        if len(sections) < HANDBOOK_MIN_PAGES:
            continue
        for name in sorted(random.Random(lang).sample(sorted(sections), min(HANDBOOK_PAGES, len(sections)))):
            yield Item(_id("handbook", lang, name), f"handbook.{lang}", 1, "eval",
                       f"https://{lang.lower()}.debian-handbook.example/{name}", html=sections[name])


def prose_items(path: Path = SHARED / "langid_dev.jsonl") -> Iterator[Item]:
    """Pages of ``SENTENCES_PER_PAGE`` sentences of one language, each sentence in one split (by its text)."""
    by_lang: dict[tuple[str, str], list[str]] = defaultdict(list)
    with path.open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            text = " ".join(row["text"].split())
            by_lang[(row["lang"], split_of("prose\x1f" + text, 0.4, 0.3))].append(text)
    for (lang, split), sentences in sorted(by_lang.items()):
        sentences.sort(key=lambda s: _bucket("order\x1f" + s))
        for n, start in enumerate(range(0, len(sentences) - SENTENCES_PER_PAGE // 2, SENTENCES_PER_PAGE)):
            page = sentences[start:start + SENTENCES_PER_PAGE]
            # three to five sentences a paragraph, as a page of prose is written
            rng = random.Random(f"{lang}-{split}-{n}")
            paras, i = [], 0
            while i < len(page):
                k = rng.randint(3, 5)
                paras.append(" ".join(page[i:i + k]))
                i += k
            yield Item(_id("prose", lang, split, str(n)), f"prose.{lang}", 1, split,
                       f"https://prose-{lang}.example/{split}/{n}.html", text="\n\n".join(paras))


# -- junk: real non-content text, and three generators ------------------------------------------------------------

_BLOCK_TAGS = frozenset({"p", "div", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "a", "span", "button",
                         "label", "option", "dt", "dd", "figcaption", "blockquote", "section", "header", "footer",
                         "nav", "aside", "form", "small", "strong", "em", "b", "i"})


def dom_blocks(html: bytes) -> list[str]:
    """The page's visible text as lines, in document order: a list item as ``- item``, a heading as ``## heading``
    (as extraction writes them), everything else as one line per text run."""
    import lxml.html

    try:
        root = lxml.html.fromstring(html)
    except (ValueError, TypeError, lxml.etree.ParserError):
        return []
    for bad in root.xpath("//script|//style|//noscript|//template|//svg|//head"):
        bad.drop_tree()
    out: list[str] = []
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for part, owner in ((el.text, el), (el.tail, el.getparent())):
            if not part or not part.split():
                continue
            text = " ".join(part.split())
            tag = owner.tag if owner is not None and isinstance(owner.tag, str) else ""
            above = [a.tag for a in el.iterancestors()]
            anc = above[:3] if owner is el.getparent() else [el.tag, *above[:2]]
            if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
                out.append(f"## {text}")
            elif "li" in anc:
                out.append(f"- {text}")
            else:
                out.append(text)
    return out


def _gold_words(page: wcxb.WcxbPage) -> set[str]:
    return {t.lower() for t in _TOKEN.findall(page.gold)}


def _mostly_gold(text: str | None, gold: set[str]) -> bool | None:
    """Whether half or more of ``text``'s words are in ``gold`` (a page's main content); None where it has no words.
    What tells a page's content from the rest of it, for ``boilerplate_items`` and ``blank_content`` alike."""
    tokens = [t.lower() for t in _TOKEN.findall(text or "")]
    return sum(t in gold for t in tokens) / len(tokens) >= 0.5 if tokens else None


def boilerplate_items(root: Path = wcxb.WCXB_DEV, seed: int = 0) -> Iterator[Item]:
    """The text of each WCXB page that is not its main content, cut into pages of 30 to 400 words."""
    rng = random.Random(seed)
    for page in wcxb.load_pages(root):
        gold = _gold_words(page)
        if not gold:
            continue
        rest = [line for line in dom_blocks(page.html()) if _mostly_gold(line, gold) is False]
        url = page.url or f"https://wcxb.invalid/{page.id}"
        chunk: list[str] = []
        words, target, n = 0, rng.randint(30, 400), 0
        for line in [*rest, None]:
            if line is not None:
                chunk.append(line)
                words += len(line.split())
            if (words >= target or line is None) and words >= 30:
                # a host of its own per source page: the chunks are not pages of the real site, and host-level steps
                # must not count them as its pages
                yield Item(_id("boilerplate", page.id, str(n)), "boilerplate", 0, split_of(wcxb.site_of(url)),
                           f"https://boilerplate-{page.id}.example/{n}", text="\n".join(chunk))
                chunk, words, target, n = [], 0, rng.randint(30, 400), n + 1


def blank_content(html: bytes, gold: set[str]) -> bytes | None:
    """``html`` with every text node and image alt whose words are mostly in ``gold`` removed (``_mostly_gold``, the
    rule ``boilerplate_items`` keeps lines by); None where lxml cannot parse it."""
    import lxml.html

    try:
        root = lxml.html.fromstring(html)
    except (ValueError, TypeError, lxml.etree.ParserError):
        return None
    for el in root.iter():
        if not isinstance(el.tag, str) or el.tag in ("script", "style", "head", "title", "meta"):
            continue
        if _mostly_gold(el.text, gold):
            el.text = None
        if _mostly_gold(el.tail, gold):
            el.tail = None
    for img in root.xpath("//body//img"):
        if _mostly_gold(img.get("alt"), gold):
            img.drop_tree()
    return lxml.html.tostring(root, encoding="utf-8")


def chrome_items(root: Path = wcxb.WCXB_DEV) -> Iterator[Item]:
    """Each WCXB page of the eval split's sites with its main content blanked (``blank_content``), as HTML: the page's
    chrome only. Eval only (module docstring)."""
    for page in wcxb.load_pages(root):
        url = page.url or f"https://wcxb.invalid/{page.id}"
        if split_of(wcxb.site_of(url)) != "eval":
            continue
        gold = _gold_words(page)
        html = blank_content(page.html(), gold) if gold else None
        if html is None:
            continue
        # a host of its own per page, as the boilerplate's: not a page of the real site for host-level steps
        yield Item(_id("chrome", page.id), "chrome", 0, "eval", f"https://chrome-{page.id}.example/page", html=html)


_MD_LINK = re.compile(r"\[([^\]\n]*)\]\(([^)\s]*)\)")
def _inline(text: str) -> str:
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_LINK.sub(lambda m: f'<a href="{m.group(2) or "#"}">{m.group(1)}</a>', escaped)


def markdown_html(text: str) -> str:
    """Markdown as HTML: headings, lists, tables, links, paragraphs."""
    body: list[str] = []
    for block in re.split(r"\n\s*\n", text):
        lines = [line for line in block.splitlines() if line.strip()]
        if not lines:
            continue
        if all(line.lstrip().startswith(("- ", "* ")) for line in lines):
            body.append("<ul>" + "".join(f"<li>{_inline(line.lstrip()[2:])}</li>" for line in lines) + "</ul>")
        elif all(line.startswith("|") for line in lines):
            rows = [line.strip("|").split("|") for line in lines if not set(line) <= set("|-: ")]
            body.append("<table>" + "".join("<tr>" + "".join(f"<td>{_inline(c.strip())}</td>" for c in row)
                                           + "</tr>" for row in rows) + "</table>")
        elif lines[0].startswith("#"):
            level = min(len(lines[0]) - len(lines[0].lstrip("#")), 6)
            body.append(f"<h{level}>{_inline(lines[0].lstrip('#').strip())}</h{level}>")
            if lines[1:]:
                body.append(f"<p>{'<br>'.join(_inline(x) for x in lines[1:])}</p>")
        else:
            body.append(f"<p>{'<br>'.join(_inline(x) for x in lines)}</p>")
    return "\n".join(body)


def content_element(root: Any, gold: str) -> Any:
    """The element of a page that holds its main content: the one whose words best match the ground truth's (F1 of
    the word counts), found in one bottom-up pass."""
    gold_counts = Counter(t.lower() for t in _TOKEN.findall(gold))
    n_gold = sum(gold_counts.values())
    totals: dict[Any, tuple[int, int]] = {}
    best, best_f1 = root, -1.0
    for el in reversed(list(root.iter())):
        if not isinstance(el.tag, str):
            continue
        own = " ".join(filter(None, [el.text, *(c.tail for c in el)]))
        tokens = [t.lower() for t in _TOKEN.findall(own)]
        n, hits = len(tokens), sum(1 for t in tokens if t in gold_counts)
        for child in el:
            cn, ch = totals.get(child, (0, 0))
            n, hits = n + cn, hits + ch
        totals[el] = (n, hits)
        f1 = 2 * hits / (n + n_gold) if n + n_gold else 0.0
        if f1 > best_f1 and el.tag not in ("html", "body"):
            best, best_f1 = el, f1
    return best


def transplant(page: wcxb.WcxbPage, fragment: str) -> bytes | None:
    """``page`` with its main content replaced by ``fragment`` (HTML): generated junk in a real site's frame
    (its menus, sidebars, footers, scripts), so that extraction meets it as it meets a crawled page."""
    import lxml.html

    try:
        root = lxml.html.fromstring(page.html())
    except (ValueError, lxml.etree.ParserError):
        return None
    target = content_element(root, page.gold)
    for child in list(target):
        target.remove(child)
    target.text = None
    for el in lxml.html.fragments_fromstring(fragment or "<p></p>"):
        if isinstance(el, str):
            target.text = (target.text or "") + el
        else:
            target.append(el)
    return lxml.html.tostring(root, encoding="utf-8", doctype="<!DOCTYPE html>")


def foreign_words(path: Path = SHARED / "langid_dev.jsonl", split: str = "train") -> dict[str, list[str]]:
    """Content words of each language of langid_dev (sentences of ``split`` only), for generated junk in other
    languages: words of five letters or more, which function words rarely are."""
    out: dict[str, set[str]] = defaultdict(set)
    with path.open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            text = " ".join(row["text"].split())
            if split_of("prose\x1f" + text, 0.4, 0.3) == split:
                out[row["lang"]].update(w.strip(".,;:!?\"'()").lower() for w in text.split() if len(w) >= 5)
    return {lang: sorted(ws) for lang, ws in sorted(out.items()) if len(ws) >= 30}


def gen_a_items(per_family: int = 200, seed: int = 0) -> Iterator[Item]:
    """filters/training/junk.py's families from its documentation vocabulary (filters/training/junk_vocabulary.py) and
    other languages' words; every other page as a web page through extraction, the rest as text documents."""
    from filters.training.junk import generate
    from filters.training.junk_vocabulary import good_pages, vocabulary

    vocab = vocabulary(good_pages(seed))
    vocab.foreign = foreign_words()
    frames = [p for p in wcxb.load_pages() if split_of(wcxb.site_of(p.url or p.id)) == "train"]
    rng = random.Random(seed)
    for n, (family, text) in enumerate(generate(vocab, per_class=per_family, seed=seed)):
        url = f"https://gen-a-{family.replace('_', '-')}.example/{n}"
        html = transplant(rng.choice(frames), markdown_html(text)) if n % 2 else None
        if html is not None:
            yield Item(_id("gen_a", str(seed), str(n)), f"gen_a.{family}", 0, "train", url, html=html)
        else:
            yield Item(_id("gen_a", str(seed), str(n)), f"gen_a.{family}", 0, "train", url, text=text)


def gen_b_items(per_family: int = 60, seed: int = 0) -> Iterator[Item]:
    """bench/junk_set.py's families; seed 0 trains, any other seed is evaluation."""
    from bench.junk_set import junk_set

    split = "train" if seed == 0 else "eval"
    for doc in junk_set(per_class=per_family, seed=seed):
        yield Item(_id("gen_b", str(seed), doc["id"]), f"gen_b.{doc['class']}", 0, split,
                   f"https://gen-b.example/{seed}/{doc['id']}", text=doc["text"])


def gen_c_items(per_family: int = 60, seed: int = 0) -> Iterator[Item]:
    """bench/junk_eval.py's HTML pages: seed 0 trains, any other seed is evaluation."""
    from bench.junk_eval import junk_pages

    split = "train" if seed == 0 else "eval"
    for page in junk_pages(per_family=per_family, seed=seed):
        url = page.url if seed == 0 else page.url.replace("://", f"://s{seed}.", 1)
        yield Item(_id("gen_c", str(seed), page.url), f"gen_c.{page.family}", 0, split, url,
                   html=page.html.encode("utf-8"))


def gen_d_items(per_family: int = 50, seed: int = 0) -> Iterator[Item]:
    """bench/junk_final.py's HTML pages: the final evaluation, never trained, tuned or looked at."""
    from bench.junk_final import final_junk_pages

    for page in final_junk_pages(per_family=per_family, seed=seed):
        yield Item(_id("gen_d", str(seed), page.url), f"gen_d.{page.family}", 0, "eval", page.url,
                   html=page.html.encode("utf-8"))


def error_items(cache: Path = CACHE / "debian") -> Iterator[Item]:
    """Real error pages of web servers and proxies in many languages (bench/error_pages.py), split by language: no
    language's error pages are in two splits, so the eval split's are in languages nothing learnt them in."""
    for page in error_pages(cache):
        host = f"{page.source}-{page.lang}-{page.name.lower().replace('_', '-')}.errors.example"
        yield Item(_id("errors", page.source, page.lang, page.name), f"errors.{page.source}", 0,
                   split_of(f"errors:{base_language(page.lang)}"), f"https://{host}/missing/page.html",
                   html=page.html.encode("utf-8"))


# -- the whole corpus ----------------------------------------------------------------------------------------------

def corpus(splits: tuple[str, ...] = SPLITS, *, docs: bool = True, gen_d: bool = True,
           errors: bool = True) -> list[Item]:
    """Every item of the given splits (module docstring), in a fixed order; ``gen_d``: the final evaluation junk;
    ``errors``: the real error pages (Debian packages, as ``docs``)."""
    parts: list[Iterator[Item]] = [wcxb_items(), news_items(), prose_items(), boilerplate_items()]
    if errors:
        parts.append(error_items())
    if docs:
        sites = [p for p, (_, s, _) in DEBIAN_SITES.items() if s in splits]
        parts += [docs_items(sites), doc_index_items(sites)]
        if "eval" in splits:
            parts.append(handbook_items())
    if "train" in splits:
        parts += [gen_a_items(), gen_b_items(seed=0), gen_c_items(seed=0)]
    if "eval" in splits:
        parts += [chrome_items(), gen_b_items(seed=1), gen_c_items(seed=1)]
        if gen_d:
            parts.append(gen_d_items())
    items = [item for part in parts for item in part if item.split in splits]
    urls = Counter(item.url for item in items)
    if dup := [u for u, n in urls.items() if n > 1]:
        raise ValueError(f"{len(dup)} URLs repeat in the corpus, e.g. {dup[0]}")
    return items


def summary(items: list[Item]) -> dict[str, dict[str, int]]:
    out: dict[str, Counter[str]] = defaultdict(Counter)
    for item in items:
        out[item.family][item.split] += 1
    return {family: dict(counts) for family, counts in sorted(out.items())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", action="append", choices=SPLITS)
    args = parser.parse_args()
    items = corpus(tuple(args.split or SPLITS))
    for family, counts in summary(items).items():
        print(f"{family:<40}" + "".join(f"{s}={counts.get(s, 0):<6}" for s in SPLITS))
    print(f"{len(items)} items")
    return 0


if __name__ == "__main__":
    sys.exit(main())
