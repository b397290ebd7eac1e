#!/usr/bin/env bash
# The cluster scripts tested against a real Slurm: a one-node cluster on this machine
# (scripts/slurm/local-cluster.sh, which installs Slurm from Debian's packages when it is missing), then
#  1. a batch of 60 random 15-puzzle walks, solved on this machine and as 4 array tasks through
#     scripts/slurm/batch.sh: the merged report's figures and the (id, status, length, nodes) of every record
#     must be those of the single-machine batch (one thread each, so node counts are exact);
#  2. a batch of 24 random 15-puzzles under a 1 s limit each (so a shard runs for seconds), one array task
#     cancelled with `scancel` after its first record, resubmitted alone with `batch.sh --only`: every id must
#     end with exactly one record, in its own shard (nothing lost, nothing done twice).
# Skips (exit 0) only where no cluster can be had: not root and Slurm not installed or not up; with CI=true
# it fails instead. A cluster this script starts is stopped at the end; one already up is left up. Bounded:
# the part after the build stops with a failure after $STP_SLURM_TEST_TIMEOUT seconds (default 300).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
cluster=$repo/scripts/slurm/local-cluster.sh

say() { echo "slurm test: $*" >&2; }

if [ -z "${STP_SLURM_TEST_SOLVER:-}" ]; then
    # The debug build `cargo test` has just made (a no-op then), fast enough for these instances.
    ${CARGO:-cargo} build --locked -q -p solver
    export STP_SLURM_TEST_SOLVER=${CARGO_TARGET_DIR:-$repo/target}/debug/solver
    exec timeout --kill-after=10 "${STP_SLURM_TEST_TIMEOUT:-300}" bash "$0" "$@"
fi
solver=$(realpath -e "$STP_SLURM_TEST_SOLVER")
started=$SECONDS

was_up=0
bash "$cluster" status >/dev/null 2>&1 && was_up=1
rc=0
bash "$cluster" start || rc=$?
if [ $rc -eq 77 ]; then
    if [ "${CI:-}" = true ]; then
        say "FAILED: CI=true, and no Slurm cluster could be started here (see above)"
        exit 1
    fi
    say "skipped: no Slurm cluster could be started here (see above)"
    exit 0
fi
[ $rc -eq 0 ] || { say "FAILED: the local cluster did not start"; exit 1; }
eval "$(bash "$cluster" env)"

work=$(mktemp -d /var/tmp/stp-slurm-test.XXXXXX)
chmod 0755 "$work"
jobs_submitted=()
finish() {
    local rc=$?
    [ ${#jobs_submitted[@]} -eq 0 ] || scancel "${jobs_submitted[@]}" 2>/dev/null || true
    if [ $rc -eq 0 ]; then
        rm -rf "$work"
    else
        say "FAILED after $((SECONDS - started)) s; files kept in $work"
    fi
    [ $was_up -eq 1 ] || bash "$cluster" stop || true
}
trap finish EXIT
# `timeout` stops the script with SIGTERM: the cleanup above still runs.
trap 'say "out of time"; exit 124' TERM INT

fail() {
    say "FAILED: $*"
    exit 1
}

# Submits through batch.sh, remembering the job ids (for the cleanup) and the shards job's id.
shards_job=
submit() {
    local line out
    out=$(SOLVER=$solver bash "$repo/scripts/slurm/batch.sh" "$@") || { echo "$out" >&2; fail "batch.sh $*"; }
    echo "$out" >&2
    while read -r line; do
        line=${line#*job }
        jobs_submitted+=("${line%%[ ,]*}")
    done <<<"$out"
    shards_job=${jobs_submitted[-2]}
}

# id, status, length and nodes of every record in the files, one line each, sorted: the figures of a run that
# do not depend on where or when it ran.
records() {
    cat "$@" | sed -E 's/^\{"id":"([^"]*)".*"status":"([a-z]*)","length":([0-9]+|null),.*"nodes":([0-9]+),.*/\1 \2 \3 \4/' |
        sort
}

# The report's lines that must not depend on the sharding (time and the slowest list do).
figures() { grep -E '^(records|solved|limit|unsolvable|invalid|checked|nodes|heuristic|lengths|generated) ' "$1"; }

wait_gone() {
    local job=$1 what=$2 deadline=$((SECONDS + 120))
    while [ -n "$(squeue --noheader --jobs "$job" --format %A 2>/dev/null)" ]; do
        [ $SECONDS -lt $deadline ] || fail "$what (job $job) still in the queue after 120 s"
        sleep 0.5
    done
}

say "1. a batch on this machine and as 4 array tasks"
t=$SECONDS
"$solver" generate --count 60 --seed 32 --walk 40 >"$work/walks.txt"
"$solver" batch "$work/walks.txt" --heuristic linear-conflict --threads 1 -o "$work/single.jsonl" -q
"$solver" report "$work/single.jsonl" >"$work/single-report.txt"
submit --wait "$work/walks.txt" "$work/no-tables" "$work/sharded" 4 --heuristic linear-conflict -q
[ -s "$work/sharded/report.txt" ] || fail "no report.txt after the report job"
diff <(figures "$work/single-report.txt") <(figures "$work/sharded/report.txt") ||
    fail "the merged report's figures differ from the single-machine batch's (above)"
diff <(records "$work/single.jsonl") <(records "$work/sharded"/shard-*.jsonl) ||
    fail "the shards' records differ from the single-machine batch's (above)"
[ "$(records "$work/single.jsonl" | grep -c ' solved ')" -eq 60 ] || fail "not all 60 walks solved"
say "   the 4 shards' report equals the single-machine batch's ($((SECONDS - t)) s)"

say "2. an array task cancelled mid-run and resubmitted"
t=$SECONDS
"$solver" generate --count 24 --seed 32 | grep -v '^#' >"$work/random.txt"  # ids 1-24: no comment line
out=$work/killed
submit "$work/random.txt" "$work/no-tables" "$out" 4 --heuristic linear-conflict --time-limit 1 -q
deadline=$((SECONDS + 120))
until [ -s "$out/shard-2.jsonl" ]; do
    [ $SECONDS -lt $deadline ] || fail "array task 2 wrote no record within 120 s"
    sleep 0.2
done
scancel "${shards_job}_2"
wait_gone "$shards_job" "the array"
done_before=$(wc -l <"$out/shard-2.jsonl")
# A shard has 6 instances of about 1 s each: cancelled after its first record, it cannot have finished.
[ "$done_before" -lt 6 ] || fail "array task 2 finished before it was cancelled; the test proves nothing"
submit --wait --only 2 "$work/random.txt" "$work/no-tables" "$out" 4 --heuristic linear-conflict --time-limit 1 -q
expected=$(seq 1 24)
got=$(cat "$out"/shard-*.jsonl | sed -E 's/^\{"id":"([^"]*)".*/\1/' | sort -n)
diff <(echo "$expected") <(echo "$got") || fail "the ids across the shards are not each of 1-24 exactly once (above)"
shard2=$(sed -E 's/^\{"id":"([^"]*)".*/\1/' "$out/shard-2.jsonl" | sort -n | tr '\n' ' ')
[ "$shard2" = "3 7 11 15 19 23 " ] || fail "shard 2 holds ids $shard2, not 3 7 11 15 19 23"
grep -qE '^records +24$' "$out/report.txt" || fail "the report after the resubmission does not count 24 records"
say "   cancelled with $done_before of 6 records, resumed: 24 ids, each once ($((SECONDS - t)) s)"
say "3. one position's IDA* iterations split over array tasks (scripts/slurm/solve-one.sh)"
t=$SECONDS
solve_one() { SOLVER=$solver bash "$repo/scripts/slurm/solve-one.sh" --cpus 1 "$@"; }
mkdir -p "$work/no-tables"
# Every item of each iteration in DIR recorded at most once, and every item of an iteration without the
# solution recorded.
check_items() {
    local d=$1 f b n ids
    for f in "$d"/iter-*.items; do
        b=${f##*/iter-} && b=${b%.items}
        n=$(sed -n '1s/.*"items":\([0-9]*\).*/\1/p' "$f")
        [ "$n" -gt 0 ] || continue
        ids=$(cat "$d/iter-$b"/*.jsonl | sed -E 's/^\{"id":"([^"]*)".*/\1/' | sort -n)
        [ -z "$(uniq -d <<<"$ids")" ] || fail "bound $b: items recorded twice: $(uniq -d <<<"$ids" | tr '\n' ' ')"
        if ! grep -q "\"bound\":$b," "$d/solution.json" 2>/dev/null; then
            [ "$ids" = "$(seq 1 "$n")" ] || fail "bound $b: not each of its $n items has one record"
        fi
    done
}
walk5=$("$solver" generate --board 5x5 --walk 60 --count 1 --seed 11 | grep -v '^#')
for case in "4x4|14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15" "5x5|$walk5"; do
    board=${case%%|*} position=${case#*|}
    want=$("$solver" solve --board "$board" --heuristic linear-conflict --format json "$position" |
        sed -E 's/.*"length":([0-9]+).*/\1/')
    d=$work/one-$board
    solve_one --wait --dir "$d" --items-per-worker 10 "$position" "$work/no-tables" 4 -- \
        --board "$board" --heuristic linear-conflict >/dev/null
    got=$(sed -E 's/.*"length":([0-9]+).*/\1/' "$d/solution.json")
    [ "$got" = "$want" ] || fail "$board: solve-one found length $got, a single-machine solve $want"
    check_items "$d"
    say "   $board: length $got as on one machine, in $(ls "$d"/iter-*.items | wc -l) iterations"
done
# Korf's #88 at bound 63 (68 million nodes with linear conflict: seconds a task): one task cancelled after its
# first record, holding a claimed item; the merge resubmits the array, that task takes its item back, and the
# iteration's nodes are the unsplit iteration's exactly.
p88="15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4"
d=$work/one-killed
solve_one --dir "$d" --items-per-worker 25 --bound 63 --iterations 1 "$p88" "$work/no-tables" 4 -- \
    --heuristic linear-conflict 2>/dev/null
deadline=$((SECONDS + 120))
until [ -s "$d/iter-63/1.jsonl" ]; do
    [ $SECONDS -lt $deadline ] || fail "array task 1 wrote no record within 120 s"
    sleep 0.1
done
array=$(squeue --noheader --name solve-one-63 --format %F | head -1)
jobs_submitted+=("$array")
scancel "${array}_1"
while squeue --noheader --jobs "${array}_1" 2>/dev/null | grep -q .; do sleep 0.1; done
done_before=$(wc -l <"$d/iter-63/1.jsonl")
claims_of_1() { { grep -lFx "out=$(realpath "$d/iter-63/1.jsonl")" "$d/iter-63/claims"/[0-9]* 2>/dev/null || true; } | wc -l; }
claimed=$(claims_of_1)
[ "$claimed" -gt "$done_before" ] ||
    fail "array task 1 held no unfinished item when it was cancelled ($claimed claims, $done_before records); the test proves nothing"
until [ -e "$d/stopped" ] || [ -e "$d/failed" ]; do
    [ $SECONDS -lt $deadline ] || fail "the split iteration did not end within 120 s"
    sleep 0.5
done
[ -e "$d/stopped" ] || fail "the merge failed: $(cat "$d/failed")"
grep -q "resubmitting" "$d/iter-63/merge-0.log" || fail "the cancelled task was not resubmitted"
check_items "$d"
echo "88 65 $p88" >"$work/k88.txt"
"$solver" batch "$work/k88.txt" --heuristic linear-conflict --threads 1 --checkpoint-after 0 \
    --node-limit 90000000 -o "$work/k88.jsonl" -q || true
plain=$(sed -n 's/.*"bound":65,.*"expanded":\([0-9]*\),.*/\1/p' "$work/k88.jsonl.checkpoints")
before=$(sed -n 's/.*"bound":63,.*"expanded":\([0-9]*\),.*/\1/p' "$work/k88.jsonl.checkpoints")
split=$(sed -n 's/.*"expanded":\([0-9]*\),.*/\1/p' "$d/stopped")
[ "$split" = "$((plain - before))" ] ||
    fail "bound 63 split expanded $split nodes; the unsplit iteration $((plain - before))"
grep -q '"next":65' "$d/stopped" || fail "the next bound is not 65: $(cat "$d/stopped")"
[ "$(wc -l <"$d/iter-63/1.jsonl")" -eq "$(claims_of_1)" ] ||
    fail "array task 1 did not record each item it had claimed"
say "   cancelled with $done_before records of $claimed claimed, resubmitted: $split expanded nodes, as unsplit ($((SECONDS - t)) s)"
say "passed in $((SECONDS - started)) s"
