#!/usr/bin/env python3
"""Drives `watersort play` as a player would, on generated levels seen as mystery games show them (every
unit below a tube's top hidden), and counts the sessions that end sorted. Written apart from the Rust code:
the pours are replayed here on the true level (standard rule), and each colour asked for is read from it.

usage: play-sessions.py WATERSORT COLOURS EMPTY COUNT SEED [play options...]
"""
import subprocess
import sys


def pour(tubes, cap, a, b):
    """The standard rule: as much of a's top run as fits onto b (empty or the same colour on top)."""
    src, dst = tubes[a], tubes[b]
    assert src and (not dst or dst[-1] == src[-1]) and len(dst) < cap, (tubes, a, b)
    run = len(src) - len(src.rstrip(src[-1]))
    n = min(run, cap - len(dst))
    tubes[b] = dst + src[-n:]
    tubes[a] = src[:-n]


def session(watersort, name, truth, cap, extra):
    hidden = " ".join(t[-1:].rjust(len(t), "?") if t else "-" for t in truth)
    child = subprocess.Popen([watersort, "play", f"{name}: {hidden}", "--capacity", str(cap), *extra],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    real, before, sorted_end = list(truth), list(truth), False
    for line in child.stdout:
        if line.startswith("pour "):
            a, b = (int(x) - 1 for x in line.split(": ")[1].split(" -> "))
            before = list(real)
            pour(real, cap, a, b)
        elif line.startswith("tube ") and "is uncovered" in line:
            tube = int(line.split(",")[0].split()[1]) - 1
            height = int(line.split("unit ")[1].split()[0]) - 1
            child.stdin.write(before[tube][height] + "\n")
            child.stdin.flush()
        elif line.startswith("sorted in "):
            sorted_end = True
    child.wait()
    done = all(not t or (len(t) == cap and len(set(t)) == 1) for t in real)
    return child.returncode == 0 and sorted_end and done


def main():
    watersort, colours, empty, count, seed, *extra = sys.argv[1:]
    levels = subprocess.run([watersort, "generate", "--colors", colours, "--empty", empty, "--count", count,
                             "--seed", seed], capture_output=True, text=True, check=True).stdout.split("\n")
    ok = total = 0
    for line in filter(None, levels):
        name, body = line.split(": ")
        truth = [("" if t == "-" else t) for t in body.split()]
        total += 1
        ok += session(watersort, name, truth, 4, extra)
    print(f"{ok} of {total} sessions ended sorted ({colours} colours, {empty} empty tubes, seed {seed})")


main()
