/* costs.h - the cost model as config.json gives it: fees and slippage per side, the market and
 * its holding costs (a perp's funding per 8 h, a short's borrow on stock and spot), read once
 * for every stage that replays (replay, robust, sealed, variants, stats). */
#ifndef SA_COSTS_H
#define SA_COSTS_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "replay_core.h"

/* Reads costs {fee_bps, slippage_bps, funding_bps_8h, funding_income, borrow_bps_year, market,
 * spread_floor, min_commission_stock, stake, swap_long_bps_year, swap_short_bps_year}
 * from a config tree (borrowed), each checked against its knob's range (the row's default when
 * absent); market stays RP_MARKET_AUTO when unset, and the fee the exits' rules read is the fee
 * charged (rules_fee_set false), no callbacks attached (calls NULL). Returns 0, or -1 with the
 * reason in err. */
int rp_read_costs(const cJSON *cfg, struct rp_costs *c, char *err, size_t errlen);

/* What the bars say about the prices they record: the bid-ask spread they imply and how stale
 * they are. Spreads are fractions of the price (0.01: 1 %), NAN when the bars cannot give one. */
struct rp_spread {
	size_t bars;            /* bars with positive prices, in order */
	double roll;            /* Roll (1984): 2 sqrt(-cov(r_t, r_t-1)) of the close-to-close log
				 * returns, 0 when the covariance is not negative */
	double corwin_schultz;  /* Corwin and Schultz (2012, eq. 14, negative two-bar estimates set
				 * to 0, the overnight gap adjusted as in their section 3.2), the mean
				 * over consecutive pairs of bars */
	double abdi_ranaldo;    /* Abdi and Ranaldo (2017, eq. 10): sqrt(max(0, 4 mean((c_t - eta_t)
				 * (c_t - eta_t+1)))), c the log close, eta the log mid-range */
	double estimate;        /* the least of the three: the spread they all find; NAN when
				 * none is defined */
	double returns_lag1;    /* lag-1 autocorrelation of the close-to-close simple returns */
	double zero_returns;    /* share of bars whose close equals the previous bar's */
};

/* Estimates the spread and the staleness of s's bars into e. Needs 3 bars with positive
 * prices for any figure (else NAN). Never fails, allocates nothing. */
void rp_spread_estimate(const struct da_ohlcv *s, struct rp_spread *e);

/* Sets c->spread_floor_bps to c->spread_floor times half the spread s implies (e's estimate,
 * or computed when e is NULL), in bps; 0 when it cannot be estimated (s and e NULL: no bars)
 * or no floor is asked. */
void rp_costs_floor(struct rp_costs *c, const struct da_ohlcv *s, const struct rp_spread *e);

/* FX rollover: the market's day ends at 17:00 New York (21:00 UTC while the US keeps summer
 * time, from the second Sunday of March to the first Sunday of November, 22:00 UTC otherwise),
 * and a position held over it pays (or earns) a night's swap; Wednesday's counts three nights,
 * as spot settles two business days on and its value date then moves over a weekend; no
 * rollover falls on a Saturday or Sunday. The nights, so weighted, whose instant falls in
 * [a, b) (UTC seconds). */
double rp_rollover_nights(int64_t a, int64_t b);

/* The FX rollover instant of UTC day `day` (days since the epoch), and its nights (0 on a
 * weekend, 3 on Wednesday, else 1) into *nights. */
int64_t rp_rollover_instant(int64_t day, int *nights);

/* A night's swap, of the unit notional, for a position of side (+1, -1) under c: the side's
 * rate in bps a year over 360 days (the money-market year of USD and EUR), 0 when flat. */
double rp_rollover_rate(const struct rp_costs *c, int side);

/* What a bar's swap column (bps a year) is multiplied by to give a night's swap of the unit
 * notional: over 360 days, times rp_costs_scaled's k when c is scaled. */
double rp_swap_column_scale(const struct rp_costs *c);

/* A night's swap for side in bar j of s: the data's swap_long or swap_short that bar when s
 * carries the columns (they replace the knobs bar by bar), else rp_rollover_rate's. */
double rp_rollover_rate_bar(const struct rp_costs *c, const struct da_ohlcv *s, size_t j, int side);

#endif
