#!/usr/bin/env bash
# lookahead_scale.sh - look-ahead at scale: what a truncated run costs over the strategy's own compute.
# Per-run overhead: CPU of all processes (the driver, zygotes and runs, user + sys) of a check at
# 100 points minus one at 10, per extra run, against the strategy's own CPU on a prefix of half
# the bars in a warm interpreter (the chosen points spread evenly over the candidates, whose mean
# prefix is about half). The machine's speed drifts by tens of percent from one minute to the
# next, so each pair is measured REPS times with the strategy's compute timed before and after
# it: a pair's overhead is taken against the mean of those two, and the target is judged on the
# median of the pairs' ratios. Then the whole audit of the honest demo on a million bars, every
# candidate checked: wall time, and the peak of the memory of every process of the check, summed
# as proportional set sizes (each shared page split between the processes that share it: the
# tree's own memory), the summed resident sizes beside it (shared pages once per process).
set -u
cd "$(dirname "$0")/../.." || exit 3
. tests/bench/figure.sh
BIN=${BIN:-build/rel/bin}
PY=/usr/bin/python3
TMP=$(mktemp -d "${TMPDIR:-/tmp}/strataudit-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
STRAT=demos/honest.py
jobs=$(nproc 2>/dev/null || echo 2)
REPS=${REPS:-5}

# config MAX [WINDOW]: a config with lookahead.max MAX and lookahead.window WINDOW (0, the
# measured window, when not given; the per-run figures below are of whole-prefix runs, so they
# keep their meaning: tests/bench/lookahead_window.sh measures the window runs)
config() {
	printf '{"stage": "config", "schema": 1, "lookahead": {"max": %s, "seed": 1, "window": %s}, "budget": {"audit_s": 7200},\n "limits": {"wall_s": 120, "cpu_s": 120, "mem_mb": 2048, "scratch_mb": 16, "nofile": 64}}\n' "$1" "${2:-0}" >"$TMP/config-$1-${2:-0}.json"
	echo "$TMP/config-$1-${2:-0}.json"
}

bench_cg_init
trap 'rm -rf "$TMP"; bench_cg_done' EXIT

# cpu N MAX: CPU seconds (user + sys, every process) of one check at MAX points
cpu() {
	local n=$1 max=$2 a z
	shift 2
	a=$(bench_busy_s)
	bench_in_cg "$BIN/lookahead" "$@" --strategy "$STRAT" --run "$TMP/$n.run.json" --data "$TMP/$n.csv" \
		--config "$(config "$max" 1000000000)" --jobs 1 -o "$TMP/$n.la.json" >/dev/null 2>&1
	z=$(bench_busy_s)
	"$PY" -c 'import sys; print(float(sys.argv[2]) - float(sys.argv[1]))' "$a" "$z"
}

# compute N: the strategy's own CPU seconds on the first N/2 bars, outside any sandbox (median
# of 5 calls in one warm interpreter)
compute() {
	"$PY" - "$TMP/$1.csv" "$STRAT" <<'PYEOF'
import importlib.util, statistics, sys, time
import pandas as pd
spec = importlib.util.spec_from_file_location("s", sys.argv[2])
s = importlib.util.module_from_spec(spec)
spec.loader.exec_module(s)
df = pd.read_csv(sys.argv[1], index_col=0, parse_dates=True)
df = df.iloc[: len(df) // 2].copy()
times = []
for _ in range(5):
    t = time.process_time()
    s.signals(df)
    times.append(time.process_time() - t)
print(statistics.median(times))
PYEOF
}

for n in 17544 200000 1000000; do
	"$BIN/gendata" --bars "$n" -o "$TMP/$n.csv" || exit 3
	"$BIN/sandbox" --strategy "$STRAT" --data "$TMP/$n.csv" --config "$(config 40)" \
		-o "$TMP/$n.run.json" --events "$TMP/$n.events.jsonl" >/dev/null 2>&1 || exit 3
	for design in prefix; do
		runs= warm=$(compute "$n")
		for _ in $(seq "$REPS"); do
			lo=$(cpu "$n" 10)
			hi=$(cpu "$n" 100)
			runs="$runs $lo:$hi"
			warm="$warm $(compute "$n")"
		done
		"$PY" - "$n" "$design" "$warm" $runs "$TMP/ratio" <<'PYEOF'
import statistics, sys
n, design = int(sys.argv[1]), sys.argv[2]
warm = [float(x) for x in sys.argv[3].split()]
runs = [(float(hi) - float(lo)) / 90 for lo, hi in (p.split(":") for p in sys.argv[4:-1])]
# each pair against the strategy's compute timed just before and after it, so a minute's drift
# moves both sides of its ratio
ratios = [(r - (a + b) / 2) / ((a + b) / 2) for r, a, b in zip(runs, warm, warm[1:])]
run, c, ratio = statistics.median(runs), statistics.median(warm), statistics.median(ratios)
over = run - c
print("lookahead %7d bars, %-6s: %.1f ms CPU a run (median of %d: %.1f-%.1f), strategy %.1f ms "
      "on half the bars (median of %d: %.1f-%.1f), overhead %.1f ms; per pair %.2fx (median of "
      "%.2f-%.2f)"
      % (n, design, run * 1e3, len(runs), min(runs) * 1e3, max(runs) * 1e3, c * 1e3, len(warm),
         min(warm) * 1e3, max(warm) * 1e3, over * 1e3, ratio, min(ratios), max(ratios)))
open(sys.argv[-1], "w").write("%.2f\n" % ratio)
PYEOF
		ratio=$(cat "$TMP/ratio")
		[ "$n" = 1000000 ] && bench_figure "look-ahead run at 1M bars over the strategy's own compute" \
			"${ratio}x" "<= 1.5x" "1.0x" "$(awk -v r="$ratio" 'BEGIN { print (r <= 1.5) }')"
	done
done

# The whole audit at a million bars, every candidate, with the process tree's memory sampled.
n=1000000
"$BIN/lookahead" --strategy "$STRAT" --run "$TMP/$n.run.json" --data "$TMP/$n.csv" \
	--config "$(config 1000000)" --jobs "$jobs" -o "$TMP/audit.la.json" 2>/dev/null &
pid=$!
"$PY" - "$pid" "$TMP/audit.la.json" "$TMP/audit" <<'PYEOF'
import json, os, sys, time
root, out = int(sys.argv[1]), sys.argv[2]
page = os.sysconf("SC_PAGE_SIZE")
def pss(p):
    """A process's proportional set size: each shared page split between its sharers."""
    for line in open("/proc/%d/smaps_rollup" % p):
        if line.startswith("Pss:"):
            return int(line.split()[1]) * 1024
    return 0
def tree_mem(with_pss):
    """(resident, proportional) bytes summed over the check's process tree; reading the
    proportional sizes walks page tables, so the loop asks for them once a second"""
    kids, rss = {}, {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            st = open("/proc/%s/stat" % p).read().rsplit(")", 1)[1].split()
            rss[int(p)] = int(open("/proc/%s/statm" % p).read().split()[1]) * page
            kids.setdefault(int(st[1]), []).append(int(p))
        except OSError:
            continue
    total, prop, todo = 0, 0, [root]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        try:
            prop += pss(p) if with_pss and p in rss else 0
        except OSError:  # ended meanwhile
            pass
        todo += kids.get(p, [])
    return total, prop
t0, peak, peak_pss, k = time.monotonic(), 0, 0, 0
while os.path.exists("/proc/%d" % root) and open("/proc/%d/stat" % root).read().split()[2] != "Z":
    r, q = tree_mem(k % 5 == 0)
    peak, peak_pss, k = max(peak, r), max(peak_pss, q), k + 1
    time.sleep(0.2)
wall = time.monotonic() - t0
d = json.load(open(out)) if os.path.exists(out) else {}
print("lookahead audit %d bars: %s of %s candidates checked, capped %s, %.1f s"
      % (1000000, d.get("points_checked"), d.get("candidate_points"), d.get("capped"), wall))
every = d.get("points_checked") == d.get("candidate_points")
print("lookahead audit %d bars: peak memory of the process tree %.0f MB proportional (each shared "
      "page split between its sharers), %.0f MB resident (shared pages once per process)"
      % (1000000, peak_pss / 2**20, peak / 2**20))
open(sys.argv[3], "w").write("%.1f %d %.0f\n" % (wall, wall <= 240 and every, peak_pss / 2**20))
PYEOF
wait "$pid"
read -r wall met peak <"$TMP/audit"
# The floor: the strategy's own compute at every candidate prefix, in a warm interpreter (a line
# through its cost at eight prefix lengths), over the cores.
floor=$("$PY" - "$TMP/$n.run.json" "$TMP/$n.csv" "$STRAT" "$jobs" <<'PYEOF'
import importlib.util, json, statistics, sys, time
import numpy as np, pandas as pd
sig = json.load(open(sys.argv[1]))["signals"]
spec = importlib.util.spec_from_file_location("s", sys.argv[3])
s = importlib.util.module_from_spec(spec)
spec.loader.exec_module(s)
df = pd.read_csv(sys.argv[2], index_col=0, parse_dates=True)
n = len(df)
points = [t for t in range(1, n) if sig[t] != sig[t - 1]] + [n - 1]
xs, ys = [], []
for k in range(1, 9):
    m = n * k // 8
    part = df.iloc[:m].copy()
    times = []
    for _ in range(3):
        t0 = time.process_time()
        s.signals(part)
        times.append(time.process_time() - t0)
    xs.append(m)
    ys.append(statistics.median(times))
b, a = np.polyfit(xs, ys, 1)
print("%.0f" % (sum(a + b * (t + 1) for t in points) / int(sys.argv[4])))
PYEOF
)
bench_figure "look-ahead audit, 1M bars, every candidate" "$wall s" "<= 240 s" \
	"$floor s (the strategy's compute at every candidate / $jobs cores)" "$met"
bench_figure "look-ahead audit memory (proportional), 1M bars" "$peak MB" "< 1024 MB" "-" \
	"$(awk -v p="$peak" 'BEGIN { print (p < 1024) }')"
