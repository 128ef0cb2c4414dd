#!/usr/bin/env bash
# formats.sh - the OHLCV loader on one million bars in every layout tests/data-formats/ has,
# next to pandas.read_csv of the same file (told the delimiter, header and compression; it
# neither parses the times nor checks a price). Targets: the native layout about as fast as
# before the layouts (~0.5 s here), every layout no slower than pandas (best of REPS), gzip at
# most 1.3x its uncompressed time: plain and gzip loads interleaved GZ_REPS times (which goes
# first alternates), the median of each round's ratio, in wall and in CPU time (user and system,
# every thread), so a loaded machine moves both sides alike. BARS=n changes the size.
. "$(dirname "$0")/../lib.sh"
BARS=${BARS:-1000000}
REPS=${REPS:-5}
GZ_REPS=${GZ_REPS:-15}

"$BIN/gendata" --bars "$BARS" --seed 5 -o "$TMP/bars.csv" || { not_ok "gendata"; finish; }
"$PY" tests/data-formats/make-layouts.py "$TMP/bars.csv" "$TMP/l" || { not_ok "make-layouts"; finish; }
# flat signals: replay then times the load and an all-flat replay (its compute is negligible)
"$PY" -c 'import json, sys; n = int(sys.argv[1]); json.dump({"ok": True, "status": "ok", "n_bars": n, "signals": [0] * n}, open(sys.argv[2], "w"))' "$BARS" "$TMP/run.json"
printf '{}\n' >"$TMP/config.json"

# load FILE: "bars wall_ms cpu_ms" of one load, as replay --timing reports it
load() {
	"$BIN/replay" --run "$TMP/run.json" --data "$1" --config "$TMP/config.json" -o "$TMP/r.json" \
		--trades-out "$TMP/t.csv" --equity-out "$TMP/e.csv" --timing 2>&1 >/dev/null |
		sed -n 's/.*bars=\([0-9]*\) .*load_ms=\([0-9.]*\) load_cpu_ms=\([0-9.]*\).*/\1 \2 \3/p'
}
# c_ms FILE: the loader's best wall time
c_ms() {
	local best=1e9 l
	for _ in $(seq "$REPS"); do
		l=$(load "$1")
		[ "${l%% *}" = "$BARS" ] || { echo "x"; return; }
		l=${l#* }
		best=$("$PY" -c "print(min($best, ${l%% *}))")
	done
	echo "$best"
}
# gz_pair NAME: NAME.csv and NAME.csv.gz loaded in turn GZ_REPS times, one "plain gzip" pair of
# "wall cpu" a line into $TMP/NAME.pairs; "x" when a load fails
gz_pair() {
	local a b i
	: >"$TMP/$1.pairs"
	for i in $(seq "$GZ_REPS"); do
		if [ $((i % 2)) = 1 ]; then a=$(load "$TMP/l/$1.csv"); b=$(load "$TMP/l/$1.csv.gz")
		else b=$(load "$TMP/l/$1.csv.gz"); a=$(load "$TMP/l/$1.csv"); fi
		[ "${a%% *}" = "$BARS" ] && [ "${b%% *}" = "$BARS" ] || { echo x; return; }
		echo "${a#* } ${b#* }" >>"$TMP/$1.pairs"
	done
}
# gz_ratios NAME: "wall_plain wall_gz wall_ratio cpu_plain cpu_gz cpu_ratio", medians (the
# ratios: the median of each round's own)
gz_ratios() {
	"$PY" - "$TMP/$1.pairs" <<'PYEOF'
import statistics, sys
rows = [[float(x) for x in line.split()] for line in open(sys.argv[1])]
med = lambda k: statistics.median(r[k] for r in rows)
ratio = lambda p, g: statistics.median(r[g] / r[p] for r in rows)
print("%.1f %.1f %.3f %.1f %.1f %.3f" % (med(0), med(2), ratio(0, 2), med(1), med(3), ratio(1, 3)))
PYEOF
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
GZ_TARGET=1.3
printf '# %-24s %-5s %10s %10s %7s %8s\n' "gzip, median of $GZ_REPS" time "plain ms" "gzip ms" ratio target
for g in native binance-klines; do
	[ "$(gz_pair "$g")" = x ] && { not_ok "$g.csv.gz: loads $BARS bars"; continue; }
	read -r wp wg wr cp cg cr <<<"$(gz_ratios "$g")"
	printf '# %-24s %-5s %10s %10s %7s %8s\n' "$g" wall "$wp" "$wg" "${wr}x" "<= ${GZ_TARGET}x"
	printf '# %-24s %-5s %10s %10s %7s %8s\n' "$g" cpu "$cp" "$cg" "${cr}x" "<= ${GZ_TARGET}x"
	check "$g.csv.gz: at most ${GZ_TARGET}x uncompressed in wall time (${wr}x: $wg vs $wp ms)" \
		"$PY" -c "assert $wr <= $GZ_TARGET"
	check "$g.csv.gz: at most ${GZ_TARGET}x uncompressed in CPU time (${cr}x: $cg vs $cp ms)" \
		"$PY" -c "assert $cr <= $GZ_TARGET"
done
finish
