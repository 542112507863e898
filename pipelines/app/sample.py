"""Build the bundled sample WARC: the demo site as if it had been crawled, for offline runs.

The README's first command runs the whole pipeline on this file, so a new user (and CI) sees
every stage work without a network, a crawler or a downloaded Common Crawl segment. The input is
the static site in ``crawler/demo_site/`` (the same files a crawler test serves on loopback),
captured as if fetched from ``http://demo.winnow.test/``:

- a ``warcinfo`` record first;
- ``robots.txt``, then ``/`` (the index page), then every file of the site in path order, each as
  a ``request`` record and its ``response`` (HTTP/1.1 200, Content-Type with charset for text,
  Content-Length, Date); ``404.html`` is not a page of its own but the body of the 404 below;
- ``/old-bread.html``: a 301 to the sourdough article;
- ``/no-such-page.html``: a 404 with an HTML body;
- a later re-fetch of one article recorded as a ``revisit`` (WARC 1.1 §6.7.2, profile
  identical-payload-digest) that points at the earlier response.

So the sample exercises what real crawls contain: non-HTML responses (a PNG, a text file,
robots.txt), redirects, errors, revisits, an exact duplicate (``/`` and ``/index.html``), a page
whose main text is a copy of another under different boilerplate, a windows-1252 page, and
pages in English, French, German, Spanish and Japanese.

The output is deterministic: fixed WARC-Dates (2026-11-01T00:00:00Z plus one second per fetch),
WARC-Record-IDs derived from URL and record index (uuid5), no file name or host name in the
records, and per-record gzip members whose header carries no time (zlib writes MTIME 0). Two
builds with the same zlib are byte-identical, so the file can be regenerated instead of trusted.

Usage: ``python -m pipelines.app.sample OUT.warc.gz [--site-dir DIR]``.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
import uuid
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from urllib.parse import quote

from warcio.archiveiterator import ArchiveIterator
from warcio.recordloader import ArcWarcRecord
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

BASE_URL = "http://demo.winnow.test/"
START = datetime(2026, 11, 1, tzinfo=UTC)
DEFAULT_SITE_DIR = Path(__file__).resolve().parents[2] / "crawler" / "demo_site"

USER_AGENT = "winnow-sample/0.1 (+http://demo.winnow.test/robots.txt)"
SERVER = "winnow-demo-site/1.0"
NOT_FOUND_FILE = "404.html"
REDIRECT_FROM = "old-bread.html"
REDIRECT_TO = "articles/sourdough-basics.html"
MISSING = "no-such-page.html"
REVISITED = "articles/astronomy-for-beginners.html"

# A fixed table rather than ``mimetypes``: that module reads /etc/mime.types, which differs
# between machines and would make the "same" sample differ too.
_MEDIA_TYPES = {
    ".html": "text/html",
    ".htm": "text/html",
    ".txt": "text/plain",
    ".png": "image/png",
    ".css": "text/css",
    ".pdf": "application/pdf",
}
_META_CHARSET = re.compile(rb"""<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([A-Za-z0-9._:\-]+)""", re.IGNORECASE)
# All record ids live in one namespace of our own, so they cannot collide with another tool's uuid5s.
_ID_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, BASE_URL)


def _content_type(rel_path: str, body: bytes) -> str:
    media = _MEDIA_TYPES.get(Path(rel_path).suffix.lower(), "application/octet-stream")
    if not media.startswith("text/"):
        return media
    # A server that serves the legacy page correctly labels it with the charset the page declares;
    # a mislabelled header would test the decoder's fallbacks, which is not this sample's job.
    charset = "utf-8"
    if media == "text/html":
        match = _META_CHARSET.search(body[:1024])
        if match:
            charset = match.group(1).decode("ascii").lower()
    return f"{media}; charset={charset}"


class _SampleWriter:
    """Numbers records and fetches so that ids and dates depend only on the order of writing."""

    def __init__(self, fh: io.BufferedIOBase) -> None:
        self.writer = WARCWriter(fh, gzip=True, warc_version="1.1")
        self.records = 0  # records written so far = the file position (index) of the next one
        self.fetches = 0
        self.counts: Counter[str] = Counter()

    @staticmethod
    def _record_id(url: str, index: int) -> str:
        return f"<urn:uuid:{uuid.uuid5(_ID_NAMESPACE, f'{index}:{url}')}>"

    def _write(self, record: ArcWarcRecord) -> None:
        self.writer.write_record(record)
        self.records += 1
        self.counts[record.rec_type] += 1

    def warcinfo(self) -> None:
        fields = {
            "software": "winnow pipelines.app.sample (warcio)",
            "format": "WARC File Format 1.1",
            "conformsTo": "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/",
            "isPartOf": "winnow-demo-site",
            "description": f"The winnow demo site (crawler/demo_site) as if crawled from {BASE_URL}",
            "robots": "obey",
            "http-header-user-agent": USER_AGENT,
        }
        payload = "".join(f"{k}: {v}\r\n" for k, v in fields.items()).encode("utf-8")
        headers = {"WARC-Record-ID": self._record_id("", self.records), "WARC-Date": _warc_date(START)}
        record = self.writer.create_warc_record(
            "",
            "warcinfo",
            payload=io.BytesIO(payload),
            length=len(payload),
            warc_content_type="application/warc-fields",
            warc_headers_dict=headers,
        )
        self._write(record)

    def _next_fetch_time(self) -> datetime:
        # Request and response of one exchange share a date: they describe the same moment.
        self.fetches += 1
        return START + timedelta(seconds=self.fetches)

    def _request(self, url: str, when: datetime, concurrent_to: str) -> None:
        path = url[len(BASE_URL) - 1 :]
        http = StatusAndHeaders(
            f"GET {path} HTTP/1.1",
            [
                ("Host", "demo.winnow.test"),
                ("User-Agent", USER_AGENT),
                ("Accept", "text/html,application/xhtml+xml,*/*;q=0.8"),
                ("Accept-Encoding", "identity"),
            ],
            is_http_request=True,
        )
        headers = {
            "WARC-Record-ID": self._record_id(url, self.records),
            "WARC-Date": _warc_date(when),
            "WARC-Concurrent-To": concurrent_to,
        }
        self._write(
            self.writer.create_warc_record(url, "request", http_headers=http, warc_headers_dict=headers)
        )

    def fetch(
        self, url: str, status: str, body: bytes, content_type: str, extra: Sequence[tuple[str, str]] = ()
    ) -> ArcWarcRecord:
        """A request and its response; returns the response (its digest and date feed a revisit)."""
        when = self._next_fetch_time()
        # The request is written first (it happened first), so the response sits one index later;
        # its id is known up front and the request can name it in WARC-Concurrent-To.
        response_id = self._record_id(url, self.records + 1)
        http = StatusAndHeaders(
            status, _response_headers(when, content_type, len(body), extra), protocol="HTTP/1.1"
        )
        response = self.writer.create_warc_record(
            url,
            "response",
            payload=io.BytesIO(body),
            length=len(body),
            http_headers=http,
            warc_headers_dict={"WARC-Record-ID": response_id, "WARC-Date": _warc_date(when)},
        )
        self._request(url, when, response_id)
        self._write(response)
        return response

    def revisit(self, original: ArcWarcRecord, content_type: str, length: int) -> None:
        """A later re-fetch whose payload was identical: headers only, pointing at ``original``."""
        url = original.rec_headers.get_header("WARC-Target-URI")
        when = self._next_fetch_time()
        revisit_id = self._record_id(url, self.records + 1)
        http = StatusAndHeaders("200 OK", _response_headers(when, content_type, length), protocol="HTTP/1.1")
        record = self.writer.create_revisit_record(
            url,
            digest=original.rec_headers.get_header("WARC-Payload-Digest"),
            refers_to_uri=url,
            refers_to_date=original.rec_headers.get_header("WARC-Date"),
            http_headers=http,
            warc_headers_dict={
                "WARC-Record-ID": revisit_id,
                "WARC-Date": _warc_date(when),
                # Optional in WARC 1.1 but the cheapest way for a reader to find the original.
                "WARC-Refers-To": original.rec_headers.get_header("WARC-Record-ID"),
            },
        )
        self._request(url, when, revisit_id)
        self._write(record)


def _warc_date(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def _response_headers(
    when: datetime, content_type: str, length: int, extra: Sequence[tuple[str, str]] = ()
) -> list[tuple[str, str]]:
    return [
        ("Date", format_datetime(when, usegmt=True)),
        ("Server", SERVER),
        ("Content-Type", content_type),
        ("Content-Length", str(length)),
        *extra,
        ("Connection", "close"),
    ]


def _url(rel_path: str) -> str:
    return BASE_URL + quote(rel_path)


def _site_files(site_dir: Path) -> list[str]:
    """Relative POSIX paths of the site's files, sorted so the capture order never depends on the OS."""
    paths = []
    for path in site_dir.rglob("*"):
        rel = path.relative_to(site_dir).as_posix()
        if path.is_file() and not any(part.startswith(".") for part in rel.split("/")):
            paths.append(rel)
    return sorted(paths)


def _write_sample(fh: io.BufferedIOBase, site_dir: Path) -> Counter[str]:
    files = _site_files(site_dir)
    for required in ("index.html", "robots.txt", REDIRECT_TO, REVISITED):
        if required not in files:
            raise FileNotFoundError(f"demo site {site_dir} lacks {required}")
    out = _SampleWriter(fh)
    out.warcinfo()

    def fetch_file(rel: str, url: str | None = None) -> ArcWarcRecord:
        body = (site_dir / rel).read_bytes()
        return out.fetch(url or _url(rel), "200 OK", body, _content_type(rel, body))

    # A polite crawler asks for robots.txt first, then starts from the seed URL.
    fetch_file("robots.txt")
    fetch_file("index.html", BASE_URL)
    originals = {}
    for rel in files:
        if rel in ("robots.txt", NOT_FOUND_FILE):
            continue
        originals[rel] = fetch_file(rel)

    redirect_body = (
        b"<!DOCTYPE html>\n<html><head><title>301 Moved Permanently</title></head>\n"
        b'<body><h1>Moved Permanently</h1><p>The document has moved <a href="/'
        + REDIRECT_TO.encode()
        + b'">here</a>.</p></body></html>\n'
    )
    out.fetch(
        _url(REDIRECT_FROM),
        "301 Moved Permanently",
        redirect_body,
        "text/html; charset=utf-8",
        extra=[("Location", _url(REDIRECT_TO))],
    )

    not_found = site_dir / NOT_FOUND_FILE
    not_found_body = (
        not_found.read_bytes()
        if not_found.is_file()
        else b"<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>"
        b"<body><h1>Not Found</h1></body></html>\n"
    )
    out.fetch(_url(MISSING), "404 Not Found", not_found_body, "text/html; charset=utf-8")

    revisited = (site_dir / REVISITED).read_bytes()
    out.revisit(originals[REVISITED], _content_type(REVISITED, revisited), len(revisited))
    return out.counts


def build_sample_warc(out_path: str | Path, site_dir: Path | None = None) -> Path:
    """Write the demo site as a gzip WARC 1.1 to ``out_path`` (parents created); return the path.

    ``site_dir`` defaults to the bundled ``crawler/demo_site``. The file is written beside its
    destination and renamed into place, so an interrupted build never leaves a truncated WARC that
    a later run would mistake for the sample.
    """
    out = Path(out_path)
    site = Path(site_dir) if site_dir is not None else DEFAULT_SITE_DIR
    if not site.is_dir():
        raise FileNotFoundError(f"demo site directory not found: {site}")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    try:
        with open(tmp, "wb") as fh:
            _write_sample(fh, site)
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pipelines.app.sample", description="Build the bundled sample WARC from the demo site."
    )
    parser.add_argument("out", type=Path, help="output file, e.g. sample.warc.gz")
    parser.add_argument(
        "--site-dir", type=Path, default=None, help="site to capture (default: the bundled demo)"
    )
    args = parser.parse_args(argv)
    path = build_sample_warc(args.out, args.site_dir)
    # Count by reading the file back: the number printed is what a reader will see.
    with open(path, "rb") as fh:
        counts = Counter(record.rec_type for record in ArchiveIterator(fh))
    detail = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))
    print(f"{path}: {sum(counts.values())} records ({detail})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
