#!/bin/sh
# deploy/slurm-night.sh - a night on a Slurm cluster: one array task per strategy
# (slurm-audit.sh), then one dependent job (slurm-finish.sh) that builds the index and mails.
# Run from the project folder on a login node; out/ must be on a filesystem every node shares.
# Usage: deploy/slurm-night.sh STRATEGIES_DIR [NIGHT]
# Prints one line naming the two jobs; each job logs into out/nightly/NIGHT/logs/slurm-*.log.
set -eu
STRATEGIES=${1:?usage: deploy/slurm-night.sh STRATEGIES_DIR [NIGHT]}
NIGHT=${2:-$(date -u +%F)}
export STRATEGIES NIGHT

make --no-print-directory VARIANT=rel all data/ohlcv.csv
mkdir -p "out/nightly/$NIGHT/logs"
# the same naming rule as the Makefile: one audit per stem of a .py or .csv
names=out/nightly/$NIGHT/names.txt
find "$STRATEGIES" -maxdepth 1 -type f \( -name '*.py' -o -name '*.csv' \) -printf '%f\n' |
	sed 's/\.[^.]*$//' | LC_ALL=C sort -u >"$names"
NIGHT_TOTAL=$(wc -l <"$names")
export NIGHT_TOTAL
scripts/nightly start
if [ "$NIGHT_TOTAL" -eq 0 ]; then
	scripts/nightly finish
	exit 0
fi
logs=out/nightly/$NIGHT/logs
# --parsable prints "jobid" or "jobid;cluster"
array=$(sbatch --parsable --chdir="$PWD" --array="0-$((NIGHT_TOTAL - 1))" --export=ALL \
	--output="$logs/slurm-%A_%a.log" deploy/slurm-audit.sh "$names")
array=${array%%;*}
# afterany: the index and the mail go out even when some audits failed
finish=$(sbatch --parsable --chdir="$PWD" --dependency="afterany:$array" --export=ALL \
	--output="$logs/slurm-%j.log" deploy/slurm-finish.sh)
finish=${finish%%;*}
echo "slurm-night: $NIGHT: $NIGHT_TOTAL audits in array job $array, index and mail in job $finish"
