"""Image-text alignment: ``ClipScore`` writes a CLIP similarity score on every fetched image (record kind ``image``)
and drops the pairs below a threshold.

The score is the cosine similarity of the image's and the text's embeddings from one open_clip model (both
L2-normalised, computed in float32): the pair's ``text`` by default, the same text its filters judged (the alt, or
the figure's caption where the alt is a file name, empty or generic: filters/image_alt.py ``pair_text``), then
``alt``, then ``caption`` for rows without it (interleaved images, older outputs); ``text: alt`` scores the alt first
and ``text: caption`` the caption first. Images are decoded with Pillow and go through the model's own inference
transform; texts through the model's tokenizer (truncated to its context length, 77 tokens for OpenAI's CLIP).
Loading is filters/clip_model.py: an architecture name, a local weights file, optionally a config file for an
architecture open_clip does not ship; nothing is ever downloaded.

Threshold (``min_score``, default 0.28, kept when ``clip_score >= min_score`` as DataComp's filters keep them):

- LAION-400M (Schuhmann et al. 2021) dropped pairs whose OpenAI CLIP ViT-B/32 cosine similarity was below 0.3,
  chosen by human inspection (0.28 and 0.29 "also seemed okay"); LAION-5B (Schuhmann et al. 2022) used 0.28 with
  the same model.
- DataComp (Gadre et al. 2023, github.com/mlfoundations/datacomp README, "Baselines") reproduces that as its
  ``laion2b`` baseline (B/32 score >= 0.28 plus an English filter); its "CLIP score filtering" baselines keep B/32
  scores above a fixed threshold (0.25 in the README's example) or the top 30% of the pool by ViT-L/14 score (a
  quantile of the pool, not a fixed number), the latter in DataComp-1B together with its image-based filter.

0.28 is the LAION-5B / DataComp ``laion2b`` number. A threshold only means something for the model it was measured
on (OpenAI's ViT-B/32 weights, ``model: ViT-B-32-quickgelu`` or OpenAI's ``ViT-B-32.pt``): other models put
matching pairs at other similarities. For another model set ``min_score`` from its own
score distribution, or ``min_score: null`` to score every row without dropping any (then filter on the column,
or take a top fraction as DataComp does, downstream). In annotate mode the dropped rows keep their score.

Drop reasons (counted in stats.json): ``low_clip_score`` (detail: the score), ``no_image`` (no stored bytes),
``no_text`` (neither alt nor caption has text), ``undecodable_image`` (Pillow cannot read the bytes; detail: the
error).

GPU: ``device: auto`` (default) runs on CUDA when torch sees a device, else on the CPU. On Ray a step sees a GPU
only if it asks Ray for one, so ``device: cuda`` (or ``cuda:N``) asks for ``num_gpus: 1`` and runs in an actor
pool with that GPU; ``num_gpus`` sets the request explicitly (a fraction such as 0.5 puts two actors on one GPU;
with ``device: auto`` it makes the step use the GPU it was given). With neither, the step asks for no GPU and runs
on the CPU on Ray (a local run uses a GPU this process can see). The model loads in ``setup()``, once per actor.
Ray hides the GPUs from an actor that asked for none (it sets ``CUDA_VISIBLE_DEVICES`` to empty; vllm-project/vllm
PR #3198 describes the same), which is why ``auto`` alone does not reach a GPU on Ray.

Precision: ``fp32`` (default), ``bf16``, or ``fp16`` (CUDA only): the weights and the image input in that type, as
open_clip's own evaluation does; the embeddings are normalised and compared in float32 either way.

CPU threads: ``cpu_threads`` sets torch's intra-op threads for the process (``torch.set_num_threads``) when the
model runs on the CPU; unset, torch uses its default (the cores, or ``OMP_NUM_THREADS``). On this project's 2-core
machine shared with other work (load average 5 to 6) the tiny test model scored 381 images/s with 1 thread and 47
with 2: torch's threads spin waiting on each other when the cores are oversubscribed. Use 1 beside other busy steps.
"""

from __future__ import annotations

import io
import logging
import math
from typing import Any

import pyarrow as pa
from PIL import Image, UnidentifiedImageError

from filters.clip_model import LoadedModel, check_settings, load
from pipelines.arguments import check_number
from pipelines.step import Drop, Step

log = logging.getLogger(__name__)

DEFAULT_MIN_SCORE = 0.28
TEXT_FIELDS = {"text": ("text", "alt", "caption"), "alt": ("alt", "caption"), "caption": ("caption", "alt")}


class ClipScore(Step):
    """CLIP image-text similarity per image (``clip_score``, float32) with an optional threshold filter."""

    input_kind = "image"
    default_name = "clip_score"
    multicore = True  # torch's threads use the cores already: a local run keeps the model in one process

    def __init__(self, model: str | None = None, pretrained: str | None = None, model_config: str | None = None,
                 min_score: float | None = DEFAULT_MIN_SCORE, batch_size: int = 64, device: str = "auto",
                 num_gpus: float | None = None, text: str = "text", precision: str = "fp32",
                 preprocess: dict[str, Any] | None = None, cpu_threads: int | None = None) -> None:
        self.settings = check_settings(model, pretrained, model_config, device, precision, preprocess)
        if min_score is not None:
            check_number("min_score", min_score, -1, 1)
        check_number("batch_size", batch_size, 1, None, integer=True)
        if text not in TEXT_FIELDS:
            raise ValueError(f"clip_score: text: expected one of {list(TEXT_FIELDS)}, got {text!r}")
        if num_gpus is None:
            # Ask Ray for a GPU iff the user asked for CUDA: on Ray an actor without num_gpus sees none.
            num_gpus = 1.0 if device.startswith("cuda") else 0.0
        check_number("num_gpus", num_gpus, 0, None)
        if num_gpus and device == "cpu":
            raise ValueError("clip_score: num_gpus: a GPU is requested but device is cpu; use device: auto or cuda")
        if not num_gpus and device.startswith("cuda"):
            raise ValueError(f"clip_score: num_gpus: 0 with device: {device}; on Ray the step would see no GPU. "
                             "Leave num_gpus unset (1) or use device: auto")
        if cpu_threads is not None:
            check_number("cpu_threads", cpu_threads, 1, None, integer=True)
        self.cpu_threads = cpu_threads
        self.num_gpus = float(num_gpus)
        self.min_score = None if min_score is None else float(min_score)
        self.batch_size = int(batch_size)
        self.text = text
        self._loaded: LoadedModel | None = None

    def __getstate__(self) -> dict[str, Any]:
        # The step is pickled to every Ray actor; the model is loaded there, in setup(), never shipped.
        state = self.__dict__.copy()
        state["_loaded"] = None
        return state

    def __call__(self, table: pa.Table) -> pa.Table:
        # The runners call setup() first; a direct call (a notebook, a test) loads here, so that a model that
        # cannot load raises instead of turning every row into a counted ``.error``.
        if self._loaded is None:
            self.setup()
        return super().__call__(table)

    def setup(self) -> None:
        self._loaded = load(self.settings)
        if self.cpu_threads and self._loaded.device == "cpu":
            import torch

            torch.set_num_threads(self.cpu_threads)  # process-wide: torch has one intra-op pool per process
        log.info("clip_score: %s from %s on %s", self.settings.name, self.settings.pretrained, self._loaded.device)

    @property
    def device(self) -> str | None:
        """The device the model runs on, once set up."""
        return self._loaded.device if self._loaded else None

    def text_of(self, record: Any) -> str | None:
        """The text scored against the image: the first non-blank of the fields ``text`` names, stripped."""
        for field in TEXT_FIELDS[self.text]:
            value = getattr(record, field, None)
            if value and value.strip():
                return value.strip()
        return None

    def process_batch(self, records: list[Any]) -> list[Any]:
        if self._loaded is None:
            self.setup()
        results: list[Any] = list(records)
        ready: list[tuple[int, bytes, str]] = []  # (index, image bytes, text)
        for i, record in enumerate(records):
            text = self.text_of(record)
            if not record.image:
                results[i] = Drop("no_image")
            elif text is None:
                results[i] = Drop("no_text")
            else:
                ready.append((i, record.image, text))
        # Decoded images are held for one model batch at a time, not for the whole table batch.
        for start in range(0, len(ready), self.batch_size):
            chunk = ready[start:start + self.batch_size]
            tensors, texts, where = [], [], []
            for i, data, text in chunk:
                try:
                    tensors.append(self._loaded.preprocess(_decode(data)))
                except UnidentifiedImageError:  # its message holds the repr of our BytesIO, an address
                    results[i] = Drop("undecodable_image", "not an image format Pillow reads")
                    continue
                except Exception as exc:  # Pillow raises several types for bad bytes; each is this record's
                    results[i] = Drop("undecodable_image", f"{type(exc).__name__}: {exc}")
                    continue
                texts.append(text)
                where.append(i)
            if not where:
                continue
            for i, score in zip(where, self._scores(tensors, texts), strict=True):
                record = records[i]
                record.clip_score = score
                if self.min_score is not None and score < self.min_score:
                    results[i] = Drop("low_clip_score", f"{score:.4f}")
        return results

    def _scores(self, tensors: list[Any], texts: list[str]) -> list[float]:
        import numpy as np
        import torch
        import torch.nn.functional as F

        loaded = self._loaded
        images = torch.stack(tensors).to(device=loaded.device, dtype=loaded.dtype)
        tokens = loaded.tokenizer(texts).to(loaded.device)
        with torch.inference_mode():
            image_features = loaded.model.encode_image(images).float()
            text_features = loaded.model.encode_text(tokens).float()
        similarity = (F.normalize(image_features, dim=-1) * F.normalize(text_features, dim=-1)).sum(dim=-1)
        # Stored as float32 (IMAGE_SCHEMA): compare the stored value with the threshold, not a wider one.
        scores = [float(s) for s in similarity.cpu().numpy().astype(np.float32)]
        if not all(math.isfinite(s) for s in scores):
            raise RuntimeError(f"clip_score: the model returned a non-finite similarity ({scores})")
        return scores


def _decode(data: bytes) -> Image.Image:
    with Image.open(io.BytesIO(data)) as image:
        image.load()  # Pillow decodes lazily: a truncated file fails here, inside the record's try
        return image.convert("RGB")
