"""MinHash near-duplicate removal as a Stage: LSH bands grouped with a shuffle, connected components, one keeper.

Per wave (all passes go through the Dataset interface, so the same code runs in-process and on Ray):

1. signatures: every live document's text (interleaved documents: their text segments joined) is shingled and
   MinHashed (``dedup.minhash``: 5-word shingles, character 5-grams for languages written without spaces, 14 bands
   x 8 rows as FineWeb, datasketch's affine32 MinHash);
2. band rows (band key, document key) are grouped by a bucket of the key with a hash shuffle; within a bucket,
   documents sharing a band key become candidate pairs (the smallest document linked to each other one; with
   verification, every pair of a group of up to ``max_pairs_group``). Band rows of committed earlier waves and of
   ``--dedup-against`` outputs are read from their bucket's state files and join the groups, so documents already
   written are matched without being re-hashed;
3. optional verification: a candidate pair survives only if the true Jaccard similarity of the two shingle sets
   reaches ``verify`` (shingle sets are looked up per bucket: edges keyed by one end, then the other);
4. connected components of the surviving pairs, distributed (``dedup.components``, large-star / small-star);
5. in each component the smallest document key is kept: documents written earlier first, then earliest
   ``fetched_at`` (missing dates last), then smallest ``id`` (the exact-dedup rule); every other document is
   dropped as ``near_duplicate`` with the keeper's id in ``drop_detail``. The decisions (one row per dropped
   document: its key and its keeper's) are written per bucket, and every worker loads them once to mark its
   batches; they stay in the state folder as the wave's audit trail.

The band index of every live document that reached the stage is persisted (``dedup.state``), dropped ones
included: a later document that is near a dropped one is then dropped too, as it would have been had both been
in the same wave (the component's keeper is already written).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import time
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from dedup import state
from dedup.banded import PRIOR, BandedDedup, label_map
from dedup.components import BUCKET, EDGE_SCHEMA, buckets_of
from dedup.exact import check_fields
from dedup.minhash import MinHashParams, band_keys, choose_bands, jaccard, shingle_hashes, signatures

log = logging.getLogger(__name__)

_TS_OFFSET = 1 << 62  # keeps pre-1970 timestamps positive in the 16-hex-digit key
_NO_DATE = "~" * 16  # sorts after every hex digit: undated documents lose to dated ones
FIELDS = {"document": "text", "interleaved": "segments"}
_VERIFY_SCHEMA = pa.schema([*EDGE_SCHEMA, pa.field("u_sh", pa.list_(pa.uint32()))])


def doc_keys(table: pa.Table) -> pa.Array:
    """"1" + 16 hex digits of fetched_at (or "~" x 16) + id: string order is the representative rule."""
    micros = table.column("fetched_at").cast(pa.int64()).to_pylist()
    ids = table.column("id").to_pylist()
    return pa.array([f"1{_NO_DATE if t is None else format(t + _TS_OFFSET, '016x')}{i}"
                     for t, i in zip(micros, ids, strict=True)], pa.string())


def id_of(node: str) -> str:
    return node.lstrip(PRIOR)[17:]


def _raw(nodes: pa.Array | pa.ChunkedArray) -> pa.Array:
    """Document keys without the prior marker (state files and buckets use these)."""
    return pc.utf8_ltrim(nodes, characters=PRIOR)


def joined_text(segments: list[dict[str, Any]] | None) -> str:
    """The text of an interleaved document: its text segments in order, one per line."""
    return "\n".join(s["text"] for s in segments or () if s and s.get("kind") == "text" and s.get("text"))


class MinHashDedup(BandedDedup):
    """Drop near-duplicate documents (MinHash LSH); see the module docstring.

    ``kind``/``field``: ``document`` by ``text`` (default) or ``interleaved`` by ``segments`` (joined text).
    ``bands``/``rows``: explicit LSH shape, FineWeb's 14 x 8 by default; or ``threshold``: the shape datasketch's
    ``MinHashLSH`` picks for that Jaccard threshold. ``num_perm`` defaults to bands x rows. ``verify``: keep only
    candidate pairs whose true Jaccard similarity is at least this (None: every LSH candidate, as FineWeb).
    ``buckets``: shuffle groups and state files per wave.
    """

    default_name = "minhash_dedup"
    bands_schema = state.BANDS_SCHEMA
    rows_word = "document"

    def __init__(self, kind: str = "document", field: str | None = None, bands: int | None = None,
                 rows: int | None = None, threshold: float | None = None, num_perm: int | None = None,
                 ngram: int = 5, char_ngram: int = 5, seed: int = 1, verify: float | None = None,
                 buckets: int = 32, max_pairs_group: int = 16) -> None:
        if kind not in FIELDS:
            raise ValueError(f"kind must be one of {sorted(FIELDS)}, got {kind!r}")
        if threshold is not None and (bands is not None or rows is not None):
            raise ValueError("give either bands and rows, or threshold, not both")
        if (bands is None) != (rows is None):
            raise ValueError("give bands and rows together")
        for name, value in (("bands", bands), ("rows", rows), ("num_perm", num_perm), ("ngram", ngram),
                            ("char_ngram", char_ngram), ("buckets", buckets)):
            # None means "the default"; 0 or a string must not quietly become FineWeb's 14 x 8.
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
        if threshold is not None:
            if isinstance(threshold, bool) or not isinstance(threshold, int | float) or not 0.0 < threshold < 1.0:
                raise ValueError(f"threshold must be in (0, 1), got {threshold!r}")
            bands, rows = choose_bands(threshold, num_perm or 112)
        if bands is None:
            bands, rows = 14, 8
        if num_perm is not None and num_perm < bands * rows:
            raise ValueError(f"num_perm {num_perm} is fewer than bands x rows = {bands * rows}")
        if verify is not None and not 0.0 < verify <= 1.0:
            raise ValueError(f"verify must be a Jaccard threshold in (0, 1], got {verify}")
        if buckets < 1 or max_pairs_group < 2:
            raise ValueError("buckets must be >= 1 and max_pairs_group >= 2")
        self.input_kind = kind  # type: ignore[misc]  # an instance may narrow the class default
        self.field = field or FIELDS[kind]
        check_fields(kind, (self.field,))
        self.params = MinHashParams(num_perm=num_perm or bands * rows, bands=bands, rows=rows, ngram=ngram,
                                    char_ngram=char_ngram, seed=seed)
        self.verify = verify
        self.buckets = buckets
        self.max_pairs_group = max_pairs_group
        self._init_state()
        self.prior_shingles: tuple[str, ...] = ()
        self.wave_shingles: tuple[str, ...] = ()

    @property
    def state_params(self) -> dict[str, object]:
        return {**self.params.as_dict(), "buckets": self.buckets}

    # -- the stage --------------------------------------------------------------------------------------------
    def run(self, dataset: Any) -> Any:
        self._start_wave("winnow-minhash-")
        self.prior_shingles = (state.committed(self._folders(), "shingles").get(-1, ()) if self.verify is not None
                               else ())

        clock = _Clock()
        docs = dataset.materialize()
        clock.lap("input")
        sigs = docs.map_batches(self._sign, spread=True).materialize()
        clock.lap("signatures")
        edges = sigs.map_batches(self._band_rows).map_groups(BUCKET, self._candidates).materialize()
        clock.lap("band groups")
        if self.verify is not None:
            self.wave_shingles = state.wave_files(self.work_dir, self.wave, "shingles")
            edges = (edges.map_batches(functools.partial(self._key_by, "u")).map_groups(BUCKET, self._attach_u)
                     .map_batches(functools.partial(self._key_by, "v")).map_groups(BUCKET, self._check_v)
                     .materialize())
            clock.lap("verification")
        dropped = self._decide(edges)
        clock.lap("components and decisions")
        log.info("%s wave %s: %d near-duplicate(s); seconds: %s", self._name(), self.wave, dropped, clock)
        return docs.map_batches(self._apply)

    # -- pass 1: signatures -----------------------------------------------------------------------------------
    def _texts(self, table: pa.Table) -> pa.Array:
        if self.field == "segments":
            return pa.array([joined_text(s) for s in table.column("segments").to_pylist()], pa.large_string())
        return table.column(self.field).combine_chunks()

    def _sign(self, table: pa.Table) -> pa.Table:
        live = table.filter(pc.is_null(table.column("dropped_by")))
        langs = live.column("lang").to_pylist() if "lang" in live.column_names else None
        shingles, counts = shingle_hashes(self._texts(live), langs, self.params)
        has = np.flatnonzero(counts > 0)
        keys = band_keys(signatures(shingles, counts, self.params)[has], self.params)
        cols: dict[str, pa.Array] = {
            "dkey": doc_keys(live).take(pa.array(has, pa.int64())),
            "keys": pa.FixedSizeListArray.from_arrays(pa.array(keys.ravel(), pa.uint64()), self.params.bands),
        }
        if self.verify is not None and len(has):
            # Shingle hashes as computed (repeats included), kept for verification and later runs; sets are formed
            # only for candidate pairs.
            assert self.work_dir is not None
            dkeys = cols["dkey"]
            offsets = np.concatenate(([0], np.cumsum(counts[has]))).astype(np.int32)
            rows = pa.table({"dkey": dkeys, "shingles": pa.ListArray.from_arrays(
                pa.array(offsets), pa.array(shingles, pa.uint32()))}, schema=state.SHINGLES_SCHEMA)
            name = hashlib.blake2b("\n".join(dkeys.to_pylist()).encode(), digest_size=8).hexdigest()
            state.write_by_bucket(self.work_dir, f"{self.wave}-shingles-{name}.parquet", rows,
                                  buckets_of(_raw(dkeys), self.buckets), self.state_params)
        return pa.table(cols)

    def _band_rows(self, table: pa.Table) -> pa.Table:
        keys = table.column("keys").combine_chunks().flatten().to_numpy(zero_copy_only=False)
        owner = np.repeat(np.arange(table.num_rows), self.params.bands)
        return pa.table({"key": pa.array(keys, pa.uint64()), "dkey": table.column("dkey").take(pa.array(owner)),
                         BUCKET: pa.array((keys % np.uint64(self.buckets)).astype(np.int32))})

    # -- pass 2: band groups -> candidate pairs ---------------------------------------------------------------
    def _candidates_in(self, bucket: int, table: pa.Table) -> pa.Table:
        rows = self._band_group(bucket, table)
        if rows.num_rows < 2:
            return EDGE_SCHEMA.empty_table()
        keys = rows.column("key").to_numpy()
        fresh = pc.invert(pc.starts_with(rows.column("dkey"), PRIOR)).to_numpy(zero_copy_only=False)
        first = np.concatenate(([True], keys[1:] != keys[:-1]))
        starts = np.flatnonzero(first)
        sizes = np.diff(np.append(starts, len(keys)))
        group = np.cumsum(first) - 1
        wanted = (sizes > 1) & (np.add.reduceat(fresh, starts) > 0)  # groups with a document of this wave
        small = wanted & (sizes > 2) & (sizes <= self.max_pairs_group)
        if self.verify is None:
            small[:] = False
        # Star: the group's smallest document with each other member (a pair: the pair).
        member = np.flatnonzero(~first & (wanted & ~small)[group])
        left, right = [starts[group[member]]], [member]
        # With verification, every pair of a small group: a failed check on one pair cannot cut the others.
        for start, size in zip(starts[small], sizes[small], strict=True):
            i, j = np.triu_indices(size, k=1)
            left.append(start + i)
            right.append(start + j)
        u, v = np.concatenate(left), np.concatenate(right)
        keep = fresh[u] | fresh[v]  # pairs of documents written earlier were decided then
        dkey = rows.column("dkey")
        return pa.table({"u": dkey.take(pa.array(u[keep])), "v": dkey.take(pa.array(v[keep]))}).cast(EDGE_SCHEMA)

    # -- pass 3 (optional): true Jaccard of candidate pairs ---------------------------------------------------
    def _shingles(self, bucket: int, nodes: pa.Array) -> pa.Table:
        """(dkey, shingles) of the wanted nodes of one bucket: this wave's sets, and earlier ones if asked for."""
        found = state.read_bucket(self.wave_shingles, bucket, state.SHINGLES_SCHEMA)
        if pc.any(pc.starts_with(nodes, PRIOR)).as_py():
            prior = state.read_bucket(self.prior_shingles, bucket, state.SHINGLES_SCHEMA)
            prior = prior.set_column(0, "dkey", pc.binary_join_element_wise(PRIOR, prior.column("dkey"), ""))
            found = pa.concat_tables([found, prior])
        return found.filter(pc.is_in(found.column("dkey"), value_set=nodes))

    def _key_by(self, end: str, table: pa.Table) -> pa.Table:
        return table.append_column(BUCKET, buckets_of(_raw(table.column(end)), self.buckets))

    def _attach_u(self, table: pa.Table) -> pa.Table:
        out = []
        for b in pc.unique(table.column(BUCKET)).to_pylist():
            edges = table.filter(pc.equal(table.column(BUCKET), b)).select(["u", "v"])
            edges = edges.group_by(["u", "v"], use_threads=False).aggregate([])
            u_sh = _lookup(self._shingles(b, pc.unique(edges.column("u"))), edges.column("u"))
            out.append(edges.append_column("u_sh", u_sh).cast(_VERIFY_SCHEMA))
        return pa.concat_tables(out) if out else _VERIFY_SCHEMA.empty_table()

    def _check_v(self, table: pa.Table) -> pa.Table:
        out = []
        for b in pc.unique(table.column(BUCKET)).to_pylist():
            edges = table.filter(pc.equal(table.column(BUCKET), b))
            v_sh = _lookup(self._shingles(b, pc.unique(edges.column("v"))), edges.column("v"))
            keep = _jaccard_at_least(edges.column("u_sh").combine_chunks(), v_sh, self.verify or 0.0)
            out.append(edges.filter(pa.array(keep)).select(["u", "v"]).cast(EDGE_SCHEMA))
        return pa.concat_tables(out) if out else EDGE_SCHEMA.empty_table()

    # -- pass 4: decisions ------------------------------------------------------------------------------------
    def _apply(self, table: pa.Table) -> pa.Table:
        if not self.label_files or table.num_rows == 0:
            return table
        roots = label_map(self.label_files)
        live = pc.is_null(table.column("dropped_by")).to_numpy(zero_copy_only=False)
        keys = doc_keys(table).to_pylist()
        dropped_by = table.column("dropped_by").to_pylist()
        detail = table.column("drop_detail").to_pylist()
        reason = f"{self._name()}.near_duplicate"
        hit = np.zeros(table.num_rows, dtype=bool)
        for i in np.flatnonzero(live):
            root = roots.get(keys[i])
            if root is not None:
                hit[i] = True
                dropped_by[i] = reason
                earlier = ", written earlier" if root.startswith(PRIOR) else ""
                detail[i] = f"near duplicate of {id_of(root)}{earlier}"
        return self._marked(table, hit, dropped_by, detail, self.field)


def _lookup(found: pa.Table, nodes: pa.ChunkedArray) -> pa.Array:
    """The shingle list of each node (null where none was persisted, e.g. an earlier run without verification)."""
    at = pc.index_in(nodes, value_set=found.column("dkey").combine_chunks())
    at = at.combine_chunks() if isinstance(at, pa.ChunkedArray) else at
    return found.column("shingles").combine_chunks().take(at)


def _jaccard_at_least(left: pa.ListArray, right: pa.ListArray, threshold: float) -> np.ndarray:
    """Per row: true Jaccard of the two shingle sets >= threshold; a pair with a missing side is kept."""
    lo, lv = left.offsets.to_numpy(), left.values.to_numpy()
    ro, rv = right.offsets.to_numpy(), right.values.to_numpy()
    lnull = left.is_null().to_numpy(zero_copy_only=False)
    rnull = right.is_null().to_numpy(zero_copy_only=False)
    keep = np.ones(len(left), dtype=bool)
    for i in range(len(left)):
        if not (lnull[i] or rnull[i]):
            keep[i] = jaccard(_distinct(lv[lo[i]:lo[i + 1]]), _distinct(rv[ro[i]:ro[i + 1]])) >= threshold
    return keep


def _distinct(values: np.ndarray) -> np.ndarray:
    """Sorted distinct values (np.unique's hash path is slower on these sizes)."""
    ordered = np.sort(values)
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))] if len(ordered) else ordered


class _Clock:
    """Seconds per phase, for the log line of each wave."""

    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.laps: dict[str, float] = {}

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name] = round(now - self.last, 2)
        self.last = now

    def __str__(self) -> str:
        return ", ".join(f"{k} {v}" for k, v in self.laps.items())
