/* stats_forward.h - the bars since a version's first audit, scored apart: a true out-of-sample
 * test no author can have tuned to, and the band the in-sample trades would have given it. */
#ifndef STATS_FORWARD_H
#define STATS_FORWARD_H

#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "replay_core.h"

/* Resamples of the in-sample trades behind the band. */
#define STS_FORWARD_RESAMPLES 2000

struct sts_forward_in {
	int64_t since;                  /* the data's last bar at the version's first audit */
	const struct rp_trade *trades;  /* all of them, in entry order */
	size_t n_trades;
	const double *eq_net;           /* per-bar net equity, at eq_time */
	const int64_t *eq_time;
	size_t n_eq;
	double bar_seconds;
	unsigned long seed;
};

struct sts_forward {
	size_t bars, trades;            /* bars after since; trades entered after since */
	size_t in_bars, in_trades;      /* bars and trades up to since */
	double net_return;              /* the forward trades' net returns, compounded */
	double sharpe_annualised;       /* per-bar net equity returns after since, annualised */
	double band_lo, band_hi;        /* 5 and 95 % of the bootstrap's compounded return */
	size_t band_trades;             /* trades a resample draws: the in-sample rate times bars */
	int inside;                     /* net_return within the band */
};

/* Scores the bars after in->since. Returns 1 with *f filled, 0 when there are none (the data
 * has not grown since), -1 when out of memory. */
int sts_forward(const struct sts_forward_in *in, struct sts_forward *f);

/* Adds "forward" to a stats.json tree from the ledger's since (ledger.json, borrowed; NULL or
 * no since: null) and the replay's files. Returns 0, or -1 when out of memory. */
int sts_forward_report(cJSON *o, const cJSON *ledger, const struct sts_forward_in *base);

#endif
