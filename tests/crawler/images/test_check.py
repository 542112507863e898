"""crawler/images/check.py: decoding, checks, hashes and resizing of one image (no network)."""

from __future__ import annotations

import hashlib
import io

import pytest
from PIL import Image

from crawler.images.check import Rejected, check_image, target_size
from dedup.image_hash import hamming, perceptual_hashes
from tests.crawler.images.helpers import make_image


def reject_reason(data: bytes, **kwargs: object) -> str:
    with pytest.raises(Rejected) as caught:
        check_image(data, **kwargs)
    return caught.value.reason


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "GIF", "WEBP"])
def test_a_good_image_is_kept_as_fetched_with_its_hashes(fmt):
    data = make_image(fmt, (80, 60), seed=3)
    checked = check_image(data)
    assert checked.data == data  # stored as fetched without --resize
    assert (checked.image_format, checked.width, checked.height) == (fmt, 80, 60)
    assert (checked.original_width, checked.original_height) == (80, 60)
    assert checked.sha256 == hashlib.sha256(data).hexdigest()
    full = perceptual_hashes(Image.open(io.BytesIO(data)))
    if fmt == "JPEG":  # decoded straight to greyscale at a DCT scale (check._decode): the hashes barely move
        assert hamming(checked.phash, full[0]) <= 4 and hamming(checked.dhash, full[1]) <= 4
    else:
        assert (checked.phash, checked.dhash) == full
    assert len(checked.phash) == len(checked.dhash) == 16


def test_different_pictures_get_different_perceptual_hashes():
    a, b = check_image(make_image("PNG", (64, 64), seed=1)), check_image(make_image("PNG", (64, 64), seed=4))
    assert a.phash != b.phash


@pytest.mark.parametrize("body", [b"", b"<html><body>Not found</body></html>", b"%PDF-1.4 not an image",
                                  b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>'])
def test_what_is_not_an_image(body):
    assert reject_reason(body) == "not_an_image"


def test_a_format_that_is_not_a_web_image_is_refused():
    buffer = io.BytesIO()
    Image.new("RGB", (20, 20)).save(buffer, "PPM")
    assert reject_reason(buffer.getvalue()) == "unsupported_format"


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "GIF"])
def test_a_cut_off_file_is_caught(fmt):
    data = make_image(fmt, (120, 90), seed=2)
    assert reject_reason(data[: len(data) * 2 // 3]) == "truncated"


def test_a_jpeg_missing_only_its_last_bytes_is_caught():
    data = make_image("JPEG", (120, 90), seed=5)  # verify() passes it; the full decode does not
    assert reject_reason(data[:-40]) == "truncated"


def test_garbage_after_a_valid_header_is_a_decode_error_or_truncated():
    data = make_image("PNG", (50, 50), seed=1)
    broken = data[:60] + bytes(range(256)) * 4
    assert reject_reason(broken) in ("decode_error", "truncated")


@pytest.mark.parametrize("size", [(1, 1), (2, 2), (1, 2)])
def test_tracking_pixels(size):
    assert reject_reason(make_image("GIF", size)) == "tracking_pixel"


def test_a_thin_but_long_image_is_not_a_tracking_pixel():
    assert check_image(make_image("PNG", (2, 40))).height == 40


def test_too_many_pixels_against_the_limit_given():
    data = make_image("PNG", (100, 100))
    assert reject_reason(data, max_pixels=9_999) == "too_many_pixels"
    assert check_image(data, max_pixels=10_000).width == 100


def test_too_many_pixels_against_pillows_own_limit():
    buffer = io.BytesIO()
    side = int(Image.MAX_IMAGE_PIXELS**0.5) + 1  # just over Pillow's decompression-bomb limit
    Image.new("1", (side, side)).save(buffer, "PNG")  # 1-bit and blank: a small file that would decode huge
    assert len(buffer.getvalue()) < 2 * 2**20
    assert reject_reason(buffer.getvalue()) == "too_many_pixels"


def test_target_size_keeps_the_aspect_and_never_upscales():
    assert target_size(400, 300, 150) == (200, 150)
    assert target_size(300, 400, 150) == (150, 200)
    assert target_size(100, 300, 150) == (100, 300)  # shortest side already below: unchanged
    assert target_size(150, 150, 150) == (150, 150)


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_resize_re_encodes_in_the_same_format(fmt):
    data = make_image(fmt, (400, 300), seed=7)
    checked = check_image(data, resize=150)
    stored = Image.open(io.BytesIO(checked.data))
    assert (stored.format, stored.size) == (fmt, (200, 150))
    assert (checked.image_format, checked.width, checked.height) == (fmt, 200, 150)
    assert (checked.original_width, checked.original_height) == (400, 300)
    # hashes and sha256 are of the image as fetched, not of the stored copy
    assert checked.sha256 == hashlib.sha256(data).hexdigest()
    assert checked.phash == check_image(data).phash


def test_resize_stores_other_formats_as_png():
    checked = check_image(make_image("GIF", (300, 600), seed=1), resize=100)
    stored = Image.open(io.BytesIO(checked.data))
    assert (stored.format, stored.size, checked.image_format) == ("PNG", (100, 200), "PNG")


def test_resize_never_upscales():
    data = make_image("JPEG", (120, 90))
    checked = check_image(data, resize=200)
    assert checked.data == data and (checked.width, checked.height) == (120, 90)


def test_resize_keeps_the_exif_orientation():
    image = Image.open(io.BytesIO(make_image("JPEG", (400, 300))))
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees when displayed
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", exif=exif.tobytes())
    stored = Image.open(io.BytesIO(check_image(buffer.getvalue(), resize=100).data))
    assert stored.getexif().get(0x0112) == 6


@pytest.mark.parametrize("keep", [0.5, 0.97])
def test_a_large_cut_off_jpeg_is_caught_by_the_scaled_decode(keep):
    """A JPEG stored as fetched is decoded at a DCT scale for its hashes (1200x900 -> 1/4): still read to the end."""
    data = make_image("JPEG", (1200, 900), seed=7)
    assert check_image(data).width == 1200
    assert reject_reason(data[: int(len(data) * keep)]) == "truncated"
