"""The report's section on fetched images (an ``images/`` output: `winnow run images`, issue 17): how many image rows
were kept, how many distinct images (by sha256), where they came from (image-text pairs or interleaved segments),
their formats, their sizes as stored and, when a ``clip_score`` step ran, the distribution of its scores.

Apart from pipelines/report_html.py, which lays out the page and calls ``images_section``: the image columns it reads
are only these (never the ``image`` bytes), and the drops of the image steps (fetch reasons, size rule, dedup,
CLIP threshold) are already in the page's funnel.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pipelines import report_html as page_lib

EMPTY = "No fetched images were kept (an images/ output comes from `winnow run images` over image_text/interleaved)."


def images_section(page: Any, out: Any) -> None:
    """Append the "Fetched images" section for ``out`` (the report's read of ``images/``, or None) to ``page``."""
    if out is None or out.kept is None or not out.kept.num_rows:
        page_lib._section(page, "images", "Fetched images", None, EMPTY)
        return

    def col(name: str) -> list[Any]:
        return page_lib._column(out, name)

    rows_n = out.kept.num_rows
    widths, heights = col("width"), col("height")
    original = col("original_width")
    sides = [min(w, h) for w, h in zip(widths, heights, strict=False) if w and h]
    scores = [s for s in col("clip_score") if s is not None]
    formats = Counter(f or "unknown" for f in col("image_format"))
    sources = Counter(o or "unknown" for o in col("output"))
    resized = sum(1 for w, o in zip(widths, original, strict=False) if w and o and w != o)
    rows: list[list[Any]] = [["image rows", rows_n], ["distinct images (sha256)", len({s for s in col("sha256") if s})]]
    rows += [[f"from {name}", n] for name, n in sources.most_common()]
    rows += [[f"format {name}", n] for name, n in formats.most_common()]
    rows += [["resized when fetched", resized], ["with a CLIP score", len(scores)]]
    series = {k: v for k, v in {"shorter side as stored (px)": sides, "CLIP score": scores}.items() if v}
    if series:
        fig = page_lib._hist_panels(series, "images")
        caption = "Size" + (" and CLIP score" if scores else "") + " of the kept images"
    else:  # no sizes (hand-made rows): the formats are what there is to draw
        fig = page_lib._barh(formats.most_common(page_lib.TOP_N), "images")
        caption = "Formats of the kept images"
    body = page_lib._figure(page, fig, caption) + page_lib._table(["", "count"], rows)
    page_lib._section(page, "images", "Fetched images", body, "")
