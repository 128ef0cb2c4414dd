#!/usr/bin/env bash
# 53-shim-indicators.sh - the framework shims' indicator and data surface: the talib shim
# against TA-Lib's own outputs (the candlestick patterns and the Hilbert sine wave included),
# technical's and ta's functions against their definitions computed apart (check_indicators.py),
# technical.util's resampled candles trade for trade and clean of look-ahead,
# informative timeframes of the audited pair (@informative, self.dp.get_pair_dataframe with
# merge_informative_pair) trade for trade against ft_replay.py and clean of look-ahead, a merge
# without freqtrade's shift caught by the live replay, and another pair's data refused in one
# sentence.
. "$(dirname "$0")/../lib.sh"

S=tests/frameworks/strategies
C=tests/frameworks/unittest_btc_5m.csv
"$BIN/config" -o "$TMP/config.json" >/dev/null
trap 'rm -rf "$TMP"' EXIT

check "talib matches TA-Lib to 1e-9 on every golden case, patterns and HT_SINE included" \
	"$PY" tests/frameworks/check_talib.py
check "every candlestick pattern of the golden cases fires somewhere, ENGULFING both ways" "$PY" - <<'PYEOF'
import json
g = json.load(open('tests/frameworks/talib_golden_patterns.json'))['cases']
g += json.load(open('tests/frameworks/talib_golden.json'))['cases']
fired = {}
for c in g:
    if c.get('integer') and c['function'].startswith('CDL'):
        fired.setdefault(c['function'], set()).update(v for v in c['outputs'][0] if v)
assert all(fired.values()), [k for k, v in fired.items() if not v]
assert min(fired['CDLENGULFING']) < 0 < max(fired['CDLENGULFING']), fired['CDLENGULFING']
PYEOF

check "technical, ta and date_minus_candles match their definitions, computed apart" \
	"$PY" tests/frameworks/check_indicators.py

# run NAME: the sandbox's run and the host's replay of a strategy on freqtrade's 5-minute candles
run() {
	"$BIN/inspect" --strategy $S/$1.py -o "$TMP/$1.inspect.json"
	"$BIN/sandbox" --strategy $S/$1.py --data $C --config "$TMP/config.json" -o "$TMP/$1.run.json" \
		--events "$TMP/$1.events.jsonl" >"$TMP/$1.log" 2>&1
	"$BIN/replay" --run "$TMP/$1.run.json" --inspect "$TMP/$1.inspect.json" --data $C \
		--config "$TMP/config.json" -o "$TMP/$1.replay.json" --trades-out "$TMP/$1.trades.csv" \
		--equity-out "$TMP/$1.equity.csv" >/dev/null 2>&1
}
lookahead() {
	"$BIN/lookahead" --strategy $S/$1.py --run "$TMP/$1.run.json" --inspect "$TMP/$1.inspect.json" \
		--data $C --config "$TMP/config.json" -o "$TMP/$1.lookahead.json" >/dev/null 2>&1
}

for f in ft_informative_1h ft_informative_merge ft_informative_peek ft_resampled; do
	run $f
	expect_eq "$f runs in the sandbox" "ok" "$(jget $TMP/$f.run.json status)"
	# freqtrade's profits include the fee the replay charged (costs.fee_bps a side)
	fee=$(awk -v b="$(jget "$TMP/$f.replay.json" costs.fee_bps)" 'BEGIN { print b / 1e4 }')
	check "$f: the audit's trades are freqtrade's at its fee, entry for entry (its own merge of the hourly candles)" \
		"$PY" tests/frameworks/ft_replay.py --fee "$fee" $S/$f.py $C "$TMP/$f.trades.csv"
done
check "the informative strategies trade (tens of trades each)" "$PY" - "$TMP" <<'PYEOF'
import csv, sys
for f in ('ft_informative_1h', 'ft_informative_merge', 'ft_resampled'):
    n = sum(1 for _ in csv.DictReader(open('%s/%s.trades.csv' % (sys.argv[1], f))))
    assert n >= 20, (f, n)
PYEOF
lookahead ft_informative_merge
expect_eq "merge_informative_pair's hourly candles are clean of look-ahead in the live replay" "true true 0" \
	"$(jget $TMP/ft_informative_merge.lookahead.json ok) $(jget $TMP/ft_informative_merge.lookahead.json clean) $(jget $TMP/ft_informative_merge.lookahead.json mismatch_count)"
lookahead ft_resampled
expect_eq "technical.util's resampled hours are clean of look-ahead in the live replay" "true true 0" \
	"$(jget $TMP/ft_resampled.lookahead.json ok) $(jget $TMP/ft_resampled.lookahead.json clean) $(jget $TMP/ft_resampled.lookahead.json mismatch_count)"
lookahead ft_informative_peek
check "an hourly candle merged on its opening date (no shift) is caught by the live replay" "$PY" - \
	"$TMP/ft_informative_peek.lookahead.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d['ok'] and d['clean'] is False and d['mismatch_count'] > 0, d
PYEOF

# --- another pair's data: refused in one sentence, by each way of asking for it
cat >"$TMP/other_pairs.py" <<'PYEOF'
from freqtrade.strategy import IStrategy


class OtherPair(IStrategy):
    timeframe = '5m'

    def informative_pairs(self):
        return [('BTC/USDT', '1h')]
PYEOF
cat >"$TMP/other_dp.py" <<'PYEOF'
from freqtrade.strategy import IStrategy


class OtherDp(IStrategy):
    timeframe = '5m'

    def populate_indicators(self, dataframe, metadata):
        self.dp.get_pair_dataframe('ETH/BTC', '1h')
        return dataframe
PYEOF
cat >"$TMP/other_decorator.py" <<'PYEOF'
from freqtrade.strategy import IStrategy, informative


class OtherDecorated(IStrategy):
    timeframe = '5m'

    @informative('1h', 'BTC/{stake}')
    def populate_indicators_btc_1h(self, dataframe, metadata):
        return dataframe
PYEOF
for f in other_pairs other_dp other_decorator; do
	"$BIN/sandbox" --strategy "$TMP/$f.py" --data $C --config "$TMP/config.json" -o "$TMP/$f.run.json" \
		--events "$TMP/$f.events.jsonl" >/dev/null 2>&1
	expect_eq "$f: refused, the sentence names another pair's data and says what is supported" "error yes" \
		"$(jget $TMP/$f.run.json status) $(grep -q "another pair.*data.*informative pairs of other symbols are not supported.*own pair.*informative timeframes are supported" "$TMP/$f.run.json" && echo yes || echo no)"
done
# --- the libraries' other functions: refused by name
cat >"$TMP/more_ta.py" <<'PYEOF'
import pandas_ta as pta
import talib.abstract
import ta
import technical.indicators as ftt
from freqtrade.strategy import IStrategy


class MoreTa(IStrategy):
    timeframe = '5m'

    def populate_indicators(self, dataframe, metadata):
        dataframe['x'] = WHICH
        return dataframe
PYEOF
for pair in "pta.rsi(dataframe['close']):pandas_ta.rsi is not supported" \
	"dataframe.ta.ema():pandas_ta.ema is not supported" \
	"ta.add_all_ta_features(dataframe, 'open', 'high', 'low', 'close', 'volume'):ta.add_all_ta_features is not supported: the sandbox's ta provides" \
	"ta.momentum.rsi(dataframe['close']):ta.momentum is not supported: the sandbox's ta provides" \
	"ftt.ichimoku(dataframe):technical.indicators.ichimoku is not supported: the sandbox's technical.indicators provides supertrend" \
	"sum(getattr(talib.abstract, f)(dataframe) for f in talib.get_function_groups()['Overlap Studies']):talib.MAVP is not supported: the sandbox's talib provides"; do
	sed "s/WHICH/${pair%%:*}/" "$TMP/more_ta.py" >"$TMP/more.py"
	"$BIN/sandbox" --strategy "$TMP/more.py" --data $C --config "$TMP/config.json" -o "$TMP/more.run.json" \
		--events "$TMP/more.events.jsonl" >/dev/null 2>&1
	expect_eq "${pair%%:*}: refused by name" "error yes" \
		"$(jget $TMP/more.run.json status) $(grep -qF "${pair#*:}" "$TMP/more.run.json" && echo yes || echo no)"
done
sed "s/WHICH/sum(getattr(talib.abstract, f)(dataframe) for f in talib.get_function_groups()['Pattern Recognition'])/" \
	"$TMP/more_ta.py" >"$TMP/patterns.py"
"$BIN/sandbox" --strategy "$TMP/patterns.py" --data $C --config "$TMP/config.json" -o "$TMP/patterns.run.json" \
	--events "$TMP/patterns.events.jsonl" >/dev/null 2>&1
expect_eq "a strategy computing every pattern of TA-Lib's Pattern Recognition group runs" "ok" \
	"$(jget $TMP/patterns.run.json status)"
finish
