#!/usr/bin/env bash
# 41-dodge.sh - a look-ahead check a cheat cannot dodge: uploads that know they are audited
# (tests/lookahead/dodge/) try to fail instead of differing, to tell a truncated run from the
# full one, to relay between runs at once, and to stall the audit; each must be caught, and
# every audit must end.
. "$(dirname "$0")/../lib.sh"

SBX=$BIN/sandbox
LA=$BIN/lookahead
D=tests/lookahead/dodge

# --- no fact a run can learn about itself tells a truncated run from the full one -----------
# observe.py writes a hash of one fact into its first 64 signals; a fact that differed between
# the full run and a truncated one would be a mismatch on a bar both saw. The live replay decides
# 399 of the 400 bars (one sampled), so it never settles every bar and all 40 truncated runs are
# run, not only their first pass.
head -n 401 data/ohlcv.csv >"$TMP/bars.csv"
cat >"$TMP/config.json" <<'EOF'
{"stage": "config", "schema": 1, "lookahead": {"max": 40, "seed": 1, "live_bars": 399, "stop_after": 32},
 "budget": {"audit_s": 600},
 "limits": {"wall_s": 20, "cpu_s": 20, "mem_mb": 1024, "scratch_mb": 16, "nofile": 64}}
EOF
for fact in pid proc frame_flags frame_base frame_types gc blocks rusage descriptors cwd mounts \
	uid environment limits threads modules; do
	sed "s/@FACT@/$fact/" "$D/observe.py" >"$TMP/observe_$fact.py"
	"$SBX" --strategy "$TMP/observe_$fact.py" --data "$TMP/bars.csv" --config "$TMP/config.json" \
		-o "$TMP/$fact.run.json" --events "$TMP/$fact.events.jsonl" >/dev/null 2>&1
	"$LA" --strategy "$TMP/observe_$fact.py" --run "$TMP/$fact.run.json" --data "$TMP/bars.csv" \
		--config "$TMP/config.json" --jobs 2 -o "$TMP/$fact.la.json" 2>/dev/null
	expect_eq "fact '$fact' is the same in the full run and every truncated run" \
		"ok 0 true true 40" "$("$PY" - "$TMP/$fact.run.json" "$TMP/$fact.la.json" <<'PYEOF'
import json, sys
r, d = (json.load(open(p)) for p in sys.argv[1:])
print(r["status"], r["blocked_actions"], str(d.get("clean")).lower(),
      str(d.get("complete")).lower(), d.get("points_checked"))
PYEOF
)"
done

# A window run is one more run of the same recipe: each fact's hash, keyed to each bar's hour so
# a window's bars carry it as the full run's do, must agree in every window of 100 bars with no
# run confirmed on the prefix (a fact that told a window apart would need the prefix to decide).
sed 's/"stop_after": 32}/"stop_after": 32, "window": 100}/' "$TMP/config.json" >"$TMP/window.json"
for fact in pid proc frame_flags frame_base frame_types gc blocks rusage descriptors cwd mounts \
	uid environment limits threads modules; do
	{ sed "s/@FACT@/$fact/" "$D/observe.py"; cat <<'PYEOF'


def signals(df):  # the hash spread over every bar, by the bar's own hour
    digest = hashlib.sha256(repr(fact(df)).encode()).digest()
    bits = np.unpackbits(np.frombuffer(digest[:8], dtype=np.uint8))
    return np.where(bits[(df.index.asi8 // 3_600_000_000_000) % 64] == 1, 1, -1)
PYEOF
	} >"$TMP/window_$fact.py"
	"$SBX" --strategy "$TMP/window_$fact.py" --data "$TMP/bars.csv" --config "$TMP/config.json" \
		-o "$TMP/w$fact.run.json" --events "$TMP/w$fact.events.jsonl" >/dev/null 2>&1
	"$LA" --strategy "$TMP/window_$fact.py" --run "$TMP/w$fact.run.json" --data "$TMP/bars.csv" \
		--config "$TMP/window.json" --jobs 2 -o "$TMP/w$fact.la.json" 2>/dev/null
	expect_eq "fact '$fact' is the same in every window run as in the full run" "ok true 40 100 0" \
		"$("$PY" - "$TMP/w$fact.run.json" "$TMP/w$fact.la.json" <<'PYEOF'
import json, sys
r, d = (json.load(open(p)) for p in sys.argv[1:])
print(r["status"], str(d.get("clean")).lower(), d.get("points_checked"), d["window"]["bars"],
      d["window"]["confirmations"])
PYEOF
)"
done

# --- whole audits: what each cheat earns --------------------------------------------------
# audit FILE NAME [KNOB=value...]: make audit into out/NAME; prints the verdict line's verdict
audit() {
	local file=$1 name=$2
	shift 2
	make --no-print-directory audit STRATEGY="$file" NAME="$name" "$@" >"$TMP/$name.log" 2>&1
	sed -n 's/^verdict: \([A-Z_]*\) .*/\1/p' "$TMP/$name.log"
}
la() { jget "out/$1/lookahead.json" "$2"; }

N=e2e-dodge-fails-short
expect_eq "a strategy that raises on every shorter history is rejected for look-ahead" \
	REJECTED_LOOKAHEAD "$(audit "$D/fails_short.py" $N)"
expect_eq "fails_short: lookahead.json counts the failed runs as findings" true \
	"$("$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(str(d["failed_count"] > 0 and d["mismatch_count"] == 0 and d["clean"] is False
          and len(d["failed"]) > 0 and "IndexError" in d["failed"][0]["error"]
          and d["failed"][0]["time"].startswith("20")).lower())' "out/$N/lookahead.json")"
case $(la $N explanation) in
*"On "*" shorter histories the strategy could not run at all: it needs bars that had not happened yet."*)
	ok "fails_short: the explanation says it plainly" ;;
*) not_ok "fails_short: the explanation says it plainly" "$(la $N explanation)" ;;
esac
case $(jget "out/$N/verdict.json" vetoes.0.reason) in
*"could not run at all: it needs bars that had not happened yet"*) ok "fails_short: the veto says why" ;;
*) not_ok "fails_short: the veto says why" "$(jget "out/$N/verdict.json" vetoes.0.reason)" ;;
esac

# Detectors: each raises when it believes it is a truncated run and peeks otherwise. Every run
# now looks alike, so each either peeks everywhere (a mismatch) or raises everywhere.
for d in detect_view detect_pid; do
	got=$(audit "$D/$d.py" "e2e-dodge-$d")
	case $got in
	REJECTED_LOOKAHEAD | INCOMPLETE) ok "$d: the detector gains nothing ($got)" ;;
	*) not_ok "$d: the detector gains nothing" "verdict: $got" ;;
	esac
done

N=e2e-dodge-relay
expect_eq "a lock relay between runs at once is refused and rejected as unsafe" \
	REJECTED_UNSAFE "$(audit "$D/lock_relay.py" $N)"
expect_eq "lock_relay: the refusal names the lock and the rule" "seccomp.fcntl runs share nothing" \
	"$("$PY" -c 'import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["action"] == "seccomp.fcntl":
        print(e["action"], e["rule"]); break' "out/$N/events.jsonl")"

# Relays through the page cache of a library every run may read. With eviction: refused.
N=e2e-dodge-cache-relay
expect_eq "a page-cache relay with eviction is refused and rejected as unsafe" \
	REJECTED_UNSAFE "$(audit "$D/cache_relay.py" $N)"
expect_eq "cache_relay: the refusal names the eviction and the rule" "seccomp.fadvise64 runs share nothing" \
	"$("$PY" -c 'import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["action"] == "seccomp.fadvise64":
        print(e["action"], e["rule"]); break' "out/$N/events.jsonl")"
# One-shot, no eviction: every page a run may read is resident, so the relay carries nothing
# and the runs that needed it differ from the full run.
N=e2e-dodge-oneshot
expect_eq "a one-shot page-cache relay carries nothing: rejected for look-ahead" \
	REJECTED_LOOKAHEAD "$(audit "$D/oneshot_relay.py" $N)"
expect_eq "oneshot_relay: nothing was refused (it reads only), and the check found mismatches" "0 true" \
	"$("$PY" -c 'import json, sys
r, d = (json.load(open(p)) for p in sys.argv[1:])
print(r["blocked_actions"], str(d["mismatch_count"] > 0).lower())' "out/$N/run.json" "out/$N/lookahead.json")"

# A stall: every run sleeps just under the wall clock. The audit must end within AUDIT_S and a
# small margin, say the check is unfinished, and not pass.
sed "s/@STALL_S@/1.5/" "$D/stall.py" >"$TMP/stall.py"
N=e2e-dodge-stall
t0=$(date +%s)
got=$(audit "$TMP/stall.py" $N AUDIT_S=20 WALL_S=2 PERMUTATIONS=20)
took=$(($(date +%s) - t0))
case $got in
NOT_READY) ok "a stall ends in a verdict that does not pass ($got)" ;;
*) not_ok "a stall ends in a verdict that does not pass" "verdict: $got" "$(tail -n 5 "$TMP/$N.log")" ;;
esac
if [ "$took" -le 35 ]; then ok "a stall ends within AUDIT_S and a margin (${took} s of 20)"
else not_ok "a stall ends within AUDIT_S and a margin" "took ${took} s of 20"; fi
expect_eq "stall: lookahead.json says the check is unfinished, cut by the budget" "false budget" \
	"$(la $N complete) $(la $N stopped)"
expect_eq "stall: verdict.json says the gates were held back" true \
	"$(jget "out/$N/verdict.json" held_back)"
case $(jget "out/$N/verdict.json" summary) in
*"held at NOT_READY because the look-ahead check is unfinished"*"larger AUDIT_S"*)
	ok "stall: the summary says what was checked and what would finish it" ;;
*) not_ok "stall: the summary says what was checked and what would finish it" \
	"$(jget "out/$N/verdict.json" summary)" ;;
esac

# --- stop on proof: a shift(-1) leak stops once a pass of the check ends past
# LOOKAHEAD_STOP_AFTER mismatches; where it stops is the same whatever ran first, or how many at once
N=e2e-dodge-stop
expect_eq "the look-ahead demo is rejected" REJECTED_LOOKAHEAD \
	"$(audit demos/lookahead.py $N TRIALS=50 LOOKAHEAD_STOP_AFTER=8)"
expect_eq "the check stops after the pass that found 8 mismatches, across the history" "true mismatches true" \
	"$("$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
bars = sorted(m["point"] for m in d["mismatches"])
print(str(d["mismatch_count"] >= 8 and d["points_not_run"] > 0).lower(), d["stopped"],
      str(bars[-1] - bars[0] > 17544 // 2).lower())' "out/$N/lookahead.json")"
case $(la $N explanation) in
*"Stopped after "*" mismatches: the leak is established."*) ok "the report says the leak is established" ;;
*) not_ok "the report says the leak is established" "$(la $N explanation)" ;;
esac
# SANDBOX_JOBS only schedules, so make would keep the first lookahead.json: it is moved away, so
# the check must run again (one run at a time) to bring it back
mv "out/$N/lookahead.json" "$TMP/stop.json"
audit demos/lookahead.py $N TRIALS=50 LOOKAHEAD_STOP_AFTER=8 SANDBOX_JOBS=1 >/dev/null
check "one run at a time re-ran the check" test -s "out/$N/lookahead.json"
check "one run at a time stops at the same place: a byte-identical lookahead.json" \
	cmp "$TMP/stop.json" "out/$N/lookahead.json"

rm -rf out/e2e-dodge-*
finish
