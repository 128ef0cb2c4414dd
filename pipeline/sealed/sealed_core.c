/* sealed_core.c - the sealed bars' score and what of it is told back. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "sealed_core.h"
#include "stats_core.h"

int sl_score(const struct da_ohlcv *s, const int8_t *signals, const struct rp_costs *c,
	     struct sl_score *out)
{
	struct rp_result r;

	memset(out, 0, sizeof *out);
	out->bars = s->n;
	if (rp_replay(s, signals, c, &r) < 0)
		return -1;
	out->trades = r.n_trades;
	out->net_return = r.net_return;
	out->mean_net = r.n_trades ? r.sum_net_return / (double)r.n_trades : NAN;
	out->ruined = r.ruined;
	/* the in-sample net_edge gate's test, on bars no memory of the chart has seen */
	out->edge_holds = r.n_trades > 0 && !r.ruined && out->mean_net > 0 && r.net_return > 0;
	rp_result_release(&r);
	return 0;
}

static const char *const names[SL_OUTCOMES] = {
	[SL_SPENT] = "spent", [SL_NOT_RUN] = "not_run", [SL_FAILED] = "failed",
	[SL_CUT_SHORT] = "cut_short", [SL_REFUSED] = "refused", [SL_FAILS] = "fails",
	[SL_WEAKER] = "weaker", [SL_AS_OPEN] = "as_open", [SL_STRONGER] = "stronger",
};

const char *sl_outcome_name(enum sl_outcome o)
{
	return o < SL_OUTCOMES ? names[o] : "unknown";
}

bool sl_outcome_holds(enum sl_outcome o)
{
	return o == SL_WEAKER || o == SL_AS_OPEN || o == SL_STRONGER;
}

double sl_bound_bits(void)
{
	return log2((double)SL_STEERABLE);
}

double sl_query(const struct sl_score *sc, double open_mean)
{
	double unit = isfinite(open_mean) && open_mean > 0 ? open_mean : SL_FLOOR;

	if (!sc->edge_holds)
		return -1;
	return fmin(3, fmax(-1, sc->mean_net / unit));
}

/* A Laplace draw of scale b from a uniform u in (0, 1). */
static double laplace(double u, double b)
{
	return gsl_cdf_laplace_Pinv(u, b);
}

enum sl_outcome sl_release(double q, bool open_holds, const struct sl_draws *d)
{
	double open = open_holds ? 1 : -1, z = open;
	double noisy_t = SL_THRESHOLD + laplace(d->gamma, 2 * SL_SIGMA);

	if (fabs(q - open) > noisy_t + laplace(d->eta, 4 * SL_SIGMA))
		z = q + laplace(d->xi, SL_SIGMA);
	if (!(z > 0))
		return SL_FAILS;
	if (z <= 0.5)
		return SL_WEAKER;
	return z <= 1.5 ? SL_AS_OPEN : SL_STRONGER;
}
