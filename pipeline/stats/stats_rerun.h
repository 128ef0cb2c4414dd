/* stats_rerun.h - figures that replay the signals again under other conditions: the whole cost
 * model scaled by k (cost_sensitivity), fills d bars late (delay_sensitivity), and the cost
 * multiple at which the compounded net return reaches zero (breakeven_cost_multiple). Each is a
 * whole replay (rp_replay), so a path the account does not survive is ruined at -100 %, as the
 * replay itself would be, where rescaling the trades of one replay could not see it. Pure
 * computation: series, signals and costs in, numbers out; no I/O. */
#ifndef STATS_RERUN_H
#define STATS_RERUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ohlcv.h"
#include "replay_core.h"

/* One replay summarised: a row of cost_sensitivity or delay_sensitivity. */
struct sts_rerun {
	size_t trades;
	double sharpe, psr;        /* of the per-trade net returns: mean / sd (ddof 1), PSR(0) with
				    * every trade independent (2012 eq. 11); NAN where undefined */
	double net_return;         /* the replay's compounded net return: -1 at ruin */
	double sum_net_return;     /* the plain sum of its trades' net returns */
	bool ruined;
	/* a class with per-trade callbacks (c->calls) replayed on a trade path its live run was not
	 * asked about (fills moved later, or a trade the answers were not for): no figure (NANs,
	 * trades 0), as a number computed without the callbacks would not be the strategy's */
	bool unanswered;
};

/* Why a late-fill figure of a class with per-trade callbacks is null (sts_rerun.unanswered). */
#define STS_UNANSWERED "the strategy's custom_stoploss and custom_exit were answered for the " \
	"trades of its own fills; fills moved later make other trades, which its live run was " \
	"never asked about, so no figure is computed without its answers"

/* Replays signals (s->n validated values) delay bars later (a fill at the open of bar t + 1 +
 * delay for the signal of bar t's close; the first delay bars flat) with every cost of c times k
 * (rp_costs_scaled), into out; with c->calls, delay 0 alone (else out->unanswered). Returns 0, or -1 when memory ran out (out is then NANs). */
int sts_rerun(const struct da_ohlcv *s, const int8_t *signals, const struct rp_costs *c,
	     size_t delay, double k, struct sts_rerun *out);

/* The break-even search stops when its bracket [lo, hi] is narrower than STS_BE_TOL times hi,
 * and gives its midpoint: within half of that of the multiple where the net return crosses 0. */
#define STS_BE_TOL 1e-9
/* Doubling past this without the net return reaching zero gives no figure. */
#define STS_BE_MAX 1e12

struct sts_breakeven {
	double multiple;      /* NAN when there is none (reason says why) */
	double lo, hi;        /* the last bracket: net return > 0 at lo, <= 0 at hi */
	size_t replays;       /* replays run to find it */
	bool at_ruin;         /* the replay at hi is ruined: the net return falls from a profit
			       * straight to -100 % there instead of passing through zero */
	const char *reason;   /* a static sentence when multiple is NAN, else NULL */
};

/* The multiple k of the whole cost model c at which the compounded net return of the replay of
 * signals on s is zero: bracketed (0 to 1, or doubling from 1) and bisected to STS_BE_TOL, each
 * step a replay at k times the costs. No figure, with the reason, when there are no trades, the
 * trades paid no costs, the gross return (k = 0) is not positive, funding is income (then the
 * net return need not fall as k grows), or it stays positive up to STS_BE_MAX. Returns 0, or -1
 * when memory ran out. */
int sts_breakeven(const struct da_ohlcv *s, const int8_t *signals, const struct rp_costs *c,
		 struct sts_breakeven *out);

#endif
