"""Korf's 100 through stp.solve in a Python loop, one thread, beside the `solver` command on the same
tables, alternately, several times; prints each run and the medians.

    python python/bench/korf100.py --solver target/release/solver --pdbs pdbs --runs 5 [--fresh]

With --fresh each Python run is a new process too, as each run of the command is: both then start with the
tables mapped but not yet read (their first searches fault the pages in). Without it, the Python runs share
one process, whose tables are warm after the first run.

Search time is the sum of the solutions' `seconds` (search only, as the command's records count it); the
loop's wall time is printed too. Node counts must be the same on both sides (one thread is reproducible).
"""

import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import time

import stp

REPO = pathlib.Path(__file__).resolve().parents[2]
KORF = REPO / "tests" / "data" / "korf100.txt"


def lines():
    return [l for l in KORF.read_text().splitlines() if l.strip() and not l.startswith("#")]


def python_run(pdbs):
    start = time.perf_counter()
    sols = [stp.solve(l, pdbs=pdbs, partition=["7-8"], threads=1) for l in lines()]
    wall = time.perf_counter() - start
    assert all(s.matched for s in sols), "a length differs from Korf's"
    return sum(s.seconds for s in sols), sum(s.nodes for s in sols), wall


def cli_run(solver, pdbs):
    start = time.perf_counter()
    out = subprocess.run([solver, "solve", "-", "--pdbs", pdbs, "--partition", "7-8", "--threads", "1",
                          "--format", "json"], input=KORF.read_text(), capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    recs = [json.loads(l) for l in out.stdout.splitlines()]
    assert len(recs) == 100 and all(r["matched"] for r in recs)
    return sum(r["seconds"] for r in recs), sum(r["nodes"] for r in recs), wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--solver", default=str(REPO / "target" / "release" / "solver"))
    ap.add_argument("--pdbs", default=str(REPO / "pdbs"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--fresh", action="store_true", help="each Python run in a new process")
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.one:
        print(*python_run(a.pdbs))
        return
    py, cli = [], []
    for i in range(a.runs):
        if a.fresh:
            out = subprocess.run([sys.executable, __file__, "--one", "--pdbs", a.pdbs], capture_output=True,
                                 text=True, check=True).stdout.split()
            py.append((float(out[0]), int(out[1]), float(out[2])))
        else:
            py.append(python_run(a.pdbs))
        cli.append(cli_run(a.solver, a.pdbs))
        print(f"run {i + 1}: stp.solve {py[-1][0]:.4f} s search, {py[-1][2]:.4f} s loop; "
              f"solver {cli[-1][0]:.4f} s search, {cli[-1][2]:.4f} s process; nodes {py[-1][1]} vs {cli[-1][1]}")
    assert all(p[1] == c[1] for p, c in zip(py, cli)), "node counts differ"
    mp, mc = statistics.median(p[0] for p in py), statistics.median(c[0] for c in cli)
    print(f"median search time: stp.solve {mp:.4f} s, solver {mc:.4f} s, ratio {mp / mc:.3f}; "
          f"median stp loop {statistics.median(p[2] for p in py):.4f} s; nodes {py[0][1]} (same on both sides)")


if __name__ == "__main__":
    main()
