#!/usr/bin/env bash
# Solves one hard sliding-tile position on a Slurm cluster, unattended: each IDA* iteration is cut into work
# items (`solver split`), searched by one job array (`solver work`, all its cores, each array task claiming
# items one at a time in the shared folder, so that a task that starts late or runs slower takes fewer), and
# merged by a job that depends on the array (`solver merge`); the merge job submits the next iteration, until
# a merge finds the solution. From the second iteration on, the items are ordered by the size their subtrees
# had in the previous iteration, largest first (`split --plan`), so the longest are claimed first.
# Coordination is Slurm and the shared file system only.
#
#   scripts/slurm/solve-one.sh [options] POSITION TABLES WORKERS [-- extra solver options]
#
#   POSITION   the tiles (quoted), as `solver solve` takes them
#   TABLES     the tables' folder, readable by every node (or a node-local copy at the same path)
#   WORKERS    array tasks an iteration
#   --dir DIR          where the items, records and logs go (default ./solve-one-<date>); on the shared FS
#   --items-per-worker K   items an iteration has per array task (default 100: uneven subtrees even out)
#   --bound B          the first iteration's bound (default: the position's estimate; or a checkpoint's)
#   --wait             block until the solution (or a failure) is written, then print it
#   --iterations N     stop after N iterations merged without a solution (DIR/stopped: the next bound)
#   --cpus N           cores an array task asks for and searches with (default: a whole node, --exclusive)
#   --sbatch "ARGS"    extra sbatch options for every job (partition, account, time, ...)
#
# The solution lands in DIR/solution.json (the merge's JSON: length, moves, this iteration's nodes) and
# DIR/solution.txt; every iteration's outcome in DIR/iterations.jsonl. A merge that finds items without a
# record (a task killed, preempted or failed) resubmits the array with --resume (a task takes back the items
# it had claimed and not finished) and merges again, up to 3 times, then writes DIR/failed. Environment:
# SOLVER (default `solver` on PATH, else target/release/solver).
set -euo pipefail

die() { echo "solve-one: $*" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)

if [[ "${1:-}" == --continue ]]; then
    # The merge step of an iteration, run as a Slurm job: DIR BOUND ROUND.
    dir=$2 bound=$3 round=$4
    # shellcheck source=/dev/null
    source "$dir/job.env"
else
    dir="" items_per=100 bound="" wait=0 sbatch_extra="" cpus="" iterations=""
    while [[ $# -gt 0 ]]; do
        case $1 in
            --dir) dir=$2; shift 2 ;;
            --items-per-worker) items_per=$2; shift 2 ;;
            --bound) bound=$2; shift 2 ;;
            --wait) wait=1; shift ;;
            --sbatch) sbatch_extra=$2; shift 2 ;;
            --cpus) cpus=$2; shift 2 ;;
            --iterations) iterations=$2; shift 2 ;;
            -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
            --) break ;;
            -*) die "unknown option $1 (see --help)" ;;
            *) break ;;
        esac
    done
    [[ $# -ge 3 ]] || die "usage: solve-one.sh [options] POSITION TABLES WORKERS [-- extra solver options]"
    position=$1 tables=$2 workers=$3; shift 3
    [[ "${1:-}" == -- ]] && shift
    extra=("$@")
    [[ "$workers" =~ ^[1-9][0-9]*$ ]] || die "WORKERS must be a positive number, not '$workers'"
    [[ -d "$tables" ]] || die "no tables folder $tables"
    [[ -z "$cpus" || "$cpus" =~ ^[1-9][0-9]*$ ]] || die "--cpus must be a positive number, not '$cpus'"
    command -v sbatch >/dev/null || die "sbatch not found: is this a Slurm login node?"
    solver=${SOLVER:-$(command -v solver || echo "$here/../../target/release/solver")}
    [[ -x "$solver" ]] || die "no solver at $solver (set SOLVER)"
    solver=$(cd "$(dirname "$solver")" && pwd)/$(basename "$solver")
    dir=${dir:-solve-one-$(date +%Y%m%d-%H%M%S)}
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd) tables=$(cd "$tables" && pwd)
    {
        declare -p position tables workers items_per solver sbatch_extra extra cpus iterations
    } > "$dir/job.env"
    round=0
fi

# `solver split` at $bound (the estimate when empty): the items file of that iteration; then its array and
# merge, or at once the merge when the cut itself decided the iteration.
start_iteration() {
    local b=$1 previous=${2:-} items
    local args=(split "$position" --pdbs "$tables" --items $((workers * items_per)) -o "$dir/next.items" "${extra[@]}")
    [[ -n "$b" ]] && args+=(--bound "$b")
    # The previous iteration's item sizes order this one's items, largest first, as the tasks claim them.
    shopt -s nullglob
    local before=("$previous"/*.jsonl)
    [[ -n "$previous" && ${#before[@]} -gt 0 ]] && args+=(--plan "${before[@]}")
    "$solver" "${args[@]}" >&2
    b=$(sed -n '1s/.*"bound":\([0-9]*\).*/\1/p' "$dir/next.items")
    mv "$dir/next.items" "$dir/iter-$b.items"
    items=$(sed -n '1s/.*"items":\([0-9]*\).*/\1/p' "$dir/iter-$b.items")
    mkdir -p "$dir/iter-$b"
    if [[ "$items" == 0 ]]; then
        merge_iteration "$b" 0
    else
        submit_iteration "$b" 0
    fi
}

# The array of iteration $1 (only the tasks listed in $3, when given) and its merge job, round $2.
submit_iteration() {
    local b=$1 r=$2 tasks=${3:-0-$((workers - 1))} cmd jid threads=() size=(--exclusive)
    if [[ -n "$cpus" ]]; then
        threads=(--threads "$cpus") size=(--cpus-per-task="$cpus")
    fi
    # shellcheck disable=SC2016 # expanded by the array task
    cmd=$(printf '%q ' "$solver" work "$dir/iter-$b.items" --pdbs "$tables" "${extra[@]}" "${threads[@]}" -q --resume)
    cmd+="--claim $(printf '%q' "$dir/iter-$b/claims") -o $(printf '%q' "$dir/iter-$b")"'/$SLURM_ARRAY_TASK_ID.jsonl'
    # shellcheck disable=SC2086 # sbatch_extra is a list of options
    jid=$(sbatch --parsable $sbatch_extra "${size[@]}" --job-name="solve-one-$b" --array="$tasks" \
        --output="$dir/iter-$b/task-%a.log" --wrap="$cmd")
    jid=${jid%%;*}
    # afterany: a merge runs even after a failed or cancelled task, and resubmits what is missing.
    # shellcheck disable=SC2086
    sbatch --parsable $sbatch_extra --job-name="solve-one-$b-merge" --dependency="afterany:$jid" \
        --output="$dir/iter-$b/merge-$r.log" --wrap="$(printf '%q ' bash "$here/solve-one.sh" --continue "$dir" "$b" "$r")" >/dev/null
    echo "solve-one: bound $b: array job $jid (tasks $tasks), merge after it" >&2
}

# Merges iteration $1 (round $2): the solution, the next iteration, or the tasks to run again.
merge_iteration() {
    local b=$1 r=$2 out
    shopt -s nullglob
    local records=("$dir/iter-$b"/*.jsonl)
    if out=$("$solver" merge --format json "$dir/iter-$b.items" "${records[@]}" 2> "$dir/iter-$b/merge-$r.err"); then
        echo "$out" >> "$dir/iterations.jsonl"
        if [[ "$out" == *'"status":"solved"'* ]]; then
            echo "$out" > "$dir/solution.json"
            "$solver" merge "$dir/iter-$b.items" "${records[@]}" > "$dir/solution.txt"
            echo "solve-one: solved at bound $b: see $dir/solution.txt" >&2
        elif [[ -n "$iterations" && $(wc -l < "$dir/iterations.jsonl") -ge $iterations ]]; then
            echo "$out" > "$dir/stopped"
            echo "solve-one: stopped after $iterations iterations: $out" >&2
        else
            start_iteration "$(sed -n 's/.*"next":\([0-9]*\).*/\1/p' <<< "$out")" "$dir/iter-$b"
        fi
    elif [[ $r -lt 3 ]] && grep -q "have no record yet\|did not finish" "$dir/iter-$b/merge-$r.err"; then
        # Every task again with --resume: each takes back its unfinished claims, then claims what is left.
        echo "solve-one: bound $b: $(cat "$dir/iter-$b/merge-$r.err"); resubmitting (round $((r + 1)))" >&2
        submit_iteration "$b" $((r + 1))
    else
        cp "$dir/iter-$b/merge-$r.err" "$dir/failed"
        echo "solve-one: bound $b: merge failed: $(cat "$dir/failed")" >&2
        exit 1
    fi
}

if [[ "${1:-}" == --continue ]]; then
    merge_iteration "$bound" "$round"
    exit 0
fi
start_iteration "$bound"
echo "solve-one: following it in $dir" >&2
if [[ $wait == 1 ]]; then
    while [[ ! -e "$dir/solution.json" && ! -e "$dir/failed" && ! -e "$dir/stopped" ]]; do
        sleep 1
    done
    [[ -e "$dir/failed" ]] && { cat "$dir/failed" >&2; exit 1; }
    if [[ -e "$dir/stopped" ]]; then cat "$dir/stopped"; else cat "$dir/solution.txt"; fi
fi
