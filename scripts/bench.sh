#!/usr/bin/env bash
# Reproduces the figures in BENCHMARKS.md. Release build, tables in $PDBS (default pdbs/, `make pdbs`).
# Usage: scripts/bench.sh [korf|lc|threads|lanes|hard|all]   (default: korf lc threads; `hard` takes minutes)
# Times are medians of $RUNS runs; node counts are exact (one thread).
set -euo pipefail
cd "$(dirname "$0")/.."
PDBS=${PDBS:-pdbs}
RUNS=${RUNS:-5}
BIN=target/release
KORF=tests/data/korf100.txt
HARD=tests/data/hard70s.txt
cargo build --release --workspace -q
summ=scripts/summarize.py

korf() {
  echo "== Korf 100, 7-8 PDB + reflection, 1 thread (search time; $RUNS runs)"
  for i in $(seq "$RUNS"); do
    $BIN/solver solve - --pdbs "$PDBS" --heuristic pdb --threads 1 --format json < $KORF > /tmp/bench-korf-$i.jsonl
  done
  python3 $summ runs $KORF /tmp/bench-korf-*.jsonl
  echo "== whole process: start, map tables, solve 100, exit (warm page cache; $RUNS runs)"
  for i in $(seq "$RUNS"); do
    /usr/bin/time -f "%e" -o /tmp/bench-proc-$i.txt $BIN/solver solve - --pdbs "$PDBS" --heuristic pdb --threads 1 < $KORF > /dev/null
  done
  python3 $summ median /tmp/bench-proc-*.txt
}

lc() {
  echo "== linear conflict, 1 thread, Korf #1-#12 ($RUNS runs)"
  grep -v '^#' $KORF | head -12 > /tmp/bench-k12.txt
  for i in $(seq "$RUNS"); do
    $BIN/solver solve - --heuristic linear-conflict --threads 1 --format json < /tmp/bench-k12.txt > /tmp/bench-lc-$i.jsonl
  done
  python3 $summ runs $KORF /tmp/bench-lc-*.jsonl
}

threads() {
  echo "== 1 vs 2 threads on the 11 slowest Korf instances for 7-8 (#88 among them), $RUNS runs each"
  python3 $summ slowest /tmp/bench-korf-1.jsonl 11 > /tmp/bench-slow-ids.txt
  grep -v '^#' $KORF | awk 'NR==FNR{want[$1]=1; next} want[$1]' /tmp/bench-slow-ids.txt - > /tmp/bench-slow.txt
  for i in $(seq "$RUNS"); do
    for t in 1 2; do  # back to back, so each pair sees the same host load
      $BIN/solver solve - --pdbs "$PDBS" --heuristic pdb --threads $t --format json < /tmp/bench-slow.txt > /tmp/bench-t$t-$i.jsonl
    done
  done
  python3 $summ speedup /tmp/bench-t1-*.jsonl -- /tmp/bench-t2-*.jsonl
}

lanes() {
  echo "== Korf 100, 7-8 PDB + reflection, 1 thread, by --lanes ($RUNS runs each, interleaved)"
  for i in $(seq "$RUNS"); do
    for l in 1 2 3 4 6 8; do
      $BIN/solver solve - --pdbs "$PDBS" --heuristic pdb --threads 1 --lanes $l --format json < $KORF > /tmp/bench-lanes$l-$i.jsonl
    done
  done
  for l in 1 2 3 4 6 8; do
    echo "-- $l lane(s)"
    python3 $summ runs $KORF /tmp/bench-lanes$l-*.jsonl | grep -v slowest
  done
}

hard() {
  for t in 1 2; do
    echo "== hard70s (21 positions, 70-78 moves), $t thread(s), one run"
    $BIN/solver solve - --pdbs "$PDBS" --heuristic pdb --threads $t --format json < $HARD > /tmp/bench-hard-t$t.jsonl
    python3 $summ runs $HARD /tmp/bench-hard-t$t.jsonl
  done
}

targets=${*:-korf lc threads}
[ "$targets" = all ] && targets="korf lc threads lanes hard"
for t in $targets; do $t; done
