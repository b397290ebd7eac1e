"""The classic search algorithms on any puzzle written in Python.

A puzzle is any object with

- ``successors(state)``: an iterable of ``(move, next_state)`` pairs, always in the same order;
- ``is_goal(state)``: whether ``state`` is solved;
- optionally ``heuristic(state)``: an admissible estimate of the moves left, a whole number (A*, IDA* and
  greedy need it);
- optionally ``goal_state()``: the one goal, for bidirectional BFS (whose moves must all be undoable).

States are any hashable Python values (tuples are cheapest); moves any values comparable with ``==``.

Each function returns a ``SearchResult`` with ``length``, ``moves``, ``states`` (start to goal), ``nodes``
(successors generated), ``expanded`` (states whose successors were generated), ``peak_stored``, ``seconds``
and ``status`` (``"solved"``, ``"unsolvable"`` or ``"limit"``).

What a call costs per node: one Python call of ``successors`` for each expanded state and, for A*, IDA* and
greedy, one call of ``heuristic`` for each generated state; every state stored is hashed once by Python, and
compared with ``==`` when another state of the same hash is looked up. These Python calls are nearly all
of the time (a few microseconds a node on an 8-puzzle written with tuples); the search itself, in Rust, adds
well under a microsecond. The GIL is held (the puzzle is Python), and Ctrl-C stops the search.

The limits: ``time_limit`` (seconds), ``node_limit`` (expanded nodes), ``memory_limit`` (bytes of stored
states, an estimate); a search they stop returns status ``"limit"``, or raises ``stp.LimitReached`` with
``raise_on_limit=True``.
"""

from ._stp import SearchResult, search_run as _run

__all__ = ["SearchResult", "astar", "bfs", "bibfs", "dfs", "greedy", "ida"]


def _algorithm(name, summary):
    def search(puzzle, start, *, time_limit=None, node_limit=None, memory_limit=None, raise_on_limit=False):
        return _run(name, puzzle, start, time_limit=time_limit, node_limit=node_limit,
                    memory_limit=memory_limit, raise_on_limit=raise_on_limit)

    search.__name__ = search.__qualname__ = name
    search.__doc__ = f"""{summary}

    puzzle: an object with successors(state) and is_goal(state) (see the module's help for the rest).
    start: the state to search from (hashable).
    time_limit, node_limit, memory_limit: seconds, expanded nodes, bytes of stored states.
    raise_on_limit: raise stp.LimitReached instead of returning status "limit".
    Returns a SearchResult; exceptions raised by the puzzle's methods propagate.
    """
    return search


bfs = _algorithm("bfs", "Breadth-first search: the fewest moves; stores every state it reaches.")
bibfs = _algorithm("bibfs", "Bidirectional breadth-first search from the start and from goal_state(): the "
                   "fewest moves, far fewer states than bfs; needs goal_state() and undoable moves.")
astar = _algorithm("astar", "A* with the puzzle's heuristic(state): the fewest moves when the heuristic is "
                   "admissible; stores the states it reaches.")
ida = _algorithm("ida", "Iterative-deepening A*: the fewest moves with memory linear in the depth; visits "
                 "states again in each iteration.")
greedy = _algorithm("greedy", "Greedy best-first search by heuristic(state): some solution fast, not "
                    "necessarily the shortest.")
dfs = _algorithm("dfs", "Depth-first search with a table of seen states, most promising successor first: "
                 "some solution, not necessarily the shortest.")
