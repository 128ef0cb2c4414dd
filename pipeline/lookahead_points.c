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
	if (max == 1) {
		v[0] = v[k - 1];
		return;
	}
	for (size_t i = 0; i < max; i++) {
		size_t j = (size_t)(((unsigned long long)i * (k - 1) + (max - 1) / 2) / (max - 1));
		v[i] = v[j];
	}
}

int la_points_choose(const int8_t *full, size_t n, size_t max, unsigned long seed,
		     size_t n_random, struct la_points *p)
{
	int rc = -1;
	size_t *v = NULL, k;

	memset(p, 0, sizeof *p);
	if (n == 0 || max == 0 || !full)
		goto out;
	v = malloc((n + n_random + 1) * sizeof *v);
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
	}
	p->t = v;
	p->n = k;
	v = NULL;
	rc = 0;
out:
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
