#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, to try the cluster scripts and to test them against a real Slurm
# rather than a mock: `start` installs `slurm-wlm` and `munge` from the distribution's packages when they
# are missing (root, Debian's apt-get), writes a configuration for this machine (its short host name, its
# cores and memory), and starts `munged`, `slurmctld` and `slurmd` as plain daemons (containers have no
# systemd); `stop` kills them; `status` says whether the cluster answers; `env` prints the line that points
# the Slurm commands at it.
#
# Everything it writes is under $STP_SLURM_DIR (default /var/tmp/stp-slurm): the configuration, the munge
# key and socket, the state, spool and log files. Nothing in /etc is changed, so the Slurm commands find
# the cluster through `SLURM_CONF` (`eval "$(scripts/slurm/local-cluster.sh env)"`). The daemons listen on
# 127.0.0.1, ports $STP_SLURM_PORT and the next one (default 6817, 6818: Slurm's own).
#
# Exit codes: 0 up (a second `start` of a cluster that is up changes nothing), 1 failed (with the daemons'
# log tails), 77 not possible here (not root; Slurm is run as root, as on a cluster's nodes), so that a test
# can skip.
set -euo pipefail

DIR=${STP_SLURM_DIR:-/var/tmp/stp-slurm}
PORT=${STP_SLURM_PORT:-6817}
# Bounded so that a cluster that will not come up fails a test in about a minute rather than hanging it.
START_TIMEOUT=${STP_SLURM_START_TIMEOUT:-60}
CONF=$DIR/slurm.conf
MUNGE=$DIR/munge
SOCKET=$MUNGE/munge.socket
export SLURM_CONF=$CONF

say() { echo "local-cluster: $*" >&2; }

usage() {
    echo "usage: $0 start|stop|status|env" >&2
    exit 2
}

# Through /proc rather than `kill -0`, which a user other than the daemons' (root) is refused.
pid_alive() { [ -s "$1" ] && [ -d "/proc/$(cat "$1")" ]; }

daemons_alive() {
    pid_alive "$MUNGE/munged.pid" && pid_alive "$DIR/slurmctld.pid" && pid_alive "$DIR/slurmd.pid"
}

# The node answers and takes jobs: listed idle (or busy with someone's jobs) and not down or drained.
node_ready() {
    local state
    state=$(timeout 10 sinfo --noheader --node "$(hostname -s)" --format %T 2>/dev/null) || return 1
    case "$state" in idle | mixed | allocated | completing) return 0 ;; *) return 1 ;; esac
}

cluster_up() { daemons_alive && node_ready; }

install_packages() {
    if command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null &&
        command -v munged >/dev/null; then
        return 0
    fi
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
        say "Slurm (slurmctld, slurmd, sbatch) and munge are not installed, and installing them takes root and" \
            "Debian's packages (apt-get install slurm-wlm munge)"
        exit 77
    fi
    say "installing slurm-wlm and munge (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
}

write_config() {
    local host cpus mem_mb
    host=$(hostname -s)
    cpus=$(nproc)
    # MemTotal in kB; a little is left out so that slurmd, which counts memory its own way, never finds less
    # than configured and drains the node.
    mem_mb=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.95 }' /proc/meminfo)
    cat >"$CONF" <<EOF
# Written by scripts/slurm/local-cluster.sh: one node, this machine ($host), everything under $DIR.
ClusterName=stp-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCKET
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
# No cgroups: a container usually cannot create them.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
MailProg=/bin/true
SwitchType=switch/none
# No accounting database.
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
# A test cluster runs short jobs one after another (an iteration's array, then its merge): schedule at once
# rather than on the default ticks (a batch job may wait up to 3 s, the backfill loop runs every 30 s).
SchedulerParameters=batch_sched_delay=0,sched_interval=1,bf_interval=1
# Cores are the consumable: an array task per core unless it asks for more (--cpus-per-task).
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
# A node that went down comes back by itself when its slurmd registers again.
ReturnToService=2
# Arrays of a big batch's shards; jobs finished long ago are forgotten.
MaxArraySize=100001
MaxJobCount=200000
MinJobAge=300
# The node as configured here, whatever topology slurmd detects (cores here are nproc's CPUs).
SlurmdParameters=config_overrides
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
}

start_munged() {
    pid_alive "$MUNGE/munged.pid" && return 0
    # munged insists on a socket directory everyone may traverse and on files only its user can read.
    mkdir -p "$MUNGE"
    chmod 0711 "$MUNGE"
    if [ ! -s "$MUNGE/munge.key" ]; then
        if command -v mungekey >/dev/null; then
            mungekey --create --keyfile="$MUNGE/munge.key"
        else
            dd if=/dev/urandom of="$MUNGE/munge.key" bs=1024 count=1 status=none
        fi
    fi
    chmod 0600 "$MUNGE/munge.key"
    munged --key-file="$MUNGE/munge.key" --socket="$SOCKET" --pid-file="$MUNGE/munged.pid" \
        --log-file="$MUNGE/munged.log" --seed-file="$MUNGE/munged.seed"
}

start() {
    if [ -f "$CONF" ] && cluster_up; then
        say "already up ($(hostname -s), $CONF)"
        return 0
    fi
    install_packages
    if [ "$(id -u)" -ne 0 ]; then
        say "starting the daemons takes root (slurmd runs jobs as their users); run as root, or use a real cluster"
        exit 77
    fi
    # Half-started leftovers (a daemon that died, a node that never registered) are restarted from scratch.
    stop_daemons quiet
    mkdir -p "$DIR/state" "$DIR/spool"
    chmod 0755 "$DIR"
    write_config
    start_munged
    # -c: no jobs of an earlier run of this cluster come back.
    slurmctld -c
    slurmd
    local begin=$SECONDS deadline=$((SECONDS + START_TIMEOUT))
    until node_ready; do
        # The daemons write their pid files a moment after they fork; one missing after seconds is dead.
        if [ $SECONDS -ge $((begin + 5)) ] && ! daemons_alive; then
            fail "a daemon exited (a port in use? another cluster's key?)"
        fi
        if [ $SECONDS -ge $deadline ]; then
            fail "the node did not become idle within ${START_TIMEOUT} s"
        fi
        sleep 1
    done
    # The node may say idle before it can launch anything: one real job step proves the whole path (munge
    # credentials, slurmd launching as the user, the step's I/O back to the client).
    until timeout 20 srun --nodes=1 --ntasks=1 --time=1 true 2>/dev/null; do
        if [ $SECONDS -ge $deadline ]; then
            fail "the node is idle but \`srun -N1 true\` did not run within ${START_TIMEOUT} s"
        fi
        sleep 1
    done
    say "up: node $(hostname -s), $(nproc) CPUs, in $DIR; for the Slurm commands: export SLURM_CONF=$CONF"
}

fail() {
    say "$1"
    local log
    for log in "$DIR/slurmctld.log" "$DIR/slurmd.log" "$MUNGE/munged.log"; do
        [ -f "$log" ] && { echo "--- tail of $log" >&2; tail -n 15 "$log" >&2; }
    done
    # Nothing half-started is left running; the logs stay.
    stop_daemons quiet
    exit 1
}

# Cancels this cluster's jobs (their processes are not the daemons' children), then kills only the daemons
# whose pid files this script's configuration names, waiting until they are gone so that a following start
# can bind the same ports.
stop_daemons() {
    local pidfile pid stopped=0 i jobs=()
    if [ -f "$CONF" ] && daemons_alive; then
        mapfile -t jobs < <(timeout 10 squeue --noheader --format %A 2>/dev/null || true)
        if [ ${#jobs[@]} -gt 0 ]; then
            timeout 10 scancel "${jobs[@]}" || true
            for i in $(seq 20); do
                [ -z "$(timeout 10 squeue --noheader --format %A 2>/dev/null)" ] && break
                sleep 0.5
            done
        fi
    fi
    for pidfile in "$DIR/slurmd.pid" "$DIR/slurmctld.pid" "$MUNGE/munged.pid"; do
        pid_alive "$pidfile" || { rm -f "$pidfile"; continue; }
        pid=$(cat "$pidfile")
        kill "$pid"
        for i in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.2
        done
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
        rm -f "$pidfile"
        stopped=$((stopped + 1))
    done
    [ "${1:-}" = quiet ] || say "stopped $stopped daemon(s)"
}

case "${1:-}" in
    start) start ;;
    stop) stop_daemons ;;
    status)
        if [ -f "$CONF" ] && cluster_up; then
            say "up ($(hostname -s), $CONF)"
            sinfo
        else
            say "not up"
            exit 1
        fi
        ;;
    env) echo "export SLURM_CONF=$CONF" ;;
    *) usage ;;
esac
