#!/usr/bin/env bash
# 31-hostile.sh - every upload in tests/hostile/ runs in the sandbox; each file's header says the
# status and events it must earn ("# expect-status:", "# expect-action:", "# expect-event: ACTION |
# RULE" for the exact action and rule, "# expect-detail: TEXT" for a kept record whose detail
# holds TEXT, "# expect-signal-sum:", "# expect-stdout-max:", "# expect-stdout: LINE" for a
# line the run printed (what it saw); "# repeat: N" runs it N times
# from one zygote and judges the last), and after each run the host must be untouched: the
# canary unchanged, nothing planted outside scratch, a world-writable file's timestamps
# unchanged, no lock and no process left behind.
# A strategy that aims at the project names it "@PROJECT@"; each upload runs as a copy in $TMP
# with that filled in with this checkout's absolute path, wherever it was cloned.
source "$(dirname "$0")/../lib.sh"
# The host checks use fixed paths (the malicious demo aims at the canary by name), so two
# checkouts testing on one machine take turns here rather than rewrite each other's canary.
exec 9>>/run/lock/strataudit-e2e-host.lock && flock 9

head -n 301 data/ohlcv.csv >"$TMP/bars.csv" 2>/dev/null || { not_ok "data/ohlcv.csv present (make data/ohlcv.csv)"; finish; }
cat >"$TMP/config.json" <<'JSON'
{"stage": "config", "schema": 1, "ok": true,
 "limits": {"wall_s": 5, "cpu_s": 2, "mem_mb": 512, "scratch_mb": 4, "nofile": 64}}
JSON
canary=/var/tmp/strataudit-canary.txt
planted() { ls -d /var/tmp/strataudit-hostile-* /var/tmp/strataudit-planted.txt /var/tmp/strataudit-shell.txt \
	"$ROOT"/strataudit-hostile-* /usr/lib/python3/dist-packages/zz-strataudit-hostile.pth \
	/dev/shm/strataudit-hostile-* /run/lock/strataudit-hostile-* 2>/dev/null; }
# A world-writable file with an old date: a run can name it but must not touch its timestamps.
mtime=/var/tmp/strataudit-mtime
stamps() { stat -c '%X %Y' "$mtime"; }
# A lock a run took must not outlive it.
unlocked() { flock -n -x /usr/lib/python3.11/os.py true && flock -n -x /etc/ld.so.cache true && echo yes; }
orphans() { ps -eo uid=,ppid= | awk '($1 == 100000 || $1 == 101000) && $2 == 1' | wc -l; }
makefile_sum=$(sha256sum Makefile | cut -d' ' -f1)
# The uploads as run: "@PROJECT@" (a Python string literal) becomes the checkout's path.
mkdir -p "$TMP/hostile"
"$PY" - "$ROOT" "$TMP/hostile" tests/hostile/*.py <<'PYEOF'
import os, sys
root, out = sys.argv[1], sys.argv[2]
for f in sys.argv[3:]:
    text = open(f).read()
    if "@PROJECT@" in text and '"@PROJECT@"' not in text:
        sys.exit(f + ': "@PROJECT@" is only filled in as a whole string literal')
    open(os.path.join(out, os.path.basename(f)), "w").write(text.replace('"@PROJECT@"', repr(root)))
PYEOF
expect_eq "the uploads are copied with the checkout's path filled in" \
	"$(ls tests/hostile/*.py | wc -l) 0" "$(ls "$TMP"/hostile/*.py | wc -l) $(grep -l '@PROJECT@' "$TMP"/hostile/*.py | wc -l)"
expect_eq "the project-writing upload aims at this checkout" 1 "$(grep -c "^PROJECT = '$ROOT'" "$TMP/hostile/17-project-write.py")"

for src in tests/hostile/*.py; do
	name=$(basename "$src" .py)
	f=$TMP/hostile/$name.py
	echo "canary $RANDOM$RANDOM" >"$canary"
	before=$(sha256sum "$canary")
	rm -f "$mtime"; touch -d '2001-01-01 00:00:00' "$mtime"; chmod 0666 "$mtime"
	stamps_before=$(stamps)
	repeat=$(sed -n 's/^# repeat: *//p' "$f")
	rm -f "$TMP/run.json" "$TMP/events.jsonl"
	STRATAUDIT_SECRET=hunter2 "$BIN/sandbox" --strategy "$f" --data "$TMP/bars.csv" --config "$TMP/config.json" \
		--repeat "${repeat:-1}" -o "$TMP/run.json" --events "$TMP/events.jsonl" 2>"$TMP/err"
	expect_eq "$name: sandbox exits 0" 0 $?
	want=$(sed -n 's/^# expect-status: *//p' "$f")
	[ -n "$want" ] || not_ok "$name: the upload says the status it must earn (# expect-status:)"
	expect_eq "$name: status" "$want" "$(jget "$TMP/run.json" status)"
	# Not a pipe into the loop: a not_ok in a subshell would not reach T_FAILED.
	while read -r action; do
		n=$("$PY" -c 'import json,sys; print(sum(json.loads(l)["action"] == sys.argv[2] for l in open(sys.argv[1])))' \
			"$TMP/events.jsonl" "$action" </dev/null)
		if [ "${n:-0}" -ge 1 ]; then ok "$name: event $action recorded"; else not_ok "$name: event $action recorded" "$(cat "$TMP/events.jsonl")"; fi
	done < <(sed -n 's/^# expect-action: *//p' "$f")
	while IFS='|' read -r action rule; do
		action=${action% }; rule=${rule# }
		n=$("$PY" -c 'import json,sys; print(sum((e["action"], e["rule"]) == (sys.argv[2], sys.argv[3]) for e in map(json.loads, open(sys.argv[1]))))' \
			"$TMP/events.jsonl" "$action" "$rule" </dev/null)
		if [ "${n:-0}" -ge 1 ]; then ok "$name: event $action ($rule) recorded"; else not_ok "$name: event $action ($rule) recorded" "$(cat "$TMP/events.jsonl")"; fi
	done < <(sed -n 's/^# expect-event: *//p' "$f")
	while read -r detail; do
		n=$("$PY" -c 'import json,sys; print(sum(sys.argv[2] in e["detail"] and e["detail"] != "forged" for e in map(json.loads, open(sys.argv[1]))))' \
			"$TMP/events.jsonl" "$detail" </dev/null)
		if [ "${n:-0}" -ge 1 ]; then ok "$name: a record with detail '$detail' kept"; else not_ok "$name: a record with detail '$detail' kept" "$(cat "$TMP/events.jsonl")"; fi
	done < <(sed -n 's/^# expect-detail: *//p' "$f")
	# Every record is counted under its rule; events.jsonl keeps up to 16 of each rule (the
	# latest always), so each rule counted has its records there and no more than it counted.
	expect_eq "$name: blocked_actions is the sum of the rules' counts, and each rule's records are kept" ok \
		"$("$PY" - "$TMP/run.json" "$TMP/events.jsonl" <<'PYEOF'
import json, sys, collections
run = json.load(open(sys.argv[1]))
kept = collections.Counter(json.loads(l)["rule"] for l in open(sys.argv[2]))
counts = {r["rule"]: r["count"] for r in run["refusals"]}
bad = []
if sum(counts.values()) != run["blocked_actions"]:
    bad.append("sum %d != blocked_actions %d" % (sum(counts.values()), run["blocked_actions"]))
for rule, n in counts.items():
    if not 1 <= kept[rule] <= min(n, 16):
        bad.append("%s: %d kept of %d" % (rule, kept[rule], n))
if set(kept) - set(counts):
    bad.append("kept but not counted: %s" % sorted(set(kept) - set(counts)))
print("; ".join(bad) or "ok")
PYEOF
)"
	sum=$(sed -n 's/^# expect-signal-sum: *//p' "$f")
	if [ -n "$sum" ]; then
		expect_eq "$name: signals carry nothing out" "$sum" \
			"$("$PY" -c 'import json,sys; print(sum(abs(x) for x in json.load(open(sys.argv[1]))["signals"]))' "$TMP/run.json")"
	fi
	while read -r line; do
		n=$("$PY" -c 'import json,sys; print(sys.argv[2] in json.load(open(sys.argv[1]))["stdout"].splitlines())' \
			"$TMP/run.json" "$line" </dev/null)
		if [ "$n" = True ]; then ok "$name: the run saw '$line'"; else not_ok "$name: the run saw '$line'" "$(jget "$TMP/run.json" stdout)"; fi
	done < <(sed -n 's/^# expect-stdout: *//p' "$f")
	cap=$(sed -n 's/^# expect-stdout-max: *//p' "$f")
	if [ -n "$cap" ]; then
		got=$("$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(max(len(d["stdout"]), len(d["stderr"])))' "$TMP/run.json")
		if [ "$got" -le "$cap" ] && [ "$got" -gt 0 ]; then ok "$name: logs capped ($got bytes)"; else not_ok "$name: logs capped" "got $got"; fi
	fi
	expect_eq "$name: canary unchanged" "$before" "$(sha256sum "$canary" 2>/dev/null)"
	expect_eq "$name: nothing planted outside scratch" "" "$(planted)"
	expect_eq "$name: host timestamps unchanged" "$stamps_before" "$(stamps)"
	expect_eq "$name: no lock left behind" yes "$(unlocked)"
	expect_eq "$name: no process left behind" 0 "$(orphans)"
done
expect_eq "the Makefile is unchanged" "$makefile_sum" "$(sha256sum Makefile | cut -d' ' -f1)"
rm -f "$canary" "$mtime"
finish
