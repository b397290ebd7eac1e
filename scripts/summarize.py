"""Summaries for scripts/bench.sh: medians over runs, exact node counts, length checks against known optima."""
import json
import os
import statistics
import sys


def column(path, k):
    """id -> the number in column k of each line (`#` comments): in an instance file column 1 is the
    optimal length, in korf_felner_24puzzle50_nodes.txt column 2 is Korf and Felner's 6-6-6-6 count."""
    out = {}
    for line in open(path):
        words = line.split("#")[0].split()
        if len(words) > k:
            out[words[0]] = int(words[k])
    return out


def known(path):
    """id -> optimal length from an instance file in Korf's format."""
    return column(path, 1)


def load(path):
    return [json.loads(line) for line in open(path) if line.strip()]


def runs(instances, *files):
    opt = known(instances)
    totals = []
    for f in files:
        recs = load(f)
        wrong = [r["id"] for r in recs if r["length"] != opt.get(r["id"])]
        if wrong:
            sys.exit(f"{f}: lengths differ from the known optimum for {wrong}")
        totals.append((sum(r["seconds"] for r in recs), recs))
    secs = [t for t, _ in totals]
    recs = totals[0][1]
    gen = sum(r["nodes"] for r in recs)
    exp = sum(r["expanded"] for r in recs)
    med = statistics.median(secs)
    print(f"instances {len(recs)}, all lengths optimal; search seconds median {med:.3f} (runs: {', '.join(f'{s:.3f}' for s in secs)})")
    print(f"generated {gen:,} (mean {gen / len(recs):,.0f}), expanded {exp:,} (mean {exp / len(recs):,.0f}); {gen / med / 1e6:.1f} M generated/s")
    for r in sorted(recs, key=lambda r: -r["seconds"])[:5]:
        print(f"  slowest: #{r['id']} length {r['length']} generated {r['nodes']:,} {r['seconds']:.3f} s")


def median(*files):
    vals = [float(open(f).read().split()[-1]) for f in files]
    print(f"median {statistics.median(vals):.3f} s (runs: {', '.join(f'{v:.3f}' for v in vals)})")


def slowest(path, n):
    for r in sorted(load(path), key=lambda r: -r["nodes"])[: int(n)]:
        print(r["id"])


def speedup(*args):
    i = args.index("--")
    one, two = args[:i], args[i + 1 :]
    by_id = lambda files: {r["id"]: [] for r in load(files[0])}
    t1, t2 = by_id(one), by_id(two)
    for files, acc in ((one, t1), (two, t2)):
        for f in files:
            for r in load(f):
                acc[r["id"]].append(r["seconds"])
    print("id   1-thread s  2-thread s  speedup")
    m1 = m2 = 0.0
    for k in t1:
        a, b = statistics.median(t1[k]), statistics.median(t2[k])
        m1, m2 = m1 + a, m2 + b
        print(f"{k:>4} {a:10.3f} {b:11.3f} {a / b:8.2f}")
    print(f"total {m1:9.3f} {m2:11.3f} {m1 / m2:8.2f}")
    # Runs i of both lists were made back to back, so their ratio cancels most of the host's drift.
    pairs = [sum(r["seconds"] for r in load(a)) / sum(r["seconds"] for r in load(b)) for a, b in zip(one, two)]
    print(f"median of the per-run ratios {statistics.median(pairs):.2f} ({', '.join(f'{p:.2f}' for p in pairs)})")


def textbook(path):
    """A markdown table of one solve a line: instance, algorithm, heuristic, peak RSS (KiB), board, record."""
    print("| instance | algorithm | heuristic | length | expanded | stored at peak | search s | peak RSS MiB |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for line in open(path):
        inst, alg, heur, rss, _board, rec = line.rstrip("\n").split("\t", 5)
        r = json.loads(rec) if rec.startswith("{") else {}
        length = r.get("length") or (r.get("error") or "failed").split(":")[0]
        stored = r.get("peak_stored")
        print(
            f"| {inst} | {alg} | {heur} | {length} | {r.get('expanded', '-')} | "
            f"{'-' if stored is None else stored} | {r.get('seconds', 0):.3f} | {int(rss) / 1024:.0f} |"
        )


def easiest(counts, instances):
    """The instance lines, easiest first by the published count."""
    pub = column(counts, 2)
    lines = [l for l in open(instances) if l.split("#")[0].split()]
    for line in sorted(lines, key=lambda l: pub[l.split()[0]]):
        print(line, end="")


def published(counts, instances, *files):
    """A markdown table of batch records against the published counts, in the order of those counts."""
    pub, opt = column(counts, 2), known(instances)
    recs = {r["id"]: r for f in files for r in load(f)}
    print("| id | length | published 6-6-6-6 generated | ours | ratio | time | rate | status |")
    print("|---|---|---|---|---|---|---|---|")
    solved = [r for r in recs.values() if r["status"] == "solved"]
    for k in sorted(recs, key=lambda k: pub[k]):
        r = recs[k]
        if r["status"] == "solved" and r["length"] != opt[k]:
            sys.exit(f"#{k}: length {r['length']}, the published optimum is {opt[k]}")
        done = r["status"] == "solved"
        length, ratio = (r["length"], f"{r['nodes'] / pub[k]:.2f}") if done else ("-", "-")
        rate = r["nodes"] / r["seconds"] / 1e6 if r["seconds"] else 0
        print(
            f"| {k} | {length} | {pub[k]:,} | {r['nodes']:,} | {ratio} | {r['seconds']:.1f} s "
            f"| {rate:.1f} M/s | {r['status']} |"
        )
    ours, theirs = sum(r["nodes"] for r in solved), sum(pub[r["id"]] for r in solved)
    secs = sum(r["seconds"] for r in recs.values())
    print()
    print(
        f"{len(recs)} run, {len(solved)} solved, every solved length the published optimum; solved: {ours:,} "
        f"generated against {theirs:,} published (ratio {ours / max(theirs, 1):.2f}); {secs:,.0f} s of search in all"
    )


def through(path):
    """id -> {bound: (generated nodes, seconds) through it}, from a batch's checkpoints (`OUT.checkpoints`): a row's
    `bound` is the next iteration to run, so its count is through the bound 2 below. A batch run without
    `--checkpoint-after` keeps none: then nothing, and a note on stderr."""
    out = {}
    if not os.path.exists(path):
        print(f"note: {path} not found (run the batch with --checkpoint-after 0): no counts through a bound", file=sys.stderr)
        return out
    for r in load(path):
        out.setdefault(r["id"], {})[r["bound"] - 2] = (r["nodes"], r["seconds"])
    return out


def compare(new, old):
    """Two batches of the same instances with two heuristics (run with `--checkpoint-after 0`): per instance,
    the nodes of each where both solved it, and the nodes through the deepest IDA* bound both finished (those
    iterations find no solution, so their counts are exact and do not depend on the search's order). Where
    the input gave a known length, the batch checked it (`matched`); the two runs' lengths must agree."""
    a, b = {r["id"]: r for r in load(new)}, {r["id"]: r for r in load(old)}
    ta, tb = through(new + ".checkpoints"), through(old + ".checkpoints")
    print("| id | length | new: status, nodes, s | old: status, nodes, s | new / old, solved | through bound | new / old, through it |")
    print("|---|---|---|---|---|---|---|")
    solved, deepest = [], []  # ratios where both solved; ((nodes, s), (nodes, s)) through each deepest bound
    for k in sorted(set(a) & set(b), key=lambda k: int(k) if k.isdigit() else k):
        x, y = a[k], b[k]
        for r in (x, y):
            if r.get("matched") is False:
                sys.exit(f"#{k}: length {r['length']}, the known optimum is {r['expected']}")
        both = x["status"] == y["status"] == "solved"
        if both and x["length"] != y["length"]:
            sys.exit(f"#{k}: the two runs solved it in {x['length']} and {y['length']} moves")
        ratio = x["nodes"] / y["nodes"] if both else None
        common = sorted(set(ta.get(k, {})) & set(tb.get(k, {})))
        deep = common[-1] if common else None
        it = None
        if deep is not None:
            deepest.append((ta[k][deep], tb[k][deep]))
            it = ta[k][deep][0] / tb[k][deep][0]
        if ratio is not None:
            solved.append(ratio)
        cell = lambda r: f"{r['status']}, {r['nodes']:,}, {r['seconds']:.0f}"
        fmt = lambda v: "-" if v is None else f"{v:.3f}"
        print(f"| {k} | {x.get('length') or '-'} | {cell(x)} | {cell(y)} | {fmt(ratio)} | {deep or '-'} | {fmt(it)} |")
    mean = lambda v: f"{statistics.mean(v):.3f} (geometric {statistics.geometric_mean(v):.3f}) over {len(v)}" if v else "none"
    print()
    print(f"mean new / old: solved by both {mean(solved)}; through the deepest bound both finished {mean([x[0] / y[0] for x, y in deepest])}")
    if deepest:
        (nx, sx), (ny, sy) = ([sum(v) for v in zip(*side)] for side in zip(*deepest))
        print(
            f"summed through those bounds: new {nx:,} nodes in {sx:,.0f} s, old {ny:,} in {sy:,.0f} s; "
            f"new / old {nx / ny:.3f} of the nodes, {sx / sy:.3f} of the time"
        )


if __name__ == "__main__":
    commands = {f.__name__: f for f in (runs, median, slowest, speedup, textbook, easiest, published, compare)}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(f"usage: summarize.py COMMAND ARGS...; commands: {', '.join(commands)} (see each one's docstring)")
    commands[sys.argv[1]](*sys.argv[2:])
