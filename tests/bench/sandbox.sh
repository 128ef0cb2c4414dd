#!/usr/bin/env bash
# tests/bench/sandbox.sh - cost of one sandboxed run, side by side: the trivial strategy in the
# sandbox (warm zygote, every layer), the same strategy with no sandbox (a warm interpreter
# calling signals(df)), and the naive design (a fresh python3 importing pandas per run).
# Beside it, as the floor, the same warm interpreter forking a bare child per run (no layer, no
# namespace, no cgroup): what a fresh process per run costs without the zygote's memory layout
# (huge-page arenas, the aligned heap, the frame built over inherited columns), on this machine.
# Targets: sandbox overhead <= 5 ms per run; sandbox >= 50x cheaper than a fresh interpreter.
set -u
cd "$(dirname "$0")/../.." || exit 3
. tests/bench/figure.sh
BIN=${BIN:-build/rel/bin}
PY=/usr/bin/python3
RUNS=${RUNS:-200}
NAIVE=${NAIVE:-10}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/strataudit-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

head -n 2001 data/ohlcv.csv >"$TMP/bars.csv" || exit 3
cat >"$TMP/strategy.py" <<'PY'
import numpy as np
def signals(df):
    return np.sign(df["close"].diff().fillna(0.0)).astype(int).values
PY
echo '{"limits": {"wall_s": 20, "cpu_s": 20, "mem_mb": 1024, "scratch_mb": 16, "nofile": 64}}' >"$TMP/config.json"

sandboxed=$("$BIN/sandbox" --strategy "$TMP/strategy.py" --data "$TMP/bars.csv" --config "$TMP/config.json" \
	-o "$TMP/run.json" --events "$TMP/events.jsonl" --repeat "$RUNS" --jobs 1 2>&1 |
	sed -n 's/.*: \([0-9.]*\) ms per run/\1/p')
parallel=$("$BIN/sandbox" --strategy "$TMP/strategy.py" --data "$TMP/bars.csv" --config "$TMP/config.json" \
	-o "$TMP/run.json" --events "$TMP/events.jsonl" --repeat "$RUNS" --jobs "$(nproc)" 2>&1 |
	sed -n 's/.*: \([0-9.]*\) ms per run/\1/p')

# bare MODE: ms a run of the strategy in a warm interpreter, MODE "call" (no sandbox) or "fork" (a
# bare child forked per run, sending its int8 signals back through a pipe: the floor).
bare() { "$PY" tests/bench/bare.py "$TMP/strategy.py" "$TMP/bars.csv" "$RUNS" "$1"; }
bare=$(bare call)
forked=$(bare fork)

t0=$(date +%s%N)
for _ in $(seq "$NAIVE"); do
	"$PY" -c 'import sys, runpy, pandas as pd, numpy as np
df = pd.read_csv(sys.argv[2], index_col="time", parse_dates=True)
np.asarray(runpy.run_path(sys.argv[1])["signals"](df), dtype=np.int8)' "$TMP/strategy.py" "$TMP/bars.csv"
done
naive=$(( ($(date +%s%N) - t0) / NAIVE / 1000 ))
naive=$(awk -v u="$naive" 'BEGIN { printf "%.2f", u / 1000 }')

overhead=$(awk -v s="$sandboxed" -v b="$bare" 'BEGIN { printf "%.2f", s - b }')
floor=$(awk -v f="$forked" -v b="$bare" 'BEGIN { printf "%.2f", f - b }')
ratio=$(awk -v s="$sandboxed" -v n="$naive" 'BEGIN { printf "%.1f", n / s }')
printf 'sandbox bench: trivial strategy, 2000 bars, %d runs\n' "$RUNS"
printf '  sandboxed run (1 at a time)      %8s ms\n' "$sandboxed"
printf '  sandboxed run (%d at once)        %8s ms per run\n' "$(nproc)" "$parallel"
printf '  same strategy, no sandbox        %8s ms\n' "$bare"
printf '  same strategy, forked bare child %8s ms\n' "$forked"
printf '  fresh python3 + pandas per run   %8s ms\n' "$naive"
bench_figure "sandbox overhead per run, 2000 bars" "$overhead ms" "<= 5 ms" "$floor ms, a plain interpreter's bare fork per run" \
	"$(awk -v o="$overhead" 'BEGIN { print (o <= 5) }')"
bench_figure "fresh interpreter / sandboxed run" "${ratio}x" ">= 50x" "-" \
	"$(awk -v r="$ratio" 'BEGIN { print (r >= 50) }')"
