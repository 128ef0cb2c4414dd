#!/usr/bin/env bash
# 60-demos.sh - each demo earns its verdict through `make audit`, and the verdict stage still
# decides when upstream files are missing or failed.
. "$(dirname "$0")/../lib.sh"
# The pinned verdicts are the summaries from the numbers, never a narrator's.
unset LLM_API_KEY

# verdict_of dir: "verdict gate_verdict" from dir/verdict.json.
verdict_of() {
	echo "$(jget "$1/verdict.json" verdict 2>/dev/null) $(jget "$1/verdict.json" gate_verdict 2>/dev/null)"
}

# gate_pass dir name: true/false for one gate.
gate_pass() {
	"$PY" - "$1/verdict.json" "$2" <<'PYEOF'
import json, sys
for g in json.load(open(sys.argv[1]))["gates"]:
    if g["name"] == sys.argv[2]:
        print("true" if g["pass"] else "false")
PYEOF
}

while read -r demo trials verdict gate_verdict; do
	case $demo in ''|'#'*) continue ;; esac
	name=e2e-demo-$demo
	out=out/$name
	if [ ! -f "demos/$demo.py" ]; then
		not_ok "$demo: demos/$demo.py exists"
		continue
	fi
	rm -rf "$out"
	if make --no-print-directory audit STRATEGY="demos/$demo.py" TRIALS="$trials" NAME="$name" \
		>"$TMP/$demo.log" 2>&1; then
		ok "$demo: make audit exits 0"
	else
		not_ok "$demo: make audit exits 0" "$(tail -n 5 "$TMP/$demo.log")"
	fi
	expect_eq "$demo: verdict and gate verdict" "$verdict $gate_verdict" "$(verdict_of "$out")"
	expect_eq "$demo: audit prints the verdict" 1 "$(grep -c "^verdict: $verdict " "$TMP/$demo.log")"
	if [ -f "$out/stats.json" ] && [ "$(jget "$out/stats.json" ok)" = true ]; then
		check "$demo: compounded equity and drawdown recomputed from trades.csv and equity.csv, late fills and cost multiples replayed" \
			"$PY" tests/recompute.py "$out" data/ohlcv.csv
	fi
	case $demo in
	honest)
		expect_eq "honest: the trades gate is what holds it back" false "$(gate_pass "$out" trades)"
		for g in net_edge psr dsr drawdown; do
			expect_eq "honest: $g passes" true "$(gate_pass "$out" $g)"
		done
		# The report says what held the runs: the cgroup run.json recorded, or why there was none.
		if [ "$(jget "$out/run.json" limits.cgroup)" = null ]; then
			want="Limits: no cgroup ($(jget "$out/run.json" limits.cgroup_reason))"
		else
			want="Limits: cgroup v$(jget "$out/run.json" limits.cgroup.version): 1024 MB resident memory, 64 processes and 1 CPU a run, and 1 CPU for the zygote that forks them."
		fi
		expect_eq "honest: the report's limits line" 1 "$(grep -cF "$want" "$out/report.html")" ;;
	overfit)
		expect_eq "overfit: the DSR gate fails" false "$(gate_pass "$out" dsr)"
		# the deflation prices the 50 variants: the DSR lies well below the PSR
		"$PY" -c 'import json, sys; s = json.load(open(sys.argv[1])); sys.exit(not s["dsr"] < s["psr"] - 0.2)' "$out/stats.json" &&
			ok "overfit: the DSR lies well below the PSR" || not_ok "overfit: the DSR lies well below the PSR"
		# its trades come in runs: on the trades they are worth, the PSR is lower than counted
		# as independent, and fails
		expect_eq "overfit: the PSR fails on its effective trades" false "$(gate_pass "$out" psr)"
		expect_eq "overfit: counted as independent the PSR is higher" true \
			"$("$PY" -c 'import json,sys; s = json.load(open(sys.argv[1])); print(str(s["psr_iid"] > s["psr"]).lower())' "$out/stats.json")"
		expect_eq "overfit: deflated for 50 trials" 50 "$(jget "$out/verdict.json" trials)"
		# PBO at 8..16 blocks: the gate reads their median, and the report shows each
		check "overfit: PBO is the median of by_blocks, the gate's value, each in the report" \
			"$PY" - "$out" <<'PYEOF'
import json, statistics, sys
d = sys.argv[1]
p = json.load(open(d + "/stats.json"))["pbo"]
gate = [g for g in json.load(open(d + "/verdict.json"))["gates"] if g["name"] == "overfitting"][0]
assert list(p["by_blocks"]) == ["8", "10", "12", "14", "16"], p["by_blocks"]
assert abs(p["value"] - statistics.median(p["by_blocks"].values())) < 1e-9, p
assert abs(gate["value"] - p["value"]) < 1e-6, (gate, p)
assert p["value_at_blocks"] == p["by_blocks"]["16"], p
words = ", ".join(f"{v:.2f} at {s}" + (" blocks" if i == 0 else "") for i, (s, v) in enumerate(p["by_blocks"].items()))
assert f"as the gate reads it ({words})" in open(d + "/report.html").read(), words
PYEOF
		;;
	lookahead)
		m=$(jget "$out/verdict.json" lookahead_mismatches)
		if [ "${m:-0}" -gt 0 ] 2>/dev/null; then ok "lookahead: mismatches found ($m)"; else not_ok "lookahead: mismatches found" "got '$m'"; fi ;;
	malicious)
		expect_eq "malicious: zero trades" 0 "$(jget "$out/verdict.json" trades)"
		b=$(jget "$out/verdict.json" blocked_actions)
		if [ "${b:-0}" -gt 0 ] 2>/dev/null; then ok "malicious: refusals recorded ($b)"; else not_ok "malicious: refusals recorded" "got '$b'"; fi
		# every kind of refusal is named with its count: in the veto's reason and the report
		expect_eq "malicious: each rule and its count in the veto and the report's table" ok \
			"$("$PY" - "$out" <<'PYEOF'
import collections, html, json, sys
d = sys.argv[1]
counts = collections.Counter()
for f in ("run.json", "lookahead.json", "robustness.json", "variants.json"):
    try:
        for r in json.load(open(d + "/" + f)).get("refusals", []):
            counts[r["rule"]] += r["count"]
    except FileNotFoundError:
        pass
veto = " ".join(v["reason"] for v in json.load(open(d + "/verdict.json"))["vetoes"])
page = html.unescape(open(d + "/report.html").read())
bad = [r for r, n in counts.items() if "%d by rule '%s'" % (n, r) not in veto and "all by rule '%s'" % r not in veto]
bad += ["report: " + r for r in counts if "<td class=\"mono\">%s</td>" % r not in page]
print("; ".join(bad) if bad else "ok" if counts else "no refusals counted")
PYEOF
)" ;;
	esac
done <demos/expected-verdicts.txt

# The verdict stage on damaged copies of a real audit directory.
src=out/e2e-demo-honest
# fresh_copy DIR: the honest audit without its verdict.json, so a verdict that writes nothing
# is not judged on the copied one (which says WATCH WATCH).
fresh_copy() { cp -r "$src" "$1" && rm -f "$1/verdict.json"; }
check "verdict --help exits 0" "$BIN/verdict" --help
"$BIN/verdict" --dir "$src" >/dev/null 2>&1
expect_eq "verdict without -o is a usage error" 2 $?

if [ -f "$src/stats.json" ]; then
	d=$TMP/again && cp -r "$src" "$d"
	"$BIN/verdict" --dir "$d" -o "$d/v1.json" && "$BIN/verdict" --dir "$d" -o "$d/v2.json"
	check "same inputs give identical verdict bytes" cmp "$d/v1.json" "$d/v2.json"
	check "the stage output matches a rerun" cmp "$src/verdict.json" "$d/v1.json"

	d=$TMP/nostats && fresh_copy "$d" && rm "$d/stats.json"
	"$BIN/verdict" --dir "$d" -o "$d/verdict.json"
	expect_eq "missing stats.json: still a verdict" "NOT_READY NOT_READY" "$(verdict_of "$d")"
	expect_eq "missing stats.json: the psr gate says why" true \
		"$("$PY" -c 'import json,sys; print(str(json.load(open(sys.argv[1]))["gates"][2]["why"].startswith("not measured")).lower())' "$d/verdict.json")"

	d=$TMP/failedstats && fresh_copy "$d"
	echo '{"stage":"stats","schema":1,"ok":false,"reason":"no trades to measure"}' >"$d/stats.json"
	"$BIN/verdict" --dir "$d" -o "$d/verdict.json"
	expect_eq "ok:false stats.json: still a verdict" "NOT_READY NOT_READY" "$(verdict_of "$d")"
	expect_eq "ok:false stats.json: its reason is kept" "no trades to measure" "$(jget "$d/verdict.json" inputs.stats)"

	d=$TMP/badlookahead && fresh_copy "$d"
	echo '{"stage":"lookahead","schema":1,"ok":false,"reason":"sandbox unavailable"}' >"$d/lookahead.json"
	"$BIN/verdict" --dir "$d" -o "$d/verdict.json"
	# a verdict resting on a check that was not made never passes: the gates are held back
	expect_eq "ok:false lookahead.json: the gates' WATCH is held at NOT_READY" "NOT_READY WATCH" \
		"$(verdict_of "$d")"
	expect_eq "ok:false lookahead.json: verdict.json says it was held back" "true [\"lookahead\"]" \
		"$(jget "$d/verdict.json" held_back) $(jget "$d/verdict.json" unfinished | tr -d ' ')"
	check "ok:false lookahead.json: the summary says it was not checked" \
		grep -q "Look-ahead could not be checked" "$d/verdict.json"

	d=$TMP/killed && fresh_copy "$d"
	echo '{"stage":"sandbox","schema":1,"ok":false,"reason":"killed","status":"killed_memory","blocked_actions":0}' >"$d/run.json"
	"$BIN/verdict" --dir "$d" -o "$d/verdict.json"
	expect_eq "a run killed at a limit is unsafe" "REJECTED_UNSAFE WATCH" "$(verdict_of "$d")"

	d=$TMP/garbage && fresh_copy "$d"
	for f in config.json inspect.json run.json lookahead.json replay.json stats.json; do
		head -c 300 /dev/urandom >"$d/$f"
	done
	"$BIN/verdict" --dir "$d" -o "$d/verdict.json"
	expect_eq "garbage in every file: nothing judged, still a verdict" "INCOMPLETE NOT_READY" "$(verdict_of "$d")"
else
	not_ok "honest audit left $src/stats.json to damage"
fi

# Narration: a stand-in chat endpoint on localhost rewords the summary into narration.json, told
# as narration beside the verdict it rewords; the verdict, asked with the endpoint and the key
# set, writes the same verdict.json (it never reaches the network); a dead endpoint leaves a
# narration.json that says why, and the verdict as it was.
if [ -f "$src/verdict.json" ]; then
	"$PY" - "$TMP/port" <<'PYEOF' &
import http.server, json, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        facts = json.loads(body["messages"][-1]["content"])
        ok = self.path.endswith("/chat/completions") and self.headers["Authorization"] == "Bearer k"
        text = "%s, told plainly from %s trades; forward-test small, never a promise of profit." % (
            facts["verdict"], facts["trades"])
        out = json.dumps({"choices": [{"message": {"content": text}}]}).encode()
        self.send_response(200 if ok else 401)
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)
    def log_message(self, *a):
        pass
srv = http.server.HTTPServer(("127.0.0.1", 0), H)
open(sys.argv[1], "w").write(str(srv.server_port))
srv.handle_request()
PYEOF
	srv=$!
	for _ in 1 2 3 4 5 6 7 8 9 10; do [ -s "$TMP/port" ] && break; sleep 0.2; done
	d=$TMP/narrated && fresh_copy "$d"
	"$BIN/config" TRIALS=3 NARRATE_URL="http://127.0.0.1:$(cat "$TMP/port")/v1" -o "$d/config.json"
	LLM_API_KEY=k "$BIN/verdict" --dir "$d" -o "$d/verdict.json" 2>/dev/null
	check "with an endpoint and a key, the verdict writes the same verdict.json" \
		cmp "$src/verdict.json" "$d/verdict.json"
	LLM_API_KEY=k "$BIN/narrate" --dir "$d" -o "$d/narration.json" 2>/dev/null
	wait "$srv" 2>/dev/null
	expect_eq "narration.json holds the narrator's words, as narration of the verdict" \
		"true narration WATCH" \
		"$(jget "$d/narration.json" ok) $(jget "$d/narration.json" source) $(jget "$d/narration.json" verdict)"
	check "the narration names the verdict" grep -q '"text":.*WATCH, told plainly' "$d/narration.json"
	expect_eq "the summary stays the one from the numbers" "numbers" "$(jget "$d/verdict.json" summary_source)"
	"$BIN/bundle" --dir "$d" --name narrated >/dev/null 2>&1
	check "the bundle hashes verdict.json" grep -q " verdict.json$" "$d/sha256sums.txt"
	expect_no_match "narration.json lies beside the bundle, unhashed" "$d/sha256sums.txt" "narration"
	"$BIN/config" TRIALS=3 NARRATE_URL="http://127.0.0.1:1/v1" -o "$d/config.json"
	LLM_API_KEY=k "$BIN/narrate" --dir "$d" -o "$d/dead.json" 2>/dev/null
	expect_eq "a dead endpoint: narration.json says it failed" false "$(jget "$d/dead.json" ok)"
	"$BIN/narrate" --dir "$d" -o "$d/off.json" 2>/dev/null
	check "without a key, narration is off, and says so" grep -q "narration is off" "$d/off.json"
else
	not_ok "narration is checked: the honest audit left no $src/verdict.json to narrate"
fi

d=$TMP/empty && mkdir -p "$d"
"$BIN/verdict" --dir "$d" -o "$d/verdict.json"
expect_eq "an empty directory: nothing judged, still a verdict" "INCOMPLETE NOT_READY" "$(verdict_of "$d")"
check "verdict --print reads it" "$BIN/verdict" --print "$d/verdict.json"
"$BIN/verdict" --print "$d/config.json" >/dev/null 2>&1
expect_eq "verdict --print on a missing file exits 3" 3 $?
finish
