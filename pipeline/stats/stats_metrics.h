/* stats_metrics.h - the risk figures a quant reads first beside the Sharpe ratio: annualised
 * volatility, historical VaR and CVaR per bar, the best and worst bar and month, yearly returns
 * beside buy and hold's, a rolling volatility, and the trades split into longs and shorts. */
#ifndef STATS_METRICS_H
#define STATS_METRICS_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "stats_tearsheet.h"

/* The quantile VaR and CVaR are taken at: the worst 5 % of bars. */
#define STS_VAR_LEVEL 0.05

/* Historical VaR and CVaR of x[0..n) at level: *var the level quantile (linear between order
 * statistics, as GSL and numpy's default take it), *cvar the mean of the values at or below
 * it; both returns, so a loss is negative. Returns 0, or -1 (both NAN) when n is 0 or memory
 * ran out. */
int sts_var_cvar(const double *x, size_t n, double level, double *var, double *cvar);

/* Adds volatility_annualised, var_95, cvar_95, best_bar, worst_bar (the per-bar returns of the
 * compounded net curve, st_curve_returns), omega (their gains over losses at 0), tail_ratio
 * (their 95th percentile over the 5th's magnitude), best_day and worst_day (of the compounded
 * curve by UTC calendar day), best_month, worst_month (of o's "monthly", which sts_tearsheet added),
 * yearly_benchmark (buy and hold's return per calendar year, as "yearly" takes the
 * strategy's), rolling_volatility (window, min, max, last) and long_short ({long, short}:
 * trades, net_return, win_rate, sharpe) to o, with metrics_basis saying how each is taken.
 * A figure that cannot be computed is null. Returns 0, or -1 when memory ran out. */
int sts_metrics(cJSON *o, const struct sts_tearsheet_in *in);

#endif
