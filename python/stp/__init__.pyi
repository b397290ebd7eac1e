"""Type stubs for stp (the native part is stp._stp)."""

import os
from typing import Callable, Iterable, Iterator, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import search as search
from . import blocks as blocks
from . import watersort as watersort
from .draw import Board as Board

Tiles = Union[str, Sequence[int]]
BoardArg = Union[str, Tuple[int, int], None]
PathLike = Union[str, os.PathLike]

class TableError(Exception):
    """A pattern database is missing, corrupt or not for this board and pattern."""

class LimitReached(Exception):
    """A search stopped at its time or node limit (raised only when asked for)."""

class Solution:
    """A solved (or stopped) search, replayed and checked; shows its boards in a notebook."""
    length: Optional[int]
    moves: list[int]
    directions: str
    nodes: int
    expanded: int
    seconds: float
    algorithm: str
    heuristic: str
    status: str
    error: Optional[str]
    root_h: Optional[int]
    threads: int
    id: str
    tiles: list[int]
    board: Tuple[int, int]
    goal: str
    expected: Optional[int]
    matched: Optional[bool]
    def boards(self) -> list[list[int]]:
        """The replayed positions: the first the start, the last the goal."""
    def board_svg(self, step: int = 0) -> str: ...
    def _repr_html_(self) -> str: ...

class SolveMany(Iterator[Solution]):
    def __len__(self) -> int: ...
    def __next__(self) -> Solution: ...
    def close(self) -> None: ...

def solve(
    tiles: Tiles,
    *,
    board: BoardArg = None,
    goal: str = "blank-first",
    pdbs: Optional[PathLike] = None,
    heuristic: str = "auto",
    algorithm: str = "ida",
    threads: Optional[int] = None,
    time_limit: Optional[float] = None,
    node_limit: Optional[int] = None,
    partition: Optional[Sequence[str]] = None,
    raise_on_limit: bool = False,
    textbook: bool = False,
) -> Solution:
    """Solves one sliding-tile position; see help(stp.solve) for every argument."""

def solve_many(
    instances: Iterable[Tiles],
    *,
    board: BoardArg = None,
    goal: str = "blank-first",
    pdbs: Optional[PathLike] = None,
    heuristic: str = "auto",
    algorithm: str = "ida",
    threads: Optional[int] = None,
    time_limit: Optional[float] = None,
    node_limit: Optional[int] = None,
    partition: Optional[Sequence[str]] = None,
    progress: Optional[Callable[[int, int], object]] = None,
    raise_on_limit: bool = False,
) -> SolveMany:
    """Solves many positions on all cores, yielding each Solution as it finishes."""

def estimate(
    tiles: Tiles,
    *,
    board: BoardArg = None,
    goal: str = "blank-first",
    pdbs: Optional[PathLike] = None,
    heuristic: str = "auto",
    partition: Optional[Sequence[str]] = None,
) -> int:
    """The heuristic estimate of a position."""

class Table:
    """One table file: its header and a read-only NumPy view of its entries."""
    path: os.PathLike
    board: Tuple[int, int]
    pattern: list[int]
    encoding: str
    kind: str
    labels: int
    entries: int
    max_value: int
    histogram: list[int]
    builder: str
    payload_hash: int
    decoding: str
    raw: npt.NDArray[np.uint8]
    def index(self, tiles: Tiles) -> int: ...
    def entry(self, tiles: Tiles) -> int: ...
    def value(self, tiles: Tiles) -> int: ...

class Tables:
    """Pattern databases: built, opened, looked up."""
    tables: list[Table]
    folder: os.PathLike
    partitions: list[str]
    heuristic: str
    @staticmethod
    def build(
        partition: str,
        board: str = "4x4",
        *,
        out: PathLike,
        progress: Optional[Callable[[dict], object]] = None,
        threads: Optional[int] = None,
    ) -> "Tables": ...
    @staticmethod
    def open(
        folder_or_files: Union[PathLike, Sequence[PathLike]],
        *,
        partition: Optional[Sequence[str]] = None,
        board: str = "4x4",
        lookups: str = "reflected",
    ) -> "Tables": ...
    def lookup(self, tiles: Tiles) -> int: ...
    def __len__(self) -> int: ...
    def __getitem__(self, i: int) -> Table: ...
