"""Throughput of stp.solve from one Python thread against two, each solving 4x4 instances on one search
thread with the 7-8 tables (the GIL is released during a search, so two threads should nearly double it).

    python python/bench/threads.py --pdbs pdbs --runs 5
"""

import argparse
import pathlib
import statistics
import threading
import time

import stp

REPO = pathlib.Path(__file__).resolve().parents[2]


def work(lines, pdbs):
    for l in lines:
        assert stp.solve(l, pdbs=pdbs, partition=["7-8"], threads=1).matched


def rate(lines, pdbs, k):
    """Instances a second with `k` Python threads, each solving all of `lines`."""
    threads = [threading.Thread(target=work, args=(lines, pdbs)) for _ in range(k)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return k * len(lines) / (time.perf_counter() - start)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pdbs", default=str(REPO / "pdbs"))
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    text = (REPO / "tests" / "data" / "korf100.txt").read_text().splitlines()
    lines = [l for l in text if l.strip() and not l.startswith("#")]
    work(lines[:1], a.pdbs)
    one, two = [], []
    for i in range(a.runs):
        one.append(rate(lines, a.pdbs, 1))
        two.append(rate(lines, a.pdbs, 2))
        print(f"run {i + 1}: one thread {one[-1]:.1f} instances/s, two threads {two[-1]:.1f}")
    m1, m2 = statistics.median(one), statistics.median(two)
    print(f"median: one thread {m1:.1f}/s, two threads {m2:.1f}/s, speed-up {m2 / m1:.2f}x")


if __name__ == "__main__":
    main()
