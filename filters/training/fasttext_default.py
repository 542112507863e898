"""How winnow's default quality model (``filters/models/quality-default.ftz``, 0.9 MB) is made.

    .venv/bin/python -m filters.training.fasttext_default [OUTPUT]      # rebuilds it (about 20 s, one core)

Nothing is downloaded: the training text comes from what the installed stack carries.

- Positive (``__label__hq``), informative English prose: paragraphs of at least 20 words from the
  Python documentation that ships with the interpreter (``pydoc_data.topics``, the language reference)
  and from the docstrings of the standard library's modules, classes and functions (PSF licence):
  about 5,100 paragraphs, 1.3 MB.
- Negative (``__label__cc``), real web junk: the 19,586 spam/adult page addresses of the UT1 blocklist
  that ``datatrove`` carries (the list FineWeb's URL filter uses; CC BY-SA 4.0), each path turned into
  its words ("site de sexe hot ..."; about 8,100 with at least 5 words), plus runs of 5 to 40 short
  lines (headings, labels, grammar rules) from the same documentation, the "menu-like" text that
  extraction leaves in web pages: about 8,200 texts.

fastText supervised, DCLM's labels and bigram features: ``wordNgrams=2, dim=16, bucket=50000,
minCount=2, epoch=5, lr=0.1``, one thread, seed 0, then product-quantised (``cutoff=80000``).

What it is: a detector of well-formed expository prose versus spam and menu/list fragments, English
only. It is a starting point with a known bias (technical writing scores higher than, say, sports
news), not a substitute for a model trained on your own corpus: label a sample with your LLM
(``winnow quality annotate``) or drop in DCLM's classifier, then ``winnow quality train``. On the
article-vs-boilerplate sample of ``bench/filters_quality.py`` it separates the two with AUC 0.78.
"""

from __future__ import annotations

import ast
import random
import re
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path

from filters.quality_fasttext import DEFAULT_MODEL, train
from filters.ut1 import ut1_lines

PARAMS = {"dim": 16, "bucket": 50_000, "min_count": 2, "epoch": 5, "lr": 0.1, "word_ngrams": 2, "seed": 0,
          "quantize": True, "cutoff": 80_000}
MIN_WORDS = 20
_BLANK_LINE = re.compile(r"\n\s*\n")
_SKIP_PARTS = {"test", "tests", "idlelib", "site-packages", "lib2to3", "turtledemo"}


def _paragraphs(text: str) -> Iterator[str]:
    for block in _BLANK_LINE.split(text):
        para = " ".join(block.split())
        if len(para.split()) >= MIN_WORDS:
            yield para


def positives() -> list[str]:
    """Prose paragraphs of the Python documentation and the standard library's docstrings."""
    import pydoc_data.topics

    out = [p for _, text in sorted(pydoc_data.topics.topics.items()) for p in _paragraphs(text)]
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for path in sorted(stdlib.rglob("*.py")):
        if _SKIP_PARTS & set(path.relative_to(stdlib).parts):
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                doc = ast.get_docstring(node)
                if doc:
                    out.extend(_paragraphs(doc))
    return out


def negatives() -> list[str]:
    """UT1's spam page addresses as words, and runs of short documentation lines."""
    import pydoc_data.topics

    urls = ut1_lines("urls")
    out = []
    for url in urls:
        path = url.split("/", 1)[1] if "/" in url else ""
        ws = [w for w in re.split(r"\W+", path) if w and not w.isdigit()]
        if len(ws) >= 5:
            out.append(" ".join(ws))
    short = [" ".join(line.split()) for _, text in sorted(pydoc_data.topics.topics.items())
             for line in text.splitlines() if 0 < len(line.split()) < 6]
    rng = random.Random(1)
    i = 0
    while i < len(short):
        n = rng.randint(5, 40)
        out.append("\n".join(short[i:i + n]))
        i += n
    return out


def build(output: str | Path = DEFAULT_MODEL) -> dict:
    return train(positives(), negatives(), output, **PARAMS)


if __name__ == "__main__":
    print(build(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_MODEL))
