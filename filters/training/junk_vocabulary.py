"""The vocabulary the training junk generator (junk.py, junk_web.py beside this module) writes its junk with.

Nothing is downloaded: the text comes from what the installed stack carries.

- Sentences and words: documentation as web pages carry it, cut into pages of 80 to 1,500 words (log-uniform): the
  Python language reference and library topics (``pydoc_data.topics``), the docstrings of the standard library and
  of numpy, pandas, scikit-learn, Scrapy and Twisted (module by module, with their REPL examples and parameter lists),
  and the long descriptions (READMEs) of every installed distribution (``good_pages``).
- Spam words: the words of UT1's spam addresses (datatrove carries the list; CC BY-SA 4.0).

The quality model itself learns from real pages and real non-content text as well as from generated junk, and its
threshold is chosen on real pages held apart: scripts/train_quality_model.py. (Up to December 2026 these documentation
pages were the model's whole good class, and the threshold kept 98% of them: a model of English documentation that
dropped real prose in other languages.)
"""

from __future__ import annotations

import ast
import importlib.metadata
import importlib.util
import math
import random
import re
import sysconfig
from collections.abc import Iterator
from pathlib import Path

from filters.training.junk import Vocabulary
from filters.ut1 import ut1_lines

PACKAGES = ("numpy", "pandas", "sklearn", "scrapy", "twisted")
MIN_WORDS, MAX_WORDS = 80, 1500
SEED = 0
_UNDERLINE = re.compile(r"^([^\n]+)\n([-=~^]{3,})$", re.MULTILINE)
_SENTENCE = re.compile(r"[A-Z][^.!?\n]{20,200}[.!?]")
_SKIP_PARTS = {"test", "tests", "idlelib", "site-packages", "lib2to3", "turtledemo", "testing", "_vendor"}
_NAV = ["Home", "Docs", "Previous topic", "Next topic", "Share", "Edit on GitHub", "Table of contents",
        "Back to top", "Search", "Log in", "Menu", "Related", "Comments", "Print"]


_STRUCTURED = re.compile(r"^\s*(?:[-*+]\s|\||#{1,6}\s|>|\d+[.)]\s|\.\.\.)")


def _block(block: str) -> str:
    """One paragraph as extraction writes it: hard-wrapped prose joined into one line (docstrings wrap at
    about 72 characters, web paragraphs are one line, and FineWeb's line rules would see the difference), an
    indented literal block fenced as code, anything list- or prompt-like as it is."""
    lines = block.splitlines()
    if all(line.startswith(("  ", "\t")) for line in lines):
        indent = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
        return "```\n" + "\n".join(line[indent:] for line in lines) + "\n```"
    if any(_STRUCTURED.match(line) or line.startswith(("  ", "\t")) for line in lines):
        return block
    return " ".join(line.strip() for line in lines)


def _markdown(text: str) -> str:
    """reStructuredText headings (a line underlined with -, =, ~, ^) as Markdown headings; paragraphs unwrapped."""
    text = _UNDERLINE.sub(lambda m: f"## {m.group(1).strip()}\n", text)
    return "\n\n".join(_block(b) for b in re.split(r"\n\s*\n", text) if b.strip())


def _size(rng: random.Random) -> int:
    """A page length, log-uniform in MIN_WORDS..MAX_WORDS: short pages are as common as long ones, as on the web,
    so that length alone does not tell good from junk."""
    return int(math.exp(rng.uniform(math.log(MIN_WORDS), math.log(MAX_WORDS))))


def _pages(text: str, rng: random.Random) -> Iterator[str]:
    """``text`` cut at paragraph breaks into pages of MIN_WORDS..MAX_WORDS words."""
    paras = [p.strip("\n") for p in re.split(r"\n\s*\n", _markdown(text)) if p.strip()]
    page: list[str] = []
    words = 0
    size = _size(rng)
    for para in paras:
        page.append(para)
        words += len(para.split())
        if words >= size:
            yield "\n\n".join(page)
            page, words, size = [], 0, _size(rng)
    if words >= MIN_WORDS:
        yield "\n\n".join(page)


def _docstrings(path: Path) -> str:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError, ValueError, OSError):
        return ""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node)
            if doc and len(doc.split()) >= 15:
                title = getattr(node, "name", path.stem)
                out.append(f"## {title}\n\n{doc}")
    return "\n\n".join(out)


def _source_roots() -> list[Path]:
    roots = [Path(sysconfig.get_paths()["stdlib"])]
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec and spec.submodule_search_locations:
            roots += [Path(p) for p in spec.submodule_search_locations]
    return roots


def good_pages(seed: int = SEED) -> list[str]:
    """The good class (module docstring), deterministic for ``seed`` and the installed packages."""
    import pydoc_data.topics

    rng = random.Random(seed)
    pages = [p for _, text in sorted(pydoc_data.topics.topics.items()) for p in _pages(text, rng)]
    for root in _source_roots():
        for path in sorted(root.rglob("*.py")):
            if _SKIP_PARTS & set(path.relative_to(root).parts[:-1]):
                continue
            pages += _pages(_docstrings(path), rng)
    for dist in sorted(importlib.metadata.distributions(), key=lambda d: (d.metadata["Name"] or "").lower()):
        body = dist.metadata.get_payload() or dist.metadata.get("Description") or ""
        pages += _pages(body, rng)
    out = []
    for page in pages:
        if rng.random() < 0.3:  # pages of plain paragraphs, as many articles are: no headings
            page = "\n\n".join(p for p in page.split("\n\n") if not p.startswith("#")) or page
        if rng.random() < 0.4:
            nav = rng.sample(_NAV, rng.randint(1, 4))
            page = "\n".join(nav) + "\n\n" + page if rng.random() < 0.5 else page + "\n\n" + "\n".join(nav)
        out.append(page)
    return out


def vocabulary(pages: list[str]) -> Vocabulary:
    sentences = sorted({s.strip() for p in pages for s in _SENTENCE.findall(p)})
    words = sorted({w for s in sentences for w in s.split() if w.isalpha()})
    urls = ut1_lines("urls")
    spam = sorted({w.lower() for url in urls for w in re.split(r"[^A-Za-z]+", url.split("/", 1)[-1])
                   if 3 <= len(w) <= 12})
    return Vocabulary(sentences=sentences, words=words, spam=spam)
