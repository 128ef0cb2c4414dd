#!/usr/bin/env bash
# 42-live.sh - the quiet vetoes (tests/lookahead/quiet/): a strategy that peeks 12 bars
# ahead and only skips the entries that would lose changes no position where it peeks, so a check
# that re-runs truncated histories where positions change, plus a few bars from a public seed,
# finds it only by luck of the draw. Only deciding every bar with the future hidden, as a live bot
# must, is sure to. Through `make audit` on the bundled data, each file whose header says
# `# expect: lookahead` (the veto as signals(df), rare, in a backtesting.py Strategy, in a
# freqtrade IStrategy) must be REJECTED_LOOKAHEAD under the default LOOKAHEAD_SEED and two others;
# each that says `# expect: clean` (a memory as long as the history, state kept between calls)
# must reach a verdict that is not.
. "$(dirname "$0")/../lib.sh"

Q=tests/lookahead/quiet
SEEDS="7 12345" # besides the default (1), which anyone can compute the points of

# audit FILE NAME [KNOB=value...]: make audit into out/NAME; prints the verdict line's verdict,
# or "exit N" when make failed. 20 permutations, not 100, keep the script quick: they judge the
# timing, never look-ahead.
audit() {
	local file=$1 name=$2 rc
	shift 2
	make --no-print-directory audit STRATEGY="$file" NAME="$name" TRIALS=1 PERMUTATIONS=20 "$@" >"$TMP/$name.log" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ]; then echo "exit $rc"; return; fi
	sed -n 's/^verdict: \([A-Z_]*\) .*/\1/p' "$TMP/$name.log"
}

# facts NAME: what lookahead.json and config.json say, for a failure's message
facts() {
	"$PY" - "out/$1" <<'PYEOF' 2>&1
import json, sys
d = sys.argv[1]
try:
    la = json.load(open(d + "/lookahead.json"))
    print("lookahead: clean %s, points_checked %s, mismatch_count %s, failed_count %s; seed %s" % (
        la.get("clean"), la.get("points_checked"), la.get("mismatch_count"), la.get("failed_count"),
        json.load(open(d + "/config.json")).get("lookahead", {}).get("seed")))
except (OSError, ValueError) as e:
    print("no lookahead.json to read: %s" % e)
PYEOF
}

peekers=0 causal=0
for f in "$Q"/*.py; do
	base=$(basename "$f" .py)
	want=$(sed -n 's/^# expect: *\([a-z]*\) *$/\1/p' "$f")
	case $want in
	lookahead) peekers=$((peekers + 1)) ;;
	clean) causal=$((causal + 1)) ;;
	*)
		not_ok "$base: its header says '# expect: lookahead' or '# expect: clean', once" "found: '$want'"
		continue
		;;
	esac
	N=e2e-live-$base
	rm -rf "out/$N"
	got=$(audit "$f" "$N")
	if [ "$want" = lookahead ]; then
		expect_eq "$base peeks 12 bars ahead to skip losing entries: rejected for look-ahead" \
			"REJECTED_LOOKAHEAD" "$got"
		[ "$got" = REJECTED_LOOKAHEAD ] || echo "#   $(facts "$N")"
		# another seed draws other sample points: the verdict must not rest on the draw (the
		# plain veto and the rare one; the frameworks' shims give the plain one's signals).
		# lookahead.json and verdict.json are moved away so make must write them again.
		case $base in quiet_veto_signals | quiet_veto_rare) seeds=$SEEDS ;; *) seeds= ;; esac
		for s in $seeds; do
			rm -f "out/$N/lookahead.json" "out/$N/verdict.json"
			got=$(audit "$f" "$N" LOOKAHEAD_SEED="$s")
			expect_eq "$base with LOOKAHEAD_SEED=$s: rejected for look-ahead" \
				"REJECTED_LOOKAHEAD" "$got"
			[ "$got" = REJECTED_LOOKAHEAD ] || echo "#   $(facts "$N")"
		done
	else
		case $got in
		READY_FOR_MICRO_LIVE | WATCH | NOT_READY)
			ok "$base is causal: judged by its gates, not rejected for look-ahead ($got)" ;;
		*)
			not_ok "$base is causal: judged by its gates, not rejected for look-ahead" "verdict: '$got'" \
				"$(facts "$N")" "$(tail -n 3 "$TMP/$N.log")"
			;;
		esac
	fi
done
check "the corpus holds peekers ($peekers) and causal rules ($causal)" \
	test "$peekers" -ge 4 -a "$causal" -ge 2

# A long-memory freqtrade rule that re-enters after each exit, on freqtrade's own 5m test candles:
# the first window is shorter than its memory, so some live decisions are settled on the whole
# prefix as memory. A settled bar holds the backtest's decision and is no difference: the published
# counts and the published per-bar values must agree, as recompute.py checks from the bundle alone.
N=e2e-live-reentry
C=tests/frameworks/unittest_btc_5m.csv
got=$(audit tests/frameworks/strategies/ft_reentry.py $N DATA=$C)
case $got in
READY_FOR_MICRO_LIVE | WATCH | NOT_READY) ok "re-entry: judged by its gates, not rejected for look-ahead ($got)" ;;
*) not_ok "re-entry: judged by its gates, not rejected for look-ahead" "verdict: '$got'" "$(facts $N)" ;;
esac
check "re-entry: some live decisions settled as memory, none of them counted as differing, the list holds only differences" \
	"$PY" - "out/$N" <<'PYEOF'
import json, sys
d = sys.argv[1]
l = json.load(open(d + "/lookahead.json"))["live"]
full = json.load(open(d + "/run.json"))["signals"]
differ = sum(a != b for a, b in zip(l["signals"], full))
assert l["memory_mismatches"] > 0, l["memory_mismatches"]
assert l["differing"] == differ, (l["differing"], differ, l["memory_mismatches"])
assert all(x["confirmed"] != "memory" for x in l["first_differences"]), l["first_differences"][:3]
PYEOF
check "re-entry: recompute.py with the candles agrees with the bundle (live.differing among its checks)" \
	"$PY" tests/recompute.py "out/$N" $C
"$PY" - "out/$N" <<'PYEOF'
import json, sys
p = sys.argv[1] + "/lookahead.json"
la = json.load(open(p))
la["live"]["differing"] += la["live"]["memory_mismatches"]
json.dump(la, open(p, "w"))
PYEOF
if "$PY" tests/recompute.py "out/$N" $C >"$TMP/reentry.out" 2>&1; then
	not_ok "recompute.py fails when live.differing counts the settled bars as differences"
else
	ok "recompute.py fails when live.differing counts the settled bars as differences"
fi

rm -rf out/e2e-live-*
finish
