/* test_robust.c - the robust core: offsets, the warm-up comparison, the permuted copies and the
 * permutation p-value. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>
#include <gsl/gsl_rng.h>

#include "robust_core.h"

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
	struct sa_ohlcv s = { .n = N, .t = t, .open = o, .high = h, .low = l, .close = c, .volume = v };
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

/* The hindsight core: entries kept, the data's price resolution, the calendar's 28-year room,
 * and the flags. */
/* The statistic is the per-bar Sharpe ratio of gross equity, with no costs: long from bar 1's
 * open, the curve is 1, c1 / o1, c2 / o1, ...; its per-bar returns 0, c1 / o1 - 1, c2 / c1 - 1. */
static void test_perm_statistic(void **state)
{
	static int64_t t[5] = { 0, 3600, 7200, 10800, 14400 };
	static double o[5] = { 100, 101, 103, 102, 104 }, c[5] = { 101, 103, 102, 104, 105 };
	static double v[5] = { 1, 1, 1, 1, 1 };
	static const int8_t sig[5] = { 1, 1, 1, 1, 1 };
	struct sa_ohlcv s = { .n = 5, .t = t, .open = o, .high = c, .low = o, .close = c, .volume = v };
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

static void test_hindsight_core(void **state)
{
	static const int8_t full[10] = { 0, 1, 1, 0, -1, -1, 1, 0, 0, 1 };
	static const int8_t same[10] = { 0, 1, 1, 0, -1, -1, 1, 0, 0, 1 };
	static const int8_t late[10] = { 0, 0, 1, 0, -1, -1, 1, 0, 0, 0 };
	static const double cents[3] = { 40000.01, 39999.5, 40001 }, fine[2] = { 1.123456789, 2 };
	int64_t t2024[1] = { 1704067200 }, t2080[1] = { 3471292800 };
	struct sa_ohlcv s2024 = { .n = 1, .t = t2024 }, s2080 = { .n = 1, .t = t2080 };
	struct rb_hindsight h = { 0 };
	size_t perm[5] = { 0, 0, 1, 0, 2 }, entries = 0;

	(void)state;
	/* entries: bar 1 (long), 4 (short), 6 (flip), 9 (long) */
	assert_true(rb_entries_kept(full, same, 10, &entries) == 1.0);
	assert_int_equal(entries, 4);
	/* a day late at bar 1 (from flat at bar 1: missed), bar 9 missed: half kept */
	assert_true(rb_entries_kept(full, late, 10, &entries) == 0.5);
	assert_true(isnan(rb_entries_kept(same + 7, same + 7, 2, &entries)));
	assert_true(rb_resolution(cents, 3) == 0.01);
	assert_true(rb_resolution(fine, 2) == 1e-8);
	assert_int_equal(rb_shift_weeks(&s2024), RB_SHIFT_WEEKS);
	assert_int_equal(rb_shift_weeks(&s2080), -RB_SHIFT_WEEKS);
	/* keyed: 40 real trades, the copies a median of 0; kept 0 under the shift: flagged */
	h.entries = 40;
	h.shift_kept = 0;
	h.jitter_kept = 1;
	rb_hindsight_finish(&h, perm, 5, 40, 0.01);
	assert_true(h.flagged && h.shift_flagged && !h.jitter_flagged && h.keyed_real);
	assert_int_equal(h.surrogate_median, 0);
	assert_int_equal(h.surrogate_min, 0);
	assert_false(h.later_start);
	/* too few entries to judge, and a later start past a quarter */
	h.entries = 5;
	rb_hindsight_finish(&h, perm, 5, 40, 0.4);
	assert_false(h.flagged);
	assert_true(h.later_start);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hindsight_core),
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
