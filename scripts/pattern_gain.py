#!/usr/bin/env python3
"""How much each pattern table adds to Manhattan distance, on average: the measure used to choose partitions.

Reads `pdb-builder info --format json FILE...` on stdin and prints, per table, the mean of its values over
all placements of its tiles (every placement is equally likely in a uniformly random position) and that mean
minus the mean Manhattan distance of its tiles (each tile is equally likely on every cell). The second
figure, the gain, is what the tiles' interactions add; a partition's mean regular estimate is the board's
mean Manhattan distance plus the sum of its tables' gains, so partitions can be compared from their tables
alone, before any search.

    pdb-builder info --format json pdbs/5x5-*.pdb | python3 scripts/pattern_gain.py
"""
import json
import sys


def mean_manhattan(tile, rows, cols):
    """The mean distance of `tile` from its home cell (cell `tile`) over all cells."""
    r, c = divmod(tile, cols)
    return sum(abs(r - i // cols) + abs(c - i % cols) for i in range(rows * cols)) / (rows * cols)


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        info = json.loads(line)
        if info.get("kind", "plain") != "plain":
            # A blank-aware table's histogram counts an entry a region label, not a placement weighted by how
            # likely the blank is to be in each region: its mean is not a position's.
            print(f"skipped {info['file']}: {info['kind']} (its histogram is not over positions)")
            continue
        rows, cols = map(int, info["board"].split("x"))
        hist = info["histogram"]
        mean = sum(v * n for v, n in enumerate(hist)) / sum(hist)
        gain = mean - sum(mean_manhattan(t, rows, cols) for t in info["tiles"])
        tiles = ",".join(map(str, info["tiles"]))
        print(f"gain {gain:7.4f}  mean {mean:8.4f}  {info['board']} {tiles}")


if __name__ == "__main__":
    main()
