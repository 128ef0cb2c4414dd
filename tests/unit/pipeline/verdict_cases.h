/* verdict_cases.h - the numbers and facts of a sound strategy, which the verdict's unit tests
 * change one field at a time. */
#ifndef VERDICT_CASES_H
#define VERDICT_CASES_H

#include <math.h>
#include <string.h>

#include "verdict_rules.h"
#include "verdict_text.h"


/* A sound strategy with plenty of evidence: every gate passes with room to spare. */
static inline struct vd_numbers good(void)
{
	struct vd_numbers n = {
		.stats_ok = true, .trades = 300, .mean_net = 0.004, .net_return = 0.8,
		.mean_net_without = 0.003, .conc_removed = 15, .top_share = 0.2,
		.psr = 0.999, .dsr = 0.99, .min_trl = 40, .max_dd = 0.08,
		.blocked_actions = 0, .killed = false, .lookahead_mismatches = 0, .judged = true,
		.effective_trades = NAN, .alpha_known = true, .alpha = 0.12, .alpha_t = 3.0,
	};
	return n;
}

/* The facts around those numbers: a strategy run that finished, its look-ahead check clean. */
static inline struct vd_facts facts(struct vd_numbers n)
{
	struct vd_facts f;

	memset(&f, 0, sizeof f);
	f.num = n;
	f.th = vd_default_thresholds();
	f.strategy = true;
	strcpy(f.run_status, "ok");
	f.lookahead_ok = true;
	f.lookahead_points = 120;
	f.first_mismatch_bar = -1;
	f.psr_iid = f.dsr_iid = f.effective_trades = f.trades_lag1 = NAN;
	f.trials = 3;
	f.sharpe = 0.37;
	f.sr0 = 0.06;
	return f;
}

#endif
