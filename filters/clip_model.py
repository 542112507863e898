"""Loading an open_clip model for filters/clip_score.py from local files only, and choosing its device.

Two halves with different costs. ``check_settings`` runs when the pipeline config is loaded (the step's
constructor): it validates names and paths without importing torch or open_clip (importing them costs seconds),
so a typo or a missing file fails before any work. ``load`` runs in ``setup()`` (once per process or Ray actor)
and builds the model, its inference transform and its tokenizer.

Nothing is downloaded, ever (ARCHITECTURE.md: "nothing downloads at run time"):

- ``model`` is an open_clip architecture name (a built-in config under ``open_clip/model_configs``, such as
  ``ViT-B-32``), or the name of the config given in ``model_config``. The schemas ``hf-hub:`` (a download) and
  ``local-dir:`` are refused: give the config file and the weights file instead.
- ``pretrained`` is the path of a weights file. open_clip reads a pretrained *tag* (``laion2b_s34b_b79k``) as a
  download; winnow refuses it with an error naming the setting. The path is made absolute before open_clip sees
  it, so a file that happens to be called like a tag is never taken for one.
- ``HF_HUB_OFFLINE=1`` is set before open_clip is imported, and huggingface_hub's own flag is set if it was
  imported earlier (it reads the variable once, at import): an architecture whose text tower is a Hugging Face
  model then fails with an offline error unless its files are in the local HF cache, instead of fetching them.

Weights files: a state dict as open_clip and torch save it (``.bin``/``.pt``/``.pth``, or ``.safetensors``),
e.g. ``open_clip_pytorch_model.bin`` of an open_clip release; or an OpenAI CLIP release file (``ViT-B-32.pt``),
which is a TorchScript archive: its weights are read with ``torch.jit.load`` (TorchScript's own loader, not
pickle) into the named architecture with QuickGELU, the activation OpenAI trained with. For OpenAI weights in
state-dict form use the ``-quickgelu`` architecture (``ViT-B-32-quickgelu``): open_clip's plain ``ViT-B-32``
config uses GELU and would load them without complaint but score wrongly.

Image preprocessing: open_clip's defaults for a weights file (OpenAI's mean and std, bicubic resize of the
shortest side, centre crop to the model's image size), which is what OpenAI's and open_clip's ViT releases were
trained with; ``preprocess`` overrides ``mean``, ``std``, ``interpolation`` and ``resize_mode`` for models that
differ (e.g. SigLIP's 0.5 mean and std).

Device: ``auto`` is CUDA when torch sees a CUDA device, else the CPU. On Ray, a step gets a GPU only when it asks
for one (``num_gpus``); filters/clip_score.py derives that request from ``device``.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PRECISIONS = ("fp32", "fp16", "bf16")
PREPROCESS_KEYS = ("mean", "std", "interpolation", "resize_mode")
INTERPOLATIONS = ("bicubic", "bilinear", "nearest")
RESIZE_MODES = ("shortest", "longest", "squash")
_DEVICE = re.compile(r"^(auto|cpu|cuda(:\d+)?)$")
_SCHEMAS = ("hf-hub:", "local-dir:")
# A state dict written by torch.save has data.pkl; a TorchScript archive also has constants.pkl and code/
# (the record torch.load itself checks before handing a file to torch.jit.load).
_TORCHSCRIPT_RECORD = "constants.pkl"


def fail(setting: str, message: str) -> ValueError:
    """The config error for one setting (ValueError: the config loader reports it with the step and file)."""
    return ValueError(f"clip_score: {setting}: {message}")


@dataclass(frozen=True)
class ModelSettings:
    """What identifies a loaded model: hashable, so that one process loads each model once."""

    name: str
    pretrained: str  # absolute path
    model_config: str | None  # absolute path
    device: str  # as configured: auto | cpu | cuda | cuda:N
    precision: str
    preprocess: tuple[tuple[str, Any], ...]


@dataclass
class LoadedModel:
    model: Any  # open_clip CLIP / CustomTextCLIP, eval mode, on ``device``
    preprocess: Any  # PIL image -> float tensor (C, H, W)
    tokenizer: Any  # list[str] -> int tensor (N, context_length)
    device: str  # resolved: cpu | cuda | cuda:N
    dtype: Any  # torch dtype of the image input (open_clip's get_input_dtype for the precision)


def _open_clip_dir() -> Path:
    spec = importlib.util.find_spec("open_clip")
    if spec is None or not spec.submodule_search_locations:
        raise fail("model", "open_clip is not installed; install winnow's clip extra: pip install 'winnow[clip]'")
    return Path(next(iter(spec.submodule_search_locations)))


def builtin_models() -> set[str]:
    """open_clip's built-in architecture names: its bundled config files (read without importing torch)."""
    return {p.stem for p in (_open_clip_dir() / "model_configs").glob("*.json")}


def read_model_config(path: Path) -> dict[str, Any]:
    try:
        config = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise fail("model_config", f"{path} is not a readable JSON file: {exc}") from None
    if not isinstance(config, dict) or not all(k in config for k in ("embed_dim", "vision_cfg", "text_cfg")):
        raise fail("model_config", f"{path} is not an open_clip model config (it needs embed_dim, vision_cfg and "
                   "text_cfg, as the files in open_clip/model_configs/ have)")
    return config


def check_settings(model: str | None, pretrained: Any, model_config: Any, device: Any, precision: Any,
                   preprocess: Any) -> ModelSettings:
    """Validate the settings (paths exist, names are known, nothing would download) without importing torch."""
    config_path: Path | None = None
    if model_config is not None:
        if not isinstance(model_config, str) or not model_config:
            raise fail("model_config", f"expected the path of a JSON file, got {model_config!r}")
        config_path = Path(model_config).expanduser().resolve()
        if not config_path.is_file():
            raise fail("model_config", f"{model_config} does not exist")
        read_model_config(config_path)
        # open_clip registers a config file under its file name (add_model_config): that name is the model.
        if model is None:
            model = config_path.stem
        elif model != config_path.stem:
            raise fail("model_config", f"open_clip names a config by its file name, so {config_path.name} defines "
                       f"{config_path.stem!r}, not {model!r}: rename the file to {model}.json or set model: "
                       f"{config_path.stem}")
        if config_path.stem in builtin_models():
            raise fail("model_config", f"{config_path.stem!r} is a built-in open_clip architecture; give your "
                       "config file another name (registering it would replace the built-in in this process)")
    if not isinstance(model, str) or not model:
        raise fail("model", f"expected an open_clip architecture name such as 'ViT-B-32', got {model!r}")
    if model.startswith(_SCHEMAS):
        raise fail("model", f"{model!r}: winnow never downloads models and does not read open_clip's "
                   f"{model.split(':')[0]}: schema; give the architecture name, or model_config, and a local "
                   "weights file in pretrained")
    if config_path is None and model.replace("/", "-") not in builtin_models():
        raise fail("model", f"{model!r} is not a built-in open_clip architecture (see open_clip.list_models()); "
                   "for another architecture give its config file in model_config")
    pretrained_path = _check_pretrained(model, pretrained)
    if not isinstance(device, str) or not _DEVICE.match(device):
        raise fail("device", f"expected auto, cpu, cuda or cuda:N, got {device!r}")
    if precision not in PRECISIONS:
        raise fail("precision", f"expected one of {list(PRECISIONS)}, got {precision!r}")
    if precision == "fp16" and device == "cpu":
        raise fail("precision", "fp16 needs a CUDA device; on the CPU use fp32 or bf16")
    return ModelSettings(name=model.replace("/", "-"), pretrained=str(pretrained_path),
                         model_config=str(config_path) if config_path else None, device=device,
                         precision=precision, preprocess=_check_preprocess(preprocess))


def _check_pretrained(model: str, pretrained: Any) -> Path:
    advice = ("winnow never downloads weights: download the checkpoint yourself (e.g. open_clip_pytorch_model.bin "
              "of the release, or OpenAI's ViT-B-32.pt) and give its local path")
    if pretrained is None:
        raise fail("pretrained", f"required: the path of the weights file for {model}; {advice}")
    if not isinstance(pretrained, str) or not pretrained:
        raise fail("pretrained", f"expected the path of a weights file, got {pretrained!r}")
    path = Path(pretrained).expanduser().resolve()
    if path.is_file():
        return path
    if path.exists():
        raise fail("pretrained", f"{pretrained} is not a file; {advice}")
    tag_models = _models_with_tag(pretrained)
    if tag_models:
        raise fail("pretrained", f"{pretrained!r} is an open_clip pretrained tag (a download, for "
                   f"{', '.join(tag_models[:3])}{', ...' if len(tag_models) > 3 else ''}), not a file; {advice}")
    raise fail("pretrained", f"{pretrained} does not exist; {advice}")


def _models_with_tag(name: str) -> list[str]:
    """Architectures for which ``name`` is an open_clip pretrained tag. Imports open_clip, so only on the error path,
    and only for a value that could be a tag (no path separator)."""
    if "/" in name or os.sep in name:
        return []
    try:
        import open_clip
    except ImportError:
        return []
    return sorted({m for m, tag in open_clip.list_pretrained() if tag == name.lower()})


def _check_preprocess(preprocess: Any) -> tuple[tuple[str, Any], ...]:
    if preprocess is None:
        return ()
    if not isinstance(preprocess, dict) or set(preprocess) - set(PREPROCESS_KEYS):
        raise fail("preprocess", f"expected a mapping with some of {list(PREPROCESS_KEYS)}, got {preprocess!r}")
    out: list[tuple[str, Any]] = []
    for key in PREPROCESS_KEYS:
        if key not in preprocess:
            continue
        value = preprocess[key]
        if key in ("mean", "std"):
            ok = (isinstance(value, list) and len(value) == 3
                  and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value))
            if not ok or (key == "std" and any(v <= 0 for v in value)):
                raise fail("preprocess", f"{key} must be 3 numbers (R, G, B){' above 0' if key == 'std' else ''}, "
                           f"got {value!r}")
            value = tuple(float(v) for v in value)
        elif value not in (INTERPOLATIONS if key == "interpolation" else RESIZE_MODES):
            allowed = INTERPOLATIONS if key == "interpolation" else RESIZE_MODES
            raise fail("preprocess", f"{key} must be one of {list(allowed)}, got {value!r}")
        out.append((key, value))
    return tuple(out)


def resolve_device(device: str) -> str:
    """``auto`` -> ``cuda`` when torch sees a CUDA device, else ``cpu``; an explicit CUDA device must exist."""
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda"):
        if not torch.cuda.is_available():
            raise RuntimeError(f"clip_score: device: {device}, but torch sees no CUDA device "
                               f"(torch {torch.__version__}, CUDA_VISIBLE_DEVICES="
                               f"{os.environ.get('CUDA_VISIBLE_DEVICES', 'unset')}); on Ray the step gets a GPU "
                               "only with num_gpus > 0; use device: auto or cpu to run without one")
        index = int(device.split(":")[1]) if ":" in device else 0
        if index >= torch.cuda.device_count():
            raise RuntimeError(f"clip_score: device: {device}, but torch sees {torch.cuda.device_count()} CUDA "
                               "device(s)")
    return device


def _offline() -> None:
    # Before open_clip (and through it huggingface_hub) is imported; huggingface_hub reads the variable once, at
    # import, so a copy imported earlier in this process is switched off through its own flag.
    os.environ["HF_HUB_OFFLINE"] = "1"
    hub = __import__("sys").modules.get("huggingface_hub.constants")
    if hub is not None:
        hub.HF_HUB_OFFLINE = True


def is_torchscript(path: str) -> bool:
    if not zipfile.is_zipfile(path):
        return False
    with zipfile.ZipFile(path) as archive:
        return any(name.endswith("/" + _TORCHSCRIPT_RECORD) or name == _TORCHSCRIPT_RECORD
                   for name in archive.namelist())


@functools.lru_cache(maxsize=4)
def load(settings: ModelSettings) -> LoadedModel:
    """The model, transform and tokenizer, once per process for the same settings."""
    _offline()
    import open_clip
    import torch
    from open_clip.model import get_input_dtype
    from open_clip.transform import PreprocessCfg, image_transform_v2, merge_preprocess_dict

    device = resolve_device(settings.device)
    if settings.precision == "fp16" and not device.startswith("cuda"):
        raise RuntimeError("clip_score: precision: fp16 needs a CUDA device and torch sees none; use fp32 or bf16")
    if settings.model_config:
        config = read_model_config(Path(settings.model_config))
        if open_clip.get_model_config(settings.name) != config:  # not yet registered, or another file by that name
            open_clip.add_model_config(settings.model_config)
    try:
        if is_torchscript(settings.pretrained):
            model = open_clip.create_model(settings.name, pretrained=None, precision=settings.precision,
                                           device=device, force_quick_gelu=True)
            state = torch.jit.load(settings.pretrained, map_location="cpu").state_dict()
            # OpenAI's archives carry three constants as tensors, and a traced model also saves the buffers the
            # model itself does not persist (open_clip's attention mask): the model rebuilds those, drop them.
            rebuilt = {name for name, _ in model.named_buffers()} - set(model.state_dict())
            for key in ("input_resolution", "context_length", "vocab_size", *rebuilt):
                state.pop(key, None)
            model.load_state_dict(state, strict=True)
        else:
            model = open_clip.create_model(settings.name, pretrained=settings.pretrained,
                                           precision=settings.precision, device=device)
    except Exception as exc:
        raise RuntimeError(f"clip_score: could not load model {settings.name!r} with pretrained "
                           f"{settings.pretrained}: {type(exc).__name__}: {exc}") from exc
    model.eval()
    preprocess_cfg = merge_preprocess_dict(model.visual.preprocess_cfg, dict(settings.preprocess))
    transform = image_transform_v2(PreprocessCfg(**preprocess_cfg), is_train=False)
    tokenizer = open_clip.get_tokenizer(settings.name)
    # open_clip's own evaluation casts images this way: fp16/bf16 weights take fp16/bf16 input, fp32 takes fp32.
    dtype = get_input_dtype(settings.precision) or torch.float32
    return LoadedModel(model=model, preprocess=transform, tokenizer=tokenizer, device=device, dtype=dtype)
