"""The storage layer (pipelines/storage.py) against the S3-compatible server the tests start on 127.0.0.1, an HTTP
server that honours ranges, and proxies that drop connections mid-file; input expansion over buckets and Common
Crawl style listings (pipelines/readers/locate.py)."""

from __future__ import annotations

import gzip
import os

import pyarrow as pa
import pytest

from pipelines import storage
from pipelines.readers import expand_inputs, input_labels
from pipelines.storage_errors import StorageDenied, StorageNotFound, StorageUnavailable, redact, scrub
from tests.flaky_servers import CuttingProxy, RangeServer
from tests.s3_server import SECRET_KEY, free_port


def test_round_trip_in_a_bucket(s3) -> None:
    root = f"s3://{s3.bucket()}/out"
    storage.write_json(storage.join(root, "stats.json"), {"a": 1})
    storage.write_parquet(pa.table({"x": [1, 2, 3]}), storage.join(root, "text", "part-1.parquet"))
    storage.write_bytes(storage.join(root, "text", "part-2.parquet.tmp"), b"half")
    assert storage.read_json(storage.join(root, "stats.json")) == {"a": 1}
    assert storage.read_parquet(storage.join(root, "text", "part-1.parquet")).column("x").to_pylist() == [1, 2, 3]
    assert storage.list_names(root) == ["stats.json", "text"]
    assert storage.list_names(storage.join(root, "nothing")) == []
    assert sorted(storage.find(root)) == [f"{root}/stats.json", f"{root}/text/part-1.parquet",
                                          f"{root}/text/part-2.parquet.tmp"]
    assert list(storage.glob(f"{root}/**/*.parquet")) == [f"{root}/text/part-1.parquet"]
    assert storage.isdir(root) and storage.isfile(f"{root}/stats.json") and not storage.isdir(f"{root}/stats.json")
    storage.remove(f"{root}/text/part-2.parquet.tmp")
    storage.remove(f"{root}/text/never-there")
    assert storage.list_names(f"{root}/text") == ["part-1.parquet"]
    storage.remove_tree(root)
    assert storage.find(root) == {}


@pytest.mark.parametrize("where", ["local", "s3"])
def test_a_writer_that_fails_leaves_nothing(s3, tmp_path, where: str) -> None:
    target = str(tmp_path / "x.parquet") if where == "local" else f"s3://{s3.bucket()}/x.parquet"
    with pytest.raises(RuntimeError), storage.writer(target) as fh:
        fh.write(b"PAR1 half a shard")
        raise RuntimeError("killed mid-write")
    assert not storage.exists(target)
    if where == "local":
        assert os.listdir(tmp_path) == []  # no temporary left beside it either


def test_a_missing_bucket_or_key_is_one_line_naming_the_url(s3) -> None:
    with pytest.raises(StorageNotFound) as missing_bucket:
        storage.read_bytes("s3://no-such-bucket-here/crawl/a.warc.gz")
    assert str(missing_bucket.value) == "s3://no-such-bucket-here/crawl/a.warc.gz: opening: the bucket does not exist"
    bucket = s3.bucket()
    with pytest.raises(FileNotFoundError) as missing_key:  # a StorageNotFound is a FileNotFoundError too
        storage.read_bytes(f"s3://{bucket}/nothing.json")
    assert str(missing_key.value) == f"s3://{bucket}/nothing.json: opening: not found"


def test_an_endpoint_that_does_not_answer_is_one_line(monkeypatch) -> None:
    monkeypatch.setenv("AWS_ENDPOINT_URL", f"http://127.0.0.1:{free_port()}")  # nothing listens there
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")
    with pytest.raises(StorageUnavailable) as err:
        storage.list_names("s3://bucket/out")
    text = str(err.value)
    assert text.startswith("s3://bucket/out: listing: cannot connect to the store") and "\n" not in text
    assert SECRET_KEY not in text


def test_credentials_never_reach_a_message(monkeypatch) -> None:
    assert redact("https://user:pa55word@host/a.warc.gz?X-Amz-Signature=abc123&part=2") == \
        "https://host/a.warc.gz?X-Amz-Signature=***&part=2"
    assert redact("az://container/blob?sv=2024&sig=secretsig") == "az://container/blob?sv=2024&sig=***"
    assert redact("/local/path") == "/local/path"
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "s3cr3t-value")
    assert scrub("failed with s3cr3t-value at https://u:p@h/x") == "failed with *** at https://h/x"
    err = StorageDenied("s3://b/k?token=tok", "refused for key s3cr3t-value")
    assert str(err) == "s3://b/k?token=***: refused for key ***"


def test_an_http_input_resumes_after_a_dropped_connection() -> None:
    body = os.urandom(300_000)
    server = RangeServer(body, after=50_000, cuts=1)
    try:
        with storage.open_input(server.url) as fh:
            assert fh.read() == body
        assert server.requests >= 2  # the cut answer, then the rest from where it stopped
    finally:
        server.close()


def test_a_store_that_keeps_dropping_the_connection_is_given_up_on_naming_url_and_byte(s3, monkeypatch) -> None:
    bucket = s3.bucket()
    body = os.urandom(400_000)
    s3.client().put_object(Bucket=bucket, Key="big.bin", Body=body)
    proxy = CuttingProxy(s3.port, after=100_000)
    monkeypatch.setenv("AWS_ENDPOINT_URL", proxy.endpoint)
    monkeypatch.setattr(storage, "RETRY_BASE_S", 0.01)
    try:
        proxy.cuts = 1  # one dropped connection: retried, every byte read once
        with storage.open_input(f"s3://{bucket}/big.bin") as fh:
            assert fh.read() == body
        assert proxy.done == 1
        monkeypatch.setattr(storage, "READ_RETRIES", 1)
        proxy.cuts = -1  # every answer cut: given up after the retries, one line
        with pytest.raises(StorageUnavailable) as err, storage.open_input(f"s3://{bucket}/big.bin") as fh:
            fh.read()
        text = str(err.value)
        assert text.startswith(f"s3://{bucket}/big.bin: reading at byte 0: the store failed to answer"), text
        assert "gave up after 1 retries" in text and "\n" not in text
    finally:
        proxy.close()


def _put(s3, bucket: str, key: str, data: bytes = b"x") -> None:
    s3.client().put_object(Bucket=bucket, Key=key, Body=data)


def test_inputs_from_a_bucket_a_glob_and_a_listing(s3, tmp_path) -> None:
    bucket = s3.bucket()
    for key in ("crawl/a.warc.gz", "crawl/sub/b.warc.gz", "crawl/.hidden/c.warc.gz", "crawl/crawl.log",
                "crawl/d.jsonl"):
        _put(s3, bucket, key)
    root = f"s3://{bucket}/crawl"
    assert expand_inputs([root + "/"]) == [f"{root}/a.warc.gz", f"{root}/d.jsonl", f"{root}/sub/b.warc.gz"]
    assert expand_inputs([f"{root}/**/*.warc.gz"]) == [f"{root}/a.warc.gz", f"{root}/sub/b.warc.gz"]
    with pytest.raises(FileNotFoundError, match="input not found"):
        expand_inputs([f"{root}/missing.warc.gz"])

    # Common Crawl's form: relative paths from the bucket's root, gzip'd, one per line
    listing = gzip.compress(b"crawl/a.warc.gz\ncrawl/sub/b.warc.gz\ncrawl/d.jsonl\n")
    _put(s3, bucket, "meta/warc.paths.gz", listing)
    listed = [f"{root}/a.warc.gz", f"{root}/d.jsonl", f"{root}/sub/b.warc.gz"]
    assert expand_inputs([f"s3://{bucket}/meta/warc.paths.gz"]) == listed
    assert expand_inputs([f"s3://{bucket}/meta/warc.paths.gz"], every=2) == listed[::2]
    assert expand_inputs([f"s3://{bucket}/meta/warc.paths.gz"], every=2, first=1) == listed[:1]
    local = tmp_path / "warc.paths.gz"
    local.write_bytes(listing)
    with pytest.raises(ValueError, match="give --input-base"):
        expand_inputs([str(local)])
    assert expand_inputs([str(local)], base=f"s3://{bucket}/") == listed
    # Labels (and so ids derived from them) are those of the same files on a local disk.
    assert input_labels(listed) == {p: p.rsplit("/", 1)[1] for p in listed}
