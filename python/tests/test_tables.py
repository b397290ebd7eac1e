"""stp.Tables: built through the library, opened as the solver opens them, NumPy views equal to lookups."""

import random
import shutil

import numpy as np
import pytest

import stp


def entries_of(table, indices):
    """Entries decoded from the raw NumPy view as `decoding` says."""
    raw = table.raw
    if table.encoding == "nibble":
        return (raw[indices // 2] >> (4 * (indices % 2))) & 15
    return raw[indices]


def random_positions(n, cells, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        s = list(range(cells))
        rng.shuffle(s)
        try:
            stp.estimate(s, heuristic="manhattan")
            out.append(s)
        except ValueError:
            pass  # the unsolvable half
    return out


def test_build_reports_progress_and_keeps_valid_tables(tmp_path):
    seen = []
    t = stp.Tables.build("4-4", board="3x3", out=tmp_path, progress=seen.append)
    assert [x.pattern for x in t.tables] == [[1, 2, 3, 4], [5, 6, 7, 8]]
    assert {s["table"] for s in seen} == {"3x3-1-2-3-4.pdb", "3x3-5-6-7-8.pdb"}
    assert all(s["reached"] <= s["entries"] == 3024 for s in seen)
    seen.clear()
    stp.Tables.build("4-4", board="3x3", out=tmp_path, progress=seen.append)
    assert seen == []  # valid tables are kept, not rebuilt


def test_views_equal_lookups(tables_555):
    regular = stp.Tables.open(tables_555.folder, partition=["5-5-5"], lookups="regular")
    for s in random_positions(300, 16, seed=1):
        values = []
        for t in regular.tables:
            i = np.array([t.index(s)])
            assert entries_of(t, i)[0] == t.entry(s)
            values.append(t.value(s))
        assert sum(values) == regular.lookup(s)
        assert tables_555.lookup(s) >= regular.lookup(s)  # the reflected lookup takes the larger
        assert stp.solve(s, pdbs=tables_555.folder, partition=["5-5-5"], node_limit=1).root_h == tables_555.lookup(s)


def test_views_are_read_only_maps_with_their_header(tables_555):
    t = tables_555.tables[0]
    raw = t.raw
    assert raw.dtype == np.uint8 and not raw.flags.writeable and not raw.flags.owndata
    assert len(raw) == (t.entries + 1) // 2 and t.encoding == "nibble" and t.kind == "plain"
    with pytest.raises(ValueError):
        raw[0] = 1
    assert sum(t.histogram) == t.entries and len(t.histogram) == t.max_value + 1
    # Two lines for a student: the entries' histogram from the view.
    excess = np.stack([raw & 15, raw >> 4], axis=1).ravel()[: t.entries]
    assert np.bincount(excess).sum() == t.entries
    assert "Manhattan" in t.decoding and t.path.name == "4x4-1-2-5-6-10.pdb"


def test_open_files_or_folder(tables_3x3):
    files = [t.path for t in tables_3x3.tables]
    by_files = stp.Tables.open([str(f) for f in files])
    assert by_files.partitions == ["1,2,3,4/5,6,7,8"]
    by_folder = stp.Tables.open(tables_3x3.folder, board="3x3")
    assert by_folder.partitions == ["4-4"]
    s = [8, 6, 7, 2, 5, 4, 3, 0, 1]
    assert by_files.lookup(s) == by_folder.lookup(s) == tables_3x3.lookup(s)


def test_missing_corrupt_and_mismatched_tables(tables_3x3, tmp_path):
    with pytest.raises(stp.TableError, match="no complete set"):
        stp.Tables.open(tmp_path, board="3x3")
    with pytest.raises(stp.TableError, match="missing table"):
        stp.solve("1 0 2 3 4 5 6 7 8", heuristic="pdb", pdbs=tmp_path)
    with pytest.raises(stp.TableError, match="no such file"):
        stp.Tables.open(str(tmp_path / "nothing.pdb"))
    for t in tables_3x3.tables:
        shutil.copy(t.path, tmp_path / t.path.name)
    corrupt = tmp_path / "3x3-5-6-7-8.pdb"
    data = bytearray(corrupt.read_bytes())
    data[-1] ^= 0xFF
    corrupt.write_bytes(bytes(data))
    with pytest.raises(stp.TableError, match="3x3-5-6-7-8.pdb"):
        stp.Tables.open(tmp_path, board="3x3")
    with pytest.raises(stp.TableError, match="3x3-5-6-7-8.pdb"):
        stp.solve("1 0 2 3 4 5 6 7 8", heuristic="pdb", pdbs=tmp_path)
    # A table under another pattern's name.
    shutil.copy(tmp_path / "3x3-1-2-3-4.pdb", corrupt)
    with pytest.raises(stp.TableError, match="3x3-5-6-7-8.pdb"):
        stp.solve("1 0 2 3 4 5 6 7 8", heuristic="pdb", pdbs=tmp_path)
