#!/usr/bin/env bash
# 76-market.sh - costs that fit the market: a daily stock file in Stooq's layout (weekday
# sessions, holidays left out, one real gap) audited with a strategy that shorts is charged as
# a stock (no funding, a short's borrow), its weekends and holidays are no gaps, the report
# names the market and why, and every trade's costs are recomputed from trades.csv; MARKET and
# FUNDING_INCOME change the rules as they say.
. "$(dirname "$0")/../lib.sh"
unset LLM_API_KEY
F=tests/fixtures/market
DATA=$F/stooq_daily.csv
N=e2e-market
OUT=out/$N

check "make-stooq.py writes the fixture" "$PY" $F/make-stooq.py "$TMP/stooq.csv"
check "stooq_daily.csv is what make-stooq.py writes" cmp "$DATA" "$TMP/stooq.csv"

rm -rf "$OUT"
check "make audit of a shorting strategy on the stock file exits 0" \
	make --no-print-directory audit STRATEGY=$F/short_trend.py DATA=$DATA NAME=$N TRIALS=1 \
	PERMUTATIONS=20 LOOKAHEAD_MAX=20
expect_eq "the calendar is weekday sessions" "weekday sessions" "$(jget "$OUT/fingerprint.json" data_format.calendar)"
expect_eq "weekends and holidays are no gaps: the one missing fortnight is" 1 "$(jget "$OUT/fingerprint.json" data_format.gaps)"
expect_eq "the fortnight's ten sessions are the bars missing" 10 "$(jget "$OUT/fingerprint.json" data_format.missing_bars)"
expect_eq "the market follows the calendar: stock" stock "$(jget "$OUT/replay.json" costs.market)"
expect_eq "the market was not set: it came from the calendar" true "$(jget "$OUT/replay.json" costs.market_from_calendar)"
expect_eq "a stock pays no funding" 0 "$(jget "$OUT/replay.json" costs.funding)"
shorts=$(awk -F, 'NR > 1 && $3 == "short"' "$OUT/trades.csv" | wc -l)
[ "$shorts" -gt 5 ] && ok "the strategy shorts ($shorts short trades)" || not_ok "the strategy shorts" "$shorts"
check "every short pays borrow, no long does" awk -F, 'NR > 1 && ($3 == "short") != ($11 > 0) { bad = 1 } END { exit bad }' "$OUT/trades.csv"
"$PY" - "$OUT/replay.json" <<'PYEOF' >"$TMP/net.out" 2>&1
import json, sys
r = json.load(open(sys.argv[1]))
c = r["costs"]
ok = r["net_return"] < r["gross_return"] and c["total"] > 0 and c["borrow"] > 0 and c["funding"] >= 0
print(r["gross_return"], r["net_return"], c)
sys.exit(0 if ok else 1)
PYEOF
check "net below gross: the trades paid costs, borrow among them" test $? -eq 0
grep -q 'Market: stock: the bars keep weekday sessions (none on a Saturday or Sunday); no funding, short borrow 30 bp/year.' "$OUT/report.html" &&
	ok "the report's Costs section names the market and why" ||
	not_ok "the report's Costs section names the market and why" "$(grep -o 'Market: [^<]*' "$OUT/report.html")"
grep -q 'weekday sessions: weekends and market holidays' "$OUT/report.html" &&
	ok "the report's data section says weekends and holidays are closures" ||
	not_ok "the report's data section says weekends and holidays are closures"
"$PY" tests/recompute.py "$OUT" "$DATA" >"$TMP/recompute.out" 2>&1
check "recompute.py: every figure, every trade's costs, the late fills and cost multiples replayed" test $? -eq 0
grep -q "every trade's borrow by the stock rules" "$TMP/recompute.out" && ok "recompute.py checks the borrow" ||
	not_ok "recompute.py checks the borrow" "$(tail -n 3 "$TMP/recompute.out")"
"$PY" tests/e2e/tearsheet_check.py "$OUT" "$DATA" >"$TMP/tear.out" 2>&1
rc=$?
sed 's/^\(\(not \)\{0,1\}ok - \)/\1stock: /' "$TMP/tear.out" | grep '^\(not \)\{0,1\}ok - '
[ "$rc" -eq 0 ] || not_ok "stock: the tearsheet check ran to the end" "$(tail -n 3 "$TMP/tear.out")"

# --- MARKET and FUNDING_INCOME, replayed on the same signals ----------------------------------
replay_as() { # dir knobs...
	local d=$1; shift
	mkdir -p "$d"
	cp "$OUT/run.json" "$d/run.json"
	"$BIN/config" "$@" -o "$d/config.json" >/dev/null 2>&1 &&
	"$BIN/replay" --run "$d/run.json" --data "$DATA" --config "$d/config.json" -o "$d/replay.json" \
		--trades-out "$d/trades.csv" --equity-out "$d/equity.csv" >/dev/null 2>&1 &&
	"$BIN/stats" --replay "$d/replay.json" --config "$d/config.json" --data "$DATA" --run "$d/run.json" \
		-o "$d/stats.json" >/dev/null 2>&1
}
check "MARKET=perp replays" replay_as "$TMP/perp" MARKET=perp
expect_eq "MARKET=perp: the market is set" "perp: set by MARKET; funding 1 bp per 8 h held, paid by either side, never income; no borrow" \
	"$(jget "$TMP/perp/replay.json" costs.market_reason)"
check "perp: every trade pays funding, shorts too: never income" \
	awk -F, 'NR > 1 && !($10 > 0 && $11 == 0) { bad = 1 } END { exit bad }' "$TMP/perp/trades.csv"
check "perp: recompute.py agrees, the replayed rows too" "$PY" tests/recompute.py "$TMP/perp" "$DATA"
check "MARKET=perp FUNDING_INCOME=1 replays" replay_as "$TMP/income" MARKET=perp FUNDING_INCOME=1
check "FUNDING_INCOME=1: a short receives the funding, a long pays it" \
	awk -F, 'NR > 1 && (($3 == "short") != ($10 < 0)) { bad = 1 } END { exit bad }' "$TMP/income/trades.csv"
check "income: recompute.py agrees, the replayed rows too" "$PY" tests/recompute.py "$TMP/income" "$DATA"
expect_eq "income: no break-even, since funding can be income" null "$(jget "$TMP/income/stats.json" breakeven_cost_multiple)"
case $(jget "$TMP/income/stats.json" breakeven.reason) in
"funding is income in this cost model (FUNDING_INCOME)"*) ok "income: the break-even's reason says why" ;;
*) not_ok "income: the break-even's reason says why" "$(jget "$TMP/income/stats.json" breakeven.reason)" ;;
esac
check "MARKET=fx replays" replay_as "$TMP/fx" MARKET=fx
expect_eq "fx: no borrow; its rollover, booked as funding, paid by both sides at the default rates" "0 true" \
	"$(jget "$TMP/fx/replay.json" costs.borrow) $("$PY" -c 'import json,sys; print(str(json.load(open(sys.argv[1]))["costs"]["funding"] > 0).lower())' "$TMP/fx/replay.json")"
check "fx: recompute.py agrees, each trade's rollover nights too" "$PY" tests/recompute.py "$TMP/fx" "$DATA"
check "BORROW_BPS_YEAR=300 replays" replay_as "$TMP/b300" BORROW_BPS_YEAR=300
"$PY" -c 'import json, sys
a, b = (json.load(open(p))["costs"]["borrow"] for p in sys.argv[1:])
sys.exit(abs(b - 10 * a) > 1e-9)' "$OUT/replay.json" "$TMP/b300/replay.json"
check "ten times the borrow rate, ten times the borrow" test $? -eq 0
# the minimum commission of a stock order over a micro-live stake: USD 1 on USD 1000 is 10 bp a
# side, above the 1 bp fee; on the default USD 10 000 stake it is the fee itself
expect_eq "the default stake: the minimum commission is the 1 bp fee" "1 1" \
	"$(jget "$OUT/replay.json" costs.fee_bps) $(jget "$OUT/replay.json" costs.fee_minimum_bps)"
check "STAKE=1000 replays" replay_as "$TMP/stake" STAKE=1000
expect_eq "STAKE=1000: the fee per side is the USD 1 minimum over the stake" 10 "$(jget "$TMP/stake/replay.json" costs.fee_bps)"
check "STAKE=1000: the replay says the minimum is what was charged" grep -q "the minimum commission of an order" "$TMP/stake/replay.json"
check "STAKE=1000: every trade pays 10 bp a side in fees" \
	awk -F, 'NR > 1 && ($8 < 0.0019999 || $8 > 0.0020001) { bad = 1 } END { exit bad }' "$TMP/stake/trades.csv"
check "stake: recompute.py agrees, the replayed rows too" "$PY" tests/recompute.py "$TMP/stake" "$DATA"
"$BIN/config" MARKET=bond -o "$TMP/bad.json" >"$TMP/bad.out" 2>&1
expect_eq "MARKET=bond is refused" 2 $?
grep -q "MARKET 'bond' should be one of: perp spot stock fx" "$TMP/bad.out" && ok "MARKET=bond: says the choices" ||
	not_ok "MARKET=bond: says the choices" "$(cat "$TMP/bad.out")"

rm -rf "$OUT"
finish
