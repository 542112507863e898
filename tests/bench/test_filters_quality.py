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


def test_the_inputs_give_every_page_one_fetch_date(tmp_path: Path) -> None:
    """Dedup keeps the earliest-fetched copy: a WARC-Date per second of writing made the keeper a matter of timing."""
    from bench.quality_corpus import Item
    from bench.quality_view import WARC_DATE, write_inputs
    from pipelines.readers import read_input

    html = b"<html><body><p>" + b"A paragraph of the page. " * 20 + b"</p></body></html>"
    items = [Item(f"p{n}", "news", 1, "eval", f"https://n.example/{n}", html=html) for n in range(3)]
    [warc] = write_inputs(items, tmp_path)
    table = pa.concat_tables(read_input(str(warc)))
    assert table.num_rows == 3
    dates = {d.strftime("%Y-%m-%dT%H:%M:%SZ") for d in table.column("fetched_at").to_pylist()}
    assert dates == {WARC_DATE}


def test_the_inputs_give_every_page_the_same_id_in_every_run(tmp_path: Path) -> None:
    """With one fetch date the id decides which copy dedup keeps: warcio's random record ids made it a coin toss."""
    from bench.quality_corpus import Item
    from bench.quality_view import write_inputs
    from pipelines.readers import read_input

    html = b"<html><body><p>" + b"A paragraph of the page. " * 20 + b"</p></body></html>"
    items = [Item(f"p{n}", "news", 1, "eval", f"https://n.example/{n}", html=html) for n in range(3)]
    runs = []
    for k in range(2):
        [warc] = write_inputs(items, tmp_path / str(k))
        runs.append(pa.concat_tables(read_input(str(warc))).column("id").to_pylist())
    assert runs[0] == runs[1]
    assert len(set(runs[0])) == 3
