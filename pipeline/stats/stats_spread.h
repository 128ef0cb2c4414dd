/* stats_spread.h - the prices the trades could have been filled at: the spread the bars imply,
 * how stale they are, the slippage floor the replay charged, and whether the edge survives a
 * fill one bar later and the estimated spread (stats.json tradeable_prices and bounce). */
#ifndef STATS_SPREAD_H
#define STATS_SPREAD_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "ohlcv.h"
#include "replay_core.h"

/* Adds tradeable_prices to o from the bars s (or null with tradeable_prices_reason when s is
 * NULL, why says why), with c the replay's cost model (its floor already set by rp_costs_floor),
 * and bounce: the headline net return (net_return, stats.json's) beside replays of signals
 * filled one bar later and at the configured slippage without the floor (null with
 * bounce_reason when s or signals is NULL). Returns 0, or -1 when memory ran out. */
int sts_spread_report(cJSON *o, const struct da_ohlcv *s, const int8_t *signals,
		      const struct rp_costs *c, double net_return, const char *why);

#endif
