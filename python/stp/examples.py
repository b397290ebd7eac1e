"""A sliding-tile puzzle written in plain Python for ``stp.search``: what a course's own puzzle looks like.

States are tuples of the cells row by row, 0 the blank; the goal has the blank first (0 1 2 ... 8), as the
rest of the package. Moves are the tiles slid, as ``stp.solve`` reports them.
"""

import operator


class SlidingPuzzle:
    """The (rows x cols) sliding-tile puzzle, blank-first goal, Manhattan distance as its heuristic."""

    def __init__(self, rows=3, cols=3):
        self.rows, self.cols = rows, cols
        n = rows * cols
        # The cells next to each cell, and the Manhattan distance of tile t standing on cell c.
        self.neighbours = [
            [c + d for d, ok in ((-cols, c >= cols), (cols, c < n - cols), (-1, c % cols > 0),
                                 (1, c % cols < cols - 1)) if ok]
            for c in range(n)
        ]
        # by_cell[c][t]: the Manhattan distance of tile t standing on cell c (0 for the blank).
        self.by_cell = [[abs(t // cols - c // cols) + abs(t % cols - c % cols) if t else 0 for t in range(n)]
                        for c in range(n)]
        self.goal = tuple(range(n))

    def successors(self, state):
        blank = state.index(0)
        for c in self.neighbours[blank]:
            cells = list(state)
            cells[blank], cells[c] = cells[c], 0
            yield state[c], tuple(cells)

    def is_goal(self, state):
        return state == self.goal

    def heuristic(self, state):
        # Each cell's row of distances indexed by its tile, summed: no Python-level loop.
        return sum(map(operator.getitem, self.by_cell, state))

    def goal_state(self):
        return self.goal
