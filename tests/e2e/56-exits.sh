#!/usr/bin/env bash
# 56-exits.sh - declared exits replayed inside the bar: fixed stop and target (a gap through the
# stop, a bar that reaches both, a short's stop, a target at its price and through a gap), a ROI
# table (a step that comes in at a bar's open, a touch in the entry bar), a trailing stop (moved
# from the bar's high only after its low is checked; in the bar and through a gap; a short's) and
# a freqtrade class's exits, each trade recomputed by tests/recompute.py's own replay to 1e-9;
# bad declarations end as a finding with their reason, not a crash. freqtrade's rules read
# profits with the fee a side: its class is replayed, and audited (ft_profit_only, against
# tests/frameworks/ft_replay.py), at a fee and at none.
. "$(dirname "$0")/../lib.sh"
F=tests/fixtures/exits

# stage NAME BARS [CONFIG [DIR]]: inspect F/NAME.py, then replay and stats with F/run_BARS.json
# (and CONFIG, F/config.json unless given) into TMP/DIR (TMP/NAME unless given).
stage() {
	local d=$TMP/${4:-$1} data=$F/bars_$2.csv cf=${3:-$F/config.json}
	mkdir -p "$d" && cp "$F/run_$2.json" "$d/run.json" &&
	"$BIN/inspect" --strategy "$F/$1.py" -o "$d/inspect.json" &&
	"$BIN/replay" --run "$d/run.json" --inspect "$d/inspect.json" --data "$data" \
		--config "$cf" -o "$d/replay.json" --trades-out "$d/trades.csv" \
		--equity-out "$d/equity.csv" &&
	"$BIN/stats" --replay "$d/replay.json" --config "$cf" --data "$data" \
		--run "$d/run.json" -o "$d/stats.json"
}
# trade NAME K: columns entry,exit,side,entry_px,exit_px,bars_held,exit_reason of trade K.
trade() { sed -n "$(($2 + 1))p" "$TMP/$1/trades.csv" | cut -d, -f1-6,14; }

check "fixed stop and target: inspect, replay and stats run" stage fixed a
expect_eq "the exits are read as literals" '{"declared": true, "source": "constants", "class": null, "line": 2, "stop_loss": 0.02, "take_profit": 0.03, "trailing": null, "roi": [], "error": null, "unread": []}' \
	"$(jget "$TMP/fixed/inspect.json" strategy.exits)"
expect_eq "a gap through the stop fills at the open, at the bar's open time" \
	"2024-01-01T01:00:00Z,2024-01-01T03:00:00Z,long,100,97,2,stop_loss" "$(trade fixed 1)"
expect_eq "flat after the stop until the signal changes (no re-entry at 04:00 though still long)" \
	"2024-01-01T06:00:00Z,2024-01-01T08:00:00Z,long,100,98,2,stop_loss" "$(trade fixed 2)"
expect_eq "a short's stop fills at its price when the high reaches it" \
	"2024-01-01T08:00:00Z,2024-01-01T10:00:00Z,short,101,103.02,2,stop_loss" "$(trade fixed 3)"
expect_eq "a short's target fills at its price" \
	"2024-01-01T12:00:00Z,2024-01-01T14:00:00Z,short,100,97,2,take_profit" "$(trade fixed 4)"
expect_eq "a gap through the target fills at the open" \
	"2024-01-01T15:00:00Z,2024-01-01T16:00:00Z,long,100,104,1,take_profit" "$(trade fixed 5)"
expect_eq "what is still open at the end closes at the last close" \
	"2024-01-01T18:00:00Z,2024-01-01T20:00:00Z,long,104,104.4,2,end" "$(trade fixed 6)"
expect_eq "stats.json counts the trades by exit reason" \
	'{"signal": 0, "stop_loss": 3, "take_profit": 2, "roi": 0, "trailing_stop": 0, "end": 1, "ruin": 0, "custom_exit": 0, "unknown": 0}' \
	"$(jget "$TMP/fixed/stats.json" exit_reasons)"
check "recompute.py: every trade, cost row, late fill and the break-even agree" \
	"$PY" tests/recompute.py "$TMP/fixed" $F/bars_a.csv
by_exit() { "$PY" -c 'import json, sys
print(" ".join("%s:%d/%d/%d/%d" % (r["key"], r["trades"], r["wins"], r["draws"], r["losses"])
               for r in json.load(open(sys.argv[1]))["by_exit_reason"]))' "$1"; }
expect_eq "stats.json by_exit_reason: each reason's trades, wins, draws and losses, most summed return first" \
	"take_profit:2/2/0/0 end:1/1/0/0 stop_loss:3/0/0/3" "$(by_exit "$TMP/fixed/stats.json")"

check "ROI table and trailing stop: inspect, replay and stats run" stage roi_trail b
expect_eq "a ROI step that comes in at the bar's open fills at the open" \
	"2024-01-01T01:00:00Z,2024-01-01T03:00:00Z,long,100,101.2,2,roi" "$(trade roi_trail 1)"
expect_eq "a ROI level the entry bar's high passes fills at the level" \
	"2024-01-01T05:00:00Z,2024-01-01T06:00:00Z,long,100,105,1,roi" "$(trade roi_trail 2)"
expect_eq "the trail moves from a high only after the bar's low: no exit at 09:00, out at 10:00" \
	"2024-01-01T08:00:00Z,2024-01-01T11:00:00Z,long,100,100.45,3,trailing_stop" "$(trade roi_trail 3)"
expect_eq "a gap through the trailing stop fills at the open" \
	"2024-01-01T13:00:00Z,2024-01-01T14:00:00Z,long,100,98,1,trailing_stop" "$(trade roi_trail 4)"
expect_eq "a short's trailing stop follows the lows" \
	"2024-01-01T15:00:00Z,2024-01-01T17:00:00Z,short,98,98.43,2,trailing_stop" "$(trade roi_trail 5)"
expect_eq "and no trade after it while the signal stays short" 6 "$(wc -l <"$TMP/roi_trail/trades.csv")"
check "recompute.py agrees on the ROI and trailing exits" "$PY" tests/recompute.py "$TMP/roi_trail" $F/bars_b.csv

check "a freqtrade class's exits: inspect, replay and stats run" stage freqtrade b
expect_eq "stoploss, minimal_roi and the trailing attributes are read from the class body" \
	'{"declared": true, "source": "freqtrade", "class": "Strategy001", "line": 6, "stop_loss": 0.1, "take_profit": null, "trailing": {"distance": 0.1, "positive": 0.01, "offset": 0.02, "only_offset": true, "best_first": true}, "roi": [[0, 0.04], [60, 0.02]], "error": null, "unread": []}' \
	"$(jget "$TMP/freqtrade/inspect.json" strategy.exits)"
# freqtrade's profits include the fee a side (5 bp here): the 08:00 high, 102, is 2 % over the
# entry in price but 1.9 % after fees, short of the 2 % offset, so the trail is not armed; at
# 09:00 the 60-minute step (2 %) is passed after fees and fills at freqtrade's ROI close rate,
# 100 * (1 + 0.0005 + 0.02) / (1 - 0.0005)
expect_eq "with the fee in freqtrade's profit the offset is not reached at 102; the ROI step fills at its fee-paid rate" \
	"2024-01-01T08:00:00Z,2024-01-01T10:00:00Z,long,100,102.1010505,2,roi" "$(trade freqtrade 3)"
check "recompute.py agrees on the freqtrade exits" "$PY" tests/recompute.py "$TMP/freqtrade" $F/bars_b.csv
sed 's/"fee_bps": 5/"fee_bps": 0/' $F/config.json >"$TMP/free.json"
check "the freqtrade class at no fee: inspect, replay and stats run" stage freqtrade b "$TMP/free.json" freqtrade0
expect_eq "at no fee, past the offset the stop trails 1 % below the high, moved by the high before the low meets it (freqtrade's order)" \
	"2024-01-01T08:00:00Z,2024-01-01T09:00:00Z,long,100,100.98,1,trailing_stop" "$(trade freqtrade0 3)"
check "recompute.py agrees on the freqtrade exits at no fee" "$PY" tests/recompute.py "$TMP/freqtrade0" $F/bars_b.csv

# A value that is not a literal is named, and the replay runs without it.
check "a computed stop-loss: inspect and replay run" stage unread a
expect_eq "it is named as not read (SA503), not guessed" \
	"SA503 3 STOP_LOSS is not a literal (a number, a dict or True/False written out), so it is not read: the replay runs without it" \
	"$("$PY" -c 'import json, sys
f = [x for x in json.load(open(sys.argv[1]))["strategy"]["flags"] if x["code"] == "SA503"][0]
print(f["code"], f["line"], f["message"])' "$TMP/unread/inspect.json")"
expect_eq "the take-profit alone is replayed" \
	'{"declared": true, "source": "constants", "class": null, "line": 3, "stop_loss": null, "take_profit": 0.03, "trailing": null, "roi": [], "error": null, "unread": [{"name": "STOP_LOSS", "line": 3, "why": "is not a literal (a number, a dict or True/False written out), so it is not read: the replay runs without it"}]}' \
	"$(jget "$TMP/unread/replay.json" exits)"

# Bad declarations: a finding with the reason, the signals set aside, no crash.
for bad in "bad_positive_stop:STOP_LOSS at line 1 is 0.05: it must be a negative fraction of the entry price, at least -1 (-0.05 is 5 % against the entry)" \
	"bad_roi_minute:ROI at line 1 has the minute -5: minutes held cannot be negative" \
	"bad_string:TAKE_PROFIT at line 1 is '3%', not a number" \
	"bad_freqtrade_stop:stoploss at line 5 is 0.1: it must be a negative fraction of the entry price, at least -1 (-0.05 is 5 % against the entry)"; do
	name=${bad%%:*} why=${bad#*:}
	d=$TMP/$name
	mkdir -p "$d"
	"$BIN/inspect" --strategy "$F/$name.py" -o "$d/inspect.json"
	expect_eq "$name: inspect flags SA502 with the reason" "SA502 error $why" \
		"$("$PY" -c 'import json, sys
f = [x for x in json.load(open(sys.argv[1]))["strategy"]["flags"] if x["code"] == "SA502"]
print(f[0]["code"], f[0]["severity"], f[0]["message"].split("; the replay")[0] if f else "none")' "$d/inspect.json")"
	"$BIN/replay" --run $F/run_a.json --inspect "$d/inspect.json" --data $F/bars_a.csv --config $F/config.json \
		-o "$d/replay.json" --trades-out "$d/trades.csv" --equity-out "$d/equity.csv"
	expect_eq "$name: the replay exits 0 and refuses with the reason" \
		"false nothing to replay: the strategy's exits cannot be replayed: $why" \
		"$(jget "$d/replay.json" ok) $(jget "$d/replay.json" reason)"
done

# The whole audit: a bad declaration ends INCOMPLETE, saying why.
N=e2e-exits-bad-$$
check "make audit with a positive stop-loss runs to a verdict" \
	make -s audit STRATEGY=$F/bad_positive_stop.py NAME=$N PERMUTATIONS=2 LOOKAHEAD_MAX=4
expect_eq "the verdict is INCOMPLETE" INCOMPLETE "$(jget "out/$N/verdict.json" verdict)"
expect_eq "the summary says which exit is wrong" true \
	"$("$PY" -c 'import json, sys; print(str("STOP_LOSS at line 1 is 0.05" in json.load(open(sys.argv[1]))["summary"]).lower())' "out/$N/verdict.json")"
rm -rf "out/$N"

# freqtrade's rules about the open trade (exit_profit_only with its offset, ignore_roi_if_entry_signal)
# through a whole audit: inspect.json carries them, and every figure of the bundle is recomputed
# by a replay that applies them (tests/recompute.py, class Exits)
N=e2e-exits-profit-only-$$
C5=tests/frameworks/unittest_btc_5m.csv
check "make audit of ft_profit_only runs to a verdict" \
	make -s audit STRATEGY=tests/frameworks/strategies/ft_profit_only.py DATA=$C5 NAME=$N TRIALS=1 \
	PERMUTATIONS=2 LOOKAHEAD_MAX=4
expect_eq "inspect.json: exit_profit_only, its offset, ignore_roi_if_entry_signal" "true 0.002 true" \
	"$(jget out/$N/inspect.json strategy.exits.exit_profit_only) $(jget out/$N/inspect.json strategy.exits.exit_profit_offset) $(jget out/$N/inspect.json strategy.exits.ignore_roi_if_entry_signal)"
check "every figure recomputed with the rules applied" "$PY" tests/recompute.py out/$N $C5
expect_eq "the audit charges spot's default fee, 10 bp a side" 10 "$(jget out/$N/replay.json costs.fee_bps)"
check "its trades are freqtrade's at that fee, entry for entry (tests/frameworks/ft_replay.py)" \
	"$PY" tests/frameworks/ft_replay.py --fee 0.001 tests/frameworks/strategies/ft_profit_only.py $C5 out/$N/trades.csv
rm -rf "out/$N"
# and at no fee: freqtrade's rules read the fee, so the trades differ, and are still freqtrade's
N=e2e-exits-profit-only-free-$$
check "make audit of ft_profit_only at FEE_BPS=0 runs to a verdict" \
	make -s audit STRATEGY=tests/frameworks/strategies/ft_profit_only.py DATA=$C5 NAME=$N TRIALS=1 \
	PERMUTATIONS=2 LOOKAHEAD_MAX=4 FEE_BPS=0
check "at no fee every figure recomputed with the rules applied" "$PY" tests/recompute.py out/$N $C5
check "at no fee its trades are freqtrade's at no fee" \
	"$PY" tests/frameworks/ft_replay.py --fee 0 tests/frameworks/strategies/ft_profit_only.py $C5 out/$N/trades.csv
rm -rf "out/$N"
# --- freqtrade's per-trade callbacks: custom_stoploss and custom_exit answered in the live run on
# the trade the host's replay holds (sent before each bar), each answer recorded in lookahead.json
# (live.calls) and replayed; every stop and exit checked here by hand against freqtrade's rules
B=$TMP/cb_bars.csv
head -n 801 data/ohlcv.csv >"$B"
N=e2e-exits-callbacks-$$
for f in ft_custom_stoploss ft_callback_exit; do
	check "make audit of $f (a class with per-trade callbacks) runs to a verdict" \
		make -s audit STRATEGY=tests/frameworks/strategies/$f.py DATA="$B" NAME=$N-$f TRIALS=1 \
		PERMUTATIONS=2 LOOKAHEAD_MAX=4
done
check "custom_stoploss: one live run answered every bar; each trade's stop is freqtrade's from the recorded answers (the bar's high times 1 - |ratio|, never loosened, asked only while the low is above it; the low takes it at its level, a moved stop a trailing one)" \
	"$PY" - out/$N-ft_custom_stoploss "$B" <<'PYEOF'
import csv, json, sys
d, bars = sys.argv[1], list(csv.DictReader(open(sys.argv[2])))
live = json.load(open(d + "/lookahead.json"))["live"]
# one live run, and the claimed run beside it (the backtest the author saw, its callbacks asked)
assert live["runs"] == 2 and live["decided"] == len(bars) and live["failed_runs"] == 0, live
calls = {r[0]: r for r in live["calls"]}
trades = list(csv.DictReader(open(d + "/trades.csv")))
when = {b["time"]: i for i, b in enumerate(bars)}
assert trades and any(t["exit_reason"] == "trailing_stop" for t in trades), trades
moved = 0
for t in trades:
    e = when[t["entry_time"]]
    stop, trailed = float(t["entry_px"]) * 0.9, False
    for j in range(e, len(bars)):
        bar, side, entry, ask, ratio, ex, name, refused = calls[j]
        assert (side, entry, ex, refused) == (1, e, 0, 0), calls[j]
        lo, hi = float(bars[j]["low"]), float(bars[j]["high"])
        assert bool(ask & 2) == (lo > stop), (j, ask, lo, stop)
        if ratio is not None and hi * (1 - abs(ratio)) > stop:
            stop, trailed, moved = hi * (1 - abs(ratio)), True, moved + 1
        if lo <= stop:
            break
    if t["exit_reason"] in ("stop_loss", "trailing_stop"):
        assert abs(float(t["exit_px"]) - stop) < 1e-6 * stop, (t, stop)
        assert t["exit_reason"] == ("trailing_stop" if trailed else "stop_loss"), t
        assert int(t["bars_held"]) == j - e + 1, (t, j)
assert moved > 0
PYEOF
check "custom_exit: each trade it closed left at its exit bar's open, where the recorded answer said so, with freqtrade's reasons: a fee-paid profit over 0.2 % at the open, or 12 hours held" \
	"$PY" - out/$N-ft_callback_exit "$B" <<'PYEOF'
import csv, json, sys
from datetime import datetime
d, bars = sys.argv[1], list(csv.DictReader(open(sys.argv[2])))
live = json.load(open(d + "/lookahead.json"))["live"]
f = json.load(open(d + "/replay.json"))["costs"]["fee_bps"] / 1e4
assert live["calls_fee_bps"] / 1e4 == f
calls = {r[0]: r for r in live["calls"]}
when = {b["time"]: i for i, b in enumerate(bars)}
trades = list(csv.DictReader(open(d + "/trades.csv")))
names = set()
for t in trades:
    if t["exit_reason"] != "custom_exit":
        continue
    x = when[t["exit_time"]]
    bar, side, entry, ask, ratio, ex, name, refused = calls[x]
    assert ex == 1 and not refused and ask & 1 and entry == when[t["entry_time"]], calls[x]
    o, e = float(bars[x]["open"]), float(t["entry_px"])
    assert float(t["exit_px"]) == o, t
    profit = o * (1 - f) / (e * (1 + f)) - 1
    held = datetime.fromisoformat(t["exit_time"][:-1]) - datetime.fromisoformat(t["entry_time"][:-1])
    assert name == ("took_profit" if profit > 0.002 else "time_out"), (t, profit, name)
    assert name == "took_profit" or held.total_seconds() >= 12 * 3600, (t, held)
    names.add(name)
    # the bars before held no answer to leave
    assert all(calls[j][5] == 0 for j in range(when[t["entry_time"]], x)), t
assert names == {"took_profit", "time_out"}, names
PYEOF
check "custom_exit: what a class with callbacks gives is scored live" \
	"$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["scored"] == "live" and r["exit_reasons"]["custom_exit"] > 0, r["exit_reasons"]' \
	out/$N-ft_callback_exit/replay.json
# the fee is a run-side setting for a class with callbacks (the profits it was told): a replay at
# another fee is refused with the bar and the knobs, not replayed with answers to other questions
D=out/$N-ft_callback_exit
"$BIN/config" -o "$TMP/cb_fee.json" FEE_BPS=3 >/dev/null
"$BIN/replay" --run $D/run.json --inspect $D/inspect.json --lookahead $D/lookahead.json --data "$B" \
	--config "$TMP/cb_fee.json" -o "$TMP/cb_fee.replay.json" --trades-out "$TMP/cb_fee.trades.csv" \
	--equity-out "$TMP/cb_fee.equity.csv" --backtest-equity-out "$TMP/cb_fee.backtest.csv" >/dev/null 2>&1
expect_eq "a replay at another fee than the callbacks were asked at is refused, naming the knobs" "false yes" \
	"$(jget "$TMP/cb_fee.replay.json" ok) $(grep -q 'FEE_BPS and FEE_BPS_<MARKET>.*run-side' "$TMP/cb_fee.replay.json" && echo yes || echo no)"
rm -rf out/$N-*
finish
