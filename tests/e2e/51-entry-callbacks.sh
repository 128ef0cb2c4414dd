#!/usr/bin/env bash
# 51-entry-callbacks.sh - freqtrade's confirm_trade_entry in the live replay: the host asks it on
# the bar a trade enters, a refusal is the bar's whole answer and the trade is not entered, and
# freqtrade asks again on the next candle whose entry signal is set. ft_cb_confirm's audited
# trades on freqtrade's own test candles are those of freqtrade's backtest written again from
# its source (ft_replay.py), entry for entry, at the audit's default fee; the strategy's
# refusals change its trades, so an audit that ignored them could not pass.
. "$(dirname "$0")/../lib.sh"

S=tests/frameworks/strategies
C=tests/frameworks/unittest_btc_5m.csv
P=e2e51
trap 'rm -rf "$TMP" out/${P}_*' EXIT
want() { "$PY" tests/frameworks/ft_replay.py --fee 0.001 "$1" $C >"$2" 2>"$2.err"; }

# --- the reference: confirm_trade_entry refuses many entries, some taken a candle later
want $S/ft_cb_confirm.py "$TMP/confirm.want" ||
	not_ok "ft_replay.py runs ft_cb_confirm" "$(tail -n 3 "$TMP/confirm.want.err")"
sed 's/^    def confirm_trade_entry(/    def unused_confirm(/' $S/ft_cb_confirm.py >"$TMP/plain.py"
want "$TMP/plain.py" "$TMP/plain.want"
check "ft_cb_confirm: freqtrade's trades without confirm_trade_entry are more, and those it lets in are among them or a candle or more later" \
	"$PY" - "$TMP/confirm.want" "$TMP/plain.want" <<'PYEOF'
import collections, sys
mine = [l.split(',') for l in open(sys.argv[1])]
plain = [l.split(',') for l in open(sys.argv[2])]
assert len(mine) >= 50 and len(plain) >= len(mine) + 15, (len(mine), len(plain))
later = set(r[0] for r in mine) - set(r[0] for r in plain)
assert len(later) >= 5, later  # entries refused on a candle, taken on a later one
n = collections.Counter(r[3] for r in mine)
assert n['held_1h_loss'] >= 10 and n['roi'] >= 10 and n['stop_loss'] >= 3, n
PYEOF

# leverage: freqtrade calls it off spot only, so a long-only class's is never asked (the same
# trades) and one that can short is refused by name, by the reference as by the audit's shim
{ cat $S/ft_cb_confirm.py; printf '\n    def leverage(self, *args, **kwargs):\n        return 3.0\n'; } >"$TMP/lev.py"
want "$TMP/lev.py" "$TMP/lev.want"
if cmp -s "$TMP/lev.want" "$TMP/confirm.want"; then ok "ft_replay.py: a long-only class's leverage is not called (spot)"
else not_ok "ft_replay.py: a long-only class's leverage is not called (spot)" "$(head -n 3 "$TMP/lev.want.err")"; fi
sed 's/^    minimal_roi = /    can_short = True\n    minimal_roi = /' "$TMP/lev.py" >"$TMP/lev_short.py"
"$PY" tests/frameworks/ft_replay.py --fee 0.001 "$TMP/lev_short.py" $C >"$TMP/lev_short.out" 2>&1
expect_eq "ft_replay.py refuses leverage in a class that can short, by name" "3 refused: leverage" \
	"$? $(cat "$TMP/lev_short.out")"

# --- the audit's trades against freqtrade's
O=out/${P}_confirm
if ! make --no-print-directory audit STRATEGY=$S/ft_cb_confirm.py DATA=$C NAME=${P}_confirm TRIALS=1 \
	>"$TMP/audit.log" 2>&1; then
	not_ok "ft_cb_confirm: make audit exits 0" "$(tail -n 5 "$TMP/audit.log")"
	finish
fi
status=$(jget $O/run.json status)
expect_eq "ft_cb_confirm: the audit runs confirm_trade_entry" "ok null" "$status $(jget $O/run.json error)"
what="ft_cb_confirm at 10 bp a side: the audit's trades are freqtrade's, entry for entry (time, side, exit candle, exit reason, tag)"
if "$PY" tests/frameworks/ft_replay.py --fee 0.001 $S/ft_cb_confirm.py $C $O/trades.csv >"$TMP/compare" 2>&1; then
	ok "$what"
else not_ok "$what" "$(head -n 6 "$TMP/compare")"; fi
check "ft_cb_confirm: lookahead.json's live calls ask confirm_trade_entry on each entry's bar, and record its refusals alone" \
	"$PY" - $O/lookahead.json $O/trades.csv <<'PYEOF'
import csv, json, sys
calls = json.load(open(sys.argv[1]))['live']['calls']
asked = [r for r in calls if r[3] & 4]
refused = [r for r in calls if r[7]]
assert all(r[2] == r[0] for r in asked), 'asked on a bar the trade did not enter'
assert all(r in asked and r[4] is None and r[5] == 0 and r[6] == '' for r in refused)
trades = list(csv.DictReader(open(sys.argv[2])))
assert len(refused) >= 20 and len(asked) == len(refused) + len(trades), (len(asked), len(refused), len(trades))
PYEOF
# a long-only class's leverage is not called by the audit either: the same trades as freqtrade's
O2=out/${P}_lev
if make --no-print-directory audit STRATEGY="$TMP/lev.py" DATA=$C NAME=${P}_lev TRIALS=1 >"$TMP/lev.log" 2>&1 &&
	[ "$(jget $O2/run.json status)" = ok ] &&
	"$PY" tests/frameworks/ft_replay.py --fee 0.001 "$TMP/lev.py" $C $O2/trades.csv >"$TMP/lev.compare" 2>&1; then
	ok "a long-only class with leverage: audited, its trades freqtrade's (leverage not called in spot)"
else not_ok "a long-only class with leverage: audited, its trades freqtrade's (leverage not called in spot)" \
	"$(jget $O2/run.json error) $(head -n 4 "$TMP/lev.compare" 2>/dev/null)"; fi
for r in recompute recompute_spread; do
	if "$PY" tests/$r.py $O $C >"$TMP/$r.out" 2>&1; then ok "ft_cb_confirm: $r.py agrees with the bundle"
	else not_ok "ft_cb_confirm: $r.py agrees with the bundle" "$(grep -m 5 MISMATCH "$TMP/$r.out")"; fi
done
finish
