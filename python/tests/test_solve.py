"""stp.solve and stp.solve_many against the 8-puzzle's exact distances and Korf's known lengths."""

import random
import threading

import pytest

import stp
from conftest import korf


def replay(tiles, moves, cols):
    """The positions the moves (tiles slid) lead through, checked one by one: each tile must be next to the
    blank."""
    s = list(tiles)
    out = [list(s)]
    for t in moves:
        b, c = s.index(0), s.index(t)
        assert abs(b // cols - c // cols) + abs(b % cols - c % cols) == 1, f"tile {t} is not next to the blank"
        s[b], s[c] = t, 0
        out.append(list(s))
    return out


def sample(distances, n, seed):
    rng = random.Random(seed)
    return rng.sample(sorted(distances), n)


@pytest.mark.parametrize("algorithm,heuristic", [
    ("ida", "manhattan"), ("ida", "linear-conflict"), ("ida", "pdb"), ("astar", "linear-conflict"),
    ("astar", "pdb"), ("bfs", "auto"), ("bibfs", "auto"),
])
def test_3x3_lengths_are_the_fewest(distances_3x3, tables_3x3, algorithm, heuristic):
    for s in sample(distances_3x3, 40, seed=hash(algorithm + heuristic) % 1000):
        sol = stp.solve(list(s), algorithm=algorithm, heuristic=heuristic, pdbs=tables_3x3.folder)
        assert sol.status == "solved"
        assert sol.length == distances_3x3[s], (s, algorithm, heuristic)
        assert sol.boards() == replay(s, sol.moves, 3)
        assert sol.boards()[0] == list(s) and sol.boards()[-1] == list(range(9))
        assert len(sol.directions) == sol.length and sol.nodes >= sol.expanded


@pytest.mark.parametrize("algorithm", ["greedy", "dfs"])
def test_3x3_some_solution(distances_3x3, algorithm):
    for s in sample(distances_3x3, 20, seed=7):
        sol = stp.solve(list(s), algorithm=algorithm, heuristic="manhattan")
        assert sol.length >= distances_3x3[s] and sol.length % 2 == distances_3x3[s] % 2
        assert replay(s, sol.moves, 3)[-1] == list(range(9))


def test_blank_last_goal(distances_3x3):
    # Written for the goal 1 2 ... 8 0: the half turn and relabelling of a blank-first position.
    sol = stp.solve("1 2 3 4 5 6 0 7 8", goal="blank-last")
    assert sol.length == 2 and sol.moves == [7, 8] and sol.directions == "RR"
    assert sol.boards()[-1] == [1, 2, 3, 4, 5, 6, 7, 8, 0] and sol.goal == "blank-last"


def test_directions_are_the_blanks():
    sol = stp.solve([1, 0, 2, 3, 4, 5, 6, 7, 8])
    assert (sol.length, sol.moves, sol.directions) == (1, [1], "L")


def test_board_inferred_or_given():
    assert stp.solve("1 0 2 3").board == (2, 2)
    assert stp.solve("1 0 2 3 4 5", board="2x3").board == (2, 3)
    assert stp.solve("1 0 2 3 4 5", board=(3, 2)).board == (3, 2)
    with pytest.raises(ValueError, match="6 tiles are no square board: give --board RxC"):
        stp.solve("1 0 2 3 4 5")


def test_korf_with_small_tables(tables_555):
    for line in korf(45):
        sol = stp.solve(line, pdbs=tables_555.folder, partition=["5-5-5"], threads=1)
        assert sol.matched is True and sol.length == int(line.split()[1]), line
        assert sol.heuristic == "pdb 5-5-5 + reflection" and sol.id == line.split()[0]
        assert replay(sol.tiles, sol.moves, 4)[-1] == list(range(16))


def test_limits_give_status_or_raise():
    hard = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
    sol = stp.solve(hard, heuristic="manhattan", node_limit=2000)
    assert sol.status == "limit" and sol.length is None and "node limit" in sol.error
    assert sol.boards() == [sol.tiles]
    with pytest.raises(stp.LimitReached, match="node limit"):
        stp.solve(hard, heuristic="manhattan", node_limit=2000, raise_on_limit=True)
    assert stp.solve(hard, heuristic="manhattan", time_limit=0.05, threads=1).status == "limit"


@pytest.mark.parametrize("tiles,message", [
    ("1 2 3 4 5 6 7 8 9", "bad position: tile 9 is out of range"),
    ("1 1 2 3 4 5 6 7 8", "bad position"),
    ("1 0 2 3 4 5 6 8 7", "unsolvable"),
    ([1, 0, 2], "bad position: expected 16 tiles"),
    ("", "bad position: no tiles given"),
    ("a b c d", "bad position"),
])
def test_bad_positions_are_value_errors(tiles, message):
    with pytest.raises(ValueError, match=message):
        stp.solve(tiles)


def test_bad_options_are_value_errors():
    with pytest.raises(ValueError, match="heuristic"):
        stp.solve("1 0 2 3", heuristic="magic")
    with pytest.raises(ValueError, match="algorithm"):
        stp.solve("1 0 2 3", algorithm="quantum")
    with pytest.raises(ValueError, match="goal"):
        stp.solve("1 0 2 3", goal="middle")
    with pytest.raises(ValueError, match="board"):
        stp.solve("1 0 2 3", board="4by4")
    with pytest.raises(ValueError, match="threads"):
        stp.solve("1 0 2 3", threads=0)
    with pytest.raises(ValueError, match="time_limit"):
        stp.solve("1 0 2 3", time_limit=-1)


def test_solve_many_yields_every_instance(distances_3x3):
    positions = sample(distances_3x3, 60, seed=3)
    seen = []
    got = list(stp.solve_many([list(p) for p in positions], heuristic="linear-conflict", threads=2,
                              progress=lambda done, total: seen.append((done, total))))
    assert len(got) == 60 and seen[-1] == (60, 60)
    by_id = {int(s.id): s for s in got}
    for i, p in enumerate(positions, 1):
        assert by_id[i].length == distances_3x3[p] and by_id[i].tiles == list(p)
    with pytest.raises(ValueError, match="instance 2: bad position"):
        stp.solve_many(["1 0 2 3 4 5 6 7 8", "1 0 2"])


def test_solves_racing_in_threads_agree(distances_3x3):
    """Threads solving at once get the answers one thread gets, and Python runs meanwhile (the GIL is
    released during a search)."""
    positions = sample(distances_3x3, 30, seed=11)
    results = {}

    def work(k):
        results[k] = [stp.solve(list(p), heuristic="manhattan", threads=1).length for p in positions]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    want = [distances_3x3[p] for p in positions]
    assert all(results[k] == want for k in range(3))


def test_the_gil_is_released_while_searching():
    ticks = [0]
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks[0] += 1

    t = threading.Thread(target=count)
    t.start()
    stp.solve("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", heuristic="manhattan", threads=1, time_limit=0.5)
    stop.set()
    t.join()
    assert ticks[0] > 10000  # a held GIL would have left it near zero


def test_pictures():
    sol = stp.solve("8 6 7 2 5 4 3 0 1", heuristic="linear-conflict")
    page = sol._repr_html_()
    assert page.count("<svg") == sol.length + 1 and 'type="range"' in page and f"length {sol.length}" in page
    assert stp.Board([1, 0, 2, 3])._repr_svg_().startswith("<svg")
    assert "<svg" in sol.board_svg(sol.length)


def test_textbook_mode_counts_as_a_plain_textbook_ida():
    """The figure docs/textbook.md gives: a plain IDA* with Manhattan distance on this 3x3 position."""
    s = stp.solve("8 6 7 2 5 4 3 0 1", heuristic="manhattan", textbook=True)
    assert (s.length, s.nodes, s.expanded) == (27, 11597, 7061)
    with pytest.raises(ValueError, match="textbook"):
        stp.solve("8 6 7 2 5 4 3 0 1", heuristic="manhattan", textbook=True, threads=2)


def test_textbook_mode_counts_as_a_plain_textbook_astar():
    """The figure docs/textbook.md gives for A*: least f, then least h, then first pushed."""
    s = stp.solve("8 6 7 2 5 4 3 0 1", heuristic="manhattan", algorithm="astar", textbook=True)
    assert (s.length, s.nodes, s.expanded) == (27, 3977, 2509)
    with pytest.raises(ValueError, match="textbook"):
        stp.solve("8 6 7 2 5 4 3 0 1", heuristic="manhattan", algorithm="bfs", textbook=True)
