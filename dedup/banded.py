"""What the two LSH stages share (dedup/near.py's MinHash for text, dedup/images.py's perceptual hashes for images):
one component for their band groups, their decisions and their state across waves and runs.

A subclass makes band rows (``key``, ``dkey`` and its own columns, declared in ``bands_schema``) and turns one band
group into candidate edges; this class does the rest:

- binding: the stage's state folder, the wave being run, the committed waves, and earlier outputs to dedup against
  (``--dedup-against``), whose band index must have been built with the same parameters (``state_params``);
- band groups: each bucket's rows, written to this wave's band index, joined with the rows of earlier waves and
  outputs that share a band key (node keys prefixed ``PRIOR``: they sort first and stay the keepers);
- decisions: connected components of the edges (``dedup.components``, distributed), one labels file per bucket of
  the nodes this wave drops, read back per worker process (``label_map``) to mark the rows, which travel on as thin
  tombstones (their bulk column emptied) unless the run annotates.

Node keys encode the keeper rule (the smallest key of a component is kept): ``PRIOR`` + the subclass's own order.
"""

from __future__ import annotations

import functools
import logging
import tempfile
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from dedup import state
from dedup.components import BUCKET, EDGE_SCHEMA, LABEL_SCHEMA, connected_components, count_rows
from pipelines.step import Stage

log = logging.getLogger(__name__)

PRIOR = "0"  # prefix of node keys written earlier: they sort first and stay the keepers


@functools.lru_cache(maxsize=2)
def label_map(files: tuple[str, ...]) -> dict[str, str]:
    """node -> root of one wave's dropped rows, built once per worker process."""
    table = state.read(files, LABEL_SCHEMA)
    return dict(zip(table.column("node").to_pylist(), table.column("root").to_pylist(), strict=True))


class BandedDedup(Stage):
    """Base of the LSH dedup stages (module docstring). Subclasses set ``bands_schema``, ``rows_word`` (what a row is,
    for messages) and ``state_params``, and implement ``_candidates_in``."""

    bands_schema: pa.Schema
    rows_word = "row"

    def _init_state(self) -> None:
        self.wave = "unbound"
        self.own: tuple[str, set[str]] | None = None
        self.against: list[tuple[str, set[str]]] = []
        self.work_dir: str | None = None
        self.prior_bands: dict[int, tuple[str, ...]] = {}
        self.label_files: tuple[str, ...] = ()

    @property
    def state_params(self) -> dict[str, object]:
        raise NotImplementedError

    # -- binding (runner, driver side) ------------------------------------------------------------------------
    def bind_state(self, state_dir: str, wave: str, completed_waves: set[str]) -> None:
        """Where this stage persists its band index, the wave being run, and which earlier waves are committed."""
        self.state_dir = state_dir
        self.wave = wave
        self.own = (state_dir, set(completed_waves))

    def bind_against(self, previous: list[tuple[str, set[str]]]) -> None:
        """Earlier outputs (this stage's state folder there, that output's committed waves) to dedup against."""
        for folder, _ in previous:
            if not state.has_files(folder):
                log.warning("%s: no state in %s (no %s reached a stage of this name there)", self._name(), folder,
                            self.rows_word)
        self.against = [(folder, waves) for folder, waves in previous if state.has_files(folder)]
        state.check_params(state.committed(self.against, "bands"), self.state_params, "the --dedup-against output")

    # -- a wave ------------------------------------------------------------------------------------------------
    def _folders(self) -> list[tuple[str, set[str]]]:
        return ([self.own] if self.own else []) + self.against

    def _start_wave(self, temp_prefix: str) -> None:
        """The earlier waves' band index, this wave's work folder (the state folder, else a temporary one), and this
        wave's files of an earlier attempt removed."""
        self.prior_bands = state.committed(self._folders(), "bands")
        self.work_dir = self.state_dir or tempfile.mkdtemp(prefix=temp_prefix)
        self.label_files = ()
        state.remove_wave_files(self.work_dir, self.wave)

    def _decide(self, edges: Any) -> int:
        """Components of the candidate ``edges``, this wave's labels files written; the number of rows dropped."""
        labels = connected_components(edges, self.buckets)
        dropped = count_rows(labels.map_batches(self._key_labels).map_groups(BUCKET, self._write_labels), "n")
        if dropped:
            self.label_files = state.wave_files(self.work_dir, self.wave, "labels")
        return dropped

    # -- band groups -> candidate edges -----------------------------------------------------------------------
    def _candidates(self, table: pa.Table) -> pa.Table:
        out = [self._candidates_in(int(b), table.filter(pc.equal(table.column(BUCKET), b)))
               for b in pc.unique(table.column(BUCKET)).to_pylist()]
        return pa.concat_tables(out) if out else EDGE_SCHEMA.empty_table()

    def _candidates_in(self, bucket: int, table: pa.Table) -> pa.Table:
        raise NotImplementedError

    def _band_group(self, bucket: int, table: pa.Table) -> pa.Table:
        """One bucket's band rows (written to this wave's index when the stage has a state folder) and the rows of
        earlier waves and outputs sharing their keys, sorted by band key, then node key."""
        current = table.select(self.bands_schema.names).cast(self.bands_schema)
        if self.state_dir:
            state.write(self.state_dir, state.file_name(self.wave, "bands", bucket), current, self.state_params)
        prior = state.read(self.prior_bands.get(bucket, ()), self.bands_schema)
        if prior.num_rows:
            prior = prior.filter(pc.is_in(prior.column("key"), value_set=current.column("key").combine_chunks()))
            prior = prior.set_column(1, "dkey", pc.binary_join_element_wise(PRIOR, prior.column("dkey"), ""))
        return pa.concat_tables([prior, current]).sort_by([("key", "ascending"), ("dkey", "ascending")])

    # -- decisions ----------------------------------------------------------------------------------------------
    def _key_labels(self, table: pa.Table) -> pa.Table:
        return state.fresh_labels(table, PRIOR, self.buckets)

    def _write_labels(self, table: pa.Table) -> pa.Table:
        assert self.work_dir is not None
        return state.write_labels(self.work_dir, self.wave, table, self.state_params)

    def _marked(self, table: pa.Table, hit: np.ndarray, dropped_by: list[Any], detail: list[Any],
                bulk: str) -> pa.Table:
        """``table`` with the decisions of the ``hit`` rows written, and their ``bulk`` column emptied (thin
        tombstones) unless the run annotates."""
        if not hit.any():
            return table
        table = table.set_column(table.schema.get_field_index("dropped_by"), "dropped_by",
                                 pa.array(dropped_by, pa.string()))
        table = table.set_column(table.schema.get_field_index("drop_detail"), "drop_detail",
                                 pa.array(detail, pa.string()))
        if not self.annotate:
            col = table.schema.get_field_index(bulk)
            field = table.schema.field(col)
            table = table.set_column(col, field, pc.if_else(pa.array(~hit), table.column(col),
                                                            pa.scalar(None, field.type)))
        return table
