"""Host-level quality: a page the page-level steps kept is dropped when most of its host's other pages are junk.

``HostQuality`` is a Stage (like filters/langid_hosts.py): it groups a wave's documents by host (``www.`` removed) and
counts, per host, the pages the quality steps judged: those they dropped (``dropped_by`` of one of ``steps``:
``quality_model`` and ``clear_junk`` by default) and those that passed them (alive). A page still alive is dropped
(``junk_host``, detail: the host and its counts) when its host has at least ``min_pages`` (5) other judged pages and
more than ``max_junk_share`` (0.5) of them are junk. Counts of the committed earlier waves are added (persisted in
``_state/<name>/``, one Parquet file per wave), so a host split over waves is judged on all its pages so far; a page
is never dropped for pages of later waves.

Why: spam is made in sites. A link farm, a doorway network or a parked-domain host is many pages of one making, and a
page-level model that catches most of them lets the rest through one by one; their host gives them away. One-sided on
purpose: a page that fails on its own is not rescued by a good host, and a host with few judged pages decides nothing.
Measured on the quality corpus's development junk (bench/quality_corpus.py, gen_c seed 1; hosts as its generator made
them): with the model alone 0.65 of twelve families' pages dropped on average, with this stage 0.84, and no real good
page of any kind lost (the real sites' other pages are junk at most a few percent of the time: documentation sites,
news, forums, WCXB's product and listing pages). A real site where most pages are thin (a shop of bare listings) would
lose its passing pages too; ``max_junk_share`` and ``min_pages`` set how sure the stage must be.

Documents without a URL are left alone. ``kind``: ``document`` (default) or ``interleaved``.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from typing import Any

import pyarrow as pa

from filters.langid_hosts import host_of, thin_tombstones
from filters.text import check_kind
from pipelines import storage
from pipelines.arguments import check_number
from pipelines.step import Stage

KEY = "_quality_host_key"
COUNTS_SCHEMA = pa.schema([pa.field("host", pa.string()), pa.field("judged", pa.int64()),
                           pa.field("junk", pa.int64())])
KINDS = ("document", "interleaved")


class HostQuality(Stage):
    default_name = "host_quality"

    def __init__(self, min_pages: int = 5, max_junk_share: float = 0.5, steps: list[str] | None = None,
                 kind: str = "document") -> None:
        self.input_kind = check_kind(kind, KINDS)
        self.min_pages = int(check_number("min_pages", min_pages, 1, integer=True))
        self.max_junk_share = check_number("max_junk_share", max_junk_share, 0, 1)
        # Not the text model's drops (filters/quality_text.py): counted, a small host's good pages that the page-level
        # steps wrongly drop tip it over the share. On bench/e2e.py's input a shop's (glossier.com, WCXB) two
        # collection pages dropped by the model and its terms page dropped by the text model took its good
        # "custom set" page with them (docs/quality-figures.md, "The host and the text model's verdicts").
        steps = ["quality_model", "clear_junk"] if steps is None else steps
        if not isinstance(steps, list) or not steps or not all(isinstance(s, str) and s for s in steps):
            raise ValueError(f"steps must be a non-empty list of step names, got {steps!r}")
        self.steps = steps
        self.wave: str | None = None
        self.earlier: dict[str, tuple[int, int]] = {}  # host -> (judged, junk) of committed earlier waves

    def bind_state(self, state_dir: str, wave: str, completed_waves: set[str]) -> None:
        self.state_dir = state_dir
        self.wave = wave
        self.earlier = _counts(state_dir, completed_waves - {wave})

    def _junk(self, dropped_by: str | None) -> bool:
        return dropped_by is not None and dropped_by.split(".", 1)[0] in self.steps

    def run(self, dataset: Any) -> Any:
        return dataset.map_batches(self._add_key).map_groups(KEY, self._by_host).map_batches(self._strip)

    def _add_key(self, table: pa.Table) -> pa.Table:
        keys = []
        for url, by, rid in zip(table.column("url").to_pylist(), table.column("dropped_by").to_pylist(),
                                table.column("id").to_pylist(), strict=True):
            host = host_of(url) if by is None or self._junk(by) else None
            keys.append(host or f"~{rid}")  # no host, or dropped before judging: a group of its own
        return table.append_column(KEY, pa.array(keys, pa.string()))

    def _by_host(self, table: pa.Table) -> pa.Table:
        keys = table.column(KEY).to_pylist()
        dropped_by = table.column("dropped_by").to_pylist()
        detail = table.column("drop_detail").to_pylist()
        judged: Counter[str] = Counter()
        junk: Counter[str] = Counter()
        for key, by in zip(keys, dropped_by, strict=True):
            if not key.startswith("~"):
                judged[key] += 1
                junk[key] += self._junk(by)
        for i, (key, by) in enumerate(zip(keys, dropped_by, strict=True)):
            if by is not None or key.startswith("~"):
                continue
            before_judged, before_junk = self.earlier.get(key, (0, 0))
            others = judged[key] - 1 + before_judged
            bad = junk[key] + before_junk
            if others >= self.min_pages and bad / others > self.max_junk_share:
                dropped_by[i] = f"{self._name()}.junk_host"
                detail[i] = f"{key}: {bad} of {others} other pages junk"
        table = table.set_column(table.schema.get_field_index("dropped_by"), "dropped_by",
                                 pa.array(dropped_by, pa.string()))
        return table.set_column(table.schema.get_field_index("drop_detail"), "drop_detail",
                                pa.array(detail, pa.string()))

    def _strip(self, table: pa.Table) -> pa.Table:
        """Persist this block's counts, thin this stage's tombstones, drop the key (per block: counts add up)."""
        self._persist(table)
        if not self.annotate:
            table = thin_tombstones(table, self._name())
        return table.drop_columns([KEY])

    def _persist(self, table: pa.Table) -> None:
        if not getattr(self, "state_dir", None):
            return
        counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for key, by in zip(table.column(KEY).to_pylist(), table.column("dropped_by").to_pylist(), strict=True):
            if not key.startswith("~"):
                cell = counts[key]
                cell[0] += 1
                cell[1] += self._junk(by)  # this stage's own drops passed the quality steps: not junk votes
        if not counts:
            return
        rows = [{"host": h, "judged": j, "junk": k} for h, (j, k) in sorted(counts.items())]
        digest = hashlib.blake2b("\n".join(table.column("id").to_pylist()).encode(), digest_size=8).hexdigest()
        storage.write_parquet(pa.Table.from_pylist(rows, schema=COUNTS_SCHEMA),
                              storage.join(self.state_dir, f"{self.wave}-{digest}.parquet"))


def _counts(folder: str, waves: set[str]) -> dict[str, tuple[int, int]]:
    """``{host: (judged, junk)}`` of the committed ``waves``' files in ``folder``."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    if not waves:
        return {}
    for name in storage.list_names(folder):
        if not name.endswith(".parquet") or name.split("-", 1)[0] not in waves:
            continue
        for row in storage.read_parquet(storage.join(folder, name)).to_pylist():
            cell = out[row["host"]]
            cell[0] += row["judged"]
            cell[1] += row["junk"]
    return {h: (j, k) for h, (j, k) in out.items()}
