from typing import Any, Hashable, Optional, Protocol

class Puzzle(Protocol):
    def successors(self, state: Any) -> Any: ...
    def is_goal(self, state: Any) -> bool: ...

class SearchResult:
    length: Optional[int]
    moves: list[Any]
    states: list[Any]
    nodes: int
    expanded: int
    peak_stored: int
    seconds: float
    status: str
    algorithm: str

def bfs(puzzle: Puzzle, start: Hashable, *, time_limit: Optional[float] = None, node_limit: Optional[int] = None,
        memory_limit: Optional[int] = None, raise_on_limit: bool = False) -> SearchResult: ...
def bibfs(puzzle: Puzzle, start: Hashable, *, time_limit: Optional[float] = None, node_limit: Optional[int] = None,
          memory_limit: Optional[int] = None, raise_on_limit: bool = False) -> SearchResult: ...
def astar(puzzle: Puzzle, start: Hashable, *, time_limit: Optional[float] = None, node_limit: Optional[int] = None,
          memory_limit: Optional[int] = None, raise_on_limit: bool = False) -> SearchResult: ...
def ida(puzzle: Puzzle, start: Hashable, *, time_limit: Optional[float] = None, node_limit: Optional[int] = None,
        memory_limit: Optional[int] = None, raise_on_limit: bool = False) -> SearchResult: ...
def greedy(puzzle: Puzzle, start: Hashable, *, time_limit: Optional[float] = None, node_limit: Optional[int] = None,
           memory_limit: Optional[int] = None, raise_on_limit: bool = False) -> SearchResult: ...
def dfs(puzzle: Puzzle, start: Hashable, *, time_limit: Optional[float] = None, node_limit: Optional[int] = None,
        memory_limit: Optional[int] = None, raise_on_limit: bool = False) -> SearchResult: ...
