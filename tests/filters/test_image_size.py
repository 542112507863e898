"""ImageSize: DataComp's basic image rule on the sizes as fetched."""

from __future__ import annotations

import pytest

from filters.image_size import ImageSize
from pipelines.records import ImageRecord, from_table, to_table


def image(i: int, w: int | None, h: int | None, stored: tuple[int, int] | None = None) -> ImageRecord:
    sw, sh = stored or (w, h)
    return ImageRecord(id=f"i{i}", url="http://a.test/", source=f"s@{i}", original_width=w, original_height=h,
                       width=sw, height=sh, image=b"x")


def outcome(step: ImageSize, records: list[ImageRecord]) -> dict[str, str | None]:
    step.bind()
    return {r.id: r.dropped_by for r in from_table(step(to_table(records, "image")))}


def test_datacomp_basic_sizes():
    got = outcome(ImageSize(), [image(0, 640, 480), image(1, 199, 400), image(2, 600, 200), image(3, 601, 200),
                                image(4, None, None), image(5, 200, 600)])
    assert got == {"i0": None, "i1": "image_size.small_image", "i2": None, "i3": "image_size.aspect_ratio",
                   "i4": "image_size.no_size", "i5": None}


def test_sizes_as_fetched_not_as_stored():
    # resized for storage to 128 px on the short side; fetched at 800x600: kept
    assert outcome(ImageSize(), [image(0, 800, 600, stored=(171, 128))]) == {"i0": None}


def test_max_side_and_bad_arguments():
    assert outcome(ImageSize(max_side=1000), [image(0, 1200, 900)]) == {"i0": "image_size.large_image"}
    with pytest.raises(ValueError, match="max_aspect"):
        ImageSize(max_aspect=0.5)
    with pytest.raises(ValueError, match="min_side"):
        ImageSize(min_side=-1)
