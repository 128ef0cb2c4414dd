#!/usr/bin/env bash
# 17-knob-readers.sh - knobs that know their readers: the knob table's "read by" column is what
# the code reads (every stage of a real audit traced, SA_KNOB_TRACE), the Makefile's stamps come
# from that column, and changing a knob re-runs exactly its readers and what is made from their
# files, nothing else.
. "$(dirname "$0")/../lib.sh"

N=e2e-knob-readers
OUT=out/$N
head -n 1501 data/ohlcv.csv >"$TMP/bars.csv"
{ head -n 1 data/ohlcv.csv; sed -n 1502,2501p data/ohlcv.csv; } >"$TMP/sealed.csv"
# A strategy with declared variants, a trade log beside it and sealed bars: every stage runs and
# reads what it can (the sealed budget kept in a history of this test's own).
audit() { make --no-print-directory audit STRATEGY=demos/overfit.py TRADES=tests/fixtures/replay/tradelog_honest.csv \
	DATA="$TMP/bars.csv" SEALED="$TMP/sealed.csv" LEDGER="$TMP/history.sqlite" NAME=$N TRIALS=3 PERMUTATIONS=10 \
	"$@" >"$TMP/audit.log" 2>&1; }
rm -rf "$OUT"
SA_KNOB_TRACE=$TMP/trace audit
expect_eq "the traced audit exits 0" 0 $?
check "the traced audit ran every stage, sealed included" grep -q '^sealed ' "$TMP/trace"
# the narrator runs after the bundle, only with NARRATE_URL: traced on the same audit (no key, so
# it reads its knobs and stays off the network)
(unset LLM_API_KEY; SA_KNOB_TRACE=$TMP/trace "$BIN/narrate" --dir "$OUT" -o "$TMP/narration.json")
check "the traced narrator ran" grep -q '^narrate ' "$TMP/trace"

got=$("$PY" - "$TMP/trace" build/knobs.mk <<'PYEOF'
import re, sys
read = {}
for line in open(sys.argv[1]):
    prog, knob = line.split()
    if prog != "config":            # the writer, not a reader
        read.setdefault(knob, set()).add(prog)
table = {}
for line in open(sys.argv[2]):
    m = re.match(r"KNOBS_READ_(\w+) :=(.*)", line)
    if m:
        for knob in m.group(2).split():
            table.setdefault(knob, set()).add(m.group(1))
bad = []
for knob in sorted(set(read) | set(table)):
    if read.get(knob, set()) != table.get(knob, set()):
        bad.append("%s: the code reads it in %s, the table says %s" % (
            knob, sorted(read.get(knob, set())), sorted(table.get(knob, set()))))
print("\n".join(bad) if bad else "same (%d knobs)" % len(table))
PYEOF
)
case $got in
same*) ok "the table's readers are the stages that read each knob ($got)" ;;
*) not_ok "the table's readers are the stages that read each knob" "$got" ;;
esac

# rerun KNOB=value: the stage files make rewrote (a recipe that runs the upload says SANDBOX), in a
# fixed order (fingerprint.json records
# config.json's hash, so it follows every knob)
rerun() {
	audit "$@"
	sed -n -E 's%^  (SANDBOX|STAGE|REPORT|BUNDLE) +out/[^/]*/(.*)%\2%p' "$TMP/audit.log" | LC_ALL=C sort | tr '\n' ' '
}
expect_eq "nothing changed: nothing re-runs" "" "$(rerun)"
expect_eq "GATE_PSR re-runs the verdict and the report alone" \
	"$N.zip fingerprint.json report.html verdict.json " "$(rerun GATE_PSR=0.9)"
expect_eq "TRIALS re-runs stats, the verdict and the report" \
	"$N.zip fingerprint.json report.html stats.json verdict.json " "$(rerun GATE_PSR=0.9 TRIALS=5)"
expect_eq "WARMUP_FLAG re-runs the robustness check, not the sandbox" \
	"$N.zip fingerprint.json report.html robustness.json verdict.json " "$(rerun GATE_PSR=0.9 TRIALS=5 WARMUP_FLAG=0.02)"
expect_eq "RECONCILE_BPS re-runs the replay and what is made from it (sealed.json: the open edge)" \
	"$N.zip fingerprint.json replay.json report.html sealed.json stats.json verdict.json " \
	"$(rerun GATE_PSR=0.9 TRIALS=5 WARMUP_FLAG=0.02 RECONCILE_BPS=2)"

rm -rf "$OUT"
finish
