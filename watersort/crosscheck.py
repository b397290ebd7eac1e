#!/usr/bin/env python3
"""Decides each level of a level file (standard pour rule) by a plain exhaustive search written apart from
the Rust solver: positions as sorted tuples of strings, every legal pour, no pruning, no heuristic. Prints
`name solvable|unsolvable|undecided positions` a line. Used to cross-check `watersort`'s proofs of
unsolvability on levels far too big for the tests' reference search (BENCHMARKS.md, water sort).

    python3 watersort/crosscheck.py LEVELS.txt [--capacity 4] [--limit 3000000]
"""
import argparse


def decide(tubes, capacity, limit):
    start = tuple(sorted(tubes))
    seen = {start}
    stack = [start]
    while stack:
        s = stack.pop()
        if all(t == "" or (len(t) == capacity and t == t[0] * capacity) for t in s):
            return "solvable", len(seen)
        for i, a in enumerate(s):
            if not a:
                continue
            colour = a[-1]
            run = len(a) - len(a.rstrip(colour))
            for j, b in enumerate(s):
                if i == j or len(b) == capacity or (b and b[-1] != colour):
                    continue
                moved = min(run, capacity - len(b))
                t = list(s)
                t[i], t[j] = a[:-moved], b + colour * moved
                n = tuple(sorted(t))
                if n not in seen:
                    if len(seen) >= limit:
                        return "undecided", len(seen)
                    seen.add(n)
                    stack.append(n)
    return "unsolvable", len(seen)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("levels")
    ap.add_argument("--capacity", type=int, default=4)
    ap.add_argument("--limit", type=int, default=3_000_000, help="positions stored before giving up")
    args = ap.parse_args()
    for line in open(args.levels):
        line = line.split("#")[0].strip()
        if not line:
            continue
        name, rest = line.split(":", 1)
        tubes = ["" if t == "-" else t for t in rest.split()]
        print(name, *decide(tubes, args.capacity, args.limit), flush=True)


if __name__ == "__main__":
    main()
