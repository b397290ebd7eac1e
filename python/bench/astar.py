"""stp.search.astar on the 8-puzzle written in Python (stp.examples.SlidingPuzzle): generated nodes a
second, and how much of the time the puzzle's own Python methods take, timed alone on the same states.

    python python/bench/astar.py --runs 5
"""

import argparse
import statistics
import time

import stp
from stp.examples import SlidingPuzzle

# Hard 8-puzzle positions (blank-first goal): the two of 31 moves, and one of 28.
STARTS = [(8, 6, 7, 2, 5, 4, 3, 0, 1), (6, 4, 7, 8, 5, 0, 3, 2, 1), (8, 7, 6, 0, 4, 1, 2, 5, 3)]


def python_only(p, start, expansions):
    """The Python part of a search alone: successors and heuristic on states reached breadth-first."""
    frontier, seen, calls = [start], {start}, 0
    t = time.perf_counter()
    while calls < expansions and frontier:
        nxt = []
        for s in frontier:
            for _, n in p.successors(s):
                p.heuristic(n)
                hash(n)
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
            calls += 1
            if calls >= expansions:
                break
        frontier = nxt
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    p = SlidingPuzzle(3, 3)
    rates, shares = [], []
    for i in range(a.runs):
        nodes = expanded = 0
        seconds = 0.0
        for s in STARTS:
            r = stp.search.astar(p, s)
            nodes, expanded, seconds = nodes + r.nodes, expanded + r.expanded, seconds + r.seconds
        alone = sum(python_only(p, s, expanded // len(STARTS)) for s in STARTS)
        rates.append(nodes / seconds)
        shares.append(alone / seconds)
        print(f"run {i + 1}: {nodes} generated, {expanded} expanded in {seconds:.3f} s: {nodes / seconds:,.0f} "
              f"generated/s; the puzzle's Python alone {alone:.3f} s ({alone / seconds:.0%})")
    print(f"median: {statistics.median(rates):,.0f} generated nodes/s; the puzzle's own Python "
          f"{statistics.median(shares):.0%} of the search time")


if __name__ == "__main__":
    main()
