#!/usr/bin/env bash
# selection.sh - the tests run on the strategy itself: Hansen's SPA with 1000 resamples over the
# overfit demo's 50 variants x 17 544 bars (its own variant_returns.bin, limit 1 s), and over
# Gaussian noise of the same shape (where the block length is short and every bar is a block);
# the Monte Carlo of 50 closed trades, 1000 resamples (limit 50 ms).
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 3
. tests/bench/figure.sh
BIN=${BIN:-build/rel/bin}
DATA=${DATA:-data/ohlcv.csv}
PY=/usr/bin/python3
TMP=$(mktemp -d "${TMPDIR:-/tmp}/strataudit-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
"$BIN/config" -o "$TMP/config.json" >/dev/null
"$BIN/inspect" --strategy demos/overfit.py -o "$TMP/inspect.json"
"$BIN/variants" --strategy demos/overfit.py --inspect "$TMP/inspect.json" --data "$DATA" \
	--config "$TMP/config.json" --jobs "$(nproc 2>/dev/null || echo 2)" -o "$TMP/variant_runs.json" \
	--signals "$TMP/variant_signals.bin" >/dev/null
"$BIN/variants_score" --runs "$TMP/variant_runs.json" --signals "$TMP/variant_signals.bin" --inspect "$TMP/inspect.json" \
	--data "$DATA" --config "$TMP/config.json" -o "$TMP/variants.json" \
	--csv "$TMP/variants.csv" --matrix "$TMP/variant_returns.bin" >/dev/null

limit() {  # what line limit_ms: the CPU figure against the limit
	"$PY" -c '
import re, sys
what, line, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
cpu = float(re.search(r"([0-9.]+) ms cpu", line).group(1))
print("FIGURE|%s|%.1f ms cpu|<= %g ms|-|%d" % (what, cpu, limit, cpu <= limit))' "$@" | bench_figures
}
out=$("$BIN/stats" --time-spa "$TMP/variant_returns.bin")
echo "$out"
limit "spa over the overfit demo's variants" "$out" 1000
"$BIN/stats" --time-spa 17544x50
out=$("$BIN/stats" --time-mc 50)
echo "$out"
limit "monte carlo of 50 trades" "$out" 50
