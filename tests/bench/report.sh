#!/usr/bin/env bash
# tests/bench/report.sh - how long rendering the whole bundle (report + bundle) takes, best of 3.
# Renders the honest demo's bundle (audited first when out/honest does not exist yet).
set -u
cd "$(dirname "$0")/../.." || exit 3
. tests/bench/figure.sh
BIN=build/rel/bin
src=out/honest data=data/ohlcv.csv
if [ ! -f out/honest/verdict.json ]; then
	make --no-print-directory audit STRATEGY=demos/honest.py TRIALS=3 >/dev/null || exit 3
fi
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
best=
for _ in 1 2 3; do
	rm -rf "$tmp/b" && mkdir "$tmp/b"
	find "$src" -maxdepth 1 -type f ! -name '*.png' ! -name '*.zip' ! -name 'report.*' ! -name sha256sums.txt ! -name '.*' \
		-exec cp {} "$tmp/b/" \;
	t0=$(date +%s%N)
	"$BIN/report" --dir "$tmp/b" --name bench --templates templates --data "$data" &&
		"$BIN/bundle" --dir "$tmp/b" --name bench || exit 3
	ms=$((($(date +%s%N) - t0) / 1000000))
	if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
done
bench_figure "report bundle ($src)" "$best ms" "< 1000 ms" "-" "$([ "$best" -lt 1000 ] && echo 1)"
