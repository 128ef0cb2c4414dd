#!/usr/bin/env bash
# 10-data.sh - the synthetic OHLCV series: pinned bytes, accepted by the loader, deterministic.
. "$(dirname "$0")/../lib.sh"

# Changing the generator or its default seed changes this hash on purpose: update
# data/ohlcv.csv.sha256 (which fingerprint reads to call data synthetic) together with
# data/README.md, whose figures describe this exact file.
PINNED=$(cut -d' ' -f1 data/ohlcv.csv.sha256)

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

expect_eq "header" "time,open,high,low,close,volume,funding_rate" "$(head -n1 "$TMP/default.csv")"
expect_eq "two years of hourly bars" 17544 "$(($(wc -l <"$TMP/default.csv") - 1))"
expect_eq "first bar" "2024-01-01T00:00:00Z" "$(sed -n 2p "$TMP/default.csv" | cut -d, -f1)"
expect_eq "last bar" "2025-12-31T23:00:00Z" "$(tail -n1 "$TMP/default.csv" | cut -d, -f1)"

# The loader (through fingerprint, which loads the data it hashes) accepts every bar.
"$BIN/config" LOOKAHEAD_MAX=10 -o "$TMP/config.json" >/dev/null 2>&1
"$BIN/fingerprint" --data "$TMP/default.csv" --config "$TMP/config.json" -o "$TMP/fp.json" >/dev/null 2>&1
expect_eq "loader accepts the series" 17544 "$(jget "$TMP/fp.json" data_bars 2>/dev/null)"

# A knob that is not a finite number is refused, not written as null and then defaulted.
# The bundled series is known by its sha256, whatever path names it.
cp "$TMP/default.csv" "$TMP/copy of the series.csv"
for d in "$TMP/default.csv" "$TMP/copy of the series.csv" ./data/ohlcv.csv; do
	"$BIN/fingerprint" --data "$d" --config "$TMP/config.json" --synthetic data/ohlcv.csv.sha256 \
		-o "$TMP/fp-syn.json" >/dev/null 2>&1
	expect_eq "synthetic by its sha256: $(basename "$d")" true "$(jget "$TMP/fp-syn.json" data_synthetic)"
done
sed '$ s/,\([0-9.]*\)$/,1\1/' "$TMP/default.csv" >"$TMP/changed.csv"
"$BIN/fingerprint" --data "$TMP/changed.csv" --config "$TMP/config.json" --synthetic data/ohlcv.csv.sha256 \
	-o "$TMP/fp-syn.json" >/dev/null 2>&1
expect_eq "one volume changed: not the synthetic series" false "$(jget "$TMP/fp-syn.json" data_synthetic)"

# Hex, padding and out-of-range values too, each refused with the range from the knob table.
while IFS='|' read -r arg said; do
	rc=0
	"$BIN/config" "$arg" -o "$TMP/nan.json" >"$TMP/nan.log" 2>&1 || rc=$?
	expect_eq "$arg is a bad knob (exit 2)" 2 "$rc"
	grep -qF -- "$said" "$TMP/nan.log" && ok "$arg says what is wrong" ||
		not_ok "$arg says what is wrong" "$(cat "$TMP/nan.log")"
	[ ! -e "$TMP/nan.json" ] && ok "$arg writes no config.json" || not_ok "$arg writes no config.json"
done <<'CASES'
FEE_BPS=nan|FEE_BPS 'nan' should be a number from 0 to 1000
GATE_MAX_DD=nan|GATE_MAX_DD 'nan' should be a number from 0 to 1
FEE_BPS=0x10|FEE_BPS '0x10' should be a number from 0 to 1000
FEE_BPS= 5|FEE_BPS ' 5' should be a number
TRIALS=0|TRIALS '0' should be a whole number from 1 to 1000000
TRIALS=2.5|TRIALS '2.5' should be a whole number
WALL_S=86400|WALL_S '86400' should be a whole number from 1 to 3600
NOSUCH=1|'NOSUCH=1' is not KNOB=value
CASES
"$BIN/config" -o "$TMP/defaults.json" >/dev/null 2>&1
expect_eq "a knob not given takes the table's default" 1000000 "$(jget "$TMP/defaults.json" lookahead.max)"
"$BIN/config" --stamps "$TMP" TRIALS=7 -o "$TMP/stamped.json" >/dev/null 2>&1
expect_eq "the TRIALS stamp holds the knob's value" 7 "$(cat "$TMP/.knobs-TRIALS")"
expect_eq "a stamp per knob config.json holds, and no other" \
	"$(make --no-print-directory -s -f build/knobs.mk -f - <<<'all: ; @echo $(CONFIG_KNOBS)' | tr ' ' '\n' | sort | tr '\n' ' ')" \
	"$(cd "$TMP" && ls -A .knobs-* | sed 's/^\.knobs-//' | sort | tr '\n' ' ')"
before=$(stat -c %Y "$TMP/.knobs-FEE_BPS")
sleep 1
"$BIN/config" --stamps "$TMP" TRIALS=8 -o "$TMP/stamped.json" >/dev/null 2>&1
expect_eq "a stamp is rewritten only when its knob changed" "8 $before" \
	"$(cat "$TMP/.knobs-TRIALS") $(stat -c %Y "$TMP/.knobs-FEE_BPS")"

# Independent of the C loader: the rules the loader enforces hold on every row.
check "every row is a valid bar (python)" "$PY" - "$TMP/default.csv" <<'PYEOF'
import csv, math, sys
from datetime import datetime
rows = list(csv.reader(open(sys.argv[1])))[1:]
prev = None
for i, (t, o, h, l, c, v, fr) in enumerate(rows, start=2):
    o, h, l, c, v = map(float, (o, h, l, c, v))
    # the funding column marks a perpetual: the default rate at 00:00, 08:00, 16:00 UTC
    assert fr == ("0.0001" if t[11:13] in ("00", "08", "16") else "0"), f"line {i}: funding_rate"
    ts = datetime.strptime(t, "%Y-%m-%dT%H:%M:%SZ")
    assert prev is None or (ts - prev).total_seconds() == 3600, f"line {i}: not one hour after"
    assert all(math.isfinite(x) and x > 0 for x in (o, h, l, c)), f"line {i}: price"
    assert h >= max(o, c) and l <= min(o, c) and v >= 0, f"line {i}: bar shape"
    prev = ts
PYEOF
finish
