"""Ctrl-C during a long call: KeyboardInterrupt soon after, the search stopped, no thread left.

"Soon" is a generous deadline (a loaded two-core machine can hold a process off the CPU for seconds); each long
call also carries a time and memory limit far beyond it, so a lost interrupt fails the test instead of running
for hours or filling the memory.
"""

import os
import signal
import threading
import time

import pytest

import stp
from stp.examples import SlidingPuzzle

# Korf and Felner's first 24-puzzle (95 moves): days with Manhattan distance alone, which an idle machine spends
# 300 M nodes a second on without nearing (a 57-move 15-puzzle it solves in 0.4 s on two threads).
HARD = "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13"
# For the search written in Python: a 4x4 it cannot finish (breadth-first, 1 GiB at most).
HARD_4X4 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
SOON = 10.0  # seconds from the interrupt's timer to KeyboardInterrupt
LIMITS = dict(time_limit=120.0)  # what ends a long call whose interrupt was lost


def os_threads():
    return len(os.listdir("/proc/self/task"))


def interrupt_after(seconds):
    threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT)).start()


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_a_long_solve(threads):
    # The same solver first (5x5, as HARD): its thread pool is made once, and kept, before the threads are counted.
    stp.solve(" ".join(map(str, [1, 0] + list(range(2, 25)))), heuristic="manhattan", threads=threads)
    before = os_threads()
    interrupt_after(0.5)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        stp.solve(HARD, heuristic="manhattan", threads=threads, **LIMITS)
    assert time.monotonic() - start < SOON
    time.sleep(0.1)  # the timer thread ends
    assert os_threads() <= before  # (threads of earlier calls, such as a table check, may have ended)
    assert stp.solve("1 0 2 3 4 5 6 7 8").length == 1  # and the next call works


def test_ctrl_c_stops_a_python_puzzle_search():
    p = SlidingPuzzle(4, 4)
    interrupt_after(0.5)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        stp.search.bfs(p, tuple(int(w) for w in HARD_4X4.split()), memory_limit=1 << 30, raise_on_limit=True, **LIMITS)
    assert time.monotonic() - start < SOON


def test_ctrl_c_stops_a_batch():
    interrupt_after(0.5)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        for _ in stp.solve_many([HARD] * 4, heuristic="manhattan", threads=2, **LIMITS):
            pass
    assert time.monotonic() - start < SOON
