#!/usr/bin/env bash
# Korf's 100 with the 7-8 tables on one thread, two solver binaries side by side: whole-process time of each
# run (start, map tables, solve 100, exit), the two alternating A B A B ... so that drift hits both, and the
# node counts compared instance by instance (they must be identical).
# Usage: scripts/korf-side-by-side.sh NEW_SOLVER OLD_SOLVER [PDBS_DIR]   (RUNS=9 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
new=$1 old=$2 pdbs=${3:-pdbs} runs=${RUNS:-9}
args=(batch tests/data/korf100.txt --pdbs "$pdbs" --heuristic pdb --partition 7-8 --threads 1 --quiet)
for side in new old; do
  bin=${!side}
  rm -f "/tmp/korf-sbs-$side.jsonl"
  "$bin" "${args[@]}" -o "/tmp/korf-sbs-$side.jsonl" >/dev/null 2>&1
done
python3 - <<'PY'
import json
rows = {s: {r["id"]: (r["nodes"], r["expanded"], r["length"]) for r in map(json.loads, open(f"/tmp/korf-sbs-{s}.jsonl"))} for s in ("new", "old")}
assert rows["new"] == rows["old"], "node counts differ"
print(f"nodes identical on {len(rows['new'])} instances: {sum(v[0] for v in rows['new'].values())} generated")
PY
for i in $(seq "$runs"); do
  for side in new old; do
    bin=${!side}
    s=$(date +%s.%N)
    "$bin" "${args[@]}" -o "/tmp/korf-sbs-run.jsonl" >/dev/null 2>&1
    e=$(date +%s.%N)
    rm -f /tmp/korf-sbs-run.jsonl /tmp/korf-sbs-run.jsonl.checkpoints
    echo "$side $(echo "$e - $s" | bc)"
  done
done | python3 -c '
import sys, statistics as st
t = {"new": [], "old": []}
for line in sys.stdin:
    side, s = line.split(); t[side].append(float(s))
ratios = [a / b for a, b in zip(t["new"], t["old"])]
new, old = st.median(t["new"]), st.median(t["old"])
print(f"whole process, median of {len(ratios)} pairs: new {new:.3f} s, old {old:.3f} s, new/old {st.median(ratios):.3f}")'
