"""A document's text split once into prose, code, math and tables, for every filter to share.

The heuristic rules the filters apply (Gopher, C4, FineWeb) and language ID were written for prose.
Applied to a whole technical page they misjudge it: a Python dictionary is C4's "curly bracket",
a REPL session is Gopher's "duplicate lines", a code line is FineWeb's "line without punctuation",
and lid.176 scores code as a language (an English tutorial scores 0.55-0.62 with its code, 0.69
without). So each rule reads the part it was written for, and this module says what the parts are.

The input is the Markdown that extraction writes (``extract/``): fenced code blocks with their
language, ``$$ ... $$`` display math, ``$ ... $`` inline math, GFM tables. JSONL/Parquet inputs
written elsewhere are read the same way. A line is:

- **code** inside a fenced block (backticks or tildes, any indentation, so fences inside list items
  count; an unclosed fence runs to the end, as in CommonMark), or in a REPL or shell transcript
  outside a fence: a run of lines, up to a blank line, that starts with a ``>>> ``, ``In [n]:`` or
  ``$ command`` prompt (the prompt is followed by a lowercase command word, so "$ 5" is not one);
- **math** inside ``$$ ... $$``;
- **table** when it starts with ``|`` and has another ``|`` (a GFM table row);
- **prose** otherwise: headings, paragraphs, list items, quotes.

Inside prose lines, inline math (pandoc's rule: ``$`` followed by a non-space, closed by a ``$`` with a
non-space before it and no digit after it, so "$5 and $10" is not math) is removed, and inline code
is kept only when it reads as a word in the sentence (an identifier such as ``np.sum`` or
``fit()``); other inline code (``{'a': 1}``) is removed and counted as code. Indented code blocks are
not recognised: extraction never writes them, and list continuations are indented too.

``split`` caches its last results by text: steps run one after another on the same texts (each step
gets the batch as an Arrow table and makes new strings, so the cache is keyed by value), and the
split costs about as much as one rule family.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from pipelines import heap

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_REPL_START = re.compile(r"^(?:>>>(?: |$)|In \[\d*\]: |\$ [a-z][\w.+-]*(?: |$))")
_TABLE_ROW = re.compile(r"^\|.*\|")
_INLINE_CODE = re.compile(r"(`+)(?=\S)(.+?)(?<=\S)\1")  # no space inside the ticks: Armenian uses ` as punctuation
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?=\S)([^$\n]+?)(?<=\S)\$(?![\d$])")
_WORDLIKE = re.compile(r"^[\w.:/\-]+(?:\(\))?$")
_MARKERS = re.compile(r"[`~$|]|>>>|In \[")
# Entries of each by-text cache (this one, signals', n-grams', word counts'): a few batches' texts (the local runner
# hands steps at most 256 records at a time). Each entry holds its text: at 4,096 the four caches kept about 200 MB
# of a run's texts alive after their batch was written (issue 28's memory trace).
CACHE_SIZE = 1024


@dataclass(frozen=True)
class TextParts:
    """The parts of one text. ``prose`` keeps the blank-line structure of the prose (paragraphs);
    a removed block leaves a paragraph break."""

    prose: str
    code: tuple[str, ...] = ()
    math: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    code_chars: int = 0  # non-space characters of code blocks, transcripts and removed inline code
    total_chars: int = 0  # non-space characters of the whole text
    # The kind of each line of ``text.splitlines()``: "prose", "code" (fence lines too), "math", "table";
    # empty when the whole text is prose.
    line_kinds: tuple[str, ...] = ()

    @property
    def code_ratio(self) -> float:
        """Share of the text's non-space characters that are code."""
        return self.code_chars / self.total_chars if self.total_chars else 0.0

    def prose_lines(self) -> list[str]:
        """Non-empty prose lines, stripped."""
        return [s for line in self.prose.splitlines() if (s := line.strip())]


def _nonspace(text: str) -> int:
    return len(text) - sum(text.count(c) for c in " \t\n\r")


def prose_line(line: str) -> str:
    """A prose line as the rules read it: inline math removed, inline code kept only where it reads as a word."""
    return _reduce_inline(line)[0]


def _reduce_inline(line: str) -> tuple[str, int]:
    """``line`` with inline math removed and non-word inline code removed; returns the code chars removed."""
    removed = 0

    def code(match: re.Match[str]) -> str:
        nonlocal removed
        body = match.group(2).strip()
        if _WORDLIKE.match(body):
            return body
        removed += _nonspace(body)
        return ""

    if "`" in line:
        line = _INLINE_CODE.sub(code, line)
    if "$" in line:
        line = _INLINE_MATH.sub("", line)
    return line, removed


def split(text: str | None) -> TextParts:
    """The parts of ``text`` (see the module docstring); cached by value."""
    return _split(text or "")


@heap.per_wave
@lru_cache(maxsize=CACHE_SIZE)
def _split(text: str) -> TextParts:
    if not _MARKERS.search(text):
        return TextParts(prose=text, total_chars=_nonspace(text))  # plain prose: nothing to take apart
    prose: list[str] = []
    code: list[str] = []
    math: list[str] = []
    tables: list[str] = []
    code_chars = 0
    kinds: list[str] = []
    lines = text.splitlines()
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        stripped = line.strip()
        fence = _FENCE.match(line)
        if fence:
            mark = fence.group(1)
            j = i + 1
            while j < n and not (lines[j].strip().startswith(mark[0] * len(mark))
                                 and not lines[j].strip().strip(mark[0])):
                j += 1
            block = "\n".join(lines[i + 1:j])
            code.append(block)
            code_chars += _nonspace(block)
            prose.append("")
            kinds.extend(["code"] * (min(j, n - 1) - i + 1))
            i = j + 1
            continue
        if stripped.startswith("$$"):
            j = i
            if not (len(stripped) > 2 and stripped.endswith("$$") and len(stripped) >= 4):
                j = i + 1
                while j < n and not lines[j].rstrip().endswith("$$"):
                    j += 1
            math.append("\n".join(lines[i:j + 1]).strip().strip("$").strip())
            prose.append("")
            kinds.extend(["math"] * (min(j, n - 1) - i + 1))
            i = j + 1
            continue
        if _TABLE_ROW.match(stripped):
            j = i
            while j < n and _TABLE_ROW.match(lines[j].strip()):
                j += 1
            tables.append("\n".join(lines[i:j]))
            prose.append("")
            kinds.extend(["table"] * (j - i))
            i = j
            continue
        if _REPL_START.match(stripped):
            j = i
            while j < n and lines[j].strip():
                j += 1
            block = "\n".join(lines[i:j])
            code.append(block)
            code_chars += _nonspace(block)
            prose.append("")
            kinds.extend(["code"] * (j - i))
            i = j
            continue
        reduced, removed = _reduce_inline(line)
        code_chars += removed
        prose.append(reduced)
        kinds.append("prose")
        i += 1
    if not (code or math or tables) and all(a == b for a, b in zip(prose, lines, strict=True)):
        # Nothing was taken out ("$5", a stray "|"): the prose is the text, byte for byte, so the
        # published rules see exactly what they would have seen.
        return TextParts(prose=text, total_chars=_nonspace(text))
    return TextParts(prose=_tidy("\n".join(prose)), code=tuple(code), math=tuple(math), tables=tuple(tables),
                     code_chars=code_chars, total_chars=_nonspace(text), line_kinds=tuple(kinds))


_BLANKS = re.compile(r"\n[ \t]*(?:\n[ \t]*)+")


def _tidy(text: str) -> str:
    """Runs of blank lines (left where blocks were taken out) become one paragraph break."""
    return _BLANKS.sub("\n\n", text).strip("\n")
