#!/usr/bin/env bash
# 95-fuzz.sh - each libFuzzer target of the loaders (tests/fuzz/) for FUZZ_TEST_S seconds (30),
# FUZZ_JOBS at once, seeded from tests/data-formats/: no crash, no leak, no undefined behaviour,
# and it ran.
. "$(dirname "$0")/../lib.sh"
S=${FUZZ_TEST_S:-30}

check "the fuzz targets build (clang, -fsanitize=fuzzer)" make --no-print-directory fuzz-bins
# every target at once, FUZZ_JOBS at a time (tests/fuzz/run); each judged on its own line
tests/fuzz/run "$S" fuzz_ohlcv fuzz_freqtrade fuzz_feather fuzz_tradelog fuzz_gunzip >"$TMP/all.out" 2>&1
for t in fuzz_ohlcv fuzz_freqtrade fuzz_feather fuzz_tradelog fuzz_gunzip; do
	line=$(grep "^$t " "$TMP/all.out")
	case $line in
	*" ok, "*) ok "$t: $S s without a crash ($line)" ;;
	*) not_ok "$t: $S s without a crash" "${line:-no line: $(cat "$TMP/all.out")}" \
		"$(grep -A12 'ERROR' "build/fuzz/$t.log" | head -n 14)" ;;
	esac
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "build/fuzz/$t.log" | tail -n1)
	[ "${runs:-0}" -gt 1000 ] && ok "$t: ran ($runs inputs)" || not_ok "$t: ran" "${runs:-0} inputs"
done

finish
