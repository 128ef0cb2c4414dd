#!/bin/sh
# deploy/slurm-finish.sh - runs after every array task: the night's index, history and mail
# (submitted by slurm-night.sh, which exports NIGHT; MAIL_TO and the rest come from its caller).
#SBATCH --job-name=strataudit-finish
#SBATCH --cpus-per-task=1
#SBATCH --mem=512M
#SBATCH --time=00:15:00
#SBATCH --output=out/nightly/slurm-%j.log
set -eu
exec scripts/nightly finish
