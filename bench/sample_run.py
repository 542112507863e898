"""Wall time and peak memory of `winnow run default`, local runner vs embedded Ray, side by side.

Inputs (all offline):
- ``sample``: the bundled demo-site WARC (``python -m pipelines.app.sample``), what the README's demo runs;
- ``shared``: ``../shared/data/warc/*.warc.gz`` (a 2014 iana.org crawl and a Common Crawl capture);
- ``news60``: the 60 real news/blog pages of ``../shared/data/extraction_bench`` packed into one WARC.

Peak memory is the largest sum of RSS over the whole process tree (the CLI, and under Ray the GCS,
raylet and workers it starts), sampled every 50 ms; /usr/bin/time -v would see only the driver.

Usage: ``.venv/bin/python bench/sample_run.py [--repeat N]``; results go to bench/results/ (not committed).
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
WINNOW = str(Path(sys.executable).parent / "winnow")


def news_warc(path: Path) -> Path:
    """The extraction benchmark's pages as 200 responses, so the run sees real article HTML."""
    truth = json.loads((SHARED / "extraction_bench" / "ground-truth.json").read_text())
    with path.open("wb") as fh:
        writer = WARCWriter(fh, gzip=True)
        for page_id, meta in sorted(truth.items()):
            body = gzip.decompress((SHARED / "extraction_bench" / "html" / f"{page_id}.html.gz").read_bytes())
            http = StatusAndHeaders("200 OK", [("Content-Type", "text/html"), ("Content-Length", str(len(body)))],
                                    protocol="HTTP/1.1")
            url = meta.get("url") or f"http://bench.test/{page_id}"
            writer.write_record(writer.create_warc_record(url, "response", payload=io.BytesIO(body),
                                                          length=len(body), http_headers=http))
    return path


def measure(args: list[str]) -> dict:
    start = time.perf_counter()
    proc = psutil.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    peak = 0
    while proc.poll() is None:
        try:
            procs = [proc, *proc.children(recursive=True)]
            peak = max(peak, sum(p.memory_info().rss for p in procs if p.is_running()))
        except psutil.Error:
            pass
        time.sleep(0.05)
    output = proc.stdout.read().decode(errors="replace")
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{output[-3000:]}")
    return {"seconds": round(time.perf_counter() - start, 2), "peak_rss_mb": round(peak / 2**20)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs per cell; the best time is kept")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="winnow-bench-"))
    try:
        subprocess.run([sys.executable, "-m", "pipelines.app.sample", str(work / "sample.warc.gz")], check=True,
                       capture_output=True)
        inputs = {
            "sample": [str(work / "sample.warc.gz")],
            "shared": [str(p) for p in sorted((SHARED / "warc").glob("*.warc.gz"))],
            "news60": [str(news_warc(work / "news60.warc.gz"))],
        }
        results = []
        for name, paths in inputs.items():
            for runner in ("local", "ray"):
                best = None
                for i in range(args.repeat):
                    out = work / f"out-{name}-{runner}-{i}"
                    cmd = [WINNOW, "run", "default", "--input", *paths, "--output", str(out), "--no-progress"]
                    if runner == "local":
                        cmd.append("--local")
                    cell = measure(cmd)
                    stats = json.loads((out / "stats.json").read_text())
                    cell["pages_read"] = stats["steps"][0]["kept"]
                    cell["rows_out"] = stats["outputs"].get("text", {}).get("rows", 0)
                    if best is None or cell["seconds"] < best["seconds"]:
                        best = cell
                results.append({"input": name, "runner": runner, **best})
                print(json.dumps(results[-1]), flush=True)
        print("\n| input | runner | pages | rows out | wall s | peak RSS MB (process tree) |")
        print("|---|---|---|---|---|---|")
        for r in results:
            print(f"| {r['input']} | {r['runner']} | {r['pages_read']} | {r['rows_out']} | {r['seconds']} | "
                  f"{r['peak_rss_mb']} |")
        dest = REPO / "bench" / "results"
        dest.mkdir(exist_ok=True)
        (dest / "sample_run.json").write_text(json.dumps(results, indent=2) + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
