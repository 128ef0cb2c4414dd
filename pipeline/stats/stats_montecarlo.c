/* stats_montecarlo.c - resampled and reshuffled sequences of the closed trades, compounded. */
#include "stats_montecarlo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "msg.h"
#include "stats_core.h"
#include "stats_tearsheet.h"

static const double fan_q[5] = { 0.05, 0.25, 0.50, 0.75, 0.95 };

/* One path's equity after each trade into eq[0..n) (0 from ruin on). */
static void compound(const double *r, size_t n, double *eq)
{
	double e = 1.0;

	for (size_t i = 0; i < n; i++) {
		e = e > 0.0 && r[i] > -1.0 ? e * (1.0 + r[i]) : 0.0;
		eq[i] = e;
	}
}

/* The path's trades: n drawn with replacement, one at a time or in blocks, or the n permuted. */
static void draw(const double *r, size_t n, enum sts_mc_method method, size_t block, gsl_rng *g,
		 double *y)
{
	if (method == STS_MC_RESHUFFLE) {
		memcpy(y, r, n * sizeof *y);
		gsl_ran_shuffle(g, y, n, sizeof *y);
		return;
	}
	if (method == STS_MC_BLOCKS) {
		sts_stationary_resample(r, n, 1.0 / (double)block, g, y);
		return;
	}
	for (size_t i = 0; i < n; i++)
		y[i] = r[(size_t)gsl_rng_uniform_int(g, (unsigned long)n)];
}

static double quantile(double *v, size_t n, double q)
{
	return gsl_stats_quantile_from_sorted_data(v, 1, n, q);
}

/* A path's equity at the fan's points, into at[0..ST_MC_FAN_POINTS). */
static void fan_sample(const double *eq, size_t n, double *at)
{
	for (size_t p = 0; p < STS_MC_FAN_POINTS; p++) {
		size_t i = p * n / (STS_MC_FAN_POINTS - 1);

		at[p] = i == 0 ? 1.0 : eq[i - 1];
	}
}

/* Each fan point's percentiles over the paths (pts: b rows of STS_MC_FAN_POINTS), sorting a
 * column at a time in col. */
static void fan_bands(const double *pts, size_t b, double *col, double *fan)
{
	for (size_t p = 0; p < STS_MC_FAN_POINTS; p++) {
		for (size_t k = 0; k < b; k++)
			col[k] = pts[k * STS_MC_FAN_POINTS + p];
		gsl_sort(col, 1, b);
		for (int q = 0; q < 5; q++)
			fan[p * 5 + q] = quantile(col, b, fan_q[q]);
	}
}

/* The distribution's figures from the paths' drawdowns and returns (sorted here). */
static void summarise(double *dd, double *ret, size_t b, size_t ruined, struct sts_montecarlo *o)
{
	size_t d20 = 0, d50 = 0, below = 0;

	for (size_t k = 0; k < b; k++) {
		d20 += dd[k] >= 0.20;
		d50 += dd[k] >= 0.50;
		/* the same fall in another order may differ in the last bit */
		below += dd[k] <= o->observed_max_drawdown + 1e-12;
	}
	gsl_sort(dd, 1, b);
	gsl_sort(ret, 1, b);
	o->dd_p50 = quantile(dd, b, 0.50);
	o->dd_p95 = quantile(dd, b, 0.95);
	o->dd_p99 = quantile(dd, b, 0.99);
	o->ret_p5 = quantile(ret, b, 0.05);
	o->ret_p50 = quantile(ret, b, 0.50);
	o->ret_p95 = quantile(ret, b, 0.95);
	o->ruin_probability = (double)ruined / (double)b;
	o->dd_prob_20 = (double)d20 / (double)b;
	o->dd_prob_50 = (double)d50 / (double)b;
	o->observed_percentile = (double)below / (double)b;
}

int sts_montecarlo(const double *r, size_t n, size_t resamples, unsigned long seed,
		  enum sts_mc_method method, struct sts_montecarlo *out, double *fan, char *err,
		  size_t errlen)
{
	double *y = NULL, *eq = NULL, *dd = NULL, *ret = NULL, *pts = NULL, *col = NULL;
	size_t ruined = 0;
	gsl_rng *g = NULL;
	int rc = -1;

	memset(out, 0, sizeof *out);
	out->resamples = resamples;
	out->trades = n;
	if (n == 0 || resamples == 0) {
		sa_fmt(err, errlen, "no closed trades to resample");
		return -1;
	}
	y = malloc(n * sizeof *y);
	eq = malloc(n * sizeof *eq);
	dd = malloc(resamples * sizeof *dd);
	ret = malloc(resamples * sizeof *ret);
	pts = fan ? malloc(resamples * STS_MC_FAN_POINTS * sizeof *pts) : NULL;
	col = fan ? malloc(resamples * sizeof *col) : NULL;
	g = gsl_rng_alloc(gsl_rng_mt19937);
	if (!y || !eq || !dd || !ret || (fan && (!pts || !col)) || !g) {
		sa_fmt(err, errlen, "out of memory for the Monte Carlo of the trades");
		goto out;
	}
	gsl_rng_set(g, seed);
	out->mean_block = method == STS_MC_BLOCKS ? sts_bootstrap_block(n) : 1;
	out->observed_worst_trade = r[0];
	for (size_t i = 1; i < n; i++)
		if (r[i] < out->observed_worst_trade)
			out->observed_worst_trade = r[i];
	compound(r, n, eq);
	out->observed_max_drawdown = st_max_drawdown(1.0, eq, n);
	out->observed_net_return = eq[n - 1] - 1.0;
	for (size_t k = 0; k < resamples; k++) {
		draw(r, n, method, out->mean_block, g, y);
		compound(y, n, eq);
		dd[k] = st_max_drawdown(1.0, eq, n);
		ret[k] = eq[n - 1] - 1.0;
		ruined += eq[n - 1] <= 0.0;
		if (fan)
			fan_sample(eq, n, pts + k * STS_MC_FAN_POINTS);
	}
	if (fan)
		fan_bands(pts, resamples, col, fan);
	summarise(dd, ret, resamples, ruined, out);
	rc = 0;
out:
	gsl_rng_free(g);
	free(y);
	free(eq);
	free(dd);
	free(ret);
	free(pts);
	free(col);
	return rc;
}
