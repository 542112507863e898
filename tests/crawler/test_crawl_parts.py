"""Unit tests of the crawler's own parts: journal, WARC writer (rendered DOMs included), address classification,
Retry-After."""

from __future__ import annotations

import ipaddress
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest
from scrapy.http import HtmlResponse, Request

from crawler.frontier.journal import Journal
from crawler.net.address_guard import check_url, is_public
from crawler.net.politeness import retry_after_seconds
from crawler.warc.writer import WarcRotator, repair_open_files
from pipelines.readers import read_input


@pytest.mark.parametrize(("ip", "public"), [
    ("93.184.215.14", True), ("2606:4700::1111", True),
    ("127.0.0.1", False), ("10.1.2.3", False), ("172.16.0.1", False), ("192.168.1.1", False),
    ("169.254.169.254", False), ("224.0.0.1", False), ("0.0.0.0", False), ("::1", False), ("fe80::1", False),
    ("fc00::1", False), ("::ffff:127.0.0.1", False), ("100.64.0.1", False), ("240.0.0.1", False),
])
def test_address_classification(ip, public):
    assert is_public(ipaddress.ip_address(ip)) is public


@pytest.mark.parametrize(("url", "reason"), [
    ("http://example.com/a", None), ("https://example.com:8443/", None),
    ("ftp://example.com/", "unsupported_scheme"), ("file:///etc/passwd", "unsupported_scheme"),
    ("mailto:a@b.c", "unsupported_scheme"), ("http:///nohost", "malformed_url"),
    ("http://example.com:99999/", "malformed_url"), ("javascript:alert(1)", "unsupported_scheme"),
])
def test_url_checks(url, reason):
    assert check_url(url) == reason


def test_retry_after_forms():
    assert retry_after_seconds("120") == 120.0
    assert retry_after_seconds(b" 5 ") == 5.0
    later = datetime.now(UTC) + timedelta(seconds=30)
    assert 25 <= retry_after_seconds(format_datetime(later, usegmt=True)) <= 31
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # in the past: now
    assert retry_after_seconds("soon") is None and retry_after_seconds(None) is None


def test_journal_replay_and_torn_line(tmp_path):
    j = Journal(tmp_path / "j.jsonl")
    assert j.queue("http://h/a", 0, 0, None) and j.queue("http://h/b", 1, -5, "http://h/a")
    assert not j.queue("http://h/a", 0, 0, None)
    j.queue("http://h/c", 1, 0, "http://h/a")
    j.finish("http://h/a", "page")
    j.close()
    with (tmp_path / "j.jsonl").open("a") as fh:
        fh.write('{"e":"f","u":"http://h/b","o":"pa')  # killed mid-write
    again = Journal(tmp_path / "j.jsonl")
    again.load()
    assert [p.url for p in again.pending()] == ["http://h/b", "http://h/c"]
    assert again.pending()[0].priority == -5 and again.pending()[0].referrer == "http://h/a"
    assert again.pages == 1 and again.page_hosts == {"h"}
    # the resumed session's first event must not be glued to the torn line (issue 15: lost on the next resume)
    again.open()
    again.finish("http://h/b", "page")
    again.close()
    third = Journal(tmp_path / "j.jsonl")
    third.load()
    assert [p.url for p in third.pending()] == ["http://h/c"]
    assert third.pages == 2


def fake_page(url: str, body: bytes) -> tuple[Request, HtmlResponse]:
    request = Request(url, headers={"User-Agent": "winnowbot/0.1"})
    response = HtmlResponse(url, status=200, body=body, request=request,
                            headers={"Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip"})
    return request, response


def fields(training: bool) -> dict:
    return {"winnow-training-allowed": training, "winnow-images-allowed": training,
            "winnow-signal": ["meta:robots=noai"] if not training else [], "winnow-depth": 1}


def test_warc_round_trip_rotation_and_verdicts(tmp_path):
    rotator = WarcRotator(tmp_path, max_bytes=2500)
    for i in range(6):
        request, response = fake_page(f"http://h.test/{i}.html", f"<html><body><p>page {i}</p></body></html>".encode()
                                      + b" " * 1000)
        rotator.write_page(request, response, fields(training=i % 2 == 0))
    rotator.close()
    files = sorted(tmp_path.glob("*.warc.gz"))
    assert len(files) >= 2 and not list(tmp_path.glob("*.open*"))
    rows = [r for f in files for t in read_input(str(f)) for r in t.to_pylist()]
    assert len(rows) == 6 and all(r["dropped_by"] is None for r in rows)
    by_url = {r["url"]: r for r in rows}
    assert by_url["http://h.test/0.html"]["training_allowed"] is True
    assert by_url["http://h.test/1.html"]["training_allowed"] is False
    assert by_url["http://h.test/1.html"]["policy_signals"] == ["meta:robots=noai"]
    assert by_url["http://h.test/1.html"]["images_allowed"] is False


def test_repair_cuts_to_last_complete_page(tmp_path):
    rotator = WarcRotator(tmp_path)
    for i in range(3):
        rotator.write_page(*fake_page(f"http://h.test/{i}", b"<html><body>x</body></html>"), fields(True))
    open_file = next(tmp_path.glob("*.open"))
    good = open_file.stat().st_size
    with open_file.open("ab") as fh:
        fh.write(b"\x1f\x8b\x08\x00garbage of a half-written page")  # killed mid-write
    rotator._fh = None  # simulate the kill: nothing is closed or renamed
    repaired = repair_open_files(tmp_path)
    assert len(repaired) == 1 and repaired[0].stat().st_size == good
    rows = [r for t in read_input(str(repaired[0])) for r in t.to_pylist()]
    assert [r["dropped_by"] for r in rows] == [None, None, None]
    assert not list(tmp_path.glob("*.open*"))


def test_stored_headers_match_stored_body(tmp_path):
    from warcio.archiveiterator import ArchiveIterator

    rotator = WarcRotator(tmp_path)
    rotator.write_page(*fake_page("http://h.test/", b"<html>decoded</html>"), fields(True))
    rotator.close()
    with next(tmp_path.glob("*.warc.gz")).open("rb") as fh:
        for record in ArchiveIterator(fh):
            if record.rec_type == "response":
                assert record.http_headers.get_header("Content-Encoding") is None
                assert record.http_headers.get_header("X-Winnow-Original-Content-Encoding") == "gzip"
                assert record.content_stream().read() == b"<html>decoded</html>"
            if record.rec_type == "request":
                assert record.http_headers.get_header("Host") == "h.test"


def test_rendered_dom_is_archived_as_a_conversion_record_and_read_back(tmp_path):
    from warcio.archiveiterator import ArchiveIterator

    from crawler.warc.writer import RenderedDom

    rotator = WarcRotator(tmp_path)
    raw = b'<html><body><div id="root"></div><script src="/app.js"></script></body></html>'
    dom = '<html><body><div id="root"><p>Rendered text, caf\u00e9.</p></div></body></html>'
    plain_fields = {**fields(True), "winnow-rendered": False}
    rendered_fields = {**fields(True), "winnow-rendered": True, "winnow-render-reason": "spa_root",
                       "winnow-render-settled": True}
    rotator.write_page(*fake_page("http://h.test/app", raw), rendered_fields,
                       rendered=RenderedDom(html=dom, reason="spa_root", settled=True))
    rotator.write_page(*fake_page("http://h.test/plain", b"<html><body>plain</body></html>"), plain_fields)
    rotator.write_page(*fake_page("http://h.test/cut", raw), rendered_fields,
                       rendered=RenderedDom(html=dom, reason="host", settled=False, truncated=True))
    rotator.close()
    path = next(tmp_path.glob("*.warc.gz"))
    with path.open("rb") as fh:
        records = [(r.rec_type, r.rec_headers.get_header("WARC-Target-URI"), r.rec_headers)
                   for r in ArchiveIterator(fh)]
    assert [t for t, uri, _ in records if uri == "http://h.test/app"] == ["request", "response", "conversion",
                                                                          "metadata"]
    response_id = next(h.get_header("WARC-Record-ID") for t, u, h in records if t == "response" and u.endswith("app"))
    conversion = next(h for t, u, h in records if t == "conversion" and u.endswith("app"))
    assert conversion.get_header("WARC-Refers-To") == response_id
    assert conversion.get_header("WARC-Winnow-Rendered") == "yes"
    assert conversion.get_header("WARC-Winnow-Render-Reason") == "spa_root"
    assert conversion.get_header("WARC-Winnow-Render-Settled") == "yes"
    assert conversion.get_header("Content-Type") == "text/html; charset=utf-8"
    assert conversion.get_header("WARC-Truncated") is None
    cut = next(h for t, u, h in records if t == "conversion" and u.endswith("cut"))
    assert cut.get_header("WARC-Truncated") == "length" and cut.get_header("WARC-Winnow-Render-Settled") == "no"

    rows = {r["url"]: r for t in read_input(str(path)) for r in t.to_pylist()}
    assert len(rows) == 3  # the conversion record adds no row of its own
    app = rows["http://h.test/app"]
    assert app["rendered"] is True and app["html"] == dom and app["charset"] == "utf-8"
    assert app["source"] == f"{path.name}@{records_offset(path, 'http://h.test/app')}"  # the response's offset
    assert rows["http://h.test/plain"]["rendered"] is False and "plain" in rows["http://h.test/plain"]["html"]


def records_offset(path, url):
    from warcio.archiveiterator import ArchiveIterator

    with path.open("rb") as fh:
        it = ArchiveIterator(fh)
        for record in it:
            if record.rec_type == "response" and record.rec_headers.get_header("WARC-Target-URI") == url:
                return it.get_record_offset()
    raise AssertionError(url)


def test_foreign_or_mismatched_conversions_are_ignored(tmp_path):
    import io

    from warcio.warcwriter import WARCWriter

    path = tmp_path / "foreign.warc.gz"
    with path.open("wb") as fh:
        writer = WARCWriter(fh, gzip=True, warc_version="1.1")
        _, response = fake_page("http://h.test/a", b"<html><body>raw page</body></html>")
        from crawler.warc.writer import response_headers

        resp = writer.create_warc_record("http://h.test/a", "response", payload=io.BytesIO(response.body),
                                         length=len(response.body), http_headers=response_headers(response))
        writer.write_record(resp)
        rid = resp.rec_headers.get_header("WARC-Record-ID")
        for headers in ({"WARC-Refers-To": rid},  # another tool's conversion: meaning unknown
                        {"WARC-Refers-To": "<urn:uuid:other>", "WARC-Winnow-Rendered": "yes"}):
            body = b"<html><body>not the page</body></html>"
            writer.write_record(writer.create_warc_record("http://h.test/a", "conversion", payload=io.BytesIO(body),
                                                          length=len(body), warc_content_type="text/html",
                                                          warc_headers_dict=headers))
    (row,) = [r for t in read_input(str(path)) for r in t.to_pylist()]
    assert "raw page" in row["html"] and row["rendered"] is None


def test_extension_check_agrees_with_scrapys() -> None:
    from scrapy.utils.url import url_has_any_extension

    from crawler.settings import WINNOW_DENY_EXTENSIONS
    from crawler.spider import has_extension

    single = frozenset("." + e for e in WINNOW_DENY_EXTENSIONS)
    urls = ["https://a.example/data.CSV", "https://a.example/nb/demo.ipynb?raw=1", "https://a.example/x.tar.gz",
            "https://a.example/docs/", "https://a.example/v1.2/guide", "https://a.example/page.html",
            "https://a.example/file.pdf#p2", "https://a.example/report", "https://a.example/.json",
            "https://a.example/a.b/c", "https://a.example/img.JPEG"]
    for url in urls:
        assert has_extension(url, single) == url_has_any_extension(url, single), url
    assert has_extension("https://a.example/x.tar.gz", frozenset({".zip"}), (".tar.gz",))
    assert not has_extension("https://a.example/x.gz", frozenset({".zip"}), (".tar.gz",))


def test_each_warc_record_is_its_own_gzip_member_and_offsets_point_at_responses(tmp_path):
    import zlib

    from warcio.archiveiterator import ArchiveIterator

    rotator = WarcRotator(tmp_path)
    offsets = []
    for i in range(3):
        request, response = fake_page(f"http://h.test/{i}.html", f"<p>page {i}</p>".encode() * 200)
        offsets.append(rotator.write_page(request, response, fields(training=True))[1])
    rotator.close()
    (path,) = tmp_path.glob("*.warc.gz")
    data = path.read_bytes()
    members, rest = 0, data
    while rest:  # Annex D: one member per record, so a reader can seek to any record's offset
        decompressor = zlib.decompressobj(zlib.MAX_WBITS + 16)
        decompressor.decompress(rest)
        assert decompressor.eof
        rest, members = decompressor.unused_data, members + 1
    with path.open("rb") as fh:
        records = [(r.rec_type, r.rec_headers.get_header("WARC-Target-URI")) for r in ArchiveIterator(fh)]
    assert members == len(records) == 1 + 3 * 3  # warcinfo, then request, response, metadata per page
    for i, offset in enumerate(offsets):
        with path.open("rb") as fh:
            fh.seek(offset)
            record = next(iter(ArchiveIterator(fh)))
        assert (record.rec_type, record.rec_headers.get_header("WARC-Target-URI")) == ("response", f"http://h.test/{i}.html")
