#!/usr/bin/env bash
# A big batch on a Slurm cluster: one job array whose task I solves shard I of TASKS (`solver batch --shard
# I/TASKS --resume`, records in OUT_DIR/shard-I.jsonl), then a job that waits for all of them
# (`--dependency=afterok`) and merges the shards with `solver report` into OUT_DIR/report.txt. Prints the
# two job ids. Slurm and the shared file system are the only coordination: every path must be visible on
# every node.
#
#   scripts/slurm/batch.sh [OPTIONS] INPUT TABLES OUT_DIR TASKS [solver batch options...]
#
# Options (before INPUT):
#   --wait            block until the report job ends; exit code 0 if it wrote the report, else 1
#   --only LIST       submit only these array tasks (Slurm's --array syntax, e.g. 2 or 1,3), e.g. again after
#                     one was killed, preempted or timed out, once the rest of the array has ended (the new
#                     report job waits for these tasks only). A task resumes its shard: it skips the
#                     instances that have a record and redoes none.
#   --cpus N          cores a task (--cpus-per-task; the solver's --threads); default 1
#   --local-tables DIR  copy TABLES to DIR on each node (node-local disk, e.g. /tmp/stp-pdbs) before the task
#                     searches, once a node (a file already there with the same size and time is kept)
#   --sbatch ARG      one more sbatch option for both jobs (repeatable): --sbatch --partition=long
#
# The solver is $SOLVER, else `solver` on PATH, else target/release/solver of this repository. The job
# scripts are written to OUT_DIR (shard.sbatch, report.sbatch) so that a task can also be resubmitted by hand
# (`sbatch --array=2 OUT_DIR/shard.sbatch`); Slurm's logs go to OUT_DIR/slurm-JOB_TASK.out.
set -euo pipefail

usage() {
    sed -n '/^#   scripts/,/^# The solver/{/^# The solver/!p}' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

wait_report=0
only=
cpus=1
local_tables=
sbatch_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --wait) wait_report=1 ;;
        --only) only=${2:?--only needs a list of tasks}; shift ;;
        --cpus) cpus=${2:?--cpus needs a number}; shift ;;
        --local-tables) local_tables=${2:?--local-tables needs a directory}; shift ;;
        --sbatch) sbatch_args+=("${2:?--sbatch needs an option}"); shift ;;
        -h | --help) usage ;;
        --) shift; break ;;
        -*) echo "batch.sh: unknown option $1" >&2; usage ;;
        *) break ;;
    esac
    shift
done
[ $# -ge 4 ] || usage
[ -f "$1" ] || { echo "batch.sh: no input file $1" >&2; exit 2; }
input=$(realpath -e "$1")
tables=$(realpath -m "$2")
out=$(realpath -m "$3")
tasks=$4
shift 4
case "$tasks" in '' | *[!0-9]* | 0) echo "batch.sh: TASKS must be a positive number, not '$tasks'" >&2; exit 2 ;; esac
case "$cpus" in '' | *[!0-9]* | 0) echo "batch.sh: --cpus must be a positive number, not '$cpus'" >&2; exit 2 ;; esac

if [ -z "${SOLVER:-}" ]; then
    if command -v solver >/dev/null; then
        SOLVER=$(command -v solver)
    else
        SOLVER=$(dirname "$0")/../../target/release/solver
    fi
fi
[ -x "$SOLVER" ] || { echo "batch.sh: no solver binary at $SOLVER (build it, or set SOLVER)" >&2; exit 2; }
solver=$(realpath -e "$SOLVER")
command -v sbatch >/dev/null || { echo "batch.sh: sbatch not found: is this a Slurm login node?" >&2; exit 2; }
mkdir -p "$out"

# A task uses the cores Slurm gave it, not every core of the node (without cgroups the solver would see them
# all), unless the options say otherwise.
solver_args=("$@")
case " $* " in
    *" -j"* | *" --threads"*) ;;
    *) solver_args=(--threads "$cpus" "$@") ;;
esac

# The job scripts, every value quoted for bash: paths and solver options may hold spaces.
q() {
    local s
    s=$(printf '%q ' "$@")
    printf '%s' "${s% }"
}
{
    echo '#!/bin/bash'
    echo '# Written by scripts/slurm/batch.sh: one shard of the batch, resumable.'
    echo 'set -euo pipefail'
    echo "tables=$(q "$tables")"
    if [ -n "$local_tables" ]; then
        # Several tasks on one node copy at once: each to a name of its own, then an atomic rename.
        echo "local=$(q "$local_tables")"
        echo 'mkdir -p "$local"'
        echo 'for f in "$tables"/*; do'
        echo '    [ -f "$f" ] || continue'
        echo '    dest=$local/$(basename "$f")'
        echo '    [ "$(stat -c %s.%Y "$f")" = "$(stat -c %s.%Y "$dest" 2>/dev/null)" ] && continue'
        echo '    cp -p "$f" "$dest.$SLURM_JOB_ID" && mv -f "$dest.$SLURM_JOB_ID" "$dest"'
        echo 'done'
        echo 'tables=$local'
    fi
    echo "exec $(q "$solver") batch $(q "$input") --pdbs \"\$tables\" \\"
    echo "    --shard \"\$SLURM_ARRAY_TASK_ID/$tasks\" -o $(q "$out")/\"shard-\$SLURM_ARRAY_TASK_ID.jsonl\" --resume \\"
    echo "    $(q "${solver_args[@]}")"
} >"$out/shard.sbatch"
{
    echo '#!/bin/bash'
    echo '# Written by scripts/slurm/batch.sh: the shards merged, once every task has finished.'
    echo 'set -euo pipefail'
    echo "cd $(q "$out")"
    echo "$(q "$solver") report shard-*.jsonl >report.txt.part"
    echo 'mv -f report.txt.part report.txt'
} >"$out/report.sbatch"

array=${only:-0-$((tasks - 1))}
shard_job=$(sbatch --parsable --job-name=stp-batch --array="$array" --cpus-per-task="$cpus" \
    --output="$out/slurm-%A_%a.out" "${sbatch_args[@]}" "$out/shard.sbatch")
shard_job=${shard_job%%;*}
echo "shards: job $shard_job (array $array of 0-$((tasks - 1)))"
# A shard that fails cancels the report rather than leaving it pending forever; resubmit with --only.
report_args=(--parsable --job-name=stp-report --dependency=afterok:"$shard_job" --kill-on-invalid-dep=yes
    --output="$out/slurm-%j.out" "${sbatch_args[@]}")
report_job=$(sbatch "${report_args[@]}" "$out/report.sbatch")
report_job=${report_job%%;*}
echo "report: job $report_job, $out/report.txt"
[ $wait_report -eq 1 ] || exit 0

# Polled rather than `sbatch --wait`, which answers 0 for a job cancelled before it ran (a failed shard).
while [ -n "$(squeue --noheader --jobs "$report_job" --format %A 2>/dev/null)" ]; do
    sleep 2
done
state=$(scontrol show job --oneliner "$report_job" 2>/dev/null | grep -o 'JobState=[A-Z_]*' || true)
if [ "$state" != JobState=COMPLETED ]; then
    echo "batch.sh: the report job $report_job ended ${state#JobState=}${state:+ }(a shard failed? see" \
        "$out/slurm-*.out; resubmit the failed shards with --only, they resume)" >&2
    exit 1
fi
