from typing import Any, Optional, Union

class Level:
    name: str
    colours: list[str]
    tubes: list[list[int]]
    line: str
    capacity: int
    def __init__(self, text: str, capacity: int = 4) -> None: ...
    def _repr_svg_(self) -> str: ...

def solve(level: Union[str, Level], capacity: Optional[int] = None, *, algorithm: str = "astar",
          heuristic: Optional[str] = None, rule: str = "standard", time_limit: Optional[float] = None,
          node_limit: Optional[int] = None) -> dict[str, Any]: ...
def hint(level: Union[str, Level], capacity: Optional[int] = None, *, history: Optional[str] = None,
         rule: str = "standard", time_limit: Optional[float] = None, node_limit: Optional[int] = None) -> dict[str, Any]: ...
