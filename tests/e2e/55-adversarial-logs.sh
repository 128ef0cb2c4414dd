#!/usr/bin/env bash
# 55-adversarial-logs.sh - trade logs built to flatter the statistics, audited through
# `make audit`: every figure they touch recomputed from the bundle by tests/recompute.py.
#   one_winner.csv  one +30 % trade among 150 at -0.01 %: the profit rests on one trade
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
finish
