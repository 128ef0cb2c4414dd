#!/usr/bin/env bash
# tests/bench/nightly.sh - a night over twenty demo-sized strategies (the honest demo with
# twenty different spans, so no two share a code sha256): wall time at -j1 and -j2, and the
# speedup. COUNT=n changes the number of strategies.
set -u
cd "$(dirname "$0")/../.." || exit 3
COUNT=${COUNT:-20}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/strataudit-bench.XXXXXX")
trap 'rm -rf "$TMP" out/benchnight_* out/nightly/bench-j1 out/nightly/bench-j2' EXIT

for i in $(seq 1 "$COUNT"); do
	sed "s/span=96/span=$((60 + 4 * i))/" demos/honest.py >"$TMP/benchnight_$i.py"
done

run() { # jobs: one fresh night (no history, no earlier results), prints seconds
	rm -rf out/benchnight_* "$TMP/history.sqlite"
	local t0 t1
	t0=$(date +%s.%N)
	NIGHT_DB=$TMP/history.sqlite make --no-print-directory -j"$1" nightly STRATEGIES="$TMP" \
		NIGHT=bench-j"$1" >"$TMP/j$1.log" 2>&1 || { echo "nightly: the -j$1 night failed" >&2; tail "$TMP/j$1.log" >&2; exit 3; }
	t1=$(date +%s.%N)
	"${PY:-/usr/bin/python3}" -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$t1"
}

j1=$(run 1)
j2=$(run 2)
printf 'nightly: %d strategies, -j1 %ss, -j2 %ss, speedup %s\n' "$COUNT" "$j1" "$j2" \
	"$(/usr/bin/python3 -c "import sys; print('%.2fx' % (float(sys.argv[1]) / float(sys.argv[2])))" "$j1" "$j2")"
