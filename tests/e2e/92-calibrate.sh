#!/usr/bin/env bash
# 92-calibrate.sh - a small `make calibrate` (a few audits of each kind): calibration.json has
# the shape the figures promise, its counts are the verdicts of its cases, every case folder
# re-audits by hand with `make audit` to the verdict recorded, the worlds are the same bytes from
# the same seed, and the README quotes the committed summary's figures.
. "$(dirname "$0")/../lib.sh"
unset LLM_API_KEY

DIR=out/e2e-calibrate
SMALL=(CALIBRATE_NULL=3 CALIBRATE_BEST_OF=3 CALIBRATE_POWER=1 CALIBRATE_EDGES=0.3
	CALIBRATE_POWER_BARS=1200 CALIBRATE_LOOKAHEAD=1 CALIBRATE_BARS=1200 CALIBRATE_SEED=7
	CALIBRATE_PERMUTATIONS=5 CALIBRATE_LOOKAHEAD_MAX=100 CALIBRATE_SEARCH=1 CALIBRATE_SEARCH_K=3
	CALIBRATE_WORLDS=1)
rm -rf "$DIR" out/e2e-calibrate-*

# a bad knob stops before anything is written
make --no-print-directory calibrate "${SMALL[@]}" CALIBRATE_NULL=many CALIBRATE_DIR=$DIR \
	CALIBRATE_SUMMARY="$TMP/bad.json" >"$TMP/bad.log" 2>&1
expect_eq "a bad CALIBRATE_NULL exits non-zero" 1 "$([ $? -ne 0 ] && echo 1)"
expect_eq "a bad CALIBRATE_NULL is named" 1 "$(grep -c "CALIBRATE_NULL 'many' should be a whole number" "$TMP/bad.log")"
expect_eq "a bad knob writes nothing" "no no" "$([ -e $DIR ] && echo yes || echo no) $([ -e "$TMP/bad.json" ] && echo yes || echo no)"

if make --no-print-directory calibrate "${SMALL[@]}" CALIBRATE_DIR=$DIR CALIBRATE_SUMMARY="$TMP/summary.json" \
	>"$TMP/cal.log" 2>&1; then
	ok "make calibrate exits 0"
else
	not_ok "make calibrate exits 0" "$(tail -n 5 "$TMP/cal.log")"
fi
expect_eq "the terminal hears the null rate" 1 "$(grep -c '^calibrate: null READY [0-9]*/3 ' "$TMP/cal.log")"

check "calibration.json has the promised shape and its counts are its cases' verdicts" \
	"$PY" - "$DIR/calibration.json" "$TMP/summary.json" <<'PYEOF'
import json, os, sys
from scipy.stats import beta
cal = json.load(open(sys.argv[1]))
summ = json.load(open(sys.argv[2]))
assert set(cal) == {"null", "search", "worlds", "power", "lookahead", "cases", "seed", "seconds"}, sorted(cal)
n = cal["null"]
assert set(n) == {"audits", "ready", "watch", "rate_ready", "rate_ready_or_watch", "ci95", "family"}, sorted(n)
cases = cal["cases"]
assert all(set(c) == {"id", "dir", "kind", "verdict", "trials", "gate_verdict", "shape"} for c in cases)
kinds = [c["kind"] for c in cases]
assert kinds.count("null") == 3 and kinds.count("power") == 1, kinds
# the undeclared search (audited with TRIALS=1) and the worlds with no tradeable edge
assert [kinds.count(w) for w in ("search", "bounce", "stale", "garch")] == [1, 1, 1, 1], kinds
for name, f in [("search", cal["search"])] + list(cal["worlds"].items()):
    cs = [c for c in cases if c["kind"] == name]
    ready = sum(c["verdict"] == "READY_FOR_MICRO_LIVE" for c in cs)
    assert (f["audits"], f["ready"]) == (len(cs), ready), (name, f)
    assert sum(f["neighbourhood"].values()) == len(cs), (name, f)
assert all(c["trials"] == 1 for c in cases if c["kind"] == "search")
assert sorted(cal["worlds"]) == ["bounce", "garch", "stale"]
assert kinds.count("leak") == 4 and kinds.count("causal") == 4, kinds
assert all(isinstance(c["verdict"], str) and c["verdict"] for c in cases)
null = [c for c in cases if c["kind"] == "null"]
ready = sum(c["verdict"] == "READY_FOR_MICRO_LIVE" for c in null)
watch = sum(c["verdict"] == "WATCH" for c in null)
assert (n["audits"], n["ready"], n["watch"]) == (3, ready, watch), n
assert abs(n["rate_ready"] - ready / 3) < 1e-6 and abs(n["rate_ready_or_watch"] - (ready + watch) / 3) < 1e-6
lo = 0.0 if ready == 0 else beta.ppf(0.025, ready, 3 - ready + 1)
hi = 1.0 if ready == 3 else beta.ppf(0.975, ready + 1, 3 - ready)
assert abs(n["ci95"][0] - lo) < 1e-5 and abs(n["ci95"][1] - hi) < 1e-5, (n["ci95"], lo, hi)
# the best of K is declared both ways: TRIALS=K and a VARIANTS list of K
best = [c for c in null if c["trials"] == 3]
assert best and n["family"]["best_of_cases"] == len(best)
for c in best:
    assert open(os.path.join(c["dir"], "strategy.py")).read().count('\n    {"') == 3, c["id"]
p = cal["power"]
assert len(p) == 1 and set(p[0]) == {"bars", "edge_sharpe", "audits", "ready_rate", "ready_ci95", "watch_rate"}
k = round(p[0]["ready_rate"] * p[0]["audits"])
lo = 0.0 if k == 0 else beta.ppf(0.025, k, p[0]["audits"] - k + 1)
hi = 1.0 if k == p[0]["audits"] else beta.ppf(0.975, k + 1, p[0]["audits"] - k)
assert abs(p[0]["ready_ci95"][0] - lo) < 1e-5 and abs(p[0]["ready_ci95"][1] - hi) < 1e-5, p[0]
assert (p[0]["bars"], p[0]["edge_sharpe"], p[0]["audits"]) == (1200, 0.3, 1)
la = cal["lookahead"]
assert set(la) == {"leaks", "caught", "causal", "false_alarms", "families"}, sorted(la)
leaks = [c for c in cases if c["kind"] == "leak"]
causal = [c for c in cases if c["kind"] == "causal"]
assert la["leaks"] == 4 and la["caught"] == sum(c["verdict"] == "REJECTED_LOOKAHEAD" for c in leaks)
assert la["causal"] == 4 and la["false_alarms"] == sum(c["verdict"] == "REJECTED_LOOKAHEAD" for c in causal)
assert sorted(f["family"] for f in la["families"]) == sorted(
    ["peek", "rare_peek", "full_frame", "centred", "causal_peek", "causal_rare_peek",
     "causal_full_frame", "causal_centred"])
assert cal["seed"] == 7 and cal["seconds"] > 0
for c in cases:
    for f in ("strategy.py", "data.csv", "TRIALS", "KNOBS"):
        assert os.path.isfile(os.path.join(c["dir"], f)), (c["id"], f)
    assert open(os.path.join(c["dir"], "TRIALS")).read().strip() == str(c["trials"])
# the summary: the same figures, and no wall time
assert "seconds" not in summ and summ["null"] == {k: n[k] for k in summ["null"]}
assert summ["power"] == p and summ["seed"] == 7
assert summ["search"] == cal["search"] and summ["worlds"] == cal["worlds"]
PYEOF

# Every leak must be caught on these seeds; a change that misses one shows here as well as in
# the figures.
expect_eq "every generated leak is rejected for look-ahead" "4 4" \
	"$(jget $DIR/calibration.json lookahead.caught) $(jget $DIR/calibration.json lookahead.leaks)"
# A causal look-alike rejected is a false alarm: none on these seeds. The z-score against an
# expanding mean at seed 7 loses its lucky in-sample profit under the hindsight check's calendar
# moves, but its positions move with the prices, so it is judged by the gates, not as a memory.
check "no causal look-alike is rejected for look-ahead (the false alarms counted are its cases')" \
	"$PY" - "$DIR/calibration.json" <<'PYEOF'
import json, sys
c = json.load(open(sys.argv[1]))
rej = [x["id"] for x in c["cases"] if x["kind"] == "causal" and x["verdict"] == "REJECTED_LOOKAHEAD"]
assert c["lookahead"]["false_alarms"] == len(rej) == 0, (c["lookahead"], rej)
PYEOF
expect_eq "the z-score look-alike: its positions moved, not kept in place, so the calendar does not flag it" \
	"false false" "$(jget out/e2e-calibrate-causal-full-frame-000/robustness.json hindsight.calendar.positions.stayed_put) $(jget out/e2e-calibrate-causal-full-frame-000/robustness.json hindsight.flagged)"

# One case of each kind audited again by hand, with the command the case folder names.
"$PY" - "$DIR/calibration.json" >"$TMP/pick" <<'PYEOF'
import json, sys
seen = {}
for c in json.load(open(sys.argv[1]))["cases"]:
    key = (c["kind"], c["trials"] > 1)
    if key not in seen:
        seen[key] = c
        print(c["id"], c["dir"], c["verdict"])
PYEOF
while read -r id dir verdict; do
	name=e2e-recal-$id
	rm -rf "out/$name"
	# shellcheck disable=SC2046 # KNOBS holds one NAME=value a line
	make --no-print-directory audit STRATEGY="$dir/strategy.py" DATA="$dir/data.csv" \
		TRIALS="$(cat "$dir/TRIALS")" $(cat "$dir/KNOBS") NAME="$name" >"$TMP/$id.log" 2>&1
	expect_eq "$id: make audit on its folder gives the recorded verdict" "$verdict" \
		"$(jget "out/$name/verdict.json" verdict 2>/dev/null)"
done <"$TMP/pick"
expect_eq "a case of each kind was re-audited" 9 "$(wc -l <"$TMP/pick")"

# The same seed and knobs draw the same worlds, byte for byte.
env "${SMALL[@]}" CALIBRATE_DIR="$TMP/again" CALIBRATE_SUMMARY= CALIBRATE_JOBS=1 \
	scripts/calibrate generate >"$TMP/gen.log" 2>&1
check "the same seed writes the same case folders" diff -r -x audit.log "$DIR/cases" "$TMP/again/cases"
env "${SMALL[@]}" CALIBRATE_SEED=8 CALIBRATE_DIR="$TMP/other" CALIBRATE_SUMMARY= CALIBRATE_JOBS=1 \
	scripts/calibrate generate >"$TMP/gen.log" 2>&1
expect_eq "another seed draws other data" 1 "$(cmp -s "$DIR/cases/null-0000/data.csv" \
	"$TMP/other/cases/null-0000/data.csv" || echo 1)"

# The committed summary: the README quotes its figures, and each bundle carries it.
check "README's Honest limitations quote data/calibration.json" "$PY" - data/calibration.json README.md <<'PYEOF'
import json, sys
s = json.load(open(sys.argv[1]))
readme = " ".join(open(sys.argv[2]).read().replace("`", "").split())
n, la = s["null"], s["lookahead"]
for phrase in (f"make calibrate on {s['date']}", f"seed {s['seed']}",
               f"{n['ready']} of {n['audits']} audits ({n['rate_ready'] * 100:.1f} %",
               f"95 % interval {n['ci95'][0] * 100:.1f}-{n['ci95'][1] * 100:.1f} %",
               f"READY or WATCH {n['rate_ready_or_watch'] * 100:.1f} %",
               f"{la['caught']} of {la['leaks']} generated leaks",
               f"{la['false_alarms']} of {la['causal']} causal look-alikes"):
    assert phrase in readme, phrase
from scipy.stats import beta
for c in s["power"]:
    k, m = round(c["ready_rate"] * c["audits"]), c["audits"]
    lo = 0.0 if k == 0 else beta.ppf(0.025, k, m - k + 1)
    hi = 1.0 if k == m else beta.ppf(0.975, k + 1, m - k)
    assert (f"| {c['edge_sharpe']:g} | {c['bars']} | {m} | {c['ready_rate'] * 100:.0f} % | "
            f"{lo * 100:.0f}-{hi * 100:.0f} % | {c['watch_rate'] * 100:.0f} % |") in readme, c
PYEOF
first=$(head -n 1 "$TMP/pick" | cut -d' ' -f1)
check "the bundle carries the committed summary" cmp data/calibration.json "out/e2e-recal-$first/calibration.json"
check "the report's calibration sentence is recomputed from the bundle" \
	"$PY" tests/recompute.py "out/e2e-recal-$first"
# make calibrate-score: the same case re-scored in place, its sandbox runs kept (no case file
# rewritten, no run re-made), its verdict the one recorded.
v0=$(jget out/e2e-calibrate-null-0000/verdict.json verdict)
touch -r out/e2e-calibrate-null-0000/run.json "$TMP/run.stamp"
touch -r "$DIR/cases/null-0000/data.csv" "$TMP/data.stamp"
if make --no-print-directory calibrate-score "${SMALL[@]}" CALIBRATE_NULL=1 CALIBRATE_SEARCH=0 \
	CALIBRATE_WORLDS=0 CALIBRATE_POWER=0 CALIBRATE_LOOKAHEAD=0 CALIBRATE_DIR=$DIR \
	CALIBRATE_SUMMARY= >"$TMP/score.log" 2>&1; then
	ok "make calibrate-score exits 0"
else
	not_ok "make calibrate-score exits 0" "$(tail -n 5 "$TMP/score.log")"
fi
expect_eq "calibrate-score: no sandbox run re-made, no case rewritten" "no no" \
	"$([ out/e2e-calibrate-null-0000/run.json -nt "$TMP/run.stamp" ] && echo yes || echo no) $(
	[ "$DIR/cases/null-0000/data.csv" -nt "$TMP/data.stamp" ] && echo yes || echo no)"
expect_eq "calibrate-score: the verdict recorded is the case's" "$v0" \
	"$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["cases"][0]["verdict"])' "$DIR/calibration.json")"
rm -rf "$DIR" out/e2e-calibrate-* out/e2e-recal-*
finish
