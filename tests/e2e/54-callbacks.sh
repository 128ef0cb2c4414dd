#!/usr/bin/env bash
# 54-callbacks.sh - freqtrade's per-trade callbacks (custom_stoploss with use_custom_stoploss,
# custom_exit): the audit's trades of the ft_cb_* strategies on freqtrade's own test candles are
# those of freqtrade's backtest written again from its source (ft_replay.py), entry for entry
# (time, side, exit candle, exit reason, tag), at the audit's default fee; an audit that refuses
# a callback fails here with its refusal's words. Each strategy's callbacks change its trades, so
# an audit that ignored them could not pass.
. "$(dirname "$0")/../lib.sh"

S=tests/frameworks/strategies
C=tests/frameworks/unittest_btc_5m.csv
trap 'rm -rf "$TMP"' EXIT

# freqtrade's trades of a strategy on the candles at 10 bp a side: FILE.want
want() { "$PY" tests/frameworks/ft_replay.py --fee 0.001 "$1" $C >"$2" 2>"$2.err"; }

# --- the reference itself: on these candles each strategy's callbacks decide many trades
for f in ft_cb_stop_psar ft_cb_stop_open ft_cb_exit; do
	want $S/$f.py "$TMP/$f.want" || not_ok "ft_replay.py runs $f" "$(tail -n 3 "$TMP/$f.want.err")"
done
check "ft_cb_stop_psar: freqtrade's trades, most ended by the stop the SAR moved (trailing_stop_loss)" \
	"$PY" - "$TMP/ft_cb_stop_psar.want" <<'PYEOF'
import collections, sys
n = collections.Counter(l.split(',')[3] for l in open(sys.argv[1]))
assert sum(n.values()) >= 50 and n['trailing_stop_loss'] >= 30 and n['stop_loss'] and n['roi'], n
PYEOF
check "ft_cb_stop_open: freqtrade's trades on both sides, stops stepped by profit (trailing_stop_loss) and untouched (stop_loss)" \
	"$PY" - "$TMP/ft_cb_stop_open.want" <<'PYEOF'
import collections, sys
n = collections.Counter(tuple(l.split(',')[2:4]) for l in open(sys.argv[1]))
for side in ('long', 'short'):
    assert n[(side, 'trailing_stop_loss')] >= 20 and n[(side, 'stop_loss')] >= 5, n
PYEOF
check "ft_cb_exit: freqtrade's trades ended by custom_exit's named reasons, its plain True, and the exit signal's tag" \
	"$PY" - "$TMP/ft_cb_exit.want" <<'PYEOF'
import collections, sys
n = collections.Counter(l.split(',')[3] for l in open(sys.argv[1]))
assert n['rsi_profit'] >= 10 and n['held_2h'] >= 3 and n['custom_exit'] >= 5 and n['rsi_70'] >= 3, n
PYEOF
# without its callbacks each strategy trades otherwise: the comparison below can tell
for f in ft_cb_stop_psar ft_cb_stop_open ft_cb_exit; do
	sed -e 's/^    use_custom_stoploss = True/    use_custom_stoploss = False/' \
		-e 's/^    def custom_exit(/    def unused_exit(/' $S/$f.py >"$TMP/$f.plain.py"
	want "$TMP/$f.plain.py" "$TMP/$f.plain.want"
	if cmp -s "$TMP/$f.want" "$TMP/$f.plain.want"; then
		not_ok "$f: without its callbacks freqtrade trades otherwise"
	else ok "$f: without its callbacks freqtrade trades otherwise"; fi
done

# the callbacks it does not run, and a trade attribute it does not model, are refusals by name
for cb in confirm_trade_exit custom_stake_amount adjust_trade_position; do
	{ cat $S/ft_cb_exit.py; printf '\n    def %s(self, *args, **kwargs):\n        return None\n' $cb; } >"$TMP/cb_$cb.py"
	"$PY" tests/frameworks/ft_replay.py --fee 0.001 "$TMP/cb_$cb.py" $C >"$TMP/cb_$cb.out" 2>&1
	expect_eq "ft_replay.py refuses $cb by name" "3 refused: $cb" "$? $(cat "$TMP/cb_$cb.out")"
done
sed 's/trade.open_date_utc).total_seconds()/trade.open_date_utc).total_seconds() + trade.funding_fees/' \
	$S/ft_cb_exit.py >"$TMP/cb_attr.py"
"$PY" tests/frameworks/ft_replay.py --fee 0.001 "$TMP/cb_attr.py" $C >"$TMP/cb_attr.out" 2>&1
expect_eq "ft_replay.py refuses a trade attribute it does not model, by name" \
	"3 refused: trade.funding_fees in a callback" "$? $(cat "$TMP/cb_attr.out")"

# --- which class is a callback class: inspect.json's strategy.callbacks, the defs of the class
# body (a name in a comment or a string, or a def outside the class, is none)
"$BIN/inspect" --strategy $S/ft_cb_exit.py -o "$TMP/ins_exit.json" 2>/dev/null
"$BIN/inspect" --strategy $S/ft_peek_cb_stop.py -o "$TMP/ins_stop.json" 2>/dev/null
{ sed 's/    def custom_exit(/    def other_exit(/' $S/ft_cb_exit.py
  printf '\n# def custom_stoploss(self)\nNOTE = "def custom_exit("\n\ndef custom_exit():\n    return None\n'; } >"$TMP/nocb.py"
"$BIN/inspect" --strategy "$TMP/nocb.py" -o "$TMP/ins_nocb.json" 2>/dev/null
expect_eq "inspect.json names the callbacks the class body defines, and none for a name outside it" \
	'["custom_exit"] ["custom_stoploss"] []' \
	"$(jget "$TMP/ins_exit.json" strategy.callbacks | tr -d ' ') $(jget "$TMP/ins_stop.json" strategy.callbacks | tr -d ' ') $(jget "$TMP/ins_nocb.json" strategy.callbacks | tr -d ' ')"

# --- the audit's trades (make audit's trades.csv) against freqtrade's
P=e2e54
trap 'rm -rf "$TMP" out/${P}_*' EXIT
audit() { make --no-print-directory audit STRATEGY="$1" DATA=$C NAME=${P}_$2 TRIALS=1 >"$TMP/$2.audit.log" 2>&1; }

# a custom_stoploss naming after_fill is called by freqtrade as each entry fills, and that answer
# moves the stop either way: a call the audit does not make, so such a class is refused by name
for f in ft_cb_stop_psar ft_cb_stop_open; do
	audit $S/$f.py $f || { not_ok "$f: make audit exits 0" "$(tail -n 5 "$TMP/$f.audit.log")"; continue; }
	expect_eq "$f: custom_stoploss with after_fill stops the run" error "$(jget out/${P}_$f/run.json status)"
	case "$(jget out/${P}_$f/run.json error)" in
	*"custom_stoploss takes after_fill"*) ok "$f: the refusal names after_fill" ;;
	*) not_ok "$f: the refusal names after_fill" "$(jget out/${P}_$f/run.json error)" ;;
	esac
	# the same class without after_fill among its parameters: freqtrade makes no such call
	sed 's/after_fill: bool, //' $S/$f.py >"$TMP/${f}_nofill.py"
	grep -q after_fill "$TMP/${f}_nofill.py" && not_ok "$f: a variant without after_fill"
done

for f in ft_cb_stop_psar_nofill ft_cb_stop_open_nofill ft_cb_exit; do
	src=$S/$f.py
	[ -f "$src" ] || src=$TMP/$f.py
	O=out/${P}_$f
	if ! audit "$src" $f; then
		not_ok "$f: make audit exits 0" "$(tail -n 5 "$TMP/$f.audit.log")"
		continue
	fi
	status=$(jget $O/run.json status)
	if [ "$status" != ok ]; then
		why=$(jget $O/run.json error)
		[ "$why" = null ] && why=$(jget $O/run.json reason)
		not_ok "$f: the audit runs freqtrade's callbacks" "status ${status:-none}: $why"
		continue
	fi
	expect_eq "$f: the audit charges 10 bp a side" 10 "$(jget $O/replay.json costs.fee_bps)"
	# the backtest the author saw answers the same trades: its callbacks, asked on the frame
	# analysed once over the whole history, answer as the live run's did on only the past
	expect_eq "$f: the claimed run's callbacks answer each trade as the live run's (no call leak, clean)" \
		"0 true true" "$(jget $O/lookahead.json live.call_leaks) $(jget $O/lookahead.json clean) \
$("$PY" -c 'import json,sys; l=json.load(open(sys.argv[1]))["live"]; print(str(len(l["claimed_calls"]) > 100).lower())' $O/lookahead.json)"
	what="$f at 10 bp a side: the audit's trades are freqtrade's, entry for entry (time, side, exit candle, exit reason, tag)"
	if "$PY" tests/frameworks/ft_replay.py --fee 0.001 "$src" $C $O/trades.csv >"$TMP/$f.compare" 2>&1; then
		ok "$what"
	else not_ok "$what" "$(head -n 6 "$TMP/$f.compare")"; fi
done

# callbacks that peek, as freqtrade's backtest lets them (its indicators analysed once over the
# whole history): a custom_exit that reads the next candles of the frame populate_indicators was
# given, a custom_stoploss that reads a centred rolling mean, a confirm_trade_entry (its one
# callback) that refuses the entries the next candles make lose. Their signals never peek, so only
# the claimed run's callbacks, set beside the live run's bar by bar, can find them.
for f in ft_peek_cb_exit ft_peek_cb_stop ft_peek_cb_confirm; do
	O=out/${P}_$f
	if ! audit $S/$f.py $f || [ ! -f $O/verdict.json ]; then
		not_ok "$f: make audit exits 0" "$(tail -n 5 "$TMP/$f.audit.log")"
		continue
	fi
	expect_eq "$f: its signals agree with the live run's, its callbacks do not: REJECTED_LOOKAHEAD" \
		"0 REJECTED_LOOKAHEAD false" "$(jget $O/lookahead.json mismatch_count) $(jget $O/verdict.json verdict) $(jget $O/lookahead.json clean)"
	check "$f: lookahead.json names the first bars with both answers, and its explanation says them" \
		"$PY" - $O/lookahead.json <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
l = d['live']
assert l['call_leaks'] >= 5 and l['confirmed_leaks'] >= l['call_leaks'], l['call_leaks']
first = l['call_differences'][0]
assert first['backtest'] != first['live'], first
assert 'at bar %d (%s)' % (first['bar'], first['time']) in d['explanation'], d['explanation'][:300]
assert 'with only the past it was' in d['explanation']
PYEOF
	check "$f: the verdict says the callbacks answered otherwise, naming the first bar, not decisions" \
		"$PY" - $O/lookahead.json $O/verdict.json <<'PYEOF'
import json, sys
l = json.load(open(sys.argv[1]))['live']
v = json.load(open(sys.argv[2]))
first = l['call_differences'][0]
s = v['summary']
assert v['live']['call_leaks'] == l['call_leaks'], v['live']
assert 'its callbacks answered the same open trade differently on %d bars' % l['call_leaks'] in s, s
assert "at bar %d (%s) the backtest's callbacks" % (first['bar'], first['time']) in s, s
assert "differ from the backtest's decisions" not in s, s
PYEOF
	# the claimed curve is the backtest with its callbacks: recompute.py replays run.json's
	# signals with live.claimed_calls to the bundle's backtest, which trades otherwise than live
	if "$PY" tests/recompute.py $O $C >"$TMP/$f.recompute" 2>&1; then
		ok "$f: recompute.py agrees with the bundle, the backtest replayed with its callbacks"
	else not_ok "$f: recompute.py agrees with the bundle, the backtest replayed with its callbacks" \
		"$(grep -m 5 MISMATCH "$TMP/$f.recompute")"; fi
	expect_eq "$f: the claimed curve (with the peeking callbacks) trades otherwise than the live one" yes \
		"$("$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); print("yes" if r["backtest"]["trades"] != r["trades"] else r["trades"])' $O/replay.json)"
done

# every figure of a callback class's bundle is recomputed with the live run's answers: the cost
# multiples and the break-even on its own trades, the late fills null with a reason, each
# custom_exit's named reason as its trade's exit_tag
O=out/${P}_ft_cb_exit
if [ -f $O/stats.json ]; then
	expect_eq "ft_cb_exit: trades.csv carries custom_exit's named reasons as exit_tag" yes \
		"$(grep -q ',custom_exit,[^,]*,rsi_profit$' $O/trades.csv && grep -q ',custom_exit,[^,]*,held_2h$' $O/trades.csv && echo yes)"
	for r in recompute recompute_spread; do
		if "$PY" tests/$r.py $O $C >"$TMP/$r.out" 2>&1; then ok "ft_cb_exit: $r.py agrees with the bundle"
		else not_ok "ft_cb_exit: $r.py agrees with the bundle" "$(grep -m 5 MISMATCH "$TMP/$r.out")"; fi
	done
	expect_eq "ft_cb_exit: the late fills have no figure and say why" "null null" \
		"$(jget $O/stats.json delay_sensitivity.1.net_return) $(jget $O/stats.json bounce.net_return_one_bar_later)"
fi
finish
