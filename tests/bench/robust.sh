#!/usr/bin/env bash
# robust.sh - the robust stage's cost: the honest demo on the default data with the default
# knobs (3 warm-up runs, 100 permutations), its wall time against the target, and the cost per
# sandboxed re-run.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 3
. tests/bench/figure.sh
BIN=${BIN:-build/rel/bin}
DATA=${DATA:-data/ohlcv.csv}
PY=/usr/bin/python3
TMP=$(mktemp -d "${TMPDIR:-/tmp}/strataudit-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
TARGET_S=2
jobs=$(nproc 2>/dev/null || echo 2)

now() { date +%s.%N; }

"$BIN/config" -o "$TMP/config.json" || exit 3
"$BIN/sandbox" --strategy demos/honest.py --data "$DATA" --config "$TMP/config.json" \
	-o "$TMP/run.json" --events "$TMP/events.jsonl" >/dev/null 2>&1
t0=$(now)
/usr/bin/time -o "$TMP/cpu" -f "%U %S" "$BIN/robust" --strategy demos/honest.py --run "$TMP/run.json" \
	--data "$DATA" --config "$TMP/config.json" --jobs "$jobs" -o "$TMP/runs.json" --signals "$TMP/sig.bin" 2>/dev/null
t1=$(now)
# the scoring of those runs on the host, what a changed cost or threshold costs
/usr/bin/time -o "$TMP/cpu-score" -f "%U %S" "$BIN/robust_score" --runs "$TMP/runs.json" --signals "$TMP/sig.bin" \
	--run "$TMP/run.json" --data "$DATA" --config "$TMP/config.json" -o "$TMP/robustness.json"
echo "  robust_score (the runs judged on the host, no sandbox): CPU $(awk '{ printf "%.2f s user + %.2f s system", $1, $2 }' "$TMP/cpu-score")"
"$PY" - "$TMP/robustness.json" "$t0" "$t1" "$TARGET_S" "$jobs" "$(cat "$TMP/cpu")" \
	"$(cut -d' ' -f1 /proc/loadavg)" <<'PYEOF' | bench_figures
import json, sys
d = json.load(open(sys.argv[1]))
s = float(sys.argv[3]) - float(sys.argv[2])
target = float(sys.argv[4])
if not d.get("ok"):
    print("robust: not ok:", d.get("reason"))
    sys.exit(1)
w, p = d["warmup"], d["permutation"]
runs = len(w["offsets"]) + p["requested"]
print(f"robust, honest demo, {d['n_bars']} bars, {len(w['offsets'])} warm-up runs + "
      f"{p['requested']} permutations, {sys.argv[5]} at once: {s / runs * 1000:.1f} ms a run")
print(f"FIGURE|robustness re-runs, honest demo|{s:.2f} s|< {target:.0f} s|-|{int(s < target)}")
user, sys_ = (float(x) for x in sys.argv[6].split())
print(f"  CPU {user:.2f} s user + {sys_:.2f} s system (the stage, its zygote and every run); "
      f"load average {sys.argv[7]} when measured")
print(f"  p = {p['p_value']}, warm-up flagged: {w['flagged']}")
PYEOF
