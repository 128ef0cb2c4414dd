/* stats_overlap.c - concurrency of trades by a sweep over their entries and exits, and each
 * trade's largest concurrency by a sparse table of range maxima. */
#include "stats_overlap.h"

#include <stdlib.h>
#include <string.h>

/* One step of the concurrency: at time t, after every entry and exit at t, open trades. */
struct step {
	int64_t t;
	size_t open;
};

struct event {
	int64_t t;
	int delta;  /* +1 entry, -1 exit */
};

static int by_time(const void *a, const void *b)
{
	const struct event *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->delta > y->delta) - (x->delta < y->delta);
}

/* The steps of the concurrency into st (at most 2n), their count returned; the time at least
 * one is open into *union_s. ev is scratch of 2n events. */
static size_t sweep(const int64_t *entry, const int64_t *exit, size_t n, struct event *ev,
		    struct step *st, double *union_s)
{
	size_t m = 0, k = 0, open = 0;

	for (size_t i = 0; i < n; i++) {
		if (exit[i] <= entry[i])
			continue;
		ev[m++] = (struct event){ entry[i], +1 };
		ev[m++] = (struct event){ exit[i], -1 };
	}
	qsort(ev, m, sizeof *ev, by_time);
	*union_s = 0.0;
	for (size_t j = 0; j < m; j++) {
		if (k && open > 0)
			*union_s += (double)(ev[j].t - st[k - 1].t);
		open = (size_t)((long long)open + ev[j].delta);
		if (k && st[k - 1].t == ev[j].t)
			st[k - 1].open = open;
		else
			st[k++] = (struct step){ ev[j].t, open };
	}
	return k;
}

/* First step with t >= at, in st[0..k). */
static size_t step_at(const struct step *st, size_t k, int64_t at)
{
	size_t lo = 0, hi = k;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (st[mid].t < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The largest open count over steps [a, b) from the sparse table tab (levels of k each). */
static size_t range_max(const size_t *tab, size_t k, size_t a, size_t b)
{
	size_t lev = 0, x, y;

	while ((size_t)2 << lev <= b - a)
		lev++;
	x = tab[lev * k + a];
	y = tab[lev * k + b - ((size_t)1 << lev)];
	return x > y ? x : y;
}

/* Each trade's largest concurrency, from the steps inside its life, into share as 1 / it;
 * counts the trades that overlap. tab is scratch of levels x k. */
static size_t shares(const int64_t *entry, const int64_t *exit, size_t n, const struct step *st,
		     size_t k, size_t levels, size_t *tab, double *share)
{
	size_t overlapping = 0;

	for (size_t j = 0; j < k; j++)
		tab[j] = st[j].open;
	for (size_t l = 1; l < levels; l++)
		for (size_t j = 0; j + ((size_t)1 << l) <= k; j++) {
			size_t x = tab[(l - 1) * k + j], y = tab[(l - 1) * k + j + ((size_t)1 << (l - 1))];
			tab[l * k + j] = x > y ? x : y;
		}
	for (size_t i = 0; i < n; i++) {
		size_t a, b, c = 1;

		if (exit[i] > entry[i]) {
			a = step_at(st, k, entry[i]);
			b = step_at(st, k, exit[i]);
			c = b > a ? range_max(tab, k, a, b) : 1;
		}
		if (c < 1)
			c = 1;
		overlapping += c > 1;
		if (share)
			share[i] = 1.0 / (double)c;
	}
	return overlapping;
}

int st_overlap_spans(const int64_t *entry, const int64_t *exit, size_t n, struct st_overlap *o,
		     double *share)
{
	struct event *ev = malloc((2 * n + 1) * sizeof *ev);
	struct step *st = malloc((2 * n + 1) * sizeof *st);
	double *sh = share ? share : malloc((n + 1) * sizeof *sh);
	size_t k, levels = 1, *tab = NULL;
	double union_s, held = 0.0;
	int rc = -1;

	memset(o, 0, sizeof *o);
	if (!ev || !st || !sh)
		goto out;
	k = sweep(entry, exit, n, ev, st, &union_s);
	while (((size_t)1 << levels) <= k)
		levels++;
	tab = malloc((levels * k + 1) * sizeof *tab);
	if (!tab)
		goto out;
	o->trades = n;
	o->trades_overlapping = shares(entry, exit, n, st, k, levels, tab, sh);
	for (size_t j = 0; j < k; j++)
		if (st[j].open > o->max_concurrent)
			o->max_concurrent = st[j].open;
	if (n > 0 && o->max_concurrent < 1)
		o->max_concurrent = 1;
	for (size_t i = 0; i < n; i++) {
		if (exit[i] > entry[i])
			held += (double)(exit[i] - entry[i]);
		o->shares_sum += sh[i];
	}
	o->exposure_multiple = union_s > 0 ? held / union_s : 1.0;
	rc = 0;
out:
	free(ev);
	free(st);
	free(tab);
	if (sh != share)
		free(sh);
	return rc;
}
