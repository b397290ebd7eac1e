#!/usr/bin/env bash
# Measurements behind the water sort section of BENCHMARKS.md. Run from the workspace root after
# `cargo build --release -p watersort-cli`; one search at a time, one thread. Output in $OUT (default
# /tmp/watersort-bench): level files, JSON records, and a summary on stdout.
set -euo pipefail
W=${W:-target/release/watersort}
OUT=${OUT:-/tmp/watersort-bench}
mkdir -p "$OUT"

summary() { # file.jsonl label: solved/unsolvable/stopped counts, median and worst seconds and expansions
  python3 - "$1" "$2" <<'PY'
import json, statistics, sys
rs = [json.loads(l) for l in open(sys.argv[1])]
by = lambda k: sorted(r[k] for r in rs)
out = {o: sum(r["status"] == o for r in rs) for o in ("solved", "unsolvable", "limit")}
s, e, g = by("seconds"), by("expanded"), by("nodes")
print(f"{sys.argv[2]:<28} n={len(rs)} {out} median {statistics.median(s):.4f} s worst {s[-1]:.4f} s "
      f"median {statistics.median(e):.0f} expanded worst {e[-1]} sum {sum(e)} generated {sum(g)} total {sum(s):.3f} s")
PY
}

case "${1:-all}" in
game | all)
  $W generate --colors 12 --empty 2 --count 1000 --seed 1 > "$OUT/game.txt"
  for i in 1 2 3 4 5; do /usr/bin/time -f "game 1000 levels: %e s wall %U s user %M KB" $W solve "$OUT/game.txt" > "$OUT/game.out"; done
  grep -c "(optimal)" "$OUT/game.out"
  ;;&
scale | all)
  for spec in "12 2 4" "20 2 4" "30 2 4" "12 2 6" "12 2 8" "12 1 4"; do
    set -- $spec
    name="k$1-e$2-c$3"
    $W generate --colors "$1" --empty "$2" --capacity "$3" --count 10 --seed 1 --attempts 100000 > "$OUT/$name.txt" || true
    $W solve "$OUT/$name.txt" --capacity "$3" --format json --time-limit 60 --memory-limit 4G > "$OUT/$name.jsonl" || true
    summary "$OUT/$name.jsonl" "A* $name"
    $W solve "$OUT/$name.txt" --capacity "$3" --format json --algorithm dfs --time-limit 60 > "$OUT/$name-greedy.jsonl" || true
    summary "$OUT/$name-greedy.jsonl" "greedy $name"
  done
  ;;&
reverse | all)
  # Levels made backwards: ten at 30 and at 50 colours; greedy and A*, three runs each, and how much of the
  # sorted start they keep (adjacent units of one colour) beside solvable uniform draws.
  for k in 30 50; do
    $W generate --method reverse --colors $k --empty 2 --count 10 --seed 1 > "$OUT/rev-k$k.txt"
    for i in 1 2 3; do
      $W solve "$OUT/rev-k$k.txt" --algorithm greedy --format json > "$OUT/rev-k$k-greedy.jsonl"
      summary "$OUT/rev-k$k-greedy.jsonl" "greedy reverse k$k run $i"
      /usr/bin/time -f "A* reverse k$k run $i: %e s wall %M KB" \
        $W solve "$OUT/rev-k$k.txt" --format json --time-limit 60 --memory-limit 4G > "$OUT/rev-k$k.jsonl"
      summary "$OUT/rev-k$k.jsonl" "A* reverse k$k run $i"
    done
  done
  $W generate --colors 30 --empty 2 --count 10 --seed 1 --attempts 100000 > "$OUT/uni-k30.txt"
  python3 - "$OUT/rev-k30.txt" "$OUT/uni-k30.txt" <<'PY'
import sys
for f in sys.argv[1:]:
    tubes = [t for l in open(f) for t in l.split(":")[1].split() if t != "-"]
    pairs = sum(a == b for t in tubes for a, b in zip(t, t[1:]))
    print(f"{f}: {pairs / 10:.1f} adjacent same-colour pairs a level")
PY
  ;;&
table | all)
  $W generate --colors 8 --empty 2 --count 30 --seed 1 > "$OUT/k8.txt"
  while read -r label args; do
    $W solve "$OUT/k8.txt" --format json --time-limit 5 $args > "$OUT/table.jsonl" || true
    summary "$OUT/table.jsonl" "$label"
  done <<'T'
bfs --algorithm bfs
astar-zero --heuristic zero
astar-boundaries --heuristic boundaries
astar-runs --heuristic runs
astar-bottoms
astar-no-prune-finished --no-prune-finished
astar-no-prune-pure-to-empty --no-prune-pure-to-empty
astar-no-prune-forced --no-prune-forced
astar-no-pruning --no-prune-finished --no-prune-pure-to-empty --no-prune-forced
astar-no-symmetry --no-symmetry
bfs-no-symmetry --algorithm bfs --no-symmetry
ida-bottoms --algorithm ida
greedy-guide --algorithm dfs
T
  ;;&
k50 | all)
  # Ten solvable 50-colour levels: nearly every draw is unsolvable, and generate proves each one so.
  /usr/bin/time -f "generate k50: %e s wall %U s user %M KB" \
    $W generate --colors 50 --empty 2 --count 10 --seed 1 --attempts 100000 > "$OUT/k50-e2-c4.txt"
  $W solve "$OUT/k50-e2-c4.txt" --format json --time-limit 60 --memory-limit 4G > "$OUT/k50.jsonl" || true
  summary "$OUT/k50.jsonl" "A* k50-e2-c4"
  $W solve "$OUT/k50-e2-c4.txt" --format json --algorithm dfs --time-limit 60 > "$OUT/k50-greedy.jsonl" || true
  summary "$OUT/k50-greedy.jsonl" "greedy k50-e2-c4"
  ;;
esac

# Raw uniform shuffles, not filtered for solvability (K=50 and one empty tube at K=12: nearly all
# unsolvable, so these measure the proofs). Python's own seeded shuffle, so the files are reproducible too.
if [ "${1:-all}" = raw ] || [ "${1:-all}" = all ]; then
  python3 - "$OUT" <<'PY'
import random, string, sys
random.seed(1)
for k, e, name in ((50, 2, "raw-k50-e2"), (12, 1, "raw-k12-e1")):
    letters = (string.ascii_lowercase + string.ascii_uppercase)[:k]
    with open(f"{sys.argv[1]}/{name}.txt", "w") as f:
        for i in range(10):
            units = [c for c in letters for _ in range(4)]
            random.shuffle(units)
            tubes = ["".join(units[j:j + 4]) for j in range(0, len(units), 4)] + ["-"] * e
            f.write(f"{name}-{i + 1}: {' '.join(tubes)}\n")
PY
  $W solve "$OUT/raw-k12-e1.txt" --format json --time-limit 60 --memory-limit 4G > "$OUT/raw-k12-e1.jsonl" || true
  summary "$OUT/raw-k12-e1.jsonl" "A* raw-k12-e1"
  $W solve "$OUT/raw-k50-e2.txt" --format json --algorithm dfs --time-limit 60 > "$OUT/raw-k50-greedy.jsonl" || true
  summary "$OUT/raw-k50-greedy.jsonl" "greedy raw-k50-e2"
  $W solve "$OUT/raw-k50-e2.txt" --format json --time-limit 60 --memory-limit 4G > "$OUT/raw-k50.jsonl" || true
  summary "$OUT/raw-k50.jsonl" "A* raw-k50-e2"
fi

# The same comparison on the ten 20-colour levels of `scale`, where A* works harder (run `scale` first).
if [ "${1:-all}" = table20 ] || [ "${1:-all}" = all ]; then
  while read -r label args; do
    $W solve "$OUT/k20-e2-c4.txt" --format json --time-limit 20 --memory-limit 4G $args > "$OUT/table20.jsonl" || true
    summary "$OUT/table20.jsonl" "k20 $label"
  done <<'T'
astar-runs --heuristic runs
astar-bottoms
astar-no-prune-forced --no-prune-forced
astar-no-pruning --no-prune-finished --no-prune-pure-to-empty --no-prune-forced
astar-no-symmetry --no-symmetry
ida-bottoms --algorithm ida
greedy-guide --algorithm dfs
greedy-bottoms --algorithm dfs --heuristic bottoms
T
fi

# Cross-check of the proofs on levels too big for the tests' reference search: 16 raw 30-colour shuffles
# (most unsolvable) decided by `watersort` and by watersort/crosscheck.py, an exhaustive search written
# apart from the solver. Slow: the Python search takes about 20 minutes.
if [ "${1:-all}" = crosscheck ]; then
  python3 - "$OUT" <<'PY'
import random, string, sys
random.seed(11)
letters = string.ascii_lowercase + string.ascii_uppercase[:4]
with open(f"{sys.argv[1]}/raw-k30-e2.txt", "w") as f:
    for i in range(16):
        units = [c for c in letters for _ in range(4)]
        random.shuffle(units)
        tubes = ["".join(units[j:j + 4]) for j in range(0, len(units), 4)] + ["-", "-"]
        f.write(f"x{i}: {' '.join(tubes)}\n")
PY
  $W solve "$OUT/raw-k30-e2.txt" --algorithm dfs --format json \
    | python3 -c 'import json, sys; [print(r["id"], r["status"].replace("solved", "solvable")) for r in map(json.loads, sys.stdin)]' \
    > "$OUT/crosscheck-watersort.txt" || true
  python3 "$(dirname "$0")/crosscheck.py" "$OUT/raw-k30-e2.txt" | cut -d' ' -f1,2 > "$OUT/crosscheck-python.txt"
  diff "$OUT/crosscheck-watersort.txt" "$OUT/crosscheck-python.txt" && echo "crosscheck: the same verdict on all $(wc -l < "$OUT/crosscheck-python.txt") levels"
fi

# How the solvable fraction of uniform shuffles (2 empty tubes, capacity 4) falls with the colours: the
# draws `generate` needed for ten levels, each run cut at $FRACTION_SECONDS (default 1200) on one core.
if [ "${1:-all}" = fraction ]; then
  for k in 20 30 31 32 34 36 40 50; do
    timeout "${FRACTION_SECONDS:-1200}" taskset -c 0 $W generate --colors "$k" --empty 2 --count 10 --seed 1 \
      --attempts 1000000 > "$OUT/fraction-k$k.txt" 2> "$OUT/fraction-k$k.log" || true
    echo "K=$k: $(wc -l < "$OUT/fraction-k$k.txt") levels; $(tail -n 1 "$OUT/fraction-k$k.log")"
  done
fi
