"""Sliding blocks (Klotski 华容道, Rush Hour): the fewest moves in three metrics, as the ``blocks`` command
gives them.

A level is a built-in level's name (``"heng-dao-li-ma"``, 横刀立马), the text form (rows of piece letters,
``.`` empty, ``#`` a wall, ``/`` between rows, then the goal as ``PIECE@ROW,COL``, the goal place of that
piece's top-left cell: ``"ABBC/ABBC/DEEF/DGHF/I..J B@3,1"``; a lowercase piece is locked to its long axis, as
Rush Hour's cars are), or the JSON form. ``metric`` is what one move is: ``"piece"`` (one piece any
distance along any path: Klotski's count, the default), ``"line"`` (one piece in a straight line: Rush
Hour's) or ``"unit"`` (one piece one cell).
"""

import json

from . import _stp
from .draw import blocks_svg

__all__ = ["Level", "explore", "levels", "solve"]


class Level:
    """A sliding-block level, read and checked; draws itself in a notebook."""

    def __init__(self, text):
        picture, self.text = _stp.blocks_level(str(text))
        self.picture = json.loads(picture)

    def __repr__(self):
        return f"Level({self.text!r})"

    def __str__(self):
        return self.text

    def _repr_svg_(self):
        return blocks_svg(self.picture)


def _text(level):
    return level.text if isinstance(level, Level) else str(level)


def levels():
    """The built-in levels, each a dict with name, chinese, english and level (the text form)."""
    return [dict(zip(("name", "chinese", "english", "level"), row)) for row in _stp.blocks_levels()]


def solve(level, *, metric="piece", algorithm="astar", heuristic=None, time_limit=None, node_limit=None):
    """Solves a level in ``metric``; returns the record ``blocks solve --format json`` prints, as a dict.

    algorithm: "astar" (default), "ida", "bfs", "bibfs" (a whole-arrangement goal only): the fewest moves;
        "greedy", "dfs": some solution. heuristic: "blocking" (default) or "zero".
    The record's ``moves`` is a list of ``{"piece": "B", "to": [row, col]}``, the piece's top-left cell after
    each move; ``length`` counts them in the metric; ``status`` is "solved", "unsolvable" or "limit".
    Raises ValueError for a bad level or option.
    """
    return json.loads(_stp.blocks_solve(_text(level), metric, algorithm, heuristic, time_limit, node_limit))


def explore(level, *, metric="piece", max_states=50_000_000):
    """Every position reachable from the level's start: a dict with reachable, solved, nearest_solved (the
    fewest moves that solve it), by_distance (positions at each distance) and farthest (the largest)."""
    return json.loads(_stp.blocks_explore(_text(level), metric, max_states))
