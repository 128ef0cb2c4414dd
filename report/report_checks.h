/* report_checks.h - the report's account of the tests run on the strategy itself: Hansen's SPA
 * over the declared variants (a sentence in the Trials section), walk-forward selection (a
 * chart of the stitched out-of-sample equity against the best variant in hindsight) and the
 * Monte Carlo of the closed trades (a fan chart, the real drawdown placed among them). */
#ifndef RPT_CHECKS_H
#define RPT_CHECKS_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "report_input.h"

/* Draws dir/walkforward.png and dir/montecarlo.png from the stats stage's walkforward.csv and
 * montecarlo_fan.csv (the real order of the trades from trades.csv) and stats.json's
 * walk_forward and monte_carlo; each says why when there is nothing to draw. Returns 0, or -1 with err set when a file could not be written. */
int rpt_checks_charts(const char *dir, const struct rpt_input *in, char *err, size_t errlen);

/* Adds "spa", "walk_forward" and "monte_carlo" to the template context model: false, or the
 * figures and a plain sentence each. Returns 0, or -1 when out of memory. */
int rpt_checks_model(cJSON *model, const struct rpt_input *in);

#endif
