"""`winnow crawl --output s3://...` (crawler/warc/upload.py) against the S3-compatible server the tests start: the
WARC files land in the bucket as they finish, with crawl-stats.json; `winnow run` reads them from there."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from crawler.site_server import SiteServer
from pipelines import storage
from tests.crawler.test_crawl import FAST, WINNOW, big_site


@pytest.mark.slow
def test_a_crawl_uploads_its_warc_files_and_stats_and_a_run_reads_them(s3, tmp_path: Path) -> None:
    bucket = s3.bucket()
    staging = tmp_path / "staging"
    n = 24
    with SiteServer(routes=big_site(n)) as site:
        done = subprocess.run([WINNOW, "crawl", site.url("/p0.html"), "--output", f"s3://{bucket}/crawl/",
                               "--staging", str(staging), "--allow-private", "--max-depth", "99",
                               "-s", "WINNOW_WARC_MAX_BYTES=8000", *FAST], capture_output=True, text=True,
                              timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    keys = s3.keys(bucket, "crawl/")
    warcs = [k for k in keys if k.endswith(".warc.gz")]
    assert len(warcs) >= 3  # rotated at 8 kB: several files, each uploaded when it finished
    assert "crawl/crawl-stats.json" in keys and not any(k.endswith((".open", ".idx", ".tmp")) for k in keys)
    stats = json.loads(s3.get(bucket, "crawl/crawl-stats.json"))
    assert stats["winnow/pages"] == n and stats["winnow/warc/files"] == len(warcs) == stats["winnow/warc/uploaded"]
    assert not list(staging.glob("*.warc.gz"))  # uploaded copies are not kept
    assert (staging / ".crawl" / "journal.jsonl").exists()  # the crawl's state stays local, for --resume
    assert f"s3://{bucket}/crawl: {n} pages in {len(warcs)} WARC file(s)" in done.stdout

    ran = subprocess.run([WINNOW, "run", "light", "--input", f"s3://{bucket}/crawl/", "--output",
                          f"s3://{bucket}/out", "--local", "--no-progress"], capture_output=True, text=True,
                         timeout=300)
    assert ran.returncode == 0, ran.stderr[-3000:]
    run_stats = storage.read_json(f"s3://{bucket}/out/stats.json")
    assert run_stats["steps"][0]["in"] == n  # every page the crawl stored, read from the bucket


def test_a_crawl_into_a_missing_bucket_is_refused_at_once(s3, tmp_path: Path) -> None:  # s3: a server that answers
    done = subprocess.run([WINNOW, "crawl", "http://127.0.0.1:9/", "--output", "s3://no-such-bucket-y/crawl",
                           "--staging", str(tmp_path / "s"), "--allow-private", *FAST], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == ("winnow crawl: cannot write to s3://no-such-bucket-y/crawl: "
                                                    "writing: the bucket does not exist")
