#!/usr/bin/env bash
# formats.sh - the OHLCV loader on one million bars in every layout tests/data-formats/ has,
# next to pandas.read_csv of the same file (told the delimiter, header and compression; it
# neither parses the times nor checks a price). Targets: the native layout about as fast as
# before the layouts (~0.5 s here), every layout no slower than pandas, gzip at most 1.3x its
# uncompressed time. Best of REPS. BARS=n changes the size.
. "$(dirname "$0")/../lib.sh"
BARS=${BARS:-1000000}
REPS=${REPS:-5}

"$BIN/gendata" --bars "$BARS" --seed 5 -o "$TMP/bars.csv" || { not_ok "gendata"; finish; }
"$PY" tests/data-formats/make-layouts.py "$TMP/bars.csv" "$TMP/l" || { not_ok "make-layouts"; finish; }
# flat signals: replay then times the load and an all-flat replay (its compute is negligible)
"$PY" -c 'import json, sys; n = int(sys.argv[1]); json.dump({"ok": True, "status": "ok", "n_bars": n, "signals": [0] * n}, open(sys.argv[2], "w"))' "$BARS" "$TMP/run.json"
printf '{}\n' >"$TMP/config.json"

# c_ms FILE: the loader's best time, as replay --timing reports it
c_ms() {
	local best=1e9 l
	for _ in $(seq "$REPS"); do
		l=$("$BIN/replay" --run "$TMP/run.json" --data "$1" --config "$TMP/config.json" -o "$TMP/r.json" \
			--trades-out "$TMP/t.csv" --equity-out "$TMP/e.csv" --timing 2>&1 >/dev/null |
			sed -n 's/.*bars=\([0-9]*\) .*load_ms=\([0-9.]*\).*/\1 \2/p')
		[ "${l%% *}" = "$BARS" ] || { echo "x"; return; }
		best=$("$PY" -c "print(min($best, ${l#* }))")
	done
	echo "$best"
}
# py_ms FILE SEP HEADER: pandas.read_csv's best time
py_ms() {
	"$PY" - "$1" "$2" "$3" "$REPS" <<'PYEOF'
import sys, time
import pandas as pd
path, sep, header, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
sep = "\t" if sep == "tab" else sep
best = 1e9
for _ in range(reps):
    t0 = time.perf_counter()
    pd.read_csv(path, sep=sep, header=0 if header == "yes" else None)
    best = min(best, (time.perf_counter() - t0) * 1e3)
print("%.1f" % best)
PYEOF
}

printf '# %-24s %10s %10s %8s\n' layout "loader ms" "pandas ms" MB
declare -A C
while read -r f sep header; do
	c=$(c_ms "$TMP/l/$f")
	p=$(py_ms "$TMP/l/$f" "$sep" "$header")
	C[$f]=$c
	printf '# %-24s %10s %10s %8s\n' "$f" "$c" "$p" "$(($(stat -c %s "$TMP/l/$f") / 1000000))"
	if [ "$c" = x ]; then not_ok "$f: loads $BARS bars"; continue; fi
	check "$f: no slower than pandas.read_csv ($c vs $p ms)" "$PY" -c "assert $c <= $p"
done <<'LAYOUTS'
native.csv , yes
native.csv.gz , yes
yahoo.csv , yes
pandas.csv , yes
offset.csv , yes
binance-klines.csv , no
binance-klines.csv.gz , no
ccxt.csv , no
semicolon.csv ; yes
tab.tsv tab yes
no-volume.csv , yes
LAYOUTS
check "native: about 0.5 s or less (${C[native.csv]} ms)" "$PY" -c "assert ${C[native.csv]} <= 600"
for g in native binance-klines; do
	check "$g.csv.gz: at most 1.3x uncompressed (${C[$g.csv.gz]} vs ${C[$g.csv]} ms)" \
		"$PY" -c "assert ${C[$g.csv.gz]} <= 1.3 * ${C[$g.csv]}"
done
finish
