#!/usr/bin/env bash
# measure_official.sh BIN_DIR STRATEGY_DIR OUT_DIR [CANDLES_1M]
#
# Every freqtrade strategy file in STRATEGY_DIR (freqtrade-strategies' user_data/strategies) run
# by the audit's stages in BIN_DIR (inspect, sandbox, replay) on freqtrade's own test candles,
# and its trades compared with freqtrade's backtest of the same file (ft_replay.py), entry for
# entry; a class with custom_stoploss, custom_exit, custom_sell or confirm_trade_entry is replayed
# with the live run that answers them (lookahead, replay --lookahead), as make audit replays it.
# One line a file, then the totals:
#   NAME same      TF  the comparison's summary
#   NAME refused   TF  the audit's refusal, which names the feature it does not run
#   NAME different TF  the comparison's summary and its first difference
#   NAME unchecked TF  ft_replay.py refused or failed where the audit ran (its reason)
# The candles: tests/frameworks/unittest_btc_5m.csv and unittest_btc_1h.csv (freqtrade's
# UNITTEST/BTC), resampled by the clock to the strategy's timeframe (minutes from the 5m, hours
# and days from the 1h, complete candles only), and for 1m strategies the 1m
# candles of freqtrade's tests/testdata/UNITTEST_BTC-1m.json given as CANDLES_1M (a 1m strategy
# is 'unchecked' without it). The fee: FEE_BPS a side (10 unless set) for the audit and the same
# for freqtrade. Exits 1 when any file is different or unchecked, 0 otherwise.
set -u
if [ $# -lt 3 ] || [ ! -x "$1/sandbox" ] || [ ! -d "$2" ]; then
	awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
	exit 2
fi
BIN=$1 DIR=$2 OUT=$3 ONE=${4:-}
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PY:-/usr/bin/python3}
BPS=${FEE_BPS:-10}
mkdir -p "$OUT/bars" || exit 2
"$BIN/config" -o "$OUT/config.json" FEE_BPS="$BPS" >/dev/null || exit 2
FEE=$(awk -v b="$BPS" 'BEGIN { print b / 1e4 }')

# bars_TF.csv in OUT/bars for each timeframe the files ask for
bars() {
	local tf=$1 f=$OUT/bars/bars_$1.csv
	[ -s "$f" ] && { echo "$f"; return 0; }
	if [ "$tf" = 1m ]; then
		[ -n "$ONE" ] && [ -f "$ONE" ] || return 1
		"$PY" - "$ONE" "$f" <<'PYEOF' || return 1
import csv, json, sys
from datetime import datetime, timezone
w = csv.writer(open(sys.argv[2], 'w', newline=''), lineterminator='\n')
w.writerow(['time', 'open', 'high', 'low', 'close', 'volume'])
for t, o, h, l, c, v in json.load(open(sys.argv[1])):
    w.writerow([datetime.fromtimestamp(t // 1000, timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ'),
                repr(o), repr(h), repr(l), repr(c), repr(v)])
PYEOF
	else
		"$PY" - "$HERE" "$tf" "$f" <<'PYEOF' || return 1
import sys
sys.path.insert(0, sys.argv[1])
import ft_replay
src = '/unittest_btc_5m.csv' if sys.argv[2].endswith('m') else '/unittest_btc_1h.csv'
b = ft_replay.candles(ft_replay.read_bars(sys.argv[1] + src), sys.argv[2])
b.insert(0, 'time', b['date'].dt.strftime('%Y-%m-%dT%H:%M:%SZ'))
b.drop(columns='date').to_csv(sys.argv[3], index=False)
PYEOF
	fi
	echo "$f"
}

# callbacks FILE: a class in FILE defines custom_stoploss, custom_exit, custom_sell or
# confirm_trade_entry
callbacks() {
	"$PY" - "$1" <<'PYEOF'
import ast, sys
names = {'custom_stoploss', 'custom_exit', 'custom_sell', 'confirm_trade_entry'}
tree = ast.parse(open(sys.argv[1]).read())
sys.exit(0 if any(isinstance(c, ast.ClassDef) and any(isinstance(f, ast.FunctionDef) and f.name in names
                                                       for f in c.body) for c in ast.walk(tree)) else 1)
PYEOF
}

same=0 refused=0 different=0 unchecked=0
for f in "$DIR"/*.py; do
	n=$(basename "$f" .py)
	"$BIN/inspect" --strategy "$f" -o "$OUT/$n.inspect.json" >/dev/null 2>&1
	tf=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["strategy"].get("timeframe") or "5m")' \
		"$OUT/$n.inspect.json" 2>/dev/null || echo 5m)
	if ! D=$(bars "$tf"); then
		echo "$n unchecked $tf no $tf candles"; unchecked=$((unchecked + 1)); continue
	fi
	"$BIN/sandbox" --strategy "$f" --data "$D" --config "$OUT/config.json" -o "$OUT/$n.run.json" \
		--events "$OUT/$n.events.jsonl" >"$OUT/$n.sandbox.log" 2>&1
	st=$("$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r.get("status"), "|", " ".join(str(r.get("reason") or r.get("error") or "").split())[:240])' \
		"$OUT/$n.run.json" 2>/dev/null || echo "no run.json |")
	if [ "${st%% *}" != ok ]; then
		echo "$n refused $tf ${st#* | }"; refused=$((refused + 1)); continue
	fi
	# a class with per-trade callbacks is answered in the live run, as the audit runs it
	live=()
	if callbacks "$f"; then
		"$BIN/lookahead" --strategy "$f" --run "$OUT/$n.run.json" --inspect "$OUT/$n.inspect.json" --data "$D" \
			--config "$OUT/config.json" -o "$OUT/$n.lookahead.json" >"$OUT/$n.lookahead.log" 2>&1
		live=(--lookahead "$OUT/$n.lookahead.json" --backtest-equity-out "$OUT/$n.backtest_equity.csv")
	fi
	"$BIN/replay" --run "$OUT/$n.run.json" --inspect "$OUT/$n.inspect.json" --data "$D" --config "$OUT/config.json" \
		-o "$OUT/$n.replay.json" --trades-out "$OUT/$n.trades.csv" --equity-out "$OUT/$n.equity.csv" \
		"${live[@]}" >"$OUT/$n.replay.log" 2>&1
	r=$(cd "$HERE/../.." && "$PY" tests/frameworks/ft_replay.py --fee "$FEE" "$f" "$D" "$OUT/$n.trades.csv" 2>&1)
	rc=$?
	printf '%s\n' "$r" >"$OUT/$n.compare.txt"
	case $rc in
	0) k=same; same=$((same + 1)) ;;
	1) k=different; different=$((different + 1)) ;;
	*) k=unchecked; unchecked=$((unchecked + 1)) ;;
	esac
	head=$(printf '%s\n' "$r" | grep -E -m 1 '^[0-9]+ freqtrade trades|^refused: ' || printf '%s\n' "$r" | tail -n 1)
	first=$(printf '%s\n' "$r" | grep -m 1 '^  freqtrade ')
	echo "$n $k $tf $(echo "$head $first" | cut -c1-300)"
done
echo "total: $((same + refused + different + unchecked)) files, $same same, $refused refused, $different different, $unchecked unchecked (fee $BPS bp a side)"
[ $((different + unchecked)) -eq 0 ]
