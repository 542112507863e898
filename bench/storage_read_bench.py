"""Reading from an S3-compatible store against the same files on local disk, side by side (issue 30).

The same WARC files are read from a local folder and from a bucket of moto's S3 server on 127.0.0.1 (the server the
tests use, started here; nothing leaves the machine), in alternating rounds (odd rounds local first, even rounds S3
first, so that neither side always has the warmer page cache), and the medians of docs/s are compared:

- ``read``: ``pipelines.readers.read_input`` over every file, records per second: the storage layer's path alone
  (a streamed ``s3fs`` file under ``open_input``: read-ahead blocks of ``READ_BLOCK`` bytes, one ranged GET each),
  with nothing after it to hide its cost;
- ``run``: ``winnow run light --local`` over the first ``--run-files`` files, input records per second, input and
  output both in the bucket on the S3 side (shards, dedup state, commit records, stats, manifest and report
  written there too) and both local on the other.

Input: bench/e2e_input.py's WARC files (3,314 real pages of WCXB and the extraction benchmark with rewritten
variants and planted duplicates, 8 files; built once and cached under /tmp; needs ../shared/data). The server runs
on the same two cores as the reader, so its CPU is in the S3 figures.

Measured 2026-12-04 on 2 cores shared with other work, ``python bench/storage_read_bench.py`` (5 read rounds, 3 run
rounds; 32 MiB read-ahead blocks, pipelines/storage.py ``READ_BLOCK``):

    read round 1: local 547 docs/s, S3 578 docs/s (1.06x; 3314 records, local first)
    read round 2: local 636 docs/s, S3 565 docs/s (0.89x; 3314 records, s3 first)
    read round 3: local 551 docs/s, S3 588 docs/s (1.07x; 3314 records, local first)
    read round 4: local 626 docs/s, S3 608 docs/s (0.97x; 3314 records, s3 first)
    read round 5: local 616 docs/s, S3 592 docs/s (0.96x; 3314 records, local first)
    run round 1: local 9.9 docs/s, S3 13.4 docs/s (1.36x; 807 records, local first)
    run round 2: local 10.7 docs/s, S3 13.2 docs/s (1.24x; 807 records, s3 first)
    run round 3: local 9.2 docs/s, S3 8.3 docs/s (0.90x; 807 records, local first)
    read: local median 616.5 docs/s, S3 median 587.7 docs/s: 0.95x
    run: local median 9.9 docs/s, S3 median 13.2 docs/s: 1.34x

The run rounds swing with the machine's load (0.90x to 1.36x): the light chain is extraction-bound and what the
store costs is lost in that noise, so the run median says "no measurable cost", not "faster". An earlier run with
8 MiB blocks: read 0.93x (medians 679 and 631 docs/s), run 1.01x (8.2 and 8.3 docs/s).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "bench")]


def _server() -> object:
    """moto's S3 server on a free port, and the standard chain's variables pointed at it (before any client)."""
    from tests.s3_server import MotoServer, free_port, session_env

    port = free_port()
    os.environ.update(session_env(port))
    return MotoServer(port)


def _read_rate(paths: list[str]) -> tuple[float, int]:
    from pipelines.readers import input_labels, read_input

    labels = input_labels(paths)
    started = time.perf_counter()
    records = sum(t.num_rows for p in paths for t in read_input(p, name=labels[p]))
    return records / (time.perf_counter() - started), records


def _run_rate(paths: list[str], output: str) -> tuple[float, int]:
    from pipelines.config import load_config
    from pipelines.runner import RunOptions, run

    started = time.perf_counter()
    stats = run(RunOptions(config=load_config("light"), inputs=paths, output=output, local=True, progress=False))
    seconds = time.perf_counter() - started
    records = sum(v["records"] for v in stats["inputs"].values())
    return records / seconds, records


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="read rounds (default 5)")
    parser.add_argument("--run-rounds", type=int, default=3, help="pipeline rounds (default 3; 0: none)")
    parser.add_argument("--run-files", type=int, default=2, help="input files of each pipeline round (default 2)")
    parser.add_argument("--seed", type=int, default=14, help="bench/e2e_input.py's seed (default 14, as e2e.py)")
    parser.add_argument("--json", metavar="FILE", help="also write every round's figures here")
    args = parser.parse_args()

    server = _server()
    from e2e_input import ensure_input

    warcs, _ = ensure_input(args.seed)
    bucket = server.bucket("bench")
    for warc in warcs:
        server.upload(warc, bucket, f"warc/{warc.name}")
    local = sorted(str(p) for p in warcs)
    remote = sorted(f"s3://{bucket}/warc/{p.name}" for p in warcs)
    size = sum(p.stat().st_size for p in warcs)
    print(f"input: {len(warcs)} WARC files, {size / 1e6:.1f} MB; S3 server {server.endpoint}")

    rounds: dict[str, list[dict]] = {"read": [], "run": []}
    for i in range(args.rounds):
        order = ("local", "s3") if i % 2 == 0 else ("s3", "local")
        row = {}
        for side in order:
            rate, records = _read_rate(local if side == "local" else remote)
            row[side], row["records"] = round(rate, 1), records
        rounds["read"].append(row)
        print(f"read round {i + 1}: local {row['local']:.0f} docs/s, S3 {row['s3']:.0f} docs/s "
              f"({row['s3'] / row['local']:.2f}x; {row['records']} records, {order[0]} first)", flush=True)

    work = Path(tempfile.mkdtemp(prefix="winnow-storage-bench-"))
    try:
        for i in range(args.run_rounds):
            order = ("local", "s3") if i % 2 == 0 else ("s3", "local")
            row = {}
            for side in order:
                inputs = (local if side == "local" else remote)[: args.run_files]
                output = str(work / f"out-{i}") if side == "local" else f"s3://{bucket}/out-{i}"
                rate, records = _run_rate(inputs, output)
                row[side], row["records"] = round(rate, 2), records
            rounds["run"].append(row)
            print(f"run round {i + 1}: local {row['local']:.1f} docs/s, S3 {row['s3']:.1f} docs/s "
                  f"({row['s3'] / row['local']:.2f}x; {row['records']} records, {order[0]} first)", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        server.stop()

    summary = {}
    for name, rows in rounds.items():
        if rows:
            lm, sm = statistics.median(r["local"] for r in rows), statistics.median(r["s3"] for r in rows)
            summary[name] = {"local_median": lm, "s3_median": sm, "ratio": round(sm / lm, 3)}
            print(f"{name}: local median {lm:,.1f} docs/s, S3 median {sm:,.1f} docs/s: {sm / lm:.2f}x")
    if args.json:
        Path(args.json).write_text(json.dumps({"rounds": rounds, "summary": summary}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
