"""A generated loopback site with images, for the image-fetch bench (bench/image_fetch_bench.py, issue 17).

Pages are served from 127.0.0.1; their images from ``IMAGE_HOSTS`` image hosts on 127.0.0.2, 127.0.0.3, ... (one
address each: Scrapy keys its per-host slots by host name, so two ports on one address would be one host). Each page
has 3 to 5 images with alt text. Images are real JPEG (80%) and PNG (20%) files, 256 to 1024 px a side, drawn from a
seeded generator (a smooth colour field, 3 to 11 filled shapes, film grain on JPEGs, a 64-colour palette on PNGs), so
no two are identical and their sizes are those of web photos and graphics (median about 60 KB, 10th-90th percentile
about 17-100 KB, measured on 50). A few "shared" images (a logo, a banner) appear on many pages under one URL.

The image hosts carry the signals winnow must honour and img2dataset is known not to (robots.txt) or to honour
(``X-Robots-Tag: noai`` / ``noimageai``, img2dataset's default ``disallowed_header_directives``):

* ``/private/``: disallowed for the crawl token ``winnowbot`` (and so for its training token too);
* ``/notrain/``: disallowed for the training token ``winnowbot-Extended`` only (crawler/settings.py: an empty
  ``WINNOW_TRAINING_TOKEN`` means ``<bot>-Extended``). Protego gives a token with its own group only that group
  (../shared/STACK-NOTES.md), so the ``-Extended`` group repeats ``/private/``;
* ``/noai/`` and ``/noimageai/``: served with ``X-Robots-Tag: noai`` / ``noimageai``;
* ``/a/`` and ``/shared/``: no restriction.

The site is generated once into a cache folder (images take about 45 ms each to draw and encode on one core here)
and grown on demand; ``manifest.json`` lists every (page, image, alt, category) row in page order.

``python bench/image_site.py build --root DIR --pages N`` builds it. ``python bench/image_site.py serve --root DIR/h0
--host 127.0.0.2`` serves one image host and ``serve --root DIR --image-base URL ...`` the pages, each a SiteServer in
its own process (so that serving does not share one GIL across hosts) that prints its base URL. On each,
``GET /__bench/hits`` returns the requests logged since the last call (path, User-Agent) and clears the log;
``GET /__bench/count`` the number of image requests logged (robots.txt and the control paths not counted).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from crawler.site_server import Route, SiteServer

IMAGE_HOSTS = 4
PAGE_HOST = "127.0.0.1"
BOT = "winnowbot"
TRAINING_TOKEN = "winnowbot-Extended"
ROBOTS = (
    f"User-agent: {BOT}\nDisallow: /private/\n\n"
    f"User-agent: {TRAINING_TOKEN}\nDisallow: /private/\nDisallow: /notrain/\n\n"
    "User-agent: *\nAllow: /\n"
)
HEADER_SIGNALS = {"noai": "noai", "noimageai": "noimageai"}  # folder -> X-Robots-Tag value
# Share of image slots per category (the rest are plain "a" images). Small enough that throughput is dominated by
# the images both tools may fetch, large enough to count on a 1,000-page site (140 to 190 rows each on 4,800 rows).
CATEGORY_SHARES = [("private", 0.04), ("notrain", 0.04), ("noai", 0.03), ("noimageai", 0.03), ("shared", 0.08)]
SHARED_POOL = 40  # distinct shared images (logos, banners) reused across pages
WORDS = (
    "river", "bread", "town", "mill", "garden", "star", "bicycle", "market", "harvest", "museum", "winter", "water",
    "stone", "bridge", "school", "kitchen", "orchard", "telescope", "chain", "wheel", "flour", "salt", "oven",
    "apple", "pear", "moon", "valley", "festival", "library", "ferry", "harbour", "boat", "weather", "rain", "snow",
    "summer", "field", "road", "lighthouse", "meadow", "castle", "forest",
)
CONTROL = "/__bench/"


@dataclass
class ImageRow:
    """One image slot of one page: a row of the URL list both tools fetch."""

    page: int
    slot: int
    host: int  # 0-based image host index: 127.0.0.{host + 2}
    path: str  # on the image host, e.g. /a/00012.jpg
    alt: str
    category: str  # a | private | notrain | noai | noimageai | shared


def host_address(host: int) -> str:
    return f"127.0.0.{host + 2}"


def draw_image(seed: int, width: int, height: int, fmt: str) -> bytes:
    """A distinct, realistically compressible picture: smooth colour field + shapes (+ grain for JPEG)."""
    rng = np.random.default_rng(seed)
    field_px = rng.integers(0, 256, (int(rng.integers(3, 9)), int(rng.integers(3, 9)), 3), dtype=np.uint8)
    img = Image.fromarray(field_px).resize((width, height), Image.Resampling.BICUBIC)
    draw = ImageDraw.Draw(img)
    for _ in range(int(rng.integers(3, 12))):
        x0, y0 = int(rng.integers(0, width)), int(rng.integers(0, height))
        box = (x0, y0, x0 + int(rng.integers(10, width // 2)), y0 + int(rng.integers(10, height // 2)))
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        (draw.ellipse if rng.random() < 0.5 else draw.rectangle)(box, fill=colour)
    buf = io.BytesIO()
    if fmt == "JPEG":
        # Film grain: without it a JPEG of flat shapes is 5-10 KB, far below photos on the web.
        grain = Image.fromarray(rng.integers(0, 256, (height, width), dtype=np.uint8)).convert("RGB")
        Image.blend(img, grain, 0.06).save(buf, "JPEG", quality=85)
    else:
        img.quantize(64).save(buf, "PNG")
    return buf.getvalue()


def _write_image(job: tuple[Path, int]) -> int:
    path, seed = job
    rng = random.Random(seed)
    data = draw_image(seed, rng.randint(256, 1024), rng.randint(256, 1024),
                      "PNG" if path.suffix == ".png" else "JPEG")
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)  # atomic: an interrupted build leaves no truncated image behind
    return len(data)


def plan(pages: int, seed: int = 17) -> list[ImageRow]:
    """The rows of the first ``pages`` pages; a page's rows do not depend on how many pages are planned."""
    rows: list[ImageRow] = []
    serial = 0
    for page in range(pages):
        rng = random.Random(seed * 1_000_003 + page)
        shared_here: set[int] = set()
        for slot in range(rng.randint(3, 5)):
            draw, category = rng.random(), "a"
            for name, share in CATEGORY_SHARES:
                if draw < share:
                    category = name
                    break
                draw -= share
            if category == "shared":
                # Once per page: the extractor's pair id is the page id + the image URL, unique on a page.
                n = rng.randrange(SHARED_POOL)
                while n in shared_here:
                    n = rng.randrange(SHARED_POOL)
                shared_here.add(n)
                host = n % IMAGE_HOSTS
            else:
                n = page * 8 + slot  # unique per (page, slot), stable whatever the page count
                host = serial % IMAGE_HOSTS
                serial += 1
            ext = "png" if n % 5 == 0 else "jpg"
            alt = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 9)))
            rows.append(ImageRow(page, slot, host, f"/{category}/{n:05d}.{ext}", f"a photo of the {alt}", category))
    return rows


def build(root: Path, pages: int, workers: int = 2) -> list[ImageRow]:
    """Write (or complete) the site for ``pages`` pages under ``root``; returns its rows."""
    rows = plan(pages)
    for host in range(IMAGE_HOSTS):
        (root / f"h{host}").mkdir(parents=True, exist_ok=True)
        (root / f"h{host}" / "robots.txt").write_text(ROBOTS)
    jobs: dict[Path, int] = {}
    for row in rows:
        path = root / f"h{row.host}" / row.path.lstrip("/")
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            jobs[path] = _seed(row)
    if jobs:
        started = time.perf_counter()
        with ProcessPoolExecutor(workers) as pool:
            total = sum(pool.map(_write_image, jobs.items(), chunksize=16))
        print(f"image_site: drew {len(jobs)} images ({total / len(jobs) / 1024:.0f} KB mean) in "
              f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    page_dir = root / "pages"
    page_dir.mkdir(parents=True, exist_ok=True)
    by_page: dict[int, list[ImageRow]] = {}
    for row in rows:
        by_page.setdefault(row.page, []).append(row)
    for page, items in by_page.items():
        target = page_dir / f"{page}.html"
        if target.exists():
            continue
        # Image hosts are written as {hostN} placeholders: their ports are only known once served (page_html).
        figures = "".join(f'<figure><img src="{{host{r.host}}}{r.path}" alt="{r.alt}"><figcaption>Figure {r.slot + 1}'
                          f"</figcaption></figure>" for r in items)
        target.write_text(f"<!doctype html><html lang=en><head><title>Page {page}</title></head><body><article>"
                          f"<h1>Page {page}</h1><p>{' '.join(WORDS[(page + k) % len(WORDS)] for k in range(40))}.</p>"
                          f"{figures}</article></body></html>")
    (root / "manifest.json").write_text(json.dumps([asdict(r) for r in rows]))
    return rows


def _seed(row: ImageRow) -> int:
    # Stable across processes (hash() of a str is salted per process).
    return int.from_bytes(row.path.encode(), "little") % (2**31 - 1)


def rows_for_images(count: int) -> int:
    """The smallest page count whose rows number at least ``count``."""
    pages = max(1, count // 4)
    while len(plan(pages)) < count:
        pages += max(1, (count - len(plan(pages))) // 4)
    return pages


def serve(root: Path, host: str, image_bases: list[str] | None = None) -> SiteServer:
    """A SiteServer for one host of the site, with the X-Robots-Tag routes and the hit-log control routes.

    ``root`` is the site folder for the page host (``image_bases`` then gives the image hosts' base URLs, which the
    pages link to), or one image host's folder (``<site>/h<N>``)."""
    server = SiteServer(root=root / "pages" if image_bases else root, host=host)
    if image_bases:
        marks = {f"{{host{i}}}": base for i, base in enumerate(image_bases)}

        def page(raw: str) -> Route:
            target = root / "pages" / Path(raw.split("?")[0]).name
            if not target.is_file():
                return Route(status=404, body="not found")
            html = target.read_text()
            for mark, base in marks.items():
                html = html.replace(mark, base)
            return Route(body=html)

        for file in (root / "pages").glob("*.html"):
            server.routes[f"/{file.name}"] = page
        index = "".join(f'<a href="/{i}.html">page {i}</a> ' for i in range(len(server.routes)))
        server.routes["/"] = Route(body=f"<!doctype html><html><body>{index}</body></html>")
    for folder, value in HEADER_SIGNALS.items():
        for file in sorted((root / folder).glob("*")) if (root / folder).is_dir() else []:
            ctype = "image/png" if file.suffix == ".png" else "image/jpeg"
            server.routes[f"/{folder}/{file.name}"] = (
                lambda _raw, f=file, c=ctype, v=value: Route(body=f.read_bytes(), content_type=c,
                                                              headers={"X-Robots-Tag": v}))

    def hits(_raw: str) -> Route:
        with server._lock:
            taken = [(h.path, h.user_agent) for h in server.hits if not h.path.startswith(CONTROL)]
            server.hits.clear()
        return Route(body=json.dumps(taken), content_type="application/json")

    def count(_raw: str) -> Route:
        with server._lock:
            n = sum(1 for h in server.hits if not h.path.startswith(CONTROL) and h.path != "/robots.txt")
        return Route(body=str(n), content_type="text/plain")

    server.routes[CONTROL + "hits"] = hits
    server.routes[CONTROL + "count"] = count
    return server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="generate the site")
    b.add_argument("--root", type=Path, required=True)
    b.add_argument("--pages", type=int, default=1200)
    s = sub.add_parser("serve", help="serve one host of a built site")
    s.add_argument("--root", type=Path, required=True)
    s.add_argument("--host", default=PAGE_HOST)
    s.add_argument("--image-base", action="append", default=[], help="image host base URLs (page host only)")
    args = parser.parse_args(argv)
    if args.command == "build":
        rows = build(args.root, args.pages, workers=min(2, os.cpu_count() or 1))
        print(f"{args.pages} pages, {len(rows)} image rows under {args.root}")
        return 0
    server = serve(args.root, args.host, args.image_base or None).start()
    print(server.base, flush=True)
    server.run_until_interrupted()
    return 0


if __name__ == "__main__":
    sys.exit(main())
