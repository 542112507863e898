"""Image dedup as a Stage: exact (sha256) and perceptual (pHash / dHash) duplicates, LSH bands, one keeper per group.

Per wave (every pass goes through the Dataset interface, so the same code runs in-process and on Ray):

1. band rows: every live image row with hashes gives one row per band of each hash used (``match``: see below),
   plus one "exact" row keyed by its sha256. A band is a contiguous slice of the 64-bit hash (``bands`` slices, as
   equal as 64 bits allow); rows sharing a band value are candidates. Pigeonhole: two hashes at Hamming distance
   ``d`` differ in at most ``d`` bands, so with ``bands > threshold`` every pair within the threshold shares a band
   and is found (the default number is below, under **Bands**);
2. the band rows are grouped by a bucket of the band key with a hash shuffle. Within a band group, candidates are
   verified (exact rows: the whole sha256 is equal; perceptual rows: ``dedup.image_hash``'s Hamming distance within
   the thresholds, all pairs of the group's distinct hash values, vectorised), the verified pairs are joined into
   local components, and each local component is emitted as a star from its smallest node: at most n - 1 edges
   per group, and the components over all groups are the same as over every verified pair;
3. connected components of those edges, distributed (``dedup.components``, large-star / small-star): no pass of all
   edges through one process (ARCHITECTURE.md, the anchors' scaling failure);
4. one keeper per component, the smallest node key, which encodes the keeper rule: rows written by an earlier wave
   first (they are already out), then the highest ``clip_score`` (rows with a score before rows without), then the best
   text (the pair's ``text``, else ``alt``, else ``caption``): one that passes DataComp's basic caption rule (more than
   2 words and more than 5 characters, Gadre et al. 2023, "DataComp", basic filtering) before one that does not, then
   more words; then the larger image as fetched (``original_width x original_height``, else the stored size); then the
   smallest ``id``. Every other row of the component is dropped: ``<stage>.duplicate`` when its bytes are the keeper's
   (same sha256), ``<stage>.near_duplicate`` otherwise, with ``drop_detail`` "duplicate of <keeper id>" / "near
   duplicate of <keeper id>" (", written earlier" when the keeper is in an earlier wave or output). Dropped rows keep
   their columns except ``image`` (thin tombstones; ``annotate`` keeps the bytes, for tuning).

Only image-text pairs take part by default (``outputs``): the images of interleaved documents pass through, since a
document that lost an image because the same picture is elsewhere would no longer read as written. Rows already
dropped, and rows without hashes (null ``sha256``/``phash``/``dhash``, or a value that is not 16 hex
digits: counted in the log), pass through untouched; a row with only a sha256 takes part in exact dedup only.

**Thresholds and how the hashes combine** (``match``; figures from ``bench/image_dedup_bench.py``: 1,200 base images
cut from 17 real photographs, hard negatives included (overlapping crops of one photo, texture crops), 794 planted
copies: resized 0.5x/0.75x/1.5x, re-encoded JPEG q30-90 / PNG / WEBP, cropped 1-5% a side, and combinations).
Published starting points: Krawetz, who designed dHash ("Kind of Like That", hackerfactor.com, 2013): distance 0
the same picture, 1-10 "potentially a variation", more than 10 "likely a different image"; the Haskell binding of
the pHash library (``Data.PHash.imagesSimilar``, hackage phash 0.0.3): "15 seems to be a reasonable default" for
the 64-bit DCT hash. Measured on the bench, neither hash alone reaches the target (recall and precision >= 0.95):
pHash alone at 10 gave precision 0.940 / recall 0.926 (at 12: 0.890 / 0.933), dHash alone at 10 0.838 / 0.879
(dHash puts unrelated sky, dark and texture crops within 1-10 bits: 364 negative pairs at <= 10, against 96 for
pHash), and ``either`` is worse still (0.800 / 0.894 at 10 / 10). The two hashes err on different pairs, so
requiring ``both`` removes most false matches: ``match="both"`` with pHash <= 14 and dHash <= 12 (the default) gave
precision 0.987 / recall 0.965 on the main set, and over six more sets built with other seeds precision >= 0.982
(mean 0.988) and recall >= 0.969 (mean 0.973). 12 / 12 was more precise but its recall touched the target (min
0.950), 14 / 14 was the other way round (precision min 0.973); a wrong drop loses a distinct image, a missed copy
only keeps some redundancy, so the default leans to precision within the target. Most misses are crops (a 5% crop
shifts pHash's DCT grid: the largest planted pHash distance was 32 bits).

**Bands.** Pigeonhole guarantees every pair within threshold t with t + 1 bands, but 15 bands of 4-5 bits make
59% of all pairs candidates on the bench (brute force, near enough). The default is ``min(t + 1, 10)``: at t <= 9
the guarantee; at pHash 14, 10 bands held 1,613 of the 1,617 pairs within 14 bits and gave the same stage
precision and recall as 15 bands on all seven sets, with 14% of all pairs as candidates (8 bands: 4%, recall min
0.960; 6 bands: 0.7%, 0.939). ``bands: 15`` restores the guarantee. Cost: the pairs of a band group are compared
densely (numpy), about n^2 x bands / 2^(64 / bands) / 2 comparisons per wave, spread over the shuffle buckets.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from dedup.banded import BandedDedup, label_map
from dedup.components import BUCKET, EDGE_SCHEMA
from dedup.image_hash import HASH_BITS
from dedup.image_keys import (
    PRIOR,
    band_keys,
    hash_fallback,
    id_of,
    is_hex,
    node_keys,
    parse_hashes,
    popcount,
    sha_of,
)

log = logging.getLogger(__name__)

MATCHES = ("phash", "dhash", "both", "either")
OUTPUTS = ("image_text", "interleaved")
# Default bands: threshold + 1 (the pigeonhole guarantee) up to this; beyond it, measured (module docstring).
DEFAULT_MAX_BANDS = 10
# Band rows and the persisted band index: band key, node key, both hashes (null when missing) for verification.
BANDS_SCHEMA = pa.schema([pa.field("key", pa.uint64()), pa.field("dkey", pa.string()),
                          pa.field("ph", pa.uint64()), pa.field("dh", pa.uint64())])
# Cells of one block x group matrix of distances per numpy call (about 32 MB per uint64 temporary): a 5-bit band
# of a million images is a group of ~30,000 rows, which must not become a 30,000 x 30,000 matrix at once.
_PAIR_CELLS = 1 << 22


class ImageDedup(BandedDedup):
    """Drop exact and perceptual duplicate images (sha256; pHash/dHash LSH); see the module docstring.

    ``match``: which perceptual hashes decide a pair: ``phash``, ``dhash``, ``both`` (within both thresholds) or
    ``either`` (within either); ``None`` turns perceptual dedup off (exact only). Default: ``both``, pHash 14, dHash 12.
    ``phash_threshold`` / ``dhash_threshold``: the largest Hamming distance (bits of 64) still called a duplicate.
    ``bands``: LSH bands per banded hash (default: threshold + 1, which finds every pair within the threshold, at most
    10: measured, see the module docstring).
    ``exact``: also group identical bytes (sha256). ``buckets``: shuffle groups and state files per wave.
    ``outputs``: the rows taken part, by their ``output`` column (default ``image_text``; a row without one takes
    part): an interleaved document's images pass through, since a document that lost an image because the same
    picture is elsewhere would no longer read as written.
    """

    input_kind = "image"
    default_name = "image_dedup"
    bands_schema = BANDS_SCHEMA
    rows_word = "image"

    def __init__(self, match: str | None = "both", phash_threshold: int = 14, dhash_threshold: int = 12,
                 bands: int | None = None, exact: bool = True, buckets: int = 32,
                 outputs: list[str] | tuple[str, ...] = ("image_text",)) -> None:
        if match is not None and match not in MATCHES:
            raise ValueError(f"match must be one of {list(MATCHES)} or null, got {match!r}")
        for name, value, low in (("phash_threshold", phash_threshold, 0), ("dhash_threshold", dhash_threshold, 0),
                                 ("buckets", buckets, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value < HASH_BITS:
                raise ValueError(f"{name} must be a whole number in [{low}, {HASH_BITS - 1}], got {value!r}")
        if bands is not None and (isinstance(bands, bool) or not isinstance(bands, int) or not 1 <= bands <= 64):
            raise ValueError(f"bands must be a whole number in [1, 64], got {bands!r}")
        if not isinstance(exact, bool):
            raise ValueError(f"exact must be true or false, got {exact!r}")
        if match is None and not exact:
            raise ValueError("nothing to do: match is null and exact is false")
        if isinstance(outputs, str) or not outputs or not all(o in OUTPUTS for o in outputs):
            raise ValueError(f"outputs must be a non-empty list of {list(OUTPUTS)}, got {outputs!r}")
        self.outputs = tuple(outputs)
        self.match = match
        self.thresholds = {"phash": phash_threshold, "dhash": dhash_threshold}
        banded = {"phash": ("phash",), "dhash": ("dhash",), "both": ("phash",), "either": ("phash", "dhash"),
                  None: ()}[match]
        # "both": a pair within both thresholds is within the pHash one, so pHash bands alone find it.
        self.bands = {h: bands or min(self.thresholds[h] + 1, DEFAULT_MAX_BANDS) for h in banded}
        for h, b in self.bands.items():
            if bands is not None and b <= self.thresholds[h]:
                log.warning("image dedup: %d %s bands at threshold %d: pairs at distance >= %d may be missed "
                            "(pigeonhole needs bands > threshold)", b, h, self.thresholds[h], b)
        self.exact = exact
        self.buckets = buckets
        self._init_state()

    @property
    def state_params(self) -> dict[str, object]:
        # What makes band keys comparable; thresholds are not in it (they only verify, and may change between runs).
        return {"image_bands": self.bands, "exact": self.exact, "buckets": self.buckets}

    # -- the stage --------------------------------------------------------------------------------------------
    def run(self, dataset: Any) -> Any:
        self._start_wave("winnow-image-dedup-")
        started = time.perf_counter()
        rows = dataset.materialize()
        edges = rows.map_batches(self._band_rows).map_groups(BUCKET, self._candidates).materialize()
        dropped = self._decide(edges)
        log.info("%s wave %s: %d duplicate image(s) in %.2f s", self._name(), self.wave, dropped,
                 time.perf_counter() - started)
        return rows.map_batches(self._apply)

    # -- pass 1: band rows ------------------------------------------------------------------------------------
    def _band_rows(self, table: pa.Table) -> pa.Table:
        if table.num_rows == 0:
            return _band_table([], [], [], [], self.buckets)
        output = table.column("output")
        taking_part = pc.or_kleene(pc.is_null(output), pc.is_in(output, value_set=pa.array(self.outputs)))
        live = table.filter(pc.and_kleene(pc.is_null(table.column("dropped_by")), taking_part))
        nodes = np.array(node_keys(live), dtype=object)
        ph, ph_ok = parse_hashes(live.column("phash").to_pylist())
        dh, dh_ok = parse_hashes(live.column("dhash").to_pylist())
        bad = sum(1 for col, ok in (("phash", ph_ok), ("dhash", dh_ok))
                  for v, good in zip(live.column(col).to_pylist(), ok, strict=True) if v is not None and not good)
        if bad:
            log.warning("%s: %d hash value(s) that are not 16 hex digits, treated as missing", self._name(), bad)
        keys, owners, hashed = [], [], []
        if self.exact:
            shas = live.column("sha256").to_pylist()
            has = np.array([bool(s) for s in shas], dtype=bool)
            if has.any():
                prefix = np.array([int(s[:16], 16) if s and is_hex(s[:16]) else hash_fallback(s)
                                   for s, h in zip(shas, has, strict=True) if h], dtype=np.uint64)
                keys.append(band_keys(prefix, 1, "exact").ravel())
                owners.append(np.flatnonzero(has))
                # Exact rows carry no hashes: their group is checked by sha256 alone, never pair by pair.
                hashed.append(np.zeros(int(has.sum()), dtype=bool))
        for name, values, ok in (("phash", ph, ph_ok), ("dhash", dh, dh_ok)):
            if name not in self.bands or not ok.any():
                continue
            at = np.flatnonzero(ok)
            keys.append(band_keys(values[at], self.bands[name], name).ravel())
            owners.append(np.repeat(at, self.bands[name]))
            hashed.append(np.ones(len(at) * self.bands[name], dtype=bool))
        if not keys:
            return _band_table([], [], [], [], self.buckets)
        owner = np.concatenate(owners)
        perceptual = np.concatenate(hashed)
        return _band_table(np.concatenate(keys), nodes[owner].tolist(),
                           np.where(ph_ok, ph, 0)[owner], np.where(dh_ok, dh, 0)[owner], self.buckets,
                           ph_ok[owner] & perceptual, dh_ok[owner] & perceptual)

    # -- pass 2: band groups -> verified pairs -> local stars -------------------------------------------------
    def _candidates_in(self, bucket: int, table: pa.Table) -> pa.Table:
        rows = self._band_group(bucket, table)
        if rows.num_rows < 2:
            return EDGE_SCHEMA.empty_table()
        keys = rows.column("key").to_numpy()
        first = np.concatenate(([True], keys[1:] != keys[:-1]))
        sizes = np.diff(np.append(np.flatnonzero(first), len(keys)))
        # Rows alone in their band (most exact rows, most rows of narrow bands) are dropped before any Python work.
        rows = rows.filter(pa.array(np.repeat(sizes > 1, sizes)))
        sizes = sizes[sizes > 1]
        starts = np.cumsum(sizes) - sizes
        nodes = rows.column("dkey").to_pylist()
        ph = rows.column("ph").fill_null(0).to_numpy()
        dh = rows.column("dh").fill_null(0).to_numpy()
        ph_ok = rows.column("ph").is_valid().to_numpy(zero_copy_only=False)
        dh_ok = rows.column("dh").is_valid().to_numpy(zero_copy_only=False)
        u: list[str] = []
        v: list[str] = []
        for start, size in zip(starts, sizes, strict=True):
            group = slice(start, start + size)
            names = nodes[group]
            if all(n.startswith(PRIOR) for n in names):
                continue  # decided when those rows were written
            labels = self._local_components(names, ph[group], dh[group], ph_ok[group], dh_ok[group])
            for root, member in _stars(names, labels):
                u.append(root)
                v.append(member)
        return pa.table({"u": pa.array(u, pa.string()), "v": pa.array(v, pa.string())}, schema=EDGE_SCHEMA)

    def _local_components(self, names: list[str], ph: np.ndarray, dh: np.ndarray, ph_ok: np.ndarray,
                          dh_ok: np.ndarray) -> np.ndarray:
        """A component label per row of one band group: rows joined by a verified pair (same sha256, or the
        perceptual rule). Equal hash pairs are one value: pairs are checked between distinct values only."""
        n = len(names)
        edges_i: list[np.ndarray] = []
        edges_j: list[np.ndarray] = []
        if self.exact:
            shas = [sha_of(x) for x in names]
            by_sha: dict[str, int] = {}
            for i, s in enumerate(shas):
                if s:
                    j = by_sha.setdefault(s, i)
                    if j != i:
                        edges_i.append(np.array([j]))
                        edges_j.append(np.array([i]))
        if self.match is not None:
            ok = self._usable(ph_ok, dh_ok)
            at = np.flatnonzero(ok)
            if len(at) > 1:
                pairs = np.stack([ph[at], dh[at], ph_ok[at], dh_ok[at]], axis=1).astype(np.uint64)
                values, first_of, inverse = np.unique(pairs, axis=0, return_index=True, return_inverse=True)
                inverse = inverse.ravel()
                # Rows with the same hash values: each to the first row of its value.
                same = np.flatnonzero(first_of[inverse] != np.arange(len(at)))
                edges_i.append(at[first_of[inverse[same]]])
                edges_j.append(at[same])
                for a, b in self._close_pairs(values):
                    edges_i.append(at[first_of[a]])
                    edges_j.append(at[first_of[b]])
        if not edges_i:
            return np.arange(n)
        return _label_components(n, np.concatenate(edges_i), np.concatenate(edges_j))

    def _usable(self, ph_ok: np.ndarray, dh_ok: np.ndarray) -> np.ndarray:
        """Rows that can be judged by the perceptual rule."""
        if self.match == "phash":
            return ph_ok
        if self.match == "dhash":
            return dh_ok
        if self.match == "both":
            return ph_ok & dh_ok
        return ph_ok | dh_ok

    def _close_pairs(self, values: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        """Index pairs (a < b) of distinct (ph, dh, ph_ok, dh_ok) values that pass the rule, by blocks of rows.

        Only the upper triangle is computed. For ``phash``, ``dhash`` and ``both`` one hash is compared densely and
        the other only on the few pairs that pass: on a 20,000-image wave of random hashes this halved the time
        of this function, which is most of the stage's (a band group holds ~n / 2**band_bits rows, and every
        pair of distinct values in it is compared)."""
        ph, dh = values[:, 0], values[:, 1]
        ph_ok, dh_ok = values[:, 2].astype(bool), values[:, 3].astype(bool)
        tp, td = self.thresholds["phash"], self.thresholds["dhash"]
        first, second = (dh, ph) if self.match == "dhash" else (ph, dh)
        t1, t2 = (td, tp) if self.match == "dhash" else (tp, td)
        m = len(values)
        block = max(1, _PAIR_CELLS // m)
        out = []
        for lo in range(0, m - 1, block):
            hi = min(lo + block, m)
            rows = np.arange(lo, hi)[:, None]
            cols = np.arange(lo, m)[None, :]
            if self.match == "either":
                p_near = ph_ok[lo:hi, None] & ph_ok[None, lo:] & (popcount(ph[lo:hi, None] ^ ph[None, lo:]) <= tp)
                d_near = dh_ok[lo:hi, None] & dh_ok[None, lo:] & (popcount(dh[lo:hi, None] ^ dh[None, lo:]) <= td)
                a, b = np.nonzero((p_near | d_near) & (cols > rows))
            else:  # every value here has the hash(es) the rule needs (``_usable``)
                a, b = np.nonzero((popcount(first[lo:hi, None] ^ first[None, lo:]) <= t1) & (cols > rows))
                a, b = a + lo, b + lo
                if self.match == "both" and len(a):
                    keep = popcount(second[a] ^ second[b]) <= t2
                    a, b = a[keep], b[keep]
                if len(a):
                    out.append((a, b))
                continue
            if len(a):
                out.append((a + lo, b + lo))
        return out

    # -- pass 4: decisions ------------------------------------------------------------------------------------
    def _apply(self, table: pa.Table) -> pa.Table:
        if not self.label_files or table.num_rows == 0:
            return table
        roots = label_map(self.label_files)
        live = pc.is_null(table.column("dropped_by")).to_numpy(zero_copy_only=False)
        nodes = node_keys(table)
        dropped_by = table.column("dropped_by").to_pylist()
        detail = table.column("drop_detail").to_pylist()
        hit = np.zeros(table.num_rows, dtype=bool)
        for i in np.flatnonzero(live):
            root = roots.get(nodes[i])
            if root is None:
                continue
            hit[i] = True
            sha = sha_of(nodes[i])
            exact = bool(sha) and sha == sha_of(root)
            dropped_by[i] = f"{self._name()}.{'duplicate' if exact else 'near_duplicate'}"
            earlier = ", written earlier" if root.startswith(PRIOR) else ""
            detail[i] = f"{'duplicate' if exact else 'near duplicate'} of {id_of(root)}{earlier}"
        return self._marked(table, hit, dropped_by, detail, "image")  # tombstones without the bytes


def _band_table(keys: Any, nodes: list[str], ph: Any, dh: Any, buckets: int, ph_ok: Any = None,
                dh_ok: Any = None) -> pa.Table:
    keys = np.asarray(keys, dtype=np.uint64)
    ph_arr = pa.array(np.asarray(ph, dtype=np.uint64), pa.uint64(),
                      mask=None if ph_ok is None else ~np.asarray(ph_ok, dtype=bool))
    dh_arr = pa.array(np.asarray(dh, dtype=np.uint64), pa.uint64(),
                      mask=None if dh_ok is None else ~np.asarray(dh_ok, dtype=bool))
    return pa.table({"key": pa.array(keys, pa.uint64()), "dkey": pa.array(nodes, pa.string()), "ph": ph_arr,
                     "dh": dh_arr, BUCKET: pa.array((keys % np.uint64(buckets)).astype(np.int32))})


def _label_components(n: int, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Connected components of n nodes and edges (i, j): each node's smallest reachable index (min-label
    propagation with pointer jumping; a band group's graph is small)."""
    labels = np.arange(n)
    while True:
        low = np.minimum(labels[i], labels[j])
        new = labels.copy()
        np.minimum.at(new, i, low)
        np.minimum.at(new, j, low)
        new = new[new]  # pointer jumping: a label's own label
        if np.array_equal(new, labels):
            return labels
        labels = new


def _stars(names: list[str], labels: np.ndarray) -> list[tuple[str, str]]:
    """Each local component as edges from its smallest node key to every other member."""
    members: dict[int, list[str]] = {}
    for name, label in zip(names, labels.tolist(), strict=True):
        members.setdefault(label, []).append(name)
    out = []
    for group in members.values():
        if len(group) > 1:
            root = min(group)
            out.extend((root, m) for m in group if m != root)
    return out
