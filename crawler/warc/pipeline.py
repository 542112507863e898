"""Item pipeline: each page's request, response, rendered DOM (if any) and metadata go to rotating WARC files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from crawler.warc.writer import WarcRotator, repair_open_files


class WarcPipeline:
    def __init__(self, crawler: Any) -> None:
        settings = crawler.settings
        self.crawler = crawler
        self.directory = Path(settings.get("WINNOW_OUTPUT_DIR"))
        self.rotator = WarcRotator(self.directory, prefix=settings.get("WINNOW_WARC_PREFIX"),
                                   max_bytes=settings.getint("WINNOW_WARC_MAX_BYTES"),
                                   software=f"winnow crawler ({settings.get('USER_AGENT')})")

    @classmethod
    def from_crawler(cls, crawler: Any) -> WarcPipeline:
        return cls(crawler)

    def open_spider(self) -> None:
        for path in repair_open_files(self.directory):
            self.crawler.stats.inc_value("winnow/warc/recovered_files")
            self.crawler.stats.set_value("winnow/warc/last_recovered", path.name)

    def process_item(self, item: dict[str, Any]) -> dict[str, Any]:
        name, offset = self.rotator.write_page(item["request"], item["response"], item["fields"],
                                               rendered=item.get("rendered"))
        # Journaled only once the records are flushed: a kill before this refetches the page.
        self.crawler.spider.journal.finish(item["winnow_url"], "page")
        self.crawler.stats.inc_value("winnow/pages")
        if item.get("rendered") is not None:
            self.crawler.stats.inc_value("winnow/warc/rendered_records")
        return {"url": item["response"].url, "warc": name, "offset": offset}

    def close_spider(self) -> None:
        self.rotator.close()
        self.crawler.stats.set_value("winnow/warc/files", len(list(self.directory.glob("*.warc.gz"))))
