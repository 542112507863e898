"""Host-level language distribution (domain-level language ID, as in Apple's web-data pipeline).

``HostLanguage`` is a Stage: it groups the documents of a wave by host (``www.`` removed), counts
per host and language the documents and characters (languages from ``filters.langid.LanguageID``,
which must run before it), and persists that distribution in the output (``_state/<name>/``, one
Parquet file per wave: host, lang, docs, chars). ``host_language_distribution(OUT)`` (or
``python -m filters.langid_hosts OUT``) adds it up over all waves: the distribution comes from the data.

Optional decisions at host level (drop reason in brackets):

- ``languages``: drop the documents of hosts whose main language (most characters) is not in the
  list (``host_not_in_languages``, detail: host and language), the way a crawl keeps target-language
  domains; a host's main language is decided within a wave.
- ``min_host_share``: drop a document whose language has less than this share of its host's characters
  (``off_host_language``): stray pages (a login wall, a mislabelled snippet) on a single-language host.

Documents without a URL or language pass through untouched.
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
import pyarrow.parquet as pq

from filters.text import check_number
from pipelines.step import Stage

KEY = "_host_key"
DISTRIBUTION_SCHEMA = pa.schema([pa.field("host", pa.string()), pa.field("lang", pa.string()),
                                 pa.field("docs", pa.int64()), pa.field("chars", pa.int64())])


def host_of(url: str | None) -> str | None:
    if not url:
        return None
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    return host.removeprefix("www.") if host else None


class HostLanguage(Stage):
    default_name = "host_langid"

    def __init__(self, languages: list[str] | None = None, min_host_share: float = 0.0) -> None:
        if languages is not None and (not isinstance(languages, list) or not languages
                                      or not all(isinstance(x, str) and x for x in languages)):
            raise ValueError(f"languages must be a non-empty list of lid.176 codes, got {languages!r}")
        self.languages = languages
        self.min_host_share = check_number("min_host_share", min_host_share, 0, 1)
        self.wave: str | None = None

    def bind_state(self, state_dir: str, wave: str, completed_waves: set[str]) -> None:
        self.state_dir = state_dir
        self.wave = wave

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
            keys.append(host or f"~{rid}")  # no host: a group of its own, passed through
        return table.append_column(KEY, pa.array(keys, pa.string()))

    def _by_host(self, table: pa.Table) -> pa.Table:
        keys = table.column(KEY).to_pylist()
        langs = table.column("lang").to_pylist()
        lengths = pc.fill_null(pc.utf8_length(table.column("text")), 0).to_pylist()
        chars: dict[str, Counter[str]] = defaultdict(Counter)
        for key, lang, n in zip(keys, langs, lengths, strict=True):
            if not key.startswith("~"):
                chars[key][lang] += n
        dropped_by = table.column("dropped_by").to_pylist()
        detail = table.column("drop_detail").to_pylist()
        keep = set(self.languages or ())
        for i, (key, lang) in enumerate(zip(keys, langs, strict=True)):
            if key.startswith("~"):
                continue
            total = sum(chars[key].values())
            main = max(sorted(chars[key]), key=lambda lg: chars[key][lg])
            if keep and main not in keep:
                dropped_by[i], detail[i] = f"{self._name()}.host_not_in_languages", f"{key} {main}"
            elif self.min_host_share and total and chars[key][lang] / total < self.min_host_share:
                share = chars[key][lang] / total
                dropped_by[i], detail[i] = f"{self._name()}.off_host_language", f"{lang} {share:.2f} of {key}"
        table = table.set_column(table.schema.get_field_index("dropped_by"), "dropped_by",
                                 pa.array(dropped_by, pa.string()))
        return table.set_column(table.schema.get_field_index("drop_detail"), "drop_detail",
                                pa.array(detail, pa.string()))

    def _strip(self, table: pa.Table) -> pa.Table:
        """Persist this block's share of the distribution, thin this stage's tombstones, drop the key.

        Per block, not per group: Ray calls the group function once per host. Counts are additive, so
        a host spread over blocks adds up; the file name hashes the block's ids (a retried task
        overwrites its own file).
        """
        self._persist(table)
        if not self.annotate:  # rows dropped here travel on as thin tombstones
            col = table.schema.get_field_index("text")
            mine = pc.starts_with(pc.fill_null(table.column("dropped_by"), ""), f"{self._name()}.")
            table = table.set_column(col, table.schema.field(col), pc.if_else(
                mine, pa.scalar(None, pa.large_string()), table.column("text")))
        return table.drop_columns([KEY])

    def _persist(self, table: pa.Table) -> None:
        if not getattr(self, "state_dir", None):
            return
        docs: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
        prefix = f"{self._name()}."
        lengths = pc.fill_null(pc.utf8_length(table.column("text")), 0).to_pylist()
        for key, lang, by, n in zip(table.column(KEY).to_pylist(), table.column("lang").to_pylist(),
                                    table.column("dropped_by").to_pylist(), lengths, strict=True):
            if not key.startswith("~") and (by is None or by.startswith(prefix)):
                cell = docs[(key, lang)]
                cell[0] += 1
                cell[1] += n
        if not docs:
            return
        rows = [{"host": h, "lang": lg, "docs": d, "chars": c} for (h, lg), (d, c) in sorted(docs.items())]
        folder = Path(self.state_dir)
        folder.mkdir(parents=True, exist_ok=True)
        digest = hashlib.blake2b("\n".join(table.column("id").to_pylist()).encode(), digest_size=8).hexdigest()
        path = folder / f"{self.wave}-{digest}.parquet"
        tmp = folder / f".{path.name}.tmp"
        pq.write_table(pa.Table.from_pylist(rows, schema=DISTRIBUTION_SCHEMA), tmp)
        tmp.replace(path)


def host_language_distribution(output_dir: str | Path, name: str = HostLanguage.default_name,
                               ) -> dict[str, dict[str, dict[str, int]]]:
    """``{host: {lang: {"docs": n, "chars": n}}}`` over every committed wave of an output folder."""
    folder = Path(output_dir) / "_state" / name
    done = {p.stem.removeprefix("wave-") for p in (Path(output_dir) / "_progress").glob("wave-*.json")}
    out: dict[str, dict[str, dict[str, int]]] = defaultdict(dict)
    for path in sorted(folder.glob("*.parquet")):
        if done and path.name.split("-", 1)[0] not in done:
            continue
        for row in pq.read_table(path).to_pylist():
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
