#!/usr/bin/env bash
# variants.sh - the declared variant family: the overfit demo's 50 variants run in the sandbox
# and replayed on the default data, and PBO by CSCV for N = 50, S = 16 at one million bars
# (and at 160 bars, where the per-block sums are free and only the 12 870 splits are left).
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 3
. tests/bench/figure.sh
BIN=${BIN:-build/rel/bin}
DATA=${DATA:-data/ohlcv.csv}
PY=/usr/bin/python3
TMP=$(mktemp -d "${TMPDIR:-/tmp}/strataudit-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
jobs=$(nproc 2>/dev/null || echo 2)
"$BIN/config" -o "$TMP/config.json" >/dev/null
"$BIN/inspect" --strategy demos/overfit.py -o "$TMP/inspect.json"

now() { date +%s.%N; }
t0=$(now)
"$BIN/variants" --strategy demos/overfit.py --inspect "$TMP/inspect.json" --data "$DATA" \
	--config "$TMP/config.json" --jobs "$jobs" -o "$TMP/variant_runs.json" --signals "$TMP/variant_signals.bin"
"$BIN/variants_score" --runs "$TMP/variant_runs.json" --signals "$TMP/variant_signals.bin" --inspect "$TMP/inspect.json" \
	--data "$DATA" --config "$TMP/config.json" -o "$TMP/variants.json" --csv "$TMP/variants.csv" \
	--matrix "$TMP/variant_returns.bin"
t1=$(now)
"$PY" - "$TMP/variants.json" "$t0" "$t1" <<'PYEOF' | bench_figures
import json, sys
v = json.load(open(sys.argv[1])); s = float(sys.argv[3]) - float(sys.argv[2])
print("variants overfit demo: %d of %d variants ran and were replayed over %d bars"
      % (v["ran"], v["count"], v["bars"]))
print("FIGURE|variants, overfit demo's 50 over 17 544 bars|%.2f s|<= 2 s|-|%d" % (s, s <= 2))
PYEOF
"$BIN/stats" --time-pbo 160x50
out=$("$BIN/stats" --time-pbo 1000000x50)
echo "$out"
"$PY" -c '
import re, sys
ms = float(re.search(r"([0-9.]+) ms wall", sys.argv[1]).group(1))
print("FIGURE|PBO by CSCV, 1M bars x 50 variants, 16 blocks|%.1f ms|<= 50 ms|-|%d" % (ms, ms <= 50))' "$out" | bench_figures
