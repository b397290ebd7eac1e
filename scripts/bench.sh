#!/usr/bin/env bash
# Reproduces the figures in BENCHMARKS.md. Release build, tables in $PDBS (default pdbs/, `make pdbs`).
# Usage: scripts/bench.sh [korf|lc|threads|lanes|hard|textbook|split|sets|blank|kf50|random5|all]   (default: korf
# lc threads; `hard`, `textbook`, `split`, `sets` and `blank` take minutes, `kf50` and `random5` up to a day,
# resumably; `all` leaves `split`, `kf50` and `random5` out)
# Times are medians of $RUNS runs; node counts are exact (one thread).
set -euo pipefail
cd "$(dirname "$0")/.."
PDBS=${PDBS:-pdbs}
RUNS=${RUNS:-5}
BIN=target/release
KORF=tests/data/korf100.txt
HARD=tests/data/hard70s.txt
KF50=tests/data/korf_felner_24puzzle50.txt
KF_NODES=tests/data/korf_felner_24puzzle50_nodes.txt
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

# The textbook comparison: every algorithm and heuristic on the two hardest 8-puzzle positions and Korf's
# four easiest 15-puzzle instances, one run each (node counts and stored states are exact; time and peak
# memory of the whole process from /usr/bin/time). Limits: 60 s and 8 GiB of stored states a search.
textbook() {
  echo "== textbook comparison (one run each; limits 60 s, 8G)"
  local d3=/tmp/bench-pdbs-3x3
  $BIN/pdb-builder build --board 3x3 --partition 4-4 --out $d3 --quiet
  local out=/tmp/bench-textbook.tsv
  : > $out
  one() {  # board tiles id algorithm heuristic pdbs
    local rss
    # A search stopped by a limit exits 3: that is a result here, not a failure of the script.
    rss=$( { /usr/bin/time -f '%M' $BIN/solver solve --board "$1" --algorithm "$4" --heuristic "$5" --pdbs "$6" \
      --threads 1 --format json --time-limit 60 --memory-limit 8G "$2" > /tmp/bench-tb.json || true; } 2>&1 | tail -1)
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$3" "$4" "$5" "$rss" "$1" "$(cat /tmp/bench-tb.json)" >> $out
  }
  for p in "8 7 6 0 4 1 2 5 3" "8 0 6 5 4 7 2 3 1"; do
    for ah in bfs:manhattan bibfs:manhattan astar:manhattan astar:linear-conflict astar:pdb ida:manhattan ida:linear-conflict ida:pdb greedy:manhattan; do
      one 3x3 "$p" "8-puzzle ${p// /}" "${ah%%:*}" "${ah##*:}" $d3
    done
  done
  for id in 55 16 42 79; do
    local tiles
    tiles=$(grep "^$id " $KORF | cut -d' ' -f3-)
    for ah in bfs:manhattan bibfs:manhattan astar:manhattan astar:linear-conflict astar:pdb ida:manhattan ida:linear-conflict ida:pdb greedy:manhattan; do
      one 4x4 "$tiles" "Korf #$id" "${ah%%:*}" "${ah##*:}" "$PDBS"
    done
  done
  python3 $summ textbook $out
}

# The 24-puzzle overnight batch: Korf and Felner's fifty, easiest first by their published 6-6-6-6 count, 2
# threads, at most $KF_LIMIT s each (default 3600), 5x5 tables in $PDBS5 (default $PDBS) with $KF_PARTITION
# (default 7-6-6-5), starting at the $KF_FROM-th easiest (default 1). The records go to $KF_OUT and the
# batch resumes it, so the same command continues an interrupted run; then the table of ours against the
# published counts.
# The fifty with the 5x5 default set (`make pdbs-5x5`: 7-6-6-5 and 6-6-6-6, maxed) unless $KF_PARTITION names
# other partitions (space-separated, at most two).
kf50() {
  local sets=(${KF_PARTITION:-7-6-6-5 6-6-6-6}) args=()
  for p in "${sets[@]}"; do args+=(--partition "$p"); done
  local out=${KF_OUT:-kf50-$(IFS=+; echo "${sets[*]}").jsonl}
  local from=${KF_FROM:-1}
  echo "== Korf-Felner fifty from number $from by published count, ${sets[*]} + reflection, 2 threads, at most ${KF_LIMIT:-3600} s each, records in $out"
  python3 $summ easiest $KF_NODES $KF50 | tail -n +"$from" > /tmp/bench-kf50.txt
  $BIN/solver batch /tmp/bench-kf50.txt --board 5x5 "${args[@]}" --pdbs "${PDBS5:-$PDBS}" --heuristic pdb \
    --threads 2 --parallel search --time-limit "${KF_LIMIT:-3600}" -o "$out" --resume
  python3 $summ published $KF_NODES $KF50 "$out"
}

# One split iteration against the same iteration unsplit, whole runs in turn ($RUNS pairs): Korf-Felner #42 at
# bound $SPLIT_BOUND (default 104), 6-6-6-6 tables in $PDBS5 (default $PDBS). Split: 2,000 items ordered by the
# previous iteration's sizes (`split --plan`), claimed by two single-thread workers, then merged; unsplit: one
# item searched by one two-thread worker. Both print the iteration's nodes, which must be equal.
split() {
  local t="--board 5x5 --pdbs ${PDBS5:-$PDBS} --partition 6-6-6-6 --heuristic pdb" b=${SPLIT_BOUND:-104}
  local p="16 6 20 18 23 19 7 11 13 17 12 9 1 24 3 22 2 21 10 4 8 15 14 5 0"
  local d; d=$(mktemp -d)
  # shellcheck disable=SC2086 # $t is a list of options
  claimed() {  # bound, folder, [records to order the items by]
    mkdir -p "$2"
    $BIN/solver split $t --bound "$1" --items 2000 ${3:+--plan $3} -o "$2.items" "$p" >/dev/null
    for w in 0 1; do $BIN/solver work "$2.items" $t -j 1 --claim "$2/claims" -o "$2/w$w.jsonl" -q & done
    wait
    $BIN/solver merge "$2.items" "$2"/w*.jsonl
  }
  # shellcheck disable=SC2086
  unsplit() {  # folder
    $BIN/solver split $t --bound "$b" --items 1 -o "$1.items" "$p" >/dev/null
    $BIN/solver work "$1.items" $t -j 2 -o "$1.jsonl" -q
    $BIN/solver merge "$1.items" "$1.jsonl"
  }
  timed() {  # name, command...: the merge's line into $d/name.out, the wall seconds into $d/name.txt
    local start; start=$(date +%s.%N)
    "${@:2}" > "$d/$1.out"
    awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f\n", e - s }' > "$d/$1.txt"
  }
  echo "== Korf-Felner #42, bound $b, 6-6-6-6: 2 claiming workers of 1 thread against 1 worker of 2 threads"
  claimed $((b - 2)) "$d/previous"
  for i in $(seq "$RUNS"); do
    timed "s$i" claimed "$b" "$d/s$i" "$d/previous/w0.jsonl $d/previous/w1.jsonl"
    timed "u$i" unsplit "$d/u$i"
    echo "pair $i: split $(cat "$d/s$i.txt") s, unsplit $(cat "$d/u$i.txt") s; $(grep -o 'nodes [0-9]*' "$d/s$i.out"), $(grep -o 'nodes [0-9]*' "$d/u$i.out")"
  done
  python3 $summ median "$d"/s*.txt
  python3 $summ median "$d"/u*.txt
  rm -rf "$d"
}

# One set of tables against the larger of two, one thread, in turn ($RUNS runs each): four of Korf and Felner's
# easiest (#38, #40, #25, #32) with $SETS5 (default "7-6-6-5 6-6-6-6", tables in $PDBS5, default $PDBS), and
# Korf's 100 with $SETS4 (default: 7-8 and the L-shaped split, tables in $PDBS). Prints each run's search
# seconds and nodes summed over the instances, then the medians.
sets() {
  local d; d=$(mktemp -d)
  grep -v '^#' $KF50 | awk '$1 == 38 || $1 == 40 || $1 == 25 || $1 == 32' > "$d/kf4.txt"
  local sets5=(${SETS5:-7-6-6-5 6-6-6-6}) sets4=(${SETS4:-7-8 1,2,3,4,5,8,12/6,7,9,10,11,13,14,15})
  sum() { python3 -c 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; assert all(x["matched"] for x in r), "a length differs from the optimum"; print("%.2f s %d nodes" % (sum(x["seconds"] for x in r), sum(x["nodes"] for x in r)))' "$1"; }
  for board in 5x5 4x4; do
    local input=$d/kf4.txt pdbs=${PDBS5:-$PDBS} sets=("${sets5[@]}")
    [ $board = 4x4 ] && { input=$KORF; pdbs=$PDBS; sets=("${sets4[@]}"); }
    echo "== $board: ${sets[0]} against ${sets[0]} + ${sets[1]}, 1 thread ($RUNS runs each, in turn)"
    for i in $(seq "$RUNS"); do
      for k in 1 2; do
        local args=(--partition "${sets[0]}"); [ $k = 2 ] && args+=(--partition "${sets[1]}")
        $BIN/solver batch "$input" --board $board --pdbs "$pdbs" --heuristic pdb "${args[@]}" -j 1 -q > "$d/$board-$k-$i.jsonl"
        sum "$d/$board-$k-$i.jsonl" | sed "s/^/run $i, $k set(s): /" | tee "$d/$board-$k-$i.txt"
      done
    done
    for k in 1 2; do
      echo "-- $k set(s), median search seconds: $(cut -d' ' -f5 "$d"/$board-$k-*.txt | sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}')"
    done
  done
  rm -rf "$d"
}

# Plain against blank-aware tables of the same partition, one thread, in turn: 7-8 on Korf's 100 (plain in
# $PDBS, blank-aware in $PDBS_BLANK) and 6-6-6-6 on KF #38, #40, #25, #32 ($PDBS5, $PDBS5_BLANK). Missing
# blank-aware tables are built first ($LABELS entries a placement, default one a region; minutes).
blank() {
  local d; d=$(mktemp -d)
  grep -v '^#' $KF50 | awk '$1 == 38 || $1 == 40 || $1 == 25 || $1 == 32' > "$d/kf4.txt"
  local b4=${PDBS_BLANK:-pdbs-blank} b5=${PDBS5_BLANK:-pdbs5-blank} labels=()
  [ -n "${LABELS:-}" ] && labels=(--labels "$LABELS")
  $BIN/pdb-builder build --partition 7-8 --blank-aware "${labels[@]}" -o "$b4" -q
  $BIN/pdb-builder build --board 5x5 --partition 6-6-6-6 --blank-aware "${labels[@]}" -o "$b5" -q
  sum() { python3 -c 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; assert all(x["matched"] for x in r), "a length differs from the optimum"; print("%.3f s %d nodes" % (sum(x["seconds"] for x in r), sum(x["nodes"] for x in r)))' "$1"; }
  for board in 4x4 5x5; do
    local input=$KORF partition=7-8 plain=$PDBS blank=$b4
    [ $board = 5x5 ] && { input=$d/kf4.txt; partition=6-6-6-6; plain=${PDBS5:-$PDBS}; blank=$b5; }
    echo "== $board $partition: plain against blank-aware tables, 1 thread ($RUNS runs each, in turn)"
    for i in $(seq "$RUNS"); do
      for k in plain blank; do
        local dir=$plain; [ $k = blank ] && dir=$blank
        $BIN/solver batch "$input" --board $board --pdbs "$dir" --heuristic pdb --partition $partition -j 1 -q > "$d/$board-$k-$i.jsonl"
        sum "$d/$board-$k-$i.jsonl" | sed "s/^/run $i, $k: /" | tee "$d/$board-$k-$i.txt"
      done
    done
    for k in plain blank; do
      echo "-- $k, median search seconds: $(cut -d' ' -f4 "$d"/$board-$k-*.txt | sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}')"
    done
  done
  rm -rf "$d"
}

# The generalisation check: 20 uniformly random 5x5 positions (seed 31, tuned on by nothing), solved with the
# default set (`auto` over $PDBS5) and with plain 6-6-6-6 ($PDBS5_OLD), 2 threads, at most $R5_LIMIT s each
# (default 3600) and, if $R5_NODES is set, that many expanded nodes (a limit that does not depend on the
# machine's speed), every finished iteration checkpointed; resumable (records in $R5_OUT-new.jsonl and
# $R5_OUT-old.jsonl, default random5-*; R5_RETRY=1 searches the limit stops again, from their checkpoints, under
# the new limits; R5_SETS="new" runs the default set alone). Then the two compared: nodes where both solved, and
# through the deepest bound both finished.
random5() {
  local out=${R5_OUT:-random5} input=/tmp/bench-random5.txt limits=(--time-limit "${R5_LIMIT:-3600}")
  [ -n "${R5_NODES:-}" ] && limits+=(--node-limit "$R5_NODES")
  [ -n "${R5_RETRY:-}" ] && limits+=(--retry-limits)
  $BIN/solver generate --board 5x5 --count 20 --seed 31 | grep -v "^#" > $input  # ids 1-20, as the records kept
  echo "== 20 random 5x5 positions (seed 31): the default set against plain 6-6-6-6, 2 threads, limits ${limits[*]}"
  for k in ${R5_SETS:-new old}; do
    local args=(--pdbs "${PDBS5:-$PDBS}" --heuristic auto)
    [ $k = old ] && args=(--pdbs "${PDBS5_OLD:?plain 6-6-6-6 tables}" --heuristic pdb --partition 6-6-6-6)
    $BIN/solver batch $input --board 5x5 "${args[@]}" --threads 2 --parallel search "${limits[@]}" \
      --checkpoint-after 0 -o "$out-$k.jsonl" --resume
  done
  python3 $summ compare "$out-new.jsonl" "$out-old.jsonl"
}

targets=${*:-korf lc threads}
[ "$targets" = all ] && targets="korf lc threads lanes hard textbook"
for t in $targets; do $t; done
