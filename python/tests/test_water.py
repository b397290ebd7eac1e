"""stp.watersort: the command's record shapes, answers checked by replaying the pours here."""

import pytest

import stp

LEVEL = "demo: abab baba - -"
RECORD_KEYS = {"id", "line", "instance", "status", "length", "moves", "nodes", "expanded", "seconds", "threads",
               "lanes", "algorithm", "heuristic", "root_h", "iterations", "peak_stored", "tables", "expected",
               "matched", "error", "finished", "settings", "next_bound", "bounds"}


def pour(tubes, move, capacity=4):
    """One pour by the standard rule: as much of the source's top run as fits."""
    a, b = (int(x) - 1 for x in move.replace(" ", "").split("->"))
    src, dst = tubes[a], tubes[b]
    assert src and (not dst or dst[-1] == src[-1]) and len(dst) < capacity
    while src and len(dst) < capacity and (not dst or dst[-1] == src[-1]):
        dst.append(src.pop())


def test_solve_records_and_replays():
    for algorithm in ["astar", "bfs", "ida"]:
        r = stp.watersort.solve(LEVEL, algorithm=algorithm)
        assert set(r) == RECORD_KEYS and r["status"] == "solved" and r["length"] == 7
        tubes = [list(t) for t in stp.watersort.Level(LEVEL).tubes]
        for m in r["moves"].split():
            pour(tubes, m)
        assert all(len(set(t)) <= 1 and len(t) in (0, 4) for t in tubes)
    assert stp.watersort.solve(LEVEL, algorithm="greedy")["length"] >= 7


def test_hint_and_errors():
    h = stp.watersort.hint(LEVEL)
    assert h["sortable"] == "yes" and h["pours_left"] == 7 and h["next"]
    after = stp.watersort.hint(LEVEL, history="1->3")
    assert after["pours_left"] == 6
    with pytest.raises(ValueError, match="over the capacity"):
        stp.watersort.solve("bad: aaaaa -")
    with pytest.raises(ValueError, match="history"):
        stp.watersort.hint(LEVEL, history="9->1")
    assert stp.watersort.Level(LEVEL)._repr_svg_().count("<title>") == 8
