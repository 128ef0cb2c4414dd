#!/usr/bin/env bash
# 49-sealed.sh - SEALED bars: the strategy is also run and scored on bars it has never seen, the
# bundle shows only their aggregates, and the sealed gate (its net edge must hold there) counts.
# A memory of the chart passes the gates in-sample and fails there; an honest rule holds.
. "$(dirname "$0")/../lib.sh"
unset LLM_API_KEY

# a year of other bars from the same generator (seed 23, from 2026), and a year of chop: a price
# pulled back to one level every hour, where a trend-follower pays its costs for nothing
"$BIN/gendata" --seed 23 --bars 8760 --start 2026-01-01 -o "$TMP/sealed.csv" >/dev/null || exit 3
"$PY" - "$TMP/chop.csv" <<'PYEOF' || exit 3
import datetime as dt, random, sys
random.seed(7)
t, p = dt.datetime(2026, 1, 1), 30000.0
with open(sys.argv[1], "w") as f:
    f.write("time,open,high,low,close,volume\n")
    for i in range(4000):
        o, p = p, round(30000 + 0.85 * (p - 30000) + random.gauss(0, 60), 2)
        hi, lo = max(o, p) + abs(random.gauss(0, 20)), min(o, p) - abs(random.gauss(0, 20))
        f.write("%s,%.2f,%.2f,%.2f,%.2f,%.3f\n" % ((t + dt.timedelta(hours=i)).strftime(
            "%Y-%m-%dT%H:%M:%SZ"), o, hi, lo, p, 1000 + random.random() * 500))
PYEOF
"$PY" tests/lookahead/dodge/hindsight_gen.py data/ohlcv.csv "$TMP" || exit 3

# audit FILE NAME [SEALED]: make audit into out/NAME; prints the verdict
audit() {
	make --no-print-directory audit STRATEGY="$1" NAME="$2" TRIALS=3 PERMUTATIONS=20 \
		${3:+SEALED="$3"} >"$TMP/$2.log" 2>&1
	sed -n 's/^verdict: \([A-Z_]*\) .*/\1/p' "$TMP/$2.log"
}
# gates NAME: "name=pass ..." for every gate of verdict.json
gates() {
	"$PY" -c 'import json, sys
print(" ".join("%s=%s" % (g["name"], str(g["pass"]).lower()) for g in json.load(open(sys.argv[1]))["gates"]))' \
		"out/$1/verdict.json"
}

N=e2e-sealed-honest
expect_eq "the honest demo holds on sealed bars: WATCH as without them" WATCH \
	"$(audit demos/honest.py $N "$TMP/sealed.csv")"
expect_eq "honest: the sealed gate passes" "true" "$(gates $N | sed -n 's/.*sealed=\([a-z]*\).*/\1/p')"
expect_eq "honest: sealed.json is aggregates of a full run on the sealed bars" "ok 8760 true" \
	"$(jget out/$N/sealed.json status) $(jget out/$N/sealed.json bars) $(jget out/$N/sealed.json edge_holds)"
check "honest: the summary says what the sealed bars gave" grep -q "Sealed data: on the 8760 sealed bars" \
	"out/$N/verdict.json"
# nothing of the sealed set but aggregates: none of its times (2026, hourly) in any file of the
# bundle (a date alone may be the calibration's, which the limitations quote)
check "honest: no time of the sealed bars in the bundle" sh -c "! grep -rlE '2026-[01][0-9]-[0-3][0-9][T ][0-2][0-9]:' out/$N/ \
	--include='*.json' --include='*.csv' --include='*.html' --include='*.txt' --include='*.xlsx'"
expect_eq "honest: sealed.json holds no list (no trades, no bars)" "0" \
	"$("$PY" -c 'import json, sys
print(sum(isinstance(v, list) and len(v) > 0 for v in json.load(open(sys.argv[1])).values()))' out/$N/sealed.json)"

check "honest: the sealed gate recomputes from sealed.json" "$PY" tests/recompute.py "out/$N"

N=e2e-sealed-memory
expect_eq "a list of remembered dates is still rejected" REJECTED_LOOKAHEAD \
	"$(audit "$TMP/dates.py" $N "$TMP/sealed.csv")"
expect_eq "memory: every in-sample gate passes but the count of independent trades, the sealed gate does not" \
	"trades=false net_edge=true psr=true dsr=true track_record=true drawdown=true alpha=true sealed=false" "$(gates $N)"
expect_eq "memory: on the sealed bars its remembered dates never come" "0 false" \
	"$(jget out/$N/sealed.json trades) $(jget out/$N/sealed.json edge_holds)"

N=e2e-sealed-chop
expect_eq "the sealed gate alone holds an honest rule whose edge fails there" "NOT_READY NOT_READY" \
	"$(audit demos/honest.py $N "$TMP/chop.csv") $(jget out/$N/verdict.json gate_verdict)"
expect_eq "chop: the in-sample gates but trades pass, the sealed gate fails" \
	"trades=false net_edge=true psr=true dsr=true track_record=true drawdown=true alpha=true sealed=false" "$(gates $N)"
check "chop: the sealed gate recomputes from sealed.json" "$PY" tests/recompute.py "out/$N"
check "chop: the summary says why" grep -q "the edge does not hold there (both must be above 0), so the verdict cannot pass" \
	"out/$N/verdict.json"

# without SEALED the same audit has no sealed gate and no sealed.json left behind
expect_eq "without SEALED, no sealed gate" "WATCH absent" \
	"$(audit demos/honest.py $N) $(gates $N | grep -q sealed= && echo present || echo absent)"
check "without SEALED, the old sealed.json is gone" test ! -e "out/$N/sealed.json"

# a sealed file the loader refuses stops the audit before any stage runs, with its reason
printf 'time,open\nnot a time,1\n' >"$TMP/bad.csv"
make --no-print-directory audit STRATEGY=demos/honest.py NAME=e2e-sealed-bad SEALED="$TMP/bad.csv" \
	>"$TMP/bad.log" 2>&1
expect_eq "a bad SEALED file is refused before the audit" "2" "$([ -e out/e2e-sealed-bad/run.json ] && echo ran || echo 2)"
check "bad: the reason names the file" grep -q "bad.csv" "$TMP/bad.log"

rm -rf out/e2e-sealed-*
finish
