"""Perceptual image dedup: planted near-duplicates of real photographs through ``dedup.images.ImageDedup``.

Base set: real photographs, no synthetic shapes. scikit-learn's two sample photos (``china.jpg``, ``flower.jpg``),
matplotlib's ``grace_hopper.jpg`` (both in the venv), and the photographs of scikit-image's data folder (astronaut,
camera, chelsea, coffee, coins, moon, motorcycle_left, rocket, hubble_deep_field, retina, immunohistochemistry,
and the brick / grass / gravel textures) from Debian's ``python3-skimage`` package, fetched with ``apt-get
download`` into the cache folder and unpacked with ``dpkg-deb -x`` (as ``bench/docsite_crawl.py`` does).

From these, ``--bases`` distinct base images are cut: crops at random places and scales (side 18-60% of the
photo's shorter side, aspect 0.6-1.6), any two crops of one photo overlapping by IoU <= 0.4, featureless crops (grey
standard deviation < 12) refused; each is stored as JPEG quality 90. Overlapping crops of one photo, and crops of
the three textures, are the hard negatives. A third of the bases get 1-3 planted copies, each one of: resized
(0.5x / 0.75x / 1.5x), re-encoded (JPEG quality 30-90, PNG, WEBP 50-90), cropped slightly (1-5% per side), or a
combination (crop + resize + JPEG); 5% of the bases also get a byte-identical copy (another alt text: the exact
path). Ground truth: the base each row was made from. Hashes come from ``crawler.images.check.check_image`` on each
row's bytes (``dedup.image_hash.perceptual_hashes`` of the decoded image), sha256 of the bytes: as the fetch step
records them.

Scores: (1) pair level, every pair of rows: precision and recall of "within the threshold" against "same base", per
hash and rule, per threshold; (2) the stage itself (local runner): a row dropped is right when its keeper
(``drop_detail``) has the same base; precision = right drops / drops, recall = right drops / (rows - bases that have
rows); (3) candidate pairs per band count (pairs sharing a band, what the stage verifies) and the share of pairs
within the threshold they contain (pigeonhole: all, when bands > threshold).

Usage: ``.venv/bin/python bench/image_dedup_bench.py [--bases 1200] [--seed 17] [--seeds 6] [--cache DIR]
[--json OUT]``; ``--scale 100000`` times the stage alone on random hashes.

Measured (2026-12-02, 2 shared cores, Python 3.11, Pillow 13.0, imagehash 4.3.2). Re-run after the hashes were
made cheaper (a greyscale copy box-reduced to >= 64 px before hashing, JPEGs decoded at a DCT scale:
dedup/image_hash.py, crawler/images/check.py), same set: the default gives 774 drops, precision 0.987, recall 0.962;
four more sets (``--seeds 4``): precision min / mean 0.983 / 0.987, recall 0.965 / 0.971. Pair level moved by at
most 0.006 (pHash <= 12: 0.887 / 0.961; both <= 14: 0.988 / 0.956).
The figures below are from the first run:

Set (``--bases 1200 --seed 17``): 1,994 rows, 1,200 bases, 794 planted copies (68 of them byte-identical: JPEG
re-saves at the base's quality and the "same bytes" rows). Largest planted distance: pHash 32, dHash 21 bits (99th
percentile 18 / 17); smallest distance between different bases: pHash 6, dHash 1. Negative pairs within 10 bits:
dHash 364 (mostly crops of the rocket photo's sky, the dark retina scan and the brick texture), pHash 96 (spread
over retina, china, camera / grace_hopper, flower); within pHash 14 and dHash 12 at once, 10 (retina, rocket,
camera crops).

Pair level (all 1,987,021 pairs; precision / recall of "within the threshold" against "same base"):

| threshold | phash | dhash | both | either |
|---|---|---|---|---|
| 10 | 0.925 / 0.898 | 0.769 / 0.913 | 0.996 / 0.841 | 0.739 / 0.971 |
| 12 | 0.888 / 0.954 | 0.612 / 0.956 | 0.993 / 0.919 | 0.579 / 0.991 |
| 14 | 0.801 / 0.977 | 0.448 / 0.976 | 0.990 / 0.959 | 0.409 / 0.993 |

The stage (``ImageDedup``, local runner; a drop is right when its keeper has the same base):

| settings | drops | precision | recall | seconds |
|---|---|---|---|---|
| exact only (``match: null``) | 68 | 1.000 | 0.086 | 0.19 |
| phash <= 8 | 724 | 0.963 | 0.878 | 0.44 |
| phash <= 10 | 782 | 0.940 | 0.926 | 0.30 |
| phash <= 12 | 833 | 0.890 | 0.933 | 0.27 |
| dhash <= 8 | 782 | 0.881 | 0.868 | 0.48 |
| dhash <= 10 | 833 | 0.838 | 0.879 | 0.31 |
| either <= 8 / 8 | 832 | 0.852 | 0.893 | 0.51 |
| either <= 10 / 10 | 888 | 0.800 | 0.894 | 0.47 |
| both <= 10 / 10 | 724 | 0.994 | 0.907 | 0.29 |
| both <= 12 / 12 | 766 | 0.991 | 0.956 | 0.43 |
| **both, pHash <= 14, dHash <= 12 (default, 10 bands)** | 776 | **0.987** | **0.965** | 0.34 |
| both <= 14 / 14 | 789 | 0.984 | 0.977 | 0.31 |
| both <= 16 / 16 | 805 | 0.963 | 0.976 | 0.45 |
| default, 4 bands | 651 | 0.995 | 0.816 | 0.28 |
| default, 6 bands | 753 | 0.987 | 0.936 | 0.47 |
| default, 8 bands | 771 | 0.987 | 0.958 | 0.37 |
| default, 15 bands (pigeonhole guarantee) | 776 | 0.987 | 0.965 | 0.25 |

Misses of the default, by what was done to the copy: crop 7, crop + resize + JPEG 10, PNG 2, WEBP 2, resize 1,
JPEG 1. Six more sets (``--seeds 6``: seeds 18-23), min / mean:

| both, pHash / dHash | bands | precision | recall |
|---|---|---|---|
| 10 / 10 | 10 | 0.994 / 0.997 | 0.910 / 0.929 |
| 12 / 12 | 10 | 0.989 / 0.992 | 0.950 / 0.963 |
| 14 / 12 (default) | 10 | 0.982 / 0.988 | 0.969 / 0.973 |
| 14 / 12 | 15 | 0.982 / 0.988 | 0.969 / 0.973 |
| 14 / 12 | 8 | 0.982 / 0.988 | 0.960 / 0.966 |
| 14 / 12 | 6 | 0.983 / 0.988 | 0.939 / 0.943 |
| 12 / 14 | 10 | 0.983 / 0.990 | 0.959 / 0.968 |
| 14 / 14 | 10 | 0.973 / 0.985 | 0.976 / 0.979 |
| 16 / 16 | 10 | 0.950 / 0.966 | 0.970 / 0.978 |

Candidates (pairs sharing a pHash band, what the stage verifies) of the 1,987,021 pairs, and how many of the 1,617
pairs within pHash 14 they hold: 4 bands 1,573 (0.08%), 1,029; 6 bands 13,874 (0.7%), 1,390; 8 bands 79,121 (4.0%),
1,557; 10 bands 271,797 (13.7%), 1,613; 12 bands 589,202 (29.7%), 1,617; 15 bands 1,170,332 (58.9%), 1,617.

Cost at a larger size (``--scale 100000``: random hashes, no quality figures; the machine's load average was about
5 on its 2 cores): the default stage 11.6 s, 8 bands 4.0 s, 15 bands 25.2 s for 100,000 rows. Building the photo
set (decode, transform, encode, hash) takes 6-12 s; the whole run with ``--seeds 6`` 68 s.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import random
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.debs import DebianDataError, debian_package, unpacked  # noqa: E402
from crawler.images.check import check_image  # noqa: E402
from dedup.image_keys import band_keys  # noqa: E402
from dedup.images import ImageDedup  # noqa: E402
from pipelines.dataset import LocalDataset  # noqa: E402
from pipelines.records import ImageRecord, from_table, to_table  # noqa: E402

PACKAGE = "python3-skimage"
SKIMAGE_IN_DEB = "usr/lib/python3/dist-packages/skimage/data"
SKIMAGE_PHOTOS = ("astronaut.png", "camera.png", "chelsea.png", "coffee.png", "coins.png", "moon.png",
                  "motorcycle_left.png", "rocket.jpg", "hubble_deep_field.jpg", "retina.jpg", "ihc.png",
                  "brick.png", "grass.png", "gravel.png")
DEFAULT_CACHE = ROOT / "bench" / "results" / ".cache" / "image_dedup"
WORDS = ["red", "old", "small", "house", "river", "city", "dog", "street", "tree", "light", "window", "road", "summer",
         "night", "market", "bridge", "blue", "people", "garden", "winter", "mountain", "boat", "station", "car"]


def obtain_photos(cache: Path) -> dict[str, Image.Image]:
    """name -> RGB photo; the skimage package is downloaded once into ``cache``."""
    import matplotlib
    import sklearn.datasets

    photos: dict[str, Image.Image] = {}
    sk_images = Path(sklearn.datasets.__file__).parent / "images"
    for name in ("china.jpg", "flower.jpg"):
        photos[name] = Image.open(sk_images / name).convert("RGB")
    photos["grace_hopper.jpg"] = Image.open(Path(matplotlib.get_data_path()) / "sample_data" /
                                            "grace_hopper.jpg").convert("RGB")
    data = cache / "skimage-data"
    if not all((data / n).is_file() for n in SKIMAGE_PHOTOS):
        try:
            deb = debian_package(PACKAGE, cache)
        except DebianDataError as exc:
            sys.exit(str(exc))
        with unpacked(deb, cache) as tmp:
            data.mkdir(parents=True, exist_ok=True)
            for name in SKIMAGE_PHOTOS:
                shutil.copy(tmp / SKIMAGE_IN_DEB / name, data / name)
    for name in SKIMAGE_PHOTOS:
        photos[name] = Image.open(data / name).convert("RGB")
    return photos


def _iou(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    w = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = w * h
    area = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / area


def cut_bases(photos: dict[str, Image.Image], n: int, rng: random.Random) -> list[tuple[str, Image.Image]]:
    """``n`` crops, about as many from each photo (a large photo must not dominate the set), IoU <= 0.4 within a
    photo; what a small photo cannot give (too little room at that overlap) is cut from the next larger ones."""
    names = sorted(photos, key=lambda k: (photos[k].width * photos[k].height, k))
    out: list[tuple[str, Image.Image]] = []
    for i, name in enumerate(names):
        want = (n - len(out)) // (len(names) - i)
        photo = photos[name]
        grey = np.asarray(photo.convert("L"), dtype=np.float32)
        boxes: list[tuple[int, int, int, int]] = []
        tries = 0
        while len(boxes) < want and tries < 50_000:
            tries += 1
            short = min(photo.size)
            side = rng.uniform(0.18, 0.6) * short
            aspect = rng.uniform(0.6, 1.6)
            w, h = int(side * aspect ** 0.5), int(side / aspect ** 0.5)
            if w < 64 or h < 64 or w > photo.width or h > photo.height:
                continue
            x, y = rng.randrange(photo.width - w + 1), rng.randrange(photo.height - h + 1)
            box = (x, y, x + w, y + h)
            if any(_iou(box, b) > 0.4 for b in boxes) or grey[y:y + h, x:x + w].std() < 12:
                continue
            boxes.append(box)
        out.extend((f"{name}@{b[0]},{b[1]},{b[2]},{b[3]}", photo.crop(b)) for b in boxes)
    return out


def encode(image: Image.Image, fmt: str, quality: int = 90) -> bytes:
    buf = io.BytesIO()
    if fmt == "JPEG":
        image.save(buf, "JPEG", quality=quality)
    elif fmt == "WEBP":
        image.save(buf, "WEBP", quality=quality)
    else:
        image.save(buf, "PNG")
    return buf.getvalue()


def _crop_slightly(image: Image.Image, rng: random.Random) -> Image.Image:
    w, h = image.size
    left, right = (int(w * rng.uniform(0.01, 0.05)) for _ in range(2))
    top, bottom = (int(h * rng.uniform(0.01, 0.05)) for _ in range(2))
    return image.crop((left, top, w - right, h - bottom))


def _resize(image: Image.Image, scale: float) -> Image.Image:
    return image.resize((max(8, round(image.width * scale)), max(8, round(image.height * scale))),
                        Image.Resampling.LANCZOS)


STAGE_SETTINGS: list[dict[str, object]] = [
    {"match": None},
    *({"match": "phash", "phash_threshold": t} for t in (6, 8, 10, 12)),
    *({"match": "dhash", "dhash_threshold": t} for t in (6, 8, 10, 12)),
    *({"match": "both", "phash_threshold": t, "dhash_threshold": t} for t in (10, 12, 14, 16)),
    *({"match": "either", "phash_threshold": t, "dhash_threshold": t} for t in (6, 8, 10)),
    *({"match": "both", "phash_threshold": p, "dhash_threshold": d} for p, d in ((12, 10), (10, 12), (14, 12),
                                                                               (12, 14))),
    # The default rule with fewer bands than the pigeonhole guarantee (15): recall measured, candidates saved.
    *({"match": "both", "phash_threshold": 14, "dhash_threshold": 12, "bands": b} for b in (4, 6, 8, 10, 15)),
]
DEFAULT = {"match": "both", "phash_threshold": 14, "dhash_threshold": 12}
TRANSFORMS = ("resize", "reencode", "crop", "crop+resize+jpeg")


def variant(base: Image.Image, kind: str, rng: random.Random) -> tuple[bytes, str]:
    """Encoded bytes of one planted copy and a description of what was done."""
    if kind == "resize":
        scale = rng.choice((0.5, 0.75, 1.5))
        return encode(_resize(base, scale), "JPEG", 90), f"resize {scale}"
    if kind == "reencode":
        fmt = rng.choice(("JPEG", "PNG", "WEBP"))
        q = rng.randint(30, 90) if fmt == "JPEG" else rng.randint(50, 90)
        return encode(base, fmt, q), f"{fmt} q{q}" if fmt != "PNG" else "PNG"
    if kind == "crop":
        return encode(_crop_slightly(base, rng), "JPEG", 90), "crop 1-5%"
    scale, q = rng.choice((0.5, 0.75)), rng.randint(30, 90)
    return encode(_resize(_crop_slightly(base, rng), scale), "JPEG", q), f"crop+resize {scale}+JPEG q{q}"


@dataclass
class Row:
    record: ImageRecord
    base: int
    how: str


def build(photos: dict[str, Image.Image], n_bases: int, seed: int) -> list[Row]:
    rng = random.Random(seed)
    bases = cut_bases(photos, n_bases, rng)
    rows: list[Row] = []

    def add(data: bytes, base: int, how: str) -> None:
        image = Image.open(io.BytesIO(data))
        checked = check_image(data)  # the hashes exactly as `winnow images fetch` records them
        ph, dh = checked.phash, checked.dhash
        alt = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 8)))
        rows.append(Row(ImageRecord(id=f"r{len(rows):05d}", url=f"http://site.test/p{base}", source="bench",
                                    output="image_text", image_url=f"http://img.test/{len(rows)}.jpg", alt=alt,
                                    image_format=image.format, width=image.width, height=image.height,
                                    original_width=image.width, original_height=image.height, image=data,
                                    sha256=hashlib.sha256(data).hexdigest(), phash=ph, dhash=dh), base, how))

    for b, (_, crop) in enumerate(bases):
        data = encode(crop, "JPEG", 90)
        add(data, b, "base")
        if rng.random() < 0.05:
            add(data, b, "same bytes")
        if rng.random() < 1 / 3:
            for _ in range(rng.randint(1, 3)):
                data, how = variant(crop, rng.choice(TRANSFORMS), rng)
                add(data, b, how)
    rng.shuffle(rows)
    return rows


# -- scoring ------------------------------------------------------------------------------------------------------
def pair_table(rows: list[Row], thresholds: list[int]) -> tuple[list[dict], dict]:
    """Pair-level precision / recall per rule and threshold over all pairs of rows."""
    base = np.array([r.base for r in rows])
    ph = np.array([int(r.record.phash, 16) for r in rows], dtype=np.uint64)
    dh = np.array([int(r.record.dhash, 16) for r in rows], dtype=np.uint64)
    iu = np.triu_indices(len(rows), k=1)
    same = base[iu[0]] == base[iu[1]]
    dp = np.bitwise_count(ph[iu[0]] ^ ph[iu[1]])
    dd = np.bitwise_count(dh[iu[0]] ^ dh[iu[1]])
    out = []
    for t in thresholds:
        for rule, hit in (("phash", dp <= t), ("dhash", dd <= t), ("both", (dp <= t) & (dd <= t)),
                          ("either", (dp <= t) | (dd <= t))):
            tp = int((hit & same).sum())
            out.append({"threshold": t, "rule": rule, "pairs_called": int(hit.sum()), "true_pairs": int(same.sum()),
                        "precision": tp / max(1, int(hit.sum())), "recall": tp / max(1, int(same.sum()))})
    extremes = {"phash_positive_max": int(dp[same].max()), "phash_negative_min": int(dp[~same].min()),
                "dhash_positive_max": int(dd[same].max()), "dhash_negative_min": int(dd[~same].min()),
                "phash_positive_p99": float(np.percentile(dp[same], 99)),
                "dhash_positive_p99": float(np.percentile(dd[same], 99)),
                "negative_pairs_phash_le_10": int((dp[~same] <= 10).sum()),
                "negative_pairs_dhash_le_10": int((dd[~same] <= 10).sum())}
    return out, extremes


def candidates(rows: list[Row], bands_list: list[int], threshold: int) -> list[dict]:
    """Distinct pHash pairs sharing at least one band, and how many of the pairs within ``threshold`` they hold."""
    ph = np.array([int(r.record.phash, 16) for r in rows], dtype=np.uint64)
    iu = np.triu_indices(len(rows), k=1)
    within = np.bitwise_count(ph[iu[0]] ^ ph[iu[1]]) <= threshold
    n = len(rows)
    out = []
    for bands in bands_list:
        keys = band_keys(ph, bands, "phash")
        shared = np.zeros(len(iu[0]), dtype=bool)
        for b in range(bands):
            shared |= keys[iu[0], b] == keys[iu[1], b]
        out.append({"bands": bands, "candidate_pairs": int(shared.sum()), "all_pairs": n * (n - 1) // 2,
                    "within_threshold_found": int((shared & within).sum()), "within_threshold": int(within.sum())})
    return out


def run_stage(rows: list[Row], batch: int = 256, **kw: object) -> dict:
    stage = ImageDedup(**kw)
    stage.bind()
    records = [r.record for r in rows]
    tables = [to_table(records[i:i + batch], "image") for i in range(0, len(records), batch)]
    started = time.perf_counter()
    out = [rec for t in stage.run(LocalDataset(tables)).tables() for rec in from_table(t)]
    seconds = time.perf_counter() - started
    base_of = {r.record.id: r.base for r in rows}
    dropped = [rec for rec in out if rec.dropped_by]
    right = {rec.id for rec in dropped if base_of[rec.drop_detail.split(" of ", 1)[1]] == base_of[rec.id]}
    should = len(rows) - len(set(base_of.values()))
    # Rows of a base with copies that were neither dropped rightly nor kept as their group's one keeper: misses by
    # transform (a group split in two keeps two rows; the one that should have gone is counted here).
    kept = {rec.id for rec in out if not rec.dropped_by}
    misses: dict[str, int] = {}
    per_base: dict[int, list[Row]] = {}
    for r in rows:
        per_base.setdefault(r.base, []).append(r)
    for group in per_base.values():
        survivors = [r for r in group if r.record.id in kept]
        keeper = next((r for r in survivors if r.how == "base"), survivors[0] if survivors else None)
        for r in survivors:
            if r is not keeper:
                misses[r.how.split(" ")[0]] = misses.get(r.how.split(" ")[0], 0) + 1
    return {**{k: v for k, v in kw.items()}, "dropped": len(dropped), "right": len(right), "should": should,
            "misses_by_kind": misses,
            "precision": len(right) / max(1, len(dropped)), "recall": len(right) / max(1, should),
            "seconds": round(seconds, 2),
            "exact": sum(1 for rec in dropped if rec.dropped_by.endswith(".duplicate"))}


def time_random(n: int, bands: int | None) -> float:
    """Seconds of the default stage over ``n`` rows of uniformly random hashes (distinct sha256s): the cost of band
    groups at a size the photographs cannot give. Real hashes are less uniform (larger band groups)."""
    rng = np.random.default_rng(1)
    ph, dh = (rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True) for _ in range(2))
    records = [ImageRecord(id=f"i{i:07d}", url=None, source="bench", sha256=hashlib.sha256(b"%d" % i).hexdigest(),
                           phash=format(int(ph[i]), "016x"), dhash=format(int(dh[i]), "016x")) for i in range(n)]
    tables = [to_table(records[i:i + 4096], "image") for i in range(0, n, 4096)]
    stage = ImageDedup(**{**DEFAULT, "bands": bands})
    stage.bind()
    started = time.perf_counter()
    for _ in stage.run(LocalDataset(tables)).tables():
        pass
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bases", type=int, default=1200)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "results" / "image_dedup_bench.json")
    parser.add_argument("--seeds", type=int, default=0,
                        help="also rebuild the set with this many other seeds and report min / mean of the 'both' grid")
    parser.add_argument("--scale", type=int, default=0, metavar="N",
                        help="instead: time the stage on N rows of random hashes (cost only, no quality figures)")
    args = parser.parse_args()

    if args.scale:
        for bands in (None, 8, 15):
            print(f"{args.scale} rows of random hashes, bands={bands or 'default'}: "
                  f"{time_random(args.scale, bands):.1f} s")
        return
    started = time.perf_counter()
    rows = build(obtain_photos(args.cache), args.bases, args.seed)
    n_bases = len({r.base for r in rows})
    print(f"{len(rows)} rows from {n_bases} bases ({len(rows) - n_bases} planted copies); "
          f"built in {time.perf_counter() - started:.1f} s")
    pairs, extremes = pair_table(rows, [2, 4, 6, 8, 10, 12, 14, 16])
    print(json.dumps(extremes))
    print("| threshold | rule | pairs called | precision | recall |")
    print("|---|---|---|---|---|")
    for p in pairs:
        print(f"| {p['threshold']} | {p['rule']} | {p['pairs_called']} | {p['precision']:.3f} | {p['recall']:.3f} |")
    cands = candidates(rows, [4, 6, 8, 10, 12, 15], 14)
    print("| pHash bands | candidate pairs | of all pairs | pairs at pHash <= 14 found |")
    print("|---|---|---|---|")
    for c in cands:
        print(f"| {c['bands']} | {c['candidate_pairs']} | {c['candidate_pairs'] / c['all_pairs']:.4f} | "
              f"{c['within_threshold_found']}/{c['within_threshold']} |")
    stages = []
    for kw in STAGE_SETTINGS:
        stages.append(run_stage(rows, **kw))
    print("| stage settings | drops | precision | recall | exact drops | seconds |")
    print("|---|---|---|---|---|---|")
    for s in stages:
        setting = ", ".join(f"{k}={s[k]}" for k in ("match", "phash_threshold", "dhash_threshold", "bands")
                            if k in s)
        print(f"| {setting} | {s['dropped']} | {s['precision']:.3f} | {s['recall']:.3f} | {s['exact']} | "
              f"{s['seconds']} |")
    if args.seeds:
        photos = obtain_photos(args.cache)
        grid = [{"match": "both", "phash_threshold": p, "dhash_threshold": d}
                for p, d in ((10, 10), (12, 12), (14, 14), (12, 14), (14, 12), (16, 16))]
        grid += [{**DEFAULT, "bands": b} for b in (6, 8, 15)]  # 15: the pigeonhole guarantee at pHash 14
        per: list[list[dict]] = [[] for _ in grid]
        for seed in range(args.seed + 1, args.seed + 1 + args.seeds):
            other = build(photos, args.bases, seed)
            for i, kw in enumerate(grid):
                per[i].append(run_stage(other, **kw))
        print(f"| both, pHash / dHash threshold | bands | precision min / mean | recall min / mean ({args.seeds} "
              "seeds) |")
        print("|---|---|---|---|")
        for kw, runs in zip(grid, per, strict=True):
            p, r = [x["precision"] for x in runs], [x["recall"] for x in runs]
            print(f"| {kw['phash_threshold']} / {kw['dhash_threshold']} | {kw.get('bands', 'default')} | "
                  f"{min(p):.3f} / {np.mean(p):.3f} | {min(r):.3f} / {np.mean(r):.3f} |")
        stages.append({"seeds": [{**kw, "precision": [x["precision"] for x in runs],
                                  "recall": [x["recall"] for x in runs]} for kw, runs in zip(grid, per, strict=True)]})
    default = next(s for s in stages
                   if "seeds" not in s and "bands" not in s and all(s.get(k) == v for k, v in DEFAULT.items()))
    print(f"default {DEFAULT}: misses by transform {default['misses_by_kind']}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"rows": len(rows), "bases": n_bases, "extremes": extremes, "pairs": pairs,
                                     "candidates": cands, "stages": stages}, indent=1))


if __name__ == "__main__":
    main()
