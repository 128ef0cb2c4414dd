#!/usr/bin/env bash
# 44-variants.sh - declared VARIANTS on real files through the real sandbox: each parameter set
# run and replayed, a failing one left out, the parameters passed as data, a refusal in one
# variant vetoing the upload, a malformed declaration carrying on with TRIALS, the stats and
# the verdict they feed, and a nightly that counts them with no header line.
. "$(dirname "$0")/../lib.sh"

V=$BIN/variants
P=e2e45x
DATA=$TMP/bars.csv
head -n 3001 data/ohlcv.csv >"$DATA"
"$BIN/config" -o "$TMP/config.json" TRIALS=2 >/dev/null
# the night's history (its trial ledger) is this script's own, so a second run counts no retune
export NIGHT_DB=$TMP/history.sqlite
cleanup() { rm -rf out/${P}_* out/nightly/2099-02-0* "$TMP"; }
trap cleanup EXIT

# family FILE NAME: inspect, then the variants stage, into $TMP/NAME.*
family() {
	"$BIN/inspect" --strategy "$1" -o "$TMP/$2.inspect.json"
	variants_check "$1" "$TMP/$2.inspect.json" "$DATA" "$TMP/config.json" "$TMP/$2.json" "$TMP/$2.csv" \
		"$TMP/$2.bin"
}

check "--help exits 0" "$V" --help
check "variants_score --help exits 0" "$V"_score --help
"$V" --inspect x >/dev/null 2>&1
expect_eq "a bad command line exits 2" 2 "$?"
"$V"_score --runs x >/dev/null 2>&1
expect_eq "variants_score: a bad command line exits 2" 2 "$?"

# --- four declared variants: three run, one passes a keyword signals() does not take
cat >"$TMP/fam.py" <<'PYEOF'
import numpy as np
VARIANTS = [{"fast": 5, "slow": 40}, {"fast": 10, "slow": 80}, {"fast": 20, "slow": 160},
            {"fast": 5, "slow": 40, "colour": "blue"}]
def signals(df, *, fast=10, slow=80):
    f = df["close"].ewm(span=fast, adjust=False).mean()
    s = df["close"].ewm(span=slow, adjust=False).mean()
    return np.where(f > s, 1, -1)
PYEOF
family "$TMP/fam.py" fam
expect_eq "the family is declared and counted" "true 4 3 1" \
	"$(jget $TMP/fam.json declared) $(jget $TMP/fam.json count) $(jget $TMP/fam.json ran) $(jget $TMP/fam.json failed)"
expect_eq "variants.csv has the named header" "variant,params,status,trades,sharpe,net_return" \
	"$(head -n 1 $TMP/fam.csv)"
expect_eq "one row per variant, in declaration order" "1 2 3 4" "$(tail -n +2 $TMP/fam.csv | cut -d, -f1 | xargs)"
expect_eq "params as compact JSON" '{"fast":10,"slow":80}' \
	"$("$PY" -c 'import csv,sys; print(list(csv.DictReader(open(sys.argv[1])))[1]["params"])' $TMP/fam.csv)"
expect_eq "the one with an unknown keyword failed and says why" "error" "$(jget $TMP/fam.json variants.3.status)"
check "its reason names the keyword" grep -q "colour" $TMP/fam.json
expect_eq "a failed variant has no figures" ",," "$(tail -n 1 $TMP/fam.csv | grep -o ',,*$' | head -c 2)"
check "variant 2 is the audited defaults, replayed like the main run" "$PY" - "$TMP" "$DATA" "$BIN" <<'PYEOF'
import json, subprocess, sys
tmp, data, b = sys.argv[1:]
subprocess.run([b + "/sandbox", "--strategy", tmp + "/fam.py", "--data", data, "--config", tmp + "/config.json",
                "-o", tmp + "/fam.run.json", "--events", tmp + "/fam.events.jsonl"], check=True, capture_output=True)
subprocess.run([b + "/replay", "--run", tmp + "/fam.run.json", "--data", data, "--config", tmp + "/config.json",
                "-o", tmp + "/fam.replay.json", "--trades-out", tmp + "/t.csv", "--equity-out", tmp + "/e.csv"],
               check=True, capture_output=True)
rp = json.load(open(tmp + "/fam.replay.json")); v = json.load(open(tmp + "/fam.json"))["variants"][1]
assert v["trades"] == rp["trades"], (v, rp["trades"])
assert abs(v["net_return"] - rp["net_return"]) < 1e-9, (v, rp["net_return"])
PYEOF
check "the matrix holds the three that ran, each column the per-bar returns compounding to its net return" \
	"$PY" - "$TMP" <<'PYEOF'
import csv, json, math, sys, numpy as np
tmp = sys.argv[1]
raw = open(tmp + "/fam.bin", "rb").read()
assert raw[:8] == b"SAVRET2\n", raw[:8]
t, n = np.frombuffer(raw[8:24], "<u8")
m = np.frombuffer(raw[24:], "<f8").reshape(int(n), int(t))
v = [x for x in json.load(open(tmp + "/fam.json"))["variants"] if x["status"] == "ok"]
rows = [r for r in csv.DictReader(open(tmp + "/fam.csv")) if r["status"] == "ok"]
assert (n, t) == (3, 3000), (n, t)
for col, x, row in zip(m, v, rows):
    grown = math.prod(1 + col) - 1
    assert abs(grown - float(row["net_return"])) <= 1e-9 * max(1, abs(grown)), (grown, row["net_return"])
    assert abs(grown - x["net_return"]) <= 1e-9 * max(1, abs(grown)), (grown, x["net_return"])
    # returns, not changes: they no longer sum to it
    assert abs(col.sum() - x["net_return"]) > 1e-6, (col.sum(), x["net_return"])
PYEOF
# variant 2 is the audited defaults: its column is the main replay's equity.csv, as returns
check "variant 2's column: the per-bar returns of the main replay's compounded net equity" "$PY" - "$TMP" <<'PYEOF'
import csv, sys, numpy as np
tmp = sys.argv[1]
raw = open(tmp + "/fam.bin", "rb").read()
t, n = (int(x) for x in np.frombuffer(raw[8:24], "<u8"))
col = np.frombuffer(raw[24:], "<f8").reshape(n, t)[1]
eq = np.array([float(r["net_equity"]) for r in csv.DictReader(open(tmp + "/e.csv"))])
want = eq / np.concatenate([[1.0], eq[:-1]]) - 1
# equity.csv carries 10 significant digits, so each return to about 2e-10
assert len(eq) == t and np.max(np.abs(col - want)) < 1e-9, np.max(np.abs(col - want))
PYEOF
# a matrix of the old layout (equity changes) is refused with the reason, never read as returns
"$PY" -c 'import sys; b = open(sys.argv[1], "rb").read(); open(sys.argv[2], "wb").write(b"SAVRET1\n" + b[8:])' \
	"$TMP/fam.bin" "$TMP/old.bin"
cp "$TMP/fam.json" "$TMP/oldfam.json"
"$PY" -c 'import json, sys; v = json.load(open(sys.argv[1])); v["matrix"] = "old.bin"; json.dump(v, open(sys.argv[1], "w"))' "$TMP/oldfam.json"

# --- stats from the family: trials = max(TRIALS, ran), V from the variants, PBO by CSCV
cp $TMP/fam.run.json $TMP/run.json
"$BIN/replay" --run $TMP/fam.run.json --data "$DATA" --config $TMP/config.json -o $TMP/replay.json \
	--trades-out $TMP/trades.csv --equity-out $TMP/equity.csv
cp $TMP/fam.json $TMP/variants.json; cp $TMP/fam.bin $TMP/variant_returns.bin
"$BIN/stats" --replay $TMP/replay.json --variants $TMP/variants.json --config $TMP/config.json -o $TMP/stats.json
expect_eq "trials come from the variants that ran" "3 variants" \
	"$(jget $TMP/stats.json trials) $(jget $TMP/stats.json trials_source)"
expect_eq "V[SR] is the sample variance of their Sharpe ratios" "variants ok" \
	"$(jget $TMP/stats.json sr_variance_source) $("$PY" -c '
import json, statistics, sys
s = json.load(open(sys.argv[1])); v = json.load(open(sys.argv[2]))
sr = [x["sharpe"] for x in v["variants"] if x["status"] == "ok"]
print("ok" if abs(statistics.variance(sr) - s["sr_variance"]) < 1e-9 else (statistics.variance(sr), s["sr_variance"]))' $TMP/stats.json $TMP/variants.json)"
expect_eq "PBO over C(16, 8) splits" "16 12870" \
	"$(jget $TMP/stats.json pbo.blocks) $(jget $TMP/stats.json pbo.combinations)"
check "PBO matches the independent numpy implementation" "$PY" - "$TMP" <<'PYEOF'
import json, subprocess, sys
tmp = sys.argv[1]
ref = json.loads(subprocess.run(["/usr/bin/python3", "tests/pbo/pbo_ref.py", tmp + "/variant_returns.bin", "16"],
                                check=True, capture_output=True, text=True).stdout)
got = json.load(open(tmp + "/stats.json"))["pbo"]
assert abs(got["value_at_blocks"] - ref["value"]) < 1e-9, (got["value_at_blocks"], ref["value"])
for k in ("prob_oos_loss", "degradation_slope"):
    assert abs(got[k] - ref[k]) < 1e-9, (k, got[k], ref[k])
# PBO at every block count T allows, and the gate's value their median
assert sorted(got["by_blocks"], key=int) == sorted(ref["by_blocks"], key=int), (got["by_blocks"], ref["by_blocks"])
for s, v in ref["by_blocks"].items():
    assert abs(got["by_blocks"][s] - v) < 1e-9, (s, got["by_blocks"][s], v)
assert abs(got["value"] - ref["median"]) < 1e-9, (got["value"], ref["median"])
assert got["spread"] == {"min": min(ref["by_blocks"].values()), "max": max(ref["by_blocks"].values())}, got["spread"]
PYEOF
expect_eq "PBO at 8, 10, 12, 14 and 16 blocks" '["8", "10", "12", "14", "16"]' \
	"$("$PY" -c 'import json,sys; print(json.dumps(list(json.load(open(sys.argv[1]))["pbo"]["by_blocks"])))' $TMP/stats.json)"
"$BIN/config" -o "$TMP/config.json" TRIALS=2 PBO_BLOCKS=7 >/dev/null
"$BIN/stats" --replay $TMP/replay.json --variants $TMP/variants.json --config $TMP/config.json -o $TMP/stats7.json
expect_eq "an odd PBO_BLOCKS gives no PBO, with the reason" "null PBO_BLOCKS must be even, from 2 to 20" \
	"$(jget $TMP/stats7.json pbo) $(jget $TMP/stats7.json pbo_reason)"
"$BIN/config" -o "$TMP/config.json" TRIALS=2 >/dev/null
printf 'not a matrix' >$TMP/fam.bin  # the file variants.json names
"$BIN/stats" --replay $TMP/replay.json --variants $TMP/variants.json --config $TMP/config.json -o $TMP/statsbad.json
expect_eq "a damaged matrix: the statistics stand, PBO says why" "true null" \
	"$(jget $TMP/statsbad.json ok) $(jget $TMP/statsbad.json pbo)"
check "the reason names the file" grep -q "not a variant return matrix" $TMP/statsbad.json
"$BIN/stats" --replay $TMP/replay.json --variants $TMP/oldfam.json --config $TMP/config.json -o $TMP/statsold.json
expect_eq "a version 1 matrix: the statistics stand, PBO says why" "true null" \
	"$(jget $TMP/statsold.json ok) $(jget $TMP/statsold.json pbo)"
check "the reason says it holds equity changes, not returns" \
	grep -q "version 1, per-bar equity changes rather than per-bar returns" $TMP/statsold.json
"$BIN/stats" --replay $TMP/replay.json --config $TMP/config.json -o $TMP/statsnull.json
expect_eq "without variants: declared trials and the null variance 1/(T-1), T the effective trades" "2 declared null ok" \
	"$(jget $TMP/statsnull.json trials) $(jget $TMP/statsnull.json trials_source) $(jget $TMP/statsnull.json sr_variance_source) $("$PY" -c '
import json, sys
s = json.load(open(sys.argv[1]))
t = s["autocorrelation"]["effective_trades"]
ok = abs(s["sr_variance"] - 1 / (t - 1)) < 1e-9 and abs(s["sr_variance_iid"] - 1 / (s["trades"] - 1)) < 1e-12
print("ok" if ok else (s["sr_variance"], s["sr_variance_iid"], t))' $TMP/statsnull.json)"
"$BIN/config" -o "$TMP/config.json" TRIALS=2 TRIALS_SR_VARIANCE=0.01 >/dev/null
"$BIN/stats" --replay $TMP/replay.json --config $TMP/config.json -o $TMP/statsknob.json
expect_eq "TRIALS_SR_VARIANCE is used when no variants measure it" "knob 0.01" \
	"$(jget $TMP/statsknob.json sr_variance_source) $(jget $TMP/statsknob.json sr_variance)"
"$BIN/config" -o "$TMP/config.json" TRIALS=2 >/dev/null

# --- parameters are data: code in a string stays a string
cat >"$TMP/data.py" <<'PYEOF'
VARIANTS = [{"cmd": "__import__('os').system('touch /tmp/pwned')", "n": [1, 2.5, None, True]}]
def signals(df, *, cmd="", n=()):
    if not isinstance(cmd, str) or list(n) != [1, 2.5, None, True]:
        raise TypeError("parameters did not arrive as plain data")
    return [0] * len(df)
PYEOF
family "$TMP/data.py" data
expect_eq "a string that looks like code arrives as a string" ok "$(jget $TMP/data.json variants.0.status)"
expect_eq "and nothing ran it" 0 "$(jget $TMP/data.json blocked_actions)"

# --- malformed VARIANTS: a finding, and the audit carries on with TRIALS
printf 'VARIANTS = [dict(n=1)]\ndef signals(df, *, n=1):\n    return [0] * len(df)\n' >"$TMP/bad.py"
family "$TMP/bad.py" bad
expect_eq "malformed VARIANTS is the finding SA501 at its line" "SA501 1" \
	"$(jget $TMP/bad.inspect.json strategy.flags.0.code) $(jget $TMP/bad.inspect.json strategy.flags.0.line)"
expect_eq "nothing is run for it" "true false 0" \
	"$(jget $TMP/bad.json ok) $(jget $TMP/bad.json declared) $(jget $TMP/bad.json count)"

# --- a refusal in one variant only is a refusal of the upload (full audit)
cat >"$TMP/${P}_sly.py" <<'PYEOF'
VARIANTS = [{"reach": False}, {"reach": True}]
def signals(df, *, reach=False):
    if reach:
        import os
        try:
            os.system("id")
        except Exception:
            pass
    return [1 if i % 50 < 25 else -1 for i in range(len(df))]
PYEOF
make --no-print-directory audit STRATEGY="$TMP/${P}_sly.py" DATA="$DATA" LOOKAHEAD_MAX=20 >/dev/null 2>&1
expect_eq "the main run itself was clean" 0 "$(jget out/${P}_sly/run.json blocked_actions)"
expect_eq "the variant's refusal vetoes the upload" REJECTED_UNSAFE "$(jget out/${P}_sly/verdict.json verdict)"
check "the veto says where the refusal happened" grep -q "in the runs of the declared variants" out/${P}_sly/verdict.json
expect_eq "eight gates with variants declared (the six, alpha, overfitting)" "8 overfitting" \
	"$(jget out/${P}_sly/verdict.json gates | "$PY" -c 'import json,sys; g=json.load(sys.stdin); print(len(g), g[-1]["name"])')"
check "the bundle carries variants.csv, the matrix and the Trials charts" "$PY" -c '
import sys, zipfile
n = [x.split("/")[-1] for x in zipfile.ZipFile(sys.argv[1]).namelist()]
assert all(f in n for f in ("variants.csv", "variants.json", "variant_returns.bin", "variants.png", "pbo.png")), n' \
	out/${P}_sly/${P}_sly.zip
check "report.xlsx has the sheet Variants" "$PY" -c '
import sys, zipfile
assert "name=\"Variants\"" in zipfile.ZipFile(sys.argv[1]).read("xl/workbook.xml").decode()' out/${P}_sly/report.xlsx
check "report.html has the Trials section" grep -q 'id="trials"' out/${P}_sly/report.html

# --- the nightly counts declared variants with no header line
mkdir -p "$TMP/night"
cp "$TMP/fam.py" "$TMP/night/${P}_fam.py"
make --no-print-directory nightly STRATEGIES="$TMP/night" NIGHT=2099-02-01 DATA="$DATA" LOOKAHEAD_MAX=20 \
	>/dev/null 2>&1
# the trial ledger counts every declared variant as tried (4), the one that could not run too
expect_eq "the nightly index shows the trials the declared variants make" 4 "$(jget out/nightly/2099-02-01/index.json rows.0.trials)"
expect_eq "and their PBO" "$(jget out/${P}_fam/stats.json pbo.value)" "$(jget out/nightly/2099-02-01/index.json rows.0.pbo)"
check "index.html has the trials and PBO columns" grep -q "<th>trials</th><th>PBO</th>" out/nightly/2099-02-01/index.html
finish
