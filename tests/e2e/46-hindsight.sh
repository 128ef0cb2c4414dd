#!/usr/bin/env bash
# 46-hindsight.sh - hindsight is look-ahead too: "strategies" built from the bundled data's own
# best moves (their dates, their prices, their bar numbers) never read a future bar, so the
# truncated re-runs all agree with them; the hindsight checks of the robust stage must not pass
# them. The causal corpus, calendar rules included, must pass without a flag.
. "$(dirname "$0")/../lib.sh"

D=tests/lookahead/dodge
"$PY" "$D/hindsight_gen.py" data/ohlcv.csv "$TMP" || exit 3

# audit FILE NAME: make audit into out/NAME; prints the verdict
audit() {
	make --no-print-directory audit STRATEGY="$1" NAME="$2" PERMUTATIONS=20 >"$TMP/$2.log" 2>&1
	sed -n 's/^verdict: \([A-Z_]*\) .*/\1/p' "$TMP/$2.log"
}
hs() { jget "out/$1/robustness.json" "hindsight.$2"; }

N=e2e-hindsight-dates
expect_eq "a list of the data's best dates is rejected for look-ahead" REJECTED_LOOKAHEAD \
	"$(audit "$TMP/dates.py" $N)"
expect_eq "dates: every truncated re-run agreed (it reads no future bar)" true \
	"$(jget "out/$N/lookahead.json" clean)"
expect_eq "dates: moved 28 years it keeps none of its entries" "1461 0 true" \
	"$(hs $N time_shift.weeks) $(hs $N time_shift.trades_kept) $(hs $N flagged)"
case $(jget "out/$N/verdict.json" vetoes.0.reason) in
*"a list of this data's own dates"*"Nobody could have traded this without having seen the chart"*)
	ok "dates: the veto says it in plain words" ;;
*) not_ok "dates: the veto says it in plain words" "$(jget "out/$N/verdict.json" vetoes.0.reason)" ;;
esac
check "dates: the report shows the hindsight numbers" grep -q "Keyed to this data: a veto." "out/$N/report.html"

N=e2e-hindsight-prices
expect_eq "a lookup of the data's exact closes is rejected for look-ahead" REJECTED_LOOKAHEAD \
	"$(audit "$TMP/prices.py" $N)"
expect_eq "prices: the time shift keeps its trades, the price nudge does not" "1 true" \
	"$(hs $N time_shift.trades_kept) $("$PY" -c 'import json, sys
h = json.load(open(sys.argv[1]))["hindsight"]
print(str(h["jitter"]["trades_kept"] < 0.5 and h["flagged"]).lower())' "out/$N/robustness.json")"
case $(jget "out/$N/verdict.json" vetoes.0.reason) in
*"a lookup of this data's own prices"*) ok "prices: the veto names the lookup" ;;
*) not_ok "prices: the veto names the lookup" "$(jget "out/$N/verdict.json" vetoes.0.reason)" ;;
esac

N=e2e-hindsight-bars
got=$(audit "$TMP/bar_numbers.py" $N)
expect_eq "a schedule of bar numbers does not pass" NOT_READY "$got"
expect_eq "bar numbers: both nudges keep it, a later start does not" "1 1 true false" \
	"$(hs $N time_shift.trades_kept) $(hs $N jitter.trades_kept) $(hs $N later_start.flagged) $(hs $N flagged)"
expect_eq "bar numbers: the gates would pass it; the verdict is held back" "READY_FOR_MICRO_LIVE true" \
	"$(jget "out/$N/verdict.json" gate_verdict) $(jget "out/$N/verdict.json" held_back)"
case $(jget "out/$N/verdict.json" summary) in
*"held at NOT_READY: Started later in history it gives other signals"*) ok "bar numbers: the summary says why" ;;
*) not_ok "bar numbers: the summary says why" "$(jget "out/$N/verdict.json" summary)" ;;
esac

# Failing is not escaping: the dates list that raises when it sees a year it was not shown.
sed 's/^def signals(df):$/def signals(df):\n    if df.index[0].year > 2030:\n        raise ValueError("not my chart")/' \
	"$TMP/dates.py" >"$TMP/dates_raise.py"
N=e2e-hindsight-raise
expect_eq "a cheat that raises on the moved copy is rejected all the same" REJECTED_LOOKAHEAD \
	"$(audit "$TMP/dates_raise.py" $N)"
expect_eq "raise: the moved run failed and counts as keeping nothing" "error 0" \
	"$(hs $N time_shift.status) $(hs $N time_shift.trades_kept)"

# --- no false alarms: the causal corpus through the sandbox and the robust stage -------------
head -n 1501 data/ohlcv.csv >"$TMP/bars.csv"
cat >"$TMP/config.json" <<'EOF'
{"stage": "config", "schema": 1, "robust": {"permutations": 5, "seed": 1, "warmup_offsets": "10,25,50", "warmup_flag": 0.01},
 "budget": {"audit_s": 600}, "costs": {"fee_bps": 5, "slippage_bps": 2, "funding_bps_8h": 1},
 "limits": {"wall_s": 20, "cpu_s": 20, "mem_mb": 1024, "scratch_mb": 16, "nofile": 64}}
EOF
flagged=
for f in tests/lookahead/causal/*.py; do
	n=$(basename "$f" .py)
	case $n in
	# asserts the data's first date (a fixture of the index contract), so it is keyed to it
	index_contract) continue ;;
	# refused in its full run, so not run again
	snoops_for_hidden_bars) continue ;;
	# raises unless its first new array lands on a huge-page boundary: a check of the sandbox's
	# memory layout, not a rule of the market (40-lookahead runs it)
	fresh_memory_boundary) continue ;;
	esac
	"$BIN/sandbox" --strategy "$f" --data "$TMP/bars.csv" --config "$TMP/config.json" \
		-o "$TMP/$n.run.json" --events "$TMP/$n.events.jsonl" >/dev/null 2>&1
	"$BIN/robust" --strategy "$f" --run "$TMP/$n.run.json" --data "$TMP/bars.csv" \
		--config "$TMP/config.json" --jobs 2 -o "$TMP/$n.rb.json" 2>/dev/null
	r=$("$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
h = d.get("hindsight")
print("missing" if h is None else "flagged" if h["flagged"] else "clean")' "$TMP/$n.rb.json")
	[ "$r" = clean ] || flagged="$flagged $n($r)"
done
expect_eq "the causal corpus (calendar rules, bands, breakouts, ...) has no hindsight flag" "" "$flagged"

rm -rf out/e2e-hindsight-*
finish
