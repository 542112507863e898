"""bench/filters_quality.py's accounting of good pages a dedup stage dropped as copies of a kept document."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from bench.filters_quality import copies_of_kept, report


def write_text(out: Path, rows: list[dict]) -> None:
    (out / "text").mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(rows), out / "text" / "part-0.parquet")


def test_a_copy_counts_apart_only_where_its_keeper_reached_the_output(tmp_path: Path) -> None:
    write_text(tmp_path, [
        {"id": "a", "url": "https://d.example/sgeqrf", "dropped_by": None, "drop_detail": None},
        {"id": "b", "url": "https://d.example/dgeqrf", "dropped_by": "minhash_dedup.near_duplicate",
         "drop_detail": "near duplicate of a"},
        {"id": "c", "url": "https://d.example/junk", "dropped_by": "quality_model.low_quality", "drop_detail": "0.1"},
        {"id": "d", "url": "https://d.example/copy-of-junk", "dropped_by": "exact_dedup.exact_duplicate",
         "drop_detail": "duplicate of c"},
        {"id": "e", "url": "https://d.example/earlier", "dropped_by": "minhash_dedup.near_duplicate",
         "drop_detail": "near duplicate of z, written earlier"},
    ])
    assert copies_of_kept(tmp_path) == {"https://d.example/dgeqrf"}


def test_the_report_gives_both_shares_per_kind() -> None:
    df = pd.DataFrame({"family": ["docs.python-scipy-doc"] * 4, "label": [1] * 4,
                       "url": ["u1", "u2", "u3", "u4"], "kept": [True, False, False, True],
                       "reason": ["kept", "minhash_dedup.near_duplicate", "quality_model.low_quality", "kept"]})
    row = report(df, {"u2"})["good"]["API reference (SciPy)"]
    assert (row["pages"], row["kept"], row["kept_or_copy"]) == (4, 0.5, 0.75)
    assert "quality_model.low_quality 1" in row["lost_by"]
