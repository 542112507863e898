"""Decode and check one fetched image with Pillow; hash it; optionally resize it. Pure functions, no I/O.

``check_image(data)`` returns a ``CheckedImage`` or raises ``Rejected(reason)``; the reasons are counted in
fetch-stats.json:

- ``not_an_image``: Pillow cannot identify the bytes as an image (HTML error pages served with status 200, SVG, empty
  bodies); ``unsupported_format``: an image format outside ``FORMATS``, the raster formats browsers display
  (plus BMP/TIFF/ICO), which is what a web image is meant to be.
- ``too_many_pixels``: width x height above ``max_pixels``, by default Pillow's own decompression-bomb limit
  ``Image.MAX_IMAGE_PIXELS`` (89,478,485 px, about 0.25 GB as 24-bit RGB), checked from the header before any pixel
  is decoded; Pillow's ``DecompressionBombError`` (twice that limit, raised by ``open``) lands here too.
- ``truncated``: a cut-off file. ``Image.verify()`` (chunk CRCs and structure: it catches a PNG cut in its data) and
  then a full decode with ``ImageFile.LOAD_TRUNCATED_IMAGES`` off (it catches a JPEG or GIF cut in its scan data,
  which ``verify`` lets through). ``decode_error``: any other failure to decode.
- ``tracking_pixel``: at most ``TRACKING_PIXEL_SIDE`` (2) px on both sides. Web beacons are 1x1 images (the "1x1
  transparent GIF" of web-bug tracking: R. M. Smith, "The Web Bug FAQ", EFF, 1999; Wikipedia "Web beacon"); a 2x2
  image carries no content either. Larger small images (icons, spacers) are left to the image-text filters, which
  cite their own size rules (DataComp: min side 200 px).

Hashes: ``sha256`` of the bytes as fetched; ``phash``/``dhash`` from dedup/image_hash.py on the decoded image before
any resize, so the stored size does not move them.

Resize (``resize=N``): the shortest side becomes N px, aspect kept, never upscaled (an image whose shortest side is
already <= N is stored as fetched); Lanczos resampling; re-encoded in the source format when it is JPEG, PNG or WEBP,
else as PNG (lossless, and any mode). JPEG/WEBP are re-encoded at quality 95, img2dataset's default
``encode_quality``; EXIF (orientation) and the ICC profile are carried over so that the image still displays as
fetched. Animated images: the first frame.
"""

from __future__ import annotations

import hashlib
import io
import warnings
from dataclasses import dataclass

from PIL import Image, UnidentifiedImageError

from dedup.image_hash import HASH_SIDE, perceptual_hashes

FORMATS = frozenset({"JPEG", "PNG", "GIF", "WEBP", "AVIF", "BMP", "TIFF", "ICO", "MPO"})
RESIZE_KEEPS = frozenset({"JPEG", "PNG", "WEBP"})  # re-encoded in their own format; others become PNG
TRACKING_PIXEL_SIDE = 2
ENCODE_QUALITY = 95  # img2dataset's default encode_quality for JPEG/WEBP

REASONS = ("not_an_image", "unsupported_format", "too_many_pixels", "truncated", "decode_error", "tracking_pixel")


class Rejected(Exception):
    """An image that is not stored; ``reason`` is one of ``REASONS``."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True, slots=True)
class CheckedImage:
    data: bytes  # the bytes to store: as fetched, or re-encoded after a resize
    image_format: str  # Pillow's name of the stored bytes' format
    width: int
    height: int
    original_width: int
    original_height: int
    sha256: str  # of the bytes as fetched
    phash: str
    dhash: str


def check_image(data: bytes, resize: int | None = None, max_pixels: int | None = None) -> CheckedImage:
    """Decode ``data``, check it, hash it and (with ``resize``) shrink it; ``Rejected`` when it is not stored."""
    limit = Image.MAX_IMAGE_PIXELS if max_pixels is None else max_pixels
    fmt, width, height = _identify(data, limit)
    if width <= TRACKING_PIXEL_SIDE and height <= TRACKING_PIXEL_SIDE:
        raise Rejected("tracking_pixel", f"{width}x{height}")
    shrinking = bool(resize) and min(width, height) > resize
    # A JPEG that is stored as fetched is decoded only for the hashes and to prove it whole, which a decode at a
    # DCT-scaled size (1/2 to 1/8, libjpeg's own) does as well: every scan is still read to its end, so a cut-off
    # file still fails. With the hashes' reduction (dedup/image_hash.py) checking a picture went from 2.4 to 1.7 ms.
    image = _decode(data, draft=HASH_SIDE if fmt == "JPEG" and not shrinking else None)
    phash, dhash = perceptual_hashes(image)
    stored, stored_format, size = data, fmt, (width, height)
    if shrinking:
        stored, stored_format, size = shrink(image, fmt, resize)
    return CheckedImage(data=stored, image_format=stored_format, width=size[0], height=size[1], original_width=width,
                        original_height=height, sha256=hashlib.sha256(data).hexdigest(), phash=phash, dhash=dhash)


def _identify(data: bytes, limit: int) -> tuple[str, int, int]:
    """Format and size from the header; the structure checked by ``verify``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # judged below, against ``limit``
        try:
            with Image.open(io.BytesIO(data)) as image:
                fmt, (width, height) = image.format or "", image.size
                if fmt not in FORMATS:
                    raise Rejected("unsupported_format", fmt)
                if width * height > limit:
                    raise Rejected("too_many_pixels", f"{width}x{height}")
                image.verify()
        except Rejected:
            raise
        except Image.DecompressionBombError as exc:
            raise Rejected("too_many_pixels", str(exc)) from None
        except UnidentifiedImageError:
            raise Rejected("not_an_image") from None
        except Exception as exc:  # Pillow raises many types (OSError, SyntaxError, struct.error...)
            raise _decode_failure(exc) from None
    return fmt, width, height


def _decode(data: bytes, draft: int | None = None) -> Image.Image:
    """The decoded first frame (``verify`` leaves an image unusable: it is opened again); ``draft``: a JPEG decoded
    in greyscale at the smallest DCT scale that keeps its shorter side at least this many px."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data))
            if draft:
                width, height = image.size
                scale = draft / max(1, min(width, height))
                image.draft("L", (max(1, round(width * scale)), max(1, round(height * scale))))
            image.load()
        except Exception as exc:
            raise _decode_failure(exc) from None
    return image


def _decode_failure(exc: Exception) -> Rejected:
    text = str(exc)
    if isinstance(exc, EOFError) or "truncated" in text.lower():
        return Rejected("truncated", text[:200])
    return Rejected("decode_error", f"{type(exc).__name__}: {text[:200]}")


def target_size(width: int, height: int, shortest: int) -> tuple[int, int]:
    """The size with the shortest side ``shortest`` and the aspect kept; the size itself when already no larger."""
    if min(width, height) <= shortest:
        return width, height
    if width <= height:
        return shortest, max(1, round(height * shortest / width))
    return max(1, round(width * shortest / height)), shortest


def shrink(image: Image.Image, fmt: str, shortest: int) -> tuple[bytes, str, tuple[int, int]]:
    """``(bytes, format, size)`` of ``image`` resized to ``shortest`` px on its shortest side and re-encoded."""
    size = target_size(*image.size, shortest)
    out_format = fmt if fmt in RESIZE_KEEPS else "PNG"
    work = image
    if work.mode not in ("L", "LA", "RGB", "RGBA", "CMYK", "I", "F"):  # "P", "1", ...: resampled in full colour
        work = work.convert("RGBA" if _has_alpha(work) else "RGB")
    if out_format == "JPEG" and work.mode not in ("L", "RGB", "CMYK"):
        work = work.convert("RGB")
    resized = work.resize(size, Image.Resampling.LANCZOS)
    options: dict[str, object] = {}
    if out_format in ("JPEG", "WEBP"):
        options["quality"] = ENCODE_QUALITY
    for key in ("exif", "icc_profile"):
        if image.info.get(key):
            options[key] = image.info[key]
    buffer = io.BytesIO()
    resized.save(buffer, out_format, **options)
    return buffer.getvalue(), out_format, size


def _has_alpha(image: Image.Image) -> bool:
    return "A" in image.getbands() or "transparency" in image.info
