#!/usr/bin/env bash
# 18-rescore.sh - a host-side knob re-scores an audit without running the upload again: after an
# audit, the same audit with FEE_BPS changed runs no recipe that runs the upload (the make log
# says SANDBOX for each that does), its figures move as the costs say, and its bundle is
# byte for byte a fresh audit's at that FEE_BPS.
. "$(dirname "$0")/../lib.sh"

N=e2e-rescore
OUT=out/$N
head -n 3001 data/ohlcv.csv >"$TMP/bars.csv"
# declared variants and the robustness runs both re-score; a ledger of this test's own (none yet)
audit() { make --no-print-directory audit STRATEGY=demos/overfit.py DATA="$TMP/bars.csv" NAME=$N TRIALS=3 \
	PERMUTATIONS=20 LEDGER="$TMP/history.sqlite" "$@" >"$TMP/audit.log" 2>&1; }
ran() { sed -n -E 's%^  (SANDBOX|STAGE|REPORT|BUNDLE) +out/[^/]*/(.*)%\1 \2%p' "$TMP/audit.log" | LC_ALL=C sort | tr '\n' ' '; }

rm -rf "$OUT"
audit
expect_eq "the audit exits 0" 0 $?
sandboxed=$(grep -c '^  SANDBOX ' "$TMP/audit.log")
expect_eq "the first audit runs the upload: the full run, the look-ahead, robust's, the variants' and the neighbourhood's runs" 5 "$sandboxed"
check "... and the runs say their batches in the log" grep -q '^robust: permutation: 100 % ' "$TMP/audit.log"
cp -r "$OUT" "$TMP/before"

audit FEE_BPS=25
expect_eq "the audit at FEE_BPS=25 exits 0" 0 $?
expect_eq "FEE_BPS re-scores on the host: no sandbox run, the judging stages again" \
	"BUNDLE $N.zip REPORT report.html STAGE fingerprint.json STAGE neighbourhood.json STAGE replay.json STAGE robustness.json STAGE stats.json STAGE variants.json STAGE verdict.json " \
	"$(ran)"
expect_no_match "no run of the upload says a batch in the log" "$TMP/audit.log" '^robust: ' '^variants: ' \
	'^lookahead: ' '^sandbox: '
for f in run.json lookahead.json robust_runs.json robust_signals.bin variant_runs.json variant_signals.bin \
	neighbourhood_runs.json neighbourhood_signals.bin; do
	cmp -s "$TMP/before/$f" "$OUT/$f" || not_ok "the runs' files are left as they were: $f changed"
done
ok "the runs' files are left as they were"

# The figures move as the costs say: more paid a side, less kept, everywhere it is scored.
check "higher fees: the replay, hindsight's real profit, every variant and the net edge all earn less" \
	"$PY" - "$TMP/before" "$OUT" <<'PYEOF'
import csv, json, sys
a, b = sys.argv[1:]
j = lambda d, f: json.load(open(f"{d}/{f}"))
assert j(a, "config.json")["costs"]["fee_bps"] != j(b, "config.json")["costs"]["fee_bps"]
ra, rb = j(a, "replay.json"), j(b, "replay.json")
assert rb["net_return"] < ra["net_return"], (ra["net_return"], rb["net_return"])
ha, hb = j(a, "robustness.json")["hindsight"], j(b, "robustness.json")["hindsight"]
assert hb["real"]["net_profit"] < ha["real"]["net_profit"], (ha["real"], hb["real"])
pa, pb = j(a, "robustness.json")["permutation"], j(b, "robustness.json")["permutation"]
assert pa["null_sharpes"] == pb["null_sharpes"], "the gross ranking must not move with costs"
assert pb["real_net_return"] < pa["real_net_return"]
va = {r["variant"]: r for r in csv.DictReader(open(f"{a}/variants.csv"))}
vb = {r["variant"]: r for r in csv.DictReader(open(f"{b}/variants.csv"))}
ran = [k for k in va if va[k]["status"] == "ok"]
assert ran and all(float(vb[k]["net_return"]) < float(va[k]["net_return"]) for k in ran)
ga = {g["name"]: g for g in j(a, "verdict.json")["gates"]}
gb = {g["name"]: g for g in j(b, "verdict.json")["gates"]}
assert gb["net_edge"]["value"] < ga["net_edge"]["value"], (ga["net_edge"], gb["net_edge"])
PYEOF

# The re-scored bundle is the very bundle a fresh audit at FEE_BPS=25 makes.
mv "$OUT" "$TMP/rescored"
audit FEE_BPS=25
expect_eq "the fresh audit at FEE_BPS=25 exits 0" 0 $?
check "the re-scored bundle is byte for byte the fresh audit's (sha256sums.txt)" \
	cmp "$TMP/rescored/sha256sums.txt" "$OUT/sha256sums.txt"
check "... and so is the zip" cmp "$TMP/rescored/$N.zip" "$OUT/$N.zip"
check "the bundle carries the runs' index and signals" \
	grep -q ' robust_signals.bin$' "$OUT/sha256sums.txt"

rm -rf "$OUT"
finish
