"""``FetchImages``: `winnow images fetch` as a pipeline step (issue 17).

``- use: crawler.images.stage.FetchImages`` in a config whose input is an earlier run's ``image_text/`` (or, with
``kind: interleaved``, ``interleaved/``) output turns each pair (each image segment) into a row of the ``image``
kind: the fetched image, or a tombstone ``fetch_images.<reason>`` with the fetch's own reason (robots, opt-out
headers, HTTP status, decode failure, ...), so that ``stats.json`` and the report account for every pair.

How: per wave, the wave's live input rows are written as a small winnow output folder under the stage's state
folder (``_state/<step>/<wave>/in``), and the fetch of ``winnow images fetch`` runs on it in a child process
(crawler/images/child.py, with the step's options as a JSON file): Scrapy's reactor
cannot be restarted in a process that ran it, and the crawl's conduct (robots per image host, the training token,
opt-out headers, per-host slots and delays, Retry-After, the address guard, size and time caps) is then exactly the
command's. A wave that is re-run after a kill continues the fetch (``--resume``): nothing is fetched twice. Rows are
then joined back to their fetch results on the driver's file system, batch by batch (on a cluster the output folder
is shared already: the writer writes there from every node). The state of committed waves is removed when the next
wave starts; the last wave's stays until a later run (it is also what a resumed run continues from).

An interleaved document becomes one row per image segment (``<id>/<segment index>``), or one ``no_images`` tombstone
when it has none, so for ``kind: interleaved`` the step's counts are image segments, not documents.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from crawler.images.child import write_options
from crawler.images.journal import entries as journal_entries
from crawler.images.run import FetchOptions
from pipelines.records import conform, empty_table, schema_of
from pipelines.settings import env as env_setting
from pipelines.step import Stage

log = logging.getLogger(__name__)

KINDS = ("image_text", "interleaved")
CONTACT_ENV = "WINNOW_CONTACT_URL"  # contact_url when the config gives none
_LOG_TAIL = 2000


class FetchImages(Stage):
    """Fetch the images of ``kind`` rows (``image_text`` or ``interleaved``) into ``image`` rows.

    ``resize``, ``max_mb``, ``timeout``, ``bot_name``, ``training_token``, ``contact_url``, ``allow_private``,
    ``workers`` and ``settings`` (Scrapy settings, as ``-s KEY=VALUE``) are ``winnow images fetch``'s options of the
    same names;
    without ``contact_url`` the environment's ``WINNOW_CONTACT_URL`` is used (required for public image hosts).
    """

    default_name = "fetch_images"
    output_kind = "image"

    def __init__(self, kind: str = "image_text", resize: int | None = None, max_mb: float | None = None,
                 timeout: float | None = None, bot_name: str | None = None, training_token: str | None = None,
                 contact_url: str | None = None, allow_private: bool | list[str] = False,
                 settings: dict[str, Any] | None = None, workers: int | None = None) -> None:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {list(KINDS)}, got {kind!r}")
        for name, value in (("resize", resize), ("max_mb", max_mb), ("timeout", timeout)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int | float) or value <= 0):
                raise ValueError(f"{name} must be a positive number, got {value!r}")
        if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
            raise ValueError(f"workers must be a whole number of processes, at least 1, got {workers!r}")
        if not isinstance(allow_private, bool | list):
            raise ValueError(f"allow_private must be true/false or a list of networks, got {allow_private!r}")
        if settings is not None and not isinstance(settings, dict):
            raise ValueError(f"settings must be a mapping of Scrapy settings, got {settings!r}")
        self.input_kind = kind  # type: ignore[misc]  # an instance narrows the class default
        self.resize = resize
        self.max_mb = max_mb
        self.timeout = timeout
        self.bot_name = bot_name
        self.training_token = training_token
        self.contact_url = contact_url
        self.allow_private = allow_private
        self.settings = dict(settings or {})
        self.workers = workers
        self.wave_dir: str | None = None

    def bind_state(self, state_dir: str, wave: str, completed_waves: set[str]) -> None:
        """Called by the runner before each wave. The fetch folders of committed waves are no longer needed."""
        self.state_dir = state_dir
        self.wave_dir = str(Path(state_dir) / wave)
        root = Path(state_dir)
        if root.is_dir():
            for done in completed_waves:
                if (root / done).is_dir() and done != wave:
                    shutil.rmtree(root / done, ignore_errors=True)

    def options(self, source: Path, target: Path, resume: bool) -> FetchOptions:
        """The fetch of one wave: ``winnow images fetch``'s options, from the step's (unset ones: the command's
        defaults)."""
        given: dict[str, Any] = {"resize": self.resize, "max_mb": self.max_mb, "timeout": self.timeout,
                                 "bot_name": self.bot_name, "training_token": self.training_token,
                                 "workers": self.workers}
        # The contact URL is the operator's, not the pipeline's: a shared config need not carry it.
        contact = self.contact_url or env_setting(CONTACT_ENV) or None
        return FetchOptions(
            source=source, output=target, **{k: v for k, v in given.items() if v is not None},
            **({"contact_url": contact} if contact else {}),
            allow_private=bool(self.allow_private),
            allowed_networks=list(self.allow_private) if isinstance(self.allow_private, list) else [],
            # strings, as `-s KEY=VALUE` gives them: Scrapy's getters read both
            overrides={key: str(value) for key, value in self.settings.items()},
            resume=resume, progress=False)

    def run(self, dataset: Any) -> Any:
        if self.wave_dir is None:
            raise RuntimeError(f"{self._name()}: the runner binds a state folder before run() (bind_state)")
        rows = dataset.materialize()
        wave = Path(self.wave_dir)
        source, target = wave / "in", wave / "out"
        self._write_input(rows, source / self.input_kind)
        resume = (target / ".fetch").is_dir()
        if target.exists() and not resume:
            shutil.rmtree(target)  # a fetch that died before it wrote anything to resume from
        log_file, options_file = wave / "fetch.log", wave / "fetch-options.json"
        write_options(self.options(source, target, resume), options_file)
        with log_file.open("ab") as out:
            done = subprocess.run([sys.executable, "-m", "crawler.images.child", str(options_file)], stdout=out,
                                  stderr=subprocess.STDOUT, check=False)
        if done.returncode != 0:
            tail = log_file.read_bytes()[-_LOG_TAIL:].decode("utf-8", "replace")
            raise RuntimeError(f"{self._name()}: winnow images fetch exited {done.returncode} (log {log_file}):\n"
                               f"{tail}")
        return rows.map_batches(Attach(str(target), self._name(), self.input_kind))

    @staticmethod
    def _write_input(rows: Any, folder: Path) -> None:
        if folder.exists():
            shutil.rmtree(folder)  # a re-run wave writes the same rows again
        folder.mkdir(parents=True)
        for i, table in enumerate(rows.tables()):
            live = table.filter(pc.is_null(table.column("dropped_by")))
            if live.num_rows:
                pq.write_table(live, folder / f"part-{i:05d}.parquet")


class Attach:
    """Input rows -> their fetch results: stored ``image`` rows, or tombstones with the fetch's reason."""

    def __init__(self, fetched: str, step: str, kind: str) -> None:
        self.fetched = fetched
        self.step = step
        self.kind = kind
        self._index: dict[str, tuple[str, int, int]] | None = None  # id -> (shard, row group, row in group)
        self._skips: dict[str, str] | None = None

    def _load(self) -> None:
        index: dict[str, tuple[str, int, int]] = {}
        for shard in sorted((Path(self.fetched) / "images").glob("*.parquet")):
            parquet = pq.ParquetFile(shard)
            for group in range(parquet.num_row_groups):
                ids = parquet.read_row_group(group, columns=["id"]).column("id").to_pylist()
                index.update((row_id, (str(shard), group, i)) for i, row_id in enumerate(ids))
        skips: dict[str, str] = {}
        for entry in journal_entries(Path(self.fetched)):  # every journal file: one per worker of --workers
            if "skip" in entry:  # the last reason of a row counts (a retried row's); a stored row wins over any
                skips[entry["id"]] = entry["skip"]
            elif "duplicate" in entry:  # a second input row with an id the fetch had handled already
                skips.setdefault(entry["duplicate"], "duplicate_id")
        self._index, self._skips = index, skips

    def __call__(self, table: pa.Table) -> pa.Table:
        if self._index is None:
            self._load()
        assert self._index is not None and self._skips is not None
        wanted: list[tuple[str, dict[str, Any]]] = []  # (image row id, input row) in output order
        tombstones: list[dict[str, Any]] = []
        for row in table.to_pylist():
            if row.get("dropped_by"):
                tombstones.append(row)
                continue
            ids = self._image_ids(row)
            if not ids:
                tombstones.append({**row, "dropped_by": f"{self.step}.no_images", "drop_detail": None})
            wanted += [(image_id, row) for image_id in ids]
        parts = [conform(pa.Table.from_pylist(tombstones), "image")] if tombstones else []
        stored = self._stored([image_id for image_id, _ in wanted if image_id in self._index])
        missing = []
        for image_id, row in wanted:
            if image_id in stored:
                parts.append(stored[image_id])
            else:
                reason = self._skips.get(image_id, "not_fetched")
                missing.append({"id": image_id, "url": row.get("url"), "source": row["source"],
                                "fetched_at": None, "training_allowed": row.get("training_allowed"),
                                "policy_signals": row.get("policy_signals") or [], "output": self.kind,
                                "dropped_by": f"{self.step}.{reason}", "drop_detail": None})
        if missing:
            parts.append(conform(pa.Table.from_pylist(missing), "image"))
        if not parts:
            return empty_table("image")
        return pa.concat_tables([p.cast(schema_of("image")) for p in parts])

    def _image_ids(self, row: dict[str, Any]) -> list[str]:
        if self.kind == "image_text":
            return [row["id"]] if row.get("image_url") else []
        return [f"{row['id']}/{i}" for i, seg in enumerate(row.get("segments") or [])
                if seg.get("kind") == "image" and seg.get("image_url")]

    def _stored(self, ids: list[str]) -> dict[str, pa.Table]:
        """The stored rows of ``ids``, one row table each, reading each row group once."""
        assert self._index is not None
        by_group: dict[tuple[str, int], list[tuple[str, int]]] = {}
        for image_id in ids:
            shard, group, row = self._index[image_id]
            by_group.setdefault((shard, group), []).append((image_id, row))
        out: dict[str, pa.Table] = {}
        for (shard, group), wanted in by_group.items():
            rows = pq.ParquetFile(shard).read_row_group(group)
            for image_id, row in wanted:
                out[image_id] = conform(rows.slice(row, 1), "image")
        return out
