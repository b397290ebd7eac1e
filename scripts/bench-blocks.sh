#!/usr/bin/env bash
# Reproduces the figures in docs/benchmarks/blocks.md: the sliding-block targets, release build.
# Usage: scripts/bench-blocks.sh            (RUNS=9 by default; CARGO_TARGET_DIR honoured)
# Each line: the fewest moves found, then medians of $RUNS runs: the search (or exploration) time the command
# reports in its JSON (wall clock), the whole-process wall time (start, parse, search, print, exit), and the
# whole process's CPU time (`perf stat` task-clock; `-` without perf), which a loaded machine inflates least.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-9}
BIN=${CARGO_TARGET_DIR:-target}/release/blocks
cargo build --release -p blocks-cli -q 2> /dev/null || cargo build --release -p blocks-cli

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# bench LABEL ARGS...: runs `blocks ARGS --format json` $RUNS times.
bench() {
  local label=$1
  shift
  local inner=() outer=() cpu=()
  for _ in $(seq "$RUNS"); do
    local t0 t1 json
    t0=$(date +%s.%N)
    json=$("$BIN" "$@" --format json)
    t1=$(date +%s.%N)
    inner+=("$(sed -E 's/.*"seconds":([0-9.e-]+).*/\1/' <<<"$json")")
    outer+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")
    if command -v perf > /dev/null; then
      cpu+=("$(perf stat -x, -e task-clock "$BIN" "$@" --format json 2>&1 > /dev/null | awk -F, '/task-clock/ { print $1 }')")
    fi
  done
  local length
  length=$(sed -E 's/.*"(length|fewest_moves)":([0-9]+|null).*/\2/' <<<"$json")
  local cpu_ms=-
  if [ ${#cpu[@]} -gt 0 ]; then
    cpu_ms=$(printf '%s\n' "${cpu[@]}" | median | awk '{ printf "%.2f", $1 }')
  fi
  printf '%-34s %4s  search %7.2f ms  process %7.2f ms  cpu %7s ms\n' "$label" "$length" \
    "$(printf '%s\n' "${inner[@]}" | median | awk '{ print $1 * 1000 }')" \
    "$(printf '%s\n' "${outer[@]}" | median | awk '{ print $1 * 1000 }')" "$cpu_ms"
}

echo "== medians of $RUNS runs, $(git rev-parse --short HEAD 2>/dev/null || echo unknown), load $(cut -d' ' -f1-3 /proc/loadavg)"
for metric in piece line unit; do
  for algorithm in astar bfs; do
    bench "heng-dao-li-ma $metric $algorithm" solve heng-dao-li-ma --metric "$metric" --algorithm "$algorithm"
  done
done
for metric in piece line unit; do
  bench "heng-dao-li-ma explore $metric" explore heng-dao-li-ma --metric "$metric"
done
for algorithm in astar bfs; do
  bench "rush-hour-wall line $algorithm" solve rush-hour-wall --metric line --algorithm "$algorithm"
done
bench "rush-hour-jam line astar" solve rush-hour-jam --metric line
