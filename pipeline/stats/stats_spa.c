/* stats_spa.c - Hansen's SPA and White's Reality Check over a family of per-bar returns, the
 * stationary bootstrap drawn with GSL's generator, and the Politis-White block length. */
#include "stats_spa.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <gsl/gsl_rng.h>

#include "msg.h"

/* Segments shorter than this are added bar by bar; longer ones as a difference of prefix sums. */
#define SHORT_SEGMENT 8

/* Sample autocovariance at lag k, R(k) = (1/n) sum_t (x_t - mean)(x_{t+k} - mean). */
static double autocov(const double *x, size_t n, double mean, size_t k)
{
	double s = 0.0;

	for (size_t t = 0; t + k < n; t++)
		s += (x[t] - mean) * (x[t + k] - mean);
	return s / (double)n;
}

/* The flat-top lag window of Politis and Romano (1995). */
static double flat_top(double t)
{
	t = fabs(t);
	return t <= 0.5 ? 1.0 : t <= 1.0 ? 2.0 * (1.0 - t) : 0.0;
}

/* m^: the first lag after which kn autocorrelations in a row are insignificant; -1 if none. */
static long first_quiet_lag(const double *rho, size_t m_max, size_t kn, double bound)
{
	for (size_t m = 0; m + kn <= m_max; m++) {
		size_t k = 1;

		while (k <= kn && fabs(rho[m + k]) < bound)
			k++;
		if (k > kn)
			return (long)m;
	}
	return -1;
}

double sts_pw_block_length(const double *x, size_t n)
{
	double mean = 0.0, r0, g = 0.0, g0, b, b_max, *rho = NULL;
	double ln = n > 1 ? log10((double)n) : 0.0;
	size_t kn = (size_t)fmax(5.0, ceil(sqrt(ln)));
	size_t m_max = (size_t)ceil(sqrt((double)n)) + kn, big_m;
	long m_hat;

	if (n < 4)
		return 1.0;
	if (m_max >= n)
		m_max = n - 1;
	for (size_t t = 0; t < n; t++)
		mean += x[t];
	mean /= (double)n;
	r0 = autocov(x, n, mean, 0);
	rho = malloc((m_max + 1) * sizeof *rho);
	if (!rho || !(r0 > 0.0)) {
		free(rho);
		return 1.0;
	}
	rho[0] = 1.0;
	for (size_t k = 1; k <= m_max; k++)
		rho[k] = autocov(x, n, mean, k) / r0;
	m_hat = first_quiet_lag(rho, m_max, kn, 2.0 * sqrt(ln / (double)n));
	big_m = m_hat < 0 ? m_max : 2 * (size_t)(m_hat > 1 ? m_hat : 1);
	if (big_m > m_max)
		big_m = m_max;
	g0 = r0;
	for (size_t k = 1; k <= big_m; k++) {
		double w = flat_top((double)k / (double)big_m), rk = rho[k] * r0;

		g += 2.0 * w * (double)k * rk;
		g0 += 2.0 * w * rk;
	}
	free(rho);
	/* b_SB = (2 G^2 / D_SB)^(1/3) n^(1/3), D_SB = 2 g(0)^2 (Patton, Politis and White 2009) */
	b = g0 > 0.0 ? cbrt(2.0 * g * g / (2.0 * g0 * g0)) * cbrt((double)n) : 1.0;
	b_max = ceil(fmin(3.0 * sqrt((double)n), (double)n / 3.0));
	if (!(b <= b_max))
		b = b_max;
	return b < 1.0 ? 1.0 : b;
}

/* The family row by row and its prefix sums, so a resample adds rows of n_cols values. */
struct rows {
	size_t n, k;
	double *x;    /* x[t * k + j] */
	double *pre;  /* pre[t * k + j] = sum of column j's bars before t; n + 1 rows */
};

static int rows_init(struct rows *r, const double *m, size_t n, size_t k)
{
	r->n = n;
	r->k = k;
	r->x = malloc(n * k * sizeof *r->x);
	r->pre = malloc((n + 1) * k * sizeof *r->pre);
	if (!r->x || !r->pre)
		return -1;
	for (size_t j = 0; j < k; j++) {
		double s = 0.0;

		for (size_t t = 0; t < n; t++) {
			r->x[t * k + j] = m[j * n + t];
			r->pre[t * k + j] = s;
			s += m[j * n + t];
		}
		r->pre[n * k + j] = s;
	}
	return 0;
}

/* Adds bars [s, s + len) of every column to acc. */
static void add_segment(const struct rows *r, size_t s, size_t len, double *acc)
{
	if (len < SHORT_SEGMENT) {
		for (size_t t = s; t < s + len; t++)
			for (size_t j = 0; j < r->k; j++)
				acc[j] += r->x[t * r->k + j];
		return;
	}
	for (size_t j = 0; j < r->k; j++)
		acc[j] += r->pre[(s + len) * r->k + j] - r->pre[s * r->k + j];
}

/* Walks one stationary-bootstrap index path, calling seg(ctx, start, len) for each run of
 * consecutive bars (a block, or a block's part before it wraps round). */
static void walk_path(size_t n, double p_new, gsl_rng *g, void (*seg)(void *, size_t, size_t),
		      void *ctx)
{
	size_t t = (size_t)gsl_rng_uniform_int(g, (unsigned long)n), start = t, len = 0;

	for (size_t i = 0; i < n; i++) {
		len++;
		if (i + 1 == n)
			break;
		if (gsl_rng_uniform(g) < p_new) {
			seg(ctx, start, len);
			t = start = (size_t)gsl_rng_uniform_int(g, (unsigned long)n);
			len = 0;
		} else if (++t == n) {
			seg(ctx, start, len);
			t = start = 0;
			len = 0;
		}
	}
	seg(ctx, start, len);
}

struct seg_sum {
	const struct rows *r;
	double *acc;
};

static void seg_sum(void *ctx, size_t s, size_t len)
{
	struct seg_sum *c = ctx;

	add_segment(c->r, s, len, c->acc);
}

/* Long blocks: one resample's column means, each run of bars a difference of prefix sums. */
static void means_by_segments(const struct rows *r, double p_new, gsl_rng *g, double *acc)
{
	struct seg_sum c = { r, acc };

	for (size_t j = 0; j < r->k; j++)
		acc[j] = 0.0;
	walk_path(r->n, p_new, g, seg_sum, &c);
	for (size_t j = 0; j < r->k; j++)
		acc[j] /= (double)r->n;
}

/* Resamples counted together when blocks are short: the family is read once per group. */
#define GROUP 8

static void seg_count(void *ctx, size_t s, size_t len)
{
	double *cnt = ctx;

	for (size_t t = s; t < s + len; t++)
		cnt[t] += 1.0;
}

/* Short blocks: up to GROUP resamples' column means (into acc, g_n rows of k) from how often
 * each path visits each bar, the rows of the family streamed in order once for the group. */
static void means_by_counts(const struct rows *r, double p_new, gsl_rng *g, size_t g_n,
			    double *cnt, double *acc)
{
	size_t n = r->n, k = r->k;

	for (size_t i = 0; i < g_n * n; i++)
		cnt[i] = 0.0;
	for (size_t i = 0; i < g_n * k; i++)
		acc[i] = 0.0;
	for (size_t q = 0; q < g_n; q++)
		walk_path(n, p_new, g, seg_count, cnt + q * n);
	for (size_t t = 0; t < n; t++) {
		const double *row = r->x + t * k;

		for (size_t q = 0; q < g_n; q++) {
			double c = cnt[q * n + t], *a = acc + q * k;

			if (c != 0.0)
				for (size_t j = 0; j < k; j++)
					a[j] += c * row[j];
		}
	}
	for (size_t i = 0; i < g_n * k; i++)
		acc[i] /= (double)n;
}

/* Every resample's column means into means (resamples rows of k), the paths drawn in order. */
static int all_means(const struct rows *r, double block, gsl_rng *g, size_t resamples,
		     double *means)
{
	double *cnt;

	if (block >= SHORT_SEGMENT) {
		for (size_t b = 0; b < resamples; b++)
			means_by_segments(r, 1.0 / block, g, means + b * r->k);
		return 0;
	}
	cnt = malloc(GROUP * r->n * sizeof *cnt);
	if (!cnt)
		return -1;
	for (size_t b = 0; b < resamples; b += GROUP)
		means_by_counts(r, 1.0 / block, g, resamples - b < GROUP ? resamples - b : GROUP, cnt,
				means + b * r->k);
	free(cnt);
	return 0;
}

/* The three recentrings of Hansen (2005, section 2.3): lower max(d, 0), consistent d when its
 * t-ratio is above -sqrt(2 log log n) (else 0), upper d. */
enum { LOWER, CONSISTENT, UPPER, N_CENTRES };

static double centre(int which, double d, double omega, double n)
{
	double a = omega / sqrt(n) * sqrt(fmax(0.0, 2.0 * log(log(n))));

	return which == LOWER ? fmax(d, 0.0) : which == UPPER ? d : (d >= -a ? d : 0.0);
}

/* The p-values from the resampled means (b rows of k) and the family's means and omegas. */
static void p_values(const double *means, size_t b, size_t k, const double *d, const double *om,
		     double n, struct sts_spa *out)
{
	size_t hit[N_CENTRES] = { 0 }, rc_hit = 0;
	double v = -INFINITY, rn = sqrt(n);

	for (size_t j = 0; j < k; j++)
		v = fmax(v, rn * d[j]);
	for (size_t r = 0; r < b; r++) {
		const double *mb = means + r * k;
		double vs = -INFINITY;

		for (int c = 0; c < N_CENTRES; c++) {
			double ts = 0.0;

			for (size_t j = 0; j < k; j++)
				if (om[j] > 0.0)
					ts = fmax(ts, rn * (mb[j] - centre(c, d[j], om[j], n)) / om[j]);
			hit[c] += ts >= out->statistic;
		}
		for (size_t j = 0; j < k; j++)
			vs = fmax(vs, rn * (mb[j] - d[j]));
		rc_hit += vs >= v;
	}
	out->p_lower = (double)hit[LOWER] / (double)b;
	out->p_value = (double)hit[CONSISTENT] / (double)b;
	out->p_upper = (double)hit[UPPER] / (double)b;
	out->reality_check_p = (double)rc_hit / (double)b;
}

/* The family's means, omegas, statistic and best column from the resampled means. Returns the
 * number of columns with a positive omega. */
static size_t studentise(const double *m, const double *means, size_t n, size_t k, size_t b,
			 double *d, double *om, struct sts_spa *out)
{
	size_t live = 0;

	out->statistic = 0.0;
	out->best = 0;
	for (size_t j = 0, first = 1; j < k; j++) {
		double s = 0.0, v = 0.0, t;

		for (size_t i = 0; i < n; i++)
			s += m[j * n + i];
		d[j] = s / (double)n;
		for (size_t r = 0; r < b; r++)
			v += (means[r * k + j] - d[j]) * (means[r * k + j] - d[j]);
		om[j] = sqrt((double)n * v / (double)b);
		if (!(om[j] > 0.0))
			continue;
		live++;
		t = sqrt((double)n) * d[j] / om[j];
		if (first || t > sqrt((double)n) * d[out->best] / om[out->best])
			out->best = j;
		first = 0;
		out->statistic = fmax(out->statistic, t);
	}
	return live;
}

int sts_spa(const double *m, size_t n_bars, size_t n_cols, size_t resamples, unsigned long seed,
	   double block_length, struct sts_spa *out, char *err, size_t errlen)
{
	struct rows r = { 0 };
	double *means = NULL, *d = NULL, *om = NULL;
	gsl_rng *g = NULL;
	int rc = -1;

	*out = (struct sts_spa){ .p_value = NAN, .p_lower = NAN, .p_upper = NAN,
				.reality_check_p = NAN, .statistic = NAN, .block_length = NAN,
				.resamples = resamples, .seed = seed };
	if (n_bars < 2 || n_cols == 0 || resamples == 0) {
		sa_fmt(err, errlen, "SPA needs at least 2 bars, a variant and a resample (%zu bars, %zu "
		       "variants)", n_bars, n_cols);
		return -1;
	}
	if (!(block_length > 0.0)) {
		block_length = 0.0;
		for (size_t j = 0; j < n_cols; j++)
			block_length += sts_pw_block_length(m + j * n_bars, n_bars) / (double)n_cols;
	}
	out->block_length = block_length;
	means = malloc(resamples * n_cols * sizeof *means);
	d = malloc(n_cols * sizeof *d);
	om = malloc(n_cols * sizeof *om);
	g = gsl_rng_alloc(gsl_rng_mt19937);
	if (!means || !d || !om || !g || rows_init(&r, m, n_bars, n_cols) < 0) {
		sa_fmt(err, errlen, "out of memory for SPA's resamples");
		goto out;
	}
	gsl_rng_set(g, seed);
	if (all_means(&r, block_length, g, resamples, means) < 0) {
		sa_fmt(err, errlen, "out of memory for SPA's resamples");
		goto out;
	}
	if (studentise(m, means, n_bars, n_cols, resamples, d, om, out) == 0) {
		sa_fmt(err, errlen, "every variant's returns are flat: nothing to test");
		goto out;
	}
	p_values(means, resamples, n_cols, d, om, (double)n_bars, out);
	rc = 0;
out:
	gsl_rng_free(g);
	free(r.x);
	free(r.pre);
	free(means);
	free(d);
	free(om);
	return rc;
}
