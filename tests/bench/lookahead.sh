#!/usr/bin/env bash
# lookahead.sh - look-ahead speed: the honest demo checked at every position change on the
# default data, truncation runs per second for a cheap strategy, and beside both the naive
# design's cost (a fresh interpreter importing pandas for every run).
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 3
. tests/bench/figure.sh
BIN=${BIN:-build/rel/bin}
DATA=${DATA:-data/ohlcv.csv}
PY=/usr/bin/python3
TMP=$(mktemp -d "${TMPDIR:-/tmp}/strataudit-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cat >"$TMP/config.json" <<'JSON'
{"stage": "config", "schema": 1, "lookahead": {"max": 2000, "seed": 1},
 "limits": {"wall_s": 20, "cpu_s": 20, "mem_mb": 1024, "scratch_mb": 16, "nofile": 64}}
JSON
cat >"$TMP/cheap.py" <<'PYEOF'
def signals(df):
    return [1 if i % 2 else -1 for i in range(len(df))]
PYEOF
jobs=$(nproc 2>/dev/null || echo 2)

now() { date +%s.%N; }

# check FILE NAME: prints "points seconds" for one lookahead run after its full run
check() {
	"$BIN/sandbox" --strategy "$1" --data "$DATA" --config "$TMP/config.json" \
		-o "$TMP/$2.run.json" --events "$TMP/$2.events.jsonl" >/dev/null 2>&1
	local t0 t1
	t0=$(now)
	"$BIN/lookahead" --strategy "$1" --run "$TMP/$2.run.json" --data "$DATA" \
		--config "$TMP/config.json" --jobs "$jobs" -o "$TMP/$2.la.json" 2>/dev/null
	t1=$(now)
	"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d.get("points_run", 0), float(sys.argv[3])-float(sys.argv[2]))' \
		"$TMP/$2.la.json" "$t0" "$t1"
}

read -r hp hs <<<"$(check demos/honest.py honest)"
read -r cp cs <<<"$(check "$TMP/cheap.py" cheap)"

# The naive design: a new interpreter per truncated run (import pandas, read the csv, run).
t0=$(now)
for i in 1 2 3 4 5; do
	"$PY" -c 'import sys, pandas as pd; df = pd.read_csv(sys.argv[1], index_col=0, nrows=int(sys.argv[2])); [1 for _ in range(len(df))]' \
		"$DATA" 5000 >/dev/null
done
t1=$(now)
naive=$("$PY" -c "print((float('$t1') - float('$t0')) / 5)")

"$PY" - "$hp" "$hs" "$cp" "$cs" "$naive" <<'PYEOF' | bench_figures
import sys
hp, hs, cp, cs, naive = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
rate = cp / cs if cs > 0 else 0
print("lookahead honest demo: %d points; naive: %.1f s, %.1f runs/s"
      % (hp, hp * naive, 1 / naive if naive > 0 else 0))
print("FIGURE|look-ahead check, honest demo (%d points)|%.2f s|<= 3 s|-|%d" % (hp, hs, hs <= 3))
print("FIGURE|look-ahead throughput|%.0f runs/s|>= 50 runs/s|-|%d" % (rate, rate >= 50))
PYEOF
