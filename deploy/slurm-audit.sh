#!/bin/sh
# deploy/slurm-audit.sh - one array task: audits the strategy on line SLURM_ARRAY_TASK_ID + 1
# of the names file (submitted by slurm-night.sh, which exports STRATEGIES, NIGHT and
# NIGHT_TOTAL and sends the log to out/nightly/NIGHT/logs/).
#SBATCH --job-name=strataudit-audit
#SBATCH --cpus-per-task=2
#SBATCH --mem=2G
#SBATCH --time=00:30:00
#SBATCH --output=out/nightly/slurm-%A_%a.log
set -eu
name=$(sed -n "$((SLURM_ARRAY_TASK_ID + 1))p" "${1:?names file}")
exec make --no-print-directory "nightly-one/$name" STRATEGIES="$STRATEGIES" NIGHT="$NIGHT" \
	SANDBOX_JOBS="${SLURM_CPUS_PER_TASK:-2}"
