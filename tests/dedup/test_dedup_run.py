"""`winnow run pipelines/configs/dedup.yaml` on JSONL corpora: both runners, waves, --dedup-against."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pandas as pd
import pytest

from pipelines import storage
from pipelines.app.cli import main
from pipelines.config import ConfigError, load_config
from pipelines.runner import RunOptions, committed_shards, run
from tests.conftest import step_counts
from tests.dedup import planted

CONFIG = str(Path(__file__).resolve().parents[2] / "pipelines" / "configs" / "dedup.yaml")


def go(inputs, out: Path, local=True, **kw):
    return run(RunOptions(config=load_config(CONFIG), inputs=[str(p) for p in inputs], output=out, local=local,
                          progress=False, **kw))


def kept(out: Path) -> pd.DataFrame:
    return pd.read_parquet(out / "text").sort_values("id").reset_index(drop=True)


def by_step(stats):
    return {s["step"]: s for s in stats["steps"]}


@pytest.fixture(scope="module")
def corpora(tmp_path_factory):
    """first.jsonl: 40 documents, 10 near copies (J ~ 0.9) and 2 exact copies; second.jsonl: 20 new documents
    and 8 near copies of documents of the first."""
    rng = random.Random(9)
    vocab = planted.vocabulary()
    folder = tmp_path_factory.mktemp("corpora")
    bases = [planted.document(rng, vocab, 150) for _ in range(40)]
    first = [{"id": f"a{i:02d}", "text": t, "fetched_at": "2024-03-01T00:00:00+00:00"} for i, t in enumerate(bases)]
    first += [{"id": f"n{i:02d}", "text": planted.variant(rng, vocab, bases[i], 0.9)[0]} for i in range(10)]
    first += [{"id": f"x{i:02d}", "text": bases[30 + i].upper()} for i in range(2)]
    second = [{"id": f"c{i:02d}", "text": planted.document(rng, vocab, 150)} for i in range(20)]
    second += [{"id": f"m{i:02d}", "text": planted.variant(rng, vocab, bases[20 + i], 0.9)[0]} for i in range(8)]
    paths = []
    for name, rows in (("first", first), ("second", second)):
        for part in range(2):  # two files each: two waves with --wave-files 1
            path = folder / f"{name}-{part}.jsonl"
            path.write_text("".join(json.dumps(r) + "\n" for r in rows[part::2]))
            paths.append(path)
    return paths[:2], paths[2:]


@pytest.fixture(scope="module")
def local_runs(corpora, tmp_path_factory):
    first, second = corpora
    root = tmp_path_factory.mktemp("local")
    s1 = go(first, root / "one", wave_files=1)
    s2 = go(second, root / "two", dedup_against=[root / "one"])
    return root, s1, s2


def test_dedups_a_jsonl_corpus_across_waves(local_runs):
    root, stats, _ = local_runs
    steps = by_step(stats)
    assert steps["exact_dedup"]["dropped"] == {"exact_duplicate": 2}
    assert steps["minhash_dedup"]["dropped"] == {"near_duplicate": 10}
    assert list(kept(root / "one")["id"]) == [f"a{i:02d}" for i in range(40)]
    assert len(list((root / "one" / "_state" / "minhash_dedup").glob("*-bands-*.parquet"))) > 2


def test_dedup_against_a_previous_output(local_runs):
    root, _, stats = local_runs
    assert by_step(stats)["minhash_dedup"]["dropped"] == {"near_duplicate": 8}
    assert list(kept(root / "two")["id"]) == [f"c{i:02d}" for i in range(20)]
    manifest = json.loads((root / "two" / "manifest.json").read_text())
    assert manifest["dedup_against"] == [str(root / "one")]


def test_dedup_against_must_be_an_output(corpora, tmp_path):
    with pytest.raises(ConfigError, match="not a winnow output"):
        go(corpora[1], tmp_path / "out", dedup_against=[tmp_path])


def test_cli_option(corpora, local_runs, tmp_path, capsys):
    root = local_runs[0]
    code = main(["run", CONFIG, "--input", *map(str, corpora[1]), "--output", str(tmp_path / "cli"), "--local",
                 "--no-progress", "--dedup-against", str(root / "one")])
    assert code == 0 and "near_duplicate=8" in capsys.readouterr().out


@pytest.mark.ray
@pytest.mark.slow
def test_ray_gives_identical_rows(corpora, local_runs, tmp_path, ray_local):
    first, second = corpora
    root, s1, s2 = local_runs
    r1 = go(first, tmp_path / "one", local=False, wave_files=1)
    r2 = go(second, tmp_path / "two", local=False, dedup_against=[tmp_path / "one"])
    pd.testing.assert_frame_equal(kept(tmp_path / "one"), kept(root / "one"))
    pd.testing.assert_frame_equal(kept(tmp_path / "two"), kept(root / "two"))
    assert step_counts(r1["steps"]) == step_counts(s1["steps"]) and step_counts(r2["steps"]) == step_counts(s2["steps"])


@pytest.mark.slow
def test_dedup_against_an_output_in_a_bucket_as_against_a_local_one(corpora, local_runs, s3):
    """Both runs in the S3 test server (pipelines/storage.py): the second drops what the first kept, reading the
    first's MinHash and exact-dedup indexes from the bucket, as the local runs do from disk."""
    first, second = corpora
    _, s1, s2 = local_runs
    bucket = s3.bucket()
    remote = [s3.upload(p, bucket, f"in/{p.name}") for p in [*first, *second]]
    one, two = f"s3://{bucket}/one", f"s3://{bucket}/two"
    r1 = go(remote[:2], one, wave_files=1)
    r2 = go(remote[2:], two, dedup_against=[one])
    assert step_counts(r1["steps"]) == step_counts(s1["steps"]) and step_counts(r2["steps"]) == step_counts(s2["steps"])
    assert any(k.startswith("one/_state/minhash_dedup/") and "-bands-" in k for k in s3.keys(bucket, "one/"))
    ids = sorted(i for p in committed_shards(two, "text") for i in storage.read_parquet(p).column("id").to_pylist())
    assert ids == [f"c{i:02d}" for i in range(20)]
    assert json.loads(s3.get(bucket, "two/manifest.json"))["dedup_against"] == [one]
