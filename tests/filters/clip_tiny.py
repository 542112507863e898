"""A tiny randomly initialised CLIP for the clip_score tests: the architecture family of OpenAI's and open_clip's
ViT CLIPs (a ViT image tower and a transformer text tower with open_clip's BPE tokenizer), at a size that scores
on the CPU in milliseconds. Built through open_clip from a config file, saved as a weights file, so the tests load
it the way a user loads a real release: ``model_config`` + ``pretrained``.
"""

from __future__ import annotations

import io
import json
import warnings
from pathlib import Path

NAME = "winnow-tiny-clip"
CONFIG = {
    "embed_dim": 32,
    # 32 px images in 8 px patches: 16 patches + the class token.
    "vision_cfg": {"image_size": 32, "layers": 2, "width": 64, "patch_size": 8, "head_width": 32},
    # vocab_size must be open_clip's BPE vocabulary (49408) for its SimpleTokenizer; a short context keeps it fast.
    "text_cfg": {"context_length": 16, "vocab_size": 49408, "width": 64, "heads": 2, "layers": 2},
}


def write_config(folder: Path, name: str = NAME, quick_gelu: bool = False) -> Path:
    config = dict(CONFIG, quick_gelu=True) if quick_gelu else CONFIG
    path = folder / f"{name}.json"
    path.write_text(json.dumps(config))
    return path


def build(folder: Path, seed: int = 0, quick_gelu: bool = False) -> tuple[Path, Path]:
    """(config path, weights path) of a tiny CLIP with random weights from ``seed``."""
    import open_clip
    import torch

    config = write_config(folder, quick_gelu=quick_gelu)
    open_clip.add_model_config(config)
    torch.manual_seed(seed)
    model = open_clip.create_model(NAME, pretrained=None)
    weights = folder / f"{NAME}-{seed}.pt"
    torch.save(model.state_dict(), weights)
    return config, weights


def build_torchscript(folder: Path, seed: int = 0) -> tuple[Path, Path]:
    """(config path, archive path): the same kind of tiny CLIP with QuickGELU, saved as a TorchScript archive the
    way OpenAI released CLIP (a traced model), and beside it the same weights as a state dict
    (``<archive stem>.state.pt``) for comparison."""
    import open_clip
    import torch

    config = write_config(folder, quick_gelu=True)
    open_clip.add_model_config(config)
    torch.manual_seed(seed)
    model = open_clip.create_model(NAME, pretrained=None).eval()
    size = CONFIG["vision_cfg"]["image_size"]
    example = (torch.zeros(1, 3, size, size), torch.zeros(1, CONFIG["text_cfg"]["context_length"], dtype=torch.long))
    with warnings.catch_warnings():  # tracing's deprecation and shape-check notes say nothing about this model
        warnings.simplefilter("ignore")
        traced = torch.jit.trace(model, example, strict=False, check_trace=False)
    archive = folder / f"{NAME}-{seed}-jit.pt"
    traced.save(str(archive))
    torch.save(model.state_dict(), folder / f"{NAME}-{seed}-jit.state.pt")
    return config, archive


def image_bytes(color: tuple[int, int, int], size: tuple[int, int] = (48, 40), fmt: str = "PNG",
                stripe: tuple[int, int, int] | None = None) -> bytes:
    """An encoded image of one colour (with a stripe of another, so that images differ in more than their mean)."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", size, color)
    if stripe is not None:
        ImageDraw.Draw(image).rectangle((0, size[1] // 3, size[0], size[1] // 2), fill=stripe)
    out = io.BytesIO()
    image.save(out, format=fmt)
    return out.getvalue()
