#!/usr/bin/env bash
# Korf's 100 in the multi-tile metric (BENCHMARKS.md, "The multi-tile metric (MTM)"): `solver solve --metric mtm` on
# $THREADS threads (default 1), each instance stopped after $LIMIT seconds (default 10); prints how many
# finished, their MTM lengths and search times. With SLIDY=1 also slidy's 4x4 MTM solver (scripts/slidy-mtm, fetched from
# crates.io; a benchmark only, never part of the project) on the instances ours finished.
# Usage: scripts/bench-mtm.sh [OUT.jsonl] [solve options...]   (e.g. --classes 4x4; BIN=folder of the release
# build, default target/release)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release}
LIMIT=${LIMIT:-10}
THREADS=${THREADS:-1}
KORF=${KORF:-tests/data/korf100.txt}
OUT=${1:-/tmp/bench-mtm.jsonl}
shift || true
[ -n "${NOBUILD:-}" ] || cargo build --release -p solver -q
/usr/bin/time -f "whole process: %e s wall, %M KB peak" "$BIN/solver" solve - --metric mtm --format json --time-limit "$LIMIT" --threads "$THREADS" "$@" < "$KORF" > "$OUT" || true
python3 - "$OUT" "$LIMIT" "$THREADS" <<'PY'
import json, statistics, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
done = [r for r in recs if r["status"] == "solved"]
print(f"{len(done)} of {len(recs)} solved within {sys.argv[2]} s each ({sys.argv[3]} threads; heuristic {recs[0]['heuristic']})")
if done:
    secs = [r["seconds"] for r in done]
    print(f"search seconds of those: total {sum(secs):.1f}, median {statistics.median(secs):.3f}, max {max(secs):.1f}")
    print(f"their MTM lengths: mean {statistics.mean(r['length'] for r in done):.2f}; nodes generated {sum(r['nodes'] for r in done):,}")
    print("id:length:seconds " + " ".join(f"{r['id']}:{r['length']}:{r['seconds']:.2f}" for r in done))
PY
if [ -n "${SLIDY:-}" ]; then
  ids=$(python3 -c 'import json,sys; print(" ".join(r["id"] for r in map(json.loads, open(sys.argv[1])) if r["status"]=="solved"))' "$OUT")
  grep -v '^#' "$KORF" | awk -v ids=" $ids " 'index(ids, " " $1 " ")' |
    cargo run -q --release --manifest-path scripts/slidy-mtm/Cargo.toml
fi
