"""Exact deduplication on normalised text.

Normalisation: Unicode NFKC, case folding, punctuation removed, whitespace collapsed: copies that
differ only in those are the same text (the normalisation CCNet and datatrove use for exact line
and document hashes, applied here to whole documents). Digest: BLAKE2b-128 of the normalised text.

Of each group of equal texts one representative is kept by a deterministic rule: earliest
``fetched_at`` (missing dates last), then smallest ``id``; the others are dropped as
``exact_duplicate`` with the kept id in ``drop_detail``. Same input, same kept set, on both runners.

Across waves and runs: the digests of kept rows are persisted in the output (``_state/<name>/``);
a later wave drops texts already kept by an earlier one (first written wins, as in incremental
dedup: written shards are never rewritten), and ``winnow run --dedup-against PREVIOUS_OUT`` adds the
digests kept by an earlier run. Near-duplicates are the MinHash stage's job (``dedup.near``).

Per output kind (``kind``, ``field``): documents by ``text``; interleaved documents by ``segments``
(their text segments joined); image-text pairs by ``image_url`` (one pair per image) or by
``[image_url, alt]`` (one pair per image and caption). A field whose name ends in ``url`` is compared
as a normalised URL (``normalize_url``), any other as normalised text; several fields form one key.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import re
import unicodedata
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pyarrow as pa
import pyarrow.compute as pc

from dedup.components import BUCKET, buckets_of
from pipelines import storage
from pipelines.records import schema_of
from pipelines.step import Stage

log = logging.getLogger(__name__)

KEY = "_exact_key"
_PUNCT_OR_SPACE = re.compile(r"[\W_]+", re.UNICODE)
# The bulky column of each kind, emptied in dropped rows (thin tombstones); image-text rows are small already.
BULK = {"document": "text", "interleaved": "segments"}
DEFAULT_FIELD = {"document": "text", "interleaved": "segments", "image_text": "image_url"}
# Query parameters that track the visit, not the resource (utm_* is matched by prefix).
_TRACKING = frozenset({"fbclid", "gclid", "dclid", "msclkid", "mc_cid", "mc_eid", "igshid", "_ga", "ref_src"})
_DEFAULT_PORTS = {"http": 80, "https": 443}


def normalize(text: str) -> str:
    """NFKC, casefold, drop punctuation and symbols, collapse whitespace."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return _PUNCT_OR_SPACE.sub(" ", text).strip()


def text_digest(text: str) -> str:
    return hashlib.blake2b(normalize(text).encode("utf-8"), digest_size=16).hexdigest()


def normalize_url(url: str) -> str:
    """Scheme folded to https, host lower-cased without a default port or trailing dot, fragment and tracking
    parameters (utm_*, fbclid, gclid, ...) removed, the other query parameters sorted."""
    url = url.strip()
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return url
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").rstrip(".")
    if port is not None and port != _DEFAULT_PORTS.get(scheme):
        host = f"{host}:{port}"
    query = sorted((k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
                   if not k.lower().startswith("utm_") and k.lower() not in _TRACKING)
    scheme = "https" if scheme in _DEFAULT_PORTS else scheme
    return urlunsplit((scheme, host, parts.path or "/", urlencode(query), ""))


def _segments_text(segments: list[dict[str, Any]] | None) -> str:
    return "\n".join(s["text"] for s in segments or () if s and s.get("kind") == "text" and s.get("text"))


def _value(name: str, value: Any) -> str:
    if name == "segments":
        return normalize(_segments_text(value))
    if name.endswith("url"):
        return normalize_url(value or "")
    return normalize(value or "")


def key_digest(names: tuple[str, ...], values: tuple[Any, ...]) -> str:
    """BLAKE2b-128 of the normalised field values (one field of text: ``text_digest``, unchanged)."""
    if names == ("text",):
        return text_digest(values[0] or "")
    joined = "\x1f".join(_value(n, v) for n, v in zip(names, values, strict=True))
    return hashlib.blake2b(joined.encode("utf-8"), digest_size=16).hexdigest()


def check_fields(kind: str, fields: tuple[str, ...]) -> None:
    """Raise ValueError (a config error, before any work) unless every field is a text column of ``kind``'s
    records, or ``segments`` of interleaved documents."""
    schema = schema_of(kind)
    for name in fields:
        if not isinstance(name, str) or name not in schema.names:
            texts = [f.name for f in schema if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)]
            raise ValueError(f"field {name!r} is not a column of {kind} records; text columns: {texts}")
        column_type = schema.field(name).type
        if name != "segments" and not (pa.types.is_string(column_type) or pa.types.is_large_string(column_type)):
            raise ValueError(f"field {name!r} of {kind} records is {column_type}, not text")


@functools.lru_cache(maxsize=64)
def _load_prior(files: tuple[str, ...]) -> frozenset[str]:
    """Digests kept by completed earlier waves (one bucket's files); cached per worker process."""
    seen: set[str] = set()
    for f in files:
        seen.update(storage.read_parquet(f, columns=["digest"]).column("digest").to_pylist())
    return frozenset(seen)


def _committed_files(folder: str, waves: set[str]) -> tuple[str, ...]:
    return tuple(storage.join(folder, n) for n in storage.list_names(folder)
                 if n.endswith(".parquet") and n.split("-", 1)[0] in waves)


_BUCKET_FILE = re.compile(r"^[^-]+-b(\d+)of(\d+)-")


def _files_of_bucket(files: tuple[str, ...], bucket: int, buckets: int) -> tuple[str, ...]:
    """The state files that may hold digests of ``bucket``: its own, and any written with another bucket count
    (or before digests were bucketed), which can hold digests of every bucket."""
    out = []
    for f in files:
        match = _BUCKET_FILE.match(storage.basename(f))
        if match is None or int(match.group(2)) != buckets or int(match.group(1)) == bucket:
            out.append(f)
    return tuple(out)


class ExactDedup(Stage):
    """Keep one row per normalised key. ``kind``: the record kind; ``field``: a column or a list of columns
    (default: ``text`` for documents, ``segments`` for interleaved documents, ``image_url`` for image-text)."""

    default_name = "exact_dedup"

    def __init__(self, field: str | list[str] | None = None, kind: str = "document", buckets: int = 32) -> None:
        if kind not in DEFAULT_FIELD:
            raise ValueError(f"kind must be one of {sorted(DEFAULT_FIELD)}, got {kind!r}")
        self.input_kind = kind  # type: ignore[misc]  # an instance may narrow the class default
        fields = field or DEFAULT_FIELD[kind]
        self.fields = (fields,) if isinstance(fields, str) else tuple(fields)
        if not self.fields:
            raise ValueError("field must name at least one column")
        check_fields(kind, self.fields)
        if isinstance(buckets, bool) or not isinstance(buckets, int) or buckets < 1:
            raise ValueError(f"buckets must be a whole number >= 1, got {buckets!r}")
        self.buckets = buckets
        self.field = self.fields[0]
        self.wave: str | None = None
        self.own_files: tuple[str, ...] = ()
        self.against_files: tuple[str, ...] = ()

    @property
    def prior_files(self) -> tuple[str, ...]:
        return self.own_files + self.against_files

    def bind_state(self, state_dir: str, wave: str, completed_waves: set[str]) -> None:
        """Called by the runner before each wave: where to persist, and which earlier files count."""
        self.state_dir = state_dir
        self.wave = wave
        self.own_files = _committed_files(state_dir, completed_waves)

    def bind_against(self, previous: list[tuple[str, set[str]]]) -> None:
        """Digests kept by earlier outputs (``--dedup-against``): this stage's state folder there, committed waves."""
        files: list[str] = []
        for folder, waves in previous:
            if not storage.list_names(folder):
                log.warning("%s: no state in %s (no row kept there by a stage of this name)", self._name(), folder)
            files.extend(_committed_files(folder, waves))
        self.against_files = tuple(files)

    def run(self, dataset: Any) -> Any:
        # Grouped by a bucket of the digest, not the digest: a shuffle group per distinct text meant one call of
        # the group function per text, and every call loaded every digest kept before. A bucket's group holds all
        # copies of its texts, and loads only its own bucket's earlier digests.
        return (dataset.map_batches(self._add_key, spread=True)
                .map_groups(BUCKET, self._dedup)
                .map_batches(self._persist_and_strip))

    def _add_key(self, table: pa.Table) -> pa.Table:
        live = pc.is_null(table.column("dropped_by")).to_pylist()
        values = list(zip(*(table.column(f).to_pylist() for f in self.fields), strict=True))
        ids = table.column("id").to_pylist()
        # Tombstones get a key of their own so they pass through the shuffle untouched.
        keys = pa.array([key_digest(self.fields, v) if alive else f"~{i}"
                         for v, alive, i in zip(values, live, ids, strict=True)], pa.string())
        return table.append_column(KEY, keys).append_column(BUCKET, buckets_of(keys, self.buckets))

    def _prior(self, table: pa.Table) -> frozenset[str] | set[str]:
        """Digests kept earlier, for the buckets in ``table`` (one on Ray; every bucket in ``--local``)."""
        if not self.prior_files:
            return frozenset()
        present = pc.unique(table.column(BUCKET)).to_pylist()
        if len(present) == 1:
            return _load_prior(_files_of_bucket(self.prior_files, present[0], self.buckets))
        seen: set[str] = set()
        for bucket in present:
            seen |= _load_prior(_files_of_bucket(self.prior_files, bucket, self.buckets))
        return seen

    def _dedup(self, table: pa.Table) -> pa.Table:
        prior = self._prior(table)
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
        bulk = BULK.get(self.input_kind)
        if not self.annotate and bulk:
            # Dropped duplicates travel on as thin tombstones: identity columns only.
            keep_text = pc.is_null(table.column("dropped_by"))
            col = table.schema.get_field_index(bulk)
            table = table.set_column(col, table.schema.field(col),
                                     pc.if_else(keep_text, table.column(col), pa.scalar(None, table.column(col).type)))
        return table

    def _persist_and_strip(self, table: pa.Table) -> pa.Table:
        live = table.filter(pc.is_null(table.column("dropped_by")))
        if live.num_rows and self.state_dir:
            # One file per bucket (``<wave>-b<bucket>of<buckets>-<hash>``): a later wave's group reads its own.
            # Written whole or not at all, locally or in the output's store (pipelines.storage).
            for bucket in pc.unique(live.column(BUCKET)).to_pylist():
                digests = live.filter(pc.equal(live.column(BUCKET), bucket)).column(KEY)
                name = hashlib.blake2b("\n".join(digests.to_pylist()).encode(), digest_size=8).hexdigest()
                path = storage.join(self.state_dir, f"{self.wave}-b{bucket}of{self.buckets}-{name}.parquet")
                storage.write_parquet(pa.table({"digest": digests}), path)
        return table.drop_columns([KEY, BUCKET])
