"""Tests for pipelines.readers: input expansion, WARC and document reading, charset resolution."""

from __future__ import annotations

import bz2
import gzip
import json
import random
import string
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipelines.readers import expand_inputs, input_kind, read_input, stable_id
from pipelines.readers.charset import codec_for, decode_html
from pipelines.readers.warc import looks_like_html
from pipelines.records import DOCUMENT_SCHEMA, PAGE_SCHEMA
from tests.conftest import needs_shared
from tests.warc_factory import WarcBuilder, flipped, payload_digest, truncated

WARC_DATA = Path(__file__).resolve().parents[2] / "../shared/data/warc"
IANA = WARC_DATA / "iana.warc.gz"
WHIRLWIND = WARC_DATA / "whirlwind.warc.gz"

HTML = b"<!doctype html><html><head><title>T</title></head><body><p>Hello page</p></body></html>"


def rows(path: Path, batch_rows: int = 256) -> list[dict]:
    out: list[dict] = []
    for table in read_input(str(path), batch_rows=batch_rows):
        out += table.to_pylist()
    return out


def live(rows_: list[dict]) -> list[dict]:
    return [r for r in rows_ if r["dropped_by"] is None]


def reasons(rows_: list[dict]) -> Counter:
    return Counter(r["dropped_by"] for r in rows_ if r["dropped_by"])


# -- input_kind / expand_inputs -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "kind"),
    [("a.warc", "page"), ("a.warc.gz", "page"), ("A.WARC.GZ", "page"), ("a.jsonl", "document"),
     ("a.jsonl.gz", "document"), ("a.jsonl.zst", "document"), ("a.jsonl.bz2", "document"),
     ("a.ndjson", "document"), ("a.parquet", "document")],
)
def test_input_kind(name: str, kind: str) -> None:
    assert input_kind(f"/x/{name}") == kind


@pytest.mark.parametrize("name", ["a.txt", "a.json", "a.arc.gz", "a.warc.wet.gz.bak", "a.gz"])
def test_input_kind_rejects_other_files(name: str) -> None:
    with pytest.raises(ValueError, match=name.replace(".", r"\.")):
        input_kind(f"/x/{name}")


def test_expand_inputs_files_folders_globs(tmp_path: Path) -> None:
    (tmp_path / "crawl" / "sub").mkdir(parents=True)
    (tmp_path / "crawl" / ".tmp").mkdir()
    for name in ["crawl/b.warc.gz", "crawl/sub/a.warc", "crawl/sub/c.jsonl.zst", "crawl/log.txt",
                 "crawl/.partial.warc.gz", "crawl/.tmp/d.warc", "docs.parquet", "more.jsonl"]:
        (tmp_path / name).touch()
    got = expand_inputs([str(tmp_path / "crawl"), str(tmp_path / "*.parquet"), str(tmp_path / "more.jsonl"),
                         str(tmp_path / "crawl/b.warc.gz")])
    expected = ["crawl/b.warc.gz", "crawl/sub/a.warc", "crawl/sub/c.jsonl.zst", "docs.parquet", "more.jsonl"]
    assert got == sorted(str(tmp_path / n) for n in expected)
    assert all(Path(p).is_absolute() for p in got)


def test_expand_inputs_relative_paths_become_absolute(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "x.warc").touch()
    monkeypatch.chdir(tmp_path)
    assert expand_inputs(["x.warc"]) == [str(tmp_path / "x.warc")]


def test_expand_inputs_errors(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"nope\.warc"):
        expand_inputs([str(tmp_path / "nope.warc")])
    with pytest.raises(FileNotFoundError, match=r"\*\.warc"):
        expand_inputs([str(tmp_path / "*.warc")])
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="empty"):
        expand_inputs([str(tmp_path / "empty")])
    (tmp_path / "notes.txt").touch()
    with pytest.raises(ValueError, match=r"notes\.txt"):
        expand_inputs([str(tmp_path / "notes.txt")])


def test_read_input_rejects_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        next(read_input(str(tmp_path / "missing.warc.gz")))
    (tmp_path / "x.txt").touch()
    with pytest.raises(ValueError):
        next(read_input(str(tmp_path / "x.txt")))
    with pytest.raises(ValueError, match="batch_rows"):
        next(read_input(str(tmp_path / "x.txt"), batch_rows=0))


# -- WARC: records to rows ----------------------------------------------------------------------
def test_html_response_becomes_page(tmp_path: Path) -> None:
    b = WarcBuilder()
    b.add_warcinfo()
    b.add_request("http://ex.com/a")
    offset = b.add_response("http://ex.com/a", HTML, rid="<urn:uuid:page-1>", date="2024-05-01T12:30:45Z")
    path = b.write(tmp_path / "one.warc.gz")

    tables = list(read_input(str(path)))
    assert len(tables) == 1
    assert tables[0].schema.equals(PAGE_SCHEMA, check_metadata=True)
    (page,) = tables[0].to_pylist()
    assert page == {
        "id": stable_id("<urn:uuid:page-1>"),
        "url": "http://ex.com/a",
        "source": f"one.warc.gz@{offset}",
        "fetched_at": datetime(2024, 5, 1, 12, 30, 45, tzinfo=UTC),
        "training_allowed": None,
        "policy_signals": [],
        "html": HTML.decode(),
        "http_status": 200,
        "content_type": "text/html",
        "charset": "utf-8",
        "images_allowed": None,
        "rendered": None,
        "dropped_by": None,
        "drop_detail": None,
    }
    assert len(page["id"]) == 24


def test_skipped_responses_become_tombstones_and_other_records_no_rows(tmp_path: Path) -> None:
    b = WarcBuilder()
    b.add_warcinfo()
    b.add_request("http://ex.com/")
    b.add_response("http://ex.com/logo.png", b"\x89PNG\r\n\x1a\n....", content_type="image/png")
    b.add_redirect("http://ex.com/old", "http://ex.com/new", status=301)
    b.add_response("http://ex.com/gone", HTML, status=404)
    b.add_response("http://ex.com/err", HTML, status=500)
    b.add_response("http://ex.com/x", HTML, content_type="application/xhtml+xml")
    b.add_metadata("http://ex.com/x", {"winnow-policy": "allow"})
    b.add_resource("http://ex.com/dom", HTML)
    got = rows(b.write(tmp_path / "mixed.warc.gz"))

    assert [(r["url"], r["dropped_by"], r["drop_detail"]) for r in got] == [
        ("http://ex.com/logo.png", "read.non_html", "image/png"),
        ("http://ex.com/old", "read.redirect", "301 -> http://ex.com/new"),
        ("http://ex.com/gone", "read.http_status", "404"),
        ("http://ex.com/err", "read.http_status", "500"),
        ("http://ex.com/x", None, None),
    ]
    tomb = got[0]
    assert tomb["html"] is None and tomb["http_status"] == 200 and tomb["content_type"] == "image/png"


def test_missing_content_type_is_sniffed(tmp_path: Path) -> None:
    b = WarcBuilder()
    b.add_response("http://ex.com/html", b"\n  <HTML><body>sniffed</body></HTML>", content_type=None)
    b.add_response("http://ex.com/bin", b"GIF89a\x00\x00", content_type=None)
    b.add_response("http://ex.com/octet", HTML, content_type="application/octet-stream")
    got = rows(b.write(tmp_path / "sniff.warc.gz"))
    assert [(r["url"], r["dropped_by"]) for r in got] == [
        ("http://ex.com/html", None),
        ("http://ex.com/bin", "read.non_html"),
        ("http://ex.com/octet", "read.non_html"),  # a supplied type is trusted (WHATWG: no sniffing)
    ]


@pytest.mark.parametrize(
    ("head", "expected"),
    [(b"<!DOCTYPE html>", True), (b"\xef\xbb\xbf <html>", True), (b"<p>hi", True), (b"<pre>", False),
     (b"<!-- c -->", True), (b"<body>", True), (b"<bodyx>", False), (b"%PDF-1.4", False), (b"", False)],
)
def test_looks_like_html(head: bytes, expected: bool) -> None:
    assert looks_like_html(head) is expected


def test_uncompressed_warc_and_batches(tmp_path: Path) -> None:
    b = WarcBuilder(gzip=False)
    offsets = [b.add_response(f"http://ex.com/{i}", HTML) for i in range(5)]
    got = list(read_input(str(b.write(tmp_path / "plain.warc")), batch_rows=2))
    assert [t.num_rows for t in got] == [2, 2, 1]
    assert all(t.schema.equals(PAGE_SCHEMA, check_metadata=True) for t in got)
    sources = [r["source"] for t in got for r in t.to_pylist()]
    assert sources == [f"plain.warc@{o}" for o in offsets]


def test_a_batch_of_large_pages_closes_at_its_characters(tmp_path: Path, monkeypatch) -> None:
    """Pages of 250 KB each: a batch holds what fits in BATCH_CHARS, not 256 of them; small documents fill rows."""
    from pipelines import readers

    b = WarcBuilder()
    page = ("<html><body>" + "<p>" + "word " * 50_000 + "</p></body></html>").encode()
    for i in range(7):
        b.add_response(f"http://ex.com/{i}", page)
    monkeypatch.setattr(readers, "BATCH_CHARS", 3 * len(page) - 10)
    got = list(read_input(str(b.write(tmp_path / "big.warc.gz"))))
    assert [t.num_rows for t in got] == [3, 3, 1]
    docs = tmp_path / "d.jsonl"
    docs.write_text("".join(json.dumps({"text": f"short document {i}"}) + "\n" for i in range(10)))
    assert [t.num_rows for t in read_input(str(docs), batch_rows=4)] == [4, 4, 2]


def test_ids_are_stable_and_unique(tmp_path: Path) -> None:
    b = WarcBuilder()
    for i in range(3):
        b.add_response(f"http://ex.com/{i}", HTML)
    path = b.write(tmp_path / "ids.warc.gz")
    first, second = [r["id"] for r in rows(path)], [r["id"] for r in rows(path)]
    assert first == second and len(set(first)) == 3


# -- WARC: revisits -----------------------------------------------------------------------------
def revisit_archive(tmp_path: Path, **revisit: object) -> tuple[list[dict], int]:
    b = WarcBuilder()
    b.add_response("http://ex.com/a", HTML, rid="<urn:uuid:orig>", date="2024-05-01T12:00:00Z")
    b.add_response("http://ex.com/other", b"<html><body>other</body></html>")
    offset = b.add_revisit("http://ex.com/a", rid="<urn:uuid:rev>", date="2024-06-01T00:00:00Z", **revisit)
    return rows(b.write(tmp_path / "rev.warc.gz")), offset


@pytest.mark.parametrize(
    "how",
    [
        {"refers_to": "<urn:uuid:orig>"},
        {"refers_to_uri": "http://ex.com/a", "refers_to_date": "2024-05-01T12:00:00Z"},
        {"refers_to_uri": "http://ex.com/a", "refers_to_date": "2024-05-01T12:00:00.000Z", "status": None},
        {"refers_to": "<urn:uuid:orig>", "status": 304, "content_type": None},
    ],
    ids=["refers-to", "uri+date", "uri+date-no-http-headers", "not-modified"],
)
def test_revisit_resolved_in_same_file(tmp_path: Path, how: dict) -> None:
    got, offset = revisit_archive(tmp_path, **how)
    revisit = got[-1]
    assert revisit["dropped_by"] is None
    assert revisit["html"] == HTML.decode()
    assert revisit["id"] == stable_id("<urn:uuid:rev>") != got[0]["id"]
    assert revisit["source"] == f"rev.warc.gz@{offset}"
    assert revisit["fetched_at"] == datetime(2024, 6, 1, tzinfo=UTC)
    assert revisit["http_status"] == 200 and revisit["content_type"] == "text/html"


def test_revisit_resolved_by_payload_digest(tmp_path: Path) -> None:
    b = WarcBuilder()
    b.add_response("http://ex.com/a", HTML)
    path = b.write(tmp_path / "d.warc.gz")
    digest = payload_digest(path, 0)
    b.add_revisit("http://ex.com/a?utm=1", digest=digest)
    got = rows(b.write(path))
    assert got[1]["dropped_by"] is None and got[1]["html"] == HTML.decode()
    assert got[1]["url"] == "http://ex.com/a?utm=1"


def test_revisit_unresolved(tmp_path: Path) -> None:
    got, _ = revisit_archive(tmp_path, refers_to="<urn:uuid:elsewhere>",
                             refers_to_uri="http://ex.com/a", refers_to_date="2023-01-01T00:00:00Z")
    assert got[-1]["dropped_by"] == "read.revisit_unresolved"
    assert "urn:uuid:elsewhere" in got[-1]["drop_detail"]
    assert got[-1]["html"] is None


def test_revisit_of_later_response_is_unresolved(tmp_path: Path) -> None:
    b = WarcBuilder()
    b.add_revisit("http://ex.com/a", refers_to="<urn:uuid:later>")
    b.add_response("http://ex.com/a", HTML, rid="<urn:uuid:later>")
    got = rows(b.write(tmp_path / "later.warc.gz"))
    assert [r["dropped_by"] for r in got] == ["read.revisit_unresolved", None]


def test_revisit_own_headers_decide_type_and_status(tmp_path: Path) -> None:
    got, _ = revisit_archive(tmp_path, refers_to="<urn:uuid:orig>", content_type="text/css")
    assert got[-1]["dropped_by"] == "read.non_html"
    got, _ = revisit_archive(tmp_path, refers_to="<urn:uuid:orig>", status=404)
    assert got[-1]["dropped_by"] == "read.http_status"


# -- WARC: charsets end to end ------------------------------------------------------------------
def test_page_charset_from_header_meta_and_detection(tmp_path: Path) -> None:
    french = "<html><body><p>Café “déjà vu” – naïve</p></body></html>"
    japanese = "<html><head><meta charset='Shift_JIS'></head><body>" + "日本語のページです。" * 5
    japanese += "</body></html>"
    b = WarcBuilder()
    b.add_response("http://ex.com/fr", french.encode("cp1252"),
                   content_type="text/html; charset=windows-1252")
    b.add_response("http://ex.com/ja", japanese.encode("shift_jis"), content_type="text/html")
    b.add_response("http://ex.com/lie", "<p>Grüße aus Köln</p>".encode(),
                   content_type="text/html; charset=iso-8859-1")
    got = rows(b.write(tmp_path / "cs.warc.gz"))
    assert [(r["html"], r["charset"]) for r in got] == [
        (french, "cp1252"), (japanese, "cp932"), ("<p>Grüße aus Köln</p>", "utf-8")
    ]


# -- WARC: damage -------------------------------------------------------------------------------
def three_pages(tmp_path: Path, gzip_: bool = True) -> tuple[Path, list[int]]:
    b = WarcBuilder(gzip=gzip_)
    # Poorly compressible bodies, so that the middle of a gzip member lies inside the record block.
    noise = ["".join(random.Random(i).choices(string.ascii_letters, k=4000)) for i in range(3)]
    bodies = [f"<html><body>{text}</body></html>" for text in noise]
    offsets = [b.add_response(f"http://ex.com/{i}", body.encode()) for i, body in enumerate(bodies)]
    return b.write(tmp_path / ("three.warc.gz" if gzip_ else "three.warc")), offsets


def assert_damaged_at(got: list[dict], good: int, offset: int) -> None:
    assert [r["dropped_by"] for r in got] == [None] * good + ["read.corrupt_input"]
    last = got[-1]
    assert last["source"].endswith(f"@{offset}") and f"offset {offset}" in last["drop_detail"]
    assert last["html"] is None and last["id"]


@pytest.mark.parametrize("gzip_", [True, False], ids=["gz", "plain"])
@pytest.mark.parametrize("where", ["block", "headers"])
def test_truncated_in_the_middle_of_a_record(tmp_path: Path, gzip_: bool, where: str) -> None:
    path, offsets = three_pages(tmp_path, gzip_)
    at = (offsets[1] + offsets[2]) // 2 if where == "block" else offsets[1] + 30
    got = rows(truncated(path, tmp_path / path.name.replace("three", "cut"), at))
    assert_damaged_at(got, 1, offsets[1])
    if where == "block":
        assert "short of its Content-Length" in got[-1]["drop_detail"]


def test_flipped_bytes_in_a_gzip_member(tmp_path: Path) -> None:
    path, offsets = three_pages(tmp_path)
    bad = flipped(path, tmp_path / "flip.warc.gz", (offsets[1] + offsets[2]) // 2, count=64)
    assert_damaged_at(rows(bad), 1, offsets[1])


def test_wrong_content_length_in_plain_warc(tmp_path: Path) -> None:
    path, offsets = three_pages(tmp_path, gzip_=False)
    data = bytearray(path.read_bytes())
    # Shrink the second record's Content-Length by 10: its block then ends before the CRLF CRLF.
    header_end = data.index(b"\r\n\r\n", offsets[1])
    at = data.rindex(b"Content-Length: ", offsets[1], header_end) + len(b"Content-Length: ")
    end = data.index(b"\r\n", at)
    data[at:end] = str(int(data[at:end]) - 10).encode()
    (tmp_path / "len.warc").write_bytes(bytes(data))
    assert_damaged_at(rows(tmp_path / "len.warc"), 1, offsets[1])


@pytest.mark.parametrize("content", [b"", b"this is not a WARC file at all\n" * 20,
                                     b"\x1f\x8b\x08\x00garbage"], ids=["empty", "text", "bad-gzip"])
def test_not_a_warc(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.warc.gz"
    path.write_bytes(content)
    got = rows(path)
    assert_damaged_at(got, 0, 0)


def test_whole_file_gzip_is_reported(tmp_path: Path) -> None:
    b = WarcBuilder(gzip=False)
    for i in range(3):
        b.add_response(f"http://ex.com/{i}", HTML)
    path = tmp_path / "single-member.warc.gz"
    path.write_bytes(gzip.compress(b.data()))
    got = rows(path)
    assert got[0]["dropped_by"] is None
    assert got[-1]["dropped_by"] == "read.corrupt_input" and "gzip" in got[-1]["drop_detail"]
    assert got[-1]["source"] == "single-member.warc.gz@0"  # the member that holds several records


# -- WARC: real archives ------------------------------------------------------------------------
@needs_shared("warc", "iana.warc.gz")
def test_iana_archive() -> None:
    got = rows(IANA)
    # 48 responses (16 HTML 200, 4 HTML 302, 28 other types) + 123 revisits (all of non-HTML
    # resources, so their own headers rule them out); 171 requests and the warcinfo make no row.
    assert len(got) == 48 + 123
    assert reasons(got) == {"read.non_html": 28 + 123, "read.redirect": 4}
    pages = live(got)
    assert len(pages) == 16
    assert len({p["id"] for p in pages}) == 16
    assert pages[0]["url"] == "http://www.iana.org/" and pages[0]["source"] == "iana.warc.gz@334"
    assert pages[0]["fetched_at"] == datetime(2014, 1, 26, 20, 6, 24, tzinfo=UTC)
    assert all(p["charset"] == "utf-8" for p in pages)
    assert all(p["html"].lstrip().lower().startswith("<!doctype html") for p in pages)


@needs_shared("warc", "iana.warc.gz")
def test_iana_archive_truncated(tmp_path: Path) -> None:
    cut = truncated(IANA, tmp_path / "iana.warc.gz", IANA.stat().st_size // 2)
    got = rows(cut)
    assert 0 < len(got) < 171
    assert reasons(got)["read.corrupt_input"] == 1 and got[-1]["dropped_by"] == "read.corrupt_input"


@needs_shared("warc", "whirlwind.warc.gz")
def test_whirlwind_common_crawl_archive() -> None:
    (page,) = rows(WHIRLWIND)
    assert page["dropped_by"] is None
    assert page["url"] == "https://an.wikipedia.org/wiki/Escopete"
    assert page["source"] == "whirlwind.warc.gz@1023"
    assert page["charset"] == "utf-8" and "Escopete" in page["html"]


# -- charset ------------------------------------------------------------------------------------
CP1252_TEXT = "<p>“Smart” quotes – café</p>"
JAPANESE = "<p>" + "これは日本語のテキストです。文字コードの判定を試します。" * 4 + "</p>"
HTTP_EQUIV = '<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">'


@pytest.mark.parametrize(
    ("body", "content_type", "text", "charset", "source"),
    [
        (CP1252_TEXT.encode("cp1252"), "text/html; charset=windows-1252", CP1252_TEXT, "cp1252", "header"),
        # Browsers decode ISO-8859-1 as windows-1252: 0x93/0x94 are curly quotes, not C1 controls.
        (CP1252_TEXT.encode("cp1252"), "text/html; charset=ISO-8859-1", CP1252_TEXT, "cp1252", "header"),
        ("<p>Ça va</p>".encode("latin-1"), 'text/html; charset="iso-8859-1"', "<p>Ça va</p>", "cp1252",
         "header"),
        (JAPANESE.encode("shift_jis"), "text/html; charset=shift_jis", JAPANESE, "cp932", "header"),
        # Lying header: says UTF-8, bytes are windows-1252 and a <meta> tells the truth.
        (b'<meta charset="windows-1252">' + CP1252_TEXT.encode("cp1252"), "text/html; charset=utf-8",
         '<meta charset="windows-1252">' + CP1252_TEXT, "cp1252", "meta"),
        # Lying header: says ISO-8859-1 (a common server default), bytes are UTF-8.
        (CP1252_TEXT.encode(), "text/html; charset=iso-8859-1", CP1252_TEXT, "utf-8", "utf8"),
        # Lying header and no meta: detection.
        (JAPANESE.encode("shift_jis"), "text/html; charset=utf-8", JAPANESE, "cp932", "detected"),
        # Bogus labels fall through to the next source.
        (HTTP_EQUIV.encode() + CP1252_TEXT.encode("cp1252"), "text/html; charset=x-no-such-thing",
         HTTP_EQUIV + CP1252_TEXT, "cp1252", "meta"),
        (b"<p>plain</p>", "text/html; charset=base64", "<p>plain</p>", "utf-8", "utf8"),
        # A BOM beats the header.
        (b"\xef\xbb\xbf<p>caf\xc3\xa9</p>", "text/html; charset=iso-8859-1", "<p>café</p>", "utf-8", "bom"),
        (b"\xff\xfe" + "<p>hé</p>".encode("utf-16-le"), None, "<p>hé</p>", "utf-16-le", "bom"),
        # A <meta> claiming UTF-16 is read as UTF-8 (it was legible as ASCII).
        (b'<meta charset="utf-16"><p>\xc3\xa9</p>', None, '<meta charset="utf-16"><p>é</p>', "utf-8", "meta"),
        (b"<p>ascii only</p>", None, "<p>ascii only</p>", "utf-8", "utf8"),
    ],
)
def test_decode_html(body: bytes, content_type: str | None, text: str, charset: str, source: str) -> None:
    assert decode_html(body, content_type) == (text, charset, source)


def test_decode_html_truncated_multibyte_character_keeps_declared_charset() -> None:
    body = "<p>日本語</p>日".encode()[:-1]
    decoded = decode_html(body, "text/html; charset=utf-8")
    assert decoded.source == "header" and decoded.text == "<p>日本語</p>\ufffd"


def test_decode_html_never_raises_on_garbage() -> None:
    decoded = decode_html(bytes(range(256)) * 4, "text/html; charset=utf-8")
    assert isinstance(decoded.text, str) and decoded.charset


# Undeclared pages, and pages labelled UTF-8 whose bytes are not: windows-1252 unless the bytes argue
# clearly for another code page (issue 14: charset-normalizer's first guess read these as cp1250/Big5).
@pytest.mark.parametrize("content_type", ["text/html; charset=utf-8", "text/html", None])
@pytest.mark.parametrize("text", ["crème brûlée", "São Paulo", "naïve café", "Ça va? Déjà vu!", "Señor Muñoz",
                                  "smörgåsbord", "Þórunn Guðmundsdóttir", "façade"])
def test_western_bytes_mislabelled_or_undeclared_are_windows_1252(text: str, content_type: str | None) -> None:
    html = f"<p>{text}</p>"
    assert decode_html(html.encode("cp1252"), content_type) == (html, "cp1252", "default")


def test_western_page_with_a_foreign_name_stays_windows_1252() -> None:
    html = ("<p>La crème brûlée de Müller à Genève, servie à São Paulo et à Malmö: «très bon» – 5 €.</p>"
            "<p>Þórunn a aimé ça, et Ñandú aussi.</p>")
    assert decode_html(html.encode("cp1252"), "text/html; charset=utf-8") == (html, "cp1252", "default")


CZECH = ("<p>Příliš žluťoučký kůň úpěl ďábelské ódy. Čeština má háčky a čárky; řeka Vltava teče Prahou.</p>"
         "<p>Dnešní počasí: větrno, občas déšť. Šťastnou cestu!</p>")
POLISH = ("<p>Zażółć gęślą jaźń. Łódź i Kraków to polskie miasta; źródło światła nad Wisłą.</p>"
          "<p>Pchnąć w tę łódź jeża lub ośm skrzyń fig.</p>")
RUSSIAN = ("<p>Съешь же ещё этих мягких французских булок, да выпей чаю. Москва - столица России.</p>"
           "<p>В чащах юга жил бы цитрус? Да, но фальшивый экземпляр!</p>")
LITHUANIAN = "<p>Įlinkdama fechtuotojo špaga sublykčiojusi pragręžė apvalų arbūzą. Vilnius yra sostinė.</p>"
TURKISH = "<p>Pijamalı hasta yağız şoföre çabucak güvendi. İstanbul ve Ankara büyük şehirlerdir.</p>"


@pytest.mark.parametrize("content_type", ["text/html", "text/html; charset=utf-8"])
@pytest.mark.parametrize(
    ("html", "encoding", "charset"),
    [
        (CZECH, "cp1250", "cp1250"),
        (CZECH, "iso8859-2", "iso8859-2"),
        (POLISH, "cp1250", "cp1250"),
        (POLISH, "iso8859-2", "iso8859-2"),
        (LITHUANIAN, "cp1257", "cp1257"),
        (TURKISH, "cp1254", "cp1254"),
        (RUSSIAN, "cp1251", "cp1251"),
        (RUSSIAN, "koi8-r", "koi8-r"),  # the detector's order is kept among non-Latin code pages
        (JAPANESE, "shift_jis", "cp932"),
    ],
    ids=["cs-cp1250", "cs-iso8859-2", "pl-cp1250", "pl-iso8859-2", "lt-cp1257", "tr-cp1254", "ru-cp1251",
         "ru-koi8-r", "ja-shift_jis"],
)
def test_undeclared_legacy_pages_of_other_languages(html: str, encoding: str, charset: str,
                                                    content_type: str) -> None:
    assert decode_html(html.encode(encoding), content_type) == (html, charset, "detected")


def test_undeclared_text_after_a_long_ascii_head() -> None:
    # The evidence is weighed on the text, which starts after 20 KB of script here.
    html = "<html><head><script>" + "var x = 1;\n" * 2000 + "</script></head><body>" + RUSSIAN + "</body></html>"
    assert decode_html(html.encode("cp1251"), None) == (html, "cp1251", "detected")


def test_utf8_page_with_a_stray_legacy_byte_stays_utf8() -> None:
    text = "<p>Nous avons mangé une crème brûlée à São Paulo, c’était “naïve” – été.</p>" * 3
    body = text.encode() + " 5 € ".encode("cp1252") + text.encode()
    decoded = decode_html(body, "text/html; charset=utf-8")
    assert decoded == (text + " 5 \ufffd " + text, "utf-8", "fallback")


def test_windows_1252_undefined_bytes_decode_as_browsers_do() -> None:
    # WHATWG maps the five bytes windows-1252 leaves undefined to the C1 controls of the same number.
    html = "<p>Déjà vu, l’été dernier à Genève; une crème brûlée.</p>"
    body = html.encode("cp1252") + b"\x81"
    assert decode_html(body, None) == (html + "\x81", "cp1252", "default")


@pytest.mark.parametrize(
    ("label", "codec"),
    [("UTF8", "utf-8"), ("latin1", "cp1252"), ("Windows-31J", "cp932"), ("gb2312", "gbk"), ("windows-874", "cp874"),
     ("bogus", None), ("rot13", None), ("base64", None), ("", None)],
)
def test_codec_for(label: str, codec: str | None) -> None:
    assert codec_for(label) == codec


# -- documents: JSONL ---------------------------------------------------------------------------
DOCS = [
    {"text": "first", "id": "d1", "url": "http://ex.com/1", "fetched_at": "2024-05-01T10:00:00Z"},
    {"text": "second", "fetched_at": "2024-05-01T12:00:00+02:00", "title": "Two"},
    {"text": "third", "id": 3, "fetched_at": "2024-05-01"},
]


def jsonl_bytes(items: list) -> bytes:
    return b"".join((i if isinstance(i, bytes) else json.dumps(i).encode()) + b"\n" for i in items)


def test_jsonl_documents(tmp_path: Path) -> None:
    path = tmp_path / "docs.jsonl"
    path.write_bytes(jsonl_bytes(DOCS[:1]) + b"\n" + jsonl_bytes(DOCS[1:]))  # a blank line 2
    (table,) = read_input(str(path))
    assert table.schema.equals(DOCUMENT_SCHEMA, check_metadata=True)
    got = table.to_pylist()
    assert [(r["id"], r["source"], r["text"], r["url"], r["title"]) for r in got] == [
        ("d1", "docs.jsonl@1", "first", "http://ex.com/1", None),
        (stable_id("docs.jsonl@3"), "docs.jsonl@3", "second", None, "Two"),
        ("3", "docs.jsonl@4", "third", None, None),
    ]
    assert [r["fetched_at"] for r in got] == [
        datetime(2024, 5, 1, 10, tzinfo=UTC),
        datetime(2024, 5, 1, 10, tzinfo=UTC),
        datetime(2024, 5, 1, tzinfo=UTC),
    ]
    assert all(r["dropped_by"] is None and r["policy_signals"] == [] for r in got)


def test_jsonl_bad_records_are_tombstones_and_reading_goes_on(tmp_path: Path) -> None:
    lines = [
        {"text": "ok"},
        b"{not json",
        b'["a", "list"]',
        {"id": "x"},
        {"text": 42},
        {"text": "t", "fetched_at": "last tuesday"},
        {"text": "t", "url": 7},
        b"\xff\xfe bad utf-8",
        {"text": "still read"},
    ]
    path = tmp_path / "bad.jsonl"
    path.write_bytes(jsonl_bytes(lines))
    got = rows(path)
    assert [r["dropped_by"] for r in got] == [None] + ["read.bad_record"] * 7 + [None]
    details = [r["drop_detail"] for r in got[1:8]]
    assert details[0].startswith("not JSON") and "list" in details[1] and "'text'" in details[2]
    assert "int" in details[3] and "fetched_at" in details[4] and "url" in details[5]
    assert [r["source"] for r in got] == [f"bad.jsonl@{n}" for n in range(1, 10)]
    assert len({r["id"] for r in got}) == 9


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".zst"])
def test_compressed_jsonl(tmp_path: Path, suffix: str) -> None:
    raw = jsonl_bytes(DOCS)
    path = tmp_path / f"docs.jsonl{suffix}"
    if suffix == ".gz":
        path.write_bytes(gzip.compress(raw))
    elif suffix == ".bz2":
        path.write_bytes(bz2.compress(raw))
    else:
        with pa.CompressedOutputStream(str(path), "zstd") as out:
            out.write(raw)
    assert [r["text"] for r in rows(path)] == ["first", "second", "third"]


def test_truncated_compressed_jsonl(tmp_path: Path) -> None:
    # Varied text so the gzip stream is long: half of it holds many complete lines.
    raw = jsonl_bytes([{"text": f"line {i} " + "".join(chr(97 + (i * j) % 26) for j in range(300))}
                       for i in range(3000)])
    path = tmp_path / "big.jsonl.gz"
    path.write_bytes(gzip.compress(raw)[: len(gzip.compress(raw)) // 2])
    got = rows(path, batch_rows=1000)
    assert got[-1]["dropped_by"] == "read.corrupt_input" and "line" in got[-1]["drop_detail"]
    good = got[:-1]
    assert len(good) > 100 and all(r["dropped_by"] is None for r in good[:-1])
    assert [r["source"] for r in good[:5]] == [f"big.jsonl.gz@{n}" for n in range(1, 6)]


def test_not_gzip_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "fake.jsonl.gz"
    path.write_bytes(jsonl_bytes(DOCS))
    (only,) = rows(path)
    assert only["dropped_by"] == "read.corrupt_input" and only["source"] == "fake.jsonl.gz@1"


# -- documents: Parquet -------------------------------------------------------------------------
def test_parquet_documents_in_batches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    n = 2500
    table = pa.table({
        "text": [f"doc {i}" for i in range(n)],
        "url": [f"http://ex.com/{i}" for i in range(n)],
        "fetched_at": pa.array([datetime(2024, 1, 1)] * n, pa.timestamp("ms")),
        "extra": list(range(n)),
    })
    path = tmp_path / "docs.parquet"
    pq.write_table(table, path, row_group_size=1000)

    def no_whole_file(*args: object, **kwargs: object) -> None:
        raise AssertionError("Parquet must be read in batches")

    monkeypatch.setattr(pq.ParquetFile, "read", no_whole_file)
    monkeypatch.setattr(pq, "read_table", no_whole_file)
    tables = list(read_input(str(path), batch_rows=1000))
    assert [t.num_rows for t in tables] == [1000, 1000, 500]
    got = [r for t in tables for r in t.to_pylist()]
    assert got[2499]["source"] == "docs.parquet@2499" and got[2499]["text"] == "doc 2499"
    assert got[0]["id"] == stable_id("docs.parquet@0")
    assert got[0]["fetched_at"] == datetime(2024, 1, 1, tzinfo=UTC)


def test_parquet_without_text_column(tmp_path: Path) -> None:
    path = tmp_path / "notext.parquet"
    pq.write_table(pa.table({"body": ["a", "b"]}), path)
    assert reasons(rows(path)) == {"read.bad_record": 2}


def test_parquet_null_text_is_bad_record(tmp_path: Path) -> None:
    path = tmp_path / "nulls.parquet"
    pq.write_table(pa.table({"text": ["a", None, "c"]}), path)
    assert [r["dropped_by"] for r in rows(path)] == [None, "read.bad_record", None]


def test_corrupt_parquet(tmp_path: Path) -> None:
    path = tmp_path / "docs.parquet"
    table = pa.table({"text": [f"document number {i} " * 20 for i in range(300)]})
    pq.write_table(table, path, row_group_size=100)
    chunk = pq.ParquetFile(path).metadata.row_group(1).column(0)
    bad = flipped(path, tmp_path / "flip.parquet", chunk.data_page_offset, 8)  # the page header
    got = rows(bad)
    assert [r["dropped_by"] for r in got] == [None] * 100 + ["read.corrupt_input"]
    assert got[-1]["source"] == "flip.parquet@100" and "row 100" in got[-1]["drop_detail"]

    cut = truncated(path, tmp_path / "cut.parquet", path.stat().st_size // 2)
    (only,) = rows(cut)
    assert only["dropped_by"] == "read.corrupt_input" and only["source"] == "cut.parquet@0"


@needs_shared("warc", "iana.warc.gz")
def test_iana_revisits_all_find_their_original() -> None:
    # Every iana revisit names its original by WARC-Refers-To-Target-URI + WARC-Refers-To-Date; they
    # are all of non-HTML resources, so none becomes a page, but the index must still find them.
    from warcio.archiveiterator import ArchiveIterator

    from pipelines.readers.warc import _Originals

    originals, found, revisits = _Originals(str(IANA)), 0, 0
    with IANA.open("rb") as fh:
        archive = ArchiveIterator(fh)
        for record in archive:
            if record.rec_type == "response":
                originals.add(record, archive.offset)
            elif record.rec_type == "revisit":
                revisits += 1
                found += originals.find(record) is not None
    assert (revisits, found) == (123, 123)
