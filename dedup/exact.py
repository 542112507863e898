"""Exact deduplication on normalised text.

Normalisation: Unicode NFKC, case folding, punctuation removed, whitespace collapsed: copies that
differ only in those are the same text (the normalisation CCNet and datatrove use for exact line
and document hashes, applied here to whole documents). Digest: BLAKE2b-128 of the normalised text.

Of each group of equal texts one representative is kept by a deterministic rule: earliest
``fetched_at`` (missing dates last), then smallest ``id``; the others are dropped as
``exact_duplicate`` with the kept id in ``drop_detail``. Same input, same kept set, on both runners.

Across waves and runs: the digests of kept rows are persisted in the output (``_state/<name>/``);
a later wave drops texts already kept by an earlier one (first written wins, as in incremental
dedup: written shards are never rewritten). Near-duplicates are the MinHash stage's job.
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipelines.step import Stage

KEY = "_exact_key"
_PUNCT_OR_SPACE = re.compile(r"[\W_]+", re.UNICODE)


def normalize(text: str) -> str:
    """NFKC, casefold, drop punctuation and symbols, collapse whitespace."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return _PUNCT_OR_SPACE.sub(" ", text).strip()


def text_digest(text: str) -> str:
    return hashlib.blake2b(normalize(text).encode("utf-8"), digest_size=16).hexdigest()


@functools.lru_cache(maxsize=4)
def _load_prior(files: tuple[str, ...]) -> frozenset[str]:
    """Digests kept by completed earlier waves; cached per worker process."""
    seen: set[str] = set()
    for f in files:
        seen.update(pq.read_table(f, columns=["digest"]).column("digest").to_pylist())
    return frozenset(seen)


class ExactDedup(Stage):
    """Keep one row per normalised text. ``field``: the text column (``text`` for documents)."""

    default_name = "exact_dedup"

    def __init__(self, field: str = "text") -> None:
        self.field = field
        self.wave: str | None = None
        self.prior_files: tuple[str, ...] = ()

    def bind_state(self, state_dir: str, wave: str, completed_waves: set[str]) -> None:
        """Called by the runner before each wave: where to persist, and which earlier files count."""
        self.state_dir = state_dir
        self.wave = wave
        folder = Path(state_dir)
        self.prior_files = tuple(sorted(
            str(p) for p in folder.glob("*.parquet") if p.name.split("-", 1)[0] in completed_waves))

    def run(self, dataset: Any) -> Any:
        return (dataset.map_batches(self._add_key)
                .map_groups(KEY, self._dedup)
                .map_batches(self._persist_and_strip))

    def _add_key(self, table: pa.Table) -> pa.Table:
        live = pc.is_null(table.column("dropped_by")).to_pylist()
        texts = table.column(self.field).to_pylist()
        ids = table.column("id").to_pylist()
        # Tombstones get a key of their own so they pass through the shuffle untouched.
        keys = [text_digest(t or "") if alive else f"~{i}" for t, alive, i in zip(texts, live, ids, strict=True)]
        return table.append_column(KEY, pa.array(keys, pa.string()))

    def _dedup(self, table: pa.Table) -> pa.Table:
        prior = _load_prior(self.prior_files) if self.prior_files else frozenset()
        # Missing dates sort last: a dated capture is the better representative.
        order = pc.sort_indices(table, sort_keys=[(KEY, "ascending", "at_end"), ("fetched_at", "ascending", "at_end"),
                                                  ("id", "ascending", "at_end")])
        table = table.take(order)
        keys = table.column(KEY).to_pylist()
        ids = table.column("id").to_pylist()
        dropped_by = table.column("dropped_by").to_pylist()
        detail = table.column("drop_detail").to_pylist()
        reason = f"{self._name()}.exact_duplicate"
        kept_id: dict[str, str] = {}
        for i, key in enumerate(keys):
            if key.startswith("~"):
                continue
            if key in prior:
                dropped_by[i], detail[i] = reason, "kept in an earlier wave"
            elif key in kept_id:
                dropped_by[i], detail[i] = reason, f"duplicate of {kept_id[key]}"
            else:
                kept_id[key] = ids[i]
        table = table.set_column(table.schema.get_field_index("dropped_by"), "dropped_by",
                                 pa.array(dropped_by, pa.string()))
        table = table.set_column(table.schema.get_field_index("drop_detail"), "drop_detail",
                                 pa.array(detail, pa.string()))
        if not self.annotate:
            # Dropped duplicates travel on as thin tombstones: identity columns only.
            keep_text = pc.is_null(table.column("dropped_by"))
            col = table.schema.get_field_index(self.field)
            table = table.set_column(col, table.schema.field(col),
                                     pc.if_else(keep_text, table.column(col), pa.scalar(None, table.column(col).type)))
        return table

    def _persist_and_strip(self, table: pa.Table) -> pa.Table:
        live = pc.is_null(table.column("dropped_by"))
        digests = table.filter(live).column(KEY)
        if len(digests) and self.state_dir:
            folder = Path(self.state_dir)
            folder.mkdir(parents=True, exist_ok=True)
            name = hashlib.blake2b("\n".join(digests.to_pylist()).encode(), digest_size=8).hexdigest()
            path = folder / f"{self.wave}-{name}.parquet"
            tmp = folder / f".{path.name}.tmp"
            pq.write_table(pa.table({"digest": digests}), tmp)
            tmp.replace(path)
        return table.drop_columns([KEY])
