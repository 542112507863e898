"""The input of bench/e2e.py: WARC files of real pages, rewritten variants and planted duplicates.

Input (built once per seed and cached under ``/tmp/winnow-e2e-input/``): every page of
``../shared/data/wcxb/dev/html`` (1,497 real pages, WCXB v1.0, Foley 2026, CC-BY-4.0) and
``../shared/data/extraction_bench/html`` (60 real news pages), plus, seeded:

- one rewritten variant of every page (a new page: paragraph texts permuted within their parent, and in each
  text node of 8+ words about 20% of the sentences dropped and 55% replaced by sentences of another page in the
  same language, then, if the 5-word-shingle Jaccard with the original text is still above 0.5, the words of the
  shorter text nodes replaced too);
- planted near-duplicates of 10% of the pages (about 1.5% of the words of the longer text nodes replaced by other
  words of the page: Jaccard 0.75-0.95), under the page's URL with ``?bench_near=1``;
- exact copies of 3% of the pages under another host (``mirror.bench.invalid``);

in 8 WARC files (datatrove shards by file), one ``response`` record per page with ``Content-Type: text/html;
charset=utf-8`` and ``WARC-Identified-Payload-Type: text/html`` (without it datatrove sniffs the type with
libmagic). Both systems keep the earlier of two duplicates: winnow the earliest ``WARC-Date`` (copies are dated
after every original), datatrove the smaller (task, position) pair, so each copy is written after its original in
the order datatrove's task reads the files (with tasks=2, task r reads files r, r+2, ...).
"""

from __future__ import annotations

import gzip
import io
import itertools
import json
import os
import random
import re
import shutil
import statistics
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data"
WCXB_DEV = SHARED / "wcxb" / "dev"
NEWS = SHARED / "extraction_bench"
INPUT_CACHE = Path("/tmp/winnow-e2e-input")
BUILD_VERSION = 2  # bump when the input recipe changes, so a cached input is not reused
FILES = 8

# Input recipe (see the module docstring).
MIN_WORDS = 8  # text nodes with at least this many words are rewritten sentence by sentence
DROP_SHARE, REPLACE_SHARE = 0.20, 0.55
MAX_VARIANT_JACCARD = 0.5
NEAR_SHARE, EXACT_SHARE = 0.10, 0.03
NEAR_WORD_EDIT = 0.015
MIRROR_HOST = "mirror.bench.invalid"
SKIP_TAGS = frozenset({"script", "style", "noscript", "template", "svg", "math", "pre", "code", "textarea", "title",
                       "head"})
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_TOKEN = re.compile(r"\w+")


@dataclass
class Source:
    key: str  # "wcxb/<id>" or "news/<id>"
    url: str
    html: bytes


@dataclass
class InputRecord:
    url: str
    kind: str  # original | variant | near_dup | exact_copy
    source: str  # the Source key
    of: str | None = None  # for copies and variants: the original's URL
    jaccard: float | None = None  # 5-word-shingle Jaccard with the original's text nodes
    file: int = -1
    body: bytes = field(default=b"", repr=False)


def load_sources() -> list[Source]:
    """The real pages: WCXB dev (all 1,497 HTML files) and the 60 news pages, in a fixed order."""
    sources = []
    for path in sorted((WCXB_DEV / "html").glob("*.html.gz")):
        page_id = path.name.removesuffix(".html.gz")
        truth = WCXB_DEV / "ground-truth" / f"{page_id}.json"
        url = json.loads(truth.read_text(encoding="utf-8")).get("url") if truth.exists() else None
        sources.append(Source(f"wcxb/{page_id}", url or f"https://wcxb.invalid/{page_id}",
                              gzip.decompress(path.read_bytes())))
    truth = json.loads((NEWS / "ground-truth.json").read_text(encoding="utf-8"))
    for page_id in sorted(truth):
        url = truth[page_id].get("url") or f"https://news.invalid/{page_id}"
        sources.append(Source(f"news/{page_id}", url, gzip.decompress((NEWS / "html" / f"{page_id}.html.gz")
                                                                      .read_bytes())))
    return sources


def with_query(url: str, key: str, value: str) -> str:
    parts = urlsplit(url)
    query = f"{parts.query}&{key}={value}" if parts.query else f"{key}={value}"
    return urlunsplit((parts.scheme or "https", parts.netloc, parts.path or "/", query, ""))


def mirror_url(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(("https", MIRROR_HOST, f"/{parts.netloc}{parts.path or '/'}", parts.query, ""))


def parse_html(body: bytes) -> Any:
    import lxml.html

    return lxml.html.document_fromstring(body, parser=lxml.html.HTMLParser(encoding="utf-8"))


def text_slots(root: Any) -> list[tuple[Any, str]]:
    """(element, "text" | "tail") for every text node of the body outside scripts, code and the like."""
    body = root.find("body")
    body = root if body is None else body
    skipped: set[Any] = set()
    for el in body.iter():
        if not isinstance(el.tag, str) or el.tag.lower() in SKIP_TAGS:
            skipped.update(el.iter())
    slots = []
    for el in body.iter():
        if el not in skipped and el.text and el.text.strip():
            slots.append((el, "text"))
        if el is not body and el.tail and el.tail.strip() and el.getparent() not in skipped:
            slots.append((el, "tail"))
    return slots


def slot_text(slot: tuple[Any, str]) -> str:
    el, attr = slot
    return getattr(el, attr) or ""


def set_slot(slot: tuple[Any, str], text: str) -> None:
    el, attr = slot
    old = getattr(el, attr) or ""
    lead = old[: len(old) - len(old.lstrip())]
    trail = old[len(old.rstrip()):]
    setattr(el, attr, f"{lead}{text}{trail}")


def shingles(text: str, n: int = 5) -> set[str]:
    tokens = _TOKEN.findall(text.lower())
    return {" ".join(tokens[i:i + n]) for i in range(max(0, len(tokens) - n + 1))}


def jaccard(a: str, b: str) -> float:
    sa, sb = shingles(a), shingles(b)
    if not sa and not sb:
        return 1.0
    return len(sa & sb) / len(sa | sb)


def page_text(root: Any) -> str:
    return "\n".join(slot_text(s).strip() for s in text_slots(root))


def sentences_of(root: Any) -> list[str]:
    out = []
    for slot in text_slots(root):
        text = " ".join(slot_text(slot).split())
        if len(text.split()) >= MIN_WORDS:
            out.extend(s for s in _SENTENCE.split(text) if len(s.split()) >= 3)
    return out


def serialize(root: Any) -> bytes:
    """UTF-8 HTML with one ``<meta charset="utf-8">`` (declarations of other charsets removed)."""
    import lxml.html

    for meta in root.xpath("//meta[@charset] | //meta[translate(@http-equiv, 'CONTENTYP', 'contentyp')"
                           " = 'content-type']"):
        meta.drop_tree()
    head = root.find("head")
    if head is None:
        head = lxml.html.Element("head")
        root.insert(0, head)
    head.insert(0, lxml.html.Element("meta", charset="utf-8"))
    return lxml.html.tostring(root, encoding="utf-8", method="html", doctype="<!DOCTYPE html>")


def donor_stream(donors: list[list[str]], rng: random.Random) -> Iterator[str]:
    """The donors' sentences, shuffled donor by donor, none twice (a repeated sentence would plant the duplicated
    n-grams that Gopher's repetition rules drop)."""
    seen: set[str] = set()
    for pool in donors:
        pool = pool[:]
        rng.shuffle(pool)
        for sentence in pool:
            if sentence not in seen:
                seen.add(sentence)
                yield sentence
    for n in itertools.count(1):  # only for a page longer than all its donors together
        yield f"This is added sentence number {n} of the rewritten page."


def rewrite(body: bytes, donors: list[list[str]], rng: random.Random) -> tuple[bytes, float] | None:
    """A new page from ``body``: paragraphs permuted, sentences dropped and replaced with the donors'."""
    try:
        root = parse_html(body)
    except Exception:  # lxml refuses some documents (empty, broken): no variant for them
        return None
    before = page_text(root)
    # Paragraph order: the texts of the plain <p> children of one parent, permuted.
    groups: dict[Any, list[Any]] = {}
    for p in root.iter("p"):
        if len(p) == 0 and p.text and len(p.text.split()) >= MIN_WORDS:
            groups.setdefault(p.getparent(), []).append(p)
    for paras in groups.values():
        texts = [p.text for p in paras]
        rng.shuffle(texts)
        for p, text in zip(paras, texts, strict=True):
            p.text = text
    donor_sentences = donor_stream(donors, rng)
    donor_words = (word for sentence in donor_sentences for word in sentence.split())
    changed = set()
    for i, slot in enumerate(text_slots(root)):
        text = " ".join(slot_text(slot).split())
        if len(text.split()) < MIN_WORDS:
            continue
        out = []
        for sentence in _SENTENCE.split(text):
            r = rng.random()
            if r < DROP_SHARE:
                continue
            out.append(next(donor_sentences) if r < DROP_SHARE + REPLACE_SHARE else sentence)
        set_slot(slot, " ".join(out) or next(donor_sentences))
        changed.add(i)
    score = jaccard(before, page_text(root))
    if score > MAX_VARIANT_JACCARD:
        # Short text nodes carry the page (a listing, a product page): replace their words too.
        for i, slot in enumerate(text_slots(root)):
            words = slot_text(slot).split()
            if i not in changed and len(words) >= 3:
                set_slot(slot, " ".join(next(donor_words) for _ in words))
        score = jaccard(before, page_text(root))
    return serialize(root), round(score, 3)


def edit_mildly(body: bytes, rng: random.Random) -> tuple[bytes, float] | None:
    """A planted near-duplicate: a few words of the longer text nodes replaced by other words of the page."""
    try:
        root = parse_html(body)
    except Exception:
        return None
    before = page_text(root)
    slots = [s for s in text_slots(root) if len(slot_text(s).split()) >= MIN_WORDS]
    vocabulary = sorted({w for s in slots for w in slot_text(s).split()})
    if not slots or len(vocabulary) < 2:
        return None
    edits = 0
    for slot in slots:
        words = slot_text(slot).split()
        for j in range(len(words)):
            if rng.random() < NEAR_WORD_EDIT:
                words[j] = rng.choice(vocabulary)
                edits += 1
        set_slot(slot, " ".join(words))
    if edits == 0:
        slot = max(slots, key=lambda s: len(slot_text(s)))
        words = slot_text(slot).split()
        words[rng.randrange(len(words))] = rng.choice(vocabulary)
        set_slot(slot, " ".join(words))
    return serialize(root), round(jaccard(before, page_text(root)), 3)


def language_groups(sources: list[Source]) -> tuple[dict[str, str], dict[str, list[str]]]:
    """lid.176's label of each page's text nodes, and each page's sentences (the donors' material)."""
    from filters.langid import get_model, normalise

    model = get_model()
    langs, sentences = {}, {}
    for src in sources:
        try:
            root = parse_html(src.html)
        except Exception:
            langs[src.key], sentences[src.key] = "und", []
            continue
        text = normalise(page_text(root)[:5000])
        labels, _ = model.predict(text) if text.strip() else (["__label__und"], None)
        langs[src.key] = labels[0].removeprefix("__label__")
        sentences[src.key] = sentences_of(root)
    return langs, sentences


def build_records(sources: list[Source], seed: int) -> list[InputRecord]:
    """Originals, variants and planted copies, each assigned to one of ``FILES`` files (see the docstring)."""
    rng = random.Random(seed)
    langs, sentences = language_groups(sources)
    by_lang: dict[str, list[str]] = {}
    for src in sources:
        if sentences[src.key]:
            by_lang.setdefault(langs[src.key], []).append(src.key)
    with_text = [s.key for s in sources if sentences[s.key]]
    seen_urls: set[str] = set()
    base: list[InputRecord] = []
    originals: list[InputRecord] = []
    for src in sources:
        url = src.url if src.url not in seen_urls else with_query(src.url, "bench_page", src.key.replace("/", "-"))
        seen_urls.add(url)
        original = InputRecord(url, "original", src.key, body=src.html)
        originals.append(original)
        base.append(original)
        peers = [k for k in by_lang.get(langs[src.key], []) if k != src.key] or [k for k in with_text if k != src.key]
        donors = [sentences[k] for k in rng.sample(peers, min(len(peers), 40))]
        made = rewrite(src.html, donors, random.Random(f"{seed}/variant/{src.key}"))
        if made:
            body, score = made
            base.append(InputRecord(with_query(url, "bench_variant", "1"), "variant", src.key, url, score,
                                    body=body))
    copies: list[InputRecord] = []
    chosen = rng.sample(originals, round(len(originals) * (NEAR_SHARE + EXACT_SHARE)))
    n_near = round(len(originals) * NEAR_SHARE)
    for i, original in enumerate(chosen):
        if i < n_near:
            made = edit_mildly(original.body, random.Random(f"{seed}/near/{original.source}"))
            if made:
                body, score = made
                copies.append(InputRecord(with_query(original.url, "bench_near", "1"), "near_dup", original.source,
                                          original.url, score, body=body))
        else:
            copies.append(InputRecord(mirror_url(original.url), "exact_copy", original.source, original.url, 1.0,
                                      body=original.body))
    rng.shuffle(base)
    for i, record in enumerate(base):
        record.file = i % FILES
    file_of = {r.url: r.file for r in base}
    for copy in copies:
        f = file_of[copy.of]
        # After the original in datatrove's read order with tasks=2 (task r reads files r, r+2, ... in order).
        later = [g for g in range(FILES) if g % 2 > f % 2 or (g % 2 == f % 2 and g >= f)]
        copy.file = rng.choice(later)
    urls = [r.url for r in base + copies]
    duplicates = [u for u, n in Counter(urls).items() if n > 1]
    if duplicates:
        raise RuntimeError(f"input URLs repeat: {duplicates[:3]}")
    return base + copies


def write_warcs(records: list[InputRecord], folder: Path) -> list[Path]:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    folder.mkdir(parents=True, exist_ok=True)
    base_date = datetime(2024, 3, 1, tzinfo=UTC)
    copy_date = datetime(2024, 9, 1, tzinfo=UTC)  # every copy is dated after every original
    paths = []
    for f in range(FILES):
        path = folder / f"e2e-{f:02d}.warc.gz"
        paths.append(path)
        with path.open("wb") as fh:
            writer = WARCWriter(fh, gzip=True)
            for i, record in enumerate(records):
                if record.file != f:
                    continue
                copy = record.kind in ("near_dup", "exact_copy")
                date = (copy_date if copy else base_date) + timedelta(seconds=i)
                http = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8"),
                                                   ("Content-Length", str(len(record.body)))], protocol="HTTP/1.1")
                writer.write_record(writer.create_warc_record(
                    record.url, "response", payload=io.BytesIO(record.body), length=len(record.body),
                    http_headers=http, warc_headers_dict={"WARC-Date": date.strftime("%Y-%m-%dT%H:%M:%SZ"),
                                                          "WARC-Identified-Payload-Type": "text/html"}))
    return paths


def ensure_input(seed: int, rebuild: bool = False) -> tuple[list[Path], dict[str, Any]]:
    """The WARC files and manifest for ``seed``, built into the cache folder unless already there."""
    folder = INPUT_CACHE / f"seed{seed}-v{BUILD_VERSION}"
    manifest_path = folder / "manifest.json"
    if manifest_path.exists() and not rebuild:
        manifest = json.loads(manifest_path.read_text())
        return [folder / "warc" / name for name in manifest["files"]], manifest
    started = time.perf_counter()
    print(f"building the input in {folder} ...", flush=True)
    tmp = folder.with_name(folder.name + f".tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    records = build_records(load_sources(), seed)
    paths = write_warcs(records, tmp / "warc")
    kinds = Counter(r.kind for r in records)
    variant_j = [r.jaccard for r in records if r.kind == "variant"]
    near_j = [r.jaccard for r in records if r.kind == "near_dup"]
    manifest = {
        "seed": seed, "version": BUILD_VERSION, "files": [p.name for p in paths], "pages": len(records),
        "kinds": dict(kinds), "bytes": sum(p.stat().st_size for p in paths),
        "html_bytes": sum(len(r.body) for r in records),
        "variant_jaccard": {"median": statistics.median(variant_j), "max": max(variant_j),
                            "over_0.5": sum(j > 0.5 for j in variant_j)},
        "near_jaccard": {"median": statistics.median(near_j), "min": min(near_j), "max": max(near_j)},
        "build_seconds": round(time.perf_counter() - started, 1),
        "records": [{k: v for k, v in asdict(r).items() if k != "body"} for r in records],
    }
    (tmp / "manifest.json").write_text(json.dumps(manifest, indent=1))
    shutil.rmtree(folder, ignore_errors=True)
    tmp.rename(folder)
    print(f"  {len(records)} pages ({dict(kinds)}) in {len(paths)} files, {manifest['bytes'] / 2**20:.0f} MiB, "
          f"{manifest['build_seconds']} s", flush=True)
    return [folder / "warc" / p.name for p in paths], manifest
