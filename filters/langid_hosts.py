"""Host-level language: the distribution per host, and domain-level language ID for pages too short or too technical
for a confident verdict of their own (Apple's 2025 foundation-model report names domain-level language ID among
its web-data steps).

``HostLanguage`` is a Stage: it groups the documents of a wave by host (``www.`` removed), counts per host and
language the documents and characters (languages from ``filters.langid.LanguageID``, which must run before it),
and persists that distribution in the output (``_state/<name>/``, one Parquet file per wave: host, lang, docs,
chars, and the same counts over the confident pages only). ``host_language_distribution(OUT)`` (or
``python -m filters.langid_hosts OUT``) adds it up over all waves: the distribution comes from the data.

Domain-level language ID (``min_score``, ``fallback``): a page whose own lid.176 score is at least ``min_score``
keeps its verdict (``lang_source: page``), whatever its host's language. A page under it takes its host's language
(``lang_source: host``; ``lang_score`` stays the page's own score) when ``fallback`` is on and the host's language
is established: at least ``fallback_min_docs`` (3) confident pages, this wave's and the committed earlier waves', of
which the main language holds at least ``fallback_min_share`` (0.6) of the characters. Otherwise the page is
dropped (``low_score``, detail: its language and score), as ``LanguageID``'s ``min_score`` would drop it. Why: on
a code-heavy tutorial the prose beside the code is a few sentences full of identifiers, and lid.176 gives such
English pages 0.44-0.63; on SciPy's API reference 81 of 200 pages fall under FineWeb's 0.65, yet every confident
page of the site is English (bench/filters_quality.py). The default chain runs ``LanguageID`` without a threshold
and this stage with ``min_score: 0.65`` (datatrove/FineWeb) and ``fallback: true``.

Optional decisions at host level (drop reason in brackets):

- ``languages``: drop the documents of hosts whose main language (most characters) is not in the
  list (``host_not_in_languages``, detail: host and language), the way a crawl keeps target-language
  domains; a host's main language is decided within a wave.
- ``min_host_share``: drop a document whose language has less than this share of its host's characters
  (``off_host_language``): stray pages (a login wall, a mislabelled snippet) on a single-language host.

``kind``: ``document`` (default) or ``interleaved`` (text segments joined). Documents without a URL or language are
judged on their own verdict (``low_score`` under ``min_score``) and otherwise pass through.
"""

from __future__ import annotations

import hashlib
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pyarrow as pa
import pyarrow.compute as pc

from filters.text import check_kind
from pipelines import storage
from pipelines.arguments import check_number
from pipelines.step import Stage

KEY = "_host_key"
DISTRIBUTION_SCHEMA = pa.schema([pa.field("host", pa.string()), pa.field("lang", pa.string()),
                                 pa.field("docs", pa.int64()), pa.field("chars", pa.int64()),
                                 pa.field("confident_docs", pa.int64()), pa.field("confident_chars", pa.int64())])
KINDS = ("document", "interleaved")


def host_of(url: str | None) -> str | None:
    if not url:
        return None
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    return host.removeprefix("www.") if host else None


def _lengths(table: pa.Table) -> list[int]:
    """Characters of each row's text (a document's text, an interleaved document's text segments)."""
    if "text" in table.column_names:
        return pc.fill_null(pc.utf8_length(table.column("text")), 0).to_pylist()
    return [sum(len(s["text"] or "") for s in segs or () if s["kind"] == "text")
            for segs in table.column("segments").to_pylist()]


def thin_tombstones(table: pa.Table, step: str) -> pa.Table:
    """The rows ``step`` dropped with their text and segments emptied: a host-level stage's tombstones, as a Step's
    drops are (the reason and the scores stay, the bulk goes)."""
    mine = pc.starts_with(pc.fill_null(table.column("dropped_by"), ""), f"{step}.")
    for name in ("text", "segments"):
        if name in table.column_names:
            col = table.schema.get_field_index(name)
            table = table.set_column(col, table.schema.field(col), pc.if_else(
                mine, pa.scalar(None, table.schema.field(col).type), table.column(col)))
    return table


class HostLanguage(Stage):
    default_name = "host_langid"

    def __init__(self, languages: list[str] | None = None, min_host_share: float = 0.0, min_score: float = 0.0,
                 fallback: bool = False, fallback_min_docs: int = 3, fallback_min_share: float = 0.6,
                 kind: str = "document") -> None:
        if languages is not None and (not isinstance(languages, list) or not languages
                                      or not all(isinstance(x, str) and x for x in languages)):
            raise ValueError(f"languages must be a non-empty list of lid.176 codes, got {languages!r}")
        if not isinstance(fallback, bool):
            raise ValueError(f"fallback must be true or false, got {fallback!r}")
        self.input_kind = check_kind(kind, KINDS)
        self.languages = languages
        self.min_host_share = check_number("min_host_share", min_host_share, 0, 1)
        self.min_score = check_number("min_score", min_score, 0, 1)
        self.fallback = fallback
        self.fallback_min_docs = int(check_number("fallback_min_docs", fallback_min_docs, 1, integer=True))
        self.fallback_min_share = check_number("fallback_min_share", fallback_min_share, 0, 1)
        self.wave: str | None = None
        # confident characters per host and language in the committed earlier waves (read in bind_state)
        self.earlier: dict[str, dict[str, tuple[int, int]]] = {}

    def bind_state(self, state_dir: str, wave: str, completed_waves: set[str]) -> None:
        self.state_dir = state_dir
        self.wave = wave
        if self.fallback:
            self.earlier = _confident(state_dir, completed_waves - {wave})

    def summary(self, output_dir: str) -> dict[str, Any]:
        """The host language distribution over all committed waves, for stats.json."""
        return {"host_languages": host_language_distribution(output_dir, self.name)}

    def run(self, dataset: Any) -> Any:
        return dataset.map_batches(self._add_key).map_groups(KEY, self._by_host).map_batches(self._strip)

    def _add_key(self, table: pa.Table) -> pa.Table:
        live = pc.is_null(table.column("dropped_by")).to_pylist()
        keys = []
        for alive, url, lang, rid in zip(live, table.column("url").to_pylist(), table.column("lang").to_pylist(),
                                         table.column("id").to_pylist(), strict=True):
            host = host_of(url) if alive and lang else None
            keys.append(host or f"~{rid}")  # no host: a group of its own, judged on its own verdict
        return table.append_column(KEY, pa.array(keys, pa.string()))

    def _confident(self, score: float | None) -> bool:
        return not self.min_score or (score is not None and score >= self.min_score)

    def host_language(self, counts: dict[str, tuple[int, int]]) -> str | None:
        """The established language of a host from ``{lang: (confident docs, confident chars)}``, or None."""
        docs = sum(d for d, _ in counts.values())
        chars = sum(c for _, c in counts.values())
        if docs < self.fallback_min_docs or not chars:
            return None
        main = max(sorted(counts), key=lambda lg: counts[lg][1])
        return main if counts[main][1] / chars >= self.fallback_min_share else None

    def _by_host(self, table: pa.Table) -> pa.Table:
        keys = table.column(KEY).to_pylist()
        langs = table.column("lang").to_pylist()
        scores = table.column("lang_score").to_pylist()
        lengths = _lengths(table)
        chars: dict[str, Counter[str]] = defaultdict(Counter)
        confident: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
        for key, lang, score, n in zip(keys, langs, scores, lengths, strict=True):
            if not key.startswith("~"):
                chars[key][lang] += n
                if self._confident(score):
                    cell = confident[key][lang]
                    cell[0] += 1
                    cell[1] += n
        dropped_by = table.column("dropped_by").to_pylist()
        detail = table.column("drop_detail").to_pylist()
        source = table.column("lang_source").to_pylist()
        keep = set(self.languages or ())
        established: dict[str, str | None] = {}
        for i, (key, lang, score) in enumerate(zip(keys, langs, scores, strict=True)):
            if dropped_by[i] is not None:
                continue
            if not self._confident(score):
                host = None
                if self.fallback and not key.startswith("~"):
                    if key not in established:
                        counts = {lg: (d + self.earlier.get(key, {}).get(lg, (0, 0))[0],
                                       c + self.earlier.get(key, {}).get(lg, (0, 0))[1])
                                  for lg, (d, c) in confident[key].items()}
                        for lg, (d, c) in self.earlier.get(key, {}).items():
                            counts.setdefault(lg, (d, c))
                        established[key] = self.host_language(counts)
                    host = established[key]
                if host is None:
                    dropped_by[i], detail[i] = f"{self._name()}.low_score", f"{lang} {score or 0.0:.2f}"
                    continue
                langs[i], source[i] = host, "host"
            if key.startswith("~"):
                continue
            total = sum(chars[key].values())
            main = max(sorted(chars[key]), key=lambda lg: chars[key][lg])
            if keep and main not in keep:
                dropped_by[i], detail[i] = f"{self._name()}.host_not_in_languages", f"{key} {main}"
            elif self.min_host_share and total and chars[key][lang] / total < self.min_host_share:
                share = chars[key][lang] / total
                dropped_by[i], detail[i] = f"{self._name()}.off_host_language", f"{lang} {share:.2f} of {key}"
        for name, values in (("dropped_by", dropped_by), ("drop_detail", detail), ("lang", langs),
                             ("lang_source", source)):
            table = table.set_column(table.schema.get_field_index(name), name, pa.array(values, pa.string()))
        return table

    def _strip(self, table: pa.Table) -> pa.Table:
        """Persist this block's share of the distribution, thin this stage's tombstones, drop the key.

        Per block, not per group: Ray calls the group function once per host. Counts are additive, so
        a host spread over blocks adds up; the file name hashes the block's ids (a retried task
        overwrites its own file).
        """
        self._persist(table)
        if not self.annotate:  # rows dropped here travel on as thin tombstones
            table = thin_tombstones(table, self._name())
        return table.drop_columns([KEY])

    def _persist(self, table: pa.Table) -> None:
        if not getattr(self, "state_dir", None):
            return
        docs: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        prefix = f"{self._name()}."
        lengths = _lengths(table)
        for key, lang, by, n, score, src in zip(
                table.column(KEY).to_pylist(), table.column("lang").to_pylist(), table.column("dropped_by").to_pylist(),
                lengths, table.column("lang_score").to_pylist(), table.column("lang_source").to_pylist(), strict=True):
            if not key.startswith("~") and (by is None or by.startswith(prefix)):
                cell = docs[(key, lang)]
                cell[0] += 1
                cell[1] += n
                if by is None and src != "host" and self._confident(score):
                    cell[2] += 1
                    cell[3] += n
        if not docs:
            return
        rows = [{"host": h, "lang": lg, "docs": d, "chars": c, "confident_docs": cd, "confident_chars": cc}
                for (h, lg), (d, c, cd, cc) in sorted(docs.items())]
        digest = hashlib.blake2b("\n".join(table.column("id").to_pylist()).encode(), digest_size=8).hexdigest()
        # local or in the output's object store, whole or not at all (pipelines/storage.py)
        storage.write_parquet(pa.Table.from_pylist(rows, schema=DISTRIBUTION_SCHEMA),
                              storage.join(self.state_dir, f"{self.wave}-{digest}.parquet"))


def _confident(folder: str, waves: set[str]) -> dict[str, dict[str, tuple[int, int]]]:
    """``{host: {lang: (confident docs, confident chars)}}`` of the committed ``waves``' files in ``folder``."""
    out: dict[str, dict[str, tuple[int, int]]] = defaultdict(dict)
    for name in storage.list_names(folder):
        if not name.endswith(".parquet") or name.split("-", 1)[0] not in waves:
            continue
        table = storage.read_parquet(storage.join(folder, name))
        if "confident_docs" not in table.column_names:
            continue  # written before the confident counts were kept
        for row in table.to_pylist():
            d, c = out[row["host"]].get(row["lang"], (0, 0))
            out[row["host"]][row["lang"]] = (d + (row["confident_docs"] or 0), c + (row["confident_chars"] or 0))
    return dict(out)


def host_language_distribution(output_dir: str | Path, name: str = HostLanguage.default_name,
                               ) -> dict[str, dict[str, dict[str, int]]]:
    """``{host: {lang: {"docs": n, "chars": n}}}`` over every committed wave of an output folder."""
    folder = storage.join(str(output_dir), "_state", name)
    done = {n.removeprefix("wave-").removesuffix(".json")
            for n in storage.list_names(storage.join(str(output_dir), "_progress")) if n.startswith("wave-")}
    out: dict[str, dict[str, dict[str, int]]] = defaultdict(dict)
    for file_name in storage.list_names(folder):
        if not file_name.endswith(".parquet") or (done and file_name.split("-", 1)[0] not in done):
            continue
        for row in storage.read_parquet(storage.join(folder, file_name)).to_pylist():
            cell = out[row["host"]].setdefault(row["lang"], {"docs": 0, "chars": 0})
            cell["docs"] += row["docs"]
            cell["chars"] += row["chars"]
    return dict(sorted(out.items()))


def main(argv: list[str] | None = None) -> int:
    """``python -m filters.langid_hosts OUT/``: host, language, documents and share of the host's text."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m filters.langid_hosts OUTPUT_DIR", file=sys.stderr)
        return 2
    for host, langs in host_language_distribution(args[0]).items():
        total = sum(c["chars"] for c in langs.values()) or 1
        for lang, c in sorted(langs.items(), key=lambda kv: -kv[1]["chars"]):
            print(f"{host}\t{lang}\t{c['docs']}\t{c['chars'] / total:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
