/* stats_forward.c - out-of-sample since the first audit: the forward bars' trades, return and
 * annualised Sharpe ratio, and a seeded bootstrap of the in-sample trades for as many bars. */
#include "stats_forward.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "jsonio.h"
#include "stats_annual.h"
#include "stats_core.h"
#include "timeutil.h"

/* The per-bar returns of the compounded net curve (st_curve_returns) at the rows from first
 * on, annualised: the same basis as the whole curve's. NAN when there are fewer than 2 or
 * memory ran out. */
static double forward_sharpe(const struct sts_forward_in *in, size_t first)
{
	double *r = malloc((in->n_eq ? in->n_eq : 1) * sizeof *r);
	struct st_annual a = { .sharpe = NAN };
	size_t n;

	if (!r)
		return NAN;
	n = st_curve_returns(in->eq_net, in->n_eq, r);
	if (first < n)
		st_annualise(r + first, n - first, sqrt(st_bars_per_year(in->bar_seconds)), &a);
	free(r);
	return a.sharpe;
}

/* The 5-95 % band of compounding k trades drawn with replacement from the in-sample ones. */
static int band(const struct sts_forward_in *in, size_t n_in, size_t k, struct sts_forward *f)
{
	double *y = malloc(STS_FORWARD_RESAMPLES * sizeof *y);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	int rc = -1;

	if (!y || !r)
		goto out;
	gsl_rng_set(r, in->seed);
	for (size_t b = 0; b < STS_FORWARD_RESAMPLES; b++) {
		double eq = 1.0;

		for (size_t j = 0; j < k; j++)
			eq *= 1.0 + in->trades[gsl_rng_uniform_int(r, (unsigned long)n_in)].net;
		y[b] = eq - 1.0;
	}
	gsl_sort(y, 1, STS_FORWARD_RESAMPLES);
	f->band_lo = gsl_stats_quantile_from_sorted_data(y, 1, STS_FORWARD_RESAMPLES, 0.05);
	f->band_hi = gsl_stats_quantile_from_sorted_data(y, 1, STS_FORWARD_RESAMPLES, 0.95);
	rc = 0;
out:
	gsl_rng_free(r);
	free(y);
	return rc;
}

int sts_forward(const struct sts_forward_in *in, struct sts_forward *f)
{
	size_t first = in->n_eq;
	double eq = 1.0;

	*f = (struct sts_forward){ .band_lo = NAN, .band_hi = NAN, .net_return = NAN };
	for (size_t i = 0; i < in->n_eq; i++)
		if (in->eq_time[i] > in->since) {
			first = i;
			break;
		}
	f->in_bars = first;
	f->bars = in->n_eq - first;
	if (f->bars == 0)
		return 0;
	for (size_t i = 0; i < in->n_trades; i++) {
		if (in->trades[i].entry > in->since) {
			f->trades++;
			eq *= 1.0 + in->trades[i].net;
		} else {
			f->in_trades++;
		}
	}
	f->net_return = eq - 1.0;
	f->sharpe_annualised = forward_sharpe(in, first);
	/* as many trades as the in-sample rate gives that many bars */
	f->band_trades = f->in_bars ? (size_t)llround((double)f->in_trades * (double)f->bars / (double)f->in_bars) : 0;
	if (f->in_trades == 0) {
		f->inside = -1;
		return 1;
	}
	if (band(in, f->in_trades, f->band_trades, f) != 0)
		return -1;
	f->inside = f->net_return >= f->band_lo && f->net_return <= f->band_hi;
	return 1;
}

/* x to ST_DIGITS significant digits, as every figure stats.json prints. */
static double rounded(double x)
{
	char buf[40];

	snprintf(buf, sizeof buf, "%.*g", ST_DIGITS, x);
	return strtod(buf, NULL);
}

int sts_forward_report(cJSON *o, const cJSON *ledger, const struct sts_forward_in *base)
{
	struct sts_forward_in in = *base;
	struct sts_forward f;
	const char *since = sa_json_str(ledger, "since", NULL);
	cJSON *w, *b;
	int got;

	if (!since || !base->eq_time || sa_time_parse(since, &in.since) < 0) {
		cJSON_AddNullToObject(o, "forward");
		return 0;
	}
	got = sts_forward(&in, &f);
	if (got < 0)
		return -1;
	if (got == 0) {
		cJSON_AddNullToObject(o, "forward");
		return 0;
	}
	w = cJSON_AddObjectToObject(o, "forward");
	cJSON_AddStringToObject(w, "since", since);
	cJSON_AddNumberToObject(w, "bars", (double)f.bars);
	cJSON_AddNumberToObject(w, "trades", (double)f.trades);
	sa_json_add_num(w, "net_return", f.net_return, ST_DIGITS);
	sa_json_add_num(w, "sharpe_annualised", f.sharpe_annualised, ST_DIGITS);
	if (f.inside < 0) {
		cJSON_AddNullToObject(w, "band");
		cJSON_AddNullToObject(w, "inside");
	} else {
		b = cJSON_AddArrayToObject(w, "band");
		cJSON_AddItemToArray(b, cJSON_CreateNumber(rounded(f.band_lo)));
		cJSON_AddItemToArray(b, cJSON_CreateNumber(rounded(f.band_hi)));
		cJSON_AddBoolToObject(w, "inside", f.inside == 1);
	}
	cJSON_AddNumberToObject(w, "in_sample_bars", (double)f.in_bars);
	cJSON_AddNumberToObject(w, "in_sample_trades", (double)f.in_trades);
	cJSON_AddNumberToObject(w, "band_trades", (double)f.band_trades);
	cJSON_AddNumberToObject(w, "band_resamples", STS_FORWARD_RESAMPLES);
	cJSON_AddStringToObject(w, "basis", "trades entered after since, their net returns compounded; "
				"the annualised Sharpe ratio of the per-bar returns of compounded net equity after "
				"since (as sharpe_annualised); band: "
				"5 and 95 % of band_resamples compounded draws (with replacement, seeded by "
				"BOOTSTRAP_SEED) of band_trades in-sample trades, the in-sample rate for that many bars");
	return 0;
}
