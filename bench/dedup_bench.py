"""Near-duplicate removal: winnow's MinHash stage (Ray and in-process) against a plain datasketch loop.

Corpus: ``bench/dedup_corpus.py`` (real sentences, near-duplicates planted at controlled Jaccard levels, ground truth
by brute-force Jaccard). Each contender runs in its own process, which the parent samples every second for the
proportional set size (PSS) of its whole process tree (Ray's GCS, raylet and workers included; PSS splits shared
object-store pages instead of counting them once per process):

- ``ray``: ``dedup.near.MinHashDedup`` on embedded local Ray (``ray.init`` timed apart), input read by Ray tasks
  from the corpus' Parquet shards, state persisted as in ``winnow run``;
- ``local``: the same stage in one process (``--local``);
- ``loop``: the plain datasketch loop: documents in keeper order (earliest ``fetched_at``, then ``id``), 5-word
  shingles of the same normalised text, ``MinHash(num_perm=112, hashfunc=xxhash.xxh32_intdigest).update_batch``,
  ``MinHashLSH(params=(14, 8))``: query, drop on any hit, else insert.

Scores: pair recall at true Jaccard >= 0.8 / 0.85 / 0.9 (planted pairs whose documents end in one cluster: a
document and the keeper it was dropped for); pair precision (pairs within predicted clusters whose true Jaccard,
computed by brute force for every predicted pair, is >= 0.8); documents per second of the dedup work (excluding
Ray start-up and the corpus build); CPU seconds of the whole process tree; peak PSS; the load average before and
after (the machine may be shared: wall times then grow, CPU seconds much less).

Usage: ``.venv/bin/python bench/dedup_bench.py --docs 100000 1000000 [--modes ray local loop] [--verify 0.8]``.
Corpora are cached in ``bench/results/.cache/``; results go to ``bench/results/dedup_bench.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import json
import os
import sys
import tempfile
import time
from itertools import combinations
from pathlib import Path

import psutil
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.dedup_corpus import build, jaccard, normalized_words, shingles_of  # noqa: E402

CACHE = REPO / "bench" / "results" / ".cache"  # bench/results/ is not committed
REASON = "minhash_dedup.near_duplicate"


def read_shard(path: str, name: str | None = None):
    """Parquet shard -> Document tables (8192 rows each), as a JSONL/Parquet input of ``winnow run`` yields."""
    from pipelines.records import conform

    for batch in pq.ParquetFile(path).iter_batches(batch_size=8192):
        yield conform(pa.Table.from_batches([batch]), "document")


def shards(corpus: Path) -> list[str]:
    return sorted(glob.glob(str(corpus / "docs-*.parquet")))


def _dropped_only(table: pa.Table) -> pa.Table:
    return table.filter(pc.equal(table.column("dropped_by"), REASON)).select(["id", "drop_detail"])


def child_winnow(corpus: Path, runner: str, verify: float | None) -> dict:
    from dedup.near import MinHashDedup

    paths = shards(corpus)
    startup = 0.0
    if runner == "ray":
        import ray.data

        from pipelines.ray_data import RayDataset, init_ray

        t = time.perf_counter()
        init_ray(None)
        ray.data.DataContext.get_current().enable_progress_bars = False
        startup = time.perf_counter() - t
        ds = RayDataset.from_inputs([(p, Path(p).name) for p in paths], read_shard)
    else:
        from pipelines.dataset import LocalDataset

        ds = LocalDataset(t for p in paths for t in read_shard(p))
    started = time.perf_counter()
    stage = MinHashDedup(verify=verify)
    stage.bind()
    stage.bind_state(tempfile.mkdtemp(prefix="dedup-bench-state-"), "w1", set())
    keeper = {}
    for table in stage.run(ds).map_batches(_dropped_only).tables():
        for i, detail in zip(table.column("id").to_pylist(), table.column("drop_detail").to_pylist(), strict=True):
            keeper[i] = detail.removeprefix("near duplicate of ")
    return {"seconds": time.perf_counter() - started, "startup": startup, "keeper": keeper}


def child_loop(corpus: Path) -> dict:
    import xxhash
    from datasketch import MinHash, MinHashLSH

    from dedup.minhash import normalize

    started = time.perf_counter()
    table = pq.read_table(shards(corpus), columns=["id", "fetched_at", "text"])
    table = table.sort_by([("fetched_at", "ascending"), ("id", "ascending")])
    lsh = MinHashLSH(num_perm=112, params=(14, 8))
    keeper = {}
    for batch in table.to_batches(max_chunksize=8192):
        for doc_id, text in zip(batch.column("id").to_pylist(), normalize(batch.column("text")).to_pylist(),
                                strict=True):
            words = text.split()
            shingles = [" ".join(words[i:i + 5]).encode() for i in range(max(1, len(words) - 4))]
            m = MinHash(num_perm=112, hashfunc=xxhash.xxh32_intdigest)
            m.update_batch(shingles)
            hits = lsh.query(m)
            if hits:
                keeper[doc_id] = min(hits)
            else:
                lsh.insert(doc_id, m)
    return {"seconds": time.perf_counter() - started, "startup": 0.0, "keeper": keeper}


def measure(cmd: list[str]) -> tuple[float, int, float]:
    """Wall seconds, peak PSS (bytes) and CPU seconds (user + system, every process of the tree) of a command.

    CPU seconds do not grow when other work shares the machine; wall seconds do (the load average is recorded)."""
    start = time.perf_counter()
    proc = psutil.Popen(cmd)
    peak = 0
    cpu: dict[int, float] = {}
    while proc.poll() is None:
        total = 0
        with contextlib.suppress(psutil.Error):
            for p in [proc, *proc.children(recursive=True)]:
                with contextlib.suppress(psutil.Error, AttributeError):
                    total += p.memory_full_info().pss
                    times = p.cpu_times()
                    cpu[p.pid] = times.user + times.system
        peak = max(peak, total)
        time.sleep(1.0)  # reading smaps of every process is not free: sample once a second
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited with {proc.returncode}")
    return time.perf_counter() - start, peak, sum(cpu.values())


def score(corpus: Path, keeper: dict[str, str], truth: dict) -> dict:
    """Pair precision and recall of the predicted clusters (keeper -> dropped documents)."""
    root = {d: keeper.get(d, d) for d in keeper}
    for d in list(root):  # keepers are themselves kept: chains end at once, but be safe
        while root[d] in keeper and keeper[root[d]] != root[d]:
            root[d] = keeper[root[d]]
    clusters: dict[str, list[str]] = {}
    for d, r in root.items():
        clusters.setdefault(r, [r]).append(d)
    known = {}
    for group in truth["groups"]:
        for a, b, j in group["pairs"]:
            known[frozenset((a, b))] = j
    predicted = [frozenset(p) for members in clusters.values() for p in combinations(sorted(set(members)), 2)]
    unknown = {p for p in predicted if p not in known}
    if unknown:  # pairs outside the planted groups: brute force from the texts
        ids = sorted({d for p in unknown for d in p})
        table = pq.read_table(shards(corpus), columns=["id", "text"], filters=[("id", "in", ids)])
        words = dict(zip(table.column("id").to_pylist(), normalized_words(table.column("text").to_pylist()),
                         strict=True))
        for p in unknown:
            a, b = sorted(p)
            known[p] = jaccard(shingles_of(words[a]), shingles_of(words[b]))
    same = {d: root.get(d, d) for group in truth["groups"] for d in group["members"]}
    out = {"dropped": len(keeper), "predicted_pairs": len(predicted),
           "precision": round(sum(known[p] >= 0.8 for p in predicted) / len(predicted), 4) if predicted else None}
    for t in (0.8, 0.85, 0.9):
        pairs = [(a, b) for g in truth["groups"] for a, b, j in g["pairs"] if j >= t]
        out[f"recall@{t}"] = round(sum(same[a] == same[b] for a, b in pairs) / len(pairs), 4) if pairs else None
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, nargs="+", default=[100_000])
    parser.add_argument("--modes", nargs="+", default=["ray", "local", "loop"], choices=["ray", "local", "loop"])
    parser.add_argument("--verify", type=float, nargs="*", default=[None, 0.8],
                        help="verification thresholds for the winnow runs (none: plain LSH, as FineWeb)")
    parser.add_argument("--child", nargs=4, metavar=("MODE", "CORPUS", "VERIFY", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        mode, corpus, verify, out = args.child
        v = None if verify == "none" else float(verify)
        result = child_loop(Path(corpus)) if mode == "loop" else child_winnow(Path(corpus), mode, v)
        Path(out).write_text(json.dumps(result))
        return 0

    results = []
    for n in args.docs:
        corpus = CACHE / f"dedup-{n}"
        if not (corpus / "truth.json").exists():
            print(f"building corpus of {n} documents in {corpus}", flush=True)
            build(n, corpus)
        truth = json.loads((corpus / "truth.json").read_text())
        runs = [(m, v) for m in args.modes for v in (args.verify if m != "loop" else [None])]
        for mode, verify in runs:
            with tempfile.NamedTemporaryFile(suffix=".json") as tmp:
                cmd = [sys.executable, __file__, "--child", mode, str(corpus), str(verify or "none"), tmp.name]
                load = os.getloadavg()[0]
                wall, peak, cpu = measure(cmd)
                child = json.loads(Path(tmp.name).read_text())
            row = {"docs": n, "mode": mode, "verify": verify, "seconds": round(child["seconds"], 1),
                   "docs_per_s": round(n / child["seconds"]), "startup_s": round(child["startup"], 1),
                   "process_s": round(wall, 1), "process_cpu_s": round(cpu, 1), "peak_pss_mb": round(peak / 2**20),
                   "load_avg_before": round(load, 1), "load_avg_after": round(os.getloadavg()[0], 1),
                   **score(corpus, child["keeper"], truth)}
            results.append(row)
            print(json.dumps(row), flush=True)
    print("\n| docs | contender | verify | dedup s | docs/s | process CPU s | peak PSS MB | load | dropped "
          "| precision | recall J>=0.8 | J>=0.85 | J>=0.9 |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['docs']} | {r['mode']} | {r['verify'] or '-'} | {r['seconds']} | {r['docs_per_s']} | "
              f"{r['process_cpu_s']} | {r['peak_pss_mb']} | {r['load_avg_before']}-{r['load_avg_after']} | "
              f"{r['dropped']} | {r['precision']} | {r['recall@0.8']} | {r['recall@0.85']} | {r['recall@0.9']} |")
    dest = REPO / "bench" / "results"
    dest.mkdir(exist_ok=True)
    (dest / "dedup_bench.json").write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
