/* stats_market.h - stats.json "benchmark_relative": what the strategy earns beyond holding
 * the instrument it trades, and the tail its trades have (or have not) met. */
#ifndef STATS_MARKET_H
#define STATS_MARKET_H

#include <cjson/cJSON.h>

#include "stats_core.h"
#include "stats_io.h"

/* Adds benchmark_relative {bars, beta, beta_t, alpha_annualised, alpha_t, excess_return,
 * information_ratio, r_squared, lags, method} to o, or null with benchmark_relative_reason
 * (no per-bar curve, as for a trade log; no price data; a curve not on the data's bars).
 * Returns 0, or -1 when memory ran out. */
int sts_market_report(cJSON *o, const struct sts_stage_in *in);

/* Adds tail {losing_trades, worst_trade, win_rate, implied_worst, z, unseen, reason, rule} to o:
 * whether the trades have met a loss of the size their own volatility implies (s, the
 * summary, borrowed). */
void sts_tail_report(cJSON *o, const struct sts_stage_in *in, const struct st_summary *s);

#endif
