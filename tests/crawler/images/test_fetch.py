"""`winnow images fetch` end to end against image hosts on 127.0.0.1 (crawler/site_server.py).

One fetch over a site with every case (module fixture ``fetched``), whose rows, statistics and server hit log the
tests below read; then the cases that need their own run (resize, refused folders, resume after SIGKILL).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import signal
import socket
import subprocess
import time
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from PIL import Image

from crawler.site_server import Route, SiteServer
from dedup.image_hash import perceptual_hashes
from pipelines.app.cli import main
from pipelines.records import to_table
from tests.crawler.images.helpers import (
    FAST,
    WINNOW,
    interleaved,
    make_image,
    pair,
    read_images,
    run_fetch,
    write_output,
)

ROBOTS = """\
User-agent: winnowbot
Disallow: /private/
Content-Usage: /cu-robots/ train-ai=n

User-agent: winnowbot-Extended
Disallow: /no-training/
Disallow: /private/
"""
PNG = make_image("PNG", (96, 64), seed=1)
JPEG = make_image("JPEG", (120, 80), seed=2)
SHARED = make_image("PNG", (64, 64), seed=3)
BIG = make_image("PNG", (64, 64), seed=4) + b"\0" * 40_000  # over --max-mb 0.02 (20,971 bytes)


def png(seed: int) -> Route:
    return Route(body=make_image("PNG", (40, 30), seed=seed), content_type="image/png")


class RateLimited:
    """429 with Retry-After: 1 on the first request, then the image."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, path: str) -> Route:
        self.calls += 1
        if self.calls == 1:
            return Route(status=429, body="slow down", headers={"Retry-After": "1"}, content_type="text/plain")
        return png(9)


def site_routes() -> dict:
    return {
        "/robots.txt": Route(body=ROBOTS, content_type="text/plain"),
        "/.well-known/tdmrep.json": Route(body=json.dumps([{"location": "/tdm-file/*", "tdm-reservation": 1}]),
                                          content_type="application/json"),
        "/img/a.png": Route(body=PNG, content_type="image/png"),
        "/img/b.jpg": Route(body=JPEG, content_type="image/jpeg"),
        "/img/shared.png": Route(body=SHARED, content_type="image/png"),
        "/private/p.png": png(1),
        "/no-training/p.png": png(2),
        "/cu-robots/p.png": png(3),
        "/noai.png": Route(body=make_image("PNG", (40, 30), 4), content_type="image/png",
                           headers={"X-Robots-Tag": "noai"}),
        "/noimageai.png": Route(body=make_image("PNG", (40, 30), 5), content_type="image/png",
                                headers={"X-Robots-Tag": "noimageai"}),
        "/cu-header.png": Route(body=make_image("PNG", (40, 30), 6), content_type="image/png",
                                headers={"Content-Usage": "train-ai=n"}),
        "/tdm-header.png": Route(body=make_image("PNG", (40, 30), 7), content_type="image/png",
                                 headers={"tdm-reservation": "1"}),
        "/tdm-file/p.png": png(8),
        "/rate-limited.png": RateLimited(),
        "/big.png": Route(body=BIG, content_type="image/png"),
        "/slow.png": Route(body=make_image("PNG", (40, 30), 10), content_type="image/png", delay=2.5),
        "/truncated.png": Route(body=PNG[: len(PNG) // 2], content_type="image/png"),
        "/html.png": Route(body="<html><body>soft 404</body></html>"),
        "/pixel.gif": Route(body=make_image("GIF", (1, 1)), content_type="image/gif"),
        "/page-denied.png": png(11),
        "/moved.png": Route(status=301, headers={"Location": "/img/moved-here.png"}, content_type=None),
        "/img/moved-here.png": png(13),
        "/dropped.png": png(12),
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


EXPECTED_REASONS = {
    "p404": "http_404", "ppriv": "robots_disallowed", "pnotrain": "training_disallowed",
    "pcurobots": "optout.content_usage", "pnoai": "optout.noai", "pnoimageai": "optout.noimageai",
    "pcuheader": "optout.content_usage", "ptdmheader": "optout.tdmrep", "ptdmfile": "optout.tdmrep",
    "pbig": "too_large", "pslow": "timeout", "ptrunc": "truncated", "phtml": "not_an_image", "ppixel": "tracking_pixel",
    "ppage": "page_training_disallowed", "pdropped": "dropped_in_run", "pdata": "bad_url",
    "pguard": "address_guard", "pclosed": "robots_unreachable",
}


@pytest.fixture(scope="module")
def fetched(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fetch")
    with SiteServer(routes=site_routes()) as site:
        u = site.url
        pairs = [
            pair("pa", u("/img/a.png")), pair("pb", u("/img/b.jpg"), training_allowed=None),
            pair("pshared1", u("/img/shared.png")), pair("pshared2", u("/img/shared.png"), doc_id="doc2"),
            pair("p404", u("/img/missing.png")), pair("ppriv", u("/private/p.png")),
            pair("pnotrain", u("/no-training/p.png")), pair("pcurobots", u("/cu-robots/p.png")),
            pair("pnoai", u("/noai.png")), pair("pnoimageai", u("/noimageai.png")),
            pair("pcuheader", u("/cu-header.png")), pair("ptdmheader", u("/tdm-header.png")),
            pair("ptdmfile", u("/tdm-file/p.png")), pair("prate", u("/rate-limited.png")),
            pair("pbig", u("/big.png")), pair("pslow", u("/slow.png")), pair("ptrunc", u("/truncated.png")),
            pair("phtml", u("/html.png")), pair("ppixel", u("/pixel.gif")),
            pair("ppage", u("/page-denied.png"), training_allowed=False),
            pair("pdata", "data:image/png;base64,iVBORw0KGgo="),
            pair("pguard", f"http://127.0.0.2:{site.port}/img/a.png"), pair("pmoved", u("/moved.png")),
            pair("pclosed", f"http://127.0.0.1:{free_port()}/img/a.png"),
        ]
        dropped = pair("pdropped", u("/dropped.png"))
        dropped.dropped_by = "alt_quality.short"
        pairs.append(dropped)
        # the shared image again, from an interleaved document, and an interleaved-only image
        docs = [interleaved("doc9", [u("/img/shared.png"), u("/img/b.jpg")])]
        out = write_output(tmp / "out", pairs, docs, shards=2)
        started = time.monotonic()
        result = run_fetch(out, tmp / "images", "--allow-private", "127.0.0.1/32", "--max-mb", "0.02",
                           "--timeout", "1", "-s", "RETRY_TIMES=0")
        seconds = time.monotonic() - started
        hits = list(site.hits)
    assert result.returncode == 0, result.stderr[-3000:]
    stats = json.loads((tmp / "images" / "fetch-stats.json").read_text())
    rows = {r["id"]: r for r in read_images(tmp / "images")}
    return {"out": out, "images": tmp / "images", "result": result, "stats": stats, "rows": rows, "hits": hits,
            "pairs": pairs, "seconds": seconds}


def paths(fetched) -> Counter:
    return Counter(h.path for h in fetched["hits"])


def test_png_and_jpeg_stored_with_size_hashes_and_join_on_id(fetched):
    rows = fetched["rows"]
    for row_id, data, fmt, size in (("pa", PNG, "PNG", (96, 64)), ("pb", JPEG, "JPEG", (120, 80))):
        row = rows[row_id]
        assert (row["image_format"], row["width"], row["height"]) == (fmt, *size)
        assert row["image"] == data
        assert row["sha256"] == hashlib.sha256(data).hexdigest()
        assert (row["phash"], row["dhash"]) == perceptual_hashes(Image.open(io.BytesIO(data)))
        assert row["http_status"] == 200 and row["output"] == "image_text"
    pair_ids = set(pq.read_table(fetched["out"] / "image_text", columns=["id"]).column("id").to_pylist())
    joined = {i for i in rows if i in pair_ids}
    assert joined == {r for r in rows if rows[r]["output"] == "image_text"} and "pa" in joined
    assert rows["pa"]["alt"] == "an alt text" and rows["pa"]["caption"] == "a caption"


def test_policy_fields_combine_page_and_image(fetched):
    rows = fetched["rows"]
    assert rows["pa"]["training_allowed"] is True
    assert rows["pb"]["training_allowed"] is None  # the page's verdict unknown: not made up
    assert rows["pa"]["policy_signals"][0] == "robots:parsed"  # the page's own first
    assert "image:robots:parsed" in rows["pa"]["policy_signals"]


def test_one_url_on_several_rows_is_fetched_once_and_stored_for_each(fetched):
    rows = fetched["rows"]
    assert paths(fetched)["/img/shared.png"] == 1
    assert paths(fetched)["/img/b.jpg"] == 1  # an image_text pair and an interleaved segment
    for row_id in ("pshared1", "pshared2", "doc9/1"):
        assert rows[row_id]["image"] == SHARED
    assert rows["pshared2"]["doc_id"] == "doc2"


def test_a_redirect_is_followed_and_its_target_recorded(fetched):
    row = fetched["rows"]["pmoved"]
    assert row["image_url"].endswith("/moved.png") and row["fetched_url"].endswith("/img/moved-here.png")


def test_interleaved_segment_ids(fetched):
    rows = fetched["rows"]
    assert rows["doc9/1"]["segment"] == 1 and rows["doc9/3"]["segment"] == 3
    assert rows["doc9/3"]["doc_id"] == "doc9" and rows["doc9/3"]["output"] == "interleaved"
    assert rows["doc9/3"]["alt"] == "image 1" and rows["doc9/3"]["image"] == JPEG


def test_every_row_stored_or_counted_by_reason(fetched):
    stats, rows = fetched["stats"], fetched["rows"]
    read = len(fetched["pairs"]) + 2
    assert stats["rows"] == read == stats["stored"] + sum(stats["not_stored"].values())
    assert stats["pending"] == 0
    assert stats["stored"] == len(rows) == 8  # pa pb pshared1 pshared2 prate pmoved doc9/1 doc9/3
    assert stats["not_stored"] == dict(Counter(EXPECTED_REASONS.values()))
    assert not set(EXPECTED_REASONS) & set(rows)
    printed = fetched["result"].stdout
    assert f"8 of {read} row(s) stored" in printed and "optout.noai=1" in printed


def test_robots_disallowed_for_the_bot_or_the_training_token_is_not_fetched(fetched):
    hit = paths(fetched)
    assert hit["/robots.txt"] == 1
    for path in ("/private/p.png", "/no-training/p.png", "/cu-robots/p.png", "/page-denied.png", "/dropped.png"):
        assert hit[path] == 0, path


def test_response_opt_outs_are_fetched_but_not_stored(fetched):
    hit = paths(fetched)
    for path in ("/noai.png", "/noimageai.png", "/cu-header.png", "/tdm-header.png", "/tdm-file/p.png"):
        assert hit[path] == 1, path
    assert hit["/.well-known/tdmrep.json"] == 1  # once per host


def test_429_with_retry_after_then_stored_and_the_gap_respected(fetched):
    times = [h.time for h in fetched["hits"] if h.path == "/rate-limited.png"]
    assert len(times) == 2
    assert times[1] - times[0] >= 0.95
    assert fetched["rows"]["prate"]["image_format"] == "PNG"


def test_the_address_guard_and_user_agent(fetched):
    assert all("127.0.0.2" not in h.path for h in fetched["hits"])
    assert all(h.user_agent.startswith("winnowbot/") for h in fetched["hits"])


def test_resize(tmp_path):
    big = make_image("JPEG", (400, 300), seed=5)
    routes = {"/robots.txt": Route(body="", content_type="text/plain"),
              "/big.jpg": Route(body=big, content_type="image/jpeg")}
    with SiteServer(routes=routes) as site:
        out = write_output(tmp_path / "out", [pair("p1", site.url("/big.jpg"))])
        result = run_fetch(out, tmp_path / "images", "--allow-private", "--resize", "150")
    assert result.returncode == 0, result.stderr[-2000:]
    (row,) = read_images(tmp_path / "images")
    assert (row["width"], row["height"], row["original_width"], row["original_height"]) == (200, 150, 400, 300)
    assert Image.open(io.BytesIO(row["image"])).size == (200, 150)
    assert row["sha256"] == hashlib.sha256(big).hexdigest()  # of the bytes as fetched



def test_a_non_empty_output_is_refused_without_resume(tmp_path, capsys):
    out = write_output(tmp_path / "out", [pair("p1", "http://127.0.0.1:9/a.png")])
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "fetch-stats.json").write_text("{}")
    assert "--resume" in refused(capsys, out, tmp_path / "images", "--allow-private")


def refused(capsys, out: Path, images: Path, *flags: str) -> str:
    """Run the CLI in this process (refusals come before any crawl starts): rc 2 and one line on stderr."""
    rc = main(["images", "fetch", str(out), "--output", str(images), "--no-progress", *flags])
    err = capsys.readouterr().err
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("make, message", [
    (lambda p: p.mkdir(), "no image_text/ or interleaved/"),
    (lambda p: None, "is not a folder"),
    (lambda p: (p / "image_text").mkdir(parents=True) or (p / "image_text" / "x.parquet").write_bytes(b"junk"),
     "cannot read"),
    (lambda p: (p / "interleaved").mkdir(parents=True) or pq.write_table(
        to_table([pair("p1", "http://127.0.0.1:9/a.png")], "image_text"), p / "interleaved" / "x.parquet"),
     "not a winnow interleaved shard"),
])
def test_not_a_winnow_output_is_one_line_rc_2(tmp_path, capsys, make, message):
    make(tmp_path / "out")
    assert message in refused(capsys, tmp_path / "out", tmp_path / "images")
    assert not (tmp_path / "images" / "images").exists()


@pytest.mark.parametrize("flags, message", [
    (["--resize", "0"], "--resize"), (["--max-mb", "-1"], "--max-mb"), (["--timeout", "0"], "--timeout"),
    (["--shard-rows", "0"], "--shard-rows"), (["-s", "NOEQUALS"], "KEY=VALUE"), (["--bot-name", "bad bot"], "token"),
    (["--allow-private", "10.0.0.0/33"], "not a network"),
])
def test_bad_flags_are_one_line_rc_2(tmp_path, capsys, flags, message):
    out = write_output(tmp_path / "out", [pair("p1", "http://127.0.0.1:9/a.png")])
    assert message in refused(capsys, out, tmp_path / "images", *flags)


def test_a_public_image_host_needs_a_contact_url(tmp_path, capsys):
    out = write_output(tmp_path / "out", [pair("p1", "http://images.example.com/a.png")])
    assert "--contact-url is required" in refused(capsys, out, tmp_path / "images")


def test_a_folder_that_holds_no_fetch_is_not_resumed(tmp_path, capsys):
    out = write_output(tmp_path / "out", [pair("p1", "http://127.0.0.1:9/a.png")])
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "notes.txt").write_text("mine")
    assert "no fetch to resume" in refused(capsys, out, tmp_path / "images", "--resume")


@pytest.mark.slow
def test_resume_after_sigkill_stores_every_id_exactly_once(tmp_path):
    routes = {"/robots.txt": Route(body="", content_type="text/plain")}
    for n in range(30):
        routes[f"/i/{n}.png"] = Route(body=make_image("PNG", (40, 30), seed=n), content_type="image/png", delay=0.1)
    with SiteServer(routes=routes) as site:
        pairs = [pair(f"p{n}", site.url(f"/i/{n}.png")) for n in range(30)]
        pairs += [pair("again", site.url("/i/0.png")), pair("gone", site.url("/missing.png"))]
        out = write_output(tmp_path / "out", pairs, [interleaved("d", [site.url("/i/29.png")])])
        images = tmp_path / "images"
        proc = subprocess.Popen([WINNOW, "images", "fetch", str(out), "--output", str(images), *FAST,
                                 "--allow-private", "--shard-rows", "3"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(list((images / "images").glob("part-*.parquet"))) < 2:
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        before = read_images(images)
        assert 6 <= len(before) < 32, "the kill came too late to test a resume"
        result = run_fetch(out, images, "--allow-private", "--shard-rows", "3", "--resume")
        hits = Counter(h.path for h in site.hits)
    assert result.returncode == 0, result.stderr[-2000:]
    # what the killed session had committed is not fetched again (i/0 and i/29 are shared with other rows)
    committed = {r["image_url"].split(":", 2)[2].split("/", 1)[1] for r in before}
    assert all(hits["/" + path] == 1 for path in committed if path not in ("i/0.png", "i/29.png")), hits
    ids = [r["id"] for r in read_images(images)]
    assert len(ids) == len(set(ids))
    assert set(ids) == {f"p{n}" for n in range(30)} | {"again", "d/1"}
    stats = json.loads((images / "fetch-stats.json").read_text())
    assert stats["rows"] == 33 and stats["stored"] == 32 and stats["not_stored"] == {"http_404": 1}
    assert stats["pending"] == 0
    stored_before = {r["id"] for r in before}
    assert stats["last_session"]["stored"] == 32 - len(stored_before)


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_with_the_rest_pending(tmp_path):
    routes = {"/robots.txt": Route(body="", content_type="text/plain")}
    for n in range(40):
        routes[f"/i/{n}.png"] = Route(body=make_image("PNG", (40, 30), seed=n), content_type="image/png", delay=0.15)
    with SiteServer(routes=routes) as site:
        out = write_output(tmp_path / "out", [pair(f"p{n}", site.url(f"/i/{n}.png")) for n in range(40)])
        images = tmp_path / "images"
        proc = subprocess.Popen([WINNOW, "images", "fetch", str(out), "--output", str(images), *FAST,
                                 "--allow-private", "--shard-rows", "5"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not list((images / "images").glob("part-*.parquet")):
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
        assert proc.returncode == 130, stderr[-2000:]
        stats = json.loads((images / "fetch-stats.json").read_text())
        assert stats["pending"] > 0 and stats["stored"] + sum(stats["not_stored"].values()) + stats["pending"] == 40
        assert "--resume" in stdout
        result = run_fetch(out, images, "--allow-private", "--resume")
    assert result.returncode == 0, result.stderr[-2000:]
    stats = json.loads((images / "fetch-stats.json").read_text())
    assert (stats["stored"], stats["pending"]) == (40, 0)
    assert sorted(r["id"] for r in read_images(images)) == sorted(f"p{n}" for n in range(40))


class FailsFirst:
    """503 on the first request, then the image: a failure another try does not repeat."""

    def __init__(self, seed: int) -> None:
        self.seed, self.calls = seed, 0

    def __call__(self, path: str) -> Route:
        self.calls += 1
        if self.calls == 1:
            return Route(status=503, body="busy", content_type="text/plain")
        return png(self.seed)


@pytest.mark.slow
def test_resume_with_retry_failed_fetches_temporary_failures_again_and_only_those(tmp_path, capsys):
    routes = {"/robots.txt": Route(body="", content_type="text/plain"), "/ok.png": png(1),
              "/flaky.png": FailsFirst(2), "/missing.png": Route(status=404, body="no")}
    with SiteServer(routes=routes) as site:
        out = write_output(tmp_path / "out", [pair("ok", site.url("/ok.png")), pair("flaky", site.url("/flaky.png")),
                                              pair("gone", site.url("/missing.png"))])
        images = tmp_path / "images"
        once = ["--allow-private", "-s", "RETRY_TIMES=0", "-s", "WINNOW_RETRY_TIMES=0"]  # no retry in a session
        first = run_fetch(out, images, *once)
        plain = run_fetch(out, images, *once, "--resume")
        stats_plain = json.loads((images / "fetch-stats.json").read_text())
        retried = run_fetch(out, images, *once, "--resume", "--retry-failed")
        hits = Counter(h.path for h in site.hits)
    assert first.returncode == plain.returncode == retried.returncode == 0, retried.stderr[-2000:]
    assert stats_plain["not_stored"] == {"http_503": 1, "http_404": 1}  # a plain --resume leaves counted rows alone
    stats = json.loads((images / "fetch-stats.json").read_text())
    assert (stats["rows"], stats["stored"], stats["not_stored"], stats["pending"]) == (3, 2, {"http_404": 1}, 0)
    assert hits["/flaky.png"] == 2 and hits["/missing.png"] == 1 and hits["/ok.png"] == 1
    assert sorted(r["id"] for r in read_images(images)) == ["flaky", "ok"]
    assert "--resume" in refused(capsys, out, tmp_path / "new", "--allow-private", "--retry-failed")


@pytest.mark.slow
def test_resume_with_another_resize_is_refused(tmp_path, capsys):
    with SiteServer(routes={"/robots.txt": Route(body="", content_type="text/plain"), "/a.png": png(1)}) as site:
        out = write_output(tmp_path / "out", [pair("a", site.url("/a.png"))])
        assert run_fetch(out, tmp_path / "images", "--allow-private", "--resize", "20").returncode == 0
    message = refused(capsys, out, tmp_path / "images", "--allow-private", "--resume")
    assert "was made with --resize 20" in message
    assert "was made with --resize 20" in refused(capsys, out, tmp_path / "images", "--allow-private", "--resume",
                                                  "--resize", "30")
