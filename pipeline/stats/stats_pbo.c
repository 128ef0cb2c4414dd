/* stats_pbo.c - PBO by CSCV from per-block sums (Bailey, Borwein, Lopez de Prado, Zhu 2014). */
#include "stats_pbo.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"

/* Per-block sums of one column, four accumulators so the loop keeps the pipeline full. */
static void block_sums(const double *x, size_t n, double *sum, double *sq)
{
	double s[4] = { 0 }, q[4] = { 0 };
	size_t i = 0;

	for (; i + 4 <= n; i += 4)
		for (int k = 0; k < 4; k++) {
			s[k] += x[i + k];
			q[k] += x[i + k] * x[i + k];
		}
	for (; i < n; i++) {
		s[0] += x[i];
		q[0] += x[i] * x[i];
	}
	*sum = (s[0] + s[1]) + (s[2] + s[3]);
	*sq = (q[0] + q[1]) + (q[2] + q[3]);
}

/* mean / sd (ddof 1) from a sum, a sum of squares and a count; 0 when there is no spread. */
static double sharpe_of(double sum, double sq, double n)
{
	double mean = sum / n, var = (sq - sum * mean) / (n - 1.0);

	return var > 1e-300 ? mean / sqrt(var) : 0.0;
}

/* The relative rank of column best among oos[0..n): mean rank of ties, 1 = lowest. */
static double relative_rank(const double *oos, size_t n, size_t best)
{
	size_t below = 0, equal = 0;

	for (size_t j = 0; j < n; j++) {
		below += oos[j] < oos[best];
		equal += oos[j] == oos[best];
	}
	return ((double)below + ((double)equal + 1.0) / 2.0) / ((double)n + 1.0);
}

/* Work space of one CSCV. */
struct cscv {
	size_t n, s;
	double *sum, *sq, cnt[32];   /* s x n block sums (block-major: a block's n are together) */
	double *s_all, *q_all, n_all;        /* n sums over every block */
	double *s_in, *q_in;                 /* n sums of the current split's in-sample blocks */
	double *is, *oos;            /* n Sharpe ratios of the current split */
	double sx, sy, sxx, sxy;     /* the regression of OOS on IS */
	size_t splits, losses, overfit;
};

/* Adds block b's sums into s and q (n each): contiguous, so the loop vectorises. */
static void add_block(const struct cscv *c, size_t b, double *s, double *q)
{
	const double *bs = &c->sum[b * c->n], *bq = &c->sq[b * c->n];

	for (size_t j = 0; j < c->n; j++) {
		s[j] += bs[j];
		q[j] += bq[j];
	}
}

/* The out-of-sample relative rank *w and Sharpe ratio *y of the in-sample best: when several
 * variants tie for it, the mean over them, so no variant wins a tie by being declared first. */
static void tied_best(const struct cscv *c, size_t best, double *w, double *y)
{
	double sw = 0.0, sy = 0.0, k = 0.0;

	for (size_t j = best; j < c->n; j++) {
		if (c->is[j] != c->is[best])
			continue;
		sw += relative_rank(c->oos, c->n, j);
		sy += c->oos[j];
		k++;
	}
	*w = sw / k;
	*y = sy / k;
}

/* One split, mask = the in-sample blocks. */
static void one_split(struct cscv *c, uint32_t mask, struct sts_pbo *out)
{
	double w, logit, x, y, n_in = 0;
	size_t best = 0;

	memset(c->s_in, 0, c->n * sizeof *c->s_in);
	memset(c->q_in, 0, c->n * sizeof *c->q_in);
	/* only the in-sample half is summed: out of sample is the whole less it */
	for (uint32_t m = mask; m; m &= m - 1) {
		size_t b = (size_t)__builtin_ctz(m);

		add_block(c, b, c->s_in, c->q_in);
		n_in += c->cnt[b];
	}
	for (size_t j = 0; j < c->n; j++) {
		c->is[j] = sharpe_of(c->s_in[j], c->q_in[j], n_in);
		c->oos[j] = sharpe_of(c->s_all[j] - c->s_in[j], c->q_all[j] - c->q_in[j], c->n_all - n_in);
		if (c->is[j] > c->is[best])
			best = j;
	}
	tied_best(c, best, &w, &y);
	logit = log(w / (1.0 - w));
	x = c->is[best];
	c->sx += x;
	c->sy += y;
	c->sxx += x * x;
	c->sxy += x * y;
	c->losses += y < 0;
	c->overfit += logit <= 0;
	{
		double span = out->hist_hi - out->hist_lo;
		long bin = span > 0 ? (long)floor((logit - out->hist_lo) / span * STS_PBO_BINS) : 0;

		bin = bin < 0 ? 0 : bin >= STS_PBO_BINS ? STS_PBO_BINS - 1 : bin;
		out->hist[bin]++;
	}
	c->splits++;
}

static int fail(char *why, size_t len, const char *msg, int rc)
{
	sa_fmt(why, len, "%s", msg);
	return rc;
}

/* The block counts a sweep tries: STS_PBO_SWEEP and knob, sorted, once each, into s. */
static size_t sweep_blocks(int knob, int *s)
{
	static const int base[] = STS_PBO_SWEEP;
	size_t n = 0;
	bool placed = false;

	for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) {
		if (!placed && knob <= base[i]) {
			s[n++] = knob;
			placed = true;
			if (knob == base[i])
				continue;
		}
		s[n++] = base[i];
	}
	if (!placed)
		s[n++] = knob;
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int sts_pbo_sweep(const double *m, size_t n_bars, size_t n_cols, int knob, struct sts_pbo *at_knob,
		 struct sts_pbo_sweep *sw, char *why, size_t whylen)
{
	int s[STS_PBO_SWEEP_MAX];
	size_t n = sweep_blocks(knob, s);
	double sorted[STS_PBO_SWEEP_MAX];
	struct sts_pbo p;

	memset(sw, 0, sizeof *sw);
	sw->median = sw->min = sw->max = NAN;
	if (sts_pbo_cscv(m, n_bars, n_cols, knob, at_knob, why, whylen) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char ignored[160];

		if (s[i] == knob)
			p = *at_knob;
		else if (n_bars / (size_t)s[i] < STS_PBO_MIN_BLOCK_BARS ||
			 sts_pbo_cscv(m, n_bars, n_cols, s[i], &p, ignored, sizeof ignored) < 0)
			continue;  /* T does not allow it */
		sw->blocks[sw->n] = s[i];
		sw->value[sw->n] = p.value;
		sorted[sw->n++] = p.value;
	}
	qsort(sorted, sw->n, sizeof *sorted, cmp_double);
	sw->min = sorted[0];
	sw->max = sorted[sw->n - 1];
	sw->median = sw->n % 2 ? sorted[sw->n / 2] : (sorted[sw->n / 2 - 1] + sorted[sw->n / 2]) / 2.0;
	return 0;
}

int sts_pbo_cscv(const double *m, size_t n_bars, size_t n_cols, int s, struct sts_pbo *out,
		char *why, size_t whylen)
{
	struct cscv c = { .n = n_cols, .s = (size_t)s };
	double d;
	int rc = -1;

	memset(out, 0, sizeof *out);
	out->value = out->prob_oos_loss = out->degradation_slope = NAN;
	out->blocks = s;
	if (n_cols < 2)
		return fail(why, whylen, "PBO needs at least 2 variants that ran", -1);
	if (s < 2 || s > 20 || s % 2)
		return fail(why, whylen, "PBO_BLOCKS must be even, from 2 to 20", -1);
	if (n_bars / (size_t)s < STS_PBO_MIN_BLOCK_BARS) {
		sa_fmt(why, whylen, "%zu bars make blocks of fewer than %d bars at PBO_BLOCKS=%d",
		       n_bars, STS_PBO_MIN_BLOCK_BARS, s);
		return -1;
	}
	c.sum = malloc(c.s * c.n * sizeof *c.sum);
	c.sq = malloc(c.s * c.n * sizeof *c.sq);
	c.s_in = malloc(c.n * sizeof *c.s_in);
	c.q_in = malloc(c.n * sizeof *c.q_in);
	c.s_all = calloc(c.n, sizeof *c.s_all);
	c.q_all = calloc(c.n, sizeof *c.q_all);
	c.is = malloc(c.n * sizeof *c.is);
	c.oos = malloc(c.n * sizeof *c.oos);
	if (!c.sum || !c.sq || !c.s_in || !c.q_in || !c.s_all || !c.q_all || !c.is || !c.oos) {
		fail(why, whylen, "out of memory computing PBO", -1);
		goto out;
	}
	for (size_t b = 0; b < c.s; b++) {
		size_t lo = b * n_bars / c.s, hi = (b + 1) * n_bars / c.s;

		c.cnt[b] = (double)(hi - lo);
		for (size_t j = 0; j < c.n; j++)
			block_sums(m + j * n_bars + lo, hi - lo, &c.sum[b * c.n + j], &c.sq[b * c.n + j]);
	}
	for (size_t b = 0; b < c.s; b++) {
		add_block(&c, b, c.s_all, c.q_all);
		c.n_all += c.cnt[b];
	}
	out->hist_hi = log((double)c.n);
	out->hist_lo = -out->hist_hi;
	for (uint32_t mask = 0; mask < 1u << c.s; mask++)
		if (__builtin_popcount(mask) == s / 2)
			one_split(&c, mask, out);
	out->combinations = c.splits;
	out->value = (double)c.overfit / (double)c.splits;
	out->prob_oos_loss = (double)c.losses / (double)c.splits;
	d = (double)c.splits * c.sxx - c.sx * c.sx;
	out->degradation_slope = d > 1e-300 ? ((double)c.splits * c.sxy - c.sx * c.sy) / d : NAN;
	rc = 0;
out:
	free(c.sum);
	free(c.sq);
	free(c.s_in);
	free(c.q_in);
	free(c.s_all);
	free(c.q_all);
	free(c.is);
	free(c.oos);
	return rc;
}
