"""A dedup benchmark corpus from real text, with near-duplicates planted at controlled Jaccard levels.

Sentences: the 7,415 Leipzig-corpora sentences of ``../shared/data/langid_dev.jsonl`` (75 languages; zh, ja and th
left out so that every document is shingled by words) and the sentences of the 60 articles of
``../shared/data/extraction_bench``. A document is 20 sentences drawn at random from the pool (about 1.9 KB, the
document size of the STACK-NOTES MinHash timings); two random documents share almost no 5-word shingle.

Planted groups (4% of the documents are bases): 85% are pairs, base + one variant at a true Jaccard drawn from
0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.98 (below and above the 0.8 line on purpose); 15% are clusters,
base + 2 or 3 variants at 0.9 to 0.98. A variant replaces random words of its base with words of the pool until its
Jaccard to the base reaches the target. Ground truth: for every pair of documents of a group, the exact Jaccard of
their 5-word shingle sets (tuples of words after ``dedup.minhash.normalize``), by brute force.

Output: ``docs-<NN>.parquet`` shards (winnow's Document schema) and ``truth.json`` (groups, pairs, Jaccard).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from dedup.minhash import normalize  # noqa: E402
from pipelines.records import DOCUMENT_SCHEMA  # noqa: E402

SHARED = REPO.parent / "shared" / "data"
PAIR_LEVELS = (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.98)
CLUSTER_LEVELS = (0.9, 0.95, 0.98)
SENTENCES_PER_DOC = 20
BASE_FRACTION = 0.04
CLUSTER_FRACTION = 0.15
NO_SPACES = {"zh", "ja", "th"}


def sentence_pool() -> list[str]:
    pool = []
    with (SHARED / "langid_dev.jsonl").open() as fh:
        for line in fh:
            row = json.loads(line)
            if row["lang"] not in NO_SPACES:
                pool.append(row["text"].strip())
    truth = json.loads((SHARED / "extraction_bench" / "ground-truth.json").read_text())
    for page in truth.values():
        for sentence in re.split(r"(?<=[.!?])\s+|\n+", page.get("articleBody") or ""):
            if len(sentence.split()) >= 5:
                pool.append(sentence.strip())
    return pool


def shingles_of(words: list[str], n: int = 5) -> set[tuple[str, ...]]:
    if len(words) < n:
        return {tuple(words)} if words else set()
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


def normalized_words(texts: list[str]) -> list[list[str]]:
    """The words the pipeline shingles (``dedup.minhash.normalize``), for many texts in one Arrow call."""
    return [t.split() for t in normalize(pa.array(texts, pa.large_string())).to_pylist()]


def jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


class Mutator:
    """Replaces words of a base text; the target is tracked on per-word normalisations (fast), the truth is
    recomputed on whole texts afterwards."""

    def __init__(self, rng: random.Random, pool: list[str]) -> None:
        self.rng = rng
        vocab = sorted({w for s in pool for w in s.split()})
        self.norm = dict(zip(vocab, normalized_words(vocab), strict=True))
        self.replacements = [w for w in vocab if len(self.norm[w]) == 1]

    def variant(self, base: str, target: float) -> str:
        words = base.split()
        base_set = shingles_of([t for w in words for t in self.norm[w]])
        positions = list(range(len(words)))
        self.rng.shuffle(positions)
        # First guess: each replaced word removes about 5 shingles: J = (S - 5k) / (S + 5k).
        guess = max(1, int(len(base_set) * (1 - target) / (5 * (1 + target))))
        step, done = max(1, guess // 10), 0
        while done < len(positions):
            todo = guess if done == 0 else step
            for pos in positions[done:done + todo]:
                words[pos] = self.rng.choice(self.replacements)
            done += todo
            if jaccard(base_set, shingles_of([t for w in words for t in self.norm[w]])) <= target + 0.01:
                break
        return " ".join(words)


def build(n_docs: int, out: Path, seed: int = 0, shards: int = 16) -> dict:
    started = time.time()
    rng = random.Random(seed)
    pool = sentence_pool()
    mutator = Mutator(rng, pool)
    n_bases = int(n_docs * BASE_FRACTION)
    sizes = [rng.choice((2, 3)) if rng.random() < CLUSTER_FRACTION else 1 for _ in range(n_bases)]
    n_variants = sum(sizes)
    texts = [" ".join(rng.choices(pool, k=SENTENCES_PER_DOC)) for _ in range(n_docs - n_variants)]
    groups = []
    for b, k in enumerate(sizes):
        members = [b]
        for _ in range(k):
            target = rng.choice(PAIR_LEVELS if k == 1 else CLUSTER_LEVELS)
            texts.append(mutator.variant(texts[b], target))
            members.append(len(texts) - 1)
        groups.append(members)
    order = list(range(n_docs))
    rng.shuffle(order)  # variants are not next to their bases
    ids = {i: f"d{pos:08d}" for pos, i in enumerate(order)}
    start = datetime(2020, 1, 1, tzinfo=UTC)
    when = [start + timedelta(seconds=rng.randrange(4 * 365 * 86400)) for _ in range(n_docs)]
    truth = []
    in_groups = [m for members in groups for m in members]
    sets = {m: shingles_of(words) for m, words in zip(in_groups, normalized_words([texts[m] for m in in_groups]),
                                                       strict=True)}
    for members in groups:
        pairs = [[ids[a], ids[b], round(jaccard(sets[a], sets[b]), 4)]
                 for x, a in enumerate(members) for b in members[x + 1:]]
        truth.append({"members": [ids[m] for m in members], "pairs": pairs})
    out.mkdir(parents=True, exist_ok=True)
    per = -(-n_docs // shards)
    for s in range(shards):
        chunk = order[s * per:(s + 1) * per]
        rows = {"id": [ids[i] for i in chunk], "url": [None] * len(chunk),
                "source": [f"bench@{ids[i]}" for i in chunk], "fetched_at": [when[i] for i in chunk],
                "text": [texts[i] for i in chunk]}
        table = pa.table({f.name: rows.get(f.name, pa.nulls(len(chunk), f.type)) for f in DOCUMENT_SCHEMA},
                         schema=DOCUMENT_SCHEMA)
        pq.write_table(table, out / f"docs-{s:02d}.parquet", row_group_size=8192)
    meta = {"docs": n_docs, "groups": len(groups), "variants": n_variants, "seed": seed,
            "mean_chars": round(sum(map(len, texts)) / n_docs), "seconds": round(time.time() - started, 1)}
    (out / "truth.json").write_text(json.dumps({"meta": meta, "groups": truth}))
    return meta


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("docs", type=int)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(json.dumps(build(args.docs, args.out, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
