#!/usr/bin/env python3
"""How well one split IDA* iteration spreads over W workers, from the node counts of its work items.

    scripts/makespan.py RECORDS... [--workers 16,64,256]

RECORDS are the `solver work` record files of one iteration (JSON lines; each record's `instance` is
`bound B prefix P`). Items are dealt to array tasks as `--shard I/W` deals them: item k to task k mod W, so a
task's load is the sum of its items' nodes and the iteration ends with the most loaded task (the makespan).
Efficiency is the ideal (all nodes / W) over that makespan. Beside it, "queue": each item in file order to
the first free worker, as workers that claim items (`work --claim`) take them.

Coarser cuts are simulated from the same records: an item deeper than d is merged into its ancestor at
depth d (its prefix cut short), which is exactly the item a cut there would have made (its subtree), less the
few nodes of the levels between (counted in the cut, not in any item). The last row is the split as made.
"""

import argparse
import heapq
import json
import sys
from collections import OrderedDict


def read_items(paths):
    """(prefix tuple, generated nodes) of every exhausted or solved item, in item order."""
    items = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                r = json.loads(line)
                if r["status"] not in ("exhausted", "solved"):
                    sys.exit(f"{path}: item {r['id']} did not finish ({r['status']})")
                words = r["instance"].split(" prefix ", 1)
                prefix = tuple(words[1].split()) if len(words) == 2 else ()
                items[int(r["id"])] = (prefix, r["nodes"])
    return [items[k] for k in sorted(items)]


def coarser(items, depth):
    """The items a cut at `depth` would have made, in order: each fine item merged into its ancestor."""
    merged = OrderedDict()
    for prefix, nodes in items:
        key = prefix[:depth]
        merged[key] = merged.get(key, 0) + nodes
    return list(merged.values())


def static_makespan(loads, workers):
    """Item k to worker k mod W, as `--shard k/W` deals them."""
    tasks = [0] * workers
    for k, n in enumerate(loads):
        tasks[k % workers] += n
    return max(tasks)


def greedy_makespan(loads, workers):
    """Each item, in order, to the worker that is free first."""
    heap = [0] * min(workers, max(1, len(loads)))
    for n in loads:
        heapq.heapreplace(heap, heap[0] + n)
    return max(heap)


def planned_makespan(loads, predicted, workers):
    """Items dealt by predicted size, largest first, each to the shard with the least predicted load (LPT);
    the makespan with the actual sizes."""
    planned = [0] * workers
    actual = [0] * workers
    heap = [(0, w) for w in range(workers)]
    for k in sorted(range(len(loads)), key=lambda k: -predicted[k]):
        load, w = heapq.heappop(heap)
        planned[w] = load + predicted[k]
        actual[w] += loads[k]
        heapq.heappush(heap, (planned[w], w))
    return max(actual)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("records", nargs="+")
    p.add_argument("--workers", default="16,64,256")
    p.add_argument(
        "--previous",
        nargs="+",
        help="the records of the same items at the previous bound: also show shards planned by those sizes, "
        "and a queue in their order, largest first (`split --plan` without --shards, then `work --claim`)",
    )
    args = p.parse_args()
    items = read_items(args.records)
    if not items:
        sys.exit("no items")
    workers = [int(w) for w in args.workers.split(",")]
    depth = max(len(prefix) for prefix, _ in items)
    total = sum(n for _, n in items)
    print(f"{len(items)} items at depths up to {depth}, {total} generated nodes in the items")
    print("| items | depth cut | " + " | ".join(f"W={w} shards | W={w} queue" for w in workers) + " |")
    print("|---|---|" + "---|---|" * len(workers))
    for d in range(1, depth + 1):
        loads = coarser(items, d)
        if len(loads) < 2:
            continue
        cells = []
        for w in workers:
            ideal = total / w
            cells.append(f"{ideal / static_makespan(loads, w):.2f}")
            cells.append(f"{ideal / greedy_makespan(loads, w):.2f}")
        print(f"| {len(loads)} | {d} | " + " | ".join(cells) + " |")
    if args.previous:
        before = dict(read_items(args.previous))
        if sorted(before) != sorted(prefix for prefix, _ in items):
            sys.exit("--previous: not the same items (split both iterations with the same --items)")
        loads, predicted = [n for _, n in items], [before[prefix] for prefix, _ in items]
        cells = [f"{total / w / planned_makespan(loads, predicted, w):.2f}" for w in workers]
        print("shards planned by the previous iteration's sizes (largest first to the least loaded): " +
              ", ".join(f"W={w} {c}" for w, c in zip(workers, cells)))
        ordered = [loads[k] for k in sorted(range(len(loads)), key=lambda k: -predicted[k])]
        cells = [f"{total / w / greedy_makespan(ordered, w):.2f}" for w in workers]
        print("a queue in the previous iteration's sizes, largest first: " +
              ", ".join(f"W={w} {c}" for w, c in zip(workers, cells)))


if __name__ == "__main__":
    main()
