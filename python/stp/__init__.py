"""stp: optimal sliding-tile puzzle solving with pattern databases, from Python.

The searches run in the project's Rust libraries (the same code as the ``solver`` command), with the GIL
released; Ctrl-C stops them within a fraction of a second.

- ``stp.solve(tiles, ...)`` solves one position (IDA* over pattern databases by default) and returns an
  ``stp.Solution``, replayed and checked; ``stp.solve_many(instances, ...)`` solves many on all cores.
- ``stp.search`` runs BFS, bidirectional BFS, A*, IDA*, greedy best-first and depth-first search on any
  Python object with ``successors(state)`` and ``is_goal(state)``.
- ``stp.Tables`` builds and opens pattern databases and shows their entries as NumPy arrays.
- ``stp.watersort`` solves water sort levels with the fewest pours and gives hints.
- ``stp.blocks`` solves sliding-block puzzles (Klotski 华容道, Rush Hour) in the fewest moves of a metric.
- ``stp.Board(tiles)`` draws a position in a notebook; solutions draw themselves and can be stepped through.
"""

from . import _stp
from ._stp import LimitReached, Solution, TableError, Table, Tables, estimate, solve, solve_many
from .draw import Board, install as _install_drawings
from . import blocks, search, watersort

_install_drawings(Solution)

__all__ = [
    "Board", "LimitReached", "blocks", "Solution", "TableError", "Table", "Tables", "estimate", "search", "solve",
    "solve_many", "watersort",
]
