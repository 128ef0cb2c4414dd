/* robust_hindsight.c - hindsight is look-ahead too: could the rule have been traded by someone
 * who had not seen this history? The same bars 28 years later (every weekday, date, month and
 * leap day where it was), the same bars a hair's breadth away in price, the permuted copies'
 * trades, and a later start: a rule of the market keeps its trades, a list of remembered dates,
 * prices or bar numbers loses them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jsonio.h"
#include "robust_core.h"

int rb_series_copy(const struct sa_ohlcv *s, struct rb_series *out)
{
	size_t n = s->n;

	memset(out, 0, sizeof *out);
	if (!(out->t = malloc((n ? n : 1) * sizeof *out->t)) ||
	    !(out->cols = malloc((n ? 5 * n : 1) * sizeof *out->cols))) {
		rb_series_release(out);
		return -1;
	}
	memcpy(out->t, s->t, n * sizeof *out->t);
	memcpy(out->cols, s->open, n * sizeof *out->cols);
	memcpy(out->cols + n, s->high, n * sizeof *out->cols);
	memcpy(out->cols + 2 * n, s->low, n * sizeof *out->cols);
	memcpy(out->cols + 3 * n, s->close, n * sizeof *out->cols);
	memcpy(out->cols + 4 * n, s->volume, n * sizeof *out->cols);
	out->s = (struct sa_ohlcv){ .n = n, .t = out->t, .open = out->cols, .high = out->cols + n,
		.low = out->cols + 2 * n, .close = out->cols + 3 * n, .volume = out->cols + 4 * n,
		.fmt = s->fmt };
	return 0;
}

void rb_series_release(struct rb_series *s)
{
	free(s->t);
	free(s->cols);
	memset(s, 0, sizeof *s);
}

static int year_of(int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	return gmtime_r(&tt, &tm) ? tm.tm_year + 1900 : 0;
}

long rb_shift_weeks(const struct sa_ohlcv *s)
{
	/* Between 1901 and 2099 the calendar repeats every 28 years, weekdays and leap days
	 * included (no century year in between skips its leap day). */
	if (s->n == 0)
		return 0;
	if (year_of(s->t[s->n - 1]) + 28 <= 2099)
		return RB_SHIFT_WEEKS;
	if (year_of(s->t[0]) - 28 >= 1901)
		return -RB_SHIFT_WEEKS;
	return 0;
}

void rb_shift_times(struct rb_series *s, long weeks)
{
	for (size_t i = 0; i < s->s.n; i++)
		s->t[i] += (int64_t)weeks * 7 * 86400;
}

double rb_resolution(const double *x, size_t n)
{
	/* the coarsest 10^-d (d = 0..8) every price is a whole multiple of, to a part in 1e9 */
	for (int d = 0; d <= 8; d++) {
		double unit = pow(10, -d);
		size_t i = 0;

		for (; i < n; i++) {
			double k = x[i] / unit;

			if (fabs(k - nearbyint(k)) > 1e-9 * fmax(1, fabs(k)))
				break;
		}
		if (i == n)
			return unit;
	}
	return 1e-8;
}

double rb_jitter_size(const struct sa_ohlcv *s, double *resolution)
{
	double lowest = INFINITY, rel;

	*resolution = rb_resolution(s->close, s->n);
	for (size_t i = 0; i < s->n; i++)
		if (s->low[i] < lowest)
			lowest = s->low[i];
	if (!(lowest > 0))
		return RB_JITTER_FLOOR;
	/* 0.6 of the data's own resolution at its lowest price, so every price moves off the grid it
	 * was quoted on (a lookup of remembered quotes misses) and none moves near a tick's size */
	rel = RB_JITTER_OF_RESOLUTION * *resolution / lowest;
	return rel > RB_JITTER_FLOOR ? rel : RB_JITTER_FLOOR;
}

void rb_jitter_prices(struct rb_series *s, double rel)
{
	size_t n = s->s.n;

	/* every price scaled by one factor: ratios, returns and comparisons of prices with prices
	 * are what they were; only where a price sits on its grid changes */
	for (size_t i = 0; i < 4 * n; i++)
		s->cols[i] *= 1 + rel;
}

double rb_entries_kept(const int8_t *full, const int8_t *other, size_t n, size_t *entries)
{
	size_t e = 0, kept = 0;

	for (size_t i = 0; i < n; i++) {
		int prev = i ? full[i - 1] : 0, oprev = i ? other[i - 1] : 0;

		if (full[i] == 0 || full[i] == prev)
			continue;
		e++;
		kept += other[i] == full[i] && oprev == prev;
	}
	*entries = e;
	return e ? (double)kept / (double)e : NAN;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

void rb_hindsight_finish(struct rb_hindsight *h, const size_t *perm_trades, size_t runs,
			 size_t real_trades, double later_worst)
{
	size_t *t = runs ? malloc(runs * sizeof *t) : NULL;

	h->real_trades = real_trades;
	h->surrogate_runs = 0;
	if (t) {
		memcpy(t, perm_trades, runs * sizeof *t);
		qsort(t, runs, sizeof *t, cmp_size);
		h->surrogate_runs = runs;
		h->surrogate_min = t[0];
		h->surrogate_median = t[runs / 2];
		free(t);
	}
	/* a rule of the market trades on the shuffled bars too; one keyed to these bars does not */
	h->keyed_real = h->surrogate_runs > 0 && real_trades >= RB_KEYED_MIN_TRADES &&
			(double)h->surrogate_median < RB_KEYED_SHARE * (double)real_trades;
	h->shift_flagged = isfinite(h->shift_kept) && h->entries >= RB_HINDSIGHT_MIN_ENTRIES &&
			   h->shift_kept < RB_KEPT_FLAG;
	h->jitter_flagged = isfinite(h->jitter_kept) && h->entries >= RB_HINDSIGHT_MIN_ENTRIES &&
			    h->jitter_kept < RB_KEPT_FLAG;
	h->flagged = h->shift_flagged || h->jitter_flagged;
	h->later_worst = later_worst;
	h->later_start = isfinite(later_worst) && later_worst > RB_LATER_START_FLAG;
}

/* The plain sentence, for the verdict and the report. */
static void explain(const struct rb_hindsight *h, char *buf, size_t len)
{
	if (h->shift_flagged)
		snprintf(buf, len, "The signals are a list of this data's own dates: moved %s 28 years "
			 "(%ld weeks: every weekday, date and hour where it was), the same bars keep only "
			 "%.0f %% of its %zu entries. Nobody could have traded this without having seen the "
			 "chart.", h->weeks > 0 ? "later by" : "earlier by", labs(h->weeks),
			 100 * h->shift_kept, h->entries);
	else if (h->jitter_flagged)
		snprintf(buf, len, "The signals are a lookup of this data's own prices: with every price "
			 "moved by a part in %.0f (at least %.2g of its quoted resolution), far below any tick, the "
			 "same bars keep only %.0f %% of its %zu entries. Nobody could have traded this "
			 "without having seen the chart.", 1 / h->jitter_size, RB_JITTER_OF_RESOLUTION,
			 100 * h->jitter_kept, h->entries);
	else if (h->later_start)
		snprintf(buf, len, "Started later in history it gives other signals on %.0f %% of the "
			 "compared bars, far beyond what an indicator's warm-up explains (a quarter at "
			 "most: a warm-up touches the first bars after the start, the compared bars are "
			 "the last %d %% of history): the signals depend on where the file starts, so the "
			 "backtest cannot be reproduced live.", 100 * h->later_worst, RB_TAIL_PCT);
	else if (h->keyed_real)
		snprintf(buf, len, "It trades %zu times on the real bars but a median of %zu times on "
			 "copies with the same returns shuffled: its trades are keyed to this history.",
			 h->real_trades, h->surrogate_median);
	else
		snprintf(buf, len, "Moved 28 years (%ld weeks, every weekday and date where it was), or "
			 "nudged far below a tick in price, the same bars keep its trades: nothing here is "
			 "keyed to this data's own dates or prices.", labs(h->weeks));
}

static void add_kept(cJSON *o, const char *key, double kept)
{
	if (isfinite(kept))
		cJSON_AddNumberToObject(o, key, round(kept * 1e6) / 1e6);
	else
		cJSON_AddNullToObject(o, key);
}

cJSON *rb_hindsight_json(const struct rb_hindsight *h)
{
	cJSON *o = cJSON_CreateObject(), *ts, *jit, *sur, *ls;
	char text[640];

	ts = cJSON_AddObjectToObject(o, "time_shift");
	cJSON_AddNumberToObject(ts, "weeks", (double)h->weeks);
	add_kept(ts, "trades_kept", h->shift_kept);
	cJSON_AddStringToObject(ts, "status", h->shift_status);
	jit = cJSON_AddObjectToObject(o, "jitter");
	sa_json_add_num(jit, "size", h->jitter_size, 6);
	cJSON_AddNumberToObject(jit, "resolution", h->jitter_resolution);
	add_kept(jit, "trades_kept", h->jitter_kept);
	cJSON_AddStringToObject(jit, "status", h->jitter_status);
	sur = cJSON_AddObjectToObject(o, "surrogate_trades");
	cJSON_AddNumberToObject(sur, "runs", (double)h->surrogate_runs);
	if (h->surrogate_runs) {
		cJSON_AddNumberToObject(sur, "median", (double)h->surrogate_median);
		cJSON_AddNumberToObject(sur, "min", (double)h->surrogate_min);
	} else {
		cJSON_AddNullToObject(sur, "median");
		cJSON_AddNullToObject(sur, "min");
	}
	cJSON_AddNumberToObject(sur, "real", (double)h->real_trades);
	cJSON_AddBoolToObject(sur, "keyed_to_real_bars", h->keyed_real);
	ls = cJSON_AddObjectToObject(o, "later_start");
	add_kept(ls, "worst_disagreement", h->later_worst);
	cJSON_AddNumberToObject(ls, "threshold", RB_LATER_START_FLAG);
	cJSON_AddBoolToObject(ls, "flagged", h->later_start);
	cJSON_AddNumberToObject(o, "entries", (double)h->entries);
	cJSON_AddNumberToObject(o, "kept_threshold", RB_KEPT_FLAG);
	cJSON_AddBoolToObject(o, "flagged", h->flagged);
	explain(h, text, sizeof text);
	cJSON_AddStringToObject(o, "reason", text);
	return o;
}
