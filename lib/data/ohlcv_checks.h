/* ohlcv_checks.h - what a user should hear about their bars before trusting an audit on them:
 * a volume of zero throughout, a jump between bars far beyond the bars' own volatility (a split
 * left unadjusted, a bad tick), and the price step against the modelled slippage. */
#ifndef SA_OHLCV_CHECKS_H
#define SA_OHLCV_CHECKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ohlcv.h"

struct da_ohlcv_checks {
	bool volume_zero;     /* a volume column whose every value is 0 */
	size_t jumps;         /* opens this many robust volatilities or more from the last close */
	int64_t jump_time;    /* the largest such jump's bar */
	double jump_move;     /* its move, open / previous close - 1 */
	double jump_sigmas;   /* its size in robust volatilities of the close-to-close returns */
	double price_step;    /* the smallest step between two closes (the tick), 0 unknown */
	double price_step_bps;/* that step at the median close, in bps */
};

/* Checks s: jumps are opens at least n_sigmas robust volatilities (1.4826 x the median absolute
 * close-to-close log return) from the previous close. Never fails. */
void da_ohlcv_check(const struct da_ohlcv *s, double n_sigmas, struct da_ohlcv_checks *c);

/* The warnings a user needs, as sentences, into a new JSON array (caller frees; NULL when out
 * of memory): the volume, the largest jump named with its date (ADJUSTED=1 suggested when the
 * file has an Adj Close column and it is unset). */
struct cJSON *da_ohlcv_warnings_json(const struct da_ohlcv *s, const struct da_ohlcv_checks *c,
				     double n_sigmas);

#endif
