/* robust_hindsight.c - hindsight is look-ahead too: could the profit have been earned by someone
 * who had not seen this history? Each check perturbs what a memory keys on and keeps what a rule
 * may use, and weighs what survives by profit: the prices moved against the calendar by whole
 * weeks (every date, weekday and hour kept, the prices at them changed), every price moved on
 * its own by whole ticks of its grid, the permuted copies' trades, and a later start judged past
 * one measured warm-up. A rule of the market keeps its profit; a memory of this chart loses it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "jsonio.h"
#include "robust_core.h"
#include "stats_annual.h"

#define WEEK_S (7 * 86400)

int rb_series_copy(const struct da_ohlcv *s, struct rb_series *out)
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
	out->s = (struct da_ohlcv){ .n = n, .t = out->t, .open = out->cols, .high = out->cols + n,
		.low = out->cols + 2 * n, .close = out->cols + 3 * n, .volume = out->cols + 4 * n,
		.swap_long = s->swap_long, .swap_short = s->swap_short, .fmt = s->fmt };
	return 0;
}

void rb_series_release(struct rb_series *s)
{
	free(s->t);
	free(s->cols);
	memset(s, 0, sizeof *s);
}

size_t rb_week_bars(const struct da_ohlcv *s)
{
	size_t k = 0;

	if (s->n == 0 || s->t[s->n - 1] < s->t[0] + WEEK_S)
		return 0;
	while (k < s->n && s->t[k] < s->t[0] + WEEK_S)
		k++;
	return k;
}

size_t rb_rotation_weeks(size_t weeks, long *shift)
{
	/* whole quarters keep each date within a day or two of where it was (a turn of the month
	 * stays a turn of the month); shorter histories move by whole weeks */
	size_t unit = weeks >= 4 * RB_ROTATION_QUARTER ? RB_ROTATION_QUARTER : 1, k = 0;

	if (weeks < 2)
		return 0;
	for (size_t j = 1; j <= RB_ROTATIONS; j++) {
		size_t w = unit * (size_t)lround((double)(j * weeks) / (4.0 * (double)unit));

		if (w < 1)
			w = 1;
		if (w >= weeks || (k && (size_t)shift[k - 1] >= w))
			continue;
		shift[k++] = (long)w;
	}
	return k;
}

void rb_rotate_prices(const struct da_ohlcv *s, size_t shift, size_t period, struct rb_series *copy)
{
	struct da_ohlcv *c = &copy->s;

	for (size_t i = 1; i < s->n; i++) {
		size_t src = i <= period ? 1 + (i - 1 + shift) % period : i;
		double close = c->close[i - 1] * (s->close[src] / s->close[src - 1]);

		c->close[i] = close;
		c->open[i] = close * (s->open[src] / s->close[src]);
		c->high[i] = close * (s->high[src] / s->close[src]);
		c->low[i] = close * (s->low[src] / s->close[src]);
		c->volume[i] = s->volume[src];
	}
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

long rb_ticks_max(const struct da_ohlcv *s, double tick)
{
	double *range = s->n ? malloc(s->n * sizeof *range) : NULL, ticks = 0;

	if (range) {
		for (size_t i = 0; i < s->n; i++)
			range[i] = s->high[i] - s->low[i];
		gsl_sort(range, 1, s->n);
		ticks = RB_NUDGE_OF_RANGE * gsl_stats_median_from_sorted_data(range, 1, s->n) / tick;
		free(range);
	}
	return ticks >= 2 && ticks < 1e9 ? (long)ticks : 2;
}

/* x moved by 1..most whole ticks, up or down, kept on the grid and above 0. */
static double nudge(double x, double tick, long most, gsl_rng *rng)
{
	long k = 1 + (long)gsl_rng_uniform_int(rng, (unsigned long)most);
	double on = nearbyint(x / tick), up = (on + (double)k) * tick, down = (on - (double)k) * tick;

	return gsl_rng_uniform_int(rng, 2) && down > 0 ? down : up;
}

/* The volume's own nudge: 1 to this many units of its grid, a hundredth of its median. */
static long volume_units(const struct da_ohlcv *s, double unit)
{
	double *v = s->n ? malloc(s->n * sizeof *v) : NULL, most = 0;

	if (v) {
		memcpy(v, s->volume, s->n * sizeof *v);
		gsl_sort(v, 1, s->n);
		most = 0.01 * gsl_stats_median_from_sorted_data(v, 1, s->n) / unit;
		free(v);
	}
	return most >= 2 && most < 1e9 ? (long)most : 2;
}

void rb_nudge_ticks(struct rb_series *copy, double tick, long ticks_max, void *rng)
{
	struct da_ohlcv *s = &copy->s;
	double vunit = rb_resolution(s->volume, s->n);
	long vmost = volume_units(s, vunit);

	/* each price on its own: no one factor, no one offset puts them back where they were */
	for (size_t i = 0; i < s->n; i++) {
		double o = nudge(s->open[i], tick, ticks_max, rng), h = nudge(s->high[i], tick, ticks_max, rng);
		double l = nudge(s->low[i], tick, ticks_max, rng), c = nudge(s->close[i], tick, ticks_max, rng);

		s->open[i] = o;
		s->close[i] = c;
		s->high[i] = fmax(h, fmax(o, c));
		s->low[i] = fmin(l, fmin(o, c));
		/* the volume too, or a lookup of remembered volumes would stand in for the prices */
		if (s->volume[i] > 0)
			s->volume[i] = nudge(s->volume[i], vunit, vmost, rng);
	}
}

int rb_profit_of(const struct rp_result *r, double *profit, size_t *trades, double *t)
{
	double *net = rp_trade_nets(r);

	*profit = *t = NAN;
	*trades = 0;
	if (!net)
		return -1;
	*profit = r->sum_net_return;
	*trades = r->n_trades;
	if (r->n_trades >= 2) {
		double sd = gsl_stats_sd(net, 1, r->n_trades);

		if (sd > 0)
			*t = gsl_stats_mean(net, 1, r->n_trades) / sd * sqrt((double)r->n_trades);
	}
	free(net);
	return 0;
}

int rb_profit(const struct da_ohlcv *s, const int8_t *signals, const struct rp_costs *c,
	      double *profit, size_t *trades, double *t)
{
	struct rp_result r;
	int rc;

	*profit = *t = NAN;
	*trades = 0;
	if (rp_replay(s, signals, c, &r) < 0)
		return -1;
	rc = rb_profit_of(&r, profit, trades, t);
	rp_result_release(&r);
	return rc;
}

void rb_stay_mark(const struct rp_result *real, const struct rp_result *moved, unsigned char *stay)
{
	size_t n = real->n_eq < moved->n_eq ? real->n_eq : moved->n_eq;

	for (size_t i = 0; i < real->n_eq; i++)
		if (i >= n || moved->eq_pos[i] != real->eq_pos[i])
			stay[i] = 0;
}

int rb_stay_measure(const struct rp_result *real, const unsigned char *stay, struct rb_hindsight *h)
{
	double *r = malloc((real->n_eq ? real->n_eq : 1) * sizeof *r), sum = 0, kept = 0, f;
	size_t k;

	h->stay_bars = h->stay_held = 0;
	h->stay_share = h->stay_z = NAN;
	if (!r)
		return -1;
	/* the held bars' net returns, packed in place (past a ruin there are none) */
	k = st_curve_returns(real->eq_net, real->n_eq, r);
	for (size_t i = 0; i < k; i++) {
		if (real->eq_pos[i] == 0)
			continue;
		sum += r[i];
		if (stay[i])
			kept += r[i], h->stay_held++;
		r[h->stay_bars++] = r[i];
	}
	if (h->stay_bars)
		h->stay_share = (double)h->stay_held / (double)h->stay_bars;
	/* as many held bars drawn at random without replacement earn f * sum, with a variance of
	 * f (1 - f) N s^2 (s^2 the held bars' variance, ddof 1): the stayed bars' excess over it */
	f = h->stay_share;
	if (h->stay_bars >= 2 && f > 0 && f < 1) {
		double var = gsl_stats_variance(r, 1, h->stay_bars);

		if (var > 0)
			h->stay_z = (kept - f * sum) / sqrt(f * (1 - f) * (double)h->stay_bars * var);
	}
	free(r);
	return 0;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* The median share of the real profit the completed rotations kept, NAN when none completed. */
static double rotation_kept(const struct rb_hindsight *h)
{
	double kept[RB_ROTATIONS];
	size_t k = 0;

	for (size_t i = 0; i < h->n_rot; i++)
		if (isfinite(h->rot_profit[i]))
			kept[k++] = h->rot_profit[i] / h->real_profit;
	if (k == 0)
		return NAN;
	gsl_sort(kept, 1, k);
	return gsl_stats_median_from_sorted_data(kept, 1, k);
}

static void surrogates(struct rb_hindsight *h, const size_t *perm_trades, size_t runs)
{
	size_t *t = runs ? malloc(runs * sizeof *t) : NULL;

	h->surrogate_runs = 0;
	if (!t)
		return;
	memcpy(t, perm_trades, runs * sizeof *t);
	qsort(t, runs, sizeof *t, cmp_size);
	h->surrogate_runs = runs;
	h->surrogate_min = t[0];
	h->surrogate_median = t[runs / 2];
	free(t);
}

void rb_hindsight_finish(struct rb_hindsight *h, const size_t *perm_trades, size_t runs,
			 double later_worst, long warmup_bars)
{
	surrogates(h, perm_trades, runs);
	/* only a profit the gates could credit is judged: noise has nothing to keep */
	h->material = h->real_trades >= RB_HINDSIGHT_MIN_TRADES && h->real_profit > 0 &&
		      isfinite(h->real_t) && h->real_t >= gsl_cdf_ugaussian_Pinv(RB_MATERIAL_P);
	h->rot_kept = h->material ? rotation_kept(h) : NAN;
	h->tick_kept = h->material && isfinite(h->tick_profit) ? h->tick_profit / h->real_profit : NAN;
	/* lost profit alone is no memory: any rule's profit changes with the prices, but a memory
	 * of dates keeps its positions where they were, all of them or those that earned the profit */
	h->stayed_put = isfinite(h->stay_share) && (h->stay_share >= RB_STAY_SHARE ||
						    (isfinite(h->stay_z) && h->stay_z >= RB_STAY_Z));
	h->calendar_flagged = isfinite(h->rot_kept) && h->rot_kept < RB_PROFIT_FLAG && h->stayed_put;
	h->tick_flagged = isfinite(h->tick_kept) && h->tick_kept < RB_PROFIT_FLAG;
	/* a rule of the market trades on the shuffled bars too; one keyed to these bars does not
	 * (a prices lookup finds none of its quotes there) */
	h->keyed_real = h->surrogate_runs > 0 && h->real_trades >= RB_KEYED_MIN_TRADES &&
			(double)h->surrogate_median < RB_KEYED_SHARE * (double)h->real_trades;
	h->flagged = h->calendar_flagged || h->tick_flagged || (h->material && h->keyed_real);
	h->later_worst = later_worst;
	h->warmup_bars = warmup_bars;
	h->later_start = isfinite(later_worst) && later_worst > RB_LATER_START_FLAG;
}

/* "26, 52 and 78" into buf. */
static const char *weeks_list(const struct rb_hindsight *h, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < h->n_rot && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%ld",
					 i == 0 ? "" : i + 1 == h->n_rot ? " and " : ", ", h->rot_weeks[i]);
	return buf;
}

/* How the positions stayed put, in words, into buf. */
static const char *stayed_words(const struct rb_hindsight *h, char *buf, size_t len)
{
	if (h->stay_share >= RB_STAY_SHARE)
		snprintf(buf, len, "the same at %.0f %% of the bars it held", 100 * h->stay_share);
	else
		snprintf(buf, len, "the same at %.0f %% of the bars it held, earning %.1f standard "
			 "errors more than as many at random", 100 * h->stay_share, h->stay_z);
	return buf;
}

/* The plain sentence, for the verdict and the report: which memory, by how much. */
static void explain(const struct rb_hindsight *h, char *buf, size_t len)
{
	char wk[64], st[160];

	if (h->tick_flagged)
		snprintf(buf, len, "The profit is a lookup of this data's own prices: with every price "
			 "moved on its own by 1 to %ld ticks of %g it keeps %.0f %% of its net profit of "
			 "%+.1f %%. Nobody could have traded this without having seen the chart.",
			 h->ticks_max, h->tick, 100 * h->tick_kept, 100 * h->real_profit);
	else if (h->calendar_flagged)
		snprintf(buf, len, "The profit is a list of this data's own %s: with the prices moved "
			 "against the calendar by %s weeks (every date, weekday and hour kept) its positions "
			 "stayed where they were (%s) and it keeps a median of %.0f %% of its net profit of "
			 "%+.1f %%. Nobody could have traded this without having seen the chart.",
			 h->later_start ? "bar numbers" : "dates and times", weeks_list(h, wk, sizeof wk),
			 stayed_words(h, st, sizeof st), 100 * h->rot_kept, 100 * h->real_profit);
	else if (h->material && h->keyed_real)
		snprintf(buf, len, "The profit is keyed to these bars: it trades %zu times on the real "
			 "bars but a median of %zu times on copies with the same returns shuffled. Nobody "
			 "could have traded this without having seen the chart.", h->real_trades,
			 h->surrogate_median);
	else if (h->later_start)
		snprintf(buf, len, "Started later in history it gives other signals on %.0f %% of the "
			 "bars compared past its measured warm-up, far beyond a quarter: its signals are "
			 "keyed to bar numbers, where the file starts, so the backtest cannot be reproduced "
			 "live.", 100 * h->later_worst);
	else if (!h->material)
		snprintf(buf, len, "Its net profit (%+.1f %% summed over %zu trades) is not material "
			 "(at least %d trades and a t statistic of at least %.3g), so there is no profit for "
			 "a memory to explain; nothing here is judged keyed to this data.",
			 isfinite(h->real_profit) ? 100 * h->real_profit : 0.0, h->real_trades,
			 RB_HINDSIGHT_MIN_TRADES, gsl_cdf_ugaussian_Pinv(RB_MATERIAL_P));
	else if (isfinite(h->rot_kept) && h->rot_kept < RB_PROFIT_FLAG)
		snprintf(buf, len, "With the prices moved against the calendar by %s weeks it keeps a "
			 "median of %.0f %% of its net profit, but its positions moved with the prices, as "
			 "a rule's do and a memory of dates' do not (the same at %.0f %% of the bars it held, "
			 "%+.1f standard errors from as many at random); with every price moved by 1 to %ld "
			 "ticks it keeps %.0f %%: nothing here is keyed to this data's own dates or prices.",
			 weeks_list(h, wk, sizeof wk), 100 * h->rot_kept, 100 * h->stay_share,
			 isfinite(h->stay_z) ? h->stay_z : 0.0, h->ticks_max,
			 100 * (isfinite(h->tick_kept) ? h->tick_kept : 1));
	else
		snprintf(buf, len, "With the prices moved against the calendar by %s weeks it keeps a "
			 "median of %.0f %% of its net profit, with every price moved by 1 to %ld ticks "
			 "%.0f %%: nothing here is keyed to this data's own dates or prices.",
			 weeks_list(h, wk, sizeof wk), 100 * (isfinite(h->rot_kept) ? h->rot_kept : 1),
			 h->ticks_max, 100 * (isfinite(h->tick_kept) ? h->tick_kept : 1));
}

static void add_share(cJSON *o, const char *key, double x)
{
	if (isfinite(x))
		cJSON_AddNumberToObject(o, key, round(x * 1e6) / 1e6);
	else
		cJSON_AddNullToObject(o, key);
}

/* Where the positions were under the moves: a memory keeps them, a rule's follow the prices. */
static void positions_json(cJSON *cal, const struct rb_hindsight *h)
{
	cJSON *p = cJSON_AddObjectToObject(cal, "positions");

	cJSON_AddNumberToObject(p, "held_bars", (double)h->stay_bars);
	cJSON_AddNumberToObject(p, "stayed_bars", (double)h->stay_held);
	add_share(p, "stayed_share", h->stay_share);
	sa_json_add_num(p, "stayed_z", h->stay_z, 6);
	cJSON_AddNumberToObject(p, "share_threshold", RB_STAY_SHARE);
	cJSON_AddNumberToObject(p, "z_threshold", RB_STAY_Z);
	cJSON_AddBoolToObject(p, "stayed_put", h->stayed_put);
}

static void rotation_json(cJSON *o, const struct rb_hindsight *h)
{
	cJSON *cal = cJSON_AddObjectToObject(o, "calendar"), *w, *p, *st;

	cJSON_AddNumberToObject(cal, "week_bars", (double)h->week_bars);
	w = cJSON_AddArrayToObject(cal, "weeks");
	p = cJSON_AddArrayToObject(cal, "net_profit");
	st = cJSON_AddArrayToObject(cal, "status");
	for (size_t i = 0; i < h->n_rot; i++) {
		cJSON_AddItemToArray(w, cJSON_CreateNumber((double)h->rot_weeks[i]));
		cJSON_AddItemToArray(p, isfinite(h->rot_profit[i]) ?
				     cJSON_CreateNumber(round(h->rot_profit[i] * 1e6) / 1e6) : cJSON_CreateNull());
		cJSON_AddItemToArray(st, cJSON_CreateString(h->rot_status[i]));
	}
	add_share(cal, "profit_kept", h->rot_kept);
	positions_json(cal, h);
	cJSON_AddBoolToObject(cal, "flagged", h->calendar_flagged);
}

static void ticks_json(cJSON *o, const struct rb_hindsight *h)
{
	cJSON *tk = cJSON_AddObjectToObject(o, "ticks");

	cJSON_AddNumberToObject(tk, "tick", h->tick);
	cJSON_AddNumberToObject(tk, "ticks_max", (double)h->ticks_max);
	add_share(tk, "net_profit", h->tick_profit);
	cJSON_AddStringToObject(tk, "status", h->tick_status);
	add_share(tk, "profit_kept", h->tick_kept);
	cJSON_AddBoolToObject(tk, "flagged", h->tick_flagged);
}

cJSON *rb_hindsight_json(const struct rb_hindsight *h)
{
	cJSON *o = cJSON_CreateObject(), *real, *sur, *ls;
	char text[768];

	real = cJSON_AddObjectToObject(o, "real");
	add_share(real, "net_profit", h->real_profit);
	cJSON_AddNumberToObject(real, "trades", (double)h->real_trades);
	sa_json_add_num(real, "t_stat", h->real_t, 6);
	sa_json_add_num(real, "t_threshold", gsl_cdf_ugaussian_Pinv(RB_MATERIAL_P), 6);
	cJSON_AddBoolToObject(real, "material", h->material);
	rotation_json(o, h);
	ticks_json(o, h);
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
	add_share(ls, "worst_disagreement", h->later_worst);
	if (h->warmup_bars >= 0)
		cJSON_AddNumberToObject(ls, "measured_warmup_bars", (double)h->warmup_bars);
	else
		cJSON_AddNullToObject(ls, "measured_warmup_bars");
	cJSON_AddNumberToObject(ls, "threshold", RB_LATER_START_FLAG);
	cJSON_AddBoolToObject(ls, "flagged", h->later_start);
	cJSON_AddNumberToObject(o, "profit_threshold", RB_PROFIT_FLAG);
	cJSON_AddBoolToObject(o, "flagged", h->flagged);
	explain(h, text, sizeof text);
	cJSON_AddStringToObject(o, "reason", text);
	return o;
}

size_t rb_hindsight_copies(const struct da_ohlcv *bars, unsigned long seed, struct rb_hindsight *h,
			   struct rb_series *copy)
{
	size_t k = 0, n = bars->n, period;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	h->week_bars = rb_week_bars(bars);
	period = h->week_bars && n > 1 ? (n - 1) / h->week_bars * h->week_bars : 0;
	h->n_rot = period ? rb_rotation_weeks(period / h->week_bars, h->rot_weeks) : 0;
	h->tick = rb_resolution(bars->close, n);
	h->ticks_max = rb_ticks_max(bars, h->tick);
	if (!rng)
		return 0;
	for (; k < h->n_rot; k++) {
		if (rb_series_copy(bars, &copy[k]) < 0)
			goto out;
		rb_rotate_prices(bars, (size_t)h->rot_weeks[k] * h->week_bars, period, &copy[k]);
	}
	if (rb_series_copy(bars, &copy[k]) < 0)
		goto out;
	gsl_rng_set(rng, seed);
	rb_nudge_ticks(&copy[k++], h->tick, h->ticks_max, rng);
out:
	gsl_rng_free(rng);
	return k == h->n_rot + 1 ? k : 0;
}
