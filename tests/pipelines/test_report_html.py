"""`winnow report OUT_DIR` (pipelines/report_html.py): the sections and figures a run's output gets, checked on a
real `winnow run default --local` over the bundled sample and on a hand-built output that has data for every
section; the page opened in headless Chromium to check that its figures render; and a clear refusal (rc 2, no
traceback) for a folder that is not a run output."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from pipelines.app.cli import main
from pipelines.app.sample import build_sample_warc
from pipelines.records import DOCUMENT_SCHEMA, IMAGE_SCHEMA, IMAGE_TEXT_SCHEMA, INTERLEAVED_SCHEMA
from pipelines.report_html import build_report, write_report

SECTIONS = ["funnel", "languages", "quality", "lengths", "hosts", "page-types", "image-text", "interleaved",
            "images", "opt-out", "pii", "crawl", "timing"]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
CRAWL_STATS = {"winnow/pages": 15, "winnow/hosts": 1, "winnow/warc/files": 1, "finish_reason": "finished",
               "winnow/skipped/non_html": 1, "winnow/links_skipped/extension": 3,
               "winnow/verdict/training_allowed": 14, "winnow/verdict/training_denied": 1}


def sections(page: str) -> dict[str, str]:
    found = dict(re.findall(r'<section id="([^"]+)">(.*?)</section>', page, re.S))
    assert list(found) == SECTIONS
    return found


def figures_by_section(page: str) -> dict[str, int]:
    counts = {key: body.count("<svg") for key, body in sections(page).items()}
    for key, body in sections(page).items():
        # A section has its figure or says in one line that there is no data: never neither, never a blank plot.
        assert counts[key] in (0, 1), key
        assert (counts[key] == 0) == ('<p class="empty">' in body), key
    return counts


# ------------------------------------------------------------------------------------------- a real pipeline run


@pytest.fixture(scope="module")
def sample_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`winnow run default --local --annotate` over the bundled sample site, its WARC in a crawl folder."""
    tmp = tmp_path_factory.mktemp("report")
    crawl = tmp / "crawl"
    crawl.mkdir()
    build_sample_warc(crawl / "site.warc.gz")
    # What `winnow crawl` leaves beside its WARC files (the sample is built, not crawled).
    (crawl / "crawl-stats.json").write_text(json.dumps(CRAWL_STATS))
    out = tmp / "out"
    assert main(["run", "default", "-i", str(crawl), "-o", str(out), "--local", "--annotate", "--no-progress"]) == 0
    assert "<svg" in (out / "report.html").read_text()  # `winnow run` writes the report itself
    assert main(["report", str(out)]) == 0
    return out


def _kept(out: Path, name: str, column: str) -> list:
    values = []
    for shard in sorted((out / name).glob("part-*.parquet")):
        table = pq.read_table(shard, columns=[column, "dropped_by"])
        values += table.filter(pc.is_null(table.column("dropped_by"))).column(column).to_pylist()
    return values


def _scored(out: Path, name: str) -> list:
    """quality_score of every row, kept or dropped (thin tombstones keep it)."""
    return [v for shard in sorted((out / name).glob("part-*.parquet"))
            for v in pq.read_table(shard, columns=["quality_score"]).column("quality_score").to_pylist()]


@pytest.mark.slow
def test_report_of_a_real_run_has_a_figure_where_there_is_data(sample_run: Path) -> None:
    page = (sample_run / "report.html").read_text()
    counts = figures_by_section(page)
    stats = json.loads((sample_run / "stats.json").read_text())
    # What the sample's data holds decides which sections plot; read it here independently of the report.
    expected = {
        "funnel": 1,
        "languages": int(any(_kept(sample_run, d, "lang") for d in ("text", "interleaved"))),
        "quality": int(any(v is not None for d in ("text", "interleaved") for v in _scored(sample_run, d))),
        "lengths": int(bool(_kept(sample_run, "text", "text"))),
        "hosts": int(bool(_kept(sample_run, "text", "url"))),
        "page-types": int(any(_kept(sample_run, "text", "page_type"))),
        "image-text": int(bool(_kept(sample_run, "image_text", "image_url"))),
        "interleaved": int(bool(_kept(sample_run, "interleaved", "segments"))),
        "images": int(bool(_kept(sample_run, "images", "sha256"))),  # `default` fetches no images: 0
        "opt-out": 1,  # the sample's WARC has no policy verdicts: the crawl's verdict counters are plotted instead
        "pii": int(any(labels for d in ("text", "interleaved", "image_text")
                       for labels in _kept(sample_run, d, "pii_redacted"))),
        "crawl": 1,  # the crawl-stats.json beside the input: skipped and links_skipped counters
        "timing": int(any("seconds" in s for s in stats["steps"])),
    }
    assert counts == expected
    assert page.count("<svg") == sum(expected.values()) >= 8
    body = sections(page)
    host = urlsplit(_kept(sample_run, "text", "url")[0]).hostname
    assert f"<td>{host}</td>" in body["hosts"] and "winnow/pages" in body["crawl"]
    for step in stats["steps"]:  # every step of the funnel is in its table
        assert f"<td>{step['step']}</td>" in body["funnel"]
    # Self-contained: nothing to fetch, nothing to run.
    assert "<script" not in page and "http://" not in page.split("<section", 1)[0] and "<img" not in page


# --------------------------------------------------------------------------------------- an output with everything


def _rows(schema: pa.Schema, rows: list[dict]) -> pa.Table:
    now = datetime(2026, 12, 1, tzinfo=UTC)
    full = [{"source": f"crawl.warc.gz@{i}", "fetched_at": now, **r} for i, r in enumerate(rows)]
    return pa.Table.from_pylist(full, schema=schema)


def built_output(tmp: Path) -> Path:
    """An output folder with data for every section: PII, opted-out rows (as --annotate keeps them), image pairs."""
    crawl, out = tmp / "crawl", tmp / "out"
    for d in (crawl, out / "text", out / "image_text", out / "interleaved", out / "images"):
        d.mkdir(parents=True)
    (crawl / "part-1.warc.gz").write_bytes(b"")
    (crawl / "crawl-stats.json").write_text(json.dumps(CRAWL_STATS))
    texts = [{"id": f"t{i}", "url": f"https://{'a' if i % 3 else 'b'}.example/{i}", "text": "word " * (40 * i + 10),
              "lang": "en" if i % 4 else "fr", "quality_score": i / 30, "page_type": "article" if i % 2 else "forum",
              "pii_redacted": ["email"] * (i % 3) + ["phone"] * (i % 2)} for i in range(30)]
    texts.append({"id": "low", "url": "https://b.example/low", "dropped_by": "quality_model.low_quality",
                  "quality_score": 0.03})
    texts.append({"id": "x", "url": "https://b.example/x", "dropped_by": "opt_out.training_opt_out",
                  "training_allowed": False, "policy_signals": ["robots:winnowbot-Extended=disallow",
                                                                "header:x-robots-tag=noai",
                                                                "meta:content-usage=<script>alert(1)</script>"]})
    pq.write_table(_rows(DOCUMENT_SCHEMA, texts), out / "text" / "part-a.parquet")
    pairs = [{"id": f"p{i}", "url": "https://a.example/1", "doc_id": "t1", "image_url": f"https://a.example/{i}.png",
              "alt": "a red bicycle by a wall", "caption": "a red bicycle by a wall", "width": 300 + 10 * i,
              "height": 250, "lang": "en"} for i in range(5)]
    pq.write_table(_rows(IMAGE_TEXT_SCHEMA, pairs), out / "image_text" / "part-a.parquet")
    docs = [{"id": f"d{i}", "url": f"https://a.example/{i}", "lang": "en", "quality_score": 0.5,
             "segments": [{"kind": "text", "text": "Some prose here. " * 20, "image_url": None, "alt": None},
                          *[{"kind": "image", "text": None, "image_url": f"https://a.example/{j}.png", "alt": "x"}
                            for j in range(i)]]} for i in range(4)]
    pq.write_table(_rows(INTERLEAVED_SCHEMA, docs), out / "interleaved" / "part-a.parquet")
    images = [{"id": f"p{i}", "url": "https://a.example/1", "output": "image_text",
               "image_format": "PNG" if i else "JPEG", "width": 300 + 10 * i, "height": 250,
               "original_width": 600 + 20 * i, "original_height": 500, "image": b"\x89PNG" * 4,
               "sha256": f"{i % 3:064x}", "clip_score": 0.2 + i / 20} for i in range(5)]
    pq.write_table(_rows(IMAGE_SCHEMA, images), out / "images" / "part-a.parquet")
    steps = [{"step": "read", "in": 31, "kept": 31, "dropped": {}},
             {"step": "opt_out", "in": 31, "kept": 30, "dropped": {"training_opt_out": 1}, "seconds": 0.1,
              "cpu_seconds": 0.1},
             {"step": "extract", "in": 30, "kept": 30, "dropped": {}, "seconds": 2.5, "cpu_seconds": 4.0,
              "produced": {"text": 30, "image_text": 5, "interleaved": 4}}]
    (out / "stats.json").write_text(json.dumps({
        "steps": steps, "outputs": {"text": {"rows": 30, "shards": 1}}, "inputs": {}, "errors": [], "metrics": {},
        "last_run": {"inputs_processed": 1, "inputs_skipped_as_done": 0, "waves": 1, "seconds": 3.0}}))
    (out / "manifest.json").write_text(json.dumps({"config_path": "default", "runner": "local",
                                                   "inputs": [{"path": str(crawl / "part-1.warc.gz"), "bytes": 0}]}))
    return out


def test_every_section_plots_when_the_output_has_its_data(tmp_path: Path) -> None:
    out = built_output(tmp_path)
    page = write_report(out).read_text()
    assert figures_by_section(page) == dict.fromkeys(SECTIONS, 1)
    body = sections(page)
    assert "email" in body["pii"] and "phone" in body["pii"]
    assert "header:x-robots-tag=noai" in body["opt-out"]
    assert "forum" in body["page-types"]
    assert "<td>text, kept</td>" in body["quality"] and "<td>text, dropped</td>" in body["quality"]
    assert "<td>distinct images (sha256)</td><td class=\"num\">3</td>" in body["images"]
    assert "CLIP score" in body["images"] and "format PNG" in body["images"]
    # Values from the data are escaped: a hostile URL is text on the page, not markup.
    assert "<script>alert" not in page and "&lt;script&gt;alert" in body["opt-out"]
    assert "every row of the shards" in page


def test_a_capped_sample_says_so(tmp_path: Path) -> None:
    page = build_report(built_output(tmp_path), max_rows=10)
    note = re.search(r'<p class="note">([^<]*)</p>', page).group(1)
    assert "sample" in note and "text: 10 of 32 rows" in note


def test_an_output_with_no_data_says_so_in_each_section(tmp_path: Path) -> None:
    (tmp_path / "stats.json").write_text(json.dumps({"steps": []}))  # no manifest, no shards
    page = write_report(tmp_path).read_text()
    assert figures_by_section(page) == dict.fromkeys(SECTIONS, 0)


def test_a_folder_that_is_not_a_run_output_is_refused_without_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    for target in (tmp_path, tmp_path / "missing", tmp_path / "notes.txt"):
        done = subprocess.run([sys.executable, "-m", "pipelines.app.cli", "report", str(target)], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr
        assert done.stderr.startswith("winnow report: ") and str(target) in done.stderr
    assert not (tmp_path / "report.html").exists()


# ----------------------------------------------------------------------------------------------- in a real browser


def _screenshot_figures(report: Path) -> list[tuple[dict, object]]:
    """Open the page in Debian's Chromium; return each figure's bounding box and the screenshot crop inside it."""
    from PIL import Image
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            # Offline on purpose: the page must need nothing from a network.
            page.route("**/*", lambda route: route.abort() if not route.request.url.startswith("file:")
                       else route.continue_())
            page.goto(report.as_uri())
            shot = Image.open(io.BytesIO(page.screenshot(full_page=True))).convert("RGB")
            boxes = [el.bounding_box() for el in page.query_selector_all("figure.plot > svg")]
        finally:
            browser.close()
    return [(box, shot.crop((int(box["x"]), int(box["y"]), int(box["x"] + box["width"]),
                             int(box["y"] + box["height"]))) if box else None) for box in boxes]


@pytest.mark.browser
@pytest.mark.slow
def test_the_figures_render_in_chromium(sample_run: Path, tmp_path: Path) -> None:
    for report in (sample_run / "report.html", write_report(built_output(tmp_path))):
        figures = _screenshot_figures(report)
        assert len(figures) == report.read_text().count("<svg") > 0
        for box, crop in figures:
            assert box and box["width"] > 100 and box["height"] > 50, box
            colours = crop.getcolors(maxcolors=1 << 16)
            # Drawn: axes, bars and labels, not one flat colour (an SVG that failed to render is blank).
            assert colours is None or len(colours) > 5, (report, box)
