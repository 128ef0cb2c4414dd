/* lookahead_points.c - choosing the truncated histories worth re-running. */
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "lookahead_core.h"

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* Sorts v[0..k) and drops repeats; returns the new length. */
static size_t sort_unique(size_t *v, size_t k)
{
	size_t out = 0;

	qsort(v, k, sizeof *v, cmp_size);
	for (size_t i = 0; i < k; i++)
		if (out == 0 || v[out - 1] != v[i])
			v[out++] = v[i];
	return out;
}

/* A peek moves money only where the position changes, so those bars come first. */
static size_t add_changes(const int8_t *full, size_t n, size_t *v)
{
	size_t k = 0;

	if (full[0] != 0)
		v[k++] = 0;
	for (size_t i = 1; i < n; i++)
		if (full[i] != full[i - 1])
			v[k++] = i;
	return k;
}

/* A peek that delays a change (holds a position one more bar because the next bar is known to
 * pay) leaves no change where it acts: the last bar it held is the one before the change. */
static size_t add_before_changes(const int8_t *full, size_t n, size_t *v)
{
	size_t k = 0;

	for (size_t i = 1; i < n; i++)
		if (full[i] != full[i - 1])
			v[k++] = i - 1;
	return k;
}

/* Drops from the sorted, distinct b[0..kb) every value in the sorted a[0..ka); returns the
 * new length of b. */
static size_t drop_present(const size_t *a, size_t ka, size_t *b, size_t kb)
{
	size_t i = 0, out = 0;

	for (size_t j = 0; j < kb; j++) {
		while (i < ka && a[i] < b[j])
			i++;
		if (i < ka && a[i] == b[j])
			continue;
		b[out++] = b[j];
	}
	return out;
}

/* mt19937 with an explicit seed gives the same draws on every machine, unlike rand(). */
static int add_random(size_t n, unsigned long seed, size_t n_random, size_t *v)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	if (!r)
		return -1;
	gsl_rng_set(r, seed);
	for (size_t i = 0; i < n_random; i++)
		v[i] = (size_t)gsl_rng_uniform_int(r, (unsigned long)n);
	gsl_rng_free(r);
	return 0;
}

/* Keeps max of the k sorted points at evenly spaced ranks; rank k-1 (the last bar) always
 * stays, and so does rank 0 when max > 1. Works in place: rank j never precedes slot i. */
static void spread(size_t *v, size_t k, size_t max)
{
	if (max == 0 || max >= k)
		return;
	if (max == 1) {
		v[0] = v[k - 1];
		return;
	}
	for (size_t i = 0; i < max; i++) {
		size_t j = (size_t)(((unsigned long long)i * (k - 1) + (max - 1) / 2) / (max - 1));
		v[i] = v[j];
	}
}

/* The bars just before changes fill whatever budget the primary points leave; they never push
 * a change, a random bar or the last bar out. Returns the new count of v, which must have room
 * for k + n entries, or (size_t)-1 when memory ran out. */
static size_t add_secondary(const int8_t *full, size_t n, size_t max, size_t *v, size_t k,
			    struct la_points *p)
{
	size_t *e = malloc(n * sizeof *e), ke;

	if (!e)
		return (size_t)-1;
	ke = sort_unique(e, add_before_changes(full, n, e));
	ke = drop_present(v, k, e, ke);
	p->candidates += ke;
	if (k + ke > max) {
		spread(e, ke, max - k);
		ke = max - k;
		p->capped = true;
	}
	memcpy(v + k, e, ke * sizeof *e);
	free(e);
	return sort_unique(v, k + ke);
}

int la_points_choose(const int8_t *full, size_t n, size_t max, unsigned long seed,
		     size_t n_random, struct la_points *p)
{
	int rc = -1;
	size_t *v = NULL, k;

	memset(p, 0, sizeof *p);
	if (n == 0 || max == 0 || !full)
		goto out;
	v = malloc((2 * n + n_random + 1) * sizeof *v);
	if (!v)
		goto out;
	k = add_changes(full, n, v);
	if (add_random(n, seed, n_random, v + k) < 0)
		goto out;
	k += n_random;
	v[k++] = n - 1;
	k = sort_unique(v, k);
	p->candidates = k;
	if (k > max) {
		spread(v, k, max);
		k = max;
		p->capped = true;
	} else {
		k = add_secondary(full, n, max, v, k, p);
		if (k == (size_t)-1)
			goto out;
	}
	p->t = v;
	p->n = k;
	v = NULL;
	rc = 0;
out:
	if (rc < 0)
		memset(p, 0, sizeof *p);
	free(v);
	return rc;
}

void la_points_release(struct la_points *p)
{
	if (!p)
		return;
	free(p->t);
	memset(p, 0, sizeof *p);
}

/* The first pass's guess of a run's fixed price, in bars: later passes use what the runs before
 * them cost (la_fixed_bars). */
#define RUN_FIXED_BARS 2048.0

/* The pass (0..LA_PASSES) of the i-th of k sorted points: 0 for every LA_PASS_STRIDE-th point and
 * the last, then each pass halves the stride. */
int la_pass_of(size_t i, size_t k)
{
	int pass = 0;

	if (i + 1 == k)
		return 0;
	for (size_t stride = LA_PASS_STRIDE; stride > 1 && i % stride != 0; stride /= 2)
		pass++;
	return pass;
}

void la_split(const struct la_points *p, const size_t *taken, size_t m, int jobs, double fixed,
	      int *slot)
{
	double total = 0, run = 0;

	for (size_t i = 0; i < m; i++)
		total += (double)p->t[taken[i]] + fixed;
	for (size_t i = 0; i < m; i++) {
		double cost = (double)p->t[taken[i]] + fixed;
		int s = total > 0 ? (int)((run + cost / 2) / total * jobs) : 0;

		slot[i] = s < jobs ? s : jobs - 1;
		run += cost;
	}
}

double la_fixed_bars(const size_t *bars, const double *ms, size_t m)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, b, a;

	if (m < 2)
		return RUN_FIXED_BARS;
	for (size_t i = 0; i < m; i++) {
		mx += (double)bars[i];
		my += ms[i];
	}
	mx /= (double)m;
	my /= (double)m;
	for (size_t i = 0; i < m; i++) {
		sxx += ((double)bars[i] - mx) * ((double)bars[i] - mx);
		sxy += ((double)bars[i] - mx) * (ms[i] - my);
	}
	if (!(sxx > 0))
		return RUN_FIXED_BARS;
	b = sxy / sxx;
	a = my - b * mx;
	/* no growth with the bars: every run costs the same, so equal counts are equal cost */
	if (!(b > 0))
		return LA_FIXED_BARS_MAX;
	return a <= 0 ? 0.0 : a / b < LA_FIXED_BARS_MAX ? a / b : LA_FIXED_BARS_MAX;
}

int la_schedule(const struct la_points *p, int jobs, size_t *order, int *slot)
{
	size_t k = p->n, at = 0, *taken = malloc((k ? k : 1) * sizeof *taken);
	int *sl = malloc((k ? k : 1) * sizeof *sl);
	int rc = -1;

	if (!taken || !sl || jobs < 1)
		goto out;
	for (int pass = 0; pass <= LA_PASSES; pass++) {
		size_t m = 0;

		for (size_t i = 0; i < k; i++)
			if (la_pass_of(i, k) == pass)
				taken[m++] = i;
		la_split(p, taken, m, jobs, RUN_FIXED_BARS, sl);
		for (size_t i = 0; i < m; i++) {
			order[at] = taken[i];
			slot[at++] = sl[i];
		}
	}
	rc = at == k ? 0 : -1;
out:
	free(taken);
	free(sl);
	return rc;
}
