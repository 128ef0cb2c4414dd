/* test_variants.c - the declared variants' core, on a real replay: a variant's summary and
 * its column of the return matrix, variants.csv, and the matrix file between the stages. */
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

#include "replay_core.h"
#include "variants_core.h"
#include "vmatrix.h"

enum { N = 12 };

/* Twelve hourly bars drifting up, with a known open and close each. */
static void bars(struct da_ohlcv *s, int64_t *t, double *o, double *h, double *l, double *c, double *v)
{
	for (size_t i = 0; i < N; i++) {
		t[i] = 1704067200 + (int64_t)i * 3600;
		o[i] = 100 + (double)i;
		c[i] = 100.5 + (double)i;
		h[i] = c[i] + 0.25;
		l[i] = o[i] - 0.25;
		v[i] = 1;
	}
	*s = (struct da_ohlcv){ .n = N, .t = t, .open = o, .high = h, .low = l, .close = c, .volume = v };
}

/* The summary is the replay's: its trades, its net return, and a column whose bars compound to
 * it (the per-bar returns of compounded net equity, bar 0 over 1). */
static void test_summarise(void **state)
{
	int64_t t[N];
	double o[N], h[N], l[N], c[N], v[N], col[N], prod = 1, prev = 1;
	int8_t sig[N] = { 0, 1, 1, 1, 0, 0, -1, -1, 0, 1, 1, 0 };
	struct da_ohlcv s;
	struct rp_costs costs = { .fee_bps = 5, .slippage_bps = 2 };
	struct rp_result r = { 0 };
	struct vr_variant var = { 0 };

	(void)state;
	bars(&s, t, o, h, l, c, v);
	assert_int_equal(rp_replay(&s, sig, &costs, &r), 0);
	assert_int_equal(vr_summarise(&r, &var, col, N), 0);
	assert_int_equal(var.trades, r.n_trades);
	assert_int_equal(var.trades, 3);
	assert_true(var.net_return == r.net_return);
	for (size_t i = 0; i < N; i++) {
		prod *= 1 + col[i];
		/* a return, not a change of equity */
		assert_true(fabs(col[i] - (r.eq_net[i] / prev - 1)) < 1e-15);
		prev = r.eq_net[i];
	}
	assert_true(fabs(prod - 1 - r.net_return) < 1e-12);
	assert_true(isfinite(var.sharpe));
	rp_result_release(&r);

	/* one trade: no spread, so no Sharpe ratio, and the summary says NAN rather than inventing one */
	memset(sig, 0, sizeof sig);
	sig[3] = sig[4] = 1;
	assert_int_equal(rp_replay(&s, sig, &costs, &r), 0);
	assert_int_equal(vr_summarise(&r, &var, col, N), 0);
	assert_int_equal(var.trades, 1);
	assert_true(isnan(var.sharpe));
	rp_result_release(&r);

	/* a ruined variant: -100 % on its ruin bar, then nothing moves, and the column still
	 * compounds to its net return of -1 */
	costs.fee_bps = 6000;
	memset(sig, 0, sizeof sig);
	sig[2] = sig[3] = sig[4] = 1;
	assert_int_equal(rp_replay(&s, sig, &costs, &r), 0);
	assert_true(r.ruined);
	assert_int_equal(vr_summarise(&r, &var, col, N), 0);
	prod = 1;
	for (size_t i = 0; i < N; i++)
		prod *= 1 + col[i];
	assert_true(prod == 0 && var.net_return == -1);
	for (size_t i = 0; i < N; i++)
		if (col[i] == -1)
			for (size_t k = i + 1; k < N; k++)
				assert_true(col[k] == 0);
	rp_result_release(&r);
}

/* variants.csv: one row a variant in declaration order, params as quoted JSON with its quotes
 * doubled, figures empty for one that did not run. */
static void test_csv(void **state)
{
	struct vr_variant v[2] = {
		{ .params = "{\"fast\":10}", .status = "ok", .ran = true, .trades = 4, .sharpe = 0.5,
		  .net_return = 0.125 },
		{ .params = "{\"fast\":\"x\"}", .status = "error", .ran = false, .sharpe = NAN,
		  .net_return = NAN },
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(fp);
	assert_int_equal(vr_csv_write(fp, v, 2), 0);
	fclose(fp);
	assert_string_equal(buf, "variant,params,status,trades,sharpe,net_return\n"
				 "1,\"{\"\"fast\"\":10}\",ok,4,0.5,0.125\n"
				 "2,\"{\"\"fast\"\":\"\"x\"\"}\",error,,,\n");
	free(buf);
}

/* The matrix round-trips bit for bit, and a damaged file is refused with its reason. */
static void test_matrix_file(void **state)
{
	double m[6] = { 0.01, -0.02, 0, 1e-300, -0.5, 0.25 }, *back = NULL;
	char path[] = "/tmp/test_variants_XXXXXX", err[256];
	size_t bars = 0, cols = 0;
	int fd = mkstemp(path);
	FILE *fp = fd >= 0 ? fdopen(fd, "wb") : NULL;

	(void)state;
	assert_non_null(fp);
	assert_int_equal(da_vmatrix_write(fp, m, 3, 2), 0);
	fclose(fp);
	assert_int_equal(da_vmatrix_read(path, &back, &bars, &cols, err, sizeof err), 0);
	assert_int_equal(bars, 3);
	assert_int_equal(cols, 2);
	assert_memory_equal(back, m, sizeof m);
	free(back);
	assert_int_equal(truncate(path, DA_HEADER_BYTES + 8), 0);
	back = NULL;
	assert_int_equal(da_vmatrix_read(path, &back, &bars, &cols, err, sizeof err), -1);
	assert_null(back);
	assert_true(strlen(err) > 0);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summarise),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_matrix_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
