#!/usr/bin/env bash
# 47-selection.sh - the tests run on the strategy itself: Hansen's SPA against an independent
# numpy implementation (a family with a real winner, one of pure noise, and the overfit demo's 50
# variants), walk-forward selection recomputed exactly from variant_returns.bin, and the Monte
# Carlo of the closed trades recomputed from trades.csv within its Monte Carlo error.
. "$(dirname "$0")/../lib.sh"

N=e2e-selection
OUT=out/$N
cleanup() { rm -rf "$OUT"; }
trap 'cleanup; rm -rf "$TMP"' EXIT
cleanup
make --no-print-directory audit STRATEGY=demos/overfit.py TRIALS=50 NAME=$N >"$TMP/audit.log" 2>&1
expect_eq "the overfit demo's audit exits 0" 0 $?

check "stats.json spa holds exactly the fields SPA names" "$PY" - "$OUT/stats.json" <<'PYEOF'
import json, sys
s = json.load(open(sys.argv[1]))["spa"]
want = {"p_value", "p_lower", "p_upper", "reality_check_p", "block_length", "resamples", "seed", "benchmark"}
assert set(s) == want, sorted(s)
assert s["resamples"] == 1000 and s["seed"] == 1 and s["benchmark"] == "flat", s
assert 0 <= s["p_lower"] <= s["p_value"] <= s["p_upper"] <= 1, s
PYEOF

selection_check() {
	"$PY" - "$1" "$2" <<'PYEOF'
import json, sys, openpyxl
st = json.load(open(sys.argv[2]))
got = [tuple(r) for r in openpyxl.load_workbook(sys.argv[1])["Selection"].iter_rows(min_row=2, values_only=True)]
def flat(prefix, o):
    for k, v in o.items():
        if isinstance(v, dict):
            yield from flat(prefix + "." + k, v)
        elif isinstance(v, list):
            yield (prefix + "." + k, " ".join("%g" % x for x in v))
        elif v is not None:
            yield (prefix + "." + k, v)
want = []
for t in ("spa", "walk_forward", "monte_carlo"):
    want += list(flat(t, st[t])) if isinstance(st.get(t), dict) else [(t + "_reason", st.get(t + "_reason") or "not in stats.json")]
assert len(got) == len(want), (got, want)
for g, w in zip(got, want):
    assert g[0] == w[0], (g, w)
    assert (abs(g[1] - w[1]) < 1e-12) if isinstance(w[1], float) else g[1] == w[1], (g, w)
assert all(any(k.startswith(t + ".") for k, _ in want) for t in ("spa", "walk_forward", "monte_carlo")), want
PYEOF
}
check "report.xlsx's Selection sheet holds stats.json's SPA, walk-forward and Monte Carlo (or why not)" \
	selection_check "$OUT/report.xlsx" "$OUT/stats.json"

# SPA on seeded families: the stats stage over the audit's own replay, the family swapped in
for f in replay.json trades.csv equity.csv config.json; do cp "$OUT/$f" "$TMP/$f"; done
spa_family() {  # kind seed -> $TMP/$1.stats.json and $TMP/$1.ref.json
	"$PY" tests/spa_reference.py --write "$TMP/$1.bin" "$1" 2000 20 "$2"
	"$PY" -c '
import json, sys
print(json.dumps({"stage": "variants", "schema": 1, "ok": True, "declared": True, "matrix": sys.argv[1],
                  "variants": [{"variant": i + 1, "status": "ok", "sharpe": 0.0} for i in range(20)]}))' \
		"$1.bin" >"$TMP/$1.variants.json"
	"$BIN/stats" --replay "$TMP/replay.json" --variants "$TMP/$1.variants.json" --config "$TMP/config.json" \
		-o "$TMP/$1.stats.json"
	"$PY" tests/spa_reference.py "$TMP/$1.bin" 4000 99 >"$TMP/$1.ref.json"
}
spa_family winner 7
spa_family noise 10
check "SPA agrees with the numpy reference: a real winner, p small; pure noise, p large" \
	"$PY" - "$TMP" <<'PYEOF'
import json, sys
tmp = sys.argv[1]
for kind in ("winner", "noise"):
    got = json.load(open("%s/%s.stats.json" % (tmp, kind)))["spa"]
    ref = json.load(open("%s/%s.ref.json" % (tmp, kind)))
    assert abs(got["block_length"] - ref["block_length"]) < 1e-6 * ref["block_length"], (kind, got, ref)
    for k in ("p_value", "p_lower", "p_upper", "reality_check_p"):
        # 1000 resamples against 4000: a few standard errors of a share, plus the omegas'
        # estimators (bootstrap variance here, Hansen's kernel there)
        assert abs(got[k] - ref[k]) <= 0.06, (kind, k, got[k], ref[k])
    if kind == "winner":
        assert got["p_value"] <= 0.01 and ref["p_value"] <= 0.01, (got, ref)
    else:
        assert got["p_value"] >= 0.2 and ref["p_value"] >= 0.2, (got, ref)
PYEOF
check "SPA over the overfit demo's 50 variants agrees with the numpy reference" "$PY" - "$OUT" <<'PYEOF'
import json, subprocess, sys
out = sys.argv[1]
got = json.load(open(out + "/stats.json"))["spa"]
ref = json.loads(subprocess.run(["/usr/bin/python3", "tests/spa_reference.py", out + "/variant_returns.bin",
                                 "600", "5"], check=True, capture_output=True, text=True).stdout)
assert abs(got["block_length"] - ref["block_length"]) < 1e-6 * ref["block_length"], (got, ref)
for k in ("p_value", "p_lower", "p_upper", "reality_check_p"):
    assert abs(got[k] - ref[k]) <= 0.06, (k, got[k], ref[k])
PYEOF

check "walk-forward recomputed from variant_returns.bin and variants.json" "$PY" - "$OUT" <<'PYEOF'
import json, sys
import numpy as np
out = sys.argv[1]
s = json.load(open(out + "/stats.json"))
wf, cfg = s["walk_forward"], json.load(open(out + "/config.json"))
assert set(wf) == {"windows", "choices", "oos_sharpe_annualised", "oos_net_return",
                   "is_sharpe_annualised", "efficiency"}, sorted(wf)
raw = open(out + "/variant_returns.bin", "rb").read()
t, n = (int(x) for x in np.frombuffer(raw[8:24], "<u8"))
m = np.frombuffer(raw[24:], "<f8").reshape(n, t)
ids = [v["variant"] for v in json.load(open(out + "/variants.json"))["variants"] if v["status"] == "ok"]
w = cfg["walk_forward"]["windows"]
assert wf["windows"] == w == 5
def sharpe(x):
    sd = x.std(ddof=1)
    return x.mean() / sd if sd > 0 else 0.0
starts = [(i + 1) * t // (w + 1) for i in range(w + 1)]
picks = [int(np.argmax([sharpe(m[j, :starts[i]]) for j in range(n)])) for i in range(w)]
assert [ids[p] for p in picks] == wf["choices"], (picks, wf["choices"])
oos = np.concatenate([m[picks[i], starts[i]:starts[i + 1]] for i in range(w)])
hind = int(np.argmax([sharpe(m[j]) for j in range(n)]))
ins = m[hind, starts[0]:]
f = np.sqrt(s["sharpe_annualised"]["bars_per_year"])
def close(a, b):
    return abs(a - b) <= 1e-7 * (1 + abs(b))
assert close(wf["oos_sharpe_annualised"], sharpe(oos) * f), (wf, sharpe(oos) * f)
assert close(wf["is_sharpe_annualised"], sharpe(ins) * f), (wf, sharpe(ins) * f)
assert close(wf["oos_net_return"], np.prod(1 + oos) - 1), (wf, np.prod(1 + oos) - 1)
assert close(wf["efficiency"], sharpe(oos) / sharpe(ins)), wf
PYEOF

check "the Monte Carlo recomputed from trades.csv, within its Monte Carlo error" "$PY" - "$OUT" <<'PYEOF'
import csv, json, sys
import numpy as np
out = sys.argv[1]
top = json.load(open(out + "/stats.json"))["monte_carlo"]
r = np.array([float(x["net_return"]) for x in csv.DictReader(open(out + "/trades.csv"))])
assert top["resamples"] == 1000 and top["method"] == "stationary_blocks" and top["trades"] == len(r), top
# the bands by blocks are recomputed by tests/recompute_market.py; here the iid ones beside them
mc = dict(top["iid"], observed_max_drawdown=top["observed_max_drawdown"])
def paths(x):
    eq = np.cumprod(1 + x, axis=-1)
    eq = np.where(np.minimum.accumulate(np.where(x <= -1, 0, 1), axis=-1) == 0, 0, eq)
    peak = np.maximum(np.maximum.accumulate(eq, axis=-1), 1)
    return eq, ((peak - eq) / peak).max(-1)
eq, dd = paths(r)
assert abs(mc["observed_max_drawdown"] - dd) < 1e-9, (mc["observed_max_drawdown"], dd)
rng = np.random.default_rng(3)
eqs, dds = paths(r[rng.integers(0, len(r), (20000, len(r)))])
ret = eqs[:, -1] - 1
def near(got, ref, rel):
    return abs(got - ref) <= rel * abs(ref) + 0.003
for q, k in ((50, "p50"), (95, "p95"), (99, "p99")):
    assert near(mc["max_drawdown"][k], np.percentile(dds, q), 0.15 if q < 99 else 0.25), (k, mc, np.percentile(dds, q))
for q, k in ((5, "p5"), (50, "p50"), (95, "p95")):
    assert near(mc["net_return"][k], np.percentile(ret, q), 0.15), (k, mc, np.percentile(ret, q))
assert abs(mc["ruin_probability"] - np.mean(eqs[:, -1] <= 0)) <= 0.02, mc
assert abs(mc["drawdown_probability"]["20 %"] - np.mean(dds >= 0.2)) <= 0.03, mc
assert abs(mc["drawdown_probability"]["50 %"] - np.mean(dds >= 0.5)) <= 0.03, mc
assert abs(mc["observed_percentile"] - np.mean(dds <= dd)) <= 0.03, mc
PYEOF

check "the Monte Carlo by blocks recomputed from trades.csv" "$PY" tests/recompute_market.py "$OUT"

check "the report's sentences carry stats.json's figures, and both charts are drawn and shown" \
	"$PY" - "$OUT" <<'PYEOF'
import json, os, re, sys
out = sys.argv[1]
s = json.load(open(out + "/stats.json"))
html = re.sub(r"<[^>]+>", "", open(out + "/report.html").read())
spa, wf, mc = s["spa"], s["walk_forward"], s["monte_carlo"]
ran = s["variants"]["ran"]
want = "The best of %d beats doing nothing with p = %.2f: %s" % (
    ran, spa["p_value"], "no better than luck over %d tries" % ran if spa["p_value"] >= 0.05 else "better than luck")
assert want in html, want
want = "annualised Sharpe ratio of %.2f out of sample, against %.2f" % (wf["oos_sharpe_annualised"], wf["is_sharpe_annualised"])
assert want in html, want
assert "%.0f %% of the headline survives" % (100 * max(wf["efficiency"], 0)) in html
assert "stretch by stretch: %s." % ", ".join(str(c) for c in wf["choices"]) in html
# the figure so far is the drawdown gate's (bar by bar); the closed trades' one, which the
# sequences share, is named beside it when the two print apart
gate, closed = 100 * s["max_drawdown"], 100 * mc["observed_max_drawdown"]
side = "" if abs(gate - closed) < 0.05 else \
    " (%.1f %% on closed trades alone, the measure the sequences share)" % closed
want = "A drawdown of %.1f %% so far%s; 1 in 20 sequences of these trades falls %.1f %%" % (
    gate, side, 100 * mc["max_drawdown"]["p95"])
assert want in html, want
for png in ("walkforward.png", "montecarlo.png"):
    assert os.path.getsize(out + "/" + png) > 20000, png
    assert 'src="%s"' % png in open(out + "/report.html").read(), png
    assert png in open(out + "/sha256sums.txt").read(), png
PYEOF

"$BIN/config" -o "$TMP/config.json" WALKFORWARD_WINDOWS=3 MONTE_CARLO=200 >/dev/null
"$BIN/stats" --replay "$OUT/replay.json" --variants "$OUT/variants.json" --config "$TMP/config.json" \
	-o "$TMP/knobs.json"
expect_eq "WALKFORWARD_WINDOWS and MONTE_CARLO are read" "3 3 200" \
	"$(jget "$TMP/knobs.json" walk_forward.windows) $("$PY" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["walk_forward"]["choices"]))' "$TMP/knobs.json") $(jget "$TMP/knobs.json" monte_carlo.resamples)"
"$BIN/stats" --replay "$OUT/replay.json" --config "$TMP/config.json" -o "$TMP/novariants.json"
expect_eq "without variants: no SPA or walk-forward, with the reason; the Monte Carlo stands" \
	"null no variants declared null no variants declared 200" \
	"$(jget "$TMP/novariants.json" spa) $(jget "$TMP/novariants.json" spa_reason) $(jget "$TMP/novariants.json" walk_forward) $(jget "$TMP/novariants.json" walk_forward_reason) $(jget "$TMP/novariants.json" monte_carlo.resamples)"
"$BIN/stats" --replay "$OUT/replay.json" --variants "$OUT/variants.json" --config "$OUT/config.json" \
	--data data/ohlcv.csv --run "$OUT/run.json" --lookahead "$OUT/lookahead.json" --ledger "$OUT/ledger.json" \
	--inspect "$OUT/inspect.json" --neighbourhood "$OUT/neighbourhood.json" -o "$TMP/again.json"
check "the same inputs give the same stats.json" cmp "$TMP/again.json" "$OUT/stats.json"

exit $T_FAILED
