"""One bad record in a WARC file costs that record only; damage to the file itself ends the file.

The per-record failures here (a body that does not decode under its Content-Encoding, an HTTP status
line that is not a status, an error nobody foresaw) each become one counted tombstone, and every
record after them is still read. Truncation stays ``read.corrupt_input``.
"""

from __future__ import annotations

import gzip
import random
import zlib
from pathlib import Path

import brotli
import pytest

import pipelines.readers.warc as warc
import pipelines.readers.warc_http as warc_http
from tests.pipelines.test_readers import reasons, rows
from tests.warc_factory import WarcBuilder, truncated

HTML = b"<!doctype html><html><head><title>T</title></head><body><p>Hello page</p></body></html>"
GARBAGE = bytes(random.Random(7).randrange(256) for _ in range(600))


def encoded(url: str, body: bytes, encoding: str) -> dict:
    return {"url": url, "body": body, "extra_headers": [("Content-Encoding", encoding)]}


def chunked(data: bytes, size: int = 7) -> bytes:
    parts = [b"%x\r\n%s\r\n" % (len(data[i:i + size]), data[i:i + size]) for i in range(0, len(data), size)]
    return b"".join(parts) + b"0\r\n\r\n"


@pytest.mark.parametrize("gzip_", [True, False], ids=["gz", "plain"])
def test_bad_records_cost_only_themselves(tmp_path: Path, gzip_: bool) -> None:
    b = WarcBuilder(gzip=gzip_)
    before = [b.add_response(f"http://ex.com/before{i}", HTML) for i in range(3)]
    br_ok = b.add_response(**encoded("http://ex.com/br", brotli.compress(HTML), "br"))
    br_bad = b.add_response(**encoded("http://ex.com/br-garbage", GARBAGE, "br"))
    gz_bad = b.add_response(**encoded("http://ex.com/gzip-garbage", GARBAGE, "gzip"))
    after = [b.add_response(f"http://ex.com/after{i}", HTML) for i in range(5)]
    name = "bad-records.warc.gz" if gzip_ else "bad-records.warc"
    got = rows(b.write(tmp_path / name))

    assert len(got) == len(b.offsets) == 11  # one row per response: none lost, none invented
    assert [r["source"] for r in got] == [f"{name}@{o}" for o in b.offsets]
    by_source = {r["source"]: r for r in got}
    for offset in [*before, br_ok, *after]:
        page = by_source[f"{name}@{offset}"]
        assert page["dropped_by"] is None and page["html"] == HTML.decode()
    for offset, coding in [(br_bad, "br"), (gz_bad, "gzip")]:
        tomb = by_source[f"{name}@{offset}"]
        assert tomb["dropped_by"] == "read.undecodable_payload"
        assert tomb["drop_detail"].startswith(f"Content-Encoding {coding}: ")
        assert tomb["html"] is None and tomb["http_status"] == 200 and tomb["content_type"] == "text/html"
    assert reasons(got) == {"read.undecodable_payload": 2}


@pytest.mark.parametrize(
    ("body", "headers"),
    [
        (brotli.compress(HTML), [("Content-Encoding", "br")]),
        (gzip.compress(HTML), [("Content-Encoding", "x-gzip")]),  # RFC 9110 §8.4.1.3: the same as gzip
        (gzip.compress(HTML), [("Content-Encoding", "GZIP")]),
        (zlib.compress(HTML), [("Content-Encoding", "deflate")]),
        (zlib.compress(HTML)[2:-4], [("Content-Encoding", "deflate")]),  # raw deflate, as some servers send
        (brotli.compress(gzip.compress(HTML)), [("Content-Encoding", "gzip, br")]),  # applied in that order
        (gzip.compress(HTML), [("Content-Encoding", "identity, gzip")]),
        (chunked(gzip.compress(HTML)), [("Transfer-Encoding", "chunked"), ("Content-Encoding", "gzip")]),
        (chunked(brotli.compress(HTML)), [("Transfer-Encoding", "chunked"), ("Content-Encoding", "br")]),
        (gzip.compress(HTML) + gzip.compress(b"<p>more</p>"), [("Content-Encoding", "gzip")]),  # two members
    ],
    ids=["br", "x-gzip", "upper-case", "deflate", "raw-deflate", "gzip-then-br", "identity-gzip",
         "chunked-gzip", "chunked-br", "gzip-members"],
)
def test_encoded_bodies_are_decoded(tmp_path: Path, body: bytes, headers: list[tuple[str, str]]) -> None:
    b = WarcBuilder()
    b.add_response("http://ex.com/enc", body, extra_headers=headers)
    b.add_response("http://ex.com/next", HTML)
    got = rows(b.write(tmp_path / "enc.warc.gz"))
    assert [r["dropped_by"] for r in got] == [None, None]
    assert got[0]["html"].startswith(HTML.decode()) and got[1]["html"] == HTML.decode()


def test_truncated_encoded_body_keeps_what_decoded(tmp_path: Path) -> None:
    # A capture cut short by the crawler (WARC-Truncated) holds a valid stream prefix: as with an
    # identity body cut short, the part that decodes is the page.
    text = b"<html><body>" + b"".join(b"<p>paragraph %d</p>" % i for i in range(3000)) + b"</body></html>"
    b = WarcBuilder()
    b.add_response(**encoded("http://ex.com/cut-gz", gzip.compress(text)[:2000], "gzip"))
    b.add_response(**encoded("http://ex.com/cut-br", brotli.compress(text)[:2000], "br"))
    got = rows(b.write(tmp_path / "cut-bodies.warc.gz"))
    assert [r["dropped_by"] for r in got] == [None, None]
    assert all(text.decode().startswith(r["html"]) and len(r["html"]) > 1000 for r in got)


def test_plain_html_under_a_stale_coding_label_is_read_as_stored(tmp_path: Path) -> None:
    b = WarcBuilder()
    b.add_response(**encoded("http://ex.com/stale", HTML, "gzip"))
    (page,) = rows(b.write(tmp_path / "stale.warc.gz"))
    assert page["dropped_by"] is None and page["html"] == HTML.decode()


@pytest.mark.parametrize("coding", ["gzip", "deflate", "br"])
def test_garbage_under_each_coding_is_undecodable(tmp_path: Path, coding: str) -> None:
    b = WarcBuilder()
    b.add_response(**encoded("http://ex.com/bad", b"\x00\x00\x00\x00" + GARBAGE, coding))
    b.add_response("http://ex.com/next", HTML)
    got = rows(b.write(tmp_path / "garbage.warc.gz"))
    assert [r["dropped_by"] for r in got] == ["read.undecodable_payload", None]
    assert got[0]["drop_detail"].startswith(f"Content-Encoding {coding}: ")


def test_unsupported_coding_is_still_a_content_encoding_verdict(tmp_path: Path) -> None:
    b = WarcBuilder()
    b.add_response(**encoded("http://ex.com/z", b"(\xb5/\xfd" + GARBAGE, "zstd"))
    b.add_response(**encoded("http://ex.com/gz-z", b"(\xb5/\xfd" + GARBAGE, "zstd, gzip"))
    b.add_response("http://ex.com/next", HTML)
    got = rows(b.write(tmp_path / "zstd.warc.gz"))
    assert [(r["dropped_by"], r["drop_detail"]) for r in got] == [
        ("read.content_encoding", "zstd"), ("read.content_encoding", "zstd, gzip"), (None, None)]


@pytest.mark.parametrize("coding", ["gzip", "br"])
def test_decompression_bomb_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, coding: str) -> None:
    monkeypatch.setattr(warc_http, "DECODED_MAX_BYTES", 5000)
    big = b"<html><body>" + b" " * 20000 + b"</body></html>"
    body = gzip.compress(big) if coding == "gzip" else brotli.compress(big)
    b = WarcBuilder()
    b.add_response(**encoded("http://ex.com/bomb", body, coding))
    b.add_response(**encoded("http://ex.com/small", gzip.compress(HTML) if coding == "gzip" else
                             brotli.compress(HTML), coding))
    got = rows(b.write(tmp_path / "bomb.warc.gz"))
    assert [r["dropped_by"] for r in got] == ["read.undecodable_payload", None]
    assert got[0]["drop_detail"] == f"Content-Encoding {coding}: decodes to more than 5000 bytes"


def test_status_that_is_not_a_status_costs_one_record(tmp_path: Path) -> None:
    # 99999999999 does not fit the int32 http_status column: as a row it would fail the whole batch.
    b = WarcBuilder()
    b.add_response("http://ex.com/a", HTML)
    b.add_response("http://ex.com/huge", HTML, status=99999999999)
    b.add_response("http://ex.com/short", HTML, status=20)
    b.add_response("http://ex.com/b", HTML)
    got = rows(b.write(tmp_path / "status.warc.gz"))
    assert [(r["dropped_by"], r["drop_detail"], r["http_status"]) for r in got] == [
        (None, None, 200),
        ("read.http_status", "unparseable status line", None),
        ("read.http_status", "unparseable status line", None),
        (None, None, 200),
    ]


def test_broken_http_header_block_costs_one_record(tmp_path: Path) -> None:
    b = WarcBuilder()
    b.add_response("http://ex.com/a", HTML)
    for block in [b"\x00\xff\xfe not a status line\r\nno colon here\r\n\r\n" + HTML, GARBAGE,
                  b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip"]:  # no blank line
        b.add_raw_response("http://ex.com/broken", block)
    b.add_response("http://ex.com/b", HTML)
    got = rows(b.write(tmp_path / "http.warc.gz"))
    assert len(got) == 5
    assert [r["dropped_by"] for r in got] == [None, "read.http_status", "read.http_status", None, None]
    assert got[3]["html"] == "" and got[4]["html"] == HTML.decode()  # headers without a body: an empty page


def test_unforeseen_error_in_one_record_is_a_bad_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = warc.decode_html

    def fragile(payload: bytes, content_type: str | None = None) -> object:
        if b"explode" in payload:
            raise RuntimeError("boom\nsecond line")
        return real(payload, content_type)

    monkeypatch.setattr(warc, "decode_html", fragile)
    b = WarcBuilder()
    b.add_response("http://ex.com/a", HTML)
    bad = b.add_response("http://ex.com/explode", b"<html><body>explode</body></html>")
    b.add_response("http://ex.com/b", HTML)
    got = rows(b.write(tmp_path / "bug.warc.gz"))
    assert [r["dropped_by"] for r in got] == [None, "read.bad_record", None]
    assert got[1]["drop_detail"] == "RuntimeError: boom second line"
    assert got[1]["source"] == f"bug.warc.gz@{bad}" and got[1]["url"] == "http://ex.com/explode"


def test_file_damage_still_ends_the_file(tmp_path: Path) -> None:
    # Cut inside an encoded record's block: the file's damage, not the record's coding.
    noise = "".join(random.Random(3).choices("abcdefghijklmnopqrstuvwxyz ", k=6000)).encode()
    b = WarcBuilder()
    b.add_response(**encoded("http://ex.com/br", brotli.compress(HTML), "br"))
    cut_at = b.add_response(**encoded("http://ex.com/gz", gzip.compress(b"<html>" + noise), "gzip"))
    end = len(b.data())
    b.add_response("http://ex.com/after", HTML)
    path = truncated(b.write(tmp_path / "whole.warc.gz"), tmp_path / "cut.warc.gz", (cut_at + end) // 2)
    got = rows(path)
    assert [r["dropped_by"] for r in got] == [None, "read.corrupt_input"]
    assert got[0]["html"] == HTML.decode()
    assert got[1]["source"] == f"cut.warc.gz@{cut_at}" and f"offset {cut_at}" in got[1]["drop_detail"]


def test_revisit_of_a_brotli_original_reads_the_decoded_original(tmp_path: Path) -> None:
    b = WarcBuilder()
    rid = "<urn:uuid:0f0e0d0c-0b0a-4909-8807-060504030201>"
    b.add_response(**encoded("http://ex.com/br", brotli.compress(HTML), "br"), rid=rid)
    b.add_revisit("http://ex.com/br", refers_to=rid)
    got = rows(b.write(tmp_path / "revisit.warc.gz"))
    assert [r["dropped_by"] for r in got] == [None, None]
    assert got[1]["html"] == HTML.decode()
