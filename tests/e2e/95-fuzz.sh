#!/usr/bin/env bash
# 95-fuzz.sh - each libFuzzer target of the loaders (tests/fuzz/) for FUZZ_TEST_S seconds (30),
# seeded from tests/data-formats/: no crash, no leak, no undefined behaviour, and it ran.
. "$(dirname "$0")/../lib.sh"
S=${FUZZ_TEST_S:-30}

check "the fuzz targets build (clang, -fsanitize=fuzzer)" make --no-print-directory fuzz-bins
for t in fuzz_ohlcv fuzz_freqtrade fuzz_tradelog fuzz_gunzip; do
	if tests/fuzz/run "$S" "$t" >"$TMP/$t.out" 2>&1; then
		ok "$t: $S s without a crash ($(cat "$TMP/$t.out"))"
	else
		not_ok "$t: $S s without a crash" "$(cat "$TMP/$t.out")" "$(grep -A12 'ERROR' "build/fuzz/$t.log" | head -n 14)"
	fi
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "build/fuzz/$t.log" | tail -n1)
	[ "${runs:-0}" -gt 1000 ] && ok "$t: ran ($runs inputs)" || not_ok "$t: ran" "${runs:-0} inputs"
done

finish
