"""The bundled sample WARC: valid, complete, deterministic, and faithful to the demo site."""

from __future__ import annotations

import base64
import hashlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator

from pipelines.app.sample import (
    BASE_URL,
    DEFAULT_SITE_DIR,
    MISSING,
    NOT_FOUND_FILE,
    REDIRECT_FROM,
    REDIRECT_TO,
    REVISITED,
    build_sample_warc,
    main,
)

CP1252_PAGE = "fr/lavoir-rue-des-saules.html"


@dataclass
class Rec:
    offset: int
    version: str
    type: str
    headers: dict[str, str]
    status: str | None
    http: dict[str, str]
    payload: bytes


def _read(path: Path) -> list[Rec]:
    out = []
    with open(path, "rb") as fh:
        # check_digests="raise": every block and payload digest warcio wrote must verify on reading.
        it = ArchiveIterator(fh, check_digests="raise")
        for record in it:
            http = record.http_headers
            # Read the payload before asking for the offset: warcio's get_record_offset() reads
            # the record to its end, after which content_stream() returns nothing.
            payload = record.content_stream().read()
            out.append(
                Rec(
                    offset=it.get_record_offset(),
                    version=record.rec_headers.protocol,
                    type=record.rec_type,
                    headers=dict(record.rec_headers.headers),
                    status=http.get_statuscode() if http and record.rec_type != "request" else None,
                    http=dict(http.headers) if http else {},
                    payload=payload,
                )
            )
    return out


@pytest.fixture(scope="module")
def warc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sample_warc(tmp_path_factory.mktemp("sample") / "sample.warc.gz")


@pytest.fixture(scope="module")
def records(warc: Path) -> list[Rec]:
    return _read(warc)


def _site_files() -> list[str]:
    # Files under dot-folders (/.well-known/tdmrep.json) are the crawl's business, not the sample's pages.
    rels = (p.relative_to(DEFAULT_SITE_DIR).as_posix() for p in DEFAULT_SITE_DIR.rglob("*") if p.is_file())
    return sorted(rel for rel in rels if not any(part.startswith(".") for part in rel.split("/")))


def _responses(records: list[Rec], url: str) -> list[Rec]:
    return [r for r in records if r.type == "response" and r.headers["WARC-Target-URI"] == url]


def _sha1_b32(data: bytes) -> str:
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode()


def test_record_types_and_counts(records: list[Rec]) -> None:
    # robots.txt and "/" first, then every file but the 404 body, then the redirect and the 404.
    pages = len(_site_files()) - 1  # 404.html is only the body of the 404 response
    fetched = 1 + pages + 2  # "/" + each file (robots.txt included) + redirect + 404
    counts = Counter(r.type for r in records)
    assert counts == {"warcinfo": 1, "request": fetched + 1, "response": fetched, "revisit": 1}
    assert records[0].type == "warcinfo"
    assert all(r.headers["WARC-Type"] == r.type for r in records)
    assert len({r.headers["WARC-Record-ID"] for r in records}) == len(records)


def test_every_request_names_its_response(records: list[Rec]) -> None:
    by_id = {r.headers["WARC-Record-ID"]: r for r in records}
    requests = [r for r in records if r.type == "request"]
    for req in requests:
        answer = by_id[req.headers["WARC-Concurrent-To"]]
        assert answer.type in ("response", "revisit")
        assert answer.headers["WARC-Target-URI"] == req.headers["WARC-Target-URI"]
        assert answer.headers["WARC-Date"] == req.headers["WARC-Date"]


def test_responses_mirror_the_site(records: list[Rec]) -> None:
    for rel in _site_files():
        if rel == NOT_FOUND_FILE:
            continue
        (resp,) = _responses(records, BASE_URL + rel)
        body = (DEFAULT_SITE_DIR / rel).read_bytes()
        assert resp.status == "200"
        assert resp.payload == body
        assert resp.http["Content-Length"] == str(len(body))
        assert resp.http["Date"].endswith(" GMT")
        if rel.endswith(".html"):
            assert resp.http["Content-Type"].startswith("text/html; charset=")
    (root,) = _responses(records, BASE_URL)
    assert root.payload == (DEFAULT_SITE_DIR / "index.html").read_bytes()


def test_non_html_content_types(records: list[Rec]) -> None:
    (png,) = _responses(records, BASE_URL + "images/river-mill.png")
    assert png.http["Content-Type"] == "image/png"
    assert png.payload.startswith(b"\x89PNG\r\n\x1a\n")
    (txt,) = _responses(records, BASE_URL + "files/bread-timings.txt")
    assert txt.http["Content-Type"] == "text/plain; charset=utf-8"
    (robots,) = _responses(records, BASE_URL + "robots.txt")
    assert b"User-agent: *" in robots.payload


def test_redirect_and_not_found(records: list[Rec]) -> None:
    (moved,) = _responses(records, BASE_URL + REDIRECT_FROM)
    assert moved.status == "301"
    assert moved.http["Location"] == BASE_URL + REDIRECT_TO
    (missing,) = _responses(records, BASE_URL + MISSING)
    assert missing.status == "404"
    assert missing.http["Content-Type"] == "text/html; charset=utf-8"
    assert missing.payload == (DEFAULT_SITE_DIR / NOT_FOUND_FILE).read_bytes()


def test_revisit_points_at_identical_original(records: list[Rec]) -> None:
    (revisit,) = [r for r in records if r.type == "revisit"]
    (original,) = _responses(records, BASE_URL + REVISITED)
    h = revisit.headers
    assert h["WARC-Profile"] == "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"
    assert h["WARC-Refers-To-Target-URI"] == original.headers["WARC-Target-URI"]
    assert h["WARC-Refers-To-Date"] == original.headers["WARC-Date"]
    assert h["WARC-Refers-To"] == original.headers["WARC-Record-ID"]
    assert h["WARC-Payload-Digest"] == original.headers["WARC-Payload-Digest"]
    # The digest is of the bytes actually served, not just copied between two headers.
    assert h["WARC-Payload-Digest"] == _sha1_b32((DEFAULT_SITE_DIR / REVISITED).read_bytes())
    assert revisit.payload == b""  # identical-payload-digest revisits carry headers only
    assert h["WARC-Date"] > original.headers["WARC-Date"]
    assert records.index(revisit) > records.index(original)


def test_windows_1252_page(records: list[Rec]) -> None:
    (page,) = _responses(records, BASE_URL + CP1252_PAGE)
    assert page.http["Content-Type"] == "text/html; charset=windows-1252"
    assert b'charset=windows-1252"' in page.payload[:1024]
    text = page.payload.decode("cp1252")
    assert "é" in text
    assert "œuvre" in text and "42 000 €" in text  # cp1252-only code points (not in latin-1)
    with pytest.raises(UnicodeDecodeError):
        page.payload.decode("utf-8")


def test_dates_and_version(records: list[Rec]) -> None:
    assert {r.version for r in records} == {"WARC/1.1"}
    assert records[0].headers["WARC-Date"] == "2026-11-01T00:00:00Z"
    dates = [r.headers["WARC-Date"] for r in records]
    assert dates == sorted(dates)


def test_two_builds_are_byte_identical(warc: Path, records: list[Rec], tmp_path: Path) -> None:
    # A different file name and directory on purpose: neither may leak into the bytes.
    again = build_sample_warc(tmp_path / "nested" / "again.warc.gz")
    data = warc.read_bytes()
    assert again.read_bytes() == data
    assert not list(again.parent.glob("*.tmp"))
    # One gzip member per record (offsets are addressable), and no member header carries a time.
    for rec in records:
        header = data[rec.offset : rec.offset + 10]
        assert header[:3] == b"\x1f\x8b\x08"
        assert header[4:8] == b"\0\0\0\0", f"gzip MTIME set at offset {rec.offset}"


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str], records: list[Rec]) -> None:
    out = tmp_path / "cli.warc.gz"
    assert main([str(out)]) == 0
    printed = capsys.readouterr().out
    assert str(out) in printed
    assert f"{len(records)} records" in printed


def test_missing_site_dir(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        build_sample_warc(tmp_path / "x.warc.gz", site_dir=tmp_path / "nope")
    assert not (tmp_path / "x.warc.gz").exists()


def test_demo_site_shape() -> None:
    """The properties the rest of the project relies on: languages, the duplicate, the size."""
    files = _site_files()
    assert sum((DEFAULT_SITE_DIR / f).stat().st_size for f in files) < 150_000
    langs = Counter()
    for rel in files:
        if rel.endswith(".html") and rel != NOT_FOUND_FILE:
            head = (DEFAULT_SITE_DIR / rel).read_bytes()[:200]
            langs[head.split(b'<html lang="', 1)[1].split(b'"', 1)[0].decode()] += 1
    assert langs["en"] >= 6 + 1  # six articles and the front page at least
    assert langs["fr"] >= 2 and langs["de"] >= 2 and langs["es"] >= 1 and langs["ja"] >= 1
    # The partner page repeats the sourdough article's text verbatim under other boilerplate.
    original = (DEFAULT_SITE_DIR / "articles/sourdough-basics.html").read_text("utf-8")
    copy = (DEFAULT_SITE_DIR / "partners/weekend-sourdough.html").read_text("utf-8")
    body = original.split("<article>", 1)[1].split("</article>", 1)[0].strip()
    assert body in copy
    assert "cookie-banner" in original and "cookie-banner" not in copy
