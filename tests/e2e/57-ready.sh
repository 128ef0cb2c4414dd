#!/usr/bin/env bash
# 57-ready.sh - what READY_FOR_MICRO_LIVE must mean, on files built to buy a pass
# (tests/fixtures/ready/make_fixtures.py writes them, seeded), each audited by `make audit`
# and every new figure recomputed from the bundle by tests/recompute_market.py:
#   planted.py on planted.csv    a real edge built into the data still reaches READY
#   twins.py, TRIALS=1000        two near-identical variants cannot shrink the deflation
#   weekly_long.py on rising.csv long a rising market: its return is the market's, WATCH
#   shortvol.csv                 150 small wins, no loss: the tail is unseen, never READY
#   pyramided.csv                50 trades entered three times each: 50 trades of evidence
#   fourteen.csv                 14 winners: too few to call anything sound
#   reversal.py on bounce.csv    a one-bar reversal on last trades bouncing across a 1 % spread:
#                                its edge lives inside one bar's bounce, never READY
#   momentum.py on stale.csv     one-session momentum on stale closes (lag-1 autocorrelation
#                                0.6): every gate passes, WATCH at best
# and the prices recomputed by tests/recompute_spread.py.
. "$(dirname "$0")/../lib.sh"
unset LLM_API_KEY
F=tests/fixtures/ready
"$PY" $F/make_fixtures.py "$TMP" || { not_ok "the fixtures are written"; finish; }

# audit NAME [make variables...]: make audit into out/NAME, then the independent recomputations.
audit() {
	local name=$1 data=data/ohlcv.csv v
	shift
	for v; do case $v in DATA=*) data=${v#DATA=} ;; esac; done
	rm -rf "out/$name"
	if make --no-print-directory audit NAME="$name" "$@" >"$TMP/$name.log" 2>&1; then
		ok "$name: make audit exits 0"
	else
		not_ok "$name: make audit exits 0" "$(tail -n 5 "$TMP/$name.log")"
	fi
	check "$name: overlap, tail, V[SR], Monte Carlo by blocks and the market regression recomputed" \
		"$PY" tests/recompute_market.py "out/$name" "$data"
	check "$name: the headline figures recomputed" "$PY" tests/recompute.py "out/$name"
	check "$name: the spread, the staleness, the slippage floor and the bounce recomputed" \
		"$PY" tests/recompute_spread.py "out/$name" "$data"
}

# gate DIR NAME FIELD: one field of one gate of verdict.json.
gate() {
	"$PY" - "$1/verdict.json" "$2" "$3" <<'PYEOF'
import json, sys
for g in json.load(open(sys.argv[1]))["gates"]:
    if g["name"] == sys.argv[2]:
        v = g[sys.argv[3]]
        print(str(v).lower() if isinstance(v, bool) else v)
PYEOF
}

summary_has() {
	"$PY" -c 'import json,sys; print(str(sys.argv[2] in json.load(open(sys.argv[1]))["summary"]).lower())' \
		"$1/verdict.json" "$2"
}

# --- a planted edge ------------------------------------------------------------------------
d=out/e2e-ready-planted
audit e2e-ready-planted STRATEGY=$F/planted.py DATA="$TMP/planted.csv"
expect_eq "planted: a real edge reaches READY_FOR_MICRO_LIVE" READY_FOR_MICRO_LIVE "$(jget $d/verdict.json verdict)"
expect_eq "planted: its alpha over the instrument is significant" true "$(gate $d alpha pass)"
expect_eq "planted: the bands are drawn by stationary blocks" stationary_blocks "$(jget $d/stats.json monte_carlo.method)"
expect_eq "planted: its edge does not live inside one bar's bounce" false "$(jget $d/stats.json bounce.inside_bounce)"

# --- a bid-ask bounce ----------------------------------------------------------------------
d=out/e2e-ready-bounce
audit e2e-ready-bounce STRATEGY=$F/reversal.py DATA="$TMP/bounce.csv"
check "bounce: every estimator finds a spread near the 1 % built in" "$PY" -c \
	'import json,sys; t=json.load(open(sys.argv[1]))["tradeable_prices"]; assert all(0.008 < t[k] < 0.0105 for k in ("roll_spread", "corwin_schultz_spread", "abdi_ranaldo_spread")), t' \
	"$d/stats.json"
expect_eq "bounce: the slippage is floored at half the spread" true "$(jget $d/replay.json costs.slippage_floored)"
check "bounce: at the configured slippage the paper edge is large" "$PY" -c \
	'import json,sys; b=json.load(open(sys.argv[1]))["bounce"]; assert b["net_return_configured_slippage"] > 10 and b["net_return"] < 0, b' \
	"$d/stats.json"
expect_eq "bounce: its edge lives inside one bar's bounce" true "$(jget $d/stats.json bounce.inside_bounce)"
expect_eq "bounce: NOT_READY" NOT_READY "$(jget $d/verdict.json verdict)"
expect_eq "bounce: the verdict says why" true "$(summary_has $d "Its edge lives inside one bar's bounce")"
check "bounce: the report states the spread the bars imply" grep -q "Tradeable prices" "$d/report.html"
d=out/e2e-ready-bounce-nofloor
audit e2e-ready-bounce-nofloor STRATEGY=$F/reversal.py DATA="$TMP/bounce.csv" SPREAD_FLOOR=0
expect_eq "bounce, SPREAD_FLOOR=0: the slippage is the configured one" "2 false" \
	"$(jget $d/replay.json costs.slippage_bps) $(jget $d/replay.json costs.slippage_floored)"
expect_eq "bounce, SPREAD_FLOOR=0: filled one bar later its edge changes sign" true "$(jget $d/stats.json bounce.sign_changes_late)"
expect_eq "bounce, SPREAD_FLOOR=0: still NOT_READY, whatever the gates" "NOT_READY" "$(jget $d/verdict.json verdict)"

# --- stale prices --------------------------------------------------------------------------
d=out/e2e-ready-stale
audit e2e-ready-stale STRATEGY=$F/momentum.py DATA="$TMP/stale.csv"
expect_eq "stale: the prices are stale" true "$(jget $d/stats.json tradeable_prices.stale)"
expect_eq "stale: every gate passes" READY_FOR_MICRO_LIVE_all "$(
	"$PY" -c 'import json,sys; v=json.load(open(sys.argv[1])); print("READY_FOR_MICRO_LIVE_all" if all(g["pass"] for g in v["gates"]) else v["gates"])' "$d/verdict.json")"
expect_eq "stale: WATCH, not READY" WATCH "$(jget $d/verdict.json verdict)"
expect_eq "stale: the verdict says the prices are stale" true "$(summary_has $d "Its prices are stale")"

# --- twin variants with many trials --------------------------------------------------------
d=out/e2e-ready-twins
audit e2e-ready-twins STRATEGY=$F/twins.py DATA="$TMP/twins.csv" TRIALS=1000
expect_eq "twins: the twins' spread is raised to the null" null_floor "$(jget $d/stats.json trials_variance_source)"
check "twins: the DSR is the one the count of 1000 trials alone gives" "$PY" - "$d/stats.json" <<'PYEOF'
import json, math, sys
from statistics import NormalDist
s = json.load(open(sys.argv[1]))
t, n, sr = s["effective_trades"], s["trials"], s["sharpe"]
g, z = 0.5772156649015329, NormalDist().inv_cdf
sr0 = math.sqrt(1 / (t - 1)) * ((1 - g) * z(1 - 1 / n) + g * z(1 - 1 / (n * math.e)))
v = 1 - s["skew"] * sr + (s["kurtosis"] - 1) / 4 * sr * sr
dsr = NormalDist().cdf((sr - sr0) * math.sqrt(t - 1) / math.sqrt(v))
assert n == 1000 and abs(s["dsr"] - dsr) < 1e-8 and abs(s["sr0"] - sr0) < 1e-8, (s["dsr"], dsr)
PYEOF
expect_eq "twins: not READY once the 1000 trials count" NOT_READY "$(jget $d/verdict.json verdict)"
expect_eq "twins: the dsr gate is what fails" false "$(gate $d dsr pass)"

# --- beta on a rising market ---------------------------------------------------------------
d=out/e2e-ready-beta
audit e2e-ready-beta STRATEGY=$F/weekly_long.py DATA="$TMP/rising.csv"
expect_eq "beta: long a rising market is WATCH at best" WATCH "$(jget $d/verdict.json verdict)"
expect_eq "beta: the alpha gate fails" false "$(gate $d alpha pass)"
expect_eq "beta: the verdict says its return is the market's" true "$(summary_has $d "its return is the market's")"
check "beta: the beta is near 1 and significant" "$PY" -c \
	'import json,sys; b=json.load(open(sys.argv[1]))["benchmark_relative"]; assert 0.6 < b["beta"] < 1 and b["beta_t"] > 10, b' \
	"$d/stats.json"
check "report: the market line is shown" grep -q "Against the market" "$d/report.html"

# --- a tail not yet met --------------------------------------------------------------------
d=out/e2e-ready-shortvol
audit e2e-ready-shortvol TRADES="$TMP/shortvol.csv"
expect_eq "shortvol: the tail is unseen" true "$(jget $d/stats.json tail.unseen)"
expect_eq "shortvol: not READY" WATCH "$(jget $d/verdict.json verdict)"
expect_eq "shortvol: the verdict says the tail is unseen" true "$(summary_has $d "Its tail is unseen")"
expect_eq "shortvol: and what sample would show it" true "$(summary_has $d "market stress")"
expect_eq "shortvol: the alpha of a log alone cannot be judged" true "$(summary_has $d "cannot be judged")"
check "shortvol: the Monte Carlo says its bands hold no loss beyond the worst trade" \
	grep -q "no band can show a loss larger than the worst trade observed" "$d/report.html"
d=out/e2e-ready-shortvol-tail
audit e2e-ready-shortvol-tail TRADES="$TMP/shortvol_tail.csv"
expect_eq "shortvol with its -35 % week: the tail is met" false "$(jget $d/stats.json tail.unseen)"
expect_eq "shortvol with its -35 % week: NOT_READY" NOT_READY "$(jget $d/verdict.json verdict)"

# --- pyramided entries ---------------------------------------------------------------------
d=out/e2e-ready-pyramided
audit e2e-ready-pyramided TRADES="$TMP/pyramided.csv"
expect_eq "pyramided: overlap found" "150 3" "$(jget $d/stats.json overlap.trades_overlapping) $(jget $d/stats.json overlap.max_concurrent)"
expect_eq "pyramided: the trades gate counts 50 independent trades" 50 "$(gate $d trades value)"
check "pyramided: compounded as shares of one account, the return of the 50 trades" "$PY" - "$d/stats.json" $F/honest_log.csv <<'PYEOF'
import csv, json, math, sys
s = json.load(open(sys.argv[1]))
eq = math.prod(1 + float(r["return"]) for r in csv.DictReader(open(sys.argv[2])))
# the log's returns are written with 6 decimals
assert abs(s["net_return"] - (eq - 1)) < 1e-4, (s["net_return"], eq - 1)
PYEOF
expect_eq "pyramided: not READY" WATCH "$(jget $d/verdict.json verdict)"
check "pyramided: the Monte Carlo compounds the trades on the headline's account, as shares" "$PY" -c \
	'import json,sys; s=json.load(open(sys.argv[1])); m=s["monte_carlo"]; r=(1+m["net_return"]["p50"])/(1+s["net_return"]); assert m["basis"] == "account_shares" and 0.8 < r < 1.25, (r, m["net_return"], s["net_return"])' \
	"$d/stats.json"

# --- fourteen trades -----------------------------------------------------------------------
d=out/e2e-ready-fourteen
audit e2e-ready-fourteen TRADES="$TMP/fourteen.csv"
expect_eq "fourteen: no 'sound' under 30 trades" false "$(summary_has $d sound)"
expect_eq "fourteen: the sample is too small to judge" true "$(summary_has $d "too small to judge")"
check "fourteen: MinTRL below 10 is 'fewer than 10', asymptotic" "$PY" -c \
	'import json,sys; g=[g for g in json.load(open(sys.argv[1]))["gates"] if g["name"]=="track_record"][0]; assert "fewer than 10" in g["why"] and "asymptotic" in g["why"], g' \
	"$d/verdict.json"
finish
