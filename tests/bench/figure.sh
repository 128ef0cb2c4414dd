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

# CPU of a command and of everything it starts, whatever reaps it: a cpuacct cgroup where the
# machine has one (the sandbox moves its zygote into its own memory, pids and cpu cgroups, not
# this hierarchy), else the whole machine's busy time from /proc/stat (coarser: other work on
# the machine counts too). The processes' own rusage undercounts: runs reaped by a zygote that
# is killed at the end are never summed.
#
# bench_cg_init: makes the cgroup (BENCH_CG, empty when there is none); the caller's EXIT trap
# removes it with bench_cg_done.
bench_cg_init() {
	BENCH_CG=
	if [ "$(id -u)" = 0 ] && [ -w /sys/fs/cgroup/cpuacct ]; then
		BENCH_CG=/sys/fs/cgroup/cpuacct/strataudit-bench-$$
		mkdir -p "$BENCH_CG" || BENCH_CG=
	fi
}
bench_cg_done() { [ -n "${BENCH_CG:-}" ] && rmdir "$BENCH_CG" 2>/dev/null; return 0; }
# bench_busy_s: CPU seconds so far, of the cgroup or the whole machine
bench_busy_s() {
	if [ -n "${BENCH_CG:-}" ]; then awk '{ print $1 / 1e9 }' "$BENCH_CG/cpuacct.usage"
	else awk '/^cpu / { print ($2 + $3 + $4 + $7 + $8) / 100 }' /proc/stat; fi
}
# bench_in_cg CMD...: runs CMD inside the cgroup
bench_in_cg() {
	sh -c '[ -n "$1" ] && echo $$ >"$1/cgroup.procs"; shift; exec "$@"' sh "${BENCH_CG:-}" "$@"
}
