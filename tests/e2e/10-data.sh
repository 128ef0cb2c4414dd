#!/usr/bin/env bash
# 10-data.sh - the synthetic OHLCV series: pinned bytes, accepted by the loader, deterministic.
. "$(dirname "$0")/../lib.sh"

# Changing the generator or its default seed changes this hash on purpose: update it together
# with data/README.md, whose figures describe this exact file.
PINNED=fd3fc6588dd958891198de26692e98c860624464d3707fd76004af1c059f3c9d

check "gendata --help exits 0" "$BIN/gendata" --help
"$BIN/gendata" --bars 1 -o "$TMP/x.csv" >/dev/null 2>&1
expect_eq "gendata rejects --bars 1 with exit 2" 2 $?
"$BIN/gendata" --start 2024-13-01 -o "$TMP/x.csv" >/dev/null 2>&1
expect_eq "gendata rejects a bad start date with exit 2" 2 $?

"$BIN/gendata" -o "$TMP/default.csv"
expect_eq "default series has the pinned sha256" "$PINNED" "$(sha256sum <"$TMP/default.csv" | cut -d' ' -f1)"
if [ -f data/ohlcv.csv ]; then
	expect_eq "data/ohlcv.csv is the default series" "$PINNED" "$(sha256sum <data/ohlcv.csv | cut -d' ' -f1)"
else
	not_ok "data/ohlcv.csv exists (make data/ohlcv.csv)"
fi

"$BIN/gendata" --seed 77 --bars 500 -o "$TMP/a.csv"
"$BIN/gendata" --seed 77 --bars 500 -o "$TMP/b.csv"
"$BIN/gendata" --seed 78 --bars 500 -o "$TMP/c.csv"
check "same seed gives identical bytes" cmp "$TMP/a.csv" "$TMP/b.csv"
if cmp -s "$TMP/a.csv" "$TMP/c.csv"; then not_ok "another seed gives another series"; else ok "another seed gives another series"; fi
expect_eq "--bars counts rows" 501 "$(wc -l <"$TMP/a.csv")"
"$BIN/gendata" --start 2025-03-01 --bars 3 -o "$TMP/s.csv"
expect_eq "--start sets the first bar" "2025-03-01T02:00:00Z" "$(sed -n 4p "$TMP/s.csv" | cut -d, -f1)"

expect_eq "header" "time,open,high,low,close,volume" "$(head -n1 "$TMP/default.csv")"
expect_eq "two years of hourly bars" 17544 "$(($(wc -l <"$TMP/default.csv") - 1))"
expect_eq "first bar" "2024-01-01T00:00:00Z" "$(sed -n 2p "$TMP/default.csv" | cut -d, -f1)"
expect_eq "last bar" "2025-12-31T23:00:00Z" "$(tail -n1 "$TMP/default.csv" | cut -d, -f1)"

# The loader (through fingerprint, which loads the data it hashes) accepts every bar.
"$BIN/fingerprint" config --trials 1 --fee-bps 5 --slippage-bps 2 --funding-bps-8h 1 --wall-s 20 \
	--cpu-s 20 --mem-mb 1024 --scratch-mb 16 --nofile 64 --lookahead-max 10 --lookahead-seed 1 \
	--min-trades 100 --min-psr 0.95 --min-dsr 0.95 --max-dd 0.25 -o "$TMP/config.json" >/dev/null 2>&1
"$BIN/fingerprint" --data "$TMP/default.csv" --config "$TMP/config.json" -o "$TMP/fp.json" >/dev/null 2>&1
expect_eq "loader accepts the series" 17544 "$(jget "$TMP/fp.json" data_bars 2>/dev/null)"

# A knob that is not a finite number is refused, not written as null and then defaulted.
for knob in fee-bps max-dd; do
	args=(--trials 1 --fee-bps 5 --slippage-bps 2 --funding-bps-8h 1 --wall-s 20 --cpu-s 20
		--mem-mb 1024 --scratch-mb 16 --nofile 64 --lookahead-max 10 --lookahead-seed 1
		--min-trades 100 --min-psr 0.95 --min-dsr 0.95 --max-dd 0.25 --"$knob" nan)
	rc=0
	"$BIN/fingerprint" config "${args[@]}" -o "$TMP/nan.json" >"$TMP/nan.log" 2>&1 || rc=$?
	expect_eq "--$knob nan is a bad knob (exit 2)" 2 "$rc"
	grep -q -- "--$knob 'nan' should be a number" "$TMP/nan.log" && ok "--$knob nan says what is wrong" ||
		not_ok "--$knob nan says what is wrong" "$(cat "$TMP/nan.log")"
done

# Independent of the C loader: the rules the loader enforces hold on every row.
check "every row is a valid bar (python)" "$PY" - "$TMP/default.csv" <<'PYEOF'
import csv, math, sys
from datetime import datetime
rows = list(csv.reader(open(sys.argv[1])))[1:]
prev = None
for i, (t, o, h, l, c, v) in enumerate(rows, start=2):
    o, h, l, c, v = map(float, (o, h, l, c, v))
    ts = datetime.strptime(t, "%Y-%m-%dT%H:%M:%SZ")
    assert prev is None or (ts - prev).total_seconds() == 3600, f"line {i}: not one hour after"
    assert all(math.isfinite(x) and x > 0 for x in (o, h, l, c)), f"line {i}: price"
    assert h >= max(o, c) and l <= min(o, c) and v >= 0, f"line {i}: bar shape"
    prev = ts
PYEOF
finish
