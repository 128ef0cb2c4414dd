#!/usr/bin/env bash
# 30-sandbox.sh - the sandbox stage: command line, run.json and events.jsonl for good and bad
# uploads, and the malicious demo with the host checked afterwards (canary, planted files,
# surviving processes, a loopback listener).
source "$(dirname "$0")/../lib.sh"
# The host checks use fixed paths (the malicious demo aims at the canary by name), so two
# checkouts testing on one machine take turns here rather than rewrite each other's canary.
exec 9>>/run/lock/strataudit-e2e-host.lock && flock 9
SB=$BIN/sandbox

head -n 201 data/ohlcv.csv >"$TMP/bars.csv" 2>/dev/null || { not_ok "data/ohlcv.csv present (make data/ohlcv.csv)"; finish; }
cat >"$TMP/config.json" <<'JSON'
{"stage": "config", "schema": 1, "ok": true,
 "limits": {"wall_s": 3, "cpu_s": 10, "mem_mb": 512, "scratch_mb": 4, "nofile": 64}}
JSON
run() { # run STRATEGY: sandbox on 200 bars into $TMP/run.json and $TMP/events.jsonl (never the last run's); $RUN_PID its pid
	local rc
	rm -f "$TMP/run.json" "$TMP/events.jsonl"
	"$SB" --strategy "$1" --data "$TMP/bars.csv" --config "$TMP/config.json" -o "$TMP/run.json" \
		--events "$TMP/events.jsonl" 2>"$TMP/stderr" &
	RUN_PID=$!
	wait "$RUN_PID"
	rc=$?
	return "$rc"
}
strategy() { cat >"$TMP/$1.py"; echo "$TMP/$1.py"; }

check "--help exits 0" "$SB" --help
"$SB" --bogus >/dev/null 2>&1
expect_eq "an unknown option exits 2" 2 $?
"$SB" --data x -o y >/dev/null 2>&1
expect_eq "missing required options exit 2" 2 $?

rm -f "$TMP/run.json" "$TMP/events.jsonl"
"$SB" --data "$TMP/bars.csv" --config "$TMP/config.json" -o "$TMP/run.json" --events "$TMP/events.jsonl"
expect_eq "no strategy: exit 0" 0 $?
expect_eq "no strategy: status not_run" not_run "$(jget "$TMP/run.json" status)"
expect_eq "no strategy: ok false" false "$(jget "$TMP/run.json" ok)"
expect_eq "no strategy: reason" "no strategy was uploaded" "$(jget "$TMP/run.json" reason)"
expect_eq "no strategy: stage and schema" "sandbox 1" "$(jget "$TMP/run.json" stage) $(jget "$TMP/run.json" schema)"
expect_eq "no strategy: events.jsonl exists and is empty" 0 "$(wc -c <"$TMP/events.jsonl")"

good=$(strategy good <<'PY'
import numpy as np
def signals(df):
    assert str(df.index.tz) == "UTC" and list(df.columns) == ["open", "high", "low", "close", "volume"]
    assert all(str(t) == "float64" for t in df.dtypes)
    return np.where(df["close"] > df["open"], 1, np.where(df["close"] < df["open"], -1, 0))
PY
)
run "$good"
expect_eq "good: exit 0" 0 $?
expect_eq "good: status ok" ok "$(jget "$TMP/run.json" status)"
expect_eq "good: n_bars" 200 "$(jget "$TMP/run.json" n_bars)"
want=$("$PY" -c 'import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); print([1 if float(x["close"])>float(x["open"]) else -1 if float(x["close"])<float(x["open"]) else 0 for x in r])' "$TMP/bars.csv")
expect_eq "good: signals match the bars" "$(echo "$want" | tr -d ' ')" "$(jget "$TMP/run.json" signals | tr -d ' ')"
expect_eq "good: no events" 0 "$(wc -l <"$TMP/events.jsonl")"
expect_eq "good: limits echoed" '{"wall_s": 3, "cpu_s": 10, "mem_mb": 512, "scratch_mb": 4, "nofile": 64, "cpus": 1}' \
	"$("$PY" -c 'import json,sys; l=json.load(open(sys.argv[1]))["limits"]; l.pop("cgroup"); l.pop("cgroup_reason", None); print(json.dumps(l))' "$TMP/run.json")"
# A cgroup wherever the driver can write one (root, v1 or v2); otherwise null and the reason.
cgroups() { [ "$(id -u)" = 0 ] && { [ -w /sys/fs/cgroup/memory ] || grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; }; }
if cgroups; then
	expect_eq "good: a cgroup as root" "64 1" "$(jget "$TMP/run.json" limits.cgroup.pids_per_run) $(jget "$TMP/run.json" limits.cgroup.cpus_per_run)"
	expect_eq "good: the zygote's own CPU recorded" 1 "$(jget "$TMP/run.json" limits.cgroup.cpus_zygote)"
	# scheduled as its processes would be outside it: a run and the zygote, two processes'
	# weight (one would give every run of an audit a single process's share of a busy machine)
	slow=$(strategy slow <<'PY'
import time
def signals(df):
    time.sleep(1.5)
    return [0] * len(df)
PY
)
	"$SB" --strategy "$slow" --data "$TMP/bars.csv" --config "$TMP/config.json" -o "$TMP/slow.json" \
		--events "$TMP/slow.jsonl" 2>/dev/null &
	slow_pid=$!
	weight=
	for _ in $(seq 50); do
		weight=$(cat "/sys/fs/cgroup/cpu/strataudit-$slow_pid/cpu.shares" \
			"/sys/fs/cgroup/strataudit-$slow_pid/cpu.weight" 2>/dev/null | head -n 1)
		[ -n "$weight" ] && [ "$weight" != 1024 ] && [ "$weight" != 100 ] && break
		sleep 0.05
	done
	wait "$slow_pid"
	expect_eq "good: the cgroup weighs as a run and the zygote" \
		"$(jget "$TMP/slow.json" limits.cgroup.version | sed 's/^1$/2048/; s/^2$/200/')" "$weight"
	expect_eq "good: the weight a run recorded" \
		"$(jget "$TMP/slow.json" limits.cgroup.version | sed 's/^1$/1024/; s/^2$/100/')" \
		"$(jget "$TMP/slow.json" limits.cgroup.cpu_weight_per_run)"
	# the driver names its cgroup by its own pid: only this run's is looked for (another audit
	# on the machine may hold one of its own)
	expect_eq "good: the cgroup is removed after" "" \
		"$(ls -d "/sys/fs/cgroup/strataudit-$RUN_PID" /sys/fs/cgroup/*/"strataudit-$RUN_PID" 2>/dev/null)"
else
	expect_eq "good: no cgroup without root" null "$(jget "$TMP/run.json" limits.cgroup)"
	if [ -n "$(jget "$TMP/run.json" limits.cgroup_reason)" ]; then ok "good: why there is no cgroup"; else not_ok "good: why there is no cgroup"; fi
fi
cp "$TMP/run.json" "$TMP/run1.json"
run "$good"
expect_eq "good: same signals on a second run" "$(jget "$TMP/run1.json" signals)" "$(jget "$TMP/run.json" signals)"
if cgroups; then
	# The quota applied while a run is inside: CPUS for the run plus the zygote's core, so a
	# run at a time is not throttled by the zygote forking it (v2 cpu.max, v1 cfs_quota_us).
	slow=$(strategy slow <<'PY'
import time, numpy as np
def signals(df):
    time.sleep(2)
    return np.zeros(len(df), dtype=int)
PY
)
	rm -f "$TMP/run.json"
	"$SB" --strategy "$slow" --data "$TMP/bars.csv" --config "$TMP/config.json" -o "$TMP/run.json" \
		--events "$TMP/events.jsonl" 2>"$TMP/stderr" &
	spid=$!
	quota=
	for _ in $(seq 40); do
		quota=$(cat "/sys/fs/cgroup/strataudit-$spid/cpu.max" \
			"/sys/fs/cgroup/cpu/strataudit-$spid/cpu.cfs_quota_us" 2>/dev/null | head -n 1)
		[ -n "$quota" ] && [ "${quota%% *}" != max ] && [ "${quota%% *}" != -1 ] && break
		sleep 0.1
	done
	wait "$spid"
	expect_eq "good: the CPU quota is CPUS + 1 cores over 100 ms" 200000 "${quota%% *}"
	expect_eq "slow: still ok" ok "$(jget "$TMP/run.json" status)"
fi

bad_case() { # bad_case NAME STATUS BODY: the status a broken upload earns, with an error text
	local f
	f=$(printf 'import numpy as np\ndef signals(df):\n    %s\n' "$3" | strategy "$1")
	run "$f"
	expect_eq "$1: status $2" "$2" "$(jget "$TMP/run.json" status)"
	if [ -n "$(jget "$TMP/run.json" error)" ] && [ "$(jget "$TMP/run.json" error)" != null ]; then ok "$1: error text"; else not_ok "$1: error text"; fi
}
# The converter takes every dtype numpy has for -1, 0 and 1 and names the first other value
# exactly (257 would wrap to 1 in int8, 1.5 truncate to 1, inf and nan cast to anything).
conv_case() { # conv_case NAME BODY STATUS ERROR-OR-SIGNAL-SUM
	local f
	f=$(printf 'import numpy as np\ndef signals(df):\n    x = np.zeros(len(df))\n    %s\n' "$2" | strategy "conv_$1")
	run "$f"
	expect_eq "convert $1: status" "$3" "$(jget "$TMP/run.json" status)"
	if [ "$3" = ok ]; then
		expect_eq "convert $1: signals" "$4" "$("$PY" -c 'import json,sys; print(sum(json.load(open(sys.argv[1]))["signals"]))' "$TMP/run.json")"
	else
		expect_eq "convert $1: error" "BadOutput: $4" "$(jget "$TMP/run.json" error)"
	fi
}
conv_case half 'x[3] = 1.5; return x' bad_output "value 1.5 at bar 3 is not -1, 0 or 1"
conv_case wraps 'return np.where(np.arange(len(df)) == 7, 257, 1).astype(np.int16)' bad_output "value 257.0 at bar 7 is not -1, 0 or 1"
conv_case minus_two 'x[0] = -2; return x.astype(np.int64)' bad_output "value -2.0 at bar 0 is not -1, 0 or 1"
conv_case inf 'x[5] = np.inf; return x' bad_output "value inf at bar 5 is not -1, 0 or 1"
expect_eq "convert inf: nothing is counted as flat" 0 "$(jget "$TMP/run.json" nan_as_flat)"
conv_case nan_late 'x[199] = np.nan; return x.astype(np.float32)' ok 0
expect_eq "convert nan_late: the NaN is counted as flat" 1 "$(jget "$TMP/run.json" nan_as_flat)"
conv_case warmup 'x[:] = 1; x[:20] = np.nan; return x' ok 180
expect_eq "convert warmup: twenty NaN bars counted as flat" 20 "$(jget "$TMP/run.json" nan_as_flat)"
conv_case nones 'return [None] * 5 + [-1] * (len(df) - 5)' ok -195
expect_eq "convert nones: None is flat too" 5 "$(jget "$TMP/run.json" nan_as_flat)"
conv_case none_string 'return [None] * 5 + ["1"] * (len(df) - 5)' bad_output "signals() returned a str at bar 5, not a number"
conv_case inf_after_nan 'x[0] = np.nan; x[1] = -np.inf; return x' bad_output "value -inf at bar 1 is not -1, 0 or 1"
conv_case uint_two 'return np.full(len(df), 2, dtype=np.uint8)' bad_output "value 2.0 at bar 0 is not -1, 0 or 1"
conv_case uint 'return np.ones(len(df), dtype=np.uint64)' ok 200
conv_case uint_max 'return np.full(len(df), 2**64 - 1, dtype=np.uint64)' bad_output "value 1.8446744073709552e+19 at bar 0 is not -1, 0 or 1"
conv_case int_last 'x = x.astype(np.int32); x[-1] = 3; return x' bad_output "value 3.0 at bar 199 is not -1, 0 or 1"
conv_case int_minus 'x = x.astype(np.int64); x[::3] = -1; return x' ok -67
conv_case bools 'return np.arange(len(df)) % 2 == 0' ok 100
conv_case negzero 'return -x' ok 0
conv_case float32 'return np.where(np.arange(len(df)) < 50, -1.0, 1.0).astype(np.float32)' ok 100
# A truncated run's frame comes through pandas' direct constructors only when they build what
# the public constructor builds: the zygote's own helpers, read from sandbox/inside/py/sa_helpers.py, choose
# the direct path as it stands and keep the public one when it raises or builds another index.
builder=$("$PY" - sandbox/inside/py/sa_helpers.py <<'PYEOF'
import sys
code = open(sys.argv[1], encoding="ascii").read()
def fresh():
    d = {}
    exec(code, d)
    return d
d = fresh()
out = [d["choose_build_cols"](), d["build_cols"].__name__]
d = fresh()
def raises(*a, **k):
    raise TypeError("a changed internal")
d["new_block"] = raises
out += [d["choose_build_cols"](), d["build_cols"].__name__]
d = fresh()
direct = d["build_cols_direct"]
def naive(*a):
    f = direct(*a)
    f.index = f.index.tz_localize(None)
    return f
d["build_cols_direct"] = naive
out += [d["choose_build_cols"](), d["build_cols"].__name__]
print(*out)
PYEOF
)
expect_eq "frame builder: direct when it matches, public when it raises or differs" \
	"True build_cols_direct False build_cols False build_cols" "$builder"

# The warm interpreter's object arenas live in the one region advised onto huge pages
# (sandbox/inside/sbi_arena.c): seen from the host in the zygote's memory map while a run sleeps.
slow=$(strategy slow <<'PY'
import time
import numpy as np
def signals(df):
    time.sleep(1.5)
    return np.zeros(len(df), dtype=int)
PY
)
"$SB" --strategy "$slow" --data "$TMP/bars.csv" --config "$TMP/config.json" -o "$TMP/slow.json" \
	--events "$TMP/slow.events.jsonl" 2>/dev/null &
sb=$!
arena=
for _ in $(seq 30); do
	sleep 0.1
	for z in $(pgrep -P "$sb"); do
		arena=$("$PY" - "$z" <<'PYEOF' 2>/dev/null
import sys
size = rss = None
for line in open("/proc/%s/smaps" % sys.argv[1]):
    key = line.split(":")[0]
    if key == "Size":
        size = int(line.split()[1])
    elif key == "Rss":
        rss = int(line.split()[1])
    elif key == "VmFlags" and size == 32 * 1024 and " hg" in line and rss >= 4096:
        print("arenas on huge pages")
        break
PYEOF
)
		[ -n "$arena" ] && break 2
	done
done
wait "$sb"
if [ -e /sys/kernel/mm/transparent_hugepage/enabled ]; then
	expect_eq "zygote: the interpreter's arenas in the region advised onto huge pages" \
		"arenas on huge pages" "$arena"
fi
expect_eq "zygote: the sleeping run ended ok" ok "$(jget "$TMP/slow.json" status)"
# ...and the region is the zygote's, as its heap is: a run may still map its whole mem_mb (512
# here) of arrays beyond what it held at lockdown (a few MB it frees after come back), no more.
budget=$(strategy budget <<'PY'
import numpy as np
def signals(df):
    lo, hi = 0, 1024
    while hi - lo > 1:
        mid = (lo + hi) // 2
        try:
            a = np.empty(mid << 17)
            del a
            lo = mid
        except MemoryError:
            hi = mid
    print("largest array", lo, "MB")
    return np.zeros(len(df), dtype=int)
PY
)
run "$budget"
largest=$(jget "$TMP/run.json" stdout | sed -n 's/^largest array \([0-9]*\) MB$/\1/p')
if [ -n "$largest" ] && [ "$largest" -ge 500 ] && [ "$largest" -le 528 ]; then
	ok "zygote: a run maps arrays up to its mem_mb ($largest MB of 512)"
else
	not_ok "zygote: a run maps arrays up to its mem_mb" "largest: '$largest' MB of 512"
fi
bad_case short bad_output 'return [0] * (len(df) - 1)'
bad_case two bad_output 'return [2] * len(df)'
bad_case strings bad_output 'return ["buy"] * len(df)'
bad_case none bad_output 'return None'
bad_case frame bad_output 'return df'
bad_case raises error 'raise ValueError("boom")'
bad_case exits bad_output 'import os; os._exit(0)'
bad_case segv crashed 'import sys; sys.setrecursionlimit(10**9); x = []
    for _ in range(10**6): x = [x]
    return repr(x)'
expect_eq "raises: the error names the line" "line 3: ValueError: boom" \
	"$(f=$(printf 'import numpy as np\ndef signals(df):\n    raise ValueError("boom")\n' | strategy raises2); run "$f"; jget "$TMP/run.json" error)"
nosig=$(printf 'x = 1\n' | strategy nosig)
run "$nosig"
expect_eq "no signals(): status error" error "$(jget "$TMP/run.json" status)"
syntax=$(printf 'def signals(df)\n    return 0\n' | strategy syntax)
run "$syntax"
expect_eq "syntax error: status error" error "$(jget "$TMP/run.json" status)"
mem=$(printf 'def signals(df):\n    x = bytearray(4 << 30)\n' | strategy mem)
run "$mem"
expect_eq "memory bomb: status killed_memory" killed_memory "$(jget "$TMP/run.json" status)"
expect_eq "memory bomb: one memory event" memory "$("$PY" -c 'import json,sys; print(" ".join(json.loads(l)["action"] for l in open(sys.argv[1])))' "$TMP/events.jsonl")"

# Resident memory the address-space cap does not see: a touched array within MEM_MB plus scratch
# files (tmpfs pages). Only the cgroup counts both; its own oom_kill event names the status.
if cgroups; then
	sed 's/"mem_mb": 512, "scratch_mb": 4/"mem_mb": 256, "scratch_mb": 200/; s/"wall_s": 3/"wall_s": 20/' \
		"$TMP/config.json" >"$TMP/config-resident.json"
	f=$(strategy resident <<'PY'
import numpy as np
def signals(df):
    a = np.ones(200 << 20, dtype=np.uint8)
    with open("fill", "wb") as f:
        for _ in range(150):
            f.write(b"x" * (1 << 20))
    return [int(a[0])] * len(df)
PY
)
	"$SB" --strategy "$f" --data "$TMP/bars.csv" --config "$TMP/config-resident.json" -o "$TMP/run.json" \
		--events "$TMP/events.jsonl" 2>"$TMP/stderr"
	expect_eq "resident over MEM_MB: status killed_memory" killed_memory "$(jget "$TMP/run.json" status)"
	expect_eq "resident over MEM_MB: the cgroup's event" "memory|killed by the kernel at the cgroup limit (256 MB a run, resident)" \
		"$("$PY" -c 'import json,sys; print(" ".join(e["action"] + "|" + e["detail"] for e in map(json.loads, open(sys.argv[1]))))' "$TMP/events.jsonl")"
	sed -i 's/"mem_mb": 256/"mem_mb": 1024/' "$TMP/config-resident.json"
	"$SB" --strategy "$f" --data "$TMP/bars.csv" --config "$TMP/config-resident.json" -o "$TMP/run.json" \
		--events "$TMP/events.jsonl" 2>"$TMP/stderr"
	expect_eq "the same run with MEM_MB 1024: not killed" ok "$(jget "$TMP/run.json" status)"
fi
rm -f "$TMP/run.json" "$TMP/events.jsonl"
"$SB" --strategy "$good" --data "$TMP/missing.csv" --config "$TMP/config.json" -o "$TMP/run.json" --events "$TMP/events.jsonl" 2>/dev/null
expect_eq "missing data: exit 0 and not_run" "0 not_run" "$? $(jget "$TMP/run.json" status)"
rm -f "$TMP/run.json" "$TMP/events.jsonl"
"$SB" --strategy "$good" --data "$TMP/bars.csv" --config "$TMP/nope.json" -o "$TMP/run.json" --events "$TMP/events.jsonl" 2>/dev/null
expect_eq "missing config: exit 0 and not_run" "0 not_run" "$? $(jget "$TMP/run.json" status)"

# --- the malicious demo ------------------------------------------------------------------------
canary=/var/tmp/strataudit-canary.txt
echo "canary $RANDOM$RANDOM" >"$canary"
canary_sum=$(sha256sum "$canary")
touch "$TMP/marker"
"$PY" - "$TMP/listener.out" <<'PY' &
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 47913)); s.listen(5); s.settimeout(8)
n = 0
try:
    while True:
        s.accept(); n += 1
except socket.timeout:
    pass
open(sys.argv[1], "w").write(str(n))
PY
listener=$!
sleep 0.3
sed 's/"wall_s": 3/"wall_s": 2/' "$TMP/config.json" >"$TMP/config2.json"
rm -f "$TMP/run.json" "$TMP/events.jsonl"
"$SB" --strategy demos/malicious.py --data "$TMP/bars.csv" --config "$TMP/config2.json" -o "$TMP/run.json" \
	--events "$TMP/events.jsonl" 2>"$TMP/stderr"
expect_eq "malicious: exit 0" 0 $?
expect_eq "malicious: status killed_wall_clock" killed_wall_clock "$(jget "$TMP/run.json" status)"
expect_eq "malicious: no signals" "[]" "$(jget "$TMP/run.json" signals)"
expect_eq "malicious: exactly 6 events" 6 "$(wc -l <"$TMP/events.jsonl")"
expect_eq "malicious: blocked_actions 6" 6 "$(jget "$TMP/run.json" blocked_actions)"
expect_eq "malicious: the events, in order" \
	"1:os.system 2:subprocess.Popen 3:socket.__new__ 4:open 5:os.remove 6:wall_clock" \
	"$("$PY" -c 'import json,sys; print(" ".join("%d:%s" % (e["seq"], e["action"]) for e in map(json.loads, open(sys.argv[1]))))' "$TMP/events.jsonl")"
expect_eq "malicious: canary unchanged" "$canary_sum" "$(sha256sum "$canary" 2>/dev/null)"
expect_eq "malicious: nothing planted" "" "$(ls /var/tmp/strataudit-planted.txt /var/tmp/strataudit-shell.txt 2>/dev/null)"
expect_eq "malicious: no new file in /var/tmp, /etc or the data folder" "" \
	"$(find /var/tmp /etc data -xdev -newer "$TMP/marker" -not -path "$canary" 2>/dev/null)"
expect_eq "malicious: no process left behind" 0 \
	"$(ps -eo uid=,ppid= | awk '($1 == 100000 || $1 == 101000) && $2 == 1' | wc -l)"
expect_eq "malicious: no sleep survived" 0 "$(pgrep -u 100000,101000 -x sleep | wc -l)"
wait "$listener"
expect_eq "malicious: the loopback listener saw no connection" 0 "$(cat "$TMP/listener.out")"
rm -f "$canary"
finish
