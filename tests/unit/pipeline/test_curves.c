/* test_curves.c - the curve files the stages write for the report: rolling.csv worked by hand
 * (empty cells before a full window, 17 digits that read back as the very doubles), the
 * walk-forward's stretch column, a header alone when there is nothing to hold, and
 * reconcile.csv's two curves compounded exit by exit. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "replay_curves.h"
#include "stats_curves.h"

static char dir[] = "/tmp/sa-test-curves-XXXXXX";

static char *path_of(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", dir, name);
	return buf;
}

/* The file's lines, each NUL-terminated in place; *n of them. Caller frees the result. */
static char **lines_of(const char *path, size_t *n, char **buf)
{
	FILE *fp = fopen(path, "rb");
	size_t cap = 1 << 16, len;
	char **out = calloc(4096, sizeof *out);

	assert_non_null(fp);
	*buf = calloc(cap, 1);
	len = fread(*buf, 1, cap - 1, fp);
	fclose(fp);
	*n = 0;
	for (char *p = *buf, *e; p < *buf + len && *n < 4096; p = e + 1) {
		e = strchr(p, '\n');
		assert_non_null(e);
		*e = '\0';
		out[(*n)++] = p;
	}
	return out;
}

static void test_rolling_by_hand(void **state)
{
	/* equity 1, 1.1, 0.99, 1.089, 1.0: per-bar returns 0, 0.1, -0.1, 0.1, -0.0817..., w = 3 */
	static const double eq[] = { 1.0, 1.1, 0.99, 1.089, 1.0 };
	static const int64_t t[] = { 0, 3600, 7200, 10800, 14400 };
	cJSON *stats = cJSON_Parse("{\"ok\": true, \"rolling_sharpe\": {\"window\": 3}, "
				   "\"sharpe_annualised\": {\"factor\": 2}}");
	struct sts_stage_in in = { .eq_net = eq, .eq_time = t, .n_eq = 5 };
	struct sts_curve_paths p = { 0 };
	char path[256], err[256], *buf, **l;
	size_t n;
	double r[5], s, v;

	(void)state;
	p.rolling = path_of("rolling.csv", path, sizeof path);
	assert_int_equal(sts_write_curves(&p, &in, NULL, stats, err, sizeof err), 0);
	l = lines_of(path, &n, &buf);
	assert_int_equal(n, 6);
	assert_string_equal(l[0], "time,rolling_sharpe,rolling_volatility");
	assert_string_equal(l[1], "1970-01-01T00:00:00Z,,");
	assert_string_equal(l[2], "1970-01-01T01:00:00Z,,");
	for (size_t i = 0; i < 5; i++)
		r[i] = eq[i] / (i ? eq[i - 1] : 1.0) - 1.0;
	for (size_t i = 2; i < 5; i++) {
		double m = (r[i] + r[i - 1] + r[i - 2]) / 3, sd;
		sd = sqrt(((r[i] - m) * (r[i] - m) + (r[i - 1] - m) * (r[i - 1] - m) +
			   (r[i - 2] - m) * (r[i - 2] - m)) / 2);
		assert_int_equal(sscanf(strchr(l[i + 1], ',') + 1, "%lf,%lf", &s, &v), 2);
		if (fabs(s - m / sd * 2) > 1e-9 * fabs(s) || fabs(v - sd * 2) > 1e-9 * fabs(v))
			fail_msg("row %zu: %.17g %.17g, expected %.17g %.17g", i, s, v, m / sd * 2, sd * 2);
	}
	free(l);
	free(buf);
	cJSON_Delete(stats);
}

static void test_nothing_to_hold(void **state)
{
	/* no price data, stats failed, no walk-forward or fan: each file is its header alone */
	cJSON *stats = cJSON_Parse("{\"ok\": false}");
	struct sts_curves c = { 0 };
	struct sts_stage_in in = { .curves = &c };
	char b[256], r[256], w[256], f[256], err[256], *buf, **l;
	struct sts_curve_paths p = { path_of("benchmark.csv", b, sizeof b),
				    path_of("rolling.csv", r, sizeof r),
				    path_of("walkforward.csv", w, sizeof w),
				    path_of("montecarlo_fan.csv", f, sizeof f) };
	static const char *const heads[] = { "time,net_equity", "time,rolling_sharpe,rolling_volatility",
					     "bar,window,oos_equity,hindsight_equity",
					     "trade,p5,p25,p50,p75,p95" };
	const char *paths[] = { b, r, w, f };
	size_t n;

	(void)state;
	assert_int_equal(sts_write_curves(&p, &in, NULL, stats, err, sizeof err), 0);
	for (int k = 0; k < 4; k++) {
		l = lines_of(paths[k], &n, &buf);
		assert_int_equal(n, 1);
		assert_string_equal(l[0], heads[k]);
		free(l);
		free(buf);
	}
	/* a directory that is not there is a clear error naming the file */
	p.benchmark = "/nonexistent-dir/benchmark.csv";
	assert_int_equal(sts_write_curves(&p, &in, NULL, stats, err, sizeof err), -1);
	assert_non_null(strstr(err, "/nonexistent-dir/benchmark.csv"));
	assert_non_null(strstr(err, strerror(ENOENT)));
	cJSON_Delete(stats);
}

static void test_walkforward_stretches(void **state)
{
	/* 6 bars, 1 column of 0.1 a bar, stretches from bars 2 and 4 */
	static const double m[] = { 0.1, 0.1, 0.1, 0.1, 0.1, 0.1 };
	struct sts_curves c = { .has_wf = true, .wf = { .windows = 2, .start = { 2, 4, 6 } } };
	struct sts_stage_in in = { .curves = &c, .matrix = m, .m_bars = 6, .m_cols = 1 };
	struct sts_curve_paths p = { 0 };
	char path[256], err[256], *buf, **l;
	size_t n;

	(void)state;
	p.walkforward = path_of("walkforward.csv", path, sizeof path);
	assert_int_equal(sts_write_curves(&p, &in, NULL, NULL, err, sizeof err), 0);
	l = lines_of(path, &n, &buf);
	assert_int_equal(n, 5);
	assert_string_equal(l[1], "2,0,1.1,1.1");
	assert_string_equal(l[2], "3,0,1.21,1.21");
	assert_string_equal(l[3], "4,1,1.331,1.331");
	free(l);
	free(buf);
}

static void test_reconcile_curves(void **state)
{
	/* the log claims +10 % then -10 %; the replay made +10 % and +0.1234567890123 % (printed
	 * in trades.csv to 10 digits, so compounded as 0.001234567890) */
	struct da_trade lt[] = { { .entry = 0, .exit = 3600, .side = 1, .ret = 0.1 },
				 { .entry = 7200, .exit = 10800, .side = -1, .ret = -0.1 } };
	struct da_tradelog log = { .n = 2, .trades = lt };
	struct rp_trade rt[] = { { .entry = 0, .exit = 3600, .side = 1, .net = 0.1 },
				 { .entry = 7200, .exit = 10800, .side = -1, .net = 0.001234567890123 } };
	struct rp_result r = { .trades = rt, .n_trades = 2 };
	char path[256], *buf, **l, want[64], err[512];
	size_t n;

	(void)state;
	assert_int_equal(rpl_write_reconcile(path_of("reconcile.csv", path, sizeof path), true, &log, &r,
					    err, sizeof err), 0);
	l = lines_of(path, &n, &buf);
	assert_int_equal(n, 7);
	assert_string_equal(l[0], "curve,time,net_equity");
	assert_string_equal(l[1], "claimed,1970-01-01T00:00:00Z,1");
	assert_string_equal(l[2], "claimed,1970-01-01T01:00:00Z,1.1000000000000001");
	snprintf(want, sizeof want, "claimed,1970-01-01T03:00:00Z,%.17g", 1.1 + 1.1 * -0.1);
	assert_string_equal(l[3], want);
	assert_string_equal(l[4], "replayed,1970-01-01T00:00:00Z,1");
	snprintf(want, sizeof want, "replayed,1970-01-01T03:00:00Z,%.17g", 1.1 + 1.1 * 0.00123456789);
	assert_string_equal(l[6], want);
	free(l);
	free(buf);
	/* not reconciled: the header alone */
	assert_int_equal(rpl_write_reconcile(path, false, NULL, &r, err, sizeof err), 0);
	l = lines_of(path, &n, &buf);
	assert_int_equal(n, 1);
	free(l);
	free(buf);
	/* a directory that is not there: the reason names the file and the cause */
	assert_int_equal(rpl_write_reconcile("/nonexistent-dir/reconcile.csv", false, NULL, &r, err,
					    sizeof err), -1);
	assert_non_null(strstr(err, "cannot write '/nonexistent-dir/reconcile.csv'"));
	assert_non_null(strstr(err, strerror(ENOENT)));
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	static const char *const names[] = { "benchmark.csv", "rolling.csv", "walkforward.csv",
					     "montecarlo_fan.csv", "reconcile.csv" };
	char path[256];

	(void)state;
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
		unlink(path_of(names[k], path, sizeof path));
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rolling_by_hand),
		cmocka_unit_test(test_nothing_to_hold),
		cmocka_unit_test(test_walkforward_stretches),
		cmocka_unit_test(test_reconcile_curves),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
