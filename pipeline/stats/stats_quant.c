/* stats_quant.c - quantstats' Kelly, ulcer index, recovery factor and trade durations
 * (stats_quant.h). */
#include "stats_quant.h"

#include <math.h>
#include <stdlib.h>

#include "jsonio.h"
#include "stats_core.h"

double sts_kelly(const double *r, size_t n)
{
	double win = 0, loss = 0, b, p;
	size_t wins = 0, losses = 0;

	for (size_t i = 0; i < n; i++) {
		if (r[i] > 0) {
			win += r[i];
			wins++;
		} else if (r[i] < 0) {
			loss += r[i];
			losses++;
		}
	}
	if (!wins || !losses)
		return NAN;
	b = (win / (double)wins) / fabs(loss / (double)losses);
	p = (double)wins / (double)(wins + losses);
	return (b * p - (1.0 - p)) / b;
}

double sts_ulcer(const double *eq, size_t n)
{
	double peak, sum = 0;
	size_t i;

	if (n < 2)
		return NAN;
	peak = eq[0];
	for (i = 0; i < n; i++) {
		double dd;

		peak = eq[i] > peak ? eq[i] : peak;
		dd = peak > 0 ? eq[i] / peak - 1.0 : -1.0;
		sum += dd * dd;
		if (eq[i] <= 0) {
			i++;
			break;
		}
	}
	return i < 2 ? NAN : sqrt(sum / (double)(i - 1));
}

double sts_quantile_sorted(const double *x, size_t n, double p)
{
	double at, frac;
	size_t lo;

	if (!n)
		return NAN;
	at = p * (double)(n - 1);
	lo = (size_t)floor(at);
	frac = at - (double)lo;
	return lo + 1 < n ? x[lo] + frac * (x[lo + 1] - x[lo]) : x[n - 1];
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* {min, p25, median, p75, max, mean} of x[0..n) (sorted here), or null when n is 0. */
static cJSON *spread(double *x, size_t n)
{
	static const struct {
		const char *key;
		double p;
	} q[] = { { "min", 0 }, { "p25", 0.25 }, { "median", 0.5 }, { "p75", 0.75 }, { "max", 1 } };
	cJSON *o;
	double sum = 0;

	if (!n)
		return cJSON_CreateNull();
	if (!(o = cJSON_CreateObject()))
		return NULL;
	qsort(x, n, sizeof(*x), cmp_double);
	for (size_t k = 0; k < sizeof q / sizeof q[0]; k++)
		sa_json_add_num(o, q[k].key, sts_quantile_sorted(x, n, q[k].p), ST_DIGITS);
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	sa_json_add_num(o, "mean", sum / (double)n, ST_DIGITS);
	return o;
}

static int durations(cJSON *o, const struct rp_trade *t, size_t n)
{
	double *bars = malloc((n ? n : 1) * sizeof(*bars)), *hours = malloc((n ? n : 1) * sizeof(*hours));
	cJSON *d = cJSON_AddObjectToObject(o, "trade_durations"), *b = NULL, *h = NULL;
	size_t nb = 0;
	int rc = -1;

	if (!bars || !hours || !d)
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (t[i].bars_held >= 0)
			bars[nb++] = (double)t[i].bars_held;
		hours[i] = (double)(t[i].exit - t[i].entry) / 3600.0;
	}
	cJSON_AddNumberToObject(d, "trades", (double)n);
	if (!(b = spread(bars, nb)) || !(h = spread(hours, n)))
		goto out;
	cJSON_AddItemToObject(d, "bars", b);
	cJSON_AddItemToObject(d, "hours", h);
	b = h = NULL;
	rc = 0;
out:
	cJSON_Delete(b);
	cJSON_Delete(h);
	free(bars);
	free(hours);
	return rc;
}

int sts_quant_report(cJSON *o, const struct rp_trade *t, size_t n, const double *eq, size_t n_eq,
		     double net_return, double max_drawdown)
{
	double *r = calloc(n ? n : 1, sizeof(*r));

	if (!r)
		return -1;
	for (size_t i = 0; i < n; i++)
		r[i] = t[i].net;
	sa_json_add_num(o, "kelly", sts_kelly(r, n), ST_DIGITS);
	free(r);
	sa_json_add_num(o, "ulcer_index", sts_ulcer(eq, n_eq), ST_DIGITS);
	sa_json_add_num(o, "recovery_factor", max_drawdown > 0 ? net_return / max_drawdown : NAN, ST_DIGITS);
	return durations(o, t, n);
}
