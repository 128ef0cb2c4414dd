#!/usr/bin/env bash
# live.sh - the live replay: what deciding every bar with only the past costs, against its floor.
# The floor is the strategy's own work: one signals() call a bar on a 1024-bar window, timed in
# plain Python on this machine in this run (median of batches of windows drawn over the series:
# the reference, one core). Figures: the whole audit of the honest demo at 100k bars against that
# reference (target 1.5x); the live replay alone (lookahead with one truncation point) at 100k
# and 1M bars, and their ratio (target 11x: linear in the bars); what a live bar costs around the
# call (the same replay of a strategy that does no work, CPU a bar); the bundled demo's whole audit
# (target within 2x of the 18.7 s it took before the live replay, tests/bench/NOTES.md); and what
# a freqtrade file costs a decision here and so a year of 5-minute bars (105 120 bars).
# Each figure is given in wall seconds and in CPU seconds (user + system of the programs and every
# run they waited for, /usr/bin/time): on a machine others share, the CPU seconds are the honest
# ones. LIVE_BIG (default 1000000) sets the larger series of the linearity figure, for a machine
# that cannot spare the million bars' run; its target scales with it (1.1 x the bars' ratio).
set -u
cd "$(dirname "$0")/../.." || exit 3
. tests/bench/figure.sh
BIN=${BIN:-build/rel/bin}
PY=/usr/bin/python3
TMP=$(mktemp -d "${TMPDIR:-/tmp}/strataudit-bench.XXXXXX")
trap 'rm -rf "$TMP"; rm -rf out/bench-live-*' EXIT
STRAT=demos/honest.py
jobs=$(nproc 2>/dev/null || echo 2)
BIG=${LIVE_BIG:-1000000}
BEFORE_DEMO_S=18.7  # the bundled demo's audit before the live replay (tests/bench/NOTES.md)

config() {  # config MAX: a look-ahead config with lookahead.max MAX and a long budget
	printf '{"stage": "config", "schema": 1, "lookahead": {"max": %s, "seed": 1, "window": 0, "live_bars": 1000000000}, "budget": {"audit_s": 7200},\n "limits": {"wall_s": 120, "cpu_s": 120, "mem_mb": 2048, "scratch_mb": 16, "nofile": 64}}\n' "$1" >"$TMP/config-$1.json"
	echo "$TMP/config-$1.json"
}

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# cpu FILE: the CPU seconds /usr/bin/time wrote to FILE ("user system")
cpu() { awk '{ printf "%.1f", $1 + $2 }' "$1"; }

# reference N FILE: seconds of N signals() calls on 1024-bar windows of FILE, one core: "wall cpu"
reference() {
	"$PY" - "$2" "$STRAT" "$1" <<'PYEOF'
import importlib.util, statistics, sys, time
import numpy as np, pandas as pd
spec = importlib.util.spec_from_file_location("s", sys.argv[2])
s = importlib.util.module_from_spec(spec)
spec.loader.exec_module(s)
df = pd.read_csv(sys.argv[1], index_col=0, parse_dates=True)[["open", "high", "low", "close", "volume"]]
n = int(sys.argv[3])
rng = np.random.default_rng(1)
per, cpu = [], []
for _ in range(5):
    ends = rng.integers(1024, len(df), 400)
    t, c = time.perf_counter(), time.process_time()
    for e in ends:
        s.signals(df.iloc[e - 1024:e])
    per.append((time.perf_counter() - t) / len(ends))
    cpu.append((time.process_time() - c) / len(ends))
print("%.3f %.3f" % (statistics.median(per) * n, statistics.median(cpu) * n))
PYEOF
}

for n in 100000 "$BIG"; do
	"$BIN/gendata" --bars "$n" -o "$TMP/$n.csv" || exit 3
	"$BIN/sandbox" --strategy "$STRAT" --data "$TMP/$n.csv" --config "$(config 1)" \
		-o "$TMP/$n.run.json" --events "$TMP/$n.events" >/dev/null 2>&1 || exit 3
	t0=$(now)
	/usr/bin/time -o "$TMP/$n.cpu" -f "%U %S" "$BIN/lookahead" --strategy "$STRAT" --run "$TMP/$n.run.json" \
		--data "$TMP/$n.csv" --config "$(config 1)" --jobs "$jobs" -o "$TMP/$n.la.json" 2>/dev/null
	t1=$(now)
	live[$n]=$(secs "$t0" "$t1")
	live_cpu[$n]=$(cpu "$TMP/$n.cpu")
	"$PY" -c 'import json,sys; l=json.load(open(sys.argv[1]))["live"]; print("  live replay at %d bars: %s s wall, %s s CPU, %d decided, window %d, %d differing" % (l["bars"], sys.argv[2], sys.argv[3], l["decided"], l["window"], l["differing"]))' "$TMP/$n.la.json" "${live[$n]}" "${live_cpu[$n]}"
done
# What a live bar costs around the call: the same replay at 100k bars of a strategy that does no
# work (an array of zeros), CPU a bar: its frame, the answer's check, the feed and the driver's side.
printf 'import numpy as np\n\n\ndef signals(df):\n    return np.zeros(len(df), dtype=np.int64)\n' >"$TMP/nothing.py"
"$BIN/sandbox" --strategy "$TMP/nothing.py" --data "$TMP/100000.csv" --config "$(config 1)" \
	-o "$TMP/nothing.run.json" --events "$TMP/nothing.events" >/dev/null 2>&1 || exit 3
/usr/bin/time -o "$TMP/nothing.cpu" -f "%U %S" "$BIN/lookahead" --strategy "$TMP/nothing.py" \
	--run "$TMP/nothing.run.json" --data "$TMP/100000.csv" --config "$(config 1)" --jobs "$jobs" \
	-o "$TMP/nothing.la.json" 2>/dev/null
echo "  around the call: the live replay of a strategy that does no work, 100000 bars: $(cpu "$TMP/nothing.cpu") s CPU ($(awk -v c="$(cpu "$TMP/nothing.cpu")" 'BEGIN { printf "%.0f", c * 10 }') us a bar, the run's start included)"
scale=$(awk -v b="$BIG" 'BEGIN { printf "%g", b / 100000 }')
target=$(awk -v s="$scale" 'BEGIN { printf "%g", 1.1 * s }')
ratio=$(awk -v a="${live_cpu[100000]}" -v b="${live_cpu[$BIG]}" 'BEGIN { printf "%.1f", b / a }')
echo "  (wall: $(awk -v a="${live[100000]}" -v b="${live[$BIG]}" 'BEGIN { printf "%.1f", b / a }')x)"
bench_figure "live replay CPU, $BIG bars over 100k" "${ratio}x" "<= ${target}x" "${scale}x" \
	"$(awk -v r="$ratio" -v t="$target" 'BEGIN { print (r <= t) }')"

read -r ref ref_cpu <<<"$(reference 100000 "$TMP/100000.csv")"
echo "  reference: 100000 signals() calls on 1024-bar windows in plain Python, one core: $ref s wall, $ref_cpu s CPU"
t0=$(now)
/usr/bin/time -o "$TMP/audit.cpu" -f "%U %S" make --no-print-directory audit STRATEGY="$STRAT" \
	DATA="$TMP/100000.csv" NAME=bench-live-100k >"$TMP/audit.log" 2>&1
t1=$(now)
audit=$(secs "$t0" "$t1")
audit_cpu=$(cpu "$TMP/audit.cpu")
ratio=$(awk -v a="$audit" -v r="$ref" 'BEGIN { printf "%.2f", a / r }')
ratio_cpu=$(awk -v a="$audit_cpu" -v r="$ref_cpu" 'BEGIN { printf "%.2f", a / r }')
echo "  whole audit of the honest demo at 100k bars: $audit s wall, $audit_cpu s CPU ($(grep '^verdict:' "$TMP/audit.log"))"
bench_figure "whole audit at 100k bars over one call a bar (wall)" "${ratio}x" "<= 1.5x" "$(awk -v j="$jobs" 'BEGIN { printf "%.2fx", 1 / j }')" \
	"$(awk -v r="$ratio" 'BEGIN { print (r <= 1.5) }')"
# in CPU seconds the floor is the calls themselves, whatever the cores
bench_figure "whole audit at 100k bars over one call a bar (CPU)" "${ratio_cpu}x" "<= $(awk -v j="$jobs" 'BEGIN { print 1.5 * j }')x" "1x" \
	"$(awk -v r="$ratio_cpu" -v j="$jobs" 'BEGIN { print (r <= 1.5 * j) }')"

t0=$(now)
/usr/bin/time -o "$TMP/demo.cpu" -f "%U %S" make --no-print-directory audit STRATEGY="$STRAT" TRIALS=3 \
	NAME=bench-live-demo >/dev/null 2>&1
t1=$(now)
demo=$(secs "$t0" "$t1")
echo "  the bundled demo's whole audit: $demo s wall, $(cpu "$TMP/demo.cpu") s CPU"
bench_figure "the bundled demo's whole audit" "$demo s" "<= $(awk -v b="$BEFORE_DEMO_S" 'BEGIN { print 2 * b }') s" "-" \
	"$(awk -v d="$demo" -v b="$BEFORE_DEMO_S" 'BEGIN { print (d <= 2 * b) }')"

# A freqtrade file: its live replay over 2000 five-minute bars, per decision, and so a year.
FT=tests/frameworks/strategies/ft_v2_meanrev.py
"$PY" - "$TMP/ft.csv" <<'PYEOF'
import sys
import numpy as np
rng = np.random.default_rng(3)
n = 2400
c = 100 * np.exp(np.cumsum(rng.normal(0, 0.002, n)))
o = np.r_[c[0], c[:-1]]
with open(sys.argv[1], "w") as f:
    f.write("time,open,high,low,close,volume\n")
    for i in range(n):
        hi, lo = max(o[i], c[i]) * 1.001, min(o[i], c[i]) * 0.999
        f.write("%d,%.6f,%.6f,%.6f,%.6f,%.3f\n" % (1672531200 + 300 * i, o[i], hi, lo, c[i], 1000 + i))
PYEOF
"$BIN/sandbox" --strategy "$FT" --data "$TMP/ft.csv" --config "$(config 1)" -o "$TMP/ft.run.json" \
	--events "$TMP/ft.events" >/dev/null 2>&1
t0=$(now)
"$BIN/lookahead" --strategy "$FT" --run "$TMP/ft.run.json" --data "$TMP/ft.csv" --config "$(config 1)" \
	--jobs "$jobs" -o "$TMP/ft.la.json" 2>/dev/null
t1=$(now)
"$PY" - "$TMP/ft.la.json" "$(secs "$t0" "$t1")" "$jobs" <<'PYEOF'
import json, sys
l = json.load(open(sys.argv[1]))["live"]
s, jobs = float(sys.argv[2]), int(sys.argv[3])
per = s * jobs / max(l["decided"], 1)
print("  freqtrade file (%s): %d bars decided live in %.1f s on %d cores, window %d: %.1f ms a decision;"
      " a year of 5-minute bars (105120) takes about %.0f s on %d cores" %
      ("ft_v2_meanrev.py", l["decided"], s, jobs, l["window"], per * 1000, per * 105120 / jobs, jobs))
PYEOF
