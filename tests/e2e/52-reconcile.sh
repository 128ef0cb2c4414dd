#!/usr/bin/env bash
# 52-reconcile.sh - honest numbers on real files: the trade log set against the code one trade at
# a time (four lying logs, each caught for its own reason, and an honest copy rounded to six
# decimals that passes), trade-log hygiene, ruin, and INCOMPLETE when nothing could be judged.
. "$(dirname "$0")/../lib.sh"
unset LLM_API_KEY

N=e2e-reconcile
OUT=out/$N
audit() { make --no-print-directory audit NAME="$1" "${@:2}" >"$TMP/audit-$1.log" 2>&1; }
# both LOG DIR: replays the honest run with LOG uploaded beside it, into DIR.
both() {
	mkdir -p "$2"
	"$BIN/replay" --run "$OUT/run.json" --trades "$1" --data data/ohlcv.csv --config "$OUT/config.json" \
		-o "$2/replay.json" --trades-out "$2/trades.csv" --equity-out "$2/equity.csv"
}
# has FILE KEY WORD: the JSON array at KEY holds WORD.
has() { case " $(jget "$1" "$2" | tr -d '[],"') " in *" $3 "*) return 0 ;; esac; return 1; }

rm -rf "$OUT"
check "the honest demo audits" audit $N STRATEGY=demos/honest.py TRIALS=3
[ -f "$OUT/trades.csv" ] || { not_ok "the honest audit left trades.csv"; finish; }

# The logs, built from the replay's own trades.csv: a copy, then four lies.
"$PY" - "$OUT/trades.csv" "$TMP" <<'PYEOF'
import csv, sys
from datetime import datetime, timedelta
rows = [(r["entry_time"], r["exit_time"], r["side"], float(r["net_return"]))
        for r in csv.DictReader(open(sys.argv[1]))]
def write(name, rs, fmt="%.6f"):
    with open(f"{sys.argv[2]}/{name}.csv", "w") as f:
        f.write("entry_time,exit_time,side,return\n")
        for a, b, c, d in rs:
            f.write(f"{a},{b},{c},{fmt % d if '%' in fmt else fmt}\n")
def later(t, days):
    return (datetime.strptime(t, "%Y-%m-%dT%H:%M:%SZ") + timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ")
write("copy6", rows)
swap = [list(r) for r in rows]
swap[3][3] += 0.5
swap[7][3] -= 0.5
write("swap", swap)
# trade 5 listed twice (the second time rounded to four decimals, so not a byte-for-byte
# duplicate), trade 6 left out
twice = rows[:6] + [rows[5][:3] + (round(rows[5][3], 4),)] + rows[7:]
write("twice", twice)
write("late", [(a, later(b, 3), c, d) for a, b, c, d in rows])
write("inflated", [(a, b, c, d + 0.00049) for a, b, c, d in rows])
# exact duplicate rows at file lines 3 and 8, and a trade in 2030, far outside the data
dup = rows[:6] + [rows[1]] + rows[6:]
write("dup", dup)
write("outside", rows + [("2030-01-01T00:00:00Z", "2030-01-02T00:00:00Z", "long", 0.01)])
write("hex", [(a, b, c, d) for a, b, c, d in rows[:3]], fmt="0x1p-3")
write("padded", [(a, b, c, d) for a, b, c, d in rows[:3]], fmt=" %.6f")
PYEOF

check "the six-decimal copy replays" both "$TMP/copy6.csv" "$TMP/r0"
expect_eq "the six-decimal copy is consistent" true "$(jget "$TMP/r0/replay.json" reconcile.consistent)"
expect_eq "the copy: every trade matched one to one" "$(jget "$OUT/replay.json" trades)" \
	"$(jget "$TMP/r0/replay.json" reconcile.matched)"
expect_eq "the copy: no reason given" "[]" "$(jget "$TMP/r0/replay.json" reconcile.reasons)"

check "the +50 %/-50 % log replays" both "$TMP/swap.csv" "$TMP/r1"
expect_eq "+50/-50: inconsistent" false "$(jget "$TMP/r1/replay.json" reconcile.consistent)"
has "$TMP/r1/replay.json" reconcile.reasons return_gap && ok "+50/-50: the reason is the per-trade gap" ||
	not_ok "+50/-50: the reason is the per-trade gap" "$(jget "$TMP/r1/replay.json" reconcile.reasons)"
expect_eq "+50/-50: two trades over the tolerance" 2 "$(jget "$TMP/r1/replay.json" reconcile.gaps_over_tolerance)"
expect_eq "+50/-50: the worst gap is half the notional" 0.5 \
	"$("$PY" -c 'import json,sys; print(round(abs(json.load(open(sys.argv[1]))["reconcile"]["worst"][0]["gap"]), 6))' "$TMP/r1/replay.json")"
case $(jget "$TMP/r1/replay.json" reconcile.statement) in
*"the log claims "*" % on the "*"; the code's honest replay makes "*) ok "+50/-50: the statement names the trade" ;;
*) not_ok "+50/-50: the statement names the trade" "$(jget "$TMP/r1/replay.json" reconcile.statement)" ;;
esac

check "the listed-twice log replays" both "$TMP/twice.csv" "$TMP/r2"
expect_eq "listed twice: inconsistent" false "$(jget "$TMP/r2/replay.json" reconcile.consistent)"
expect_eq "listed twice: one claimed trade the code never made" 1 "$(jget "$TMP/r2/replay.json" reconcile.claimed_only)"
expect_eq "listed twice: one replayed trade left out" 1 "$(jget "$TMP/r2/replay.json" reconcile.replay_only)"
has "$TMP/r2/replay.json" reconcile.reasons claimed_only && has "$TMP/r2/replay.json" reconcile.reasons replay_only &&
	ok "listed twice: both reasons named" || not_ok "listed twice: both reasons named" "$(jget "$TMP/r2/replay.json" reconcile.reasons)"

check "the late-exits log replays" both "$TMP/late.csv" "$TMP/r3"
expect_eq "late exits: inconsistent" false "$(jget "$TMP/r3/replay.json" reconcile.consistent)"
expect_eq "late exits: every exit differs" "$(jget "$OUT/replay.json" trades)" \
	"$(jget "$TMP/r3/replay.json" reconcile.exit_mismatches)"
expect_eq "late exits: the returns themselves agree" 0 "$(jget "$TMP/r3/replay.json" reconcile.gaps_over_tolerance)"
has "$TMP/r3/replay.json" reconcile.reasons exit_mismatch && ok "late exits: the reason is the exits" ||
	not_ok "late exits: the reason is the exits" "$(jget "$TMP/r3/replay.json" reconcile.reasons)"

check "the 4.9 bp log replays" both "$TMP/inflated.csv" "$TMP/r4"
expect_eq "4.9 bp: inconsistent" false "$(jget "$TMP/r4/replay.json" reconcile.consistent)"
has "$TMP/r4/replay.json" reconcile.reasons mean_gap && ok "4.9 bp: the mean gap is named" ||
	not_ok "4.9 bp: the mean gap is named" "$(jget "$TMP/r4/replay.json" reconcile.reasons)"
case $(jget "$TMP/r4/replay.json" reconcile.statement) in
*"the log overstates each trade by 4.9 bp on average (t = "*) ok "4.9 bp: the statement quantifies it" ;;
*) not_ok "4.9 bp: the statement quantifies it" "$(jget "$TMP/r4/replay.json" reconcile.statement)" ;;
esac
t=$(jget "$TMP/r4/replay.json" reconcile.t_gap)
"$PY" -c 'import sys; sys.exit(not float(sys.argv[1]) > 10)' "$t" && ok "4.9 bp: t statistic far from zero ($t)" ||
	not_ok "4.9 bp: t statistic far from zero" "t = $t"

# Hygiene: an exact duplicate is refused naming both lines; a trade outside the data is a note;
# a hex float is refused.
both "$TMP/dup.csv" "$TMP/r5" >/dev/null 2>&1
expect_eq "an exact duplicate row is refused, naming both lines" \
	"tradelog.csv line 8: the same trade as line 3 (entry, exit, side and return all equal); a trade is listed once" \
	"$(jget "$TMP/r5/replay.json" tradelog_error)"
both "$TMP/outside.csv" "$TMP/r6" >/dev/null 2>&1
expect_eq "a trade outside the data's span is counted" 1 "$(jget "$TMP/r6/replay.json" tradelog_out_of_span)"
case $(jget "$TMP/r6/replay.json" tradelog_note) in
"1 trade of the log lie entirely outside the data's span (first: line "*) ok "and named in a note" ;;
*) not_ok "and named in a note" "$(jget "$TMP/r6/replay.json" tradelog_note)" ;;
esac
both "$TMP/hex.csv" "$TMP/r7" >/dev/null 2>&1
expect_eq "a hex float return is refused" \
	"tradelog.csv line 2: return '0x1p-3' is not a finite number (a fraction: 0.01 is 1 %)" \
	"$(jget "$TMP/r7/replay.json" tradelog_error)"

both "$TMP/padded.csv" "$TMP/r8" >/dev/null 2>&1
case $(jget "$TMP/r8/replay.json" tradelog_error) in
"tradelog.csv line 2: return ' "*"' is not a finite number"*) ok "a padded return is refused" ;;
*) not_ok "a padded return is refused" "$(jget "$TMP/r8/replay.json" tradelog_error)" ;;
esac

# The whole pipeline with a lying log: the report shows the section, the verdict says so.
M=$N-lie
rm -rf "out/$M"
check "make audit with a strategy and a lying log exits 0" audit $M STRATEGY=demos/honest.py TRADES="$TMP/swap.csv" TRIALS=3
check "report: the section The log against the code" grep -q "<h2>The log against the code</h2>" "out/$M/report.html"
check "report: the reconcile chart" test -s "out/$M/reconcile.png"
check "report.xlsx: the sheet Reconcile" sh -c "unzip -p 'out/$M/report.xlsx' xl/workbook.xml | grep -q 'name=\"Reconcile\"'"
check "report.xlsx: Reconcile and Worst gaps each one filtered table of replay.json's figures" \
	"$PY" tests/xlsx_tables.py "out/$M"
check "verdict: the summary says the log does not match" grep -q "The trade log does not match the code" "out/$M/verdict.json"
check "the demo alone has no such section" sh -c "! grep -q 'The log against the code' '$OUT/report.html'"

# Ruin: always short on a price that triples. Trading stops at zero; stats say when.
"$PY" - "$TMP/up.csv" <<'PYEOF'
import sys
from datetime import datetime, timedelta, timezone
t0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
with open(sys.argv[1], "w") as f:
    f.write("time,open,high,low,close,volume\n")
    for i in range(300):
        o, c = 100 + i, 101 + i
        f.write(f"{(t0 + timedelta(hours=i)).strftime('%Y-%m-%dT%H:%M:%SZ')},{o},{c},{o},{c},1\n")
PYEOF
printf 'def signals(df):\n    return [-1] * len(df)\n' >"$TMP/alwaysshort.py"
R=$N-ruin
rm -rf "out/$R"
check "make audit of a strategy that is ruined exits 0" audit $R STRATEGY="$TMP/alwaysshort.py" DATA="$TMP/up.csv"
expect_eq "ruin: stats.json says ruined" true "$(jget "out/$R/stats.json" ruined)"
case $(jget "out/$R/stats.json" ruin_time) in
2024-01-0[1-9]T??:00:00Z) ok "ruin: stats.json says when" ;;
*) not_ok "ruin: stats.json says when" "$(jget "out/$R/stats.json" ruin_time)" ;;
esac
expect_eq "ruin: the drawdown is 100 %" 1 "$(jget "out/$R/stats.json" max_drawdown)"
expect_eq "ruin: net return -100 %" -1 "$(jget "out/$R/stats.json" net_return)"
expect_eq "ruin: one trade, then nothing" 1 "$(jget "out/$R/stats.json" trades)"
case $(jget "out/$R/verdict.json" summary) in
"The account was ruined: compounded net equity reached zero at "*) ok "ruin: the verdict's first sentence says so" ;;
*) not_ok "ruin: the verdict's first sentence says so" "$(jget "out/$R/verdict.json" summary)" ;;
esac
check "ruin: recomputed from trades.csv and equity.csv, late fills and cost multiples replayed" \
	"$PY" tests/recompute.py "out/$R" "$TMP/up.csv"
expect_eq "ruin: the late fills are ruined too, at -100 %" "true -1" \
	"$(jget "out/$R/stats.json" delay_sensitivity.1.ruined) $(jget "out/$R/stats.json" delay_sensitivity.1.net_return)"
# the per-bar figures stop at the ruin bar, which counts: none of the rows after it is a return
check "ruin: the rolling and per-bar figures recomputed from equity.csv, to the ruin bar" \
	"$PY" tests/e2e/tearsheet_check.py --per-bar "out/$R"

# INCOMPLETE: a strategy whose output is not signals and no trade log; a trade log rescues it.
printf 'def signals(df):\n    return "buy"\n' >"$TMP/words.py"
I=$N-incomplete
rm -rf "out/$I"
check "make audit of bad output exits 0" audit $I STRATEGY="$TMP/words.py"
expect_eq "bad output, no log: INCOMPLETE" INCOMPLETE "$(jget "out/$I/verdict.json" verdict)"
check "INCOMPLETE: the summary says what to fix" grep -q "Incomplete: nothing could be judged" "out/$I/verdict.json"
rm -rf "out/$I"
check "make audit of bad output with a trade log exits 0" audit $I STRATEGY="$TMP/words.py" TRADES="$TMP/copy6.csv"
v=$(jget "out/$I/verdict.json" verdict)
[ "$v" != INCOMPLETE ] && ok "bad output with a usable log is judged on the log ($v)" ||
	not_ok "bad output with a usable log is judged on the log"
rm -rf "out/$M" "out/$R" "out/$I"
finish
