"""Image size and shape of fetched images (record kind ``image``, issue 17).

``ImageSize`` drops a fetched image when (drop reason in brackets):

- its shorter side, as fetched, is below ``min_side`` (200 px) (``small_image``), or its longer side over the
  shorter is above ``max_aspect`` (3) (``aspect_ratio``): DataComp's "basic filtering" (Gadre et al. 2023,
  section 3.3, the image half of the rule whose caption half is ``filters.image_alt``); ``AltTextQuality`` applies
  the same rule before fetching, but only to the sizes an ``<img>`` tag declares, which most tags leave out;
- ``max_side`` is given and the longer side is above it (``large_image``; off by default).

The sizes are ``original_width`` / ``original_height``, the image as fetched, so that a ``--resize`` for storage
does not move a threshold. A row without sizes (never decoded) is dropped as ``no_size``: no image of it was
stored.
"""

from __future__ import annotations

from typing import Any

from pipelines.arguments import check_number
from pipelines.step import Drop, Step


class ImageSize(Step):
    input_kind = "image"

    def __init__(self, min_side: int = 200, max_aspect: float = 3.0, max_side: int | None = None) -> None:
        check_number("min_side", min_side, low=0, integer=True)
        check_number("max_aspect", max_aspect, low=1)
        if max_side is not None:
            check_number("max_side", max_side, low=1, integer=True)
        self.min_side = min_side
        self.max_aspect = max_aspect
        self.max_side = max_side

    def process(self, image: Any) -> Any:
        width, height = image.original_width or image.width, image.original_height or image.height
        if not width or not height:
            raise Drop("no_size")
        short, long = sorted((width, height))
        if short < self.min_side:
            raise Drop("small_image", f"{width}x{height}")
        if long / short > self.max_aspect:
            raise Drop("aspect_ratio", f"{width}x{height}")
        if self.max_side is not None and long > self.max_side:
            raise Drop("large_image", f"{width}x{height}")
        return image
