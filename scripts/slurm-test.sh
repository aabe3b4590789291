#!/usr/bin/env bash
# A small `orchestrator sweep` through a real single-node Slurm (slurmctld + slurmd from Debian's
# slurm-wlm, configured in a temporary directory for this host, no munge: auth/none), compared
# with the same sweep run locally. Installs slurm-wlm when it can (root with apt-get); otherwise
# prints SKIP with the reason and exits 0. Called by scripts/test.sh after the test suites.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
orchestrator=${ORCHESTRATOR:-$root/target/release/orchestrator}

if ! command -v slurmctld >/dev/null || ! command -v sbatch >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        if ! { apt-get update -qq && apt-get install -y -qq slurm-wlm; } >/dev/null 2>&1; then
            echo "SKIP: slurm-wlm could not be installed with apt-get"
            exit 0
        fi
    else
        echo "SKIP: Slurm is not installed and cannot be installed here (needs root and apt-get)"
        exit 0
    fi
fi

work=$(mktemp -d)
host=$(hostname -s)
mkdir -p "$work/state" "$work/spool"
cat > "$work/slurm.conf" <<CONF
ClusterName=orchestrator-test
SlurmctldHost=$host
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf

stop_daemons() {
    for pid_file in "$work/slurmd.pid" "$work/slurmctld.pid"; do
        [ -f "$pid_file" ] && kill "$(cat "$pid_file")" 2>/dev/null || true
    done
    sleep 1
    rm -rf "$work"
}
trap stop_daemons EXIT

slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
    if sinfo -h -o %T 2>/dev/null | grep -q idle; then break; fi
    sleep 1
done
if ! sinfo -h -o %T 2>/dev/null | grep -q idle; then
    echo "FAIL: the Slurm node did not become idle within 60 s:" >&2
    tail -5 "$work/slurmctld.log" "$work/slurmd.log" >&2 || true
    exit 1
fi

# Submits sweep file $1 into folder $2 as a 2-task job array and waits for it; prints the job id.
submit_and_wait() {
    local submitted job
    submitted=$("$orchestrator" sweep "$1" --out "$2" --slurm 2 --sbatch-option=--partition=test)
    job=$(grep -o 'Submitted batch job [0-9]*' <<<"$submitted" | grep -o '[0-9]*$')
    for _ in $(seq 120); do
        if [ -z "$(squeue -h 2>/dev/null)" ]; then break; fi
        sleep 1
    done
    if [ -n "$(squeue -h 2>/dev/null)" ]; then
        echo "FAIL: the job array did not finish within 120 s" >&2
        squeue >&2 || true
        exit 1
    fi
    echo "$job"
}

# The state of each task of job array $1, sorted (`COMPLETED COMPLETED`).
task_states() {
    scontrol show job -o "$1" | grep -o 'JobState=[A-Z]*' | cut -d= -f2 | sort | tr '\n' ' ' | sed 's/ $//'
}

cat > "$work/sweep.json" <<SWEEP
{ "system": "$root/examples/gunns-6dof.json", "work": "run",
  "grid": { "body.mass": [1e6, 2e6, 3e6], "stop": [0.5] }, "statistics": ["body.x"] }
SWEEP
# An output folder with a space and a %: the job script's #SBATCH --output must be quoted, and
# the % written %% (Slurm's filename patterns replace %A, %a, ...).
started=$(date +%s)
job=$(submit_and_wait "$work/sweep.json" "$work/slurm out 100%")
slurm_seconds=$(( $(date +%s) - started ))
states=$(task_states "$job")
if [ "$states" != "COMPLETED COMPLETED" ]; then
    echo "FAIL: the tasks of job $job ended $states, not COMPLETED COMPLETED" >&2
    cat "$work/slurm out 100%"/slurm-*.out >&2 || true
    exit 1
fi
# Each task wrote its output into the folder (named by #SBATCH --output) and counts its own
# points only (none of them done before).
outputs=("$work/slurm out 100%"/slurm-*.out)
if [ "${#outputs[@]}" != 2 ] || [ ! -f "${outputs[0]}" ]; then
    echo "FAIL: expected the 2 tasks' slurm-*.out in the output folder, found: ${outputs[*]}" >&2
    exit 1
fi
if grep -L "0 already done" "$work/slurm out 100%"/slurm-*.out | grep -q .; then
    echo "FAIL: a task counted points as already done:" >&2
    cat "$work/slurm out 100%"/slurm-*.out >&2
    exit 1
fi
# By default each task packs its points (packed/, no folder per point) and runs them in worker
# processes; the reference runs locally with a process and a folder per point.
if [ -e "$work/slurm out 100%/points" ] || ! ls "$work/slurm out 100%"/packed/points-*.jsonl >/dev/null 2>&1; then
    echo "FAIL: the tasks did not write packed results (packed/points-*.jsonl) instead of points/" >&2
    ls -R "$work/slurm out 100%" >&2
    exit 1
fi
"$orchestrator" sweep "$work/sweep.json" --out "$work/slurm out 100%" --gather >/dev/null
sed 's/"work": "run",/"work": "run", "packed": false, "process": "point",/' "$work/sweep.json" > "$work/per-point.json"
"$orchestrator" sweep "$work/per-point.json" --out "$work/local" --jobs 2 >/dev/null 2>&1

python3 - "$work/slurm out 100%/sweep.csv" "$work/local/sweep.csv" <<'PY'
import csv, sys
def table(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    skip = ("wall_seconds", "real_time_factor", "error")
    return [{k: v for k, v in r.items() if not k.endswith(skip)} for r in rows]
slurm, local = table(sys.argv[1]), table(sys.argv[2])
assert len(slurm) == 3 and all(r["status"] == "ok" for r in slurm), slurm
assert slurm == local, (slurm, local)
PY

# A point that fails (a negative mass) fails its task: Slurm shows it FAILED, the other COMPLETED.
sed 's/1e6, 2e6, 3e6/1e6, -1, 3e6/' "$work/sweep.json" > "$work/failing.json"
job=$(submit_and_wait "$work/failing.json" "$work/failing")
states=$(task_states "$job")
if [ "$states" != "COMPLETED FAILED" ]; then
    echo "FAIL: with a failing point the tasks of job $job ended $states, not COMPLETED FAILED" >&2
    exit 1
fi
echo "PASS: Slurm $(sinfo --version | cut -d' ' -f2): a 3-point sweep as a 2-task job array in ${slurm_seconds} s into a folder with a space and a %, packed, sweep.csv equal to a local run with a process and a folder per point; a failing point's task FAILED"
