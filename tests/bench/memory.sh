#!/usr/bin/env bash
# tests/bench/memory.sh - peak resident memory of each stage of one audit of the honest demo on
# the default data, and of replay + stats on a one-million-bar series. Targets: every host stage
# under 64 MB on the demo; the sandbox (driver, zygote and runs) under its 1024 MB run budget.
set -u
cd "$(dirname "$0")/../.." || exit 3
. tests/bench/figure.sh
BIN=build/rel/bin
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
status=0

# peak "what" cmd...: runs cmd and prints its peak RSS (the largest of it and its children).
peak() {
	local what=$1 limit=$2 kb
	shift 2
	/usr/bin/time -f '%M' -o "$TMP/rss" "$@" >/dev/null 2>"$TMP/err"
	kb=$(tail -n 1 "$TMP/rss")
	bench_figure "peak memory, $what" "$(awk "BEGIN { printf \"%.1f\", $kb / 1024 }") MB" "< $limit MB" "-" \
		"$([ "$kb" -lt $((limit * 1024)) ] && echo 1)"
	[ "$kb" -lt $((limit * 1024)) ] || status=1
}

D=$TMP/honest
mkdir -p "$D"
cp demos/honest.py "$D/strategy.py"
$BIN/config TRIALS=3 -o "$D/config.json"
echo "memory: one audit of the honest demo ($(($(wc -l <data/ohlcv.csv) - 1)) bars)"
peak "inspect" 64 $BIN/inspect --strategy "$D/strategy.py" -o "$D/inspect.json"
peak "sandbox (driver, zygote, run)" 1024 $BIN/sandbox --strategy "$D/strategy.py" --data data/ohlcv.csv \
	--config "$D/config.json" -o "$D/run.json" --events "$D/events.jsonl"
peak "lookahead (all re-runs)" 1024 $BIN/lookahead --strategy "$D/strategy.py" --run "$D/run.json" \
	--data data/ohlcv.csv --config "$D/config.json" --jobs 2 -o "$D/lookahead.json"
peak "replay" 64 $BIN/replay --run "$D/run.json" --data data/ohlcv.csv --config "$D/config.json" \
	-o "$D/replay.json" --trades-out "$D/trades.csv" --equity-out "$D/equity.csv"
peak "stats" 64 $BIN/stats --replay "$D/replay.json" --config "$D/config.json" -o "$D/stats.json"
peak "fingerprint" 64 $BIN/fingerprint --strategy "$D/strategy.py" --data data/ohlcv.csv \
	--config "$D/config.json" --synthetic data/ohlcv.csv.sha256 -o "$D/fingerprint.json"
peak "verdict" 64 $BIN/verdict --dir "$D" -o "$D/verdict.json"
peak "report" 64 $BIN/report --dir "$D" --name honest --templates templates --data data/ohlcv.csv
peak "bundle" 64 $BIN/bundle --dir "$D" --name honest

echo "memory: replay + stats on one million bars"
$BIN/gendata --bars 1000000 -o "$TMP/big.csv"
/usr/bin/python3 -c "
import json
json.dump({'stage': 'sandbox', 'schema': 1, 'ok': True, 'status': 'ok', 'n_bars': 1000000,
           'signals': [((i // 37) % 3) - 1 for i in range(1000000)], 'blocked_actions': 0},
          open('$TMP/run.json', 'w'))"
peak "replay, 1M bars" 512 $BIN/replay --run "$TMP/run.json" --data "$TMP/big.csv" --config "$D/config.json" \
	-o "$TMP/replay.json" --trades-out "$TMP/trades.csv" --equity-out "$TMP/equity.csv"
peak "stats, 1M bars" 512 $BIN/stats --replay "$TMP/replay.json" --config "$D/config.json" -o "$TMP/stats.json"
exit $status
