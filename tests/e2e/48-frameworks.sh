#!/usr/bin/env bash
# 48-frameworks.sh - strategies written for freqtrade and backtesting.py, audited unchanged: the
# sandbox's talib against TA-Lib's own outputs, each framework's rules on fixed signals, a
# timeframe resampled by the clock, what is not supported named in one sentence, and whole
# audits through `make audit` (a biased freqtrade strategy rejected for look-ahead).
. "$(dirname "$0")/../lib.sh"

S=tests/frameworks/strategies
P=e2e48
DATA=$TMP/bars.csv
head -n 3001 data/ohlcv.csv >"$DATA"
"$BIN/config" -o "$TMP/config.json" >/dev/null
cleanup() { rm -rf out/${P}_* "$TMP"; }
trap cleanup EXIT

# run FILE NAME: the sandbox's full run of FILE on the 3000 bars, into $TMP/NAME.run.json
run() {
	"$BIN/sandbox" --strategy "$1" --data "$DATA" --config "$TMP/config.json" \
		-o "$TMP/$2.run.json" --events "$TMP/$2.events.jsonl" >"$TMP/$2.log" 2>&1
}

check "talib matches TA-Lib (talib-web) to 1e-9 on every golden case" "$PY" tests/frameworks/check_talib.py

# --- inspect knows the framework and what it declares
"$BIN/inspect" --strategy $S/ft_v3_trend_short.py -o "$TMP/i.json"
expect_eq "inspect: a freqtrade IStrategy is a strategy, with its declarations" \
	"true freqtrade TwoSidedTrend 1h 60 true 0" \
	"$(jget $TMP/i.json strategy.shape_ok) $(jget $TMP/i.json strategy.framework) $(jget $TMP/i.json strategy.framework_class) $(jget $TMP/i.json strategy.timeframe) $(jget $TMP/i.json strategy.startup_candle_count) $(jget $TMP/i.json strategy.can_short) $("$PY" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["strategy"]["flags"]))' $TMP/i.json)"
"$BIN/inspect" --strategy $S/bt_sma_pair.py -o "$TMP/i.json"
expect_eq "inspect: a backtesting.py Strategy is a strategy" "true backtesting MovingPair" \
	"$(jget $TMP/i.json strategy.shape_ok) $(jget $TMP/i.json strategy.framework) $(jget $TMP/i.json strategy.framework_class)"
"$BIN/inspect" --strategy demos/honest.py -o "$TMP/i.json"
expect_eq "inspect: a signals(df) file has no framework" "null" "$(jget $TMP/i.json strategy.framework)"

# --- every strategy of the folder runs, or is refused with its sentence
for f in ft_v2_meanrev ft_v3_trend_short ft_4h_on_1h ft_minmax_bias bt_sma_pair bt_breakout_exclusive; do
	run $S/$f.py $f
	expect_eq "$f runs in the sandbox and trades" "ok yes" \
		"$(jget $TMP/$f.run.json status) $("$PY" -c 'import json,sys; s=json.load(open(sys.argv[1]))["signals"]; print("yes" if len(set(s)) > 1 and len(s) == 3000 else "no")' $TMP/$f.run.json)"
done
expect_eq "the short strategy goes short" "yes" \
	"$("$PY" -c 'import json,sys; print("yes" if -1 in [(v + 1) % 3 - 1 for v in json.load(open(sys.argv[1]))["signals"]] else "no")' $TMP/ft_v3_trend_short.run.json)"
for pair in "ft_pandas_ta:pandas_ta.rsi is not supported" "bt_bracket:per-trade stop-loss and take-profit prices (self.buy(sl="; do
	f=${pair%%:*}
	run $S/$f.py $f
	expect_eq "$f: an error naming what is not supported" "error yes" \
		"$(jget $TMP/$f.run.json status) $(grep -qF "${pair#*:}" $TMP/$f.run.json && echo yes || echo no)"
done
# a class with per-trade callbacks runs its whole history for its signals (its callbacks are
# answered in the live replay, where the host holds its trade: tests/e2e/56-exits.sh)
run $S/ft_custom_exit.py ft_custom_exit
expect_eq "ft_custom_exit: its full run gives its signals" "ok 3000" \
	"$(jget $TMP/ft_custom_exit.run.json status) $("$PY" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["signals"]))' $TMP/ft_custom_exit.run.json)"
check "a pandas_ta function refused says what is supported" grep -q "talib, talib.abstract, qtpylib" $TMP/ft_pandas_ta.run.json

# --- VARIANTS set a freqtrade strategy's parameters by name
{ cat $S/ft_v2_meanrev.py; echo 'VARIANTS = [{"buy_rsi": 30}, {"buy_rsi": 35, "band_width": 2.5}, {"buy_rsi": 45}]'; } >"$TMP/fam.py"
"$BIN/inspect" --strategy "$TMP/fam.py" -o "$TMP/fam.inspect.json"
variants_check "$TMP/fam.py" "$TMP/fam.inspect.json" "$DATA" "$TMP/config.json" "$TMP/fam.json" "$TMP/fam.csv" \
	"$TMP/fam.bin" 2>/dev/null
expect_eq "three freqtrade variants run, each its own trades" "3 3" \
	"$(jget $TMP/fam.json ran) $("$PY" -c 'import csv,sys; print(len({r["trades"] for r in csv.DictReader(open(sys.argv[1]))}))' $TMP/fam.csv)"

# --- freqtrade's module paths and its parameters as its backtest loads them: the parameter file
# beside the strategy over buy_params / sell_params over the defaults (load=False keeps the default)
H=$S/ft_hyper_tuned.py
"$BIN/inspect" --strategy $H -o "$TMP/h.json"
expect_eq "inspect: each parameter's value and where it came from" \
	"buy_rsi=28:file buy_ema=30:buy_params buy_trend=sma:buy_params buy_margin=1:default sell_rsi=55:file cooldown=3:protection_params" \
	"$("$PY" -c 'import json,sys; p=json.load(open(sys.argv[1]))["strategy"]["parameters"]; print(" ".join("%s=%s:%s" % (v["name"], v["value"], v["from"]) for v in p["values"]))' $TMP/h.json)"
expect_eq "inspect: the parameter file's roi and stoploss replace the class's" \
	"ft_hyper_tuned.json roi,stoploss 0.07 [[0, 0.04], [60, 0.015]]" \
	"$("$PY" -c 'import json,sys; s=json.load(open(sys.argv[1]))["strategy"]; p=s["parameters"]; print(p["file"], ",".join(p["exits_from_file"]), s["exits"]["stop_loss"], s["exits"]["roi"])' $TMP/h.json)"
# pin FILE VALUES...: FILE's class with its defaults replaced and buy_params/sell_params removed
pin() {
	sed -e 's/default=35)/default='"$2"')/' -e 's/default=50,/default=30,/' -e "s/default='ema',/default='sma',/" \
		-e 's/default=64,/default='"$3"',/' -e '/^    buy_params = /d' -e '/^    sell_params = /d' "$1"
}
mkdir -p "$TMP/alone" "$TMP/pinned" "$TMP/other"
cp $H "$TMP/alone/ft_hyper_tuned.py"
pin $H 28 55 >"$TMP/pinned/file.py"
pin $H 22 60 >"$TMP/pinned/given.py"
run $H ht
run "$TMP/alone/ft_hyper_tuned.py" ht_alone
run "$TMP/pinned/file.py" ht_file
run "$TMP/pinned/given.py" ht_given
same() { "$PY" -c 'import json,sys; a,b=(json.load(open(f))["signals"] for f in sys.argv[1:3]); print("same" if a == b and len(set(a)) > 1 else "differ")' "$1" "$2"; }
expect_eq "freqtrade's import paths load (strategy.interface, strategy.hyper, persistence, exchange)" "ok" "$(jget $TMP/ht.run.json status)"
expect_eq "with its parameter file the run is the class with the file's values as defaults" "same" "$(same $TMP/ht.run.json $TMP/ht_file.run.json)"
expect_eq "without it, buy_params and sell_params run" "same" "$(same $TMP/ht_alone.run.json $TMP/ht_given.run.json)"
expect_eq "the two differ: the file changed what ran" "differ" "$(same $TMP/ht.run.json $TMP/ht_alone.run.json)"
cp $H "$TMP/other/ft_hyper_tuned.py"
sed 's/"HyperTuned"/"SomeoneElse"/' $S/ft_hyper_tuned.json >"$TMP/other/ft_hyper_tuned.json"
run "$TMP/other/ft_hyper_tuned.py" ht_other
expect_eq "a parameter file for another class is refused, as freqtrade refuses it" "error yes" \
	"$(jget $TMP/ht_other.run.json status) $(grep -qF "is for 'SomeoneElse', not 'HyperTuned'" $TMP/ht_other.run.json && echo yes || echo no)"
"$BIN/inspect" --strategy "$TMP/other/ft_hyper_tuned.py" -o "$TMP/h_other.json"
check "inspect names the refused file" grep -qF "freqtrade refuses it" "$TMP/h_other.json"
sed -e 's/^    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:$/&\n        Trade.get_trades_proxy(is_open=True)/' $H >"$TMP/alone/proxy.py"
run "$TMP/alone/proxy.py" proxy
check "a trade-database query is refused by name" grep -qF "Trade.get_trades_proxy is not supported" $TMP/proxy.run.json
sed -e 's/^        assert timeframe_to_minutes(self.timeframe) == 60$/&\n        assert self.dp.current_whitelist() == [metadata["pair"]]/' $H >"$TMP/alone/whitelist.py"
run "$TMP/alone/whitelist.py" whitelist
expect_eq "self.dp.current_whitelist() is the audited pair alone" "1 ok" \
	"$(grep -c current_whitelist "$TMP/alone/whitelist.py") $(jget $TMP/whitelist.run.json status)"
sed -e 's/^from freqtrade.persistence import Trade$/&\nfrom freqtrade.rpc import RPCManager/' $H >"$TMP/alone/rpc.py"
run "$TMP/alone/rpc.py" rpc
check "another freqtrade module is refused by its name" grep -qF "freqtrade.rpc is not supported" $TMP/rpc.run.json
# freqtrade's backtest configuration as a community strategy's __init__ reads it: the exchange's
# name and whitelist (the audited pair), the stake, dry_run, the trading mode, a cache file of its
# own in the user-data directory, the data provider's send_msg and ohlcv as a backtest answers
# them; a key an audit does not hold is refused naming where it is
C=$S/ft_config_reader.py
run $C cfg
expect_eq "a strategy that reads freqtrade's backtest configuration runs and trades" "ok yes" \
	"$(jget $TMP/cfg.run.json status) $("$PY" -c 'import json,sys; s=json.load(open(sys.argv[1]))["signals"]; print("yes" if len(set(s)) > 1 else "no")' $TMP/cfg.run.json)"
check "its cache file in the user-data directory is read and written in scratch, nothing refused" \
	test ! -s $TMP/cfg.events.jsonl
sed -e 's/^        super().__init__(config)$/&\n        self.secret = config["exchange"]["key"]/' $C >"$TMP/alone/cfg_key.py"
run "$TMP/alone/cfg_key.py" cfg_key
expect_eq "the exchange's API key is refused naming it and what the config holds" "error yes" \
	"$(jget $TMP/cfg_key.run.json status) $(grep -qF "config['exchange']['key'] is not in an audit's freqtrade config, which holds ccxt_async_config, ccxt_config, name, pair_blacklist, pair_whitelist, sandbox" $TMP/cfg_key.run.json && echo yes || echo no)"

# --- big files: a framework file of several MB (freqtrade's most used community strategies are,
# with hundreds of conditions chained by &) is audited; one over the cap is a finding
"$PY" - $S/ft_v2_meanrev.py "$TMP/big_mb.py" <<'PYEOF'
import sys
src = open(sys.argv[1]).read()
chain = " &\n".join(["            (dataframe['volume'] >= 0)"] * 700)
src = src.replace("            dataframe['volume'] > 0,\n", "            dataframe['volume'] > 0,\n            (\n" + chain + "\n            ),\n")
pad = "".join("# %06d: comment lines, as a large strategy carries them\n" % i for i in range(60000))
open(sys.argv[2], "w").write(src + pad)
PYEOF
run "$TMP/big_mb.py" big_mb
run $S/ft_v2_meanrev.py v2_small
expect_eq "a 3.5 MB freqtrade file with 700 chained conditions runs, as its small self does" \
	"yes same" "$([ "$(stat -c %s "$TMP/big_mb.py")" -gt 3400000 ] && echo yes || echo no) $(same $TMP/big_mb.run.json $TMP/v2_small.run.json)"
"$BIN/inspect" --strategy "$TMP/big_mb.py" -o "$TMP/big_mb.i.json"
expect_eq "inspect reads it whole" "true freqtrade" "$(jget $TMP/big_mb.i.json strategy.shape_ok) $(jget $TMP/big_mb.i.json strategy.framework)"
{ cat $S/ft_v2_meanrev.py; "$PY" -c 'import sys; sys.stdout.write(("# " + "x" * 78 + "\n") * 110000)'; } >"$TMP/over_cap.py"
run "$TMP/over_cap.py" over_cap
expect_eq "the sandbox records a file over the cap as the run's finding, and exits 0" "not_run yes" \
	"$(jget $TMP/over_cap.run.json status) $(grep -qF "strategy uploads are capped at 8388608 bytes" $TMP/over_cap.run.json && echo yes || echo no)"

# --- backtesting.py's order sizes: the default (all the equity; 0.9999 before backtesting.py 0.4)
# is what the replay holds; a fraction of equity, whole units, part of a trade closed or a trade's
# own stop set by hand are refused naming what was asked, never run at full size
Z=$S/bt_sized.py
sed -e 's/size=0\.5/size=3/' $Z >"$TMP/alone/bt_units.py"
sed -e 's/(size=0\.5)/()/' -e 's/close()  # CLOSE/close(0.5)/' $Z >"$TMP/alone/bt_part.py"
sed -e 's/(size=0\.5)/()/' -e 's/pass  # LEVELS/trade.sl = self.data.Close[-1] * 0.9/' $Z >"$TMP/alone/bt_sl.py"
sed -e 's/(size=0\.5)/()/' $Z >"$TMP/alone/bt_full.py"
sed -e 's/size=0\.5/size=0.9999/' $Z >"$TMP/alone/bt_9999.py"
for pair in "bt_sized:(size=0.5) is not supported: the audit replays every trade with all the equity" \
	"bt_units:(size=3) is not supported: the audit replays every trade with all the equity" "bt_part:closing part of a trade (close(portion=0.5)) is not supported" \
	"bt_sl:per-trade stop-loss and take-profit prices (trade.sl = "; do
	f=${pair%%:*}
	if [ "$f" = bt_sized ]; then run $Z $f; else run "$TMP/alone/$f.py" $f; fi
	expect_eq "$f: refused naming what the order asked" "error yes" \
		"$(jget $TMP/$f.run.json status) $(grep -qF "${pair#*:}" $TMP/$f.run.json && echo yes || echo no)"
done
run "$TMP/alone/bt_full.py" bt_full
run "$TMP/alone/bt_9999.py" bt_9999
expect_eq "the default size and an explicit size=0.9999 run, the same trades" "ok same" \
	"$(jget $TMP/bt_full.run.json status) $(same $TMP/bt_full.run.json $TMP/bt_9999.run.json)"

# --- backtesting.py's optimize(): it returns what backtesting.py returns (the file reads its
# heatmap on), its grid is counted as declared trials (run.json declared_search, the same subset
# backtesting.py draws), and the bars' dates are a DatetimeIndex
run $S/bt_grid_search.py grid
expect_eq "a file that calls optimize() and reads its heatmap runs and trades" "ok yes" \
	"$(jget $TMP/grid.run.json status) $("$PY" -c 'import json,sys; s=json.load(open(sys.argv[1]))["signals"]; print("yes" if len(set(s)) > 1 else "no")' $TMP/grid.run.json)"
expect_eq "declared_search: the combinations backtesting.py's grid search tries" \
	"$("$PY" - <<'PYEOF'
import itertools
import numpy as np
grid = itertools.product(range(10, 60, 10), range(40, 160, 20), range(10, 30, 5), range(5, 20, 5))
ok = [c for c in grid if c[3] < c[2] < c[0] < c[1]]
draw = np.random.default_rng(7).random
print(sum(1 for c in ok if draw() <= 60 / len(ok)))
PYEOF
)" "$(jget $TMP/grid.run.json declared_search)"
expect_eq "a file without a search declares none" "null" "$(jget $TMP/ht.run.json declared_search)"

# --- freqtrade's rules and backtesting.py's fill, on fixed signals
run $S/ft_rules_probe.py ftp
check "freqtrade: start-up, exit beats entry, no re-entry on the exit candle, shorts" "$PY" - "$TMP/ftp.run.json" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
s = [(v + 1) % 3 - 1 for v in r["signals"]]
want = [0] * len(s)
for a, b, v in ((50, 60, 1), (90, 95, 1), (100, 110, -1), (120, 130, 1), (131, 140, -1)):
    want[a:b] = [v] * (b - a)
assert r["signal_entries"] is True
assert s == want, [(i, x, y) for i, (x, y) in enumerate(zip(s, want)) if x != y][:5]
PYEOF
check "freqtrade: each candle's events beside its position (entries no exit cancels, exits no entry cancels)" \
	"$PY" - "$TMP/ftp.run.json" <<'PYEOF'
import json, sys
ev = {i: (v + 1) // 3 for i, v in enumerate(json.load(open(sys.argv[1]))["signals"]) if v > 1}
want = {}
for bit, rows in ((1, (50, 55, 90, 120)), (2, (100, 130, 131)), (4, (60, 95, 130)), (8, (110, 140))):
    for i in rows:
        want[i] = want.get(i, 0) | bit
assert ev == want, (ev, want)
PYEOF
cat >"$TMP/two.py" <<'PYEOF'
import talib  # noqa: F401  (the framework shims are loaded: entry values would be accepted from a framework class)


def signals(df):
    return [2 if i == 5 else 0 for i in range(len(df))]
PYEOF
run "$TMP/two.py" two
expect_eq "a plain signals(df) answering 2, even beside the framework shims, is bad output" "bad_output yes" \
	"$(jget $TMP/two.run.json status) $(grep -qF "value 2.0 at bar 5 is not -1, 0 or 1" $TMP/two.run.json && echo yes || echo no)"

# --- freqtrade's rules trade for trade: the audit's trades.csv against an independent replay of
# freqtrade's backtest (ft_replay.py) on freqtrade's own test candles (UNITTEST/BTC, 5m and 1h),
# at the audit's default fee (spot, FEE_BPS_SPOT a side, which freqtrade's profits include) and
# at no fee
"$BIN/config" -o "$TMP/ft.json" >/dev/null
"$BIN/config" -o "$TMP/ft0.json" FEE_BPS=0 >/dev/null
for pair in ft_reentry:5m ft_trailing:5m ft_v2_meanrev:1h ft_v3_trend_short:1h ft_rules_probe:1h ft_profit_only:5m \
	ft_tags:5m; do
	f=${pair%%:*}
	C=tests/frameworks/unittest_btc_${pair#*:}.csv
	"$BIN/inspect" --strategy $S/$f.py -o "$TMP/$f.tt.inspect.json"
	"$BIN/sandbox" --strategy $S/$f.py --data $C --config "$TMP/ft.json" -o "$TMP/$f.tt.run.json" \
		--events "$TMP/$f.tt.events.jsonl" >/dev/null 2>&1
	for at in "tt ft.json 10" "t0 ft0.json 0"; do
		read -r tag cf bps <<<"$at"
		"$BIN/replay" --run "$TMP/$f.tt.run.json" --inspect "$TMP/$f.tt.inspect.json" --data $C --config "$TMP/$cf" \
			-o "$TMP/$f.$tag.replay.json" --trades-out "$TMP/$f.$tag.trades.csv" --equity-out "$TMP/$f.$tag.equity.csv" >/dev/null 2>&1
		expect_eq "$f: the replay charges $bps bp a side" "$bps" "$(jget "$TMP/$f.$tag.replay.json" costs.fee_bps)"
		check "$f at $bps bp a side: the audit's trades are freqtrade's, entry for entry (time, side, exit candle, exit reason)" \
			"$PY" tests/frameworks/ft_replay.py --fee "$(awk -v b="$bps" 'BEGIN { print b / 1e4 }')" $S/$f.py $C "$TMP/$f.$tag.trades.csv"
	done
done
# the fee changes the trades of the strategies whose rules read a profit, so neither comparison
# above can pass by the other's trades
for f in ft_reentry ft_trailing ft_profit_only ft_tags; do
	if "$PY" tests/frameworks/ft_replay.py --fee 0 $S/$f.py tests/frameworks/unittest_btc_5m.csv \
		"$TMP/$f.tt.trades.csv" >"$TMP/$f.cross.log" 2>&1; then
		not_ok "$f: freqtrade's trades at no fee are not those at 10 bp a side" "$(head -n 1 "$TMP/$f.cross.log")"
	else ok "$f: freqtrade's trades at no fee are not those at 10 bp a side"; fi
done
check "the re-entry strategy: hundreds of trades, most entered again after a stop or ROI exit, both sides, trailing stops" \
	"$PY" - "$TMP/ft_reentry.tt.trades.csv" "$TMP/ft_trailing.tt.trades.csv" <<'PYEOF'
import csv, sys
t = list(csv.DictReader(open(sys.argv[1])))
again = sum(1 for a, b in zip(t, t[1:]) if a["exit_reason"] in ("roi", "stop_loss") and
            b["side"] == a["side"] and b["entry_time"] <= a["exit_time"])
assert len(t) > 300 and again > 100 and {r["side"] for r in t} == {"long", "short"}, (len(t), again)
assert any(r["exit_reason"] == "trailing_stop" for r in csv.DictReader(open(sys.argv[2])))
PYEOF
# exit_profit_only and ignore_roi_if_entry_signal each change ft_profit_only's trades: with
# either set to False freqtrade's trades are not the audit's
for v in exit_profit_only ignore_roi_if_entry_signal; do
	sed "s/^    $v = True/    $v = False/" $S/ft_profit_only.py >"$TMP/po_$v.py"
	if "$PY" tests/frameworks/ft_replay.py --fee 0.001 "$TMP/po_$v.py" tests/frameworks/unittest_btc_5m.csv \
		"$TMP/ft_profit_only.tt.trades.csv" >"$TMP/po_$v.log" 2>&1; then
		not_ok "ft_profit_only: without $v freqtrade trades otherwise" "$(head -n 1 $TMP/po_$v.log)"
	else ok "ft_profit_only: without $v freqtrade trades otherwise"; fi
done
check "ft_profit_only: its long entry signal crosses as set where the exit signal cancels it (ignore_roi_if_entry_signal)" \
	"$PY" -c 'import json,sys; v=[(x+1)//3 for x in json.load(open(sys.argv[1]))["signals"]]; assert any(e & 16 and not e & 1 for e in v)' \
	"$TMP/ft_profit_only.tt.run.json"
cat >"$TMP/po_instance.py" <<'PYEOF'
from freqtrade.strategy import IStrategy


class SetLater(IStrategy):
    timeframe = '1h'
    stoploss = -0.1

    def __init__(self, config):
        super().__init__(config)
        self.exit_profit_only = True

    def populate_entry_trend(self, dataframe, metadata):
        dataframe['enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe, metadata):
        dataframe['exit_long'] = 0
        return dataframe
PYEOF
run "$TMP/po_instance.py" po_instance
expect_eq "a rule about the open trade set on the instance is refused by name" "error yes" \
	"$(jget $TMP/po_instance.run.json status) $(grep -qF "SetLater.exit_profit_only is set on the instance, not declared in the class" $TMP/po_instance.run.json && echo yes || echo no)"
# --- entry and exit tags: ft_tags' trades carry freqtrade's tags (compared above by ft_replay.py);
# a tag table the upload forges is refused whole, named; tags past the wire's bounds are refused
check "ft_tags: trades.csv carries entry tags of both sides and exit tags of signal exits" \
	"$PY" - "$TMP/ft_tags.tt.trades.csv" <<'PYEOF'
import csv, sys
t = list(csv.DictReader(open(sys.argv[1])))
assert {r["entry_tag"] for r in t} == {"dip in uptrend", "trend", "short bounce"}, {r["entry_tag"] for r in t}
assert {r["exit_tag"] for r in t if r["exit_reason"] == "signal"} == {"rsi high", "rsi low"}
assert all(r["exit_tag"] == "" for r in t if r["exit_reason"] != "signal")
PYEOF
forge() {  # forge NAME EXPR: a freqtrade class whose run sends EXPR (N = its bars) as the tag table
	cat >"$TMP/$1.py" <<PYEOF
import sys
from freqtrade.strategy import IStrategy


class Forged(IStrategy):
    timeframe = '1h'
    stoploss = -0.1

    def populate_entry_trend(self, dataframe, metadata):
        dataframe['enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe, metadata):
        N = len(dataframe)
        sys.modules['sa_frameworks'].tag_table = lambda *a: $2
        return dataframe
PYEOF
	run "$TMP/$1.py" "$1"
}
for pair in "bytes([84, 200]) + b'x' * 50:the tag table holds 200 names (1 to 64)" \
	"bytes([84, 1, 3]) + b'a\\x1bb' + bytes(2 * N):tag 1 of the table holds the byte 0x1b, not printable ASCII" \
	"bytes([84, 1, 1]) + b'a' + bytes([0] * (N - 1) + [2]) + bytes(N):the entry tag of bar 2999 is 2, past the table's 1 names" \
	"bytes([84, 2, 1]) + b'a' + bytes([1]) + b'a' + bytes(2 * N):tags 1 and 2 of the table are the same name" \
	"bytes([84, 1, 1]) + b'a' + bytes(N):the tag table holds 3000 tag bytes for 3000 bars" \
	"bytes([84, 1, 1]) + b'a' + bytes(2 * N) + b'extra':the result holds 5 bytes after its tag table"; do
	forge forged "${pair%%:*}"
	expect_eq "a forged tag table is bad output, named: ${pair#*:}" "bad_output yes null" \
		"$(jget $TMP/forged.run.json status) $(grep -qF "${pair#*:}" $TMP/forged.run.json && echo yes || echo no) $(jget $TMP/forged.run.json tags)"
done
for pair in "'x' * 65:is not supported: a tag crosses as at most 64 printable ASCII characters" \
	"'tab\\there':is not supported: a tag crosses as at most 64 printable ASCII characters" \
	"[str(i) for i in range(len(dataframe))]:distinct enter_tag and exit_tag names are not supported: at most 64"; do
	cat >"$TMP/many_tags.py" <<PYEOF
from freqtrade.strategy import IStrategy


class ManyTags(IStrategy):
    timeframe = '1h'
    stoploss = -0.1

    def populate_entry_trend(self, dataframe, metadata):
        dataframe['enter_long'] = 1
        dataframe['enter_tag'] = ${pair%%:*}
        return dataframe

    def populate_exit_trend(self, dataframe, metadata):
        dataframe['exit_long'] = 1 - dataframe['enter_long']
        return dataframe
PYEOF
	run "$TMP/many_tags.py" many_tags
	expect_eq "tags past the wire's bounds are refused by name: ${pair#*:}" "error yes" \
		"$(jget $TMP/many_tags.run.json status) $(grep -qF "${pair#*:}" $TMP/many_tags.run.json && echo yes || echo no)"
done
run $S/bt_rules_probe.py btp
check "backtesting.py: an order fills at the next open; a buy against a short is not filled" "$PY" - "$TMP/btp.run.json" <<'PYEOF'
import json, sys
s = json.load(open(sys.argv[1]))["signals"]
want = [0] * len(s)
for a, b, v in ((100, 150, 1), (200, 300, -1), (350, 400, 1)):
    want[a:b] = [v] * (b - a)
assert s == want, [(i, x, y) for i, (x, y) in enumerate(zip(s, want)) if x != y][:5]
PYEOF
run $S/ft_candle_colour.py colour
check "a 4h strategy on 1h bars: each bar holds the last closed candle's position (pandas' resample), its events on the candle's first bar" \
	"$PY" - "$TMP/colour.run.json" "$DATA" <<'PYEOF'
import json, sys
import numpy as np, pandas as pd
s = (np.array(json.load(open(sys.argv[1]))["signals"]) + 1) % 3 - 1  # the positions
df = pd.read_csv(sys.argv[2], index_col=0, parse_dates=True)
c = df.resample("4h", origin="epoch").agg({"open": "first", "close": "last"})
# the candle starting at T is known from the bar at T + 3h (its last hour) on
known = pd.Series((c["close"] > c["open"]).astype(int).values, index=c.index + pd.Timedelta("3h"))
want = known.reindex(df.index).ffill().fillna(0).astype(int).values
assert (s == want).all(), np.flatnonzero(s != want)[:5]
raw = np.array(json.load(open(sys.argv[1]))["signals"])
first = np.r_[True, known.reindex(df.index).notna().values[1:]]  # the bars that close a candle
assert (raw[~first] <= 1).all() and (raw[first] > 1).any(), np.flatnonzero(raw[~first] > 1)[:5]
PYEOF

# --- backtesting.py's documented example on the data it ships, against its published figures
"$BIN/config" -o "$TMP/free.json" FEE_BPS=0 SLIPPAGE_BPS=0 FUNDING_BPS_8H=0 BORROW_BPS_YEAR=0 >/dev/null
G=tests/frameworks/goog_daily.csv
"$BIN/sandbox" --strategy $S/bt_docs_smacross.py --data $G --config "$TMP/free.json" \
	-o "$TMP/goog.run.json" --events "$TMP/goog.events.jsonl" >/dev/null 2>&1
"$BIN/replay" --run "$TMP/goog.run.json" --data $G --config "$TMP/free.json" -o "$TMP/goog.replay.json" \
	--trades-out "$TMP/goog.trades.csv" --equity-out "$TMP/goog.equity.csv" >/dev/null 2>&1
check "backtesting.py's SmaCross on GOOG: trades, win rate, best, worst, mean, profit factor, exposure as published" \
	"$PY" tests/frameworks/check_bt_docs.py "$TMP/goog.trades.csv" $G
"$BIN/sandbox" --strategy $S/bt_readme_smacross.py --data $G --config "$TMP/free.json" \
	-o "$TMP/readme.run.json" --events "$TMP/readme.events.jsonl" >/dev/null 2>&1
"$BIN/replay" --run "$TMP/readme.run.json" --data $G --config "$TMP/free.json" -o "$TMP/readme.replay.json" \
	--trades-out "$TMP/readme.trades.csv" --equity-out "$TMP/readme.equity.csv" >/dev/null 2>&1
check "backtesting.py's README example (exclusive orders, commission 0.2 %): its published table's trades, win rate, best, worst, mean, profit factor" \
	"$PY" tests/frameworks/check_bt_docs.py "$TMP/readme.trades.csv" $G readme

# --- whole audits
audit() {
	make --no-print-directory audit STRATEGY="$S/$1.py" DATA="$DATA" NAME="${P}_$1" TRIALS=1 \
		>"$TMP/$1.audit.log" 2>&1
}
for f in ft_v2_meanrev ft_minmax_bias ft_pandas_ta bt_sma_pair ft_4h_on_1h ft_hyper_tuned; do
	if audit $f; then ok "$f: make audit exits 0"; else not_ok "$f: make audit exits 0" "$(tail -n 5 $TMP/$f.audit.log)"; fi
done
cp "$TMP/over_cap.py" "$TMP/over_cap_audit.py"
if make --no-print-directory audit STRATEGY="$TMP/over_cap_audit.py" DATA="$DATA" NAME="${P}_over_cap" TRIALS=1 \
	>"$TMP/over_cap.audit.log" 2>&1; then ok "over the cap: make audit exits 0"
else not_ok "over the cap: make audit exits 0" "$(tail -n 5 $TMP/over_cap.audit.log)"; fi
expect_eq "over the cap: INCOMPLETE, the verdict names the cap, and a bundle" "INCOMPLETE yes yes" \
	"$(jget out/${P}_over_cap/verdict.json verdict) $(grep -qF "capped at 8388608 bytes" out/${P}_over_cap/verdict.json && echo yes || echo no) $([ -s out/${P}_over_cap/${P}_over_cap.zip ] && echo yes || echo no)"
V=out/${P}_ft_v2_meanrev/verdict.json
check "the report says what ran: the freqtrade class, by freqtrade's rules, on its candles" \
	grep -q "a freqtrade IStrategy, BandBounce, run by freqtrade&#39;s rules on 1h candles\|a freqtrade IStrategy, BandBounce, run by freqtrade's rules on 1h candles" out/${P}_ft_v2_meanrev/report.html
check "the report says which parameter values ran and where each came from" \
	grep -q "Parameters that ran: buy_rsi = 28 (parameter file), buy_ema = 30 (buy_params), .* the parameter file strategy.json also sets roi, stoploss" out/${P}_ft_hyper_tuned/report.html
check "the bundle carries the parameter file" unzip -l out/${P}_ft_hyper_tuned/${P}_ft_hyper_tuned.zip "*/strategy.json"
expect_eq "the v2 freqtrade strategy is judged (not INCOMPLETE), with no look-ahead" "yes true 0" \
	"$([ "$(jget $V verdict)" != INCOMPLETE ] && echo yes || echo no) $(jget out/${P}_ft_v2_meanrev/lookahead.json clean) $(jget out/${P}_ft_v2_meanrev/lookahead.json mismatch_count)"
# its hyperopt space, IntParameter(15, 40) x DecimalParameter(1.5, 3.0) at 3 decimals, is a
# search the file declares: 26 x 1501 points, of which a hyperopt run tries HYPEROPT_EPOCHS
expect_eq "the hyperopt space is read from the file: 26 x 1501 points" "true 39026" \
	"$(jget out/${P}_ft_v2_meanrev/inspect.json strategy.hyperopt_space.declared) $(jget out/${P}_ft_v2_meanrev/inspect.json strategy.hyperopt_space.grid)"
expect_eq "audited with TRIALS=1, the deflation counts the 100 epochs of its declared search" "100 declared_search 100" \
	"$(jget out/${P}_ft_v2_meanrev/stats.json trials) $(jget out/${P}_ft_v2_meanrev/stats.json trials_source) $(jget out/${P}_ft_v2_meanrev/stats.json declared_search.counted)"
check "the verdict says the file declares a search" grep -q "The file declares a search (a freqtrade hyperopt space of 39026 points)" "$V"
expect_eq "a backtesting.py strategy that calls no optimize() declares no search" "null" "$(jget out/${P}_bt_sma_pair/stats.json declared_search)"
expect_eq "full-frame min/max normalisation in a freqtrade strategy is REJECTED_LOOKAHEAD" "REJECTED_LOOKAHEAD" \
	"$(jget out/${P}_ft_minmax_bias/verdict.json verdict)"
expect_eq "a resampled timeframe is clean of look-ahead: its candles are used from the bar that closes them" \
	"true 0" "$(jget out/${P}_ft_4h_on_1h/lookahead.json clean) $(jget out/${P}_ft_4h_on_1h/lookahead.json mismatch_count)"
expect_eq "pandas_ta is INCOMPLETE" "INCOMPLETE" "$(jget out/${P}_ft_pandas_ta/verdict.json verdict)"
check "its verdict names the pandas_ta function" grep -q "pandas_ta.rsi is not supported" out/${P}_ft_pandas_ta/verdict.json
check "what to fix is said in freqtrade's terms, not signals(df)'s" sh -c \
	"grep -q 'so that the freqtrade class (populate_indicators' out/${P}_ft_pandas_ta/verdict.json &&
	 ! grep -q 'signals(df)' out/${P}_ft_pandas_ta/verdict.json"
expect_eq "the backtesting.py strategy is judged (not INCOMPLETE)" "yes" \
	"$([ "$(jget out/${P}_bt_sma_pair/verdict.json verdict)" != INCOMPLETE ] && echo yes || echo no)"
check "its warm-up and permutation runs ran" "$PY" -c '
import json, sys; r = json.load(open(sys.argv[1])); assert r.get("ok"), r' out/${P}_bt_sma_pair/robustness.json

# the entry tags through a whole audit: stats.json by_entry_tag, recomputed from trades.csv, and
# the report's entry-tag table in the HTML, the PDF and the XLSX
C5=tests/frameworks/unittest_btc_5m.csv
if make --no-print-directory audit STRATEGY="$S/ft_tags.py" DATA=$C5 NAME="${P}_ft_tags" TRIALS=1 \
	>"$TMP/ft_tags.audit.log" 2>&1; then ok "ft_tags: make audit exits 0"
else not_ok "ft_tags: make audit exits 0" "$(tail -n 5 $TMP/ft_tags.audit.log)"; fi
check "ft_tags: every figure, by_entry_tag's rows among them, recomputed from the bundle" \
	"$PY" tests/recompute.py out/${P}_ft_tags $C5
check "ft_tags: by_entry_tag has a row a tag; the HTML, PDF and XLSX entry-tag tables show them" \
	"$PY" - out/${P}_ft_tags <<'PYEOF'
import json, subprocess, sys
import openpyxl
d = sys.argv[1]
rows = json.load(open(d + "/stats.json"))["by_entry_tag"]
tags = {"dip in uptrend", "trend", "short bounce"}
assert {r["key"] for r in rows} == tags and sum(r["trades"] for r in rows) > 50, rows
html = open(d + "/report.html").read()
pdf = subprocess.run(["pdftotext", "-layout", d + "/report.pdf", "-"], capture_output=True, text=True).stdout
sheet = [[c.value for c in r] for r in openpyxl.load_workbook(d + "/report.xlsx")["Entry tags"].iter_rows()]
for t in tags:
    row = next(r for r in rows if r["key"] == t)
    assert t in html and t in pdf, t
    assert any(r[0] == t and r[1] == row["trades"] for r in sheet), (t, sheet)
PYEOF
exit $T_FAILED
