"""Item pipeline: each page's request, response, rendered DOM (if any) and metadata go to rotating WARC files; with
an object-store ``--output`` (``WINNOW_UPLOAD_TO``), each finished file is uploaded there (crawler/warc/upload.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from crawler.warc.upload import WarcUploader
from crawler.warc.writer import DONE_SUFFIX, WarcRotator, repair_open_files
from pipelines.settings import read as read_setting


class WarcPipeline:
    def __init__(self, crawler: Any) -> None:
        settings = crawler.settings
        self.crawler = crawler
        self.directory = Path(read_setting(settings, "WINNOW_OUTPUT_DIR"))
        self.rotator = WarcRotator(self.directory, prefix=read_setting(settings, "WINNOW_WARC_PREFIX"),
                                   max_bytes=read_setting(settings, "WINNOW_WARC_MAX_BYTES"),
                                   software=f"winnow crawler ({settings.get('USER_AGENT')})")
        upload_to = read_setting(settings, "WINNOW_UPLOAD_TO")
        self.uploader = WarcUploader(upload_to, self.directory / ".crawl") if upload_to else None
        self._submitted = 0

    @classmethod
    def from_crawler(cls, crawler: Any) -> WarcPipeline:
        return cls(crawler)

    def open_spider(self) -> None:
        for path in repair_open_files(self.directory):
            self.crawler.stats.inc_value("winnow/warc/recovered_files")
            self.crawler.stats.set_value("winnow/warc/last_recovered", path.name)
        if self.uploader is not None:
            # Finished files an earlier session did not get into the bucket (killed, or its upload failed).
            for path in sorted(self.directory.glob(f"*{DONE_SUFFIX}")):
                self.uploader.submit(path)

    def _upload_finished(self) -> None:
        if self.uploader is not None:
            for path in self.rotator.finished[self._submitted:]:
                self.uploader.submit(path)
            self._submitted = len(self.rotator.finished)

    def process_item(self, item: dict[str, Any]) -> dict[str, Any]:
        name, offset = self.rotator.write_page(item["request"], item["response"], item["fields"],
                                               rendered=item.get("rendered"))
        # Journaled only once the records are flushed: a kill before this refetches the page.
        self.crawler.spider.journal.finish(item["winnow_url"], "page")
        self.crawler.stats.inc_value("winnow/pages")
        self._upload_finished()  # a file the rotator closed at its size limit
        if item.get("rendered") is not None:
            self.crawler.stats.inc_value("winnow/warc/rendered_records")
        return {"url": item["response"].url, "warc": name, "offset": offset}

    def close_spider(self) -> None:
        self.rotator.close()
        local = {p.name for p in self.directory.glob("*.warc.gz")}
        if self.uploader is not None:
            self._upload_finished()
            self.uploader.close()
            stats = self.crawler.stats
            stats.set_value("winnow/warc/uploaded", self.uploader.uploaded)
            if self.uploader.failed:
                stats.set_value("winnow/warc/upload_failed", len(self.uploader.failed))
            local = {p.name for p in self.directory.glob("*.warc.gz")} | self.uploader.names()
        self.crawler.stats.set_value("winnow/warc/files", len(local))
