#!/usr/bin/env bash
# 49-sealed.sh - SEALED bars: the strategy is also run and scored on bars it has never seen, the
# bundle tells back one of seven outcomes of a reusable holdout (at most 2.81 bits an audit), the
# sealed gate counts, and a set answers a budget of audits. A memory of the chart passes the
# gates in-sample and fails there; an honest rule holds; uploads that try to carry the sealed bars
# out (refused paths, trade counts, timing, returns, drawdowns) get nothing past the outcome.
. "$(dirname "$0")/../lib.sh"
unset LLM_API_KEY
F=tests/fixtures/sealed

# a year of other bars from the same generator (seed 23, from 2026), a second sealed set with
# other bars at the same times (seed 24), and a year of chop: a price pulled back to one level
# every hour, where a trend-follower pays its costs for nothing
"$BIN/gendata" --seed 23 --bars 8760 --start 2026-01-01 -o "$TMP/sealed.csv" >/dev/null || exit 3
"$BIN/gendata" --seed 24 --bars 8760 --start 2026-01-01 -o "$TMP/other.csv" >/dev/null || exit 3
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
"$PY" "$F/coarse_memory_gen.py" data/ohlcv.csv "$TMP/coarse_memory.py" || exit 3

# audit FILE NAME [SEALED [LEDGER [BUDGET]]]: make audit into out/NAME (the sealed budget kept in
# this test's own history); prints the verdict
audit() {
	make --no-print-directory audit STRATEGY="$1" NAME="$2" TRIALS=3 PERMUTATIONS=20 \
		${3:+SEALED="$3"} LEDGER="${4:-$TMP/history.sqlite}" ${5:+SEALED_BUDGET="$5"} >"$TMP/$2.log" 2>&1
	sed -n 's/^verdict: \([A-Z_]*\) .*/\1/p' "$TMP/$2.log"
}
# gates NAME: "name=pass ..." for every gate of verdict.json
gates() {
	"$PY" -c 'import json, sys
print(" ".join("%s=%s" % (g["name"], str(g["pass"]).lower()) for g in json.load(open(sys.argv[1]))["gates"]))' \
		"out/$1/verdict.json"
}
sealed_gate() { gates "$1" | sed -n 's/.*sealed=\([a-z]*\).*/\1/p'; }
# told NAME: sealed.json's outcome, edge and budget
told() {
	echo "$(jget "out/$1/sealed.json" outcome) $(jget "out/$1/sealed.json" edge_holds)" \
		"$(jget "out/$1/sealed.json" budget.used)/$(jget "out/$1/sealed.json" budget.of)"
}

# sealed_stages STRATEGY CONFIG DATA OUT [INSPECT]: the two sealed stages by hand, the run kept in
# CONFIG's history (OUT.run.json the run's file), then scored into OUT; the honest audit's run.json
# and replay.json stand for the audit's
sealed_stages() {
	"$BIN/sealed" --strategy "$1" --run out/e2e-sealed-honest/run.json --data "$3" --config "$2" \
		-o "$4.run.json" >/dev/null 2>&1
	"$BIN/sealed_score" --strategy "$1" ${5:+--inspect "$5"} --runs "$4.run.json" \
		--replay out/e2e-sealed-honest/replay.json --data "$3" --config "$2" -o "$4" >/dev/null 2>&1
}

N=e2e-sealed-honest
expect_eq "the honest demo holds on sealed bars: WATCH as without them" WATCH \
	"$(audit demos/honest.py $N "$TMP/sealed.csv")"
expect_eq "honest: the sealed gate passes" "true" "$(sealed_gate $N)"
expect_eq "honest: its edge there is told as the open one's, the set's first audit" "as_open true 1/5" "$(told $N)"
expect_eq "honest: sealed.json states the bound (log2 7 bits) and the set's size" "2.807 8760" \
	"$(jget out/$N/sealed.json bound_bits) $(jget out/$N/sealed.json bars)"
check "honest: the summary says what the sealed bars gave and the budget used" grep -q \
	"Sealed data: on the 8760 sealed bars, the edge holds, as on the open data (audit 1 of the set's budget of 5" \
	"out/$N/verdict.json"
check "honest: the report says it too" grep -q "audit 1 of the set&#39;s budget of 5\|audit 1 of the set's budget of 5" \
	"out/$N/report.html"
# nothing of the sealed set but the outcome: none of its times (2026, hourly) in any file of the
# bundle (a date alone may be the calibration's, which the limitations quote)
check "honest: no time of the sealed bars in the bundle" sh -c "! grep -rlE '2026-[01][0-9]-[0-3][0-9][T ][0-2][0-9]:' out/$N/ \
	--include='*.json' --include='*.csv' --include='*.html' --include='*.txt' --include='*.xlsx'"
check "honest: the sealed gate recomputes from sealed.json" "$PY" tests/recompute.py "out/$N"
# the same audit again (another bundle name) keeps its place in the budget and its answer
expect_eq "honest again: the same audit is the same answer, still the set's first" "as_open true 1/5" \
	"$(audit demos/honest.py e2e-sealed-again "$TMP/sealed.csv" >/dev/null; told e2e-sealed-again)"
check "honest again: its sealed.json is byte for byte the first's" cmp out/$N/sealed.json out/e2e-sealed-again/sealed.json

N=e2e-sealed-memory
expect_eq "a list of remembered dates is still rejected" REJECTED_LOOKAHEAD \
	"$(audit "$TMP/dates.py" $N "$TMP/sealed.csv")"
expect_eq "memory: every in-sample gate passes but the count of independent trades, the sealed gate does not" \
	"trades=false net_edge=true psr=true dsr=true track_record=true drawdown=true alpha=true sealed=false" "$(gates $N)"
expect_eq "memory: on the sealed bars its remembered dates never come: it fails there" "fails false 2/5" "$(told $N)"

N=e2e-sealed-coarse
expect_eq "a memory coarser than the nudges beside a busy rule fails on fresh bars: NOT_READY" NOT_READY \
	"$(audit "$TMP/coarse_memory.py" $N "$TMP/sealed.csv")"
# the numbers written in its body (the key's rounding to tens of dollars among them) are moved
# by the neighbourhood: moved, the memory misses, so in sample it is a peak and the DSR is
# deflated for the family; the sealed gate fails on its own evidence
expect_eq "coarse: no veto; in sample a peak that fails the DSR, and the sealed gate fails" \
	"trades=true net_edge=true psr=true dsr=false track_record=true drawdown=true alpha=true sealed=false 0 peak" \
	"$(gates $N) $("$PY" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["vetoes"]))' out/$N/verdict.json) $(jget out/$N/verdict.json neighbourhood.shape)"
expect_eq "coarse: on the sealed bars the busy rule alone is left, and fails" fails "$(jget out/$N/sealed.json outcome)"

N=e2e-sealed-chop
expect_eq "the sealed gate alone holds an honest rule whose edge fails there" "NOT_READY NOT_READY" \
	"$(audit demos/honest.py $N "$TMP/chop.csv") $(jget out/$N/verdict.json gate_verdict)"
expect_eq "chop: the in-sample gates but trades pass, the sealed gate fails" \
	"trades=false net_edge=true psr=true dsr=true track_record=true drawdown=true alpha=true sealed=false" "$(gates $N)"
check "chop: the sealed gate recomputes from sealed.json" "$PY" tests/recompute.py "out/$N"
check "chop: the summary says why" grep -q "the edge does not hold (audit 1 of the set's budget of 5.*, so the verdict cannot pass" \
	"out/$N/verdict.json"

# --- uploads that try to carry the sealed bars out, decoded -------------------------------------
# Each is audited against the sealed set and against the other one (other bars, the same times),
# in a history of their own; decode.py reads every byte of both bundles: whatever differs is all
# a bundle carries of the sealed bars.
D="$TMP/decoded.sqlite"
# with_ledger PATH OUT: the honest audit's config.json with LEDGER=PATH
with_ledger() {
	"$PY" -c 'import json, sys
c = json.load(open(sys.argv[1])); c["deflation"]["ledger"] = sys.argv[2]; json.dump(c, open(sys.argv[3], "w"))' \
		out/e2e-sealed-honest/config.json "$1" "$2"
}
# the history exists before the decoded audits (as it does once any sealed audit has run; its
# being there shows in ledger.json): one sealed run of the honest demo on the chop, a third set
with_ledger "$D" "$TMP/decoded.json"
sealed_stages demos/honest.py "$TMP/decoded.json" "$TMP/chop.csv" "$TMP/decoded-sealed.json"
expect_eq "the decoding history is made by a sealed run" "true fails" \
	"$(jget "$TMP/decoded-sealed.json" ok) $(jget "$TMP/decoded-sealed.json" outcome)"
# decoded FILE NAME: audits FILE against both sets; prints decode.py's line
decoded() {
	audit "$1" "$2" "$TMP/sealed.csv" "$D" >/dev/null
	rm -rf "$TMP/$2.a" && cp -r "out/$2" "$TMP/$2.a"
	audit "$1" "$2" "$TMP/other.csv" "$D" >/dev/null
	"$PY" "$F/decode.py" "$TMP/$2.a" "out/$2"
}
N=e2e-sealed-paths
got=$(decoded $F/leak_paths.py $N)
expect_eq "refused paths spelling the sealed days: refused, told as refused only" "refused true REJECTED_UNSAFE" \
	"$(jget out/$N/sealed.json outcome) $(jget out/$N/sealed.json refused) $(jget out/$N/verdict.json verdict)"
expect_eq "paths: the two sets' bundles are the same, byte for byte" identical "$got"
# the paths it builds: "/sealedleak-" then each sealed day's date, direction and close
check "paths: no path it chose in the bundle, the logs or the ledger's history" sh -c \
	"! grep -ralE 'sealedleak-[0-9]' out/$N $TMP/$N.a $TMP/$N.log $D"
expect_eq "paths: the ledger's history counts its refusals per rule, for the operator" "writes stay in scratch" \
	"$("$PY" -c 'import sqlite3, sys
print(",".join(r for r, in sqlite3.connect(sys.argv[1]).execute("SELECT DISTINCT rule FROM sealed_refusals")))' "$D")"

N=e2e-sealed-trades
# what its trades spell on each set: 100 + the first close mod 128 trades (7 bits)
codes=$("$PY" -c 'import csv, sys
sys.path.insert(0, sys.argv[1])
import leak_trades
print(" ".join(str(leak_trades.code([float(next(csv.DictReader(open(f)))["close"])])) for f in sys.argv[2:]))' \
	"$F" "$TMP/sealed.csv" "$TMP/other.csv")
expect_eq "trades: its code differs on the two sets (the bars differ where it looks)" "94 32" "$codes"
got=$(decoded $F/leak_trades.py $N)
case $got in
identical | "outcome only: "*) ok "trades: counts, timing, returns and drawdowns carry nothing past the outcome ($got)" ;;
*) not_ok "trades: counts, timing, returns and drawdowns carry nothing past the outcome" "$got" ;;
esac
check "trades: the bundle holds no count of the sealed trades" sh -c "! grep -q '\"trades\"' out/$N/sealed.json"

# the budget: the set has answered two audits in that history; with a budget of two it is spent
N=e2e-sealed-spent
expect_eq "past the budget the set is spent: the sealed gate fails and asks for fresh bars" \
	"NOT_READY spent false 2/2 false" "$(audit demos/honest.py $N "$TMP/sealed.csv" "$D" 2) $(told $N) $(sealed_gate $N)"
check "spent: the summary asks for fresh sealed bars" grep -q "is spent: fresh sealed bars are needed" "out/$N/verdict.json"
expect_eq "spent: an audit the set answered before keeps its place and its answer" \
	"$(jget "$TMP/e2e-sealed-trades.a/sealed.json" outcome) $(jget "$TMP/e2e-sealed-trades.a/sealed.json" budget.used)/2" \
	"$(audit $F/leak_trades.py e2e-sealed-kept "$TMP/sealed.csv" "$D" 2 >/dev/null; jget out/e2e-sealed-kept/sealed.json outcome) $(jget out/e2e-sealed-kept/sealed.json budget.used)/2"

# no history to keep the budget and the key in: the stage refuses, the gate fails
with_ledger "" "$TMP/noledger.json"
sealed_stages demos/honest.py "$TMP/noledger.json" "$TMP/sealed.csv" "$TMP/noledger-sealed.json"
expect_eq "without LEDGER a sealed run and its score are refused with the reason" "false false" \
	"$(jget "$TMP/noledger-sealed.json.run.json" ok) $(jget "$TMP/noledger-sealed.json" ok)"
check "no ledger: the reason says why" grep -q "SEALED needs LEDGER" "$TMP/noledger-sealed.json"

# a lineage is the structure of the code: a renamed copy of the honest demo (another file name,
# other names, other constants, another docstring) spends from its lineage's count on the same
# set; other code is a lineage of its own. A history of its own, so the counts start at one.
with_ledger "$TMP/lineage.sqlite" "$TMP/lineage.json"
sed -e 's/fast/quick/g; s/span=12/span=10/; s/0\.002/0.003/g; s/Honest trend-follower/My own trend rule/' \
	demos/honest.py >"$TMP/my_trend_v2.py"
# lineage_run FILE TAG: inspect, then the sealed stage on the sealed set; prints "used/of lineage_used"
lineage_run() {
	"$BIN/inspect" --strategy "$1" -o "$TMP/$2-inspect.json" >/dev/null 2>&1
	sealed_stages "$1" "$TMP/lineage.json" "$TMP/sealed.csv" "$TMP/$2-sealed.json" "$TMP/$2-inspect.json"
	echo "$(jget "$TMP/$2-sealed.json" budget.used)/$(jget "$TMP/$2-sealed.json" budget.of)" \
		"$(jget "$TMP/$2-sealed.json" budget.lineage_used)"
}
structure() { jget "$TMP/$1-inspect.json" strategy.normalised.structure_sha256; }
expect_eq "lineage: the honest demo, the set's first audit and its lineage's first" "1/5 1" \
	"$(lineage_run demos/honest.py lineage-orig)"
expect_eq "lineage: a renamed copy with other names and constants, the same lineage's second" "2/5 2" \
	"$(lineage_run "$TMP/my_trend_v2.py" lineage-copy)"
expect_eq "lineage: the copy is another version but the same structure" "same other" \
	"$([ "$(structure lineage-orig)" = "$(structure lineage-copy)" ] && echo same) $([ \
	"$(jget "$TMP/lineage-orig-inspect.json" strategy.normalised.version_sha256)" != \
	"$(jget "$TMP/lineage-copy-inspect.json" strategy.normalised.version_sha256)" ] && echo other)"
expect_eq "lineage: other code on the same set is a lineage of its own" "3/5 1" \
	"$(lineage_run demos/overfit.py lineage-other)"
expect_eq "lineage: the copy made again keeps its place in both counts" "2/5 2" \
	"$(lineage_run "$TMP/my_trend_v2.py" lineage-copy)"

# --- a cost changed under SEALED: the kept run re-scored on the host, no sandbox run; another
# cost is another question about the sealed bars, so it takes a place of its own in the set's
# budget and its lineage's, while a cost asked about before keeps its place and its answer.
# A history of its own, so the counts start at one.
N=e2e-sealed-rescore
H="$TMP/rescore.sqlite"
rescore() {
	make --no-print-directory audit STRATEGY=demos/honest.py NAME=$N TRIALS=3 PERMUTATIONS=20 \
		SEALED="$TMP/sealed.csv" LEDGER="$H" "$@" >"$TMP/$N.log" 2>&1
}
rescore
expect_eq "rescore: the first audit, the set's first" "as_open true 1/5" "$(told $N)"
cp "out/$N/sealed.json" "$TMP/rescore-first.json"
check "rescore: sealed_run.json holds that it ran, its key and the set's size, nothing of the sealed bars" \
	"$PY" - "out/$N/sealed_run.json" "$H" <<'PYEOF'
import json, re, sqlite3, sys
r = json.load(open(sys.argv[1]))
assert sorted(r) == ["bars", "ok", "ran", "reason", "run", "schema", "stage"], sorted(r)
assert r["stage"] == "sealed" and r["ok"] and r["ran"] and r["bars"] == 8760, r
assert re.fullmatch("[0-9a-f]{64}", r["run"]), r["run"]
rows = sqlite3.connect(sys.argv[2]).execute("SELECT run, status, length(signals) FROM sealed_runs").fetchall()
assert rows == [(r["run"], "ran", 8760)], rows
PYEOF
rescore FEE_BPS=25
expect_eq "rescore: FEE_BPS=25 under SEALED runs no sandbox, re-scores sealed.json" "0 1" \
	"$(grep -c SANDBOX "$TMP/$N.log") $(grep -c 'STAGE .*sealed\.json' "$TMP/$N.log")"
expect_eq "rescore: another cost takes a place of its own in the set's budget and its lineage's" "2/5 2" \
	"$(jget out/$N/sealed.json budget.used)/$(jget out/$N/sealed.json budget.of) $(jget out/$N/sealed.json budget.lineage_used)"
rescore
expect_eq "rescore: back at the first cost, no sandbox run, its place and its answer kept, byte for byte" "0 same" \
	"$(grep -c SANDBOX "$TMP/$N.log") $(cmp -s "$TMP/rescore-first.json" out/$N/sealed.json && echo same)"
check "rescore: the re-scored bundle still carries no time of the sealed bars" sh -c "! grep -rlE '2026-[01][0-9]-[0-3][0-9][T ][0-2][0-9]:' out/$N/ \
	--include='*.json' --include='*.csv' --include='*.html' --include='*.txt' --include='*.xlsx'"
rescore AUDIT_S=601
expect_eq "rescore: a knob of the run (AUDIT_S) runs it again in the sandbox" "1" "$(grep -c 'SANDBOX .*sealed_run\.json' "$TMP/$N.log")"

# without SEALED the same audit has no sealed gate and no sealed.json left behind
N=e2e-sealed-chop
expect_eq "without SEALED, no sealed gate" "WATCH absent" \
	"$(audit demos/honest.py $N) $(gates $N | grep -q sealed= && echo present || echo absent)"
check "without SEALED, the old sealed.json and sealed_run.json are gone" test ! -e "out/$N/sealed.json" -a ! -e "out/$N/sealed_run.json"

# a sealed file the loader refuses stops the audit before any stage runs, with its reason
printf 'time,open\nnot a time,1\n' >"$TMP/bad.csv"
make --no-print-directory audit STRATEGY=demos/honest.py NAME=e2e-sealed-bad SEALED="$TMP/bad.csv" \
	LEDGER="$TMP/history.sqlite" >"$TMP/bad.log" 2>&1
expect_eq "a bad SEALED file is refused before the audit" "2" "$([ -e out/e2e-sealed-bad/run.json ] && echo ran || echo 2)"
check "bad: the reason names the file" grep -q "bad.csv" "$TMP/bad.log"

rm -rf out/e2e-sealed-*
finish
