"""What the tests share: the 8-puzzle's exact distances from a breadth-first search written here, small
tables built once through stp.Tables.build, and Korf's instances."""

import collections
import os
import pathlib

import pytest

import stp

REPO = pathlib.Path(__file__).resolve().parents[2]


def neighbours(rows, cols):
    n = rows * cols
    return [[c2 for c2 in range(n) if abs(c2 // cols - c // cols) + abs(c2 % cols - c % cols) == 1] for c in range(n)]


@pytest.fixture(scope="session")
def distances_3x3():
    """Every 3x3 position's fewest moves to the goal 0 1 2 ... 8: a breadth-first search from the goal over
    all 181,440 positions (moves are reversible, so distance from the goal is distance to it)."""
    near = neighbours(3, 3)
    goal = tuple(range(9))
    dist = {goal: 0}
    queue = collections.deque([goal])
    while queue:
        s = queue.popleft()
        b = s.index(0)
        for c in near[b]:
            cells = list(s)
            cells[b], cells[c] = cells[c], 0
            t = tuple(cells)
            if t not in dist:
                dist[t] = dist[s] + 1
                queue.append(t)
    assert len(dist) == 181440
    return dist


@pytest.fixture(scope="session")
def tables_3x3(tmp_path_factory):
    return stp.Tables.build("4-4", board="3x3", out=tmp_path_factory.mktemp("pdbs3x3"))


@pytest.fixture(scope="session")
def tables_555(tmp_path_factory):
    """The 4x4 5-5-5 tables (three of 524,160 entries; about a second to build)."""
    return stp.Tables.build("5-5-5", out=tmp_path_factory.mktemp("pdbs555"))


def korf(max_length):
    """Korf's 100 lines (`id length tiles`) of at most `max_length` moves."""
    lines = (REPO / "tests" / "data" / "korf100.txt").read_text().splitlines()
    return [l for l in lines if l.strip() and not l.startswith("#") and int(l.split()[1]) <= max_length]


def in_ci():
    return os.environ.get("CI") == "true"
