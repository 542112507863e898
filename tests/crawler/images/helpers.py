"""Fixtures for the image fetch tests: images made with Pillow, a fake `winnow run` output, a CLI runner."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
from PIL import Image, ImageDraw

from pipelines.records import ImageTextPair, InterleavedDoc, Segment, to_table

WINNOW = str(Path(sys.executable).parent / "winnow")
FAST = ["--no-progress", "-s", "DOWNLOAD_DELAY=0", "-s", "AUTOTHROTTLE_ENABLED=False"]


def make_image(fmt: str = "PNG", size: tuple[int, int] = (64, 48), seed: int = 0) -> bytes:
    """A small picture with structure (so that perceptual hashes differ between seeds)."""
    image = Image.new("RGB", size, (20 + seed * 37 % 200, 90, 160))
    draw = ImageDraw.Draw(image)
    w, h = size
    for i in range(4):
        x0 = (seed * 13 + i * w // 4) % w
        draw.rectangle([x0, i * h // 5, min(w - 1, x0 + w // 5), min(h - 1, i * h // 5 + h // 3)],
                       fill=((seed * 50 + i * 60) % 256, (i * 90) % 256, (seed * 30) % 256))
    buffer = io.BytesIO()
    image.save(buffer, fmt, **({"quality": 90} if fmt == "JPEG" else {}))
    return buffer.getvalue()


def pair(pair_id: str, image_url: str, page: str = "http://127.0.0.1/page.html", training_allowed: bool | None = True,
         alt: str = "an alt text", doc_id: str = "doc1") -> ImageTextPair:
    return ImageTextPair(id=pair_id, url=page, source="test.warc.gz@0", training_allowed=training_allowed,
                         policy_signals=["robots:parsed"], doc_id=doc_id, image_url=image_url, alt=alt,
                         caption="a caption")


def interleaved(doc_id: str, image_urls: list[str], training_allowed: bool | None = True) -> InterleavedDoc:
    segments = [Segment(kind="text", text="Some prose before the images.")]
    for n, url in enumerate(image_urls):
        segments.append(Segment(kind="image", image_url=url, alt=f"image {n}"))
        segments.append(Segment(kind="text", text=f"Text after image {n}."))
    return InterleavedDoc(id=doc_id, url="http://127.0.0.1/doc.html", source="test.warc.gz@1",
                          training_allowed=training_allowed, segments=segments)


def write_output(out: Path, pairs: list[ImageTextPair], docs: list[InterleavedDoc] = (), shards: int = 1) -> Path:
    """A `winnow run` output folder with these image_text pairs and interleaved documents."""
    (out / "image_text").mkdir(parents=True, exist_ok=True)
    (out / "interleaved").mkdir(parents=True, exist_ok=True)
    step = max(1, -(-len(pairs) // shards))
    for n in range(0, len(pairs), step):
        pq.write_table(to_table(pairs[n:n + step], "image_text"), out / "image_text" / f"part-{n:05d}.parquet")
    if docs:
        pq.write_table(to_table(list(docs), "interleaved"), out / "interleaved" / "part-00000.parquet")
    return out


def run_fetch(out: Path, images: Path, *extra: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([WINNOW, "images", "fetch", str(out), "--output", str(images), *FAST, *extra],
                          capture_output=True, text=True, timeout=timeout)


def read_images(images: Path) -> list[dict]:
    shards = sorted((images / "images").glob("part-*.parquet"))
    return [row for shard in shards for row in pq.read_table(shard).to_pylist()]
