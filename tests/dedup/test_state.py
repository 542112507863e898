import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from dedup import state

PARAMS = {"bands": 14, "rows": 8}


def test_bucketed_files_round_trip(tmp_path):
    table = pa.table({"dkey": ["a", "b", "c", "d"], "shingles": [[1, 2], [3], [4, 5, 6], []]},
                     schema=state.SHINGLES_SCHEMA)
    state.write_by_bucket(str(tmp_path), "w1-shingles-00ff.parquet", table, pa.array([3, 1, 3, 0], pa.int32()),
                          PARAMS)
    path = str(tmp_path / "w1-shingles-00ff.parquet")
    assert pq.ParquetFile(path).num_row_groups == 3
    assert state.read_bucket((path,), 3, state.SHINGLES_SCHEMA).to_pydict() == {"dkey": ["a", "c"],
                                                                                "shingles": [[1, 2], [4, 5, 6]]}
    assert state.read_bucket((path,), 2, state.SHINGLES_SCHEMA).num_rows == 0


def test_only_committed_waves_count_and_parameters_are_checked(tmp_path):
    bands = pa.table({"key": pa.array([1], pa.uint64()), "dkey": ["x"]})
    for wave in ("w1", "w2"):
        state.write(str(tmp_path), state.file_name(wave, "bands", 7), bands, PARAMS)
    (tmp_path / "w1-shingles-abcd.parquet").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("ignored")
    found = state.committed([(str(tmp_path), {"w1"})], "bands")
    assert found == {7: (str(tmp_path / "w1-bands-b007.parquet"),)}
    assert state.committed([(str(tmp_path), {"w1"})], "shingles") == {-1: (str(tmp_path / "w1-shingles-abcd.parquet"),)}
    state.check_params(found, PARAMS, "here")
    with pytest.raises(ValueError, match="parameters"):
        state.check_params(found, {**PARAMS, "rows": 9}, "here")
