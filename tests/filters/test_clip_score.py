"""ClipScore (filters/clip_score.py, filters/clip_model.py) on a tiny randomly initialised CLIP built by open_clip
(tests/filters/clip_tiny.py): loading from files as a pipeline config gives them, batching, scoring, the threshold
filter, bad rows, config errors, device choice and the Ray actor path."""

from __future__ import annotations

import os
import pickle
import sys
from pathlib import Path

import pyarrow as pa
import pytest

pytest.importorskip("open_clip", reason="the clip extra (open_clip_torch, torch) is not installed")

import torch

from filters import clip_model
from filters.clip_score import ClipScore
from pipelines.config import ConfigError, load_config
from pipelines.dataset import LocalDataset
from pipelines.records import ImageRecord, from_table, to_table
from pipelines.step import fuse
from tests.filters import clip_tiny

COLORS = [(200, 30, 30), (30, 200, 30), (30, 30, 200), (220, 220, 40), (20, 20, 20), (240, 240, 240),
          (120, 60, 180), (250, 140, 0), (0, 128, 128), (128, 128, 0)]
TEXTS = ["a red square", "green grass", "the blue sea", "a yellow banana", "night sky", "white snow",
         "purple flowers", "an orange", "teal paint", "olive oil"]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> tuple[Path, Path]:
    return clip_tiny.build(tmp_path_factory.mktemp("clip"))


def image(i: int, **kw) -> ImageRecord:
    fields = {"id": f"img{i:02d}", "alt": TEXTS[i % len(TEXTS)],
              "image": clip_tiny.image_bytes(COLORS[i % len(COLORS)], stripe=COLORS[(i + 3) % len(COLORS)],
                                             fmt="JPEG" if i % 2 else "PNG")}
    fields.update(kw)
    return ImageRecord(url=f"http://site/{i}", source="test", output="image_text", **fields)


def step(tiny, **kw) -> ClipScore:
    config, weights = tiny
    annotate = kw.pop("annotate", False)
    s = ClipScore(**{"model_config": str(config), "pretrained": str(weights), "min_score": None, **kw})
    s.bind(annotate=annotate)
    return s


def run(s: ClipScore, records: list[ImageRecord]) -> dict[str, ImageRecord]:
    return {r.id: r for r in from_table(s(to_table(records, "image")))}


def scores(rows: dict[str, ImageRecord]) -> dict[str, float]:
    return {i: r.clip_score for i, r in rows.items() if r.dropped_by is None}


def write_yaml(path: Path, lines: list[str]) -> str:
    path.write_text("\n".join(["steps:", "  - use: filters.clip_score.ClipScore", "    with:",
                               *(f"      {line}" for line in lines)]) + "\n")
    return str(path)


# -- the whole path -------------------------------------------------------------------------------------------------

def test_config_to_scores(tiny, tmp_path):
    config, weights = tiny
    cfg = load_config(write_yaml(tmp_path / "p.yaml", [f"model_config: {config}", f"pretrained: {weights}",
                                                       "min_score: null", "batch_size: 4"]))
    (s,) = cfg.steps
    cfg.check_kinds({"image"})  # image records in, the images/ output out
    assert s.name == "clip_score" and s.input_kind == "image" and s.needs_actor and s.num_gpus == 0
    s.setup()
    assert s.device == "cpu"  # this machine has no GPU
    records = [image(i) for i in range(10)]
    table = s(to_table(records, "image"))
    assert table.schema.field("clip_score").type == pa.float32()
    rows = {r.id: r for r in from_table(table)}
    got = scores(rows)
    assert len(got) == 10
    assert all(-1.0 <= v <= 1.0 for v in got.values())
    assert len(set(got.values())) == 10  # every pair its own score: it depends on the image and the text
    assert scores(run(s, [image(i) for i in range(10)])) == got  # deterministic


def test_score_depends_on_image_and_text(tiny):
    s = step(tiny)
    base = image(0)
    rows = run(s, [base, image(0, id="same", alt=base.alt), image(0, id="other_text", alt="a tax form"),
                   image(0, id="other_image", image=image(4).image)])
    got = scores(rows)
    assert got["same"] == pytest.approx(got[base.id], abs=1e-6)
    assert got["other_text"] != pytest.approx(got[base.id], abs=1e-4)
    assert got["other_image"] != pytest.approx(got[base.id], abs=1e-4)


def test_score_is_cosine_of_open_clip_embeddings(tiny):
    """The score is open_clip's own image/text embedding cosine, computed here independently."""
    import io

    import open_clip
    from PIL import Image

    s = step(tiny)
    records = [image(i) for i in range(3)]
    got = scores(run(s, records))
    open_clip.add_model_config(tiny[0])  # registered under its name, as a user's config is
    model, _, preprocess = open_clip.create_model_and_transforms(clip_tiny.NAME, pretrained=str(tiny[1]))
    model.eval()
    tokenizer = open_clip.get_tokenizer(clip_tiny.NAME)
    with torch.no_grad():
        for r in records:
            pixels = preprocess(Image.open(io.BytesIO(r.image)).convert("RGB")).unsqueeze(0)
            img = model.encode_image(pixels, normalize=True)
            txt = model.encode_text(tokenizer([r.alt]), normalize=True)
            assert got[r.id] == pytest.approx(float((img @ txt.T).item()), abs=1e-5)


def test_batch_size_does_not_change_scores(tiny):
    records = [image(i) for i in range(10)]
    one = scores(run(step(tiny, batch_size=1), records))
    three = scores(run(step(tiny, batch_size=3), records))
    many = scores(run(step(tiny, batch_size=64), records))
    for key, value in many.items():
        assert one[key] == pytest.approx(value, abs=1e-5)
        assert three[key] == pytest.approx(value, abs=1e-5)


def test_local_dataset_path_sets_up_once(tiny, monkeypatch):
    """The local runner's path: LocalDataset.apply_step calls setup once, then the step on every table."""
    s = step(tiny, batch_size=4)
    calls = []
    real = ClipScore.setup
    monkeypatch.setattr(ClipScore, "setup", lambda self: (calls.append(1), real(self))[1])
    tables = [to_table([image(i) for i in range(j, j + 5)], "image") for j in (0, 5)]
    rows = [r for t in LocalDataset(tables).apply_step(s).tables() for r in from_table(t)]
    assert len(calls) == 1
    assert len(rows) == 10 and all(r.clip_score is not None for r in rows)


# -- the threshold filter -------------------------------------------------------------------------------------------

def test_min_score_drops_exactly_the_rows_below(tiny):
    records = [image(i) for i in range(10)]
    got = scores(run(step(tiny), records))
    ranked = sorted(got.values())
    threshold = (ranked[4] + ranked[5]) / 2
    rows = run(step(tiny, min_score=threshold), [image(i) for i in range(10)])
    kept = {i for i, r in rows.items() if r.dropped_by is None}
    assert kept == {i for i, v in got.items() if v >= threshold}
    assert len(kept) == 5
    for i, r in rows.items():
        if i not in kept:
            assert r.dropped_by == "clip_score.low_clip_score"
            assert r.drop_detail == f"{got[i]:.4f}"
    # a threshold equal to a score keeps that row (>=, as DataComp's filters keep)
    rows = run(step(tiny, min_score=ranked[3]), [image(i) for i in range(10)])
    assert sum(r.dropped_by is None for r in rows.values()) == 7


def test_annotate_keeps_the_score_on_dropped_rows(tiny):
    s = step(tiny, min_score=1.0, annotate=True)
    rows = run(s, [image(i) for i in range(4)])
    assert all(r.dropped_by == "clip_score.low_clip_score" for r in rows.values())
    assert all(r.clip_score is not None and r.image for r in rows.values())


def test_default_threshold_is_the_laion_datacomp_number(tiny):
    config, weights = tiny
    assert ClipScore(model_config=str(config), pretrained=str(weights)).min_score == 0.28


# -- rows that cannot be scored -------------------------------------------------------------------------------------

def test_bad_rows_are_counted_drops(tiny):
    good = image(1)
    truncated = clip_tiny.image_bytes((10, 20, 30), size=(64, 64), fmt="PNG")[:60]
    records = [good,
               image(2, id="garbage", image=b"this is not an image"),
               image(3, id="truncated", image=truncated),
               image(4, id="no_bytes", image=None),
               image(5, id="empty_bytes", image=b""),
               image(6, id="blank_alt", alt="   ", caption=None),
               image(7, id="no_text", alt=None, caption=None)]
    rows = run(step(tiny, batch_size=2), records)
    reasons = {i: r.dropped_by for i, r in rows.items()}
    assert reasons == {good.id: None, "garbage": "clip_score.undecodable_image",
                       "truncated": "clip_score.undecodable_image", "no_bytes": "clip_score.no_image",
                       "empty_bytes": "clip_score.no_image", "blank_alt": "clip_score.no_text",
                       "no_text": "clip_score.no_text"}
    assert rows["garbage"].drop_detail == "not an image format Pillow reads"
    assert rows["truncated"].drop_detail  # Pillow's own words for the truncation
    assert rows[good.id].clip_score is not None


def test_caption_is_the_fallback_and_text_caption_prefers_it(tiny):
    alt_only = image(0, id="alt_only", alt="a red square", caption=None)
    caption_only = image(0, id="caption_only", alt=None, caption="a red square")
    both = image(0, id="both", alt="a tax form", caption="a red square")
    by_alt = scores(run(step(tiny), [alt_only, caption_only, both]))
    assert by_alt["caption_only"] == pytest.approx(by_alt["alt_only"], abs=1e-6)
    assert by_alt["both"] != pytest.approx(by_alt["alt_only"], abs=1e-4)
    by_caption = scores(run(step(tiny, text="caption"), [alt_only, caption_only, both]))
    assert by_caption["both"] == pytest.approx(by_alt["alt_only"], abs=1e-6)


def test_rows_dropped_earlier_pass_through(tiny):
    earlier = image(1, id="earlier", dropped_by="image_fetch.http_error")
    rows = run(step(tiny), [image(0), earlier])
    assert rows["earlier"].dropped_by == "image_fetch.http_error" and rows["earlier"].clip_score is None
    assert rows[image(0).id].clip_score is not None


# -- loading: local files only, clear errors ------------------------------------------------------------------------

def config_error(tmp_path, lines) -> str:
    with pytest.raises(ConfigError) as info:
        load_config(write_yaml(tmp_path / "bad.yaml", lines))
    return str(info.value)


def test_missing_weights_is_a_clear_error(tiny, tmp_path):
    message = config_error(tmp_path, [f"model_config: {tiny[0]}", "pretrained: /nowhere/tiny.bin"])
    assert "clip_score: pretrained: /nowhere/tiny.bin does not exist" in message
    assert "never downloads weights" in message and "bad.yaml" in message
    message = config_error(tmp_path, ["model: ViT-B-32"])
    assert "clip_score: pretrained: required" in message


def test_pretrained_tag_is_refused(tmp_path):
    message = config_error(tmp_path, ["model: ViT-B-32", "pretrained: laion2b_s34b_b79k"])
    assert "clip_score: pretrained: 'laion2b_s34b_b79k' is an open_clip pretrained tag" in message
    assert "never downloads weights" in message


def test_a_file_named_like_a_tag_is_a_file(tiny, tmp_path, monkeypatch):
    """open_clip would read pretrained='openai' as a tag (a download); winnow passes the absolute path."""
    (tmp_path / "openai").write_bytes(tiny[1].read_bytes())
    monkeypatch.chdir(tmp_path)
    s = ClipScore(model_config=str(tiny[0]), pretrained="openai", min_score=None)
    assert s.settings.pretrained == str(tmp_path / "openai")
    s.bind()
    assert len(scores(run(s, [image(0)]))) == 1


def test_model_config_errors(tiny, tmp_path):
    assert "clip_score: model_config: /no/such.json does not exist" in config_error(
        tmp_path, ["model_config: /no/such.json", f"pretrained: {tiny[1]}"])
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert "is not a readable JSON file" in config_error(tmp_path, [f"model_config: {broken}",
                                                                   f"pretrained: {tiny[1]}"])
    other = tmp_path / "other.json"
    other.write_text('{"embed_dim": 32}')
    assert "is not an open_clip model config" in config_error(tmp_path, [f"model_config: {other}",
                                                                        f"pretrained: {tiny[1]}"])
    assert "names a config by its file name" in config_error(
        tmp_path, ["model: ViT-B-32", f"model_config: {tiny[0]}", f"pretrained: {tiny[1]}"])
    builtin = clip_tiny.write_config(tmp_path, name="ViT-B-32")
    assert "is a built-in open_clip architecture" in config_error(
        tmp_path, [f"model_config: {builtin}", f"pretrained: {tiny[1]}"])


def test_model_name_errors(tiny, tmp_path):
    assert "'ViT-Q-99' is not a built-in open_clip architecture" in config_error(
        tmp_path, ["model: ViT-Q-99", f"pretrained: {tiny[1]}"])
    message = config_error(tmp_path, ["model: hf-hub:laion/CLIP-ViT-B-32-laion2B-s34B-b79K"])
    assert "clip_score: model:" in message and "never downloads" in message


@pytest.mark.slow
def test_weights_of_another_architecture_fail_at_setup(tiny):
    s = ClipScore(model="ViT-B-32", pretrained=str(tiny[1]))  # a tiny state dict for a ViT-B/32
    with pytest.raises(RuntimeError, match=r"clip_score: could not load model 'ViT-B-32'"):
        s.setup()


@pytest.mark.parametrize(("kw", "needle"), [
    ({"min_score": 1.5}, "min_score must be a number in [-1, 1]"),
    ({"batch_size": 0}, "batch_size must be an integer"),
    ({"device": "gpu"}, "clip_score: device: expected auto, cpu, cuda or cuda:N"),
    ({"text": "context"}, "clip_score: text: expected one of"),
    ({"precision": "int8"}, "clip_score: precision:"),
    ({"precision": "fp16", "device": "cpu"}, "fp16 needs a CUDA device"),
    ({"device": "cpu", "num_gpus": 1}, "a GPU is requested but device is cpu"),
    ({"device": "cuda", "num_gpus": 0}, "the step would see no GPU"),
    ({"preprocess": {"mean": [0.5, 0.5]}}, "mean must be 3 numbers"),
    ({"preprocess": {"crop": True}}, "clip_score: preprocess: expected a mapping"),
])
def test_bad_settings(tiny, kw, needle):
    with pytest.raises(ValueError) as info:
        ClipScore(model_config=str(tiny[0]), pretrained=str(tiny[1]), **kw)
    assert needle in str(info.value)


def test_nothing_is_downloaded(tiny, monkeypatch):
    """Loading goes through open_clip without any download path: every downloader raises, and the hub is offline."""
    import open_clip.factory
    import open_clip.pretrained

    def refuse(*args, **kwargs):
        raise AssertionError(f"download attempted: {args}")

    for module in (open_clip.factory, open_clip.pretrained):
        for name in ("download_pretrained", "download_pretrained_from_hf", "download_pretrained_from_url"):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, refuse)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    clip_model.load.cache_clear()
    s = step(tiny)
    s.setup()
    assert os.environ["HF_HUB_OFFLINE"] == "1"
    if "huggingface_hub.constants" in sys.modules:
        assert sys.modules["huggingface_hub.constants"].HF_HUB_OFFLINE is True
    assert len(scores(run(s, [image(0)]))) == 1


def test_the_model_is_not_pickled(tiny):
    s = step(tiny)
    s.setup()
    blob = pickle.dumps(s)
    assert len(blob) < 10_000  # the weights file is ~13 MB
    copy = pickle.loads(blob)
    assert copy.device is None
    copy.setup()
    assert scores(run(copy, [image(0)])) == scores(run(s, [image(0)]))


@pytest.mark.slow
def test_openai_torchscript_archive(tmp_path):
    """An OpenAI release file is a TorchScript archive of a QuickGELU model: it loads into the named architecture with
    QuickGELU forced, giving the scores of the same weights as a state dict."""
    config, archive = clip_tiny.build_torchscript(tmp_path)
    assert clip_model.is_torchscript(str(archive))
    state = archive.with_name(archive.stem + ".state.pt")
    assert not clip_model.is_torchscript(str(state))
    records = [image(i) for i in range(5)]
    reference = scores(run(ClipScore(model_config=str(config), pretrained=str(state), min_score=None), records))
    gelu_folder = tmp_path / "gelu"
    gelu_folder.mkdir()
    gelu_config = clip_tiny.write_config(gelu_folder)  # the same architecture, without quick_gelu
    from_archive = scores(run(ClipScore(model_config=str(gelu_config), pretrained=str(archive), min_score=None),
                              records))
    for key, value in reference.items():
        assert from_archive[key] == pytest.approx(value, abs=1e-5)
    # the same weights read as GELU score differently: forcing QuickGELU is what made them agree
    as_gelu = scores(run(ClipScore(model_config=str(gelu_config), pretrained=str(state), min_score=None), records))
    assert any(abs(as_gelu[k] - v) > 1e-4 for k, v in reference.items())


def test_bf16_on_cpu_scores_close_to_fp32(tiny):
    records = [image(i) for i in range(4)]
    fp32 = scores(run(step(tiny), records))
    bf16 = scores(run(step(tiny, precision="bf16"), records))
    for key, value in fp32.items():
        assert bf16[key] == pytest.approx(value, abs=0.05)


# -- device and GPU request -----------------------------------------------------------------------------------------

def test_gpu_request_follows_the_device(tiny):
    auto = step(tiny)
    cuda = step(tiny, device="cuda")
    half = step(tiny, device="auto", num_gpus=0.5)
    assert auto.num_gpus == 0 and cuda.num_gpus == 1 and half.num_gpus == 0.5
    assert ClipScore.num_gpus == 0  # an instance setting, not the class's
    # a GPU step keeps its own actor pool (fuse leaves it out of groups); a CPU one may be grouped
    other = step(tiny)
    other.bind("clip_score_2")
    units = fuse([cuda, other])
    assert units[0] is cuda


def ray_map_arguments(s: ClipScore, monkeypatch) -> dict:
    """The arguments pipelines.ray_data gives ``map_batches`` for the step (no cluster: the dataset records them)."""
    pytest.importorskip("ray")
    from pipelines import ray_data

    seen: dict = {}

    class RecordingDataset:
        def map_batches(self, fn, **kwargs):
            seen.update(kwargs)
            return self

    monkeypatch.setattr(ray_data, "_actor_pool_size", lambda: 1)
    monkeypatch.setattr(ray_data, "_actor_cpus", lambda: 0.5)
    monkeypatch.setattr(ray_data.ray.data, "ActorPoolStrategy", lambda size: ("pool", size))
    monkeypatch.setattr(ray_data.ray, "cluster_resources", lambda: {"CPU": 2.0, "GPU": 1.0})
    monkeypatch.setattr(ray_data, "_cpu_nodes", lambda: 1)  # one node, as the cluster_resources above say
    ray_data.RayDataset(RecordingDataset()).apply_step(s)
    return seen


def test_ray_map_asks_for_the_gpu(tiny, monkeypatch):
    """pipelines.ray_data passes the step's num_gpus to map_batches, for an actor pool."""
    seen = ray_map_arguments(step(tiny, device="cuda"), monkeypatch)
    assert seen["num_gpus"] == 1 and seen["compute"] == ("pool", 1)
    assert ray_map_arguments(step(tiny), monkeypatch)["num_gpus"] is None


def test_ray_gpu_map_has_a_batch_size(tiny, monkeypatch):
    """Ray Data refuses a GPU map without one ('You must provide `batch_size` to `map_batches` when requesting
    GPUs'): the step's own model batch is used."""
    assert ray_map_arguments(step(tiny, device="cuda", batch_size=48), monkeypatch)["batch_size"] == 48


def test_a_gpu_step_on_a_cluster_without_gpus_is_a_clear_error(tiny, monkeypatch):
    """Ray would wait for ever for an actor it cannot place (measured: no progress in 100 s)."""
    from pipelines import ray_data
    from pipelines.config import ConfigError

    monkeypatch.setattr(ray_data.ray, "cluster_resources", lambda: {"CPU": 2.0})
    gpu_step = step(tiny, device="cuda")
    gpu_step.bind()
    with pytest.raises(ConfigError, match="asks Ray for 1 GPU"):
        ray_data.RayDataset(None).apply_step(gpu_step)


def test_device_resolution(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
    assert clip_model.resolve_device("auto") == "cuda"
    assert clip_model.resolve_device("cuda:1") == "cuda:1"
    assert clip_model.resolve_device("cpu") == "cpu"
    with pytest.raises(RuntimeError, match="sees 2 CUDA device"):
        clip_model.resolve_device("cuda:2")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert clip_model.resolve_device("auto") == "cpu"
    with pytest.raises(RuntimeError, match="device: cuda, but torch sees no CUDA device"):
        clip_model.resolve_device("cuda")


def test_cpu_threads(tiny, monkeypatch):
    calls = []
    monkeypatch.setattr(torch, "set_num_threads", calls.append)
    step(tiny).setup()
    assert calls == []  # torch's default unless asked
    step(tiny, cpu_threads=1).setup()
    assert calls == [1]
    with pytest.raises(ValueError, match="cpu_threads must be an integer"):
        step(tiny, cpu_threads=0)


def test_cuda_without_a_gpu_fails_at_setup(tiny, monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(RuntimeError, match="num_gpus > 0"):
        step(tiny, device="cuda").setup()


# -- Ray ------------------------------------------------------------------------------------------------------------

@pytest.mark.ray
@pytest.mark.slow
def test_ray_actor_pool_scores_like_local(tiny, ray_local):
    from pipelines.ray_data import RayDataset

    records = [image(i) for i in range(10)]
    local = scores(run(step(tiny, batch_size=4), records))
    s = step(tiny, batch_size=4, min_score=None)
    tables = [to_table([image(i) for i in range(j, j + 5)], "image") for j in (0, 5)]
    rows = {r.id: r for t in RayDataset.from_tables(tables).apply_step(s).tables() for r in from_table(t)}
    got = scores(rows)
    assert got.keys() == local.keys()
    for key, value in local.items():
        assert got[key] == pytest.approx(value, abs=1e-5)


def test_through_winnow_run_on_an_images_shard(tiny, tmp_path):
    """The image lane's second half as a user runs it: `winnow run CONFIG --input IMAGES/images`."""
    import pyarrow.parquet as pq

    from pipelines.readers import expand_inputs
    from pipelines.runner import RunOptions
    from pipelines.runner import run as run_pipeline

    config, weights = tiny
    shard = tmp_path / "fetched" / "images" / "part-00000.parquet"
    shard.parent.mkdir(parents=True)
    rows = [image(i) for i in range(6)] + [image(6, alt=None, caption=None)]
    pq.write_table(to_table(rows, "image"), shard)
    yaml_file = tmp_path / "score.yaml"
    yaml_file.write_text("steps:\n  - use: filters.clip_score.ClipScore\n"
                         f"    with: {{model_config: {config}, pretrained: {weights}, min_score: null}}\n")
    out = tmp_path / "scored"
    stats = run_pipeline(RunOptions(config=load_config(str(yaml_file)), inputs=expand_inputs([str(shard.parent)]),
                                    output=out, local=True, progress=False))
    scored = pa.concat_tables(pq.read_table(p) for p in sorted((out / "images").glob("*.parquet")))
    assert sorted(scored.column("id").to_pylist()) == [f"img{i:02d}" for i in range(6)]
    scores = scored.column("clip_score").to_pylist()
    assert all(s is not None and -1.0 <= s <= 1.0 for s in scores)
    step_stats = {s["step"]: s for s in stats["steps"]}["clip_score"]
    assert step_stats["in"] == 7 and step_stats["kept"] == 6 and step_stats["dropped"] == {"no_text": 1}
