/* test_pbo.c - PBO by CSCV against matrices worked by hand, noise and a dominant variant, the
 * independent numpy implementation in tests/pbo/pbo_ref.py, and the variant return matrix file. */
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
#include <cjson/cJSON.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "jsonio.h"
#include "stats_pbo.h"
#include "vmatrix.h"

#define assert_near(a, b, eps) do { \
	double a_ = (a), b_ = (b); \
	if (!(fabs(a_ - b_) <= (eps))) \
		fail_msg("%s = %.15g, expected %.15g", #a, a_, b_); \
} while (0)

/* Fills column j, bars [lo, hi), alternating a, b, a, b, ... */
static void alternate(double *m, size_t bars, size_t j, size_t lo, size_t hi, double a, double b)
{
	for (size_t t = lo; t < hi; t++)
		m[j * bars + t] = (t - lo) % 2 ? b : a;
}

/* Two variants, two blocks of 10 bars (dyadic values, so every sum is exact). A: +2^-5/0
 * then -2^-5/0 (SR +-0.9487 per block);
 * B: +2^-6/-2^-6 in both (SR 0). In-sample block 0 picks A, which is worst in block 1:
 * rank 1 of 2, w = 1/3, logit ln 0.5 < 0, an OOS loss. In-sample block 1 picks B (0 beats
 * -0.95), worst in block 0: overfit again, but SR 0 is no loss. So PBO 1, P(loss) 1/2, and the
 * two points (0.9487, -0.9487), (0, 0) give slope -1. */
static void test_by_hand_two_blocks(void **state)
{
	double m[40];
	struct sts_pbo p;
	char why[128];

	(void)state;
	alternate(m, 20, 0, 0, 10, 0.03125, 0.0);
	alternate(m, 20, 0, 10, 20, -0.03125, 0.0);
	alternate(m, 20, 1, 0, 20, 0.015625, -0.015625);
	assert_int_equal(sts_pbo_cscv(m, 20, 2, 2, &p, why, sizeof why), 0);
	assert_int_equal((int)p.combinations, 2);
	assert_near(p.value, 1.0, 0);
	assert_near(p.prob_oos_loss, 0.5, 0);
	assert_near(p.degradation_slope, -1.0, 1e-12);
	/* both logits are ln(1/2): the bin holding -0.693 on [-ln 2, ln 2] in 20 bins is bin 0 */
	assert_int_equal((int)p.hist[0], 2);
}

/* A earns in every bar pair, B nets zero: every one of the C(4, 2) = 6 splits picks A, which is
 * best out of sample too: rank 2 of 2, w = 2/3, logit ln 2 > 0. PBO 0, no loss; A's in-sample
 * Sharpe is the same in every split, so the slope is undefined. */
static void test_by_hand_dominant(void **state)
{
	double m[80];
	struct sts_pbo p;
	char why[128];

	(void)state;
	alternate(m, 40, 0, 0, 40, 0.02, 0.0);
	alternate(m, 40, 1, 0, 40, 0.01, -0.01);
	assert_int_equal(sts_pbo_cscv(m, 40, 2, 4, &p, why, sizeof why), 0);
	assert_int_equal((int)p.combinations, 6);
	assert_near(p.value, 0.0, 0);
	assert_near(p.prob_oos_loss, 0.0, 0);
	assert_true(isnan(p.degradation_slope));
	assert_int_equal((int)p.hist[STS_PBO_BINS - 1], 6);
}

/* Three identical columns: the first wins in-sample, and out of sample all three tie at the
 * mean rank 2 of 3, w = 2/4, logit 0, which counts as overfit (l <= 0). */
static void test_by_hand_ties(void **state)
{
	double m[3 * 20];
	struct sts_pbo p;
	char why[128];

	(void)state;
	for (size_t j = 0; j < 3; j++)
		alternate(m, 20, j, 0, 20, 0.01, -0.005);
	assert_int_equal(sts_pbo_cscv(m, 20, 3, 2, &p, why, sizeof why), 0);
	assert_near(p.value, 1.0, 0);
}

static double *noise(gsl_rng *r, size_t bars, size_t n, double sd);

/* Three variants, two blocks of 10 bars. In block 0, A and B are the same and beat C; in
 * block 1, A is worst, C in the middle and B best. In-sample block 0 ties A and B: their
 * out-of-sample ranks 1 and 3 of 3 average to 2, w = 1/2, logit 0, overfit. In-sample block 1
 * picks B, tied with A for the top of block 0 (rank 2.5, w = 0.625): not overfit. PBO 1/2
 * whichever of A and B is declared first (taking the first of a tie gave 1/2 or 0). */
static void test_ties_in_sample_share(void **state)
{
	double m[3 * 20];
	struct sts_pbo p;
	char why[128];

	(void)state;
	for (size_t order = 0; order < 2; order++) {
		size_t a = order, b = 1 - order;

		alternate(m, 20, a, 0, 10, 0.01, -0.005);
		alternate(m, 20, b, 0, 10, 0.01, -0.005);
		alternate(m, 20, 2, 0, 10, 0.005, -0.005);
		alternate(m, 20, a, 10, 20, 0.001, -0.005);
		alternate(m, 20, b, 10, 20, 0.02, -0.005);
		alternate(m, 20, 2, 10, 20, 0.01, -0.005);
		assert_int_equal(sts_pbo_cscv(m, 20, 3, 2, &p, why, sizeof why), 0);
		assert_near(p.value, 0.5, 0);
	}
}

/* PBO at 8, 10, 12, 14 and 16 blocks where T allows, and their median. */
static void test_sweep(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double *m, at[5];
	struct sts_pbo p, q;
	struct sts_pbo_sweep sw;
	char why[128];
	static const int want[5] = { 8, 10, 12, 14, 16 };

	(void)state;
	gsl_rng_set(r, 3);
	m = noise(r, 200, 6, 0.01);
	assert_int_equal(sts_pbo_sweep(m, 200, 6, 16, &p, &sw, why, sizeof why), 0);
	assert_int_equal(sw.n, 5);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(sw.blocks[i], want[i]);
		assert_int_equal(sts_pbo_cscv(m, 200, 6, want[i], &q, why, sizeof why), 0);
		assert_near(sw.value[i], q.value, 0);
		at[i] = q.value;
	}
	assert_int_equal(p.blocks, 16);
	assert_near(p.value, at[4], 0);
	for (int i = 0; i < 5; i++)   /* the median: as many at or below it as at or above */
		for (int j = i + 1; j < 5; j++)
			if (at[j] < at[i]) {
				double t = at[i];
				at[i] = at[j];
				at[j] = t;
			}
	assert_near(sw.median, at[2], 0);
	assert_near(sw.min, at[0], 0);
	assert_near(sw.max, at[4], 0);
	/* a knob outside the sweep joins it */
	assert_int_equal(sts_pbo_sweep(m, 200, 6, 4, &p, &sw, why, sizeof why), 0);
	assert_int_equal(sw.n, 6);
	assert_int_equal(sw.blocks[0], 4);
	/* 100 bars allow 8 and 10 (12 would hold 8 bars a block): the median of two */
	assert_int_equal(sts_pbo_sweep(m, 100, 6, 8, &p, &sw, why, sizeof why), 0);
	assert_int_equal(sw.n, 2);
	assert_near(sw.median, (sw.value[0] + sw.value[1]) / 2, 1e-15);
	/* a knob T does not allow gives no PBO, as CSCV alone */
	assert_int_equal(sts_pbo_sweep(m, 100, 6, 16, &p, &sw, why, sizeof why), -1);
	assert_non_null(strstr(why, "fewer than 10 bars"));
	free(m);
	gsl_rng_free(r);
}

static double *noise(gsl_rng *r, size_t bars, size_t n, double sd)
{
	double *m = malloc(bars * n * sizeof *m);

	for (size_t i = 0; i < bars * n; i++)
		m[i] = gsl_ran_gaussian(r, sd);
	return m;
}

/* Fifty variants of pure noise: which looks best in-sample says nothing about out of sample,
 * so about half the splits rank it at or below the median. Add one variant with a real edge
 * and it wins both halves almost every time. */
static void test_noise_and_dominant(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	size_t bars = 16 * 250, n = 50;
	double *m;
	struct sts_pbo p;
	char why[128];

	(void)state;
	gsl_rng_set(r, 7);
	m = noise(r, bars, n, 0.01);
	assert_int_equal(sts_pbo_cscv(m, bars, n, 16, &p, why, sizeof why), 0);
	assert_int_equal((int)p.combinations, 12870);
	assert_true(p.value > 0.35 && p.value < 0.65);
	assert_true(p.prob_oos_loss > 0.3 && p.prob_oos_loss < 0.7);
	for (size_t t = 0; t < bars; t++)
		m[7 * bars + t] += 0.004;   /* variant 8: mean 0.4 sd per bar */
	assert_int_equal(sts_pbo_cscv(m, bars, n, 16, &p, why, sizeof why), 0);
	assert_true(p.value < 0.02);
	assert_true(p.prob_oos_loss < 0.02);
	free(m);
	gsl_rng_free(r);
}

static void test_refusals(void **state)
{
	double m[2 * 40] = { 0 };
	struct sts_pbo p;
	char why[128];

	(void)state;
	assert_int_equal(sts_pbo_cscv(m, 40, 1, 2, &p, why, sizeof why), -1);
	assert_non_null(strstr(why, "at least 2 variants"));
	assert_true(isnan(p.value));
	assert_int_equal(sts_pbo_cscv(m, 40, 2, 3, &p, why, sizeof why), -1);
	assert_non_null(strstr(why, "even"));
	assert_int_equal(sts_pbo_cscv(m, 40, 2, 22, &p, why, sizeof why), -1);
	assert_int_equal(sts_pbo_cscv(m, 40, 2, 8, &p, why, sizeof why), -1);
	assert_non_null(strstr(why, "fewer than 10 bars"));
	assert_int_equal(sts_pbo_cscv(m, 40, 2, 4, &p, why, sizeof why), 0);
}

/* Writes m to a temporary matrix file; returns its path (static). */
static const char *write_tmp(const double *m, size_t bars, size_t n)
{
	static char path[64];
	int fd;
	FILE *fp;

	snprintf(path, sizeof path, "/tmp/test_pbo.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "wb");
	assert_non_null(fp);
	assert_int_equal(da_vmatrix_write(fp, m, bars, n), 0);
	assert_int_equal(fclose(fp), 0);
	return path;
}

/* The numpy implementation of the paper's steps (tests/pbo/pbo_ref.py) cuts the rows and takes
 * each split's Sharpe ratios from them; the C core works from per-block sums. Same answers. */
static void test_against_numpy(void **state)
{
	static const size_t shapes[][3] = { { 800, 10, 8 }, { 603, 7, 6 }, { 500, 30, 10 }, { 400, 5, 8 } };
	char cmd[512], out[4096], ref[256];
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	(void)state;
	snprintf(ref, sizeof ref, "%s", "tests/pbo/pbo_ref.py");
	if (access("/usr/bin/python3", X_OK) != 0 || access(ref, R_OK) != 0)
		skip();
	gsl_rng_set(r, 11);
	for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
		size_t bars = shapes[k][0], n = shapes[k][1];
		int s = (int)shapes[k][2];
		double *m = noise(r, bars, n, 0.01);
		struct sts_pbo p;
		char why[128];
		const char *path;
		FILE *pp;
		size_t got;
		cJSON *j;

		for (size_t t = 0; t < bars; t++)   /* a mild edge in one, so not every split ties */
			m[2 * bars + t] += 0.001;
		if (n == 5)   /* the edge declared twice: tied in every split, in and out of sample */
			memcpy(m + 4 * bars, m + 2 * bars, bars * sizeof *m);
		path = write_tmp(m, bars, n);
		snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s %s %d", ref, path, s);
		pp = popen(cmd, "r");
		assert_non_null(pp);
		got = fread(out, 1, sizeof out - 1, pp);
		out[got] = '\0';
		assert_int_equal(pclose(pp), 0);
		unlink(path);
		j = cJSON_Parse(out);
		assert_non_null(j);
		assert_int_equal(sts_pbo_cscv(m, bars, n, s, &p, why, sizeof why), 0);
		assert_int_equal((int)p.combinations, (int)sa_json_num(j, "combinations", -1));
		assert_near(p.value, sa_json_num(j, "value", NAN), 1e-12);
		assert_near(p.prob_oos_loss, sa_json_num(j, "prob_oos_loss", NAN), 1e-12);
		assert_near(p.degradation_slope, sa_json_num(j, "degradation_slope", NAN), 1e-9);
		{
			struct sts_pbo_sweep sw;
			struct sts_pbo at;

			assert_int_equal(sts_pbo_sweep(m, bars, n, s, &at, &sw, why, sizeof why), 0);
			assert_near(sw.median, sa_json_num(j, "median", NAN), 1e-12);
			for (size_t i = 0; i < sw.n; i++) {
				char key[8];
				snprintf(key, sizeof key, "%d", sw.blocks[i]);
				assert_near(sw.value[i], sa_json_num(cJSON_GetObjectItem(j, "by_blocks"), key, NAN), 1e-12);
			}
			assert_int_equal((int)sw.n, cJSON_GetArraySize(cJSON_GetObjectItem(j, "by_blocks")));
		}
		cJSON_Delete(j);
		free(m);
	}
	gsl_rng_free(r);
}

/* The matrix file: what is written reads back; a wrong magic, the version 1 layout (equity
 * changes), a return below -1, a short file and trailing bytes are refused with a reason. */
static void test_matrix_file(void **state)
{
	double m[6] = { 0.1, -0.2, 0.3, 0.0, 1e-9, -1 }, *back = NULL;
	size_t bars = 0, n = 0;
	char err[256];
	const char *path;
	FILE *fp;

	(void)state;
	path = write_tmp(m, 3, 2);
	assert_int_equal(da_vmatrix_read(path, &back, &bars, &n, err, sizeof err), 0);
	assert_int_equal((int)bars, 3);
	assert_int_equal((int)n, 2);
	assert_memory_equal(back, m, sizeof m);
	free(back);
	fp = fopen(path, "ab");
	fputc('x', fp);
	fclose(fp);
	assert_int_equal(da_vmatrix_read(path, &back, &bars, &n, err, sizeof err), -1);
	assert_non_null(strstr(err, "bytes after"));
	assert_null(back);
	assert_int_equal(truncate(path, 30), 0);
	assert_int_equal(da_vmatrix_read(path, &back, &bars, &n, err, sizeof err), -1);
	assert_non_null(strstr(err, "ends early"));
	fp = fopen(path, "wb");
	fputs("time,open\n1,2\n3,4\n5,6\n7,8\n", fp);
	fclose(fp);
	assert_int_equal(da_vmatrix_read(path, &back, &bars, &n, err, sizeof err), -1);
	assert_non_null(strstr(err, "not a variant return matrix"));
	/* the same bytes under the version 1 magic: per-bar changes, never read as returns */
	unlink(path);
	path = write_tmp(m, 3, 2);
	fp = fopen(path, "r+b");
	fputs("SAVRET1\n", fp);
	fclose(fp);
	assert_int_equal(da_vmatrix_read(path, &back, &bars, &n, err, sizeof err), -1);
	assert_non_null(strstr(err, "version 1, per-bar equity changes rather than per-bar returns"));
	assert_null(back);
	unlink(path);
	m[5] = -4;
	path = write_tmp(m, 3, 2);
	assert_int_equal(da_vmatrix_read(path, &back, &bars, &n, err, sizeof err), -1);
	assert_non_null(strstr(err, "a return below -1"));
	unlink(path);
	assert_int_equal(da_vmatrix_read(path, &back, &bars, &n, err, sizeof err), -1);
	assert_non_null(strstr(err, "cannot open"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_hand_two_blocks),
		cmocka_unit_test(test_by_hand_dominant),
		cmocka_unit_test(test_by_hand_ties),
		cmocka_unit_test(test_ties_in_sample_share),
		cmocka_unit_test(test_sweep),
		cmocka_unit_test(test_noise_and_dominant),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_against_numpy),
		cmocka_unit_test(test_matrix_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
