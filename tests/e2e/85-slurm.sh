#!/usr/bin/env bash
# tests/e2e/85-slurm.sh - a night through deploy/slurm-night.sh on a private single-node Slurm
# cluster this script starts and stops: its own munge key and munged, a slurm.conf in $TMP
# (SLURM_CONF), slurmctld and slurmd on loopback ports of its own. Needs the munge and
# slurm-wlm packages (scripts/install-deps); as root, because SlurmUser is root.
. "$(dirname "$0")/../lib.sh"

NIGHT=2099-03-01
P=e2e85x
export NIGHT_DB=$TMP/history.sqlite
C=$TMP/cluster
export SLURM_CONF=$C/slurm.conf

stop_pid() { # pidfile: TERM, wait up to 10 s, then KILL
	local f=$1 pid
	[ -s "$f" ] || return 0
	pid=$(cat "$f")
	kill "$pid" 2>/dev/null || return 0
	for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
}
cleanup() {
	if [ -s "$C/slurmctld.pid.mine" ]; then
		# nothing of the night keeps running: cancel what is left, then stop the daemons
		scancel --full --quiet --user="$(id -un)" 2>/dev/null
		for _ in $(seq 50); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
	fi
	stop_pid "$C/slurmd.pid.mine"
	stop_pid "$C/slurmctld.pid.mine"
	stop_pid "$C/munged.pid.mine"
	rm -rf "out/nightly/$NIGHT" out/${P}_* "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for cmd in munged slurmctld slurmd sbatch; do
	if ! command -v "$cmd" >/dev/null; then
		not_ok "the Slurm test needs '$cmd' (packages munge and slurm-wlm: make deps)"
		finish
	fi
done
if [ "$(id -u)" -ne 0 ]; then
	not_ok "the Slurm test runs its cluster with SlurmUser=root and needs root"
	finish
fi

# --- munge: a fresh key, and munged on a socket of its own
mkdir -p "$C/munge" "$C/state" "$C/spool"
chmod 711 "$C" "$C/munge"
head -c 1024 /dev/urandom >"$C/munge/munge.key"
chmod 600 "$C/munge/munge.key"
munged --foreground --force --socket="$C/munge/socket" --key-file="$C/munge/munge.key" \
	--log-file="$C/munged.log" --pid-file="$C/munged.pid" --seed-file="$C/munge/seed" \
	>"$C/munged.out" 2>&1 &
echo $! >"$C/munged.pid.mine"
for _ in $(seq 100); do [ -S "$C/munge/socket" ] && break; sleep 0.1; done
check "munged answers on its own socket" sh -c "munge -S '$C/munge/socket' -n | unmunge -S '$C/munge/socket'"

# --- slurm.conf: one node (this host on 127.0.0.1), one partition, no accounting
H=$(hostname -s)
read -r CTLD_PORT SLURMD_PORT < <("$PY" -c '
import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in ss))')
cat >"$SLURM_CONF" <<EOF
ClusterName=strataudit-test
SlurmctldHost=$H(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$C/munge/socket
CredType=cred/munge
StateSaveLocation=$C/state
SlurmdSpoolDir=$C/spool
SlurmctldPidFile=$C/slurmctld.pid
SlurmdPidFile=$C/slurmd.pid
SlurmctldLogFile=$C/slurmctld.log
SlurmdLogFile=$C/slurmd.log
SlurmdParameters=config_overrides
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MinJobAge=600
KillWait=5
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$H NodeAddr=127.0.0.1 CPUs=2 RealMemory=2048 State=UNKNOWN
PartitionName=test Nodes=$H Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -i >"$C/slurmctld.out" 2>&1 &
echo $! >"$C/slurmctld.pid.mine"
slurmd -D -N "$H" >"$C/slurmd.out" 2>&1 &
echo $! >"$C/slurmd.pid.mine"
state=
for _ in $(seq 150); do
	state=$(sinfo -h -n "$H" -o %T 2>/dev/null)
	[ "$state" = idle ] && break
	sleep 0.2
done
expect_eq "the private cluster's node comes up idle" idle "$state"
if [ "$state" != idle ]; then
	tail -n 20 "$C/slurmctld.log" "$C/slurmd.log" "$C/slurmctld.out" "$C/slurmd.out" | sed 's/^/#   /'
	finish
fi

# --- the folder: the honest demo and a strategy with a syntax error
S=$TMP/strategies
mkdir -p "$S"
printf '# trials: %s\n' "$(awk '$1 == "honest" { print $2 }' demos/expected-verdicts.txt)" |
	cat - demos/honest.py >"$S/${P}_honest.py"
cat >"$S/${P}_broken.py" <<'PYEOF'
def signals(df)
    return [0] * len(df)
PYEOF

D=out/nightly/$NIGHT
t0=$(date +%s)
check "deploy/slurm-night.sh submits the night" deploy/slurm-night.sh "$S" "$NIGHT"
cp "$TMP/.out" "$TMP/submit.out"
ids=$(sed -n 's/^slurm-night: .* array job \([0-9]*\).* job \([0-9]*\).*/\1 \2/p' "$TMP/submit.out")
read -r ARRAY FIN <<<"$ids"
check "it names the array job and the finishing job" test -n "${ARRAY:-}" -a -n "${FIN:-}"
if [ -z "${ARRAY:-}" ] || [ -z "${FIN:-}" ]; then finish; fi

# --- a bounded wait: the array and the dependent job leave the queue within 5 minutes
left=
for _ in $(seq 300); do
	left=$(squeue -h -o %i 2>/dev/null)
	[ -z "$left" ] && break
	sleep 1
done
t1=$(date +%s)
expect_eq "the array and the finishing job finish within 5 minutes" "" "$left"
echo "# the night on Slurm took $((t1 - t0)) s"
job_states() { # JOBID: "state exit" of each job of JOBID (every array task), one per line
	scontrol -o show job "$1" 2>/dev/null |
		sed -n 's/.*JobState=\([A-Z_]*\) .*ExitCode=\([0-9:]*\).*/\1 \2/p'
}
expect_eq "both array tasks completed with exit 0" "COMPLETED 0:0
COMPLETED 0:0" "$(job_states "${ARRAY:-0}")"
expect_eq "the finishing job ran after them and completed" "COMPLETED 0:0" "$(job_states "${FIN:-0}")"
# the finishing job started no earlier than the last audit ended
check "the finishing job started after the array ended" "$PY" - "$ARRAY" "$FIN" <<'PYEOF'
import re, subprocess, sys
def times(job, key):
    out = subprocess.run(['scontrol', '-o', 'show', 'job', job], capture_output=True, text=True).stdout
    return re.findall(key + r'=(\S+)', out)
end = max(times(sys.argv[1], 'EndTime'))
start = min(times(sys.argv[2], 'StartTime'))
assert start >= end, (start, end)
PYEOF

# --- every strategy reached a verdict, and the night's index lists both
for n in honest broken; do
	check "${P}_$n reached a verdict in out/${P}_$n/verdict.json" \
		"$PY" -c 'import json,sys; v=json.load(open(sys.argv[1]))["verdict"]; assert v and v != "FAILED", v' \
		"out/${P}_$n/verdict.json"
	[ -s "out/${P}_$n/verdict.json" ] ||
		tail -n 15 "$D/logs/${P}_$n.log" "$D/logs/slurm-${ARRAY}_"*.log 2>&1 | sed 's/^/#   /'
done
expect_eq "the honest demo earns the verdict demos/expected-verdicts.txt gives it" \
	"$(awk '$1 == "honest" { print $3 }' demos/expected-verdicts.txt)" \
	"$(jget out/${P}_honest/verdict.json verdict 2>/dev/null)"
check "the night's index is written" test -s "$D/index.html" -a -s "$D/index.xlsx" -a -s "$D/index.json"
expect_eq "the index has one row per strategy" "${P}_broken ${P}_honest" \
	"$("$PY" -c 'import json,sys; print(" ".join(sorted(r["name"] for r in json.load(open(sys.argv[1]))["rows"])))' "$D/index.json")"
check "the finishing job recorded the night in the history" test -s "$NIGHT_DB"
check "each array task logged into the night's folder" \
	sh -c "ls '$D'/logs/slurm-${ARRAY}_0.log '$D'/logs/slurm-${ARRAY}_1.log '$D'/logs/slurm-${FIN}.log"
finish
