#!/usr/bin/env bash
# 45-robust.sh - the robust stage on real strategies in the real sandbox: warm-up sensitivity of
# a converging and a non-converging recursion, the permutation test of the honest demo, of
# random signals and of a loser, reproducibility, refusals in the re-runs, and the bad-input paths.
. "$(dirname "$0")/../lib.sh"

RB=$BIN/robust
SBX=$BIN/sandbox
DATA=data/ohlcv.csv
SHORT=$TMP/short.csv
head -n 1501 "$DATA" >"$SHORT"
"$BIN/config" -o "$TMP/c100.json"
"$BIN/config" -o "$TMP/c1.json" PERMUTATIONS=1

# robust FILE NAME CONFIG [DATA]: the full run, then the robust stage, into $TMP/NAME.*.json
robust() {
	local data=${4:-$DATA}
	"$SBX" --strategy "$1" --data "$data" --config "$3" --jobs 2 -o "$TMP/$2.run.json" \
		--events "$TMP/$2.events.jsonl" >/dev/null 2>&1
	robust_check "$1" "$TMP/$2.run.json" "$data" "$3" "$TMP/$2.rb.json"
}

check "--help exits 0" "$RB" --help
check "robust_score --help exits 0" "$RB"_score --help
"$RB" --run x >/dev/null 2>&1
expect_eq "a bad command line exits 2" 2 "$?"
"$RB"_score --runs x >/dev/null 2>&1
expect_eq "robust_score: a bad command line exits 2" 2 "$?"

robust_check "" "$TMP/none.json" "$DATA" "$TMP/c1.json" "$TMP/nostrat.json"
expect_eq "no strategy: exits 0" 0 "$?"
expect_eq "no strategy: not ok" false "$(jget "$TMP/nostrat.json" ok)"
expect_eq "no strategy: names its stage" robust "$(jget "$TMP/nostrat.json" stage)"
robust_check demos/honest.py "$TMP/none.json" "$DATA" "$TMP/c1.json" "$TMP/norun.json"
expect_eq "missing run.json: not ok" false "$(jget "$TMP/norun.json" ok)"
printf '{"stage":"config","schema":1,"robust":{"warmup_offsets":"50,10"}}\n' >"$TMP/badoff.json"
robust demos/honest.py badoff "$TMP/badoff.json" "$SHORT"
case $(jget "$TMP/badoff.rb.json" reason) in
*"WARMUP_OFFSETS '50,10' should be"*) ok "offsets out of order: not run, says why" ;;
*) not_ok "offsets out of order: not run, says why" "$(jget "$TMP/badoff.rb.json" reason)" ;;
esac

# Warm-up: EMA adjust=False converges, a mean since bar 0 never does.
robust tests/robust/ema.py ema "$TMP/c1.json"
expect_eq "EMA adjust=False: warm-up not flagged" false "$(jget "$TMP/ema.rb.json" warmup.flagged)"
expect_eq "EMA adjust=False: three offsets compared" 3 \
	"$("$PY" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["warmup"]["disagreement"]))' "$TMP/ema.rb.json")"
robust tests/robust/running_total.py total "$TMP/c1.json"
expect_eq "running total since bar 0: warm-up flagged" true "$(jget "$TMP/total.rb.json" warmup.flagged)"
case $(jget "$TMP/total.rb.json" warmup.first_disagreement.time) in
20??-??-??T??:00:00Z) ok "running total: the first disagreement has its time" ;;
*) not_ok "running total: the first disagreement has its time" ;;
esac
bar=$(jget "$TMP/total.rb.json" warmup.first_disagreement.bar)
start=$(jget "$TMP/total.rb.json" warmup.tail_start)
[ "$bar" -ge "$start" ] && ok "the first disagreement lies in the compared tail" ||
	not_ok "the first disagreement lies in the compared tail" "$bar < $start"
expect_eq "the tail is the last 40 % of bars" 7017 "$(jget "$TMP/total.rb.json" warmup.compared_bars)"

# Permutation test: the honest demo's timing needs the bars in order; random signals' does not.
robust demos/honest.py honest "$TMP/c100.json"
expect_eq "honest demo: 100 permuted runs" 100 "$(jget "$TMP/honest.rb.json" permutation.runs)"
expect_eq "honest demo: no failed run" 0 "$(jget "$TMP/honest.rb.json" permutation.failed_runs)"
"$PY" - "$TMP/honest.rb.json" <<'PYEOF' && ok "honest demo: p <= 0.05, p from the null" || not_ok "honest demo: p <= 0.05, p from the null"
import json, sys
p = json.load(open(sys.argv[1]))["permutation"]
null, real = p["null_sharpes"], p["real_sharpe"]
expect = (1 + sum(s >= real for s in null)) / (1 + len(null))
assert p["p_value"] <= 0.05, p["p_value"]
assert abs(p["p_value"] - expect) < 1e-6, (p["p_value"], expect)
assert p["null_p95"] < real
PYEOF
robust tests/robust/random_signals.py random "$TMP/c100.json"
"$PY" - "$TMP/random.rb.json" <<'PYEOF' && ok "random signals: p above 0.05" || not_ok "random signals: p above 0.05"
import json, sys
p = json.load(open(sys.argv[1]))["permutation"]
assert p["runs"] == 100 and p["p_value"] > 0.05, p
PYEOF
# Like with like: the ranking replays every run with no costs, so the shuffled runs (which flip
# more often) are not ranked below a real run for paying more. At 150 bp a side the honest demo
# loses money: its timing still beats the shuffles, and the words say it loses, not that it has
# an edge; the shuffles' figures are the very same as at the default costs.
"$BIN/config" -o "$TMP/cfee.json" FEE_BPS=150
robust_check demos/honest.py "$TMP/honest.run.json" "$DATA" "$TMP/cfee.json" "$TMP/fee.rb.json"
"$PY" - "$TMP/fee.rb.json" "$TMP/honest.rb.json" <<'PYEOF' >"$TMP/fee.out" 2>&1
import json, sys
p, q = (json.load(open(f))["permutation"] for f in sys.argv[1:])
x = p["explanation"]
assert p["real_net_return"] < 0, p["real_net_return"]
assert q["real_net_return"] > 0, q["real_net_return"]
assert "skill" not in x.lower() and "skill" not in p["does_not_catch"].lower(), x
assert "after costs the strategy loses" in x and "no edge to credit" in x, x
assert "hand-picked dates" in p["does_not_catch"], p["does_not_catch"]
assert p["null_sharpes"] == q["null_sharpes"] and p["real_sharpe"] == q["real_sharpe"], "costs moved the ranking"
print(x)
PYEOF
check "a loser (honest at 150 bp a side) is not praised; costs do not move the ranking" test $? -eq 0
sed 's/^/# /' "$TMP/fee.out"
robust_check demos/honest.py "$TMP/honest.run.json" "$DATA" "$TMP/c100.json" "$TMP/honest2.rb.json"
check "the same inputs give a byte-identical robustness.json" cmp -s "$TMP/honest.rb.json" "$TMP/honest2.rb.json"
# The scoring reads only what the runs kept: a signals file changed by one byte, another run's
# signals, or runs made on other bars are refused with the reason, never scored.
cp "$TMP/honest2.rb.json.sig.bin" "$TMP/tampered.sig.bin"
printf '\001' | dd of="$TMP/tampered.sig.bin" bs=1 seek=9 conv=notrunc 2>/dev/null
"$RB"_score --runs "$TMP/honest2.rb.json.runs.json" --signals "$TMP/tampered.sig.bin" --run "$TMP/honest.run.json" \
	--data "$DATA" --config "$TMP/c100.json" -o "$TMP/tampered.rb.json"
expect_eq "a tampered signals file: exits 0" 0 "$?"
case $(jget "$TMP/tampered.rb.json" ok)/$(jget "$TMP/tampered.rb.json" reason) in
"false/"*"is not the signals file its index names"*) ok "a tampered signals file is refused, with why" ;;
*) not_ok "a tampered signals file is refused, with why" "$(jget "$TMP/tampered.rb.json" reason)" ;;
esac
"$PY" - "$DATA" "$TMP/moved.csv" <<'PYEOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = [h.lower() for h in rows[0]]
for k in ("open", "high", "low", "close"):  # one bar's prices a tenth of a percent higher
    i = head.index(k)
    rows[100][i] = repr(float(rows[100][i]) * 1.001)
csv.writer(open(sys.argv[2], "w", newline=""), lineterminator="\n").writerows(rows)
PYEOF
"$RB"_score --runs "$TMP/honest2.rb.json.runs.json" --signals "$TMP/honest2.rb.json.sig.bin" \
	--run "$TMP/honest.run.json" --data "$TMP/moved.csv" --config "$TMP/c100.json" -o "$TMP/other.rb.json"
case $(jget "$TMP/other.rb.json" ok)/$(jget "$TMP/other.rb.json" reason) in
"false/"*"was made on other bars"*) ok "runs made on other bars are refused, with why" ;;
*) not_ok "runs made on other bars are refused, with why" "$(jget "$TMP/other.rb.json" reason)" ;;
esac
for seed in 1 2; do
	"$BIN/config" -o "$TMP/seed$seed.json" ROBUST_SEED=$seed PERMUTATIONS=20
	robust_check demos/honest.py "$TMP/honest.run.json" "$DATA" "$TMP/seed$seed.json" "$TMP/seed$seed.rb.json"
done
check "another seed gives other permutations" \
	"$PY" -c 'import json,sys; a,b=(json.load(open(f))["permutation"]["null_sharpes"] for f in sys.argv[1:]); assert a!=b' \
	"$TMP/seed1.rb.json" "$TMP/seed2.rb.json"

# Under ASan+UBSan the stage (driver, permutations, replay, JSON) writes the very same bytes.
if [ -x build/asan/bin/robust ]; then
	"$BIN/config" -o "$TMP/c5.json" PERMUTATIONS=5
	robust demos/honest.py short "$TMP/c5.json" "$SHORT"
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		robust_check demos/honest.py "$TMP/short.run.json" "$SHORT" "$TMP/c5.json" "$TMP/short.asan.json" \
		"$ROOT/build/asan/bin"
	expect_eq "asan: robust exits 0" 0 "$?"
	check "asan build writes the same robustness.json as the rel build" \
		cmp "$TMP/short.rb.json" "$TMP/short.asan.json"
else
	not_ok "the asan build exists (make test builds it)"
fi

# Refusals in the re-runs are refusals of the upload.
robust tests/robust/refuses_late_start.py late "$TMP/c1.json" "$SHORT"
expect_eq "late refusal: the full run was clean" 0 "$(jget "$TMP/late.run.json" blocked_actions)"
n=$(jget "$TMP/late.rb.json" blocked_actions)
[ "$n" -ge 3 ] && ok "late refusal: every re-run's refusal counted ($n)" || not_ok "late refusal: refusals counted" "$n"
expect_eq "late refusal: each event names its run" "warmup 10%" "$(jget "$TMP/late.rb.json" events.0.run)"
mkdir -p "$TMP/late"
cp "$TMP/late.run.json" "$TMP/late/run.json"
cp "$TMP/late.rb.json" "$TMP/late/robustness.json"
cp "$TMP/c1.json" "$TMP/late/config.json"
"$BIN/verdict" --dir "$TMP/late" -o "$TMP/late/verdict.json" >/dev/null 2>&1
expect_eq "late refusal: the verdict is REJECTED_UNSAFE" REJECTED_UNSAFE "$(jget "$TMP/late/verdict.json" verdict)"
case $(jget "$TMP/late/verdict.json" vetoes.0.reason) in
*"in the robustness re-runs"*) ok "late refusal: the veto says where" ;;
*) not_ok "late refusal: the veto says where" "$(jget "$TMP/late/verdict.json" vetoes.0.reason)" ;;
esac

# A finding, not a veto: the flagged warm-up leaves the verdict as the gates say.
mkdir -p "$TMP/total"
cp "$TMP/total.run.json" "$TMP/total/run.json"
cp "$TMP/c1.json" "$TMP/total/config.json"
"$BIN/verdict" --dir "$TMP/total" -o "$TMP/total/without.json" >/dev/null 2>&1
cp "$TMP/total.rb.json" "$TMP/total/robustness.json"
"$BIN/verdict" --dir "$TMP/total" -o "$TMP/total/with.json" >/dev/null 2>&1
expect_eq "a flagged warm-up does not change the verdict" "$(jget "$TMP/total/without.json" verdict)" \
	"$(jget "$TMP/total/with.json" verdict)"
case $(jget "$TMP/total/with.json" summary) in
*"Started later in history it gives other signals"*) ok "the summary says the warm-up finding" ;;
*) not_ok "the summary says the warm-up finding" "$(jget "$TMP/total/with.json" summary)" ;;
esac

finish
