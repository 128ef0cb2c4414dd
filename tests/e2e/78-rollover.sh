#!/usr/bin/env bash
# 78-rollover.sh - FX rollover (swap): half a year of hourly EUR/USD-like bars in the FX week
# (tests/fixtures/rollover/make_eurusd.py, across the US switch to summer time) audited with a
# swing rule that holds long and short for days: the market is fx, every trade pays its side's
# rollover for each night held over 17:00 New York in its funding column, recomputed by
# tests/recompute.py with the tz database's New York; a position held over one bar pays three
# nights on a Wednesday's rollover bar, 22:00 UTC in winter and 21:00 UTC in summer, none on the
# hour beside it; a negative short rate is earned. The same bars with swap_long and swap_short
# columns (make_eurusd.py --swap: bps a year, changing on 6 June) charge the columns, not the
# knobs: replay.json says costs.swap_source "columns", the report says so, recompute.py charges
# them bar by bar; one bar's own rate is what its night pays; a blank or one-sided column is
# refused naming the line.
. "$(dirname "$0")/../lib.sh"
unset LLM_API_KEY
F=tests/fixtures/rollover
DATA=$TMP/eurusd.csv
N=e2e-rollover
OUT=out/$N

check "make_eurusd.py writes the bars" "$PY" $F/make_eurusd.py "$DATA"
rm -rf "$OUT"
check "make audit of a swing rule on the EUR/USD bars exits 0" \
	make --no-print-directory audit STRATEGY=$F/swing.py DATA="$DATA" NAME=$N TRIALS=1 LEDGER= \
	PERMUTATIONS=20 LOOKAHEAD_MAX=20
expect_eq "the market follows the FX week: fx" fx "$(jget "$OUT/replay.json" costs.market)"
case $(jget "$OUT/replay.json" costs.market_reason) in
*"rollover 100 bp a year for a long, 100 for a short, a night at 17:00 New York (Wednesday's three"*)
	ok "replay.json says what a held position pays" ;;
*) not_ok "replay.json says what a held position pays" "$(jget "$OUT/replay.json" costs.market_reason)" ;;
esac
check "both sides traded, every trade held over a rollover paid it" "$PY" -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
sides = {r["side"] for r in rows}
assert sides == {"long", "short"}, sides
assert all(float(r["funding"]) > 0 for r in rows if int(r["bars_held"]) > 24), rows
assert all(float(r["borrow"]) == 0 for r in rows)' "$OUT/trades.csv"
"$PY" tests/recompute.py "$OUT" "$DATA" >"$TMP/recompute.out" 2>&1
check "recompute.py: every figure, every trade's rollover nights, the late fills and cost multiples" test $? -eq 0
grep -q "ok: every trade's funding by the fx rules" "$TMP/recompute.out" && ok "recompute.py checks the rollover" ||
	not_ok "recompute.py checks the rollover" "$(grep funding "$TMP/recompute.out")"
grep -q 'rollover 100 bp a year for a long' "$OUT/report.html" && ok "the report's Costs section names the rollover" ||
	not_ok "the report's Costs section names the rollover"

# --- one bar held, at 1 bp a night (360 bp a year) ----------------------------------------------
# one_bar TIME SIDE knobs...: a position of SIDE held over the bar opening at TIME alone; prints
# its funding in bp
one_bar() {
	local at=$1 side=$2 d=$TMP/one
	shift 2
	rm -rf "$d" && mkdir -p "$d"
	"$PY" -c 'import csv, json, sys
t = [r["time"] for r in csv.DictReader(open(sys.argv[1]))]
j = t.index(sys.argv[2])
s = [0] * len(t)
s[j - 1] = int(sys.argv[3])
print(json.dumps({"ok": True, "status": "ok", "n_bars": len(t), "signals": s}))' "$DATA" "$at" "$side" >"$d/run.json" &&
	"$BIN/config" "$@" -o "$d/config.json" >/dev/null 2>&1 &&
	"$BIN/replay" --run "$d/run.json" --data "$DATA" --config "$d/config.json" -o "$d/replay.json" \
		--trades-out "$d/trades.csv" --equity-out "$d/equity.csv" >/dev/null 2>&1 &&
	"$PY" -c 'import json, sys; print(round(json.load(open(sys.argv[1]))["costs"]["funding"] * 1e4, 9))' "$d/replay.json"
}
ONE="SWAP_LONG_BPS_YEAR=360 SWAP_SHORT_BPS_YEAR=360"
# shellcheck disable=SC2086
{
expect_eq "winter: Wednesday 10 January, the bar from 22:00 UTC (17:00 New York) pays three nights" 3.0 \
	"$(one_bar 2024-01-10T22:00:00Z 1 $ONE)"
expect_eq "winter: the bar before it, 21:00 UTC, pays none" 0.0 "$(one_bar 2024-01-10T21:00:00Z 1 $ONE)"
expect_eq "winter: Tuesday's bar from 22:00 UTC pays one night" 1.0 "$(one_bar 2024-01-09T22:00:00Z 1 $ONE)"
expect_eq "summer: Wednesday 26 June, the bar from 21:00 UTC (17:00 New York) pays three nights" 3.0 \
	"$(one_bar 2024-06-26T21:00:00Z 1 $ONE)"
expect_eq "summer: the bar after it, 22:00 UTC, pays none" 0.0 "$(one_bar 2024-06-26T22:00:00Z 1 $ONE)"
expect_eq "a short pays its own rate: 2 bp a night on Thursday" 2.0 \
	"$(one_bar 2024-06-27T21:00:00Z -1 SWAP_LONG_BPS_YEAR=360 SWAP_SHORT_BPS_YEAR=720)"
expect_eq "a negative rate is earned: a short at -360 bp a year earns three nights on Wednesday" -3.0 \
	"$(one_bar 2024-06-26T21:00:00Z -1 SWAP_LONG_BPS_YEAR=360 SWAP_SHORT_BPS_YEAR=-360)"
expect_eq "off fx, no rollover: MARKET=spot pays none" 0.0 "$(one_bar 2024-06-26T21:00:00Z 1 $ONE MARKET=spot)"
}

# --- the rates from the data's columns -----------------------------------------------------------
SW=$TMP/eurusd-swap.csv
NS=e2e-rollover-swap
check "make_eurusd.py --swap writes the bars with swap columns" "$PY" $F/make_eurusd.py "$SW" --swap
rm -rf "out/$NS"
check "make audit on the bars with swap columns exits 0" \
	make --no-print-directory audit STRATEGY=$F/swing.py DATA="$SW" NAME=$NS TRIALS=1 LEDGER= \
	PERMUTATIONS=20 LOOKAHEAD_MAX=20
expect_eq "knobs' run: costs.swap_source knobs" knobs "$(jget "$OUT/replay.json" costs.swap_source)"
expect_eq "columns' run: costs.swap_source columns" columns "$(jget "out/$NS/replay.json" costs.swap_source)"
grep -q "rollover from the data&#39;s swap_long and swap_short columns\|rollover from the data's swap_long and swap_short columns" \
	"out/$NS/report.html" && ok "the report's Costs section says the columns ran" ||
	not_ok "the report's Costs section says the columns ran" "$(jget "out/$NS/replay.json" costs.market_reason)"
check "the same trades, a long paying 180 or 205 bp a year and a short earning 80 or 55, not the knobs' 100" "$PY" -c '
import csv, sys
a = list(csv.DictReader(open(sys.argv[1])))
b = list(csv.DictReader(open(sys.argv[2])))
key = lambda r: (r["entry_time"], r["exit_time"], r["side"])
assert [key(r) for r in a] == [key(r) for r in b], "the trades differ"
held = [(x, y) for x, y in zip(a, b) if float(x["funding"]) != 0]
assert held, "no trade held over a rollover"
for x, y in held:
    ratio = float(y["funding"]) / float(x["funding"])
    if x["side"] == "long":
        assert 1.8 - 1e-9 <= ratio <= 2.05 + 1e-9, (x, y)
    else:
        assert -0.8 - 1e-9 <= ratio <= -0.55 + 1e-9, (x, y)
assert any(r["side"] == "short" and float(r["funding"]) < 0 for r in b), "no short earned"' \
	"$OUT/trades.csv" "out/$NS/trades.csv"
"$PY" tests/recompute.py "out/$NS" "$SW" >"$TMP/recompute-swap.out" 2>&1
check "recompute.py on the columns' bundle: every figure, every trade's funding by the bar's rate" test $? -eq 0
grep -q "ok: costs.swap_source 'columns'" "$TMP/recompute-swap.out" && ok "recompute.py checks the source" ||
	not_ok "recompute.py checks the source" "$(grep swap_source "$TMP/recompute-swap.out")"

# one bar held over Wednesday's rollover, its own swap_long 720 (2 bp a night) where every other
# bar says 180: three nights at the bar's rate, the knobs unread
"$PY" -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
for r in rows[1:]:
    if r[0] == "2024-06-26T21:00:00Z":
        r[6] = "720"
csv.writer(open(sys.argv[2], "w", newline=""), lineterminator="\n").writerows(rows)' "$SW" "$TMP/one-swap.csv"
DATA=$TMP/one-swap.csv
expect_eq "the bar's own column: 720 bp a year pays 6 bp over Wednesday's three nights" 6.0 \
	"$(one_bar 2024-06-26T21:00:00Z 1 $ONE)"
expect_eq "the next bar's 180 bp a year pays no night outside its rollover" 0.0 \
	"$(one_bar 2024-06-26T22:00:00Z 1 $ONE)"
expect_eq "a short at the column's -55 bp a year earns a Thursday night" \
	"$("$PY" -c 'print(round(-55 / 360, 9))')" "$(one_bar 2024-06-27T21:00:00Z -1 $ONE)"
DATA=$SW

# malformed columns: refused with the line, the audit's replay saying why
printf 'time,open,high,low,close,swap_long,swap_short\n2024-01-08T10:00:00Z,1.1,1.2,1.0,1.1,180,-80\n2024-01-08T11:00:00Z,1.1,1.2,1.0,1.1,n/a,-80\n' >"$TMP/bad-swap.csv"
"$BIN/replay" --run "$TMP/one/run.json" --data "$TMP/bad-swap.csv" --config "$TMP/one/config.json" \
	-o "$TMP/bad.json" --trades-out "$TMP/bad.csv" --equity-out "$TMP/bad-eq.csv" >/dev/null 2>&1
case "$(jget "$TMP/bad.json" ok) $(jget "$TMP/bad.json" reason)" in
"false the data could not be loaded (line 3: swap_long 'n/a' is not a finite number"*) ok "a column that is not a number is refused naming the line" ;;
*) not_ok "a column that is not a number is refused naming the line" "$(cat "$TMP/bad.json" 2>&1 | head -c 400)" ;;
esac
finish
