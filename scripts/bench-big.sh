#!/usr/bin/env bash
# Big boards (6x6 to 10x10): the fast reduction solver (`solve --algorithm fast`) against the simple one it is
# measured with (`--algorithm fast-simple`: each tile walked home along a fixed path), over COUNT random positions a
# size (`solver generate --seed SEED`). Prints, a size and method: mean length, mean gap to the lower bound
# (Manhattan distance + linear conflicts), mean and max solve time (the solver's own `seconds`, without start-up),
# and the largest wall time of a whole solver process (start-up included). Every solution is replayed by the solver before it is printed.
#
#   cargo build --release -p solver && scripts/bench-big.sh            # COUNT=100 SEED=1
set -euo pipefail
SOLVER=${SOLVER:-${CARGO_TARGET_DIR:-target}/release/solver}
COUNT=${COUNT:-100}
SEED=${SEED:-1}
SIZES=${SIZES:-"6x6 7x7 8x8 9x9 10x10"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for size in $SIZES; do
  "$SOLVER" generate --board "$size" --count "$COUNT" --seed "$SEED" | tail -n +2 > "$tmp/positions"
  for method in fast fast-simple; do
    : > "$tmp/$method.jsonl"
    : > "$tmp/$method.wall"
    while read -r line; do
      start=$(date +%s.%N)
      "$SOLVER" solve --algorithm "$method" --board "$size" --format json --moves dirs "$line" >> "$tmp/$method.jsonl"
      end=$(date +%s.%N)
      echo "$start $end" >> "$tmp/$method.wall"
    done < "$tmp/positions"
    python3 - "$size" "$method" "$tmp/$method.jsonl" "$tmp/$method.wall" <<'PY'
import json, sys
size, method, path, wall = sys.argv[1:]
rs = [json.loads(l) for l in open(path)]
walls = [float(b) - float(a) for a, b in (l.split() for l in open(wall))]
n = len(rs)
mean = lambda xs: sum(xs) / len(xs)
assert all(r["lower_bound"] <= r["length"] for r in rs)
print(f"{size:>6} {method:<11} n={n}  mean length {mean([r['length'] for r in rs]):8.1f}  "
      f"mean MTM {mean([r['mtm'] for r in rs]):7.1f}  mean bound {mean([r['lower_bound'] for r in rs]):6.1f}  "
      f"mean gap {mean([r['gap_at_most'] for r in rs]):7.1f}  "
      f"solve mean {mean([r['seconds'] for r in rs])*1000:6.1f} ms max {max(r['seconds'] for r in rs)*1000:6.1f} ms  "
      f"command max {max(walls)*1000:6.1f} ms")
PY
    rm -f "$tmp/$method.wall"
  done
done
