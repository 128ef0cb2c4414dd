#!/usr/bin/env bash
# 55-adversarial-logs.sh - trade logs built to flatter the statistics, audited through
# `make audit`: every figure they touch recomputed from the bundle by tests/recompute.py.
#   one_winner.csv  one +30 % trade among 150 at -0.01 %: the profit rests on one trade
#   two_trades.csv  two winning trades: too few for an interval
#   correlated.csv  160 trades in runs of eight alike: independent, they would look significant
. "$(dirname "$0")/../lib.sh"
unset LLM_API_KEY
F=tests/fixtures/stats

# audit LOG NAME: make audit on a trade log into out/NAME.
audit() {
	rm -rf "out/$2"
	if make --no-print-directory audit TRADES="$1" NAME="$2" >"$TMP/$2.log" 2>&1; then
		ok "$2: make audit exits 0"
	else
		not_ok "$2: make audit exits 0" "$(tail -n 5 "$TMP/$2.log")"
	fi
	check "$2: figures recomputed from trades.csv and equity.csv" "$PY" tests/recompute.py "out/$2"
	"$PY" tests/e2e/tearsheet_check.py --interval "out/$2" >"$TMP/$2.check" 2>&1
	rc=$?
	sed "s/^\(\(not \)\{0,1\}ok - \)/\1$2: /" "$TMP/$2.check"
	[ "$rc" -eq 0 ] || not_ok "$2: the independent interval check ran to the end" "$(tail -n 3 "$TMP/$2.check")"
}

# gate_pass dir name: true/false for one gate.
gate_pass() {
	"$PY" - "$1/verdict.json" "$2" <<'PYEOF'
import json, sys
for g in json.load(open(sys.argv[1]))["gates"]:
    if g["name"] == sys.argv[2]:
        print("true" if g["pass"] else "false")
PYEOF
}

# --- one lucky trade ----------------------------------------------------------------------
d=out/e2e-adv-one-winner
audit $F/one_winner.csv e2e-adv-one-winner
expect_eq "one winner: the whole log's PSR clears 0.95 (what the log claims)" true \
	"$("$PY" -c 'import json,sys; print(str(json.load(open(sys.argv[1]))["psr"] >= 0.95).lower())' "$d/stats.json")"
expect_eq "one winner: 8 best trades taken out (ceil 5 % of 151)" 8 "$(jget "$d/stats.json" concentration.removed)"
expect_eq "one winner: no edge without them" false "$(jget "$d/stats.json" concentration.edge_without)"
expect_eq "one winner: net_edge fails" false "$(gate_pass "$d" net_edge)"
expect_eq "one winner: NOT_READY, neither READY nor WATCH" "NOT_READY NOT_READY" \
	"$(jget "$d/verdict.json" verdict) $(jget "$d/verdict.json" gate_verdict)"
expect_eq "one winner: the reason names the best trades" 1 \
	"$(grep -c 'without the best 8 trades (5 %, at least one), which carry 105 % of the summed net returns, the rest average -0.010 %: the edge rests on them' "$TMP/e2e-adv-one-winner.log")"
expect_eq "one winner: the report shows the best trade's share" 1 \
	"$(grep -c 'Share of net profit, best trade</td><td class="num">105.3 %' "$d/report.html")"
# the resamples that miss the winner lose with no spread: the worst Sharpe ratio, kept
expect_eq "one winner: the interval is unbounded below" "true null" \
	"$(jget "$d/stats.json" sharpe_ci95.lo_unbounded) $(jget "$d/stats.json" sharpe_ci95.lo)"
n=$(jget "$d/stats.json" sharpe_ci95.no_spread.negative)
if [ "${n:-0}" -gt 500 ] 2>/dev/null; then ok "one winner: $n of 2000 resamples lost with no spread, and count"
else not_ok "one winner: resamples without the winner count" "got '$n'"; fi
expect_eq "one winner: the report says so" 1 \
	"$(grep -c "<td class=\"num\">-inf to 0.1395 (95 %, stationary block bootstrap, mean block 5 trades, 2000 resamples, every one counted; with no spread, $n lost (Sharpe -inf) and 0 gained (+inf))" "$d/report.html")"

# --- two trades ---------------------------------------------------------------------------
d=out/e2e-adv-two-trades
audit $F/two_trades.csv e2e-adv-two-trades
expect_eq "two trades: no interval, not one of width 0" "null null" \
	"$(jget "$d/stats.json" sharpe_ci95.lo) $(jget "$d/stats.json" sharpe_ci95.hi)"
expect_eq "two trades: the reason" "too few trades for an interval: 2, at least 10 needed" \
	"$(jget "$d/stats.json" sharpe_ci95.reason)"
expect_eq "two trades: the report says it" 1 \
	"$(grep -c 'no interval: too few trades for an interval: 2, at least 10 needed' "$d/report.html")"

# --- correlated trades --------------------------------------------------------------------
d=out/e2e-adv-correlated
audit $F/correlated.csv e2e-adv-correlated
expect_eq "correlated: counted as independent the PSR and DSR would pass" "true true" \
	"$("$PY" -c 'import json,sys; s=json.load(open(sys.argv[1])); print(str(s["psr_iid"] >= 0.95).lower(), str(s["dsr_iid"] >= 0.95).lower())' "$d/stats.json")"
expect_eq "correlated: the trades' lag-1 autocorrelation" 0.5623860948 "$(jget "$d/stats.json" autocorrelation.trades_lag1)"
expect_eq "correlated: psr and dsr fail on the effective trades" "false false" \
	"$(gate_pass "$d" psr) $(gate_pass "$d" dsr)"
expect_eq "correlated: NOT_READY" "NOT_READY NOT_READY" \
	"$(jget "$d/verdict.json" verdict) $(jget "$d/verdict.json" gate_verdict)"
expect_eq "correlated: the PSR's reason says how many trades count" 1 \
	"$(grep -c "PSR 0.912: the probability that the true Sharpe ratio is above zero, 0.95 needed (the trades' lag-1 autocorrelation +0.56 makes 160 trades count as 56 independent ones; 0.989 if each were independent)" "$TMP/e2e-adv-correlated.log")"
expect_eq "correlated: the report shows both" 1 \
	"$(grep -c 'PSR / DSR if every trade were independent</td><td class="num">0.989 / 0.989' "$d/report.html")"
expect_eq "correlated: the annualised Sharpe says it is not Lo-corrected" false \
	"$(jget "$d/stats.json" sharpe_annualised.lo_corrected)"
expect_eq "correlated: a trade log has no per-bar curve, so no Lo-corrected figure and no lags counted" "null null" \
	"$(jget "$d/stats.json" sharpe_annualised_lo.value) $(jget "$d/stats.json" sharpe_annualised_lo.lags)"
finish
