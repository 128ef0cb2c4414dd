/* test_lookahead.c - the look-ahead core: point selection, capping, comparison, explanation, JSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lookahead_core.h"

#define LEN(a) (sizeof(a) / sizeof((a)[0]))
#define H 3600

static const int64_t T0 = 1709647200; /* 2024-03-05 14:00 UTC */

static void test_points_changes_and_last(void **state)
{
	/* changes, the last bar and, budget allowing, the bar before each change */
	static const struct { int8_t full[8]; size_t want[8]; size_t n_want; } cases[] = {
		{{0, 0, 1, 1, -1, -1, 0, 0}, {1, 2, 3, 4, 5, 6, 7}, 7},
		{{0, 0, 0, 0, 1, 1, 1, 1}, {3, 4, 7}, 3},
		{{1, 1, 1, 1, 1, 1, 1, 1}, {0, 7}, 2},        /* not flat at bar 0 */
		{{0, 0, 0, 0, 0, 0, 0, 0}, {7}, 1},
		{{1, -1, 1, -1, 1, -1, 1, -1}, {0, 1, 2, 3, 4, 5, 6, 7}, 8},
	};
	(void)state;
	for (size_t c = 0; c < LEN(cases); c++) {
		struct la_points p;

		assert_int_equal(la_points_choose(cases[c].full, 8, 100, 1, 0, &p), 0);
		assert_int_equal(p.n, cases[c].n_want);
		assert_false(p.capped);
		assert_int_equal(p.candidates, cases[c].n_want);
		for (size_t i = 0; i < p.n; i++)
			assert_int_equal(p.t[i], cases[c].want[i]);
		la_points_release(&p);
	}
}

/* A peek that delays a change acts on the bar before it; those bars fill the budget the
 * changes, random bars and last bar leave, and never push one of those out. */
static void test_points_before_changes(void **state)
{
	int8_t full[1000];
	struct la_points p;
	size_t before = 0, change = 0;

	(void)state;
	for (size_t i = 0; i < LEN(full); i++)
		full[i] = (int8_t)((i / 10) % 2 ? 1 : -1);   /* changes at 0, 10, ..., 990 */
	assert_int_equal(la_points_choose(full, 1000, 1000, 1, 0, &p), 0);
	assert_false(p.capped);
	assert_int_equal(p.candidates, 101 + 99);      /* 100 changes + last, 99 bars before */
	assert_int_equal(p.n, 200);
	assert_int_equal(p.t[1], 9);
	assert_int_equal(p.t[2], 10);
	la_points_release(&p);

	/* 101 primary points and room for 49 of the 99 others: all primary kept, rest spread */
	assert_int_equal(la_points_choose(full, 1000, 150, 1, 0, &p), 0);
	assert_true(p.capped);
	assert_int_equal(p.candidates, 200);
	assert_int_equal(p.n, 150);
	for (size_t i = 0; i < p.n; i++) {
		if (p.t[i] % 10 == 0 || p.t[i] == 999)
			change++;
		else if (p.t[i] % 10 == 9)
			before++;
		if (i > 0)
			assert_true(p.t[i - 1] < p.t[i]);
	}
	assert_int_equal(change, 101);
	assert_int_equal(before, 49);
	assert_int_equal(p.t[p.n - 1], 999);
	la_points_release(&p);

	/* the primary points take the whole budget: none of the bars before changes is added */
	assert_int_equal(la_points_choose(full, 1000, 101, 1, 0, &p), 0);
	assert_true(p.capped);   /* the 99 bars before changes did not fit */
	assert_int_equal(p.n, 101);
	for (size_t i = 0; i < p.n; i++)
		assert_true(p.t[i] % 10 == 0 || p.t[i] == 999);
	la_points_release(&p);
}

static void test_points_random_reproducible(void **state)
{
	int8_t *full = calloc(100000, 1);
	struct la_points a, b, c;

	(void)state;
	assert_non_null(full);
	assert_int_equal(la_points_choose(full, 100000, 2000, 7, 32, &a), 0);
	assert_int_equal(la_points_choose(full, 100000, 2000, 7, 32, &b), 0);
	assert_int_equal(la_points_choose(full, 100000, 2000, 8, 32, &c), 0);
	assert_true(a.n > 20 && a.n <= 33);
	assert_int_equal(a.n, b.n);
	assert_memory_equal(a.t, b.t, a.n * sizeof *a.t);
	assert_true(a.n != c.n || memcmp(a.t, c.t, a.n * sizeof *a.t) != 0);
	assert_int_equal(a.t[a.n - 1], 99999);
	for (size_t i = 1; i < a.n; i++)
		assert_true(a.t[i - 1] < a.t[i]);
	/* mt19937 seeded with 1 gives the same first draw everywhere: pins the generator choice */
	la_points_release(&c);
	assert_int_equal(la_points_choose(full, 100000, 2000, 1, 1, &c), 0);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.t[0], 41702);
	la_points_release(&a);
	la_points_release(&b);
	la_points_release(&c);
	free(full);
}

static void test_points_capped_spread(void **state)
{
	int8_t full[1000];
	struct la_points p;

	(void)state;
	for (size_t i = 0; i < LEN(full); i++)
		full[i] = (int8_t)((i / 10) % 2 ? 1 : -1);   /* 100 changes incl. bar 0 */
	assert_int_equal(la_points_choose(full, 1000, 5, 1, 0, &p), 0);
	assert_true(p.capped);
	assert_int_equal(p.candidates, 101);
	assert_int_equal(p.n, 5);
	assert_int_equal(p.t[0], 0);
	assert_int_equal(p.t[4], 999);
	assert_int_equal(p.t[2], 500);
	for (size_t i = 1; i < p.n; i++)
		assert_true(p.t[i] - p.t[i - 1] >= 240 && p.t[i] - p.t[i - 1] <= 260);
	la_points_release(&p);
	assert_int_equal(la_points_choose(full, 1000, 1, 1, 0, &p), 0);
	assert_int_equal(p.n, 1);
	assert_int_equal(p.t[0], 999);
	la_points_release(&p);
	assert_int_equal(la_points_choose(full, 1000, 0, 1, 0, &p), -1);
	assert_int_equal(la_points_choose(full, 0, 10, 1, 0, &p), -1);
	assert_null(p.t);
	la_points_release(&p);
}

/* Points {1, 3, 5} over full = {0, 1, 1, -1, -1, 0}. */
static const int8_t FULL[6] = {0, 1, 1, -1, -1, 0};
static size_t PTS[3] = {1, 3, 5};

static void test_compare_cases(void **state)
{
	static const int8_t same1[] = {0, 1}, same3[] = {0, 1, 1, -1}, same5[] = {0, 1, 1, -1, -1, 0};
	static const int8_t peek3[] = {0, 1, 1, 0}, early5[] = {0, -1, 1, -1, -1, 0};
	struct la_points p = {.n = 3, .t = PTS, .candidates = 3};
	struct la_report rep;
	struct la_run clean[3] = {{true, 2, same1, "ok", NULL, false}, {true, 4, same3, "ok", NULL, false},
				  {true, 6, same5, "ok", NULL, false}};
	struct la_run mixed[3] = {{false, 0, NULL, "killed_cpu", "cpu limit", false},
				  {true, 4, peek3, "ok", NULL, false}, {true, 6, early5, "ok", NULL, false}};
	struct la_run shortrun[3] = {{true, 1, same1, "ok", NULL, false}, {true, 4, same3, "ok", NULL, false},
				     {true, 6, same5, "ok", NULL, false}};

	(void)state;
	assert_int_equal(la_compare(FULL, 6, &p, clean, &rep), 0);
	assert_int_equal(rep.points_checked, 3);
	assert_int_equal(rep.mismatch_count, 0);
	assert_int_equal(rep.failed_runs, 0);

	assert_int_equal(la_compare(FULL, 6, &p, mixed, &rep), 0);
	assert_int_equal(rep.points_checked, 2);
	assert_int_equal(rep.failed_runs, 1);
	assert_string_equal(rep.failures[0].status, "killed_cpu");
	assert_string_equal(rep.failures[0].error, "cpu limit");
	assert_int_equal(rep.failed_count, 1);   /* the full run was long at bar 1 */
	assert_int_equal(rep.failed[0].point, 1);
	assert_int_equal(rep.mismatch_count, 2);
	assert_int_equal(rep.mismatches[0].point, 3);
	assert_int_equal(rep.mismatches[0].bar, 3);
	assert_int_equal(rep.mismatches[0].full, -1);
	assert_int_equal(rep.mismatches[0].truncated, 0);
	assert_int_equal(rep.mismatches[1].point, 5);
	assert_int_equal(rep.mismatches[1].bar, 1);    /* the first differing bar, not the last */

	assert_int_equal(la_compare(FULL, 6, &p, shortrun, &rep), 0);
	assert_int_equal(rep.failed_runs, 1);
	assert_string_equal(rep.failures[0].status, "bad_output");
	assert_int_equal(rep.mismatch_count, 0);

	PTS[2] = 6;   /* outside the data */
	assert_int_equal(la_compare(FULL, 6, &p, clean, &rep), -1);
	PTS[2] = 5;
}

/* A run that fails while the full run was flat on every bar it saw (a warm-up that needs more
 * bars) is only a failure; one that fails once the full run has traded is a finding, counted
 * apart from the mismatches, that spoils "clean". */
static void test_compare_failed_flat_or_held(void **state)
{
	static const int8_t full[6] = {0, 0, 0, 1, 1, 0}, same5[] = {0, 0, 0, 1, 1, 0};
	static size_t t[3] = {1, 4, 5};
	struct la_points p = {.n = 3, .t = t, .candidates = 3};
	struct la_run warmup[3] = {{false, 0, NULL, "error", "IndexError: index 2 is out of bounds", false},
				   {true, 5, same5, "ok", NULL, false}, {true, 6, same5, "ok", NULL, false}};
	/* the run at bar 5 fails where the full run is flat again: it had traded before */
	struct la_run held[3] = {{true, 2, same5, "ok", NULL, false},
				 {false, 0, NULL, "error", "KeyError: '2024-12-30'", false},
				 {false, 0, NULL, "error", "KeyError: '2024-12-30'", false}};
	int64_t times[6];
	static struct la_report rep;
	char buf[1024];
	cJSON *j;

	(void)state;
	for (size_t i = 0; i < 6; i++)
		times[i] = T0 + (int64_t)i * H;
	assert_int_equal(la_compare(full, 6, &p, warmup, &rep), 0);
	assert_int_equal(rep.failed_runs, 1);
	assert_int_equal(rep.failed_count, 0);
	assert_int_equal(rep.first_traded, 3);
	j = la_report_json(&rep, times, 6);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(j, "clean")));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(j, "complete")));
	cJSON_Delete(j);
	la_explain(&rep, times, 6, buf, sizeof buf);
	assert_non_null(strstr(buf, "1 re-run failed before the first position was taken"));

	assert_int_equal(la_compare(full, 6, &p, held, &rep), 0);
	assert_int_equal(rep.failed_runs, 2);
	assert_int_equal(rep.mismatch_count, 0);
	assert_int_equal(rep.failed_count, 2);
	assert_int_equal(rep.n_failed, 2);
	assert_int_equal(rep.failed[0].point, 4);
	assert_int_equal(rep.failed[1].point, 5);
	j = la_report_json(&rep, times, 6);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(j, "ok")));
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(j, "clean")));
	assert_int_equal(cJSON_GetObjectItem(j, "mismatch_count")->valueint, 0);
	assert_int_equal(cJSON_GetObjectItem(j, "failed_count")->valueint, 2);
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "failed"), 0),
					     "bar")->valueint, 4);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "failed"), 0),
						"time")->valuestring, "2024-03-05T18:00:00Z");
	cJSON_Delete(j);
	la_explain(&rep, times, 6, buf, sizeof buf);
	assert_non_null(strstr(buf, "On 2 of 3 shorter histories the strategy could not run at all: "
				    "it needs bars that had not happened yet."));
	assert_non_null(strstr(buf, "up to 2024-03-05 18:00"));
	assert_non_null(strstr(buf, "KeyError"));
	assert_null(strstr(buf, "no look-ahead was found"));

	/* every run failing is no longer "could not be checked": it is the finding */
	held[0] = held[1];
	assert_int_equal(la_compare(full, 6, &p, held, &rep), 0);
	assert_int_equal(rep.points_checked, 0);
	j = la_report_json(&rep, times, 6);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(j, "ok")));
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(j, "clean")));
	cJSON_Delete(j);
}

/* Runs the budget cut short are not checked, neither failures nor matches, and the check says
 * it is unfinished and why. */
static void test_compare_not_run(void **state)
{
	static const int8_t full[6] = {0, 1, 1, 1, 1, 1};
	static size_t t[3] = {1, 4, 5};
	struct la_points p = {.n = 3, .t = t, .candidates = 3};
	struct la_run runs[3] = {{true, 2, full, "ok", NULL, false},
				 {false, 0, NULL, "not_run", "cut short", true},
				 {false, 0, NULL, "not_run", "not run", true}};
	int64_t times[6];
	static struct la_report rep;
	char buf[1024];
	cJSON *j;

	(void)state;
	for (size_t i = 0; i < 6; i++)
		times[i] = T0 + (int64_t)i * H;
	assert_int_equal(la_compare(full, 6, &p, runs, &rep), 0);
	assert_int_equal(rep.points_checked, 1);
	assert_int_equal(rep.points_not_run, 2);
	assert_int_equal(rep.failed_runs, 0);
	assert_int_equal(rep.failed_count, 0);
	rep.stopped = LA_STOP_BUDGET;
	j = la_report_json(&rep, times, 6);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(j, "clean")));
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(j, "complete")));
	assert_string_equal(cJSON_GetObjectItem(j, "stopped")->valuestring, "budget");
	assert_int_equal(cJSON_GetObjectItem(j, "points_not_run")->valueint, 2);
	cJSON_Delete(j);
	la_explain(&rep, times, 6, buf, sizeof buf);
	assert_non_null(strstr(buf, "The time budget ran out with 1 of 3 points checked"));
	assert_non_null(strstr(buf, "a larger AUDIT_S would finish it"));
}

/* Rare mismatches, each on its run's newest bar alone, are named as such (a rolling fit that
 * recomputes its last window), not as prices from the future; many are a leak. */
static void test_compare_newest_bar(void **state)
{
	enum { N = 40 };
	int8_t full[N], off[N];
	size_t t[20];
	struct la_run runs[20];
	struct la_points p = {.n = 20, .t = t, .candidates = 20};
	int64_t times[N];
	static struct la_report rep;
	char buf[1024];

	(void)state;
	for (size_t i = 0; i < N; i++) {
		full[i] = off[i] = (int8_t)(i % 2 ? 1 : -1);
		times[i] = T0 + (int64_t)i * H;
	}
	for (size_t i = 0; i < 20; i++) {
		t[i] = 2 * i;
		runs[i] = (struct la_run){true, t[i] + 1, full, "ok", NULL, false};
	}
	off[10] = 0;   /* the run at bar 10 differs on bar 10 only */
	runs[5].signals = off;
	assert_int_equal(la_compare(full, N, &p, runs, &rep), 0);
	assert_int_equal(rep.mismatch_count, 1);
	assert_true(la_newest_bar_noise(&rep));
	la_explain(&rep, times, N, buf, sizeof buf);
	assert_non_null(strstr(buf, "On 1 of 20 shorter histories the strategy changed only its "
				    "newest signal (at 2024-03-06 00:00)"));
	assert_non_null(strstr(buf, "cannot be traded as backtested"));
	assert_null(strstr(buf, "not known yet"));

	/* on every run's newest bar: a shift(-1) leak, not noise */
	for (size_t i = 0; i + 1 < 20; i++)
		runs[i].signals = NULL;
	for (size_t i = 0; i + 1 < 20; i++) {
		static int8_t each[20][N];

		memcpy(each[i], full, N);
		each[i][t[i]] = 0;
		runs[i].signals = each[i];
	}
	assert_int_equal(la_compare(full, N, &p, runs, &rep), 0);
	assert_int_equal(rep.mismatch_count, 19);
	assert_false(la_newest_bar_noise(&rep));
	la_explain(&rep, times, N, buf, sizeof buf);
	assert_non_null(strstr(buf, "not known yet"));
}

/* The fixed price of a run in bars, fitted from what runs cost, and a pass cut at it. */
static void test_fixed_bars(void **state)
{
	static const size_t bars[] = { 100000, 300000, 500000, 900000 };
	static const size_t same[] = { 5, 5, 5 };
	double line[4], flat[4] = { 7, 7, 7, 7 }, falling[4];
	enum { K = 100 };
	static size_t t[K], order[K];
	static int slot[K];
	struct la_points p = {.n = K, .t = t, .candidates = K};
	size_t n0 = 0;

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		line[i] = 13.0 + 26.0 * (double)bars[i] / 1e6;   /* 13 ms fixed, 26 ms a million bars */
		falling[i] = -1.0 + 1e-5 * (double)bars[i];
	}
	assert_float_equal(la_fixed_bars(bars, line, 4), 500000.0, 1e-6);
	assert_float_equal(la_fixed_bars(bars, flat, 4), LA_FIXED_BARS_MAX, 0);
	assert_float_equal(la_fixed_bars(bars, falling, 4), 0.0, 0);
	assert_float_equal(la_fixed_bars(bars, line, 1), 2048.0, 0);
	assert_float_equal(la_fixed_bars(same, flat, 3), 2048.0, 0);
	/* at a price far above the bars, the two stretches hold as many runs each */
	for (size_t i = 0; i < K; i++) {
		t[i] = 1000 * i;
		order[i] = i;
	}
	la_split(&p, order, K, 2, LA_FIXED_BARS_MAX, slot);
	for (size_t i = 0; i < K; i++) {
		n0 += slot[i] == 0;
		if (i)
			assert_true(slot[i] >= slot[i - 1]);
	}
	assert_int_equal(n0, K / 2);
	/* at no fixed price, the early stretch holds about 1/sqrt(2) of them (equal sums of bars) */
	n0 = 0;
	la_split(&p, order, K, 2, 0, slot);
	for (size_t i = 0; i < K; i++)
		n0 += slot[i] == 0;
	assert_true(n0 >= 69 && n0 <= 72);
}

/* Coarse to fine: the first pass spans the whole history, and no two slots ever hold neighbours
 * of one pass; the schedule is a permutation of the points. */
static void test_schedule(void **state)
{
	enum { K = 1000 };
	static size_t t[K], order[K];
	static int slot[K];
	struct la_points p = {.n = K, .t = t, .candidates = K};
	bool seen[K] = {false};

	(void)state;
	for (size_t i = 0; i < K; i++)
		t[i] = 10 * i;
	assert_int_equal(la_schedule(&p, 2, order, slot), 0);
	for (size_t i = 0; i < K; i++) {
		assert_false(seen[order[i]]);
		seen[order[i]] = true;
		assert_true(slot[i] == 0 || slot[i] == 1);
	}
	/* the first pass: every 64th point and the last, in time order within each slot */
	assert_int_equal(order[0], 0);
	for (size_t i = 0; i < 17; i++)
		assert_true(order[i] % LA_PASS_STRIDE == 0 || order[i] == K - 1);
	assert_int_equal(slot[0], 0);
	assert_int_equal(slot[16], 1);
	/* slot 1 starts the first pass half the history's cost away from slot 0 */
	for (size_t i = 0; i < 17; i++)
		if (slot[i] == 1) {
			assert_true(t[order[i]] > 10 * K / 2);
			break;
		}
	/* one slot is one stretch of a pass, in time order */
	for (size_t i = 1; i < 17; i++)
		if (slot[i] == slot[i - 1])
			assert_true(order[i] > order[i - 1]);
}

/* When the run at the last bar, which hides nothing, disagrees, the signals are not repeatable
 * and the earlier differences are not blamed on the future. */
static void test_compare_unrepeatable(void **state)
{
	static const int8_t full[4] = {1, -1, 1, 1}, other[4] = {-1, -1, 1, 1};
	static size_t t[2] = {1, 3};
	struct la_points p = {.n = 2, .t = t, .candidates = 2};
	struct la_run runs[2] = {{true, 2, other, "ok", NULL, false}, {true, 4, other, "ok", NULL, false}};
	int64_t times[4];
	static struct la_report rep;
	char buf[768];
	cJSON *j;

	(void)state;
	for (size_t i = 0; i < 4; i++)
		times[i] = T0 + (int64_t)i * H;
	assert_int_equal(la_compare(full, 4, &p, runs, &rep), 0);
	assert_int_equal(rep.mismatch_count, 2);
	assert_true(rep.unrepeatable);
	assert_int_equal(rep.repeat.point, 3);
	assert_int_equal(rep.mismatches[0].point, 1);
	la_explain(&rep, times, 4, buf, sizeof buf);
	assert_non_null(strstr(buf, "not repeatable"));
	assert_null(strstr(buf, "not known yet"));
	j = la_report_json(&rep, times, 4);
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(j, "repeatable")));
	cJSON_Delete(j);

	runs[1].signals = full;   /* the last bar agrees: a plain look-ahead */
	assert_int_equal(la_compare(full, 4, &p, runs, &rep), 0);
	assert_false(rep.unrepeatable);
	la_explain(&rep, times, 4, buf, sizeof buf);
	assert_non_null(strstr(buf, "not known yet"));
}

static void test_compare_listing_capped(void **state)
{
	enum { N = 200 };
	int8_t full[N], trunc[N];
	size_t t[N];
	struct la_run runs[N];
	struct la_points p = {.n = N, .t = t, .candidates = N};
	static struct la_report rep;

	(void)state;
	for (size_t i = 0; i < N; i++) {
		full[i] = 1;
		trunc[i] = 1;
		t[i] = i;
	}
	for (size_t i = 0; i < N; i++) {
		/* every run disagrees on its own last bar, as a shift(-1) leak does */
		runs[i] = (struct la_run){true, i + 1, NULL, "ok", NULL, false};
	}
	trunc[N - 1] = 0;
	for (size_t i = 0; i < N; i++)
		runs[i].signals = trunc + (N - 1 - i);
	assert_int_equal(la_compare(full, N, &p, runs, &rep), 0);
	assert_int_equal(rep.mismatch_count, N);
	assert_int_equal(rep.n_mismatches, LA_LISTED_MAX);
	assert_int_equal(rep.mismatches[LA_LISTED_MAX - 1].point, LA_LISTED_MAX - 1);
}

static void test_explain_texts(void **state)
{
	int64_t times[6];
	struct la_report rep = {0};
	char buf[512];

	(void)state;
	for (size_t i = 0; i < 6; i++)
		times[i] = T0 + (int64_t)i * H;
	rep.points_checked = 4;
	rep.mismatch_count = 2;
	rep.n_mismatches = 1;
	rep.mismatches[0] = (struct la_mismatch){.point = 0, .bar = 0, .full = 1, .truncated = 0};
	assert_string_equal(la_explain(&rep, times, 6, buf, sizeof buf),
			    "At 2024-03-05 14:00 the strategy said long using prices from 15:00 that "
			    "were not known yet: shown history only up to 14:00, it said flat there "
			    "instead. 2 of 4 re-runs with the future hidden disagreed.");
	times[1] = T0 + 11 * H;   /* next bar on the next day */
	rep.mismatches[0].full = -1;
	la_explain(&rep, times, 6, buf, sizeof buf);
	assert_non_null(strstr(buf, "said short using prices from 2024-03-06 01:00"));
	rep.mismatches[0] = (struct la_mismatch){.point = 5, .bar = 2, .full = 0, .truncated = 1};
	la_explain(&rep, times, 6, buf, sizeof buf);
	assert_non_null(strstr(buf, "not repeatable"));

	memset(&rep, 0, sizeof rep);
	rep.points_checked = 9;
	rep.failed_runs = 1;
	assert_string_equal(la_explain(&rep, times, 6, buf, sizeof buf),
			    "The strategy gave the same signals with the future hidden at all 9 "
			    "points checked, so no look-ahead was found. 1 re-run failed before the "
			    "first position was taken (a warm-up that needs more history) and could "
			    "not be compared.");
	rep.capped = true;
	rep.candidate_points = 40;
	la_explain(&rep, times, 6, buf, sizeof buf);
	assert_non_null(strstr(buf, "all 9 points checked (spread evenly over 40 candidate bars)"));
	rep.points_checked = 0;
	la_explain(&rep, times, 6, buf, sizeof buf);
	assert_non_null(strstr(buf, "could not be checked"));
}

static cJSON *parse(const char *s)
{
	cJSON *j = cJSON_Parse(s);

	assert_non_null(j);
	return j;
}

static void test_full_signals(void **state)
{
	static const struct { const char *json; size_t n; int rc; const char *why; } cases[] = {
		{"{\"ok\":true,\"status\":\"ok\",\"n_bars\":3,\"signals\":[0,1,-1],\"blocked_actions\":0}", 3, 0, ""},
		{"{\"status\":\"error\",\"signals\":null}", 3, -1, "did not finish cleanly (status 'error')"},
		{"{\"ok\":true,\"status\":\"ok\",\"n_bars\":3,\"signals\":[0,1,-1],\"blocked_actions\":2}", 3, -1, "contained (2 blocked actions)"},
		{"{\"ok\":true,\"status\":\"ok\",\"n_bars\":3,\"signals\":[0,1,-1],\"blocked_actions\":[{}]}", 3, -1, "contained (1 blocked action)"},
		{"{\"ok\":true,\"status\":\"ok\",\"n_bars\":3,\"signals\":[0,1]}", 3, -1, "holds 2 signals for 3 bars"},
		{"{\"ok\":true,\"status\":\"ok\",\"n_bars\":3,\"signals\":[0,2,1]}", 3, -1, "signal 1 is not -1, 0 or 1"},
		{"{\"ok\":true,\"status\":\"ok\",\"n_bars\":3,\"signals\":[0,\"1\",1]}", 3, -1, "signal 1 is not"},
		{"{\"ok\":true,\"status\":\"ok\",\"n_bars\":3,\"signals\":[0,0.5,1]}", 3, -1, "signal 1 is not"},
		{"{\"ok\":true,\"status\":\"ok\",\"n_bars\":4,\"signals\":[0,1,-1]}", 3, -1, "n_bars is 4 but the data has 3"},
		{"{\"ok\":false,\"status\":\"ok\",\"n_bars\":3,\"signals\":[0,1,-1]}", 3, -1, "did not finish cleanly"},
		{"{}", 3, -1, "status 'missing'"},
	};
	(void)state;
	for (size_t c = 0; c < LEN(cases); c++) {
		cJSON *j = parse(cases[c].json);
		int8_t *sig = (int8_t *)1;
		char why[256] = "";

		assert_int_equal(la_full_signals(j, cases[c].n, &sig, why, sizeof why), cases[c].rc);
		assert_non_null(strstr(why, cases[c].why));
		if (cases[c].rc == 0) {
			assert_int_equal(sig[1], 1);
			assert_int_equal(sig[2], -1);
		} else {
			assert_null(sig);
		}
		free(sig);
		cJSON_Delete(j);
	}
}

static void test_config(void **state)
{
	struct la_config c;
	char why[256];
	cJSON *j = parse("{}");

	(void)state;
	assert_int_equal(la_config_read(j, &c, why, sizeof why), 0);
	assert_int_equal(c.max, 1000000);  /* the knob table's default */
	assert_int_equal(c.seed, 1);
	assert_int_equal(c.lim.mem_mb, 1024);
	assert_int_equal(c.window, 0);      /* measured */
	cJSON_Delete(j);
	j = parse("{\"lookahead\":{\"max\":50,\"seed\":9,\"window\":300},\"limits\":{\"wall_s\":3}}");
	assert_int_equal(la_config_read(j, &c, why, sizeof why), 0);
	assert_int_equal(c.max, 50);
	assert_int_equal(c.seed, 9);
	assert_int_equal(c.lim.wall_s, 3);
	assert_int_equal(c.window, 300);
	cJSON_Delete(j);
	j = parse("{\"lookahead\":{\"max\":0}}");
	assert_int_equal(la_config_read(j, &c, why, sizeof why), -1);
	assert_non_null(strstr(why, "lookahead.max"));
	cJSON_Delete(j);
	j = parse("{\"limits\":{\"nofile\":\"many\"}}");
	assert_int_equal(la_config_read(j, &c, why, sizeof why), -1);
	assert_non_null(strstr(why, "limits.nofile"));
	cJSON_Delete(j);
	/* out of the sandbox's range: refused here exactly as the sandbox stage refuses it */
	j = parse("{\"limits\":{\"mem_mb\":8}}");
	assert_int_equal(la_config_read(j, &c, why, sizeof why), -1);
	assert_string_equal(why, "config.json: limits.mem_mb must be a whole number from 64 to 65536 (MEM_MB)");
	cJSON_Delete(j);
}

/* The window a run at t is given, and what of it is compared. */
static void test_window_compare(void **state)
{
	int8_t full[10] = {0, 1, 1, -1, -1, 0, 1, 1, 0, 0};
	int8_t sig[10];
	struct la_window w = { .bars = 4, .warm = 2 };

	(void)state;
	assert_int_equal(la_window_first(&w, 2), 0);   /* fewer bars than a window: the prefix */
	assert_int_equal(la_window_first(&w, 3), 0);
	assert_int_equal(la_window_first(&w, 9), 6);
	/* a window over [6, 9]: its first two bars are warm-up, the last two compared */
	memcpy(sig, (int8_t[]){ 0, 0, 0, 0 }, 4);
	assert_true(la_window_agrees(full, 9, 6, 2, sig, 4));
	sig[3] = 1;
	assert_false(la_window_agrees(full, 9, 6, 2, sig, 4));
	/* the wrong length, or no signals, never agrees */
	assert_false(la_window_agrees(full, 9, 6, 2, sig, 3));
	assert_false(la_window_agrees(full, 9, 6, 2, NULL, 4));
	/* a whole prefix is compared on every bar, warm-up or not */
	memcpy(sig, full, 10);
	sig[0] = 1;
	assert_false(la_window_agrees(full, 9, 0, 2, sig, 10));
	sig[0] = 0;
	assert_true(la_window_agrees(full, 9, 0, 2, sig, 10));
	/* a warm-up as long as the window still compares its last bar */
	memcpy(sig, (int8_t[]){ 1, 1, 1, 1 }, 4);
	assert_false(la_window_agrees(full, 9, 6, 9, sig, 4));
	sig[3] = 0;
	assert_true(la_window_agrees(full, 9, 6, 9, sig, 4));
}

/* How many bars a later start needs, and the window chosen from it. */
static void test_window_choose(void **state)
{
	int8_t full[8] = {1, 1, 0, 0, -1, -1, 0, 1};
	int8_t late[5] = {0, -1, -1, 0, 1};   /* started at bar 3, agreeing from its first bar */
	struct la_window w = {0};

	(void)state;
	assert_int_equal(la_probe_memory(full, 3, late, 5, 0), 0);
	late[0] = 1;
	assert_int_equal(la_probe_memory(full, 3, late, 5, 0), 1);
	late[3] = 1;
	assert_int_equal(la_probe_memory(full, 3, late, 5, 0), 4);
	/* a difference in the tail of a probe that ends early is a peek's horizon, not memory */
	assert_int_equal(la_probe_memory(full, 3, late, 5, 2), 1);
	assert_int_equal(la_probe_memory(full, 3, late, 5, 9), 0);
	la_window_choose(&w, 0, 0, 10);
	assert_int_equal(w.bars, LA_WINDOW_FLOOR);
	assert_int_equal(w.warm, 10);
	assert_string_equal(w.source, "floor");
	la_window_choose(&w, 0, 0, 3000);
	assert_int_equal(w.bars, 6000);
	assert_int_equal(w.warm, 3000);
	assert_string_equal(w.source, "measured");
	la_window_choose(&w, 0, 5000, 3000);
	assert_int_equal(w.bars, 10000);
	assert_string_equal(w.source, "startup_candle_count");
	la_window_choose(&w, 64, 0, 3000);
	assert_int_equal(w.bars, 64);
	assert_int_equal(w.warm, 32);   /* never more than half the window */
	assert_string_equal(w.source, "knob");
	la_window_grow(&w, 100);
	la_window_grow(&w, 200);
	assert_int_equal(w.bars, 256);
	assert_int_equal(w.warm, 128);
	assert_int_equal(w.grown, 2);
	assert_int_equal(w.grown_at, 100);
	assert_int_equal(w.initial, 64);
}

static void test_report_json(void **state)
{
	int64_t times[2] = {T0, T0 + H};
	static struct la_report rep;
	cJSON *j;

	(void)state;
	memset(&rep, 0, sizeof rep);
	rep.points_run = 2;
	rep.points_checked = 2;
	rep.mismatch_count = 1;
	rep.n_mismatches = 1;
	rep.mismatches[0] = (struct la_mismatch){.point = 0, .bar = 0, .full = 1, .truncated = 0};
	j = la_report_json(&rep, times, 2);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(j, "ok")));
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(j, "clean")));
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "first_mismatch"), "time")->valuestring,
			    "2024-03-05T14:00:00Z");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(j, "mismatches")), 1);
	cJSON_Delete(j);

	memset(&rep, 0, sizeof rep);
	rep.points_run = 2;
	rep.failed_runs = 2;
	j = la_report_json(&rep, times, 2);
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(j, "ok")));
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(j, "clean")));
	assert_non_null(cJSON_GetObjectItem(j, "reason"));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "first_mismatch")));
	cJSON_Delete(j);
}

/* The live replay's stretches: every bar once when the budget holds them, one stretch a slot;
 * past the budget, the budget's bars in stretches spread over the whole history. */
static void test_live_plan(void **state)
{
	size_t lo[LA_LIVE_STRETCHES * LA_LIVE_SPREAD], hi[LA_LIVE_STRETCHES * LA_LIVE_SPREAD], k, total = 0;
	(void)state;

	la_live_plan(1001, 5000, lo, hi, &k);
	assert_int_equal(k, LA_LIVE_STRETCHES);
	assert_int_equal(lo[0], 0);
	for (size_t i = 1; i < k; i++)
		assert_int_equal(hi[i - 1], lo[i]);
	assert_int_equal(hi[k - 1], 1001);
	la_live_plan(3, 5000, lo, hi, &k);  /* fewer bars than stretches */
	assert_int_equal(k, 3);
	assert_int_equal(hi[2], 3);
	la_live_plan(100000, 1000, lo, hi, &k);
	assert_int_equal(k, LA_LIVE_STRETCHES * LA_LIVE_SPREAD);
	for (size_t i = 0; i < k; i++) {
		assert_true(hi[i] > lo[i]);
		if (i > 0)
			assert_true(lo[i] >= hi[i - 1]);
		total += hi[i] - lo[i];
	}
	assert_int_equal(total, 1000);
	assert_true(lo[k - 1] >= 98000);  /* the last stretch is near the end of the history */
}

/* What the live replay adds to lookahead.json: a leak makes it unclean and is counted; an
 * undecided bar without its sample leaves it incomplete; the signals are the scored ones. */
static void test_live_merge(void **state)
{
	int64_t times[6] = { 0, 3600, 7200, 10800, 14400, 18000 };
	int8_t full[6] = { 0, 1, 1, 0, -1, 0 }, sig[6] = { 0, 1, 0, 0, -1, 0 };
	uint8_t st[6] = { LA_LIVE_AGREE, LA_LIVE_AGREE, LA_LIVE_LEAK, LA_LIVE_AGREE, LA_LIVE_AGREE,
			  LA_LIVE_UNDECIDED }, raised[6] = { 0 };
	struct la_live lv = { .ran = true, .n = 6, .window = 1024, .decided = 5, .differing = 1,
			      .leaks = 1, .backtest = full, .sig = sig, .state = st, .raised_at = raised };
	cJSON *res = cJSON_CreateObject(), *live, *a;
	(void)state;

	cJSON_AddBoolToObject(res, "clean", true);
	cJSON_AddBoolToObject(res, "complete", true);
	cJSON_AddNumberToObject(res, "mismatch_count", 0);
	cJSON_AddStringToObject(res, "explanation", "points said nothing.");
	la_live_merge(res, &lv, times);
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(res, "clean")));
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(res, "complete")));
	assert_int_equal(cJSON_GetObjectItem(res, "mismatch_count")->valueint, 0);  /* the points' own */
	assert_non_null(strstr(cJSON_GetObjectItem(res, "explanation")->valuestring,
			       "at bar 2 (1970-01-01T02:00:00Z) the backtest was long, while with only the past it was flat"));
	live = cJSON_GetObjectItem(res, "live");
	assert_int_equal(cJSON_GetObjectItem(live, "confirmed_leaks")->valueint, 1);
	a = cJSON_GetObjectItem(live, "signals");
	assert_int_equal(cJSON_GetArraySize(a), 6);
	assert_int_equal(cJSON_GetArrayItem(a, 2)->valueint, 0);
	a = cJSON_GetObjectItem(live, "first_differences");
	assert_int_equal(cJSON_GetArraySize(a), 1);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(a, 0), "confirmed")->valuestring, "leak");
	assert_false(cJSON_IsNull(cJSON_GetObjectItem(live, "sample")));
	cJSON_Delete(res);

	/* every bar decided, nothing differing: clean stays, complete stays, no sample */
	st[2] = LA_LIVE_AGREE;
	st[5] = LA_LIVE_AGREE;
	sig[2] = 1;
	lv.decided = 6;
	lv.differing = lv.leaks = 0;
	res = cJSON_CreateObject();
	cJSON_AddBoolToObject(res, "clean", true);
	cJSON_AddBoolToObject(res, "complete", true);
	cJSON_AddNumberToObject(res, "mismatch_count", 0);
	la_live_merge(res, &lv, times);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(res, "clean")));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(res, "complete")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(res, "live"), "sample")));
	cJSON_Delete(res);
}

/* When the live replay settles every bar, the truncated runs stop after their first pass and say
 * why; a sampled bar, a failed live run, a leak or a difference left unconfirmed keeps them going. */
static void test_live_settled(void **state)
{
	struct la_live lv = { .ran = true, .n = 100, .decided = 100, .differing = 3, .memory = 3 };
	struct la_report rep = { .points_run = 40, .points_checked = 2, .points_not_run = 38,
				 .candidate_points = 40, .stopped = LA_STOP_LIVE };
	int64_t times[100] = { 0 };
	char buf[1024];
	cJSON *j;
	(void)state;

	assert_true(la_live_settled(&lv));
	lv.decided = 99;
	assert_false(la_live_settled(&lv));  /* a bar only sampled */
	lv.decided = 100;
	lv.failed_runs = 1;
	assert_false(la_live_settled(&lv));
	lv.failed_runs = 0;
	lv.leaks = 1;
	assert_false(la_live_settled(&lv));
	lv.leaks = 0;
	lv.unconfirmed = 1;
	assert_false(la_live_settled(&lv));
	lv.unconfirmed = 0;
	lv.ran = false;
	assert_false(la_live_settled(&lv));

	la_explain(&rep, times, 100, buf, sizeof buf);
	assert_non_null(strstr(buf, "stopped after their first pass: 2 of 40 points"));
	j = la_report_json(&rep, times, 100);
	assert_string_equal(cJSON_GetObjectItem(j, "stopped")->valuestring, "live");
	cJSON_Delete(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_points_changes_and_last),
		cmocka_unit_test(test_points_before_changes),
		cmocka_unit_test(test_points_random_reproducible),
		cmocka_unit_test(test_points_capped_spread),
		cmocka_unit_test(test_compare_cases),
		cmocka_unit_test(test_compare_failed_flat_or_held),
		cmocka_unit_test(test_compare_not_run),
		cmocka_unit_test(test_compare_newest_bar),
		cmocka_unit_test(test_schedule),
		cmocka_unit_test(test_fixed_bars),
		cmocka_unit_test(test_compare_unrepeatable),
		cmocka_unit_test(test_compare_listing_capped),
		cmocka_unit_test(test_explain_texts),
		cmocka_unit_test(test_full_signals),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_report_json),
		cmocka_unit_test(test_window_compare),
		cmocka_unit_test(test_window_choose),
		cmocka_unit_test(test_live_plan),
		cmocka_unit_test(test_live_merge),
		cmocka_unit_test(test_live_settled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
