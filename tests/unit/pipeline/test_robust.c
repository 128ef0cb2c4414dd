/* test_robust.c - the robust core: offsets, the warm-up comparison, the permuted copies and the
 * permutation p-value. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>
#include <gsl/gsl_rng.h>

#include "fileio.h"
#include "robust_core.h"
#include "runsig.h"
#include "signals.h"

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

static void test_offsets_parse(void **state)
{
	static const struct { const char *text; int rc; size_t n; int first, last; } cases[] = {
		{"10,25,50", 0, 3, 10, 50}, {"60", 0, 1, 60, 60}, {"1,2,3,4,5,6,7,8", 0, 8, 1, 8},
		{"", -1, 0, 0, 0}, {"0", -1, 0, 0, 0}, {"61", -1, 0, 0, 0}, {"50,10", -1, 0, 0, 0},
		{"10,10", -1, 0, 0, 0}, {"10,", -1, 0, 0, 0}, {" 10", -1, 0, 0, 0}, {"10;25", -1, 0, 0, 0},
		{"1,2,3,4,5,6,7,8,9", -1, 0, 0, 0}, {"-5", -1, 0, 0, 0},
	};
	(void)state;
	for (size_t c = 0; c < LEN(cases); c++) {
		int pct[RB_MAX_OFFSETS];
		size_t n;
		char why[256] = "";

		assert_int_equal(rb_offsets_parse(cases[c].text, pct, &n, why, sizeof why), cases[c].rc);
		assert_int_equal(n, cases[c].n);
		if (cases[c].rc == 0) {
			assert_int_equal(pct[0], cases[c].first);
			assert_int_equal(pct[n - 1], cases[c].last);
		} else {
			assert_non_null(strstr(why, "WARMUP_OFFSETS"));
		}
	}
}

static void test_tail_and_offsets(void **state)
{
	(void)state;
	assert_int_equal(rb_tail_start(100), 60);
	assert_int_equal(rb_tail_start(17544), 17544 - 7017);
	assert_int_equal(rb_offset_bar(100, 50), 50);
	/* the latest start still lies before the tail */
	for (size_t n = 2; n < 500; n++)
		assert_true(rb_offset_bar(n, RB_MAX_OFFSET_PCT) <= rb_tail_start(n));
}

static void test_warm_compare(void **state)
{
	int8_t full[20], sig[10];
	struct rb_warmup w = {0};
	(void)state;
	for (int i = 0; i < 20; i++)
		full[i] = (int8_t)(i % 3 - 1);
	/* a run over bars [10, 20) that differs at bars 13, 14 and 18 (the tail is [12, 20)) */
	memcpy(sig, full + 10, 10);
	sig[3] = sig[3] == 1 ? 0 : 1;
	sig[4] = sig[4] == 1 ? 0 : 1;
	sig[8] = sig[8] == 1 ? 0 : 1;
	sig[0] = sig[0] == 1 ? 0 : 1;   /* before the tail: not compared */
	rb_warm_compare(full, 20, 10, 50, sig, 10, "ok", NULL, &w.run[0]);
	assert_true(w.run[0].ok);
	assert_int_equal(w.run[0].differing, 3);
	assert_true(fabs(w.run[0].disagreement - 3.0 / 8.0) < 1e-12);
	assert_int_equal(w.run[0].first_bar, 13);
	assert_int_equal(w.run[0].n_spans, 2);
	assert_int_equal(w.run[0].spans[0][0], 13);
	assert_int_equal(w.run[0].spans[0][1], 14);
	assert_int_equal(w.run[0].spans[1][0], 18);
	/* an identical run */
	rb_warm_compare(full, 20, 2, 10, full + 2, 18, "ok", NULL, &w.run[1]);
	assert_int_equal(w.run[1].differing, 0);
	assert_int_equal(w.run[1].first_bar, -1);
	/* a failed run is counted, never compared */
	rb_warm_compare(full, 20, 5, 25, NULL, 0, "error", "raised", &w.run[2]);
	assert_false(w.run[2].ok);
	assert_string_equal(w.run[2].error, "raised");
	/* the wrong number of signals is bad output */
	rb_warm_compare(full, 20, 5, 25, full, 14, "ok", NULL, &w.run[3]);
	assert_false(w.run[3].ok);
	assert_string_equal(w.run[3].status, "bad_output");
	w.n_runs = 4;
	rb_warm_finish(&w, 0.01);
	assert_true(w.flagged);
	assert_int_equal(w.failed_runs, 2);
	assert_int_equal(w.first_bar, 13);
	assert_int_equal(w.first_pct, 50);
	rb_warm_finish(&w, 0.5);
	assert_false(w.flagged);
}

static void test_perm_make(void **state)
{
	enum { N = 200 };
	static int64_t t[N];
	static double o[N], h[N], l[N], c[N], v[N];
	struct da_ohlcv s = { .n = N, .t = t, .open = o, .high = h, .low = l, .close = c, .volume = v };
	size_t order[N];
	struct rb_perm p;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double sum_in = 0, sum_out = 0;
	(void)state;

	for (int i = 0; i < N; i++) {
		t[i] = 1700000000 + 3600 * i;
		c[i] = 100 * exp(0.01 * sin(i * 0.3) + 0.001 * i);
		o[i] = c[i] * 0.999;
		h[i] = c[i] * 1.004;
		l[i] = c[i] * 0.995;
		v[i] = i;
	}
	gsl_rng_set(rng, 7);
	assert_int_equal(rb_perm_make(&s, rng, order, &p), 0);
	assert_ptr_equal(p.s.t, t);
	assert_true(p.s.close[0] == c[0]);
	for (int j = 1; j < N; j++) {
		size_t i = (size_t)p.s.volume[j];   /* the volume names the bar it came from */
		double r_in = log(c[i] / c[i - 1]), r_out = log(p.s.close[j] / p.s.close[j - 1]);

		assert_true(fabs(r_in - r_out) < 1e-9);
		assert_true(fabs(p.s.high[j] / p.s.close[j] - 1.004) < 1e-12);
		assert_true(p.s.low[j] <= fmin(p.s.open[j], p.s.close[j]));
		sum_in += log(c[j] / c[j - 1]);
		sum_out += r_out;
	}
	/* a permutation: the same returns, so the same last close, in another order */
	assert_true(fabs(sum_in - sum_out) < 1e-9);
	assert_true(fabs(p.s.close[N - 1] / c[N - 1] - 1) < 1e-9);
	bool moved = false;
	for (int j = 1; j < N; j++)
		moved |= (size_t)p.s.volume[j] != (size_t)j;
	assert_true(moved);
	rb_perm_release(&p);
	/* the same seed, the same copy */
	struct rb_perm a, b;
	gsl_rng_set(rng, 9);
	assert_int_equal(rb_perm_make(&s, rng, order, &a), 0);
	gsl_rng_set(rng, 9);
	assert_int_equal(rb_perm_make(&s, rng, order, &b), 0);
	assert_memory_equal(a.s.close, b.s.close, N * sizeof(double));
	rb_perm_release(&a);
	rb_perm_release(&b);
	gsl_rng_free(rng);
}

static void test_perm_finish(void **state)
{
	double null[] = { 0.3, -0.1, 0.5, 0.2, 0.0, -0.4, 0.1, 0.2, 0.6, -0.2 };
	struct rb_permtest t = { .runs = LEN(null), .real_sharpe = 0.2 };
	(void)state;
	t.null = malloc(sizeof null);
	memcpy(t.null, null, sizeof null);
	rb_perm_finish(&t);
	/* 0.2, 0.2, 0.3, 0.5, 0.6 are >= 0.2: p = (1 + 5) / (1 + 10) */
	assert_int_equal(t.at_least, 5);
	assert_true(fabs(t.p_value - 6.0 / 11.0) < 1e-12);
	assert_true(fabs(t.null_mean - 0.12) < 1e-12);
	assert_true(t.null_p95 > 0.5 && t.null_p95 <= 0.6);
	t.real_sharpe = 10;
	rb_perm_finish(&t);
	assert_true(fabs(t.p_value - 1.0 / 11.0) < 1e-12);
	t.real_sharpe = NAN;
	rb_perm_finish(&t);
	assert_true(isnan(t.p_value));
	t.runs = 0;
	rb_perm_finish(&t);
	assert_true(isnan(t.null_mean));
	rb_permtest_release(&t);
}

/* The statistic is the per-bar Sharpe ratio of gross equity, with no costs: long from bar 1's
 * open, the curve is 1, c1 / o1, c2 / o1, ...; its per-bar returns 0, c1 / o1 - 1, c2 / c1 - 1. */
static void test_perm_statistic(void **state)
{
	static int64_t t[5] = { 0, 3600, 7200, 10800, 14400 };
	static double o[5] = { 100, 101, 103, 102, 104 }, c[5] = { 101, 103, 102, 104, 105 };
	static double v[5] = { 1, 1, 1, 1, 1 };
	static const int8_t sig[5] = { 1, 1, 1, 1, 1 };
	struct da_ohlcv s = { .n = 5, .t = t, .open = o, .high = c, .low = o, .close = c, .volume = v };
	double r[5] = { 0, 103.0 / 101 - 1, 102.0 / 103 - 1, 104.0 / 102 - 1, 105.0 / 104 - 1 };
	double mean = 0, var = 0, sharpe, net;
	struct rp_costs costly = { .fee_bps = 100, .slippage_bps = 100, .funding_bps_8h = 50 };
	size_t trades;

	(void)state;
	for (int i = 0; i < 5; i++)
		mean += r[i] / 5;
	for (int i = 0; i < 5; i++)
		var += (r[i] - mean) * (r[i] - mean) / 4;
	assert_int_equal(rb_sharpe(&s, sig, NULL, &sharpe, &trades), 0);
	assert_int_equal(trades, 1);
	assert_true(fabs(sharpe - mean / sqrt(var)) < 1e-12);
	/* the net return is the replay's, with the costs: 105 / 101 - 1 - 4 % of fees and slippage */
	assert_int_equal(rb_net_return(&s, sig, &costly, &net), 0);
	assert_true(fabs(net - (105.0 / 101 - 1 - 0.04)) < 1e-12);
}

/* A strategy that loses money is never said to have an edge, whatever its rank; the words say
 * what the test cannot catch; "skill" is in none of them. */
static void test_perm_words(void **state)
{
	double null[20];
	struct rb_permtest t = { .runs = LEN(null), .requested = LEN(null), .real_sharpe = 0.5,
				 .real_trades = 300, .real_net_return = -0.97 };
	cJSON *o;
	const char *x, *blind;

	(void)state;
	for (size_t i = 0; i < LEN(null); i++)
		null[i] = -0.1 + 0.01 * (double)i;
	t.null = malloc(sizeof null);
	memcpy(t.null, null, sizeof null);
	rb_perm_finish(&t);
	assert_true(t.p_value <= 0.05);
	o = rb_perm_json(&t, 1);
	x = cJSON_GetObjectItemCaseSensitive(o, "explanation")->valuestring;
	blind = cJSON_GetObjectItemCaseSensitive(o, "does_not_catch")->valuestring;
	assert_non_null(strstr(x, "Before costs"));
	assert_non_null(strstr(x, "after costs the strategy loses 97.0 %"));
	assert_non_null(strstr(x, "no edge to credit"));
	assert_null(strstr(x, "skill"));
	assert_non_null(strstr(blind, "hand-picked dates"));
	assert_null(strstr(blind, "skill"));
	assert_true(fabs(cJSON_GetObjectItemCaseSensitive(o, "real_net_return")->valuedouble + 0.97) < 1e-12);
	cJSON_Delete(o);
	/* a winner that beats its shuffles: the order of the bars, and its return after costs */
	t.real_net_return = 0.25;
	o = rb_perm_json(&t, 1);
	x = cJSON_GetObjectItemCaseSensitive(o, "explanation")->valuestring;
	assert_non_null(strstr(x, "its positions use the order of the bars; after costs it returns +25.0 %"));
	assert_null(strstr(x, "skill"));
	cJSON_Delete(o);
	/* a loser that does not: luck, and the loss */
	t.real_sharpe = -1;
	t.real_net_return = -0.5;
	rb_perm_finish(&t);
	o = rb_perm_json(&t, 1);
	x = cJSON_GetObjectItemCaseSensitive(o, "explanation")->valuestring;
	assert_non_null(strstr(x, "what luck gives on these returns, and after costs it loses 50.0 %"));
	cJSON_Delete(o);
	rb_permtest_release(&t);
}

/* Hourly bars over w weeks and one bar more, 24/7 from a Monday, closes on the cent grid. */
static void hourly(struct rb_series *x, size_t weeks)
{
	size_t n = weeks * 168 + 1;
	struct da_ohlcv s = { .n = n };
	int64_t *t = malloc(n * sizeof *t);
	double *c = malloc(5 * n * sizeof *c);

	for (size_t i = 0; i < n; i++) {
		t[i] = 1704067200 + (int64_t)i * 3600;   /* 2024-01-01, a Monday */
		c[3 * n + i] = nearbyint(100 * (40000 + 300 * sin((double)i / 37) + (double)(i % 11))) / 100;
		c[i] = i ? c[3 * n + i - 1] : c[3 * n];
		c[n + i] = fmax(c[i], c[3 * n + i]) + 5;
		c[2 * n + i] = fmin(c[i], c[3 * n + i]) - 5;
		c[4 * n + i] = 1 + (double)i;
	}
	s.t = t;
	s.open = c;
	s.high = c + n;
	s.low = c + 2 * n;
	s.close = c + 3 * n;
	s.volume = c + 4 * n;
	assert_int_equal(rb_series_copy(&s, x), 0);
	free(t);
	free(c);
}

/* The calendar kept, the prices at it moved: whole weeks of shift, each bar given the return,
 * shape and volume of the bar the shift names (so the same hour of the same weekday). */
static void test_hindsight_rotation(void **state)
{
	struct rb_series x, y;
	long shift[RB_ROTATIONS];
	size_t period, wb;

	(void)state;
	assert_int_equal(rb_rotation_weeks(104, shift), 3);
	assert_true(shift[0] == 26 && shift[1] == 52 && shift[2] == 78);
	assert_int_equal(rb_rotation_weeks(8, shift), 3);
	assert_true(shift[0] == 2 && shift[1] == 4 && shift[2] == 6);
	assert_int_equal(rb_rotation_weeks(2, shift), 1);
	assert_int_equal(shift[0], 1);
	assert_int_equal(rb_rotation_weeks(1, shift), 0);
	hourly(&x, 4);
	assert_int_equal(rb_series_copy(&x.s, &y), 0);
	wb = rb_week_bars(&x.s);
	assert_int_equal(wb, 168);
	period = (x.s.n - 1) / wb * wb;
	rb_rotate_prices(&x.s, wb, period, &y);
	for (size_t i = 1; i < x.s.n; i++) {
		size_t src = 1 + (i - 1 + wb) % period;

		assert_true(y.s.t[i] == x.s.t[i]);
		assert_true(fabs(y.s.close[i] / y.s.close[i - 1] - x.s.close[src] / x.s.close[src - 1]) < 1e-12);
		assert_true(fabs(y.s.high[i] / y.s.close[i] - x.s.high[src] / x.s.close[src]) < 1e-12);
		assert_true(y.s.volume[i] == x.s.volume[src]);
		/* a whole week away: the same hour of the same weekday */
		assert_int_equal((x.s.t[src] - x.s.t[i]) % (7 * 86400), 0);
	}
	/* a price memory keyed on the first week finds other prices there */
	assert_true(y.s.close[5] != x.s.close[5]);
	rb_series_release(&y);
	rb_series_release(&x);
}

/* Every price moved by 1 to k whole ticks on its own: on the grid, never where it was, no one
 * factor restores them, high and low still hold open and close. */
static void test_hindsight_ticks(void **state)
{
	struct rb_series x, y;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double f0;
	bool factor_differs = false;

	(void)state;
	hourly(&x, 1);
	assert_int_equal(rb_series_copy(&x.s, &y), 0);
	assert_true(rb_resolution(x.s.close, x.s.n) == 0.01);
	/* the median range is 10 + |open - close|: a twentieth of it, in cents */
	assert_true(rb_ticks_max(&x.s, 0.01) >= 50);
	rb_nudge_ticks(&y, 0.01, 3, rng);
	f0 = y.s.close[0] / x.s.close[0];
	for (size_t i = 0; i < x.s.n; i++) {
		double k = (y.s.close[i] - x.s.close[i]) / 0.01;

		assert_true(fabs(k) >= 1 - 1e-6 && fabs(k) <= 3 + 1e-6);
		assert_true(fabs(k - nearbyint(k)) < 1e-6);
		assert_true(y.s.high[i] >= fmax(y.s.open[i], y.s.close[i]));
		assert_true(y.s.low[i] <= fmin(y.s.open[i], y.s.close[i]));
		assert_true(y.s.open[i] != x.s.open[i]);
		assert_true(y.s.volume[i] != x.s.volume[i] && y.s.volume[i] > 0);
		if (fabs(y.s.close[i] / x.s.close[i] - f0) > 1e-9)
			factor_differs = true;
	}
	assert_true(factor_differs);
	gsl_rng_free(rng);
	rb_series_release(&y);
	rb_series_release(&x);
}

/* The flags weigh profit: a material profit that keeps less than half under a perturbation is
 * flagged, naming the memory; an immaterial one is never judged. */
static void test_hindsight_core(void **state)
{
	struct rb_hindsight h = { 0 };
	size_t perm[5] = { 0, 0, 1, 0, 2 }, busy[3] = { 50, 60, 70 };
	cJSON *j;

	(void)state;
	h.real_trades = 40;
	h.real_profit = 0.8;
	h.real_t = 3;
	h.n_rot = 3;
	h.rot_weeks[0] = 26, h.rot_weeks[1] = 52, h.rot_weeks[2] = 78;
	h.rot_profit[0] = 0.9, h.rot_profit[1] = 0.2, h.rot_profit[2] = 0.3;
	h.tick_profit = 0.79;
	h.stay_share = 1, h.stay_z = NAN;
	/* the median rotation keeps 0.3 / 0.8 of the profit, its positions where they were: dates */
	rb_hindsight_finish(&h, busy, 3, 0.01, 100);
	assert_true(h.material && h.calendar_flagged && !h.tick_flagged && h.flagged);
	assert_true(fabs(h.rot_kept - 0.375) < 1e-12);
	j = rb_hindsight_json(&h);
	assert_non_null(strstr(cJSON_GetObjectItem(j, "reason")->valuestring, "own dates and times"));
	cJSON_Delete(j);
	/* the same profit lost with the positions moved with the prices: a rule, not a memory */
	h.stay_share = 0.05, h.stay_z = 0.4;
	rb_hindsight_finish(&h, busy, 3, 0.01, 100);
	assert_true(h.material && !h.stayed_put && !h.calendar_flagged && !h.flagged);
	j = rb_hindsight_json(&h);
	assert_non_null(strstr(cJSON_GetObjectItem(j, "reason")->valuestring, "positions moved with the prices"));
	cJSON_Delete(j);
	/* few positions stayed, but they earned the profit (a memory diluted by a busy rule) */
	h.stay_share = 0.4, h.stay_z = 6;
	rb_hindsight_finish(&h, busy, 3, 0.01, 100);
	assert_true(h.stayed_put && h.calendar_flagged && h.flagged);
	j = rb_hindsight_json(&h);
	assert_non_null(strstr(cJSON_GetObjectItem(j, "reason")->valuestring, "standard errors more"));
	cJSON_Delete(j);
	h.stay_z = RB_STAY_Z - 0.01;
	rb_hindsight_finish(&h, busy, 3, 0.01, 100);
	assert_false(h.calendar_flagged);
	h.stay_share = RB_STAY_SHARE, h.stay_z = NAN;
	rb_hindsight_finish(&h, busy, 3, 0.01, 100);
	assert_true(h.calendar_flagged);
	/* one rotation failing counts as 0, the other two keep: the median keeps */
	h.rot_profit[0] = 0, h.rot_profit[1] = 0.7, h.rot_profit[2] = 0.75;
	rb_hindsight_finish(&h, busy, 3, 0.01, 100);
	assert_false(h.flagged);
	/* the ticks lose it: a lookup of prices, named as such */
	h.tick_profit = 0.1;
	rb_hindsight_finish(&h, busy, 3, 0.01, 100);
	assert_true(h.tick_flagged && h.flagged);
	j = rb_hindsight_json(&h);
	assert_non_null(strstr(cJSON_GetObjectItem(j, "reason")->valuestring, "own prices"));
	cJSON_Delete(j);
	/* keyed to the real bars: the copies' median 0 of 40 real trades */
	h.tick_profit = 0.8;
	rb_hindsight_finish(&h, perm, 5, 0.01, 100);
	assert_true(h.keyed_real && h.flagged);
	assert_int_equal(h.surrogate_median, 0);
	/* a profit under the t threshold (1.645) is not judged however little it keeps */
	h.real_t = 1.5;
	h.rot_profit[1] = h.rot_profit[2] = -1;
	rb_hindsight_finish(&h, perm, 5, 0.4, -1);
	assert_false(h.material || h.flagged);
	assert_true(h.later_start);
	/* too few trades, or a loss: nothing to judge */
	h.real_t = 5;
	h.real_trades = 9;
	rb_hindsight_finish(&h, busy, 3, 0.01, 100);
	assert_false(h.material);
	h.real_trades = 40;
	h.real_profit = -0.2;
	rb_hindsight_finish(&h, busy, 3, 0.01, 100);
	assert_false(h.material);
}

/* Where the positions stayed: cleared where any moved run holds another; the share of the held
 * bars and the stayed bars' excess over as many drawn at random, in its standard errors. */
static void test_stay_measure(void **state)
{
	int8_t pos[10] = { 1, 1, 1, 1, 0, 0, -1, -1, -1, -1 }, a[10], b[10];
	double eq[10], ret[10] = { 0.02, 0.03, -0.01, 0.01, 0, 0, 0.02, -0.01, 0.01, 0 };
	struct rp_result real = { .n_eq = 10, .eq_pos = pos, .eq_net = eq }, m1 = real, m2 = real;
	struct rb_hindsight h = { 0 };
	unsigned char stay[10];
	double kept = 0.02 + 0.03 + 0.02, sum = 0, mean, ss = 0, f = 3.0 / 8, z;

	(void)state;
	for (int i = 0; i < 10; i++)
		eq[i] = (i ? eq[i - 1] : 1.0) * (1 + ret[i]);
	memcpy(a, pos, 10), memcpy(b, pos, 10);
	a[2] = a[3] = 0, a[7] = 1;     /* the first move holds bars 0, 1, 6, 8, 9 alike */
	b[8] = b[9] = 0;               /* the second 0 to 7 */
	m1.eq_pos = a, m2.eq_pos = b;
	memset(stay, 1, sizeof stay);
	rb_stay_mark(&real, &m1, stay);
	rb_stay_mark(&real, &m2, stay);
	assert_int_equal(rb_stay_measure(&real, stay, &h), 0);
	/* held: 0-3 and 6-9 (8 bars); stayed through both: 0, 1 and 6 */
	assert_int_equal(h.stay_bars, 8);
	assert_int_equal(h.stay_held, 3);
	assert_true(fabs(h.stay_share - f) < 1e-12);
	for (int i = 0; i < 10; i++)
		sum += pos[i] ? ret[i] : 0;
	mean = sum / 8;
	for (int i = 0; i < 10; i++)
		ss += pos[i] ? (ret[i] - mean) * (ret[i] - mean) : 0;
	z = (kept - f * sum) / sqrt(f * (1 - f) * 8 * ss / 7);
	assert_true(fabs(h.stay_z - z) < 1e-9 && h.stay_z > 1);
	/* every position stayed: the share is 1 and there is no draw to compare with */
	memset(stay, 1, sizeof stay);
	rb_stay_mark(&real, &real, stay);
	assert_int_equal(rb_stay_measure(&real, stay, &h), 0);
	assert_true(h.stay_share == 1 && isnan(h.stay_z));
}

/* A later start is judged past one warm-up measured on the earliest start. */
static void test_later_start(void **state)
{
	int8_t full[100], a[90], b[50];
	struct rb_warmup w = {0};

	(void)state;
	for (int i = 0; i < 100; i++)
		full[i] = (int8_t)(i % 7 < 3 ? 1 : -1);
	/* started at bar 10, it is flat for its first 30 bars, then agrees to the end */
	memcpy(a, full + 10, 90);
	memset(a, 0, 30);
	/* started at bar 50 (after the tail start, 60, less than a warm-up), flat until bar 80 */
	memcpy(b, full + 50, 50);
	memset(b, 0, 30);
	w.n_bars = 100;
	w.tail_start = rb_tail_start(100);
	w.n_runs = 2;
	rb_warm_compare(full, 100, 10, 10, a, 90, "ok", NULL, &w.run[0]);
	rb_warm_compare(full, 50 + 50, 50, 50, b, 50, "ok", NULL, &w.run[1]);
	/* on the tail as it stands, the later start differs on 20 of its 40 bars */
	assert_true(w.run[1].disagreement > 0.25);
	assert_true(rb_warm_measure(&w) >= 28 && w.warmup_bars <= 30);
	rb_later_compare(full, 100, a, w.warmup_bars, &w.run[0]);
	rb_later_compare(full, 100, b, w.warmup_bars, &w.run[1]);
	assert_int_equal(w.run[0].later_from, 60);
	assert_true(w.run[0].later_disagreement == 0);
	assert_true(w.run[1].later_from >= 78 && w.run[1].later_disagreement <= 2.0 / 20);
	/* a run that never settles grants no warm-up: the tail is judged as it stands */
	for (int i = 0; i < 90; i += 9)
		a[i] = (int8_t)-full[10 + i];
	a[89] = (int8_t)-full[99];
	rb_warm_compare(full, 100, 10, 10, a, 90, "ok", NULL, &w.run[0]);
	assert_int_equal(rb_warm_measure(&w), -1);
	rb_later_compare(full, 100, b, w.warmup_bars, &w.run[1]);
	assert_int_equal(w.run[1].later_from, 60);
	assert_true(w.run[1].later_disagreement > 0.25);
}

/* The runs' signals kept and read back as they were; a file that is not the index's, a value
 * that is no signal, an entry outside the file are refused; the bars' hash sees one price; the
 * hindsight copies are the same from the same bars and seed, so the scoring rebuilds them. */
static void test_runsig(void **state)
{
	static const int8_t a[3] = { 1, 0, -1 }, b[4] = { 0, 1, 1, 0 };
	struct da_runsig w = {0}, r = {0};
	char dir[64], path[96], bad[96], sha[65], sha2[65], err[512];
	const int8_t *sig;
	size_t at, n;
	cJSON *e;
	struct rb_series x, y, cx[RB_ROTATIONS + 1] = {0}, cy[RB_ROTATIONS + 1] = {0};
	struct rb_hindsight hx = {0}, hy = {0};
	size_t kx, ky;
	(void)state;

	strcpy(dir, "/tmp/sa-test-runsig-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/sig.bin", dir);
	snprintf(bad, sizeof bad, "%s/bad.bin", dir);
	assert_int_equal(da_runsig_add(&w, a, 3, &at), 0);
	assert_int_equal(at, 0);
	assert_int_equal(da_runsig_add(&w, b, 4, &at), 0);
	assert_int_equal(at, 3);
	assert_int_equal(da_runsig_write(&w, path, sha, err, sizeof err), 0);
	assert_int_equal(da_runsig_read(path, sha, &r, err, sizeof err), 0);
	assert_int_equal(r.n, 7);
	assert_memory_equal(r.v, w.v, 7);

	e = cJSON_Parse("{\"bars\": 4, \"at\": 3}");
	assert_int_equal(da_runsig_run(&r, e, &sig, &n, err, sizeof err), 0);
	assert_int_equal(n, 4);
	assert_memory_equal(sig, b, 4);
	cJSON_Delete(e);
	e = cJSON_Parse("{\"bars\": 5, \"at\": 3}");
	assert_int_equal(da_runsig_run(&r, e, &sig, &n, err, sizeof err), -1);
	assert_non_null(strstr(err, "outside its signals file"));
	cJSON_Delete(e);
	e = cJSON_Parse("{\"bars\": 9, \"at\": null}");
	assert_int_equal(da_runsig_run(&r, e, &sig, &n, err, sizeof err), 0);
	assert_null(sig);
	assert_int_equal(n, 9);
	cJSON_Delete(e);
	e = cJSON_Parse("{\"bars\": 1.5, \"at\": 0}");
	assert_int_equal(da_runsig_run(&r, e, &sig, &n, err, sizeof err), -1);
	cJSON_Delete(e);
	da_runsig_release(&r);

	/* another file under the index's name; a value no run gives */
	w.v[0] = 0;
	assert_int_equal(da_runsig_write(&w, bad, sha2, err, sizeof err), 0);
	assert_int_equal(da_runsig_read(bad, sha, &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "is not the signals file its index names"));
	w.v[0] = DA_SIGNAL_EVENTS_MAX; /* a framework run's events: a signal */
	assert_int_equal(da_runsig_write(&w, bad, sha2, err, sizeof err), 0);
	assert_int_equal(da_runsig_read(bad, NULL, &r, err, sizeof err), 0);
	da_runsig_release(&r);
	w.v[0] = DA_SIGNAL_EVENTS_MAX + 1;
	assert_int_equal(da_runsig_write(&w, bad, sha2, err, sizeof err), 0);
	assert_int_equal(da_runsig_read(bad, NULL, &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "not a signal"));
	w.v[0] = -2;
	assert_int_equal(da_runsig_write(&w, bad, sha2, err, sizeof err), 0);
	assert_int_equal(da_runsig_read(bad, NULL, &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "not a signal"));
	assert_int_equal(sa_write_file(bad, "SAVRET2\n", 8, err, sizeof err), 0);
	assert_int_equal(da_runsig_read(bad, NULL, &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "is not a signals file"));
	da_runsig_release(&w);
	unlink(path);
	unlink(bad);
	rmdir(dir);

	hourly(&x, 4);
	assert_int_equal(rb_series_copy(&x.s, &y), 0);
	assert_int_equal(da_bars_sha256(&x.s, sha, err, sizeof err), 0);
	assert_int_equal(da_bars_sha256(&y.s, sha2, err, sizeof err), 0);
	assert_string_equal(sha, sha2);
	y.s.close[100] += 0.01;
	assert_int_equal(da_bars_sha256(&y.s, sha2, err, sizeof err), 0);
	assert_string_not_equal(sha, sha2);

	kx = rb_hindsight_copies(&x.s, 5, &hx, cx);
	ky = rb_hindsight_copies(&x.s, 5, &hy, cy);
	assert_int_equal(kx, hx.n_rot + 1);
	assert_int_equal(kx, ky);
	for (size_t k = 0; k < kx; k++)
		assert_memory_equal(cx[k].s.close, cy[k].s.close, x.s.n * sizeof *x.s.close);
	for (size_t k = 0; k <= RB_ROTATIONS; k++)
		rb_series_release(&cy[k]);
	assert_int_equal(rb_hindsight_copies(&x.s, 6, &hy, cy), ky);
	assert_memory_not_equal(cx[kx - 1].s.close, cy[kx - 1].s.close, x.s.n * sizeof *x.s.close);
	for (size_t k = 0; k <= RB_ROTATIONS; k++) {
		rb_series_release(&cx[k]);
		rb_series_release(&cy[k]);
	}
	rb_series_release(&x);
	rb_series_release(&y);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runsig),
		cmocka_unit_test(test_hindsight_core),
		cmocka_unit_test(test_stay_measure),
		cmocka_unit_test(test_hindsight_rotation),
		cmocka_unit_test(test_hindsight_ticks),
		cmocka_unit_test(test_later_start),
		cmocka_unit_test(test_offsets_parse),
		cmocka_unit_test(test_tail_and_offsets),
		cmocka_unit_test(test_warm_compare),
		cmocka_unit_test(test_perm_make),
		cmocka_unit_test(test_perm_finish),
		cmocka_unit_test(test_perm_statistic),
		cmocka_unit_test(test_perm_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
