#!/usr/bin/env bash
# lookahead_window.sh - look-ahead that grows with the bars: the honest demo's check, every
# candidate, at 100 000 and at 1 000 000 bars back to back, and the whole audit at both; the
# ratio of each pair (target: at most 10x for 10x the bars). Beside them, what one truncated
# run costs against the machine's floor at the same window: a warm interpreter forking a bare
# child that builds the frame of the window's bars and calls signals() (target: at most 1.25x),
# and the 1M audit's time beside the strategy's own compute (one call over every bar, and one
# over a window at every candidate, spread over the cores), with AUDIT_S high enough that no
# check is cut short. PHASES="check audit run" picks parts.
set -u
cd "$(dirname "$0")/../.." || exit 3
. tests/bench/figure.sh
BIN=${BIN:-build/rel/bin}
PY=/usr/bin/python3
TMP=$(mktemp -d "${TMPDIR:-/tmp}/strataudit-bench.XXXXXX")
bench_cg_init
trap 'rm -rf "$TMP"; bench_cg_done' EXIT
STRAT=demos/honest.py
PHASES=${PHASES:-check audit run}
jobs=$(nproc 2>/dev/null || echo 2)
load() { cut -d' ' -f1 /proc/loadavg; }
now() { date +%s.%N; }
has() { case " $PHASES " in *" $1 "*) return 0 ;; esac; return 1; }

# config MAX: a config with lookahead.max MAX
config() {
	printf '{"stage": "config", "schema": 1, "lookahead": {"max": %s, "seed": 1}, "budget": {"audit_s": 7200},\n "limits": {"wall_s": 120, "cpu_s": 120, "mem_mb": 2048, "scratch_mb": 16, "nofile": 64}}\n' "$1" >"$TMP/config-$1.json"
	echo "$TMP/config-$1.json"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b / a }'; }

for n in 100000 1000000; do
	"$BIN/gendata" --bars "$n" -o "$TMP/$n.csv" || exit 3
	"$BIN/sandbox" --strategy "$STRAT" --data "$TMP/$n.csv" --config "$(config 40)" \
		-o "$TMP/$n.run.json" --events "$TMP/$n.events.jsonl" >/dev/null 2>&1 || exit 3
done

# --- the check, every candidate, back to back ------------------------------------------------
if has check; then
	for n in 100000 1000000; do
		a=$(bench_busy_s) t0=$(now)
		bench_in_cg "$BIN/lookahead" --strategy "$STRAT" --run "$TMP/$n.run.json" --data "$TMP/$n.csv" \
			--config "$(config 1000000)" --jobs "$jobs" -o "$TMP/$n.la.json" 2>/dev/null
		t1=$(now) z=$(bench_busy_s)
		wall[n]=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
		"$PY" - "$TMP/$n.la.json" "$n" "${wall[n]}" "$a" "$z" "$(load)" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
w = d["window"]
print("lookahead check %7s bars: %s of %s candidates, %s s wall, %.1f s CPU, window "
      "%s bars (%s), %s confirmed on the prefix (%s leaks, %s memory), grown %s; load %s"
      % (sys.argv[2], d["points_checked"], d["candidate_points"], sys.argv[3],
         float(sys.argv[5]) - float(sys.argv[4]), w["bars"], w["source"], w["confirmations"],
         w["confirmed_leaks"], w["memory_mismatches"], w["grown"], sys.argv[6]))
PYEOF
	done
	r=$(ratio "${wall[100000]}" "${wall[1000000]}")
	bench_figure "look-ahead check, 1M bars over 100k (10x the bars)" "${r}x" "<= 10x" "-" \
		"$(awk -v r="$r" 'BEGIN { print (r <= 10) }')"
fi

# --- the whole audit, back to back -----------------------------------------------------------
if has audit; then
	for n in 100000 1000000; do
		t0=$(now)
		make --no-print-directory audit STRATEGY="$STRAT" DATA="$TMP/$n.csv" NAME="bench-window-$n" AUDIT_S=7200 \
			>"$TMP/audit-$n.log" 2>&1
		audit[n]=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
		echo "whole audit $n bars: ${audit[n]} s, $(grep -m1 '^verdict:' "$TMP/audit-$n.log"); load $(load)"
	done
	r=$(ratio "${audit[100000]}" "${audit[1000000]}")
	own=$("$PY" - "$TMP/1000000.csv" "$STRAT" "out/bench-window-1000000/lookahead.json" "$jobs" <<'PYEOF'
import importlib.util, json, statistics, sys, time
import pandas as pd
spec = importlib.util.spec_from_file_location("s", sys.argv[2])
s = importlib.util.module_from_spec(spec)
spec.loader.exec_module(s)
df = pd.read_csv(sys.argv[1], index_col=0, parse_dates=True)
d = json.load(open(sys.argv[3]))
def cost(part):
    times = []
    for _ in range(3):
        t0 = time.process_time()
        s.signals(part)
        times.append(time.process_time() - t0)
    return statistics.median(times)
whole, win = cost(df), cost(df.iloc[-d["window"]["bars"]:].copy())
print("%.2f s one call over every bar; %.1f s a window's call at each of %d candidates / %s cores"
      % (whole, win * d["points_checked"] / int(sys.argv[4]), d["points_checked"], sys.argv[4]))
PYEOF
)
	bench_figure "whole audit, 1M bars over 100k (10x the bars)" "${r}x" "<= 10x" "-" \
		"$(awk -v r="$r" 'BEGIN { print (r <= 10) }')"
	bench_figure "whole audit, 1M bars" "${audit[1000000]} s" "<= 240 s" "the strategy's own compute: $own" \
		"$(awk -v a="${audit[1000000]}" 'BEGIN { print (a <= 240) }')"
fi

# --- one window run against a bare fork of the same window ----------------------------------
# CPU of a check at 100 points minus one at 10 (every process of it: bench_busy_s), per
# extra run, one run at a time, against a warm interpreter forking a bare child per run that
# builds the window's frame and calls signals() (the floor). Median of REPS pairs.
if has run; then
	n=1000000
	bars=$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["window"]["bars"])' \
		"$TMP/$n.la.json" 2>/dev/null || echo 1024)
	for n in 100000 1000000; do
		runs=
		for _ in $(seq "${REPS:-3}"); do
			for max in 10 100; do
				a=$(bench_busy_s)
				bench_in_cg "$BIN/lookahead" --strategy "$STRAT" --run "$TMP/$n.run.json" --data "$TMP/$n.csv" \
					--config "$(config $max)" --jobs 1 -o "$TMP/run-$max.json" 2>/dev/null
				c[max]=$(awk -v a="$a" -v b="$(bench_busy_s)" 'BEGIN { print b - a }')
			done
			runs="$runs $(awk -v lo="${c[10]}" -v hi="${c[100]}" 'BEGIN { print (hi - lo) / 90 * 1000 }')"
		done
		run[n]=$(echo $runs | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] }')
		echo "window run, $n bars: ${run[n]} ms CPU (median of:$runs); load $(load)"
	done
	fork=$("$PY" tests/bench/bare.py "$STRAT" "$TMP/1000000.csv" 40 fork "$bars" cpu)
	r=$(awk -v s="${run[1000000]}" -v f="$fork" 'BEGIN { printf "%.2f", s / f }')
	echo "bare fork of the last $bars bars of 1M, the same strategy: $fork ms CPU; load $(load)"
	bench_figure "look-ahead window run, 1M bars over 100k" "$(ratio "${run[100000]}" "${run[1000000]}")x" \
		"~1x" "-" "$(awk -v a="${run[100000]}" -v b="${run[1000000]}" 'BEGIN { print (b <= 1.25 * a) }')"
	bench_figure "look-ahead window run over a bare fork of the same bars" "${r}x" "<= 1.25x" \
		"$fork ms, a warm interpreter's bare fork per run" "$(awk -v r="$r" 'BEGIN { print (r <= 1.25) }')"
fi
