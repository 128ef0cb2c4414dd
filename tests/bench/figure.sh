# tests/bench/figure.sh - sourced by the bench scripts: one line per target, the same shape
# everywhere, and a row of the summary `tests/bench/run` prints at the end.
#
# bench_figure NAME MEASURED TARGET FLOOR OK: prints "NAME: MEASURED (target TARGET, floor
# FLOOR): ok|MISSED" and appends the row to $BENCH_SUMMARY when it is set. FLOOR is what the
# figure cannot go below on this machine whatever the code did (a dash when there is none), OK
# is 1 when the target is met.
bench_figure() {
	local verdict=MISSED
	[ "$5" = 1 ] && verdict=ok
	printf '  %s: %s (target %s, floor %s): %s\n' "$1" "$2" "$3" "$4" "$verdict"
	[ -n "${BENCH_SUMMARY:-}" ] && printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$verdict" >>"$BENCH_SUMMARY"
	return 0
}

# bench_figures: passes its input through, turning each line "FIGURE|NAME|MEASURED|TARGET|FLOOR|OK"
# (what the scripts' Python prints) into bench_figure's line.
bench_figures() {
	local line name measured target floor ok
	while IFS= read -r line; do
		case $line in
		FIGURE\|*)
			IFS='|' read -r _ name measured target floor ok <<<"$line"
			bench_figure "$name" "$measured" "$target" "$floor" "$ok"
			;;
		*) printf '%s\n' "$line" ;;
		esac
	done
}
