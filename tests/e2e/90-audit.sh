#!/usr/bin/env bash
# 90-audit.sh - the audit as a user drives it: byte-identical bundles from the whole pipeline,
# make doing nothing when nothing changed and only what a changed knob touches, trade-log-only
# audits, bad knobs and bad data, and the host stages giving the same bytes under ASan+UBSan.
. "$(dirname "$0")/../lib.sh"
unset LLM_API_KEY

N=e2e-audit
OUT=out/$N
audit() { make --no-print-directory audit NAME=$N "$@" >"$TMP/audit.log" 2>&1; }
mtimes() { (cd "$OUT" && stat -c '%n %Y.%y' -- * | sort); }

# --- the whole pipeline twice from nothing: the same bundle, byte for byte --------------------
rm -rf "$OUT"
check "make audit of the honest demo exits 0" audit STRATEGY=demos/honest.py TRIALS=3
cp "$OUT/$N.zip" "$TMP/first.zip"
cp "$OUT/lookahead.json" "$TMP/first-lookahead.json"
grep -q "bundled synthetic data demonstrates the method" "$OUT/verdict.json" &&
	ok "the default data: the summary says it is synthetic" ||
	not_ok "the default data: the summary says it is synthetic"
check "sha256sum -c --strict accepts the real bundle" sh -c "cd '$OUT' && sha256sum -c --strict --quiet sha256sums.txt"
check "the zip holds every file the sums list" bash -c \
	"unzip -Z1 '$OUT/$N.zip' | sed 's|^$N/||' | grep -vx sha256sums.txt | sort | diff - <(awk '{print \$2}' '$OUT/sha256sums.txt' | sort)"
# progress off a terminal: a plain line at every tenth of each stage's runs, in the log only
# (the look-ahead stage's long batch is the live replay, a handful of runs: a line for each)
la_runs=$(jget "$OUT/lookahead.json" live.runs)
expect_eq "off a terminal: the live replay says each of its runs once, ending at all of them" \
	"$la_runs lookahead: live replay: 100 % ($la_runs/$la_runs runs)" \
	"$(grep -c '^lookahead: live replay: [0-9]* % ([0-9]*/[0-9]* runs) after [0-9]* s' "$TMP/audit.log") $(grep -o '^lookahead: live replay: 100 % ([0-9/]* runs)' "$TMP/audit.log")"
check "off a terminal: robust says its batches" sh -c \
	"grep -q '^robust: warm-up: 100 % ' '$TMP/audit.log' && grep -q '^robust: permutation: 100 % ' '$TMP/audit.log'"
"$BIN/inspect" --strategy demos/overfit.py -o "$TMP/overfit-inspect.json"
variants_check demos/overfit.py "$TMP/overfit-inspect.json" data/ohlcv.csv "$OUT/config.json" \
	"$TMP/overfit-variants.json" "$TMP/overfit-variants.csv" "$TMP/overfit-matrix.bin" 2>"$TMP/variants.err"
v_runs=$(jget "$TMP/overfit-variants.json" count)
check "off a terminal: variants says its tenths too, to stderr only" sh -c \
	"grep -q '^variants: 100 % ($v_runs/$v_runs runs)' '$TMP/variants.err' && ! grep -q 'runs' '$TMP/overfit-variants.json' '$TMP/overfit-variants.csv'"
check "off a terminal: an estimate of the time left" grep -q '^lookahead: live replay: 50 % .*, about [0-9]* \(s\|min\) left$' "$TMP/audit.log"
check "off a terminal: no line is rewritten" sh -c "! grep -q \"\$(printf '\\r')\" '$TMP/audit.log'"
expect_eq "the progress is in no file of the bundle" "" "$(grep -rlE '[0-9]+/[0-9]+ runs' "$OUT" || true)"
rm -rf "$OUT"
check "a second audit from nothing exits 0" audit STRATEGY=demos/honest.py TRIALS=3
check "two audits of the same inputs give a byte-identical zip" cmp "$TMP/first.zip" "$OUT/$N.zip"

# --- make re-runs nothing, then only what a changed knob touches ------------------------------
before=$(mtimes)
sleep 1.1
check "re-running with nothing changed exits 0" audit STRATEGY=demos/honest.py TRIALS=3
expect_eq "re-running with nothing changed rewrites no file" "$before" "$(mtimes)"
run_before=$(stat -c %y "$OUT/run.json")
cfg_before=$(stat -c %y "$OUT/config.json")
sleep 1.1
check "changing TRIALS exits 0" audit STRATEGY=demos/honest.py TRIALS=40
expect_eq "changing TRIALS reaches the verdict" 40 "$(jget "$OUT/verdict.json" trials)"
expect_eq "changing TRIALS does not re-run the sandbox" "$run_before" "$(stat -c %y "$OUT/run.json")"
[ "$cfg_before" != "$(stat -c %y "$OUT/config.json")" ] && ok "changing TRIALS rewrites config.json" ||
	not_ok "changing TRIALS rewrites config.json"

# --- progress on a terminal, under make -s: one line rewritten in place per batch ------------
if command -v script >/dev/null; then
	rm -f "$OUT/lookahead.json"
	script -qec "make -s --no-print-directory audit NAME=$N STRATEGY=demos/honest.py TRIALS=40 2>&1 >/dev/null" \
		"$TMP/tty.log" >/dev/null 2>&1
	check "on a terminal: the live replay rewrites its line to all its runs, then ends it" \
		grep -q "$(printf '\r')lookahead: live replay: $la_runs/$la_runs runs, [0-9]* s, done$(printf '\033')\[K" "$TMP/tty.log"
	check "on a terminal: the line carries an estimate of the time left" \
		grep -q "$(printf '\r')lookahead: live replay: 1/$la_runs runs, [0-9]* s, about [0-9]* [smin]* left" "$TMP/tty.log"
	check "on a terminal: no plain tenth lines" sh -c "! grep -q '^lookahead: \(live replay: \)\{0,1\}[0-9]* % ' '$TMP/tty.log'"
	check "on a terminal: lookahead.json the same as off it" cmp "$OUT/lookahead.json" "$TMP/first-lookahead.json"
else
	not_ok "script (util-linux) is installed, to give the audit a terminal"
fi

# --- the host stages under ASan+UBSan give the very same bytes --------------------------------
A=build/asan/bin
if [ -x "$A/replay" ]; then
	D=$TMP/asan
	mkdir -p "$D"
	cp "$OUT"/strategy.py "$OUT"/config.json "$OUT"/run.json "$OUT"/events.jsonl "$OUT"/lookahead.json \
		"$OUT"/robust_runs.json "$OUT"/robust_signals.bin "$OUT"/neighbourhood_runs.json \
		"$OUT"/neighbourhood_signals.bin "$D"/
	# the calibration summary the Makefile copies in for the report's Honest limitations
	if [ -f "$OUT"/calibration.json ]; then cp "$OUT"/calibration.json "$D"/; fi
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
	# the names the audit was given, as the Makefile passes them
	check "asan: fingerprint" "$A/fingerprint" --strategy "$D/strategy.py" --data data/ohlcv.csv --config "$D/config.json" --synthetic data/ohlcv.csv.sha256 \
		--name "$N" --given strategy=demos/honest.py --given tradelog= --given data=data/ohlcv.csv -o "$D/fingerprint.json"
	check "asan: inspect" "$A/inspect" --strategy "$D/strategy.py" -o "$D/inspect.json"
	check "asan: variants" "$A/variants" --strategy "$D/strategy.py" --inspect "$D/inspect.json" \
		--data data/ohlcv.csv --config "$D/config.json" -o "$D/variant_runs.json" --signals "$D/variant_signals.bin"
	check "asan: variants_score" "$A/variants_score" --runs "$D/variant_runs.json" --signals "$D/variant_signals.bin" \
		--inspect "$D/inspect.json" --data data/ohlcv.csv --config "$D/config.json" -o "$D/variants.json" \
		--csv "$D/variants.csv" --matrix "$D/variant_returns.bin"
	# the neighbourhood's sets as the sandbox ran them (the numbers in the demo's body), scored here
	check "asan: neighbourhood's score" "$A/variants_score" --family neighbourhood \
		--runs "$D/neighbourhood_runs.json" --signals "$D/neighbourhood_signals.bin" --inspect "$D/inspect.json" \
		--data data/ohlcv.csv --config "$D/config.json" -o "$D/neighbourhood.json" --csv "$D/neighbourhood.csv" \
		--matrix "$D/neighbourhood_returns.bin"
	check "asan: robust_score" "$A/robust_score" --runs "$D/robust_runs.json" --signals "$D/robust_signals.bin" \
		--run "$D/run.json" --inspect "$D/inspect.json" --data data/ohlcv.csv --config "$D/config.json" \
		-o "$D/robustness.json"
	check "asan: replay" "$A/replay" --run "$D/run.json" --inspect "$D/inspect.json" --data data/ohlcv.csv --config "$D/config.json" \
		-o "$D/replay.json" --trades-out "$D/trades.csv" --equity-out "$D/equity.csv" \
		--reconcile-out "$D/reconcile.csv" --lookahead "$D/lookahead.json" \
		--backtest-equity-out "$D/backtest_equity.csv"
	# the history an earlier nightly left is read by both builds, as the Makefile reads it
	check "asan: ledger" "$A/ledger" --config "$D/config.json" --inspect "$D/inspect.json" \
		--fingerprint "$D/fingerprint.json" --name "$N" --night '' -o "$D/ledger.json"
	check "asan: stats" "$A/stats" --replay "$D/replay.json" --variants "$D/variants.json" \
		--config "$D/config.json" --data data/ohlcv.csv --run "$D/run.json" --lookahead "$D/lookahead.json" \
		--ledger "$D/ledger.json" --neighbourhood "$D/neighbourhood.json" --inspect "$D/inspect.json" \
		-o "$D/stats.json" --benchmark-out "$D/benchmark.csv" --rolling-out "$D/rolling.csv" \
		--walkforward-out "$D/walkforward.csv" --fan-out "$D/montecarlo_fan.csv"
	check "asan: verdict" "$A/verdict" --dir "$D" -o "$D/verdict.json"
	check "asan: report" "$A/report" --dir "$D" --name "$N" --templates templates --data data/ohlcv.csv
	for f in inspect.json ledger.json variant_runs.json variant_signals.bin variants.json variants.csv \
		neighbourhood.json neighbourhood.csv robustness.json replay.json trades.csv equity.csv \
		backtest_equity.csv stats.json verdict.json \
		reconcile.csv benchmark.csv rolling.csv walkforward.csv montecarlo_fan.csv \
		report.html report.xlsx report.pdf equity.png; do
		check "asan build writes the same $f as the rel build" cmp "$OUT/$f" "$D/$f"
	done
	unset ASAN_OPTIONS UBSAN_OPTIONS
else
	not_ok "the asan build exists (make test builds it)"
fi

# --- an upload that misbehaves only when shown less history ----------------------------------
cat >"$TMP/sneaky.py" <<'PYEOF'
import os
import numpy as np


def signals(df):
    if len(df) < 17000:
        os.system("touch /var/tmp/strataudit-sneaky")
    fast = df["close"].ewm(span=12, adjust=False).mean()
    slow = df["close"].ewm(span=96, adjust=False).mean()
    return np.where(fast > slow, 1, -1)
PYEOF
rm -rf "$OUT" /var/tmp/strataudit-sneaky
check "an audit of a strategy that misbehaves on short history exits 0" audit STRATEGY="$TMP/sneaky.py"
expect_eq "refusals in the look-ahead re-runs reject it as unsafe" REJECTED_UNSAFE "$(jget "$OUT/verdict.json" verdict)"
expect_eq "lookahead.json lists the re-runs' refusals" os.system "$(jget "$OUT/lookahead.json" events.0.action)"
grep -q "history up to 20" "$OUT/report.html" && ok "the report lists the re-runs' refusals" ||
	not_ok "the report lists the re-runs' refusals"
[ ! -e /var/tmp/strataudit-sneaky ] && ok "the re-runs' shell command never ran" ||
	not_ok "the re-runs' shell command never ran"

# --- a trade log alone ----------------------------------------------------------------------
rm -rf "$OUT"
check "make audit TRADES=log.csv alone exits 0" audit TRADES=tests/fixtures/replay/tradelog_honest.csv TRIALS=2
expect_eq "a trade log alone is audited as trusted returns" true "$(jget "$OUT/replay.json" trusted_returns)"
expect_eq "a trade log alone: the sandbox did not run" not_run "$(jget "$OUT/run.json" status)"
grep -qi "as given\|trusted" "$OUT/verdict.json" && ok "the summary says the log's returns are taken as given" ||
	not_ok "the summary says the log's returns are taken as given"
check "a trade-log bundle verifies" sh -c "cd '$OUT' && sha256sum -c --strict --quiet sha256sums.txt"

# --- bad knobs and bad data: a clear error, or a verdict with the reason ----------------------
if make --no-print-directory audit STRATEGY=demos/honest.py TRIALS=many NAME=$N >"$TMP/bad.log" 2>&1; then
	not_ok "TRIALS=many is refused"
else
	ok "TRIALS=many is refused"
fi
grep -q "TRIALS 'many' should be a whole number from 1 to 1000000" "$TMP/bad.log" && ok "TRIALS=many says what is wrong" ||
	not_ok "TRIALS=many says what is wrong" "$(tail -n 3 "$TMP/bad.log")"
if make --no-print-directory audit NAME=$N >"$TMP/none.log" 2>&1; then
	not_ok "an audit of nothing is refused"
else
	grep -q "give STRATEGY=file.py and/or TRADES=log.csv" "$TMP/none.log" && ok "an audit of nothing says what to give" ||
		not_ok "an audit of nothing says what to give" "$(tail -n 3 "$TMP/none.log")"
fi
head -n 50 data/ohlcv.csv >"$TMP/bad.csv"
echo "2030-01-01T00:00:00Z,nan,1,1,1,1" >>"$TMP/bad.csv"
rm -rf "$OUT"
# DATA is the operator's own input: a file the loader refuses stops the audit before any stage.
if make --no-print-directory audit STRATEGY=demos/honest.py DATA="$TMP/bad.csv" NAME=$N >"$TMP/baddata.log" 2>&1; then
	not_ok "bad DATA stops make audit with a non-zero exit"
else
	ok "bad DATA stops make audit with a non-zero exit"
fi
grep -qx "config: DATA '$TMP/bad.csv' cannot be used: line 51: open 'nan' is not a finite number (the layouts read: README.md, 'Give real data')" "$TMP/baddata.log" &&
	ok "bad DATA: the loader's reason, its line and a short pointer to the layouts" ||
	not_ok "bad DATA: the loader's reason, its line and a short pointer to the layouts" "$(tail -n 3 "$TMP/baddata.log")"
for f in run.json replay.json verdict.json; do
	[ -e "$OUT/$f" ] && not_ok "bad DATA: no stage ran ($f exists)" || ok "bad DATA: no stage ran ($f absent)"
done
printf 'time,open,high,low,close,volume\n2024-01-01T00:00:00Z,0x6a,110,100,105,1\n2024-01-01T01:00:00Z,105,110,100,105,1\n' >"$TMP/hex.csv"
make --no-print-directory audit STRATEGY=demos/honest.py DATA="$TMP/hex.csv" NAME=$N >"$TMP/hex.log" 2>&1 &&
	not_ok "hex DATA is refused" || ok "hex DATA is refused"
grep -q "line 2: open '0x6a' is not a finite number" "$TMP/hex.log" && ok "hex DATA: the line and the field" ||
	not_ok "hex DATA: the line and the field" "$(tail -n 2 "$TMP/hex.log")"
printf 'time,open,high,low,close,volume\n2024-01-01T00:00:00Z, 105,110,100,105,1\n2024-01-01T01:00:00Z,105,110,100,105,1\n' >"$TMP/pad.csv"
make --no-print-directory audit STRATEGY=demos/honest.py DATA="$TMP/pad.csv" NAME=$N >"$TMP/pad.log" 2>&1 &&
	not_ok "padded DATA is refused" || ok "padded DATA is refused"
grep -q "line 2: open ' 105' is not a finite number" "$TMP/pad.log" && ok "padded DATA: the line and the field" ||
	not_ok "padded DATA: the line and the field" "$(tail -n 2 "$TMP/pad.log")"
# Other valid data: the audit runs and does not call the data synthetic.
head -n 400 data/ohlcv.csv >"$TMP/short.csv"
rm -rf "$OUT"
check "an audit on other data exits 0" audit STRATEGY=demos/honest.py DATA="$TMP/short.csv"
expect_no_match "other data: the summary does not call it synthetic" "$OUT/verdict.json" synthetic
printf 'def signals(df:\n    return 0\n' >"$TMP/broken.py"
rm -rf "$OUT"
check "an audit of a syntax error still exits 0" audit STRATEGY="$TMP/broken.py"
expect_eq "a syntax error: nothing was judged, INCOMPLETE" INCOMPLETE "$(jget "$OUT/verdict.json" verdict)"
grep -q "Incomplete: nothing could be judged" "$OUT/verdict.json" && ok "a syntax error: the summary says so" ||
	not_ok "a syntax error: the summary says so" "$(jget "$OUT/verdict.json" summary)"
expect_eq "a syntax error: inspect gives its line" 1 "$(jget "$OUT/inspect.json" strategy.syntax_error.line)"
grep -q "because the strategy stopped with an error: line 1: SyntaxError: " "$TMP/audit.log" &&
	ok "a syntax error: the terminal names the error and its line" ||
	not_ok "a syntax error: the terminal names the error and its line" "$(tail -n 1 "$TMP/audit.log")"
expect_no_match "a syntax error: the terminal sends no one to run.json" "$TMP/audit.log" "in run.json" "see run.json"
printf 'import numpy as np\ndef signals(df):\n    return np.sign(df["close"] - df["close"].rolling(20).mean())\n' >"$TMP/warmup.py"
rm -rf "$OUT"
check "an audit of a strategy with a NaN warm-up exits 0" audit STRATEGY="$TMP/warmup.py"
expect_eq "NaN warm-up: the run is ok" ok "$(jget "$OUT/run.json" status)"
expect_eq "NaN warm-up: the 19 bars before the mean are flat" 19 "$(jget "$OUT/run.json" nan_as_flat)"
check "NaN warm-up: the report says so" grep -qF "signals() returned NaN or None on 19 bars" "$OUT/report.html"
"$PY" -c 'import json, sys; s = json.load(open(sys.argv[1]))["signals"]; sys.exit(not (s[:19] == [0] * 19 and any(s[19:])))' "$OUT/run.json" &&
	ok "NaN warm-up: flat on those bars, positions after" || not_ok "NaN warm-up: flat on those bars, positions after"
printf 'import numpy as np\ndef signals(df):\n    x = np.zeros(len(df))\n    x[0] = np.inf\n    return x\n' >"$TMP/inf.py"
rm -rf "$OUT"
check "an audit of an inf signal exits 0" audit STRATEGY="$TMP/inf.py"
grep -q "returned bad output: value inf at bar 0 is not -1, 0 or 1" "$TMP/audit.log" &&
	ok "bad output: the terminal names the value and its bar" ||
	not_ok "bad output: the terminal names the value and its bar" "$(tail -n 1 "$TMP/audit.log")"
rm -rf "$OUT"
# --- 2 000 daily bars: the bundle stays under 1.4 MB (its charts are palette PNGs; the curve
# files the charts are drawn from, 10 significant digits a number, add about 40 kB; the live
# decisions set beside the backtest, its curve backtest_equity.csv, live.png and the PDF's
# vector chart of the two, about 110 kB more: the bundle was 997 kB without them; the
# neighbourhood of the numbers in the demo's body, its returns' matrix, runs, table and surface,
# about 150 kB and a page more: 1.33 MB with them) -------------------------------------------
"$PY" - "$TMP/daily.csv" <<'PYEOF'
import datetime, sys
import numpy as np
# a seeded random walk of daily sessions, as a real market's closes are
rng = np.random.default_rng(3)
c = 100 * np.exp(np.cumsum(rng.normal(0.0004, 0.015, 2000)))
o = np.r_[100, c[:-1]] * np.exp(rng.normal(0, 0.002, 2000))
with open(sys.argv[1], "w") as f:
    f.write("Date,Open,High,Low,Close,Volume\n")
    d = datetime.date(2015, 1, 1)
    for i in range(2000):
        f.write("%s,%.4f,%.4f,%.4f,%.4f,1000\n" % (d + datetime.timedelta(days=i), o[i], max(o[i], c[i]) * 1.004,
                                                    min(o[i], c[i]) * 0.996, c[i]))
PYEOF
rm -rf "$OUT"
check "an audit of 2 000 daily bars exits 0" audit STRATEGY=demos/honest.py DATA="$TMP/daily.csv"
size=$(stat -c %s "$OUT/$N.zip")
if [ "$size" -lt 1400000 ]; then ok "2 000 daily bars: the bundle is under 1.4 MB ($size bytes)"
else not_ok "2 000 daily bars: the bundle is under 1.4 MB" "$size bytes"; fi
expect_no_match "2 000 daily bars: the page prints dates, not midnights" "$OUT/report.html" "T00:00:00Z"
check "2 000 daily bars: the trades table still dates every trade" grep -q '<td class="mono">2015-0[1-9]-[0-3][0-9]</td>' "$OUT/report.html"
# a market that rises some 30 times over: buy and hold beside the strategy on a log axis
"$PY" - "$TMP/daily.csv" "$TMP/rising.csv" <<'PYEOF'
import sys
rows = open(sys.argv[1]).read().splitlines()
with open(sys.argv[2], "w") as f:
    f.write(rows[0] + "\n")
    for i, r in enumerate(rows[1:]):
        d, *px, v = r.split(",")
        g = 1.0017 ** i
        f.write(",".join([d] + ["%.4f" % (float(x) * g) for x in px] + [v]) + "\n")
PYEOF
rm -rf "$OUT"
check "an audit of a rising daily market exits 0" audit STRATEGY=demos/honest.py DATA="$TMP/rising.csv"
check "a market that rises over 10x: the equity chart is on a log axis, and the page says so" \
	grep -q "The equity axis is logarithmic" "$OUT/report.html"
rm -rf "$OUT"
finish
