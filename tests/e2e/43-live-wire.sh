#!/usr/bin/env bash
# 43-live-wire.sh - the live replay's wire from the host's side: a bot that answers twice,
# answers garbage, floods, dies, stops answering or reads ahead ends its live run with a named
# failure; one that raises at a bar has that bar taken flat and goes on (lookahead.json live.failures), the check is incomplete, and the host
# neither hangs nor crashes; a bot writing seeded random bytes at random decisions (the wire
# fuzzed) always ends with a status and a reason, never a decision for a bar it was not sent.
# Then the honest demo: every bar decided live, each with only the bars up to it, scored.
. "$(dirname "$0")/../lib.sh"

LA=$BIN/lookahead
SBX=$BIN/sandbox
DATA=$TMP/bars.csv
head -n 601 data/ohlcv.csv >"$DATA"
cat >"$TMP/config.json" <<'EOF'
{"stage": "config", "schema": 1, "lookahead": {"max": 4, "seed": 1},
 "limits": {"wall_s": 4, "cpu_s": 20, "mem_mb": 1024, "scratch_mb": 16, "nofile": 64}}
EOF

# audit FILE NAME: the full run, then the look-ahead stage with its live replay (given
# inspect.json, as make audit gives it: a class's callbacks are named there)
audit() {
	"$BIN/inspect" --strategy "$1" -o "$TMP/$2.inspect.json" 2>/dev/null
	"$SBX" --strategy "$1" --data "$DATA" --config "$TMP/config.json" --jobs 2 \
		-o "$TMP/$2.run.json" --events "$TMP/$2.events.jsonl" >/dev/null 2>&1
	timeout 300 "$LA" --strategy "$1" --run "$TMP/$2.run.json" --inspect "$TMP/$2.inspect.json" \
		--data "$DATA" --config "$TMP/config.json" --jobs 2 -o "$TMP/$2.la.json" 2>/dev/null
}

# live FILE FIELD: a field of lookahead.json's live object, a failure's as failures.0.status
live() {
	"$PY" - "$1" "$2" <<'EOF'
import json, sys
v = json.load(open(sys.argv[1]))["live"]
for k in sys.argv[2].split("."):
    v = v[int(k)] if isinstance(v, list) else v[k]
print(json.dumps(v) if not isinstance(v, str) else v)
EOF
}

for f in tests/lookahead/wire/*.py; do
	name=$(basename "$f" .py)
	[ "$name" = fuzz ] || [ "$name" = raises ] && continue
	want=$(sed -n 's/^# Expected: \([a-z_]*\) "\(.*\)"\..*/\1|\2/p' "$f" | head -n 1)
	audit "$f" "$name"
	rc=$?
	expect_eq "$name: the stage ends and writes its file" "0 true" "$rc $(jget "$TMP/$name.la.json" ok)"
	expect_eq "$name: the check is incomplete" "false false" \
		"$(jget "$TMP/$name.la.json" complete) $(live "$TMP/$name.la.json" complete)"
	# a bot's other reading of the same fault, where the order the driver reads in decides it
	also=$(sed -n 's/^# Also: "\(.*\)"\..*/\1/p' "$f" | head -n 1)
	got="$(live "$TMP/$name.la.json" failures.0.status)|$(live "$TMP/$name.la.json" failures.0.error)"
	case $got in
	"${want%%|*}|"*"${want#*|}"*) ok "$name: named failure ${want%%|*}" ;;
	"${want%%|*}|"*"${also:-${want#*|}}"*) ok "$name: named failure ${want%%|*}" ;;
	*) not_ok "$name: named failure ${want%%|*}" "$got" ;;
	esac
	# each of the eight live runs broke at its 50th decision: no decision past it is counted
	decided=$(live "$TMP/$name.la.json" decided)
	[ "$decided" -le 400 ] && ok "$name: no decision counted past the break ($decided)" ||
		not_ok "$name: no decision counted past the break" "$decided"
done

# A raise at a bar is no end: the bar is taken flat, the run goes on, the check completes.
audit tests/lookahead/wire/raises.py raises
expect_eq "raises: every bar decided, one raise a live run, complete and clean" "600 8 0 true true" \
	"$(live "$TMP/raises.la.json" decided) $(live "$TMP/raises.la.json" raised) $(live "$TMP/raises.la.json" failed_runs) $(jget "$TMP/raises.la.json" complete) $(jget "$TMP/raises.la.json" clean)"

# The wire fuzzed: seeded random bytes at random decisions, six seeds.
for seed in 1 2 3 4 5 6; do
	sed "s/^SEED = 1$/SEED = $seed/" tests/lookahead/wire/fuzz.py >"$TMP/fuzz$seed.py"
	audit "$TMP/fuzz$seed.py" "fuzz$seed"
	expect_eq "fuzz seed $seed: the stage ends and writes its file" "0 true" "$? $(jget "$TMP/fuzz$seed.la.json" ok)"
	"$PY" - "$TMP/fuzz$seed.la.json" <<'EOF'
import json, sys
lv = json.load(open(sys.argv[1]))["live"]
# ok: every decision made and valid; else a named failure, and fewer decisions than bars
if lv["complete"]:
    assert lv["failed_runs"] == 0 and lv["decided"] == lv["bars"], lv
else:
    assert lv["failed_runs"] > 0 and lv["failures"][0]["status"] and lv["failures"][0]["error"], lv
assert all(s in (-1, 0, 1) for s in lv["signals"]) and len(lv["signals"]) == lv["bars"]
EOF
	expect_eq "fuzz seed $seed: a status and a reason, valid signals" 0 "$?"
done

# The honest demo: every bar decided live, the same as its backtest, the live decisions scored.
audit demos/honest.py honest
expect_eq "honest: every bar decided live" "600 600 true" \
	"$(live "$TMP/honest.la.json" bars) $(live "$TMP/honest.la.json" decided) $(live "$TMP/honest.la.json" complete)"
expect_eq "honest: no difference, clean" "0 true" \
	"$(live "$TMP/honest.la.json" differing) $(jget "$TMP/honest.la.json" clean)"
"$PY" - "$TMP/honest.run.json" "$TMP/honest.la.json" <<'EOF'
import json, sys
full = json.load(open(sys.argv[1]))["signals"]
assert json.load(open(sys.argv[2]))["live"]["signals"] == full
EOF
expect_eq "honest: the scored signals are the backtest's" 0 "$?"

# A peek at the next bar, decided live: the first bars named with both decisions.
audit demos/lookahead.py peek
expect_eq "peek: a confirmed leak makes the check unclean" "false" "$(jget "$TMP/peek.la.json" clean)"
[ "$(live "$TMP/peek.la.json" confirmed_leaks)" -gt 0 ] && ok "peek: leaks confirmed" ||
	not_ok "peek: leaks confirmed" "$(live "$TMP/peek.la.json" confirmed_leaks)"
expect_eq "peek: the first difference names both decisions" "leak" \
	"$(live "$TMP/peek.la.json" first_differences.0.confirmed)"
finish
