#!/usr/bin/env bash
# 59-neighbourhood.sh - plateau or peak: each numeric parameter moved x0.8 to x1.2, the sets run
# in the sandbox and replayed, and the neighbours' median per-bar Sharpe ratio set against the
# centre's (tests/fixtures/neighbourhood/make_fixtures.py writes the bars, seeded), every figure
# recomputed from the bundle by tests/recompute_neighbourhood.py:
#   plateau.py on planted.csv    a planted edge whose parameters it does not hang on: a
#                                plateau, READY (its hour, 13, a position on the clock, is no
#                                parameter; its min_periods=2 is one)
#   picked.py on noise.csv       the best of 56 rules picked on the audited bars, TRIALS=1, zero
#                                costs: a peak, deflated as a search of 25 or its family's
#                                independent rules when more, not READY (READY with the rules
#                                off, NEIGHBOUR_KEEP=0 NEIGHBOUR_SPAN=1)
#   picked_literal.py on noise.csv  the best of 132 pairs of lags picked on the audited bars,
#                                its lags written as numbers in signals()' body (no keyword),
#                                TRIALS=1, zero costs: the numbers moved as parameters (the
#                                sandbox rewrites them by position), a peak, deflated as the
#                                search it implies, not READY
#   picked_freqtrade.py on noise.csv  the same pick as a freqtrade class, its lags numbers in
#                                populate_indicators: moved as signals()' are, a peak, the
#                                family counted in the deflation, not READY
#   plateau_freqtrade.py on planted.csv  plateau.py's honest rule as a freqtrade class, its
#                                numbers in its methods and a method they call: a plateau, its
#                                trials the declared one, READY as it was
#   dodge.py on planted.csv      refuses to run at any other parameters: each failed neighbour
#                                (its keywords moved, or the numbers its guard compares them
#                                with) kept nothing, a peak, held to WATCH although every gate
#                                passes
. "$(dirname "$0")/../lib.sh"
unset LLM_API_KEY
F=tests/fixtures/neighbourhood
ZERO="FEE_BPS=0 SLIPPAGE_BPS=0 FUNDING_BPS_8H=0 BORROW_BPS_YEAR=0"
"$PY" $F/make_fixtures.py "$TMP" || { not_ok "the fixtures are written"; finish; }

# audit NAME [make variables...]: make audit into out/NAME, then the recomputation.
audit() {
	local name=$1
	shift
	rm -rf "out/$name"
	if make --no-print-directory audit NAME="$name" LEDGER= "$@" >"$TMP/$name.log" 2>&1; then
		ok "$name: make audit exits 0"
	else
		not_ok "$name: make audit exits 0" "$(tail -n 5 "$TMP/$name.log")"
	fi
	check "$name: the neighbourhood recomputed from the bundle" \
		"$PY" tests/recompute_neighbourhood.py "out/$name"
}

summary_has() {
	"$PY" -c 'import json,sys; print(str(sys.argv[2] in json.load(open(sys.argv[1]))["summary"]).lower())' \
		"$1/verdict.json" "$2"
}

# --- the sets: inspect's rule against the reference's, on the golden file of edge cases --------
check "inspect's neighbours are the reference's (a 1, a 2, a zero, a negative, a float, a bool, a string)" \
	"$PY" -c 'import json, sys; sys.path.insert(0, "tests"); import recompute_neighbourhood as r
n = json.load(open(sys.argv[1]))["strategy"]["neighbourhood"]
moved, sets = r.expected_sets(n["parameters"])
assert n["params"] == sets and [m for m, _ in moved] == ["a", "b", "d", "e", "g"], (n["params"], sets)' \
	tests/golden/inspect/neighbours.json

# --- a plateau -----------------------------------------------------------------------------
d=out/e2e-nb-plateau
audit e2e-nb-plateau STRATEGY=$F/plateau.py DATA="$TMP/planted.csv"
expect_eq "plateau: its two keyword parameters and the 2 written as min_periods, each moved alone (11 neighbours)" "false 11 11" \
	"$(jget $d/stats.json neighbourhood.grid) $(jget $d/stats.json neighbourhood.neighbours) $(jget $d/stats.json neighbourhood.ran)"
expect_eq "plateau: its shape" plateau "$(jget $d/stats.json neighbourhood.shape)"
expect_eq "plateau: its neighbours trade the same bars, one rule: the trials are the declared ones" "1 1 declared" \
	"$(jget $d/stats.json neighbourhood.family_trials) $(jget $d/stats.json trials) $(jget $d/stats.json trials_source)"
expect_eq "plateau: a planted edge still reaches READY" READY_FOR_MICRO_LIVE "$(jget $d/verdict.json verdict)"
expect_eq "plateau: the verdict says so" true "$(summary_has $d "Its parameters sit on a plateau")"
check "plateau: the report draws the surface" grep -q "Neighbourhood" "$d/report.html"

# --- an undeclared search ------------------------------------------------------------------
d=out/e2e-nb-picked
# shellcheck disable=SC2086
audit e2e-nb-picked STRATEGY="$TMP/picked.py" DATA="$TMP/noise.csv" TRIALS=1 $ZERO
expect_eq "picked: its shape" peak "$(jget $d/stats.json neighbourhood.shape)"
expect_eq "picked: deflated as the search the peak implies, or its family's when larger" "$(
	"$PY" -c 'import json,sys; n=json.load(open(sys.argv[1]))["neighbourhood"]
f=n["family_trials"]; print(f"{max(25, f):g} " + ("neighbourhood_family" if f > 25 else "neighbourhood"))' $d/stats.json)" \
	"$(jget $d/stats.json trials) $(jget $d/stats.json trials_source)"
expect_eq "picked: its neighbours trade other bars (a family of many rules)" true \
	"$("$PY" -c 'import json,sys; print(str(json.load(open(sys.argv[1]))["neighbourhood"]["family_trials"] > 25).lower())' $d/stats.json)"
expect_eq "picked: not READY" NOT_READY "$(jget $d/verdict.json verdict)"
expect_eq "picked: the verdict says it sits on a peak" true "$(summary_has $d "sits on a peak of its parameters")"
d=out/e2e-nb-picked-off
# shellcheck disable=SC2086
audit e2e-nb-picked-off STRATEGY="$TMP/picked.py" DATA="$TMP/noise.csv" TRIALS=1 $ZERO NEIGHBOUR_KEEP=0 NEIGHBOUR_SPAN=1
expect_eq "picked, NEIGHBOUR_KEEP=0 NEIGHBOUR_SPAN=1: the rules off, the same pick is READY" READY_FOR_MICRO_LIVE \
	"$(jget $d/verdict.json verdict)"

# --- an undeclared search written as numbers ---------------------------------------------------
# literal_peak LABEL NAME FILE WHERE NAMES: audits the pick FILE (its two lags written as numbers
# WHERE) on noise.csv with TRIALS=1 at zero costs into out/NAME; its lags, NAMES, are the
# parameters moved, the grid's 19 sets ran rewritten, a peak whose family is counted in the
# deflation, NOT_READY.
literal_peak() {
	local label=$1 name=$2 file=$3 where=$4 names=$5 d=out/$2
	# shellcheck disable=SC2086
	audit "$name" STRATEGY="$file" DATA="$TMP/noise.csv" TRIALS=1 $ZERO
	expect_eq "$label: its two lags, numbers in $where, are the parameters moved" "$names literal" \
		"$("$PY" -c 'import json,sys; p=json.load(open(sys.argv[1]))["strategy"]["neighbourhood"]["parameters"]
print(" ".join(x["name"] for x in p), " ".join(sorted({x["from"] for x in p})))' $d/inspect.json)"
	expect_eq "$label: the sets ran with the numbers rewritten (each a run that traded other bars)" "true 19 19 0" \
		"$(jget $d/stats.json neighbourhood.grid) $(jget $d/stats.json neighbourhood.neighbours) $(jget $d/stats.json neighbourhood.ran) $(jget $d/stats.json neighbourhood.failed)"
	expect_eq "$label: its shape" peak "$(jget $d/stats.json neighbourhood.shape)"
	expect_eq "$label: its family counted: deflated as the search the peak implies, or its family's when larger" "$(
		"$PY" -c 'import json,sys; n=json.load(open(sys.argv[1]))["neighbourhood"]
f=n["family_trials"]; assert f > 1, f; print(f"{max(25, f):g} " + ("neighbourhood_family" if f > 25 else "neighbourhood"))' $d/stats.json)" \
		"$(jget $d/stats.json trials) $(jget $d/stats.json trials_source)"
	expect_eq "$label: not READY" NOT_READY "$(jget $d/verdict.json verdict)"
	expect_eq "$label: the verdict says it sits on a peak" true "$(summary_has $d "sits on a peak of its parameters")"
}
literal_peak picked-literal e2e-nb-picked-literal "$TMP/picked_literal.py" "signals()' body" "@9:30 @9:49"

# --- numbers in a framework class's methods ---------------------------------------------------
literal_peak picked-freqtrade e2e-nb-picked-freqtrade "$TMP/picked_freqtrade.py" populate_indicators \
	"@16:38 @16:57"
d=out/e2e-nb-plateau-freqtrade
audit e2e-nb-plateau-freqtrade STRATEGY=$F/plateau_freqtrade.py DATA="$TMP/planted.csv"
expect_eq "plateau-freqtrade: its window, min_periods and cap, numbers in its methods and the method they call, each moved alone; the hour is no parameter" \
	"@19:38 @19:54 @31:35 false" \
	"$("$PY" -c 'import json,sys; p=json.load(open(sys.argv[1]))["strategy"]["neighbourhood"]
print(" ".join(x["name"] for x in p["parameters"] if x["moved"]), str(p["grid"]).lower())' $d/inspect.json)"
expect_eq "plateau-freqtrade: its shape" plateau "$(jget $d/stats.json neighbourhood.shape)"
expect_eq "plateau-freqtrade: one rule: the trials are the declared ones" "1 1 declared" \
	"$(jget $d/stats.json neighbourhood.family_trials) $(jget $d/stats.json trials) $(jget $d/stats.json trials_source)"
expect_eq "plateau-freqtrade: the honest class stays READY" READY_FOR_MICRO_LIVE "$(jget $d/verdict.json verdict)"

# --- a file that hides its neighbourhood ---------------------------------------------------
d=out/e2e-nb-dodge
audit e2e-nb-dodge STRATEGY=$F/dodge.py DATA="$TMP/planted.csv"
expect_eq "dodge: every neighbour of its parameters and of its guard's own numbers failed (16 of 19; min_periods' 3 ran) and kept nothing" "19 16 0 peak" \
	"$(jget $d/stats.json neighbourhood.neighbours) $(jget $d/stats.json neighbourhood.failed) $(jget $d/stats.json neighbourhood.keep) $(jget $d/stats.json neighbourhood.shape)"
expect_eq "dodge: every gate passes" all_pass "$(
	"$PY" -c 'import json,sys; v=json.load(open(sys.argv[1])); print("all_pass" if all(g["pass"] for g in v["gates"]) else v["gates"])' "$d/verdict.json")"
expect_eq "dodge: the rule holds it to WATCH" "WATCH true" \
	"$(jget $d/verdict.json verdict) $(jget $d/verdict.json neighbourhood.capped)"
finish
