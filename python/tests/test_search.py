"""stp.search's algorithms on puzzles written in Python, against the puzzle's own breadth-first search."""

import pytest

import stp
from stp.examples import SlidingPuzzle
from test_solve import sample

OPTIMAL = ["bfs", "bibfs", "astar", "ida"]


def check_path(puzzle, start, r):
    assert r.states[0] == start and puzzle.is_goal(r.states[-1]) and len(r.states) == r.length + 1
    for s, m, t in zip(r.states, r.moves, r.states[1:]):
        assert (m, t) in list(puzzle.successors(s))


@pytest.mark.parametrize("name", OPTIMAL + ["greedy", "dfs"])
def test_every_algorithm_on_the_python_8_puzzle(distances_3x3, name):
    p = SlidingPuzzle(3, 3)
    for s in sample(distances_3x3, 3 if name in ("bfs", "dfs") else 20, seed=5):
        r = getattr(stp.search, name)(p, s)
        assert r.status == "solved" and r.algorithm == name
        check_path(p, s, r)
        if name in OPTIMAL:
            assert r.length == distances_3x3[s], (name, s)
        else:
            assert r.length >= distances_3x3[s]
        assert r.nodes >= r.expanded > 0 or r.length == 0


class Jugs:
    """Two jugs of 3 and 5 litres, to measure 4: a puzzle with no single goal state."""

    def successors(self, s):
        a, b = s
        pour_ab, pour_ba = min(a, 5 - b), min(b, 3 - a)
        for move, t in (("fill 3", (3, b)), ("fill 5", (a, 5)), ("empty 3", (0, b)), ("empty 5", (a, 0)),
                        ("3 to 5", (a - pour_ab, b + pour_ab)), ("5 to 3", (a + pour_ba, b - pour_ba))):
            if t != s:
                yield move, t

    def is_goal(self, s):
        return 4 in s


def test_a_puzzle_without_heuristic_or_goal():
    r = stp.search.bfs(Jugs(), (0, 0))
    assert r.length == 6 and r.states[-1][1] == 4
    with pytest.raises(ValueError, match="goal_state"):
        stp.search.bibfs(Jugs(), (0, 0))
    with pytest.raises(ValueError, match="heuristic"):
        stp.search.astar(Jugs(), (0, 0))


class Closed(Jugs):
    def is_goal(self, s):
        return s == (9, 9)


def test_unsolvable_and_limits():
    r = stp.search.bfs(Closed(), (0, 0))
    assert r.status == "unsolvable" and r.length is None and r.states == [(0, 0)]
    p = SlidingPuzzle(3, 3)
    hard = (8, 6, 7, 2, 5, 4, 3, 0, 1)
    assert stp.search.bfs(p, hard, node_limit=100).status == "limit"
    with pytest.raises(stp.LimitReached):
        stp.search.bfs(p, hard, node_limit=100, raise_on_limit=True)


class Broken(SlidingPuzzle):
    def heuristic(self, state):
        raise ZeroDivisionError("the puzzle's own bug")


def test_the_puzzles_exceptions_propagate():
    with pytest.raises(ZeroDivisionError, match="own bug"):
        stp.search.astar(Broken(), (1, 0, 2, 3, 4, 5, 6, 7, 8))
    with pytest.raises(ValueError, match="successors"):
        stp.search.bfs(type("P", (), {"is_goal": lambda self, s: False})(), 0)
