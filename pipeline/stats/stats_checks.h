/* stats_checks.h - the tests run on the strategy itself, written into stats.json: Hansen's SPA
 * and walk-forward selection over the declared variants' return matrix, and a Monte Carlo of
 * the closed trades. */
#ifndef STATS_CHECKS_H
#define STATS_CHECKS_H

#include <cjson/cJSON.h>

#include "stats_io.h"

/* Adds spa, walk_forward and monte_carlo to o (each the object, or null with spa_reason,
 * walk_forward_reason or monte_carlo_reason saying why). The knobs WALKFORWARD_WINDOWS,
 * MONTE_CARLO and BOOTSTRAP_SEED come from in->config; annual_factor is sqrt(bars a year) (NAN
 * when unknown: the annualised Sharpe ratios are then null). Returns 0, or -1 when out of
 * memory. */
int sts_checks_report(cJSON *o, const struct sts_stage_in *in, double annual_factor);

#endif
