"""Water sort: levels solved with the fewest pours, and hints, as the ``watersort`` command gives them.

A level is text as the command reads it: ``name: tubes...``, each tube its colours bottom to top as letters
and ``-`` for an empty tube (e.g. ``"demo: abab baba - -"``), or the JSON form. ``capacity`` is the units a
tube holds (default 4).
"""

import json

from . import _stp
from .draw import water_svg

__all__ = ["Level", "hint", "solve"]


class Level:
    """A water sort level, read and checked; draws itself in a notebook."""

    def __init__(self, text, capacity=4):
        self.name, self.colours, self.tubes, self.line = _stp.water_level(str(text), capacity)
        self.capacity = capacity

    def __repr__(self):
        return f"Level({self.line!r}, capacity={self.capacity})"

    def __str__(self):
        return self.line

    def _repr_svg_(self):
        return water_svg(self.colours, self.tubes, self.capacity)


def _text(level):
    return level.line if isinstance(level, Level) else str(level)


def _capacity(level, capacity):
    return level.capacity if isinstance(level, Level) and capacity is None else (capacity or 4)


def solve(level, capacity=None, *, algorithm="astar", heuristic=None, rule="standard", time_limit=None,
          node_limit=None):
    """Solves a level; returns the record ``watersort solve --format json`` prints, as a dict.

    level: level text or a Level. capacity: units a tube holds (default 4, or the Level's).
    algorithm: "astar" (default), "ida", "bfs" (the fewest pours) or "greedy", "dfs" (some solution).
    heuristic: "bottoms" (the default for the optimal algorithms), "guide" (greedy and dfs), or another of
        the command's names. rule: "standard", "whole-run" or "one-unit".
    The record's keys: id, line, tiles (the level), status ("solved", "unsolvable", "limit"), length (pours),
    moves ("1->3 2->1 ...", tubes from 1), nodes, expanded, seconds, algorithm, heuristic, peak_stored, error.
    Raises ValueError for a bad level or option.
    """
    return json.loads(_stp.water_solve(_text(level), _capacity(level, capacity), algorithm, heuristic, rule,
                                       time_limit, node_limit))


def hint(level, capacity=None, *, history=None, rule="standard", time_limit=None, node_limit=None):
    """The next pour, as ``watersort hint --format json`` answers: a dict with position, sortable ("yes",
    "no", "unknown"), pours_left, next (e.g. "1->3") and pours (each legal pour with what it leads_to).

    history: pours already made from the level, e.g. "1->3 2->1"; the hint is for the position they reach.
    """
    return json.loads(_stp.water_hint(_text(level), _capacity(level, capacity), history, rule, time_limit,
                                      node_limit))
