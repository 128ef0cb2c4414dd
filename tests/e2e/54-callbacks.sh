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

# --- the audit's trades (make audit's trades.csv) against freqtrade's
P=e2e54
trap 'rm -rf "$TMP" out/${P}_*' EXIT
for f in ft_cb_stop_psar ft_cb_stop_open ft_cb_exit; do
	O=out/${P}_$f
	if ! make --no-print-directory audit STRATEGY=$S/$f.py DATA=$C NAME=${P}_$f TRIALS=1 >"$TMP/$f.audit.log" 2>&1; then
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
	what="$f at 10 bp a side: the audit's trades are freqtrade's, entry for entry (time, side, exit candle, exit reason, tag)"
	if "$PY" tests/frameworks/ft_replay.py --fee 0.001 $S/$f.py $C $O/trades.csv >"$TMP/$f.compare" 2>&1; then
		ok "$what"
	else not_ok "$what" "$(head -n 6 "$TMP/$f.compare")"; fi
done
finish
