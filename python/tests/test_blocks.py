"""stp.blocks: the command's record shapes; every solution replayed here, on a model of the board written
in this test, and lengths on small levels checked against a breadth-first search of that model."""

from collections import deque

import pytest

import stp

DIRS = [(-1, 0), (1, 0), (0, -1), (0, 1)]


class Board:
    """A level's picture as cells: walls and pieces (letter -> [row, col, height, width, axis])."""

    def __init__(self, picture):
        self.rows, self.cols = picture["rows"], picture["cols"]
        self.walls = {tuple(w) for w in picture["walls"]}
        self.pieces = {p["letter"]: [p["row"], p["col"], p["height"], p["width"], p["axis"]]
                       for p in picture["pieces"]}
        self.goal = picture["goal"]

    def cells(self, letter, r, c):
        _, _, h, w, _ = self.pieces[letter]
        return {(r + i, c + j) for i in range(h) for j in range(w)}

    def fits(self, letter, r, c):
        """Whether `letter` can stand with its top-left at (r, c), the others where they are."""
        _, _, h, w, _ = self.pieces[letter]
        if r < 0 or c < 0 or r + h > self.rows or c + w > self.cols:
            return False
        taken = set(self.walls)
        for other, (orow, ocol, *_rest) in self.pieces.items():
            if other != letter:
                taken |= self.cells(other, orow, ocol)
        return not (self.cells(letter, r, c) & taken)

    def steps(self, letter, r, c):
        axis = self.pieces[letter][4]
        for dr, dc in DIRS:
            if (axis == "horizontal" and dr) or (axis == "vertical" and dc):
                continue
            if self.fits(letter, r + dr, c + dc):
                yield dr, dc

    def destinations(self, letter, metric):
        """Where `letter` can go in one move of `metric`."""
        r0, c0 = self.pieces[letter][:2]
        if metric == "unit":
            return {(r0 + dr, c0 + dc) for dr, dc in self.steps(letter, r0, c0)}
        if metric == "line":
            found = set()
            for dr, dc in self.steps(letter, r0, c0):
                r, c = r0 + dr, c0 + dc
                while self.fits(letter, r, c):
                    found.add((r, c))
                    r, c = r + dr, c + dc
            return found
        seen, todo = {(r0, c0)}, deque([(r0, c0)])
        while todo:
            r, c = todo.popleft()
            for dr, dc in self.steps(letter, r, c):
                if (r + dr, c + dc) not in seen:
                    seen.add((r + dr, c + dc))
                    todo.append((r + dr, c + dc))
        return seen - {(r0, c0)}

    def solved(self):
        letter, place = self.goal.split("@")
        return tuple(self.pieces[letter][:2]) == tuple(int(x) for x in place.split(","))

    def key(self):
        """The position, with pieces of one shape and axis interchangeable (the goal piece its own)."""
        target = self.goal.split("@")[0]
        return tuple(sorted((l == target, p[2], p[3], p[4], p[0], p[1]) for l, p in self.pieces.items()))


def replay(level, record, metric):
    board = Board(stp.blocks.Level(level).picture)
    for move in record["moves"]:
        to = tuple(move["to"])
        assert to in board.destinations(move["piece"], metric), move
        board.pieces[move["piece"]][:2] = list(to)
    assert board.solved()


def bfs(level, metric):
    board = Board(stp.blocks.Level(level).picture)
    start = {l: p[:] for l, p in board.pieces.items()}
    seen, todo = {board.key()}, deque([(start, 0)])
    while todo:
        pieces, d = todo.popleft()
        board.pieces = {l: p[:] for l, p in pieces.items()}
        if board.solved():
            return d
        for letter in pieces:
            board.pieces = {l: p[:] for l, p in pieces.items()}
            for to in board.destinations(letter, metric):
                board.pieces = {l: p[:] for l, p in pieces.items()}
                board.pieces[letter][:2] = list(to)
                if board.key() not in seen:
                    seen.add(board.key())
                    todo.append((board.pieces, d + 1))
    return None


def test_heng_dao_li_ma_in_the_published_81_moves_and_each_solution_replays():
    r = stp.blocks.solve("heng-dao-li-ma")
    assert r["status"] == "solved" and r["length"] == 81 == len(r["moves"])
    replay("heng-dao-li-ma", r, "piece")
    assert r["moves"][-1] == {"piece": "B", "to": [3, 1]}


SMALL = ["AB./C../... A@2,2", "AA./B.C/BDD A@2,0", "a.b/a.b/cc. B@1,2", "A#./B../.CC A@2,0"]


@pytest.mark.parametrize("level", SMALL)
@pytest.mark.parametrize("metric", ["piece", "line", "unit"])
def test_small_levels_in_the_fewest_moves_of_each_metric(level, metric):
    truth = bfs(level, metric)
    for algorithm in ["astar", "bfs"]:
        r = stp.blocks.solve(level, metric=metric, algorithm=algorithm)
        if truth is None:
            assert r["status"] == "unsolvable"
            continue
        assert r["status"] == "solved" and r["length"] == truth, (level, metric, algorithm, r)
        replay(level, r, metric)


def test_levels_explore_and_bad_input():
    names = [l["name"] for l in stp.blocks.levels()]
    assert "heng-dao-li-ma" in names and any(n.startswith("rush-hour") for n in names)
    space = stp.blocks.explore("heng-dao-li-ma")
    assert space["reachable"] == sum(space["by_distance"]) and space["nearest_solved"] == 81
    assert "<svg" in stp.blocks.Level("heng-dao-li-ma")._repr_svg_()
    for bad in ["no-such-level", "AB/BA A@1,1", "ABBC/ABBC/DEEF/DGHF/I..J Z@3,1"]:
        with pytest.raises(ValueError, match="bad level"):
            stp.blocks.solve(bad)
    with pytest.raises(ValueError, match="metric"):
        stp.blocks.solve("heng-dao-li-ma", metric="pieces")
