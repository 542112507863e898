"""`winnow images fetch --output s3://...` against the S3-compatible server the tests start: the fetch runs in a
local staging folder and its shards and fetch-stats.json are uploaded when it ends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crawler.site_server import Route, SiteServer
from pipelines import storage
from tests.crawler.images.helpers import make_image, pair, run_fetch, write_output


@pytest.mark.slow
def test_a_fetch_into_a_bucket_uploads_its_shards_and_stats(s3, tmp_path: Path) -> None:
    bucket = s3.bucket()
    routes = {"/robots.txt": Route(body="", content_type="text/plain"),
              "/a.png": Route(body=make_image("PNG", seed=1), content_type="image/png"),
              "/b.jpg": Route(body=make_image("JPEG", (300, 200), seed=2), content_type="image/jpeg")}
    staging = tmp_path / "staging"
    with SiteServer(routes=routes) as site:
        out = write_output(tmp_path / "out", [pair("p1", site.url("/a.png")), pair("p2", site.url("/b.jpg"))])
        result = run_fetch(out, f"s3://{bucket}/images-run", "--allow-private", "--staging", str(staging))  # type: ignore[arg-type]
    assert result.returncode == 0, result.stderr[-2000:]
    keys = s3.keys(bucket)
    shards = [k for k in keys if k.startswith("images-run/images/part-") and k.endswith(".parquet")]
    assert shards and "images-run/fetch-stats.json" in keys
    assert not any("/." in k for k in keys)  # the fetch's state and temporaries stay in the staging folder
    rows = [r for k in shards for r in storage.read_parquet(f"s3://{bucket}/{k}").to_pylist()]
    assert sorted(r["image_url"] for r in rows) == [site.url("/a.png"), site.url("/b.jpg")]
    assert json.loads(s3.get(bucket, "images-run/fetch-stats.json"))["stored"] == 2
    assert (staging / ".fetch").is_dir()
    assert f"s3://{bucket}/images-run: " in result.stdout
