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

# kept NAME: the median share of the real net profit the moved copies kept, recomputed from
# robustness.json's own figures
kept() {
	"$PY" -c 'import json, statistics, sys
h = json.load(open(sys.argv[1]))["hindsight"]
print("%.2f" % (statistics.median(h["calendar"]["net_profit"]) / h["real"]["net_profit"]))' \
		"out/$1/robustness.json"
}
# reason NAME PATTERN WHAT: the veto's sentence names the memory
reason() {
	case $(jget "out/$1/verdict.json" vetoes.0.reason) in
	*$2*"Nobody could have traded this without having seen the chart"*) ok "$3" ;;
	*) not_ok "$3" "$(jget "out/$1/verdict.json" vetoes.0.reason)" ;;
	esac
}

N=e2e-hindsight-dates
expect_eq "a list of the data's best dates is rejected for look-ahead" REJECTED_LOOKAHEAD \
	"$(audit "$TMP/dates.py" $N)"
expect_eq "dates: every truncated re-run agreed (it reads no future bar)" true \
	"$(jget "out/$N/lookahead.json" clean)"
expect_eq "dates: material, moved against the calendar it keeps under half its profit" "true true true" \
	"$(hs $N real.material) $(hs $N calendar.flagged) $("$PY" -c "print(str($(kept $N) < 0.5).lower())")"
reason $N "a list of this data's own dates and times" "dates: the veto says it in plain words"
expect_eq "dates: its positions stayed put under the moves (it trades the same dates whatever the prices)" \
	"1 true" "$(hs $N calendar.positions.stayed_share) $(hs $N calendar.positions.stayed_put)"
check "dates: the report shows the hindsight numbers" grep -q "Keyed to this data: a veto." "out/$N/report.html"

N=e2e-hindsight-prices
expect_eq "a lookup of the data's exact closes is rejected for look-ahead" REJECTED_LOOKAHEAD \
	"$(audit "$TMP/prices.py" $N)"
expect_eq "prices: the ticks take its profit, and it trades on no shuffled copy" "true true" \
	"$(hs $N ticks.flagged) $(hs $N surrogate_trades.keyed_to_real_bars)"
reason $N "a lookup of this data's own prices" "prices: the veto names the lookup"

N=e2e-hindsight-bars
expect_eq "a schedule of bar numbers is rejected for look-ahead" REJECTED_LOOKAHEAD \
	"$(audit "$TMP/bar_numbers.py" $N)"
expect_eq "bar numbers: the ticks keep it; the calendar move and a later start do not" "false true true" \
	"$(hs $N ticks.flagged) $(hs $N calendar.flagged) $(hs $N later_start.flagged)"
reason $N "a list of this data's own bar numbers" "bar numbers: the veto names them"

# Failing is not escaping: the dates list that raises when a bar it saw has another close.
t=$(sed -n 5002p data/ohlcv.csv | cut -d, -f1) c=$(sed -n 5002p data/ohlcv.csv | cut -d, -f5)
sed "s/^def signals(df):\$/def signals(df):\n    seen = df.index == pd.Timestamp('$t')\n    if seen.any() and round(float(df['close'][seen].iloc[0]), 2) != $c:\n        raise ValueError('not my chart')/" \
	"$TMP/dates.py" | sed 's/^import numpy as np$/import numpy as np\nimport pandas as pd/' >"$TMP/dates_raise.py"
N=e2e-hindsight-raise
expect_eq "a cheat that raises on the moved copies is rejected all the same" REJECTED_LOOKAHEAD \
	"$(audit "$TMP/dates_raise.py" $N)"
expect_eq "raise: the moved runs failed and count as keeping nothing" "error 0" \
	"$(hs $N calendar.status.0) $(hs $N calendar.net_profit.0)"

# --- the memories the older checks preserved (tests/lookahead/dodge/memory_gen.py) ----------
"$PY" "$D/memory_gen.py" data/ohlcv.csv "$TMP" || exit 3

N=e2e-hindsight-table
expect_eq "a month-day hour weekday table (it survives a 28-year shift) is rejected" REJECTED_LOOKAHEAD \
	"$(audit "$TMP/calendar_table.py" $N)"
expect_eq "table: its entries come from no future bar; the calendar move takes its profit" "true true" \
	"$(jget "out/$N/lookahead.json" clean) $(hs $N calendar.flagged)"
reason $N "a list of this data's own dates and times" "table: the veto names the dates"

N=e2e-hindsight-grid
expect_eq "a price key that divides out one common factor is rejected" REJECTED_LOOKAHEAD \
	"$(audit "$TMP/grid_key.py" $N)"
expect_eq "grid: moved by whole ticks on their own, its quotes are gone" "true true" \
	"$(hs $N ticks.flagged) $("$PY" -c "import json; print(str(json.load(open('out/$N/robustness.json'))['hindsight']['ticks']['profit_kept'] < 0.5).lower())")"
reason $N "a lookup of this data's own prices" "grid: the veto names the lookup"

N=e2e-hindsight-busy
got=$(audit "$TMP/busy_causal.py" $N)
N=e2e-hindsight-diluted
expect_eq "remembered dates over a busy causal rule are rejected: profit is weighed, not entries" \
	"REJECTED_LOOKAHEAD true" "$(audit "$TMP/diluted.py" $N) $(hs $N calendar.flagged)"
expect_eq "diluted: most of its trades are the causal rule's (entered where it enters)" true \
	"$("$PY" -c "import csv
a = {r['entry_time'] for r in csv.DictReader(open('out/e2e-hindsight-busy/trades.csv'))}
b = [r['entry_time'] for r in csv.DictReader(open('out/$N/trades.csv'))]
print(str(sum(x in a for x in b) > len(b) / 2).lower())")"
reason $N "a list of this data's own dates and times" "diluted: the veto names the dates"
expect_eq "diluted: most positions moved (the busy rule's), the stayed ones earned the profit (z >= 3)" \
	"true true" "$("$PY" -c "import json
p = json.load(open('out/$N/robustness.json'))['hindsight']['calendar']['positions']
print(str(p['stayed_share'] < p['share_threshold']).lower(), str(p['stayed_z'] >= p['z_threshold'] and p['stayed_put']).lower())")"
check "diluted: the shares kept recompute from robustness.json" "$PY" tests/recompute.py "out/$N"
expect_eq "the busy causal rule alone is not flagged (its own verdict stands)" "NOT_READY false" \
	"$got $(hs e2e-hindsight-busy flagged)"

N=e2e-hindsight-events
got=$(audit "$TMP/event_calendar.py" $N)
expect_eq "a rule at release times from a calendar published in advance is not flagged" "false" \
	"$(hs $N flagged)"
expect_eq "events: its verdict is the gates' own" "$(jget "out/$N/verdict.json" gate_verdict)" "$got"
expect_eq "events: moved against the calendar it keeps its profit (it earns from the bars)" true \
	"$("$PY" -c "print(str($(kept $N) >= 0.5).lower())")"

N=e2e-hindsight-vol300
# its long warm-up caps nothing: it is not ready by its gates alone, its 39 trades too few and
# its DSR deflated for the family of rules the numbers written in its body hold (neighbourhood)
got=$(audit "$TMP/vol_warmup.py" $N)
expect_eq "the honest rule with a 300-day volatility filter: NOT_READY by its gates alone (trades, dsr)" \
	"NOT_READY NOT_READY trades dsr neighbourhood_family" \
	"$got $(jget "out/$N/verdict.json" gate_verdict) $("$PY" -c "import json
print(' '.join(g['name'] for g in json.load(open('out/$N/verdict.json'))['gates'] if not g['pass']))") \
$(jget "out/$N/stats.json" trials_source)"
expect_eq "vol300: a later start judged past its measured warm-up (over 300 days of bars)" "false true" \
	"$(hs $N later_start.flagged) $("$PY" -c "import json
print(str(json.load(open('out/$N/robustness.json'))['hindsight']['later_start']['measured_warmup_bars'] > 6900).lower())")"
expect_eq "vol300: a material profit that the moves keep" "true false" "$(hs $N real.material) $(hs $N flagged)"

for c in turn_of_month calendar_hours; do
	N=e2e-hindsight-$c
	got=$(audit tests/lookahead/causal/$c.py $N)
	expect_eq "$c: no hindsight flag through the whole audit, its verdict the gates' own" \
		"false $(jget "out/$N/verdict.json" gate_verdict)" "$(hs $N flagged) $got"
done

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
	robust_check "$f" "$TMP/$n.run.json" "$TMP/bars.csv" "$TMP/config.json" "$TMP/$n.rb.json"
	r=$("$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
h = d.get("hindsight")
print("missing" if h is None else "flagged" if h["flagged"] else "clean")' "$TMP/$n.rb.json")
	[ "$r" = clean ] || flagged="$flagged $n($r)"
done
expect_eq "the causal corpus (calendar rules, bands, breakouts, ...) has no hindsight flag" "" "$flagged"

rm -rf out/e2e-hindsight-*
finish
