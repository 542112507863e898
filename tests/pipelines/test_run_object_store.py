"""`winnow run` with its input and output in an object store: the S3-compatible server the tests start on
127.0.0.1 (moto). The same rows as a run on local files; a run killed with -9 mid-wave and resumed loses and
duplicates nothing; wrong credentials, a missing bucket, access denied and a store that drops the connection are one
line or a counted skip, never a committed half wave, never a credential in a message."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pyarrow as pa
import pytest

from pipelines import storage
from pipelines.app.cli import main
from pipelines.app.sample import build_sample_warc
from pipelines.config import load_config
from pipelines.readers import expand_inputs
from pipelines.runner import RunOptions, committed_shards, completed_waves, run, wave_id
from pipelines.storage_errors import StorageUnavailable
from tests.conftest import step_counts
from tests.flaky_servers import CuttingProxy, RangeServer
from tests.s3_server import SECRET_KEY, clean_env, session_env, start_auth_server
from tests.warc_factory import WarcBuilder

REPO = Path(__file__).resolve().parents[2]


def ids(out: str | Path, folder: str = "text") -> list[str]:
    """The ids in the committed shards of one output folder, local or remote, sorted (duplicates kept)."""
    tables = [storage.read_parquet(p, columns=["id"]) for p in committed_shards(str(out), folder)]
    return sorted(pa.concat_tables(tables).column("id").to_pylist()) if tables else []


def _second_warc(path: Path) -> Path:
    warc = WarcBuilder()
    for i, topic in enumerate(("rivers", "mountains", "harbours")):
        body = (f"<html><head><title>On {topic}</title></head><body><article><h1>On {topic}</h1>"
                + "".join(f"<p>Paragraph {j} about {topic}: the survey of {topic} in the northern districts was "
                          f"carried out over several seasons, and its notes describe each of the {topic} in turn, "
                          f"with the distances, the names used locally and the changes seen since the last "
                          f"survey, which was made {j + 3} years before.</p>" for j in range(6))
                + "</article></body></html>").encode()
        warc.add_response(f"http://example.test/{topic}-{i}.html", body)
    warc.write(path)
    return path


@pytest.fixture(scope="module")
def crawl(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("crawl") / "crawl"
    folder.mkdir()
    build_sample_warc(folder / "site.warc.gz")
    _second_warc(folder / "more.warc.gz")
    return folder


@pytest.mark.slow
def test_default_run_from_and_to_a_bucket_gives_the_ids_of_a_local_run(s3, crawl: Path, tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture) -> None:
    bucket = s3.bucket()
    for f in crawl.iterdir():
        s3.upload(f, bucket, f"crawl/{f.name}")
    rc = main(["run", "default", "--input", f"s3://{bucket}/crawl/", "--output", f"s3://{bucket}/out", "--local",
               "--wave-files", "1", "--no-progress"])
    assert rc == 0, capsys.readouterr().err
    local = tmp_path / "out"
    local_stats = run(RunOptions(config=load_config("default"), inputs=sorted(str(p) for p in crawl.iterdir()),
                                 output=local, local=True, progress=False, wave_files=1))

    out = f"s3://{bucket}/out"
    for name in ("text", "image_text", "interleaved"):
        assert ids(out, name) == ids(local, name), name
    assert ids(out) and len(set(ids(out))) == len(ids(out))
    keys = s3.keys(bucket, "out/")
    for name in ("stats.json", "manifest.json", "report.html"):
        assert f"out/{name}" in keys
    assert len([k for k in keys if k.startswith("out/_progress/wave-")]) == 2
    assert any(k.startswith("out/_state/minhash_dedup/") for k in keys)  # the dedup index lives in the bucket too
    assert not any(k.startswith("out/_timing/") or k.endswith(".tmp") for k in keys)
    stats = json.loads(s3.get(bucket, "out/stats.json"))
    assert step_counts(stats["steps"]) == step_counts(local_stats["steps"])
    assert stats["inputs"] == local_stats["inputs"]
    manifest = json.loads(s3.get(bucket, "out/manifest.json"))
    assert [i["path"] for i in manifest["inputs"]] == [f"s3://{bucket}/crawl/more.warc.gz",
                                                       f"s3://{bucket}/crawl/site.warc.gz"]
    assert all(i["bytes"] > 0 for i in manifest["inputs"]) and manifest["finished_at"]
    for key in keys:
        if key.endswith((".json", ".html")):
            assert SECRET_KEY.encode() not in s3.get(bucket, key), key

    # Re-running the same command finds every input done, in the bucket's commit records.
    assert main(["run", "default", "--input", f"s3://{bucket}/crawl/", "--output", out, "--local", "--wave-files",
                 "1", "--no-progress"]) == 0
    assert "0 input(s) processed, 2 already done" in capsys.readouterr().out


def _corpus(folder: Path, files: int = 3, docs: int = 600) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(files):
        path = folder / f"c{i}.jsonl"
        path.write_text("".join(json.dumps({"id": f"c{i}-{j}", "text": f"document {j} of file {i}, "
                                            f"{'and some words ' * (j % 7 + 1)}"}) + "\n" for j in range(docs)))
        paths.append(path)
    return paths


@pytest.mark.slow
def test_kill_9_mid_wave_on_a_bucket_then_resume_loses_and_duplicates_nothing(s3, tmp_path: Path) -> None:
    bucket = s3.bucket()
    files = _corpus(tmp_path / "corpus")
    for f in files:
        s3.upload(f, bucket, f"in/{f.name}")
    marker = tmp_path / "stall"
    marker.touch()
    config = tmp_path / "stalls.yaml"
    config.write_text(textwrap.dedent(f"""\
        steps:
          - use: tests.pipelines.object_store_steps.StallsWhileMarked
            with: {{marker: "{marker}", on_source_prefix: "c2.jsonl"}}
        output:
          max_rows_per_shard: 100
        """))
    out = f"s3://{bucket}/out"
    proc = subprocess.Popen([sys.executable, "-m", "pipelines.app.cli", "run", str(config), "--input", f"s3://{bucket}/in/",
                             "--output", out, "--local", "--wave-files", "1", "--no-progress"], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    last = wave_id([f"s3://{bucket}/in/c2.jsonl"])
    try:
        deadline = time.monotonic() + 120
        while True:  # two waves committed, the third's first shards written: kill it there
            keys = s3.keys(bucket, "out/")
            if sum(k.startswith("out/_progress/wave-") for k in keys) == 2 and \
                    any(k.startswith(f"out/text/part-{last}-") for k in keys):
                break
            assert proc.poll() is None, proc.stdout.read()
            assert time.monotonic() < deadline, keys
            time.sleep(0.2)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert set(completed_waves(out)) == {wave_id([f"s3://{bucket}/in/c{i}.jsonl"]) for i in (0, 1)}
    # The third wave's shards are in the bucket but not committed: no reader of the output takes them.
    assert any(f"/part-{last}-" in k for k in s3.keys(bucket, "out/text/"))
    assert not any(f"/part-{last}-" in p for p in committed_shards(out, "text"))
    assert len(ids(out)) == 1200
    assert expand_inputs([f"{out}/text/"]) == sorted(committed_shards(out, "text"))  # a next run reads only those

    marker.unlink()
    stats = run(RunOptions(config=load_config(str(config)), inputs=[f"s3://{bucket}/in/c{i}.jsonl" for i in range(3)],
                           output=out, local=True, progress=False, wave_files=1))
    assert stats["last_run"] == {**stats["last_run"], "inputs_processed": 1, "inputs_skipped_as_done": 2}
    clean = tmp_path / "clean"
    run(RunOptions(config=load_config(str(config)), inputs=[str(f) for f in files], output=clean, local=True,
                   progress=False, wave_files=1))
    resumed = ids(out)
    assert resumed == ids(clean) and len(resumed) == len(set(resumed)) == 1800
    every_shard = [k for k in s3.keys(bucket, "out/text/")]
    assert len(every_shard) == len(committed_shards(out, "text"))  # the killed wave's leftovers were removed


def test_bad_buckets_and_credentials_are_one_line_without_the_secret(s3, tmp_path: Path, monkeypatch,
                                                                     capsys: pytest.CaptureFixture) -> None:
    bucket = s3.bucket()
    _corpus(tmp_path / "corpus", files=1, docs=5)
    s3.upload(tmp_path / "corpus" / "c0.jsonl", bucket, "in/c0.jsonl")

    def winnow(*args: str) -> tuple[int, str]:
        rc = main(["run", "light", "--local", "--no-progress", *args])
        return rc, capsys.readouterr().err.strip().splitlines()[-1]

    rc, err = winnow("--input", "s3://no-such-bucket-x/in/", "--output", str(tmp_path / "o1"))
    assert rc == 2 and err == "winnow run: s3://no-such-bucket-x/in: listing: the bucket does not exist"
    rc, err = winnow("--input", f"s3://{bucket}/in/", "--output", "s3://no-such-bucket-x/out")
    assert rc == 2 and err == ("winnow run: cannot write to the output folder s3://no-such-bucket-x/out: writing: "
                               "the bucket does not exist")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "the-wrong-secret-key-1234")
    server, data, creds = start_auth_server("ok/", "secret/")
    try:
        monkeypatch.setenv("AWS_ENDPOINT_URL", server.endpoint)
        monkeypatch.setenv("AWS_ACCESS_KEY_ID", creds["AWS_ACCESS_KEY_ID"])  # a real key, the wrong secret
        rc, err = winnow("--input", f"s3://{data}/ok/", "--output", str(tmp_path / "o2"))
        assert rc == 2 and err == (f"winnow run: s3://{data}/ok: listing: access denied: the secret key does not "
                                   "match the access key (wrong credentials?)")
        monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIANOSUCHKEY0000000")
        rc, err = winnow("--input", f"s3://{data}/ok/", "--output", str(tmp_path / "o3"))
        assert rc == 2 and "access denied: the access key is not known to the store" in err

        # The right credentials, allowed to read ok/ only: the input under secret/ is a counted skip, the rest runs.
        monkeypatch.setenv("AWS_ACCESS_KEY_ID", creds["AWS_ACCESS_KEY_ID"])
        monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", creds["AWS_SECRET_ACCESS_KEY"])
        reader = server.client(key=creds["AWS_ACCESS_KEY_ID"], secret=creds["AWS_SECRET_ACCESS_KEY"])
        for prefix in ("ok", "secret"):
            reader.upload_file(str(tmp_path / "corpus" / "c0.jsonl"), data, f"{prefix}/{prefix}.jsonl")
        # A run of its own, in an environment of its own, as a user starts one.
        run_env = clean_env(**{**session_env(0), **creds})
        done = subprocess.run([sys.executable, "-m", "pipelines.app.cli", "run", "light", "--local", "--no-progress",
                               "--input", f"s3://{data}/", "--output", f"s3://{data}/out"],
                              capture_output=True, text=True, env=run_env, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        stats = json.loads(reader.get_object(Bucket=data, Key="out/stats.json")["Body"].read())
        assert stats["errors"] == [f"secret.jsonl@0: s3://{data}/secret/secret.jsonl: opening: access denied (the "
                                   "credentials in use may not read or write here)"]
        assert stats["inputs"]["ok.jsonl"]["kept"] == 5
        everything = json.dumps(stats) + done.stderr + capsys.readouterr().err
        assert creds["AWS_SECRET_ACCESS_KEY"] not in everything and "the-wrong-secret" not in everything
    finally:
        server.stop()


def test_a_store_that_drops_every_connection_stops_the_wave_uncommitted(s3, tmp_path: Path, monkeypatch) -> None:
    bucket = s3.bucket()
    big = tmp_path / "big.jsonl"
    big.write_text("".join(json.dumps({"text": f"line {i} " + "x" * 200}) + "\n" for i in range(2000)))
    s3.upload(big, bucket, "in/big.jsonl")
    proxy = CuttingProxy(s3.port, after=100_000)
    proxy.cuts = -1
    monkeypatch.setenv("AWS_ENDPOINT_URL", proxy.endpoint)
    monkeypatch.setattr(storage, "READ_RETRIES", 1)
    monkeypatch.setattr(storage, "RETRY_BASE_S", 0.01)
    out = f"s3://{bucket}/out"
    opts = RunOptions(config=load_config("light"), inputs=[f"s3://{bucket}/in/big.jsonl"], output=out, local=True,
                      progress=False)
    try:
        with pytest.raises(StorageUnavailable, match=rf"^s3://{bucket}/in/big.jsonl: reading at byte \d+: "):
            run(opts)
        assert completed_waves(out) == {} and committed_shards(out, "text") == []
        proxy.cuts = 0  # the store answers again: the same command resumes
        stats = run(opts)
        assert stats["inputs"]["big.jsonl"]["records"] == 2000
        assert len(ids(out)) == stats["outputs"]["text"]["rows"] > 0
    finally:
        proxy.close()


def test_an_http_input_dropped_mid_file_is_read_again_from_where_it_stopped(tmp_path: Path) -> None:
    warc = _second_warc(tmp_path / "more.warc.gz")
    server = RangeServer(warc.read_bytes(), name="crawl/more.warc.gz", after=1500, cuts=1)
    try:
        remote = run(RunOptions(config=load_config("light"), inputs=expand_inputs([server.url]), output=tmp_path / "a",
                                local=True, progress=False))
        assert server.requests >= 2  # the answer cut after 1,500 bytes, then the rest
    finally:
        server.close()
    local = run(RunOptions(config=load_config("light"), inputs=[str(warc)], output=tmp_path / "b", local=True,
                           progress=False))
    assert ids(tmp_path / "a") == ids(tmp_path / "b") != []
    assert remote["inputs"] == local["inputs"]
