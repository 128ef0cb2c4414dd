/* ohlcv_checks.c - the warnings a series earns (ohlcv_checks.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "msg.h"
#include "ohlcv_checks.h"
#include "timeutil.h"

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of x[0..n) (sorted in place). */
static double median(double *x, size_t n)
{
	qsort(x, n, sizeof(*x), by_double);
	return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

/* The robust volatility of the close-to-close log returns, and the median close. Returns -1
 * when out of memory. */
static int robust_scale(const struct da_ohlcv *s, double *sigma, double *mid)
{
	double *x = malloc(s->n * sizeof(*x));

	if (!x)
		return -1;
	for (size_t i = 1; i < s->n; i++)
		x[i - 1] = fabs(log(s->close[i] / s->close[i - 1]));
	*sigma = 1.4826 * median(x, s->n - 1);
	memcpy(x, s->close, s->n * sizeof(*x));
	*mid = median(x, s->n);
	free(x);
	return 0;
}

/* The smallest positive step between successive closes, to 10 significant digits (the
 * decimal a file writes is rarely a binary double). */
static double smallest_step(const struct da_ohlcv *s)
{
	double step = 0;

	for (size_t i = 1; i < s->n; i++) {
		double d = fabs(s->close[i] - s->close[i - 1]);
		char buf[32];

		snprintf(buf, sizeof buf, "%.10g", d);
		d = strtod(buf, NULL);
		if (d > 0 && (step == 0 || d < step))
			step = d;
	}
	return step;
}

void da_ohlcv_check(const struct da_ohlcv *s, double n_sigmas, struct da_ohlcv_checks *c)
{
	double sigma = 0, mid = 0;

	memset(c, 0, sizeof(*c));
	if (s->n < 3)
		return;
	c->volume_zero = s->fmt.volume;
	for (size_t i = 0; i < s->n && c->volume_zero; i++)
		c->volume_zero = s->volume[i] == 0;
	if (robust_scale(s, &sigma, &mid) < 0)
		return;
	c->price_step = smallest_step(s);
	c->price_step_bps = mid > 0 ? 1e4 * c->price_step / mid : 0;
	if (!(sigma > 0))
		return;
	for (size_t i = 1; i < s->n; i++) {
		double z = fabs(log(s->open[i] / s->close[i - 1])) / sigma;

		if (z < n_sigmas)
			continue;
		c->jumps++;
		if (z > c->jump_sigmas) {
			c->jump_sigmas = z;
			c->jump_time = s->t[i];
			c->jump_move = s->open[i] / s->close[i - 1] - 1;
		}
	}
}

cJSON *da_ohlcv_warnings_json(const struct da_ohlcv *s, const struct da_ohlcv_checks *c,
			      double n_sigmas)
{
	cJSON *a = cJSON_CreateArray();
	char text[400], day[21];

	if (!a)
		return NULL;
	if (c->volume_zero)
		cJSON_AddItemToArray(a, cJSON_CreateString("the volume is 0 on every bar: the file "
			"carries no volume, so a strategy that reads it reads nothing"));
	if (c->jumps) {
		sa_time_format(c->jump_time, day);
		sa_fmt(text, sizeof text, "%zu bar%s open%s %g or more times the bars' volatility away "
		       "from the previous close; the largest on %.10s, %+.1f %% (%.0f times): likely a "
		       "split or a bad tick%s", c->jumps, c->jumps == 1 ? "" : "s",
		       c->jumps == 1 ? "s" : "", n_sigmas, day, 100 * c->jump_move, c->jump_sigmas,
		       s->fmt.names[DA_BAR_ADJ][0] && !s->fmt.adjusted ?
		       " (the file has an Adj Close column: ADJUSTED=1 reads prices adjusted)" : "");
		cJSON_AddItemToArray(a, cJSON_CreateString(text));
	}
	return a;
}
