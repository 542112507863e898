"""The parts of `winnow images fetch` without a crawl: sources, verdict reasons, the ledger, the journal, shards."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from crawler.images.check import check_image
from crawler.images.journal import Journal
from crawler.images.ledger import Fetched, Ledger, NotStored, prefetch_reason
from crawler.images.sources import SourceError, find_shards, read_refs
from crawler.images.verdict import image_verdict, not_stored_reason, robots_reason
from crawler.images.writer import ShardWriter, stored_ids
from crawler.policy.tdmrep import TdmRep
from tests.crawler.images.helpers import interleaved, make_image, pair, read_images, write_output

URL = "http://127.0.0.1:8000/img/a.png"


def test_refs_from_both_outputs_in_batches(tmp_path):
    pairs = [pair(f"p{n}", f"http://127.0.0.1/{n}.png") for n in range(5)]
    out = write_output(tmp_path, pairs, [interleaved("d1", ["http://127.0.0.1/x.png", "http://127.0.0.1/y.png"])],
                       shards=2)
    refs = list(read_refs(find_shards(out), batch_rows=2))
    assert [r.id for r in refs] == ["p0", "p1", "p2", "p3", "p4", "d1/1", "d1/3"]
    last = refs[-1]
    assert (last.output, last.doc_id, last.segment, last.image_url, last.alt) == (
        "interleaved", "d1", 3, "http://127.0.0.1/y.png", "image 1")
    assert refs[0].caption == "a caption" and refs[0].policy_signals == ["robots:parsed"]


def test_an_output_with_only_one_of_the_two_folders_is_fine(tmp_path):
    (tmp_path / "interleaved").mkdir()
    assert find_shards(tmp_path) == {"interleaved": []}
    with pytest.raises(SourceError, match="no image_text/ or interleaved/"):
        find_shards(tmp_path / "interleaved")


@pytest.mark.parametrize("changes, reason", [
    ({}, None), ({"training_allowed": None}, None), ({"training_allowed": False}, "page_training_disallowed"),
    ({"dropped_by": "x.y"}, "dropped_in_run"), ({"image_url": None}, "bad_url"),
    ({"image_url": "data:image/png;base64,AAAA"}, "bad_url"), ({"image_url": "http://127.0.0.1:99999/a"}, "bad_url"),
])
def test_prefetch_reasons(tmp_path, changes, reason):
    out = write_output(tmp_path, [pair("p", URL)])
    (ref,) = read_refs(find_shards(out))
    for key, value in changes.items():
        setattr(ref, key, value)
    assert prefetch_reason(ref) == reason


@pytest.mark.parametrize("headers, reason", [
    ({}, None),
    ({"x-robots-tag": ["noindex"]}, None),
    ({"content-usage": ["train-ai=y"]}, None),
    ({"tdm-reservation": ["0"]}, None),
    ({"x-robots-tag": ["noai"]}, "optout.noai"),
    ({"x-robots-tag": ["winnowbot: noimageai"]}, "optout.noimageai"),
    ({"x-robots-tag": ["otherbot: noai"]}, None),  # addressed to another bot
    ({"content-usage": ["train-ai=n"]}, "optout.content_usage"),
    ({"tdm-reservation": ["1"]}, "optout.tdmrep"),
    ({"x-robots-tag": ["noai"], "tdm-reservation": ["1"]}, "optout.noai"),  # several: the first in a fixed order
])
def test_response_signals_and_their_reason(headers, reason):
    verdict = image_verdict(URL, "winnowbot", None, headers, None)
    assert not_stored_reason(verdict, URL, "winnowbot", headers, None) == reason


def test_a_tdmrep_file_reserves_unless_the_header_says_otherwise():
    file = TdmRep.parse(b'[{"location": "/img/*", "tdm-reservation": 1}]')
    verdict = image_verdict(URL, "winnowbot", None, {}, file)
    assert not_stored_reason(verdict, URL, "winnowbot", {}, file) == "optout.tdmrep"
    header = {"tdm-reservation": ["0"]}  # TDMRep: the header supersedes the file
    assert image_verdict(URL, "winnowbot", None, header, file).images_allowed


def test_robots_answers_before_the_fetch():
    allowed = {"crawl_allowed": True, "training_allowed": True, "content_usage": None, "signals": ["robots:parsed"]}
    assert robots_reason(allowed, URL, "winnowbot") is None
    assert robots_reason({**allowed, "training_allowed": False}, URL, "winnowbot") == "training_disallowed"
    assert robots_reason({**allowed, "content_usage": "train-ai=n"}, URL, "winnowbot") == "optout.content_usage"
    assert robots_reason({**allowed, "content_usage": "search=y"}, URL, "winnowbot") is None


class Rows:
    def __init__(self) -> None:
        self.rows = 0

    def __call__(self) -> None:
        self.rows += 1


def test_ledger_fetches_a_shared_url_once_and_serves_later_rows_from_disk(tmp_path):
    out = write_output(tmp_path / "out", [pair("a", URL), pair("b", URL), pair("c", URL), pair("d", URL + "?2"),
                                          pair("e", URL + "?2")])
    refs = list(read_refs(find_shards(out)))
    journal = Journal(tmp_path / "img")
    journal.open()
    writer = ShardWriter(tmp_path / "img", max_rows=100)
    counter = Rows()
    ledger = Ledger(tmp_path / "img", journal, writer, set(), {URL: 3, URL + "?2": 2}, on_row=counter)
    assert ledger.admit(refs[0]) == URL
    assert ledger.admit(refs[1]) is None  # waits for the fetch under way
    assert ledger.in_flight == 1
    data = make_image("PNG", (30, 20))
    ledger.resolve(URL, Fetched(check_image(data), URL, 200, "image/png", datetime.now(UTC), ["robots:parsed"]))
    kept = list(ledger.shared_dir.iterdir())
    assert len(kept) == 1  # one more reference to come: kept on disk, not in memory
    assert ledger.admit(refs[2]) is None and ledger.shared_hits == 1
    assert not list(ledger.shared_dir.iterdir())  # the last reference served: forgotten
    assert ledger.admit(refs[3]) == URL + "?2"
    ledger.resolve(URL + "?2", NotStored("http_404"))
    assert ledger.admit(refs[4]) is None
    assert ledger.admit(refs[0]) is None  # an id is handled once; a second row with it is counted
    writer.flush()
    journal.close()
    assert [r["id"] for r in read_images(tmp_path / "img")] == ["a", "b", "c"]
    assert all(r["image"] == data for r in read_images(tmp_path / "img"))
    assert dict(journal.not_stored()) == {"http_404": 2, "duplicate_id": 1}
    assert counter.rows == 6 and ledger.fetches == 2
    reloaded = Journal(tmp_path / "img")
    reloaded.load()
    assert reloaded.not_stored() == journal.not_stored() and reloaded.skipped_ids == {"d", "e"}


def test_journal_survives_a_cut_last_line_and_shards_give_the_stored_ids(tmp_path):
    journal = Journal(tmp_path)
    journal.open()
    journal.skip("x", "http_404")
    journal.skip("y", "timeout")
    journal.close()
    with journal.path.open("a") as f:
        f.write('{"id": "z", "sk')  # a kill in the middle of a line
    again = Journal(tmp_path)
    again.load()
    assert again.skipped_ids == {"x", "y"} and dict(again.not_stored()) == {"http_404": 1, "timeout": 1}

    out = write_output(tmp_path / "out", [pair("a", URL)])
    (ref,) = read_refs(find_shards(out))
    writer = ShardWriter(tmp_path, max_rows=1)
    ledger = Ledger(tmp_path, again, writer, set(), {})
    again.open()
    ledger.admit(ref)
    ledger.resolve(URL, Fetched(check_image(make_image()), URL, 200, None, datetime.now(UTC)))
    (writer.folder / ".tmp-part-leftover.parquet").write_bytes(b"half a shard")
    assert stored_ids(tmp_path) == {"a"}
    assert not list(writer.folder.glob(".tmp-*"))  # a killed session's temporary file is removed


def test_failure_reasons():
    from scrapy.exceptions import DownloadCancelledError, DownloadTimeoutError, IgnoreRequest, ResponseDataLossError
    from scrapy.http import Request, Response
    from scrapy.spidermiddlewares.httperror import HttpError
    from twisted.internet.defer import CancelledError
    from twisted.internet.error import ConnectionRefusedError

    from crawler.images.spider import failure_reason
    from crawler.policy.robots_middleware import RobotsDisallowed

    response = Response(URL, status=503, request=Request(URL))
    assert failure_reason(HttpError(response), {}) == "http_503"
    assert failure_reason(RobotsDisallowed(URL, "parsed"), {}) == "robots_disallowed"
    assert failure_reason(RobotsDisallowed(URL, "unreachable_5xx"), {}) == "robots_unreachable"
    ignored = IgnoreRequest("x")
    assert failure_reason(ignored, {"winnow_skip_reason": "address_guard.blocked_address"}) == "address_guard"
    assert failure_reason(ignored, {"winnow_skip_reason": "politeness.host_parked"}) == "host_parked"
    assert failure_reason(ignored, {"winnow_skip_reason": "training_disallowed"}) == "training_disallowed"
    assert failure_reason(DownloadCancelledError("over DOWNLOAD_MAXSIZE"), {}) == "too_large"
    assert failure_reason(CancelledError(), {}) == "too_large"
    assert failure_reason(DownloadTimeoutError("slow"), {}) == "timeout"
    assert failure_reason(ResponseDataLossError("cut"), {}) == "truncated"
    assert failure_reason(ConnectionRefusedError(), {}) == "connection_error"
    assert failure_reason(ValueError("?"), {}) == "error.ValueError"


def test_shards_are_written_by_row_group_and_appear_only_when_closed(tmp_path):
    import pyarrow.parquet as pq

    from crawler.images.writer import GROUP_ROWS
    from pipelines.records import ImageRecord

    committed = []
    writer = ShardWriter(tmp_path, max_rows=GROUP_ROWS * 2 + 5, on_commit=lambda name, ids: committed.append(ids))
    for n in range(GROUP_ROWS * 2 + 1):
        writer.add(ImageRecord(id=f"r{n}", url=None, source="s", image=b"x" * 10))
    assert [p.name.startswith(".tmp-") for p in writer.folder.iterdir()] == [True]  # being written: not a shard yet
    assert not list(writer.folder.glob("part-*")) and not committed
    writer.add(ImageRecord(id="last", url=None, source="s", image=b"x"))
    writer.flush()
    (shard,) = writer.folder.glob("part-*.parquet")
    assert pq.ParquetFile(shard).num_row_groups == 3  # 100 + 100 + 2 rows: memory held one group at a time
    assert len(committed[0]) == GROUP_ROWS * 2 + 2 and writer.rows == GROUP_ROWS * 2 + 2


def test_shard_columns_are_zstd_except_the_image_bytes(tmp_path):
    import pyarrow.parquet as pq

    from pipelines.records import ImageRecord

    writer = ShardWriter(tmp_path)
    writer.add(ImageRecord(id="a", url=None, source="s", image=b"x" * 100, policy_signals=["robots:parsed"]))
    writer.flush()
    (shard,) = writer.folder.glob("part-*.parquet")
    group = pq.ParquetFile(shard).metadata.row_group(0)
    codecs = {group.column(i).path_in_schema: group.column(i).compression for i in range(group.num_columns)}
    assert codecs.pop("image") == "UNCOMPRESSED"
    assert set(codecs.values()) == {"ZSTD"} and "policy_signals.list.element" in codecs
