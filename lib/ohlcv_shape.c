/* ohlcv_shape.c - median bar spacing, gaps, and the refusal of mixed spacings. */
#include <stdint.h>
#include <stdlib.h>

#include "msg.h"
#include "ohlcv_shape.h"

#define DISTINCT_MAX 32  /* steps counted in a table before falling back to a sort */

struct step {
	int64_t dt;
	size_t count;
};

static int by_dt(const void *a, const void *b)
{
	int64_t x = ((const struct step *)a)->dt, y = ((const struct step *)b)->dt;

	return (x > y) - (x < y);
}

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The median by sorting every step: for series with many distinct steps. Returns -1 if out of
 * memory. */
static int median_sorted(const struct sa_ohlcv *s, int64_t *median)
{
	size_t n = s->n - 1;
	int64_t *d = malloc(n * sizeof(*d));

	if (!d)
		return -1;
	for (size_t i = 0; i < n; i++)
		d[i] = s->t[i + 1] - s->t[i];
	qsort(d, n, sizeof(*d), by_value);
	*median = d[(n - 1) / 2];
	free(d);
	return 0;
}

/* The lower median of the steps. A series has few distinct steps, so they are counted in a
 * small table, sorted, and walked to the middle. Returns 0 or -1 (out of memory). */
static int median_step(const struct sa_ohlcv *s, int64_t *median)
{
	struct step tab[DISTINCT_MAX];
	size_t used = 0, seen = 0, n = s->n - 1;

	for (size_t i = 0; i < n; i++) {
		int64_t dt = s->t[i + 1] - s->t[i];
		size_t k = 0;

		while (k < used && tab[k].dt != dt)
			k++;
		if (k == used) {
			if (used == DISTINCT_MAX)
				return median_sorted(s, median);
			tab[used++] = (struct step){ dt, 0 };
		}
		tab[k].count++;
	}
	qsort(tab, used, sizeof(tab[0]), by_dt);
	for (size_t k = 0; k < used; k++) {
		seen += tab[k].count;
		if (seen > (n - 1) / 2) {
			*median = tab[k].dt;
			break;
		}
	}
	return 0;
}

/* How many spacings dt spans, or 0 when it is no whole multiple of m. */
static int64_t multiple(int64_t dt, int64_t m)
{
	int64_t k = (dt + m / 2) / m, off = dt - k * m;
	int64_t slack = m >= 86400 ? 3600 : 0;

	if (k < 1 || off > slack || off < -slack)
		return 0;
	return k;
}

int sa_ohlcv_shape(struct sa_ohlcv *s, size_t first_line, char *err, size_t errlen)
{
	struct sa_ohlcv_format *f = &s->fmt;
	int64_t m;

	if (median_step(s, &m)) {
		sa_fmt(err, errlen, "out of memory");
		return -1;
	}
	f->spacing_s = m;
	f->gaps = f->missing_bars = 0;
	f->largest_gap_s = 0;
	for (size_t i = 1; i < s->n; i++) {
		int64_t dt = s->t[i] - s->t[i - 1], k = multiple(dt, m);

		if (!k) {
			/* the later row of the file: bar i, or bar i - 1 when the rows were reversed */
			size_t line = f->reversed ? first_line + s->n - i : first_line + i;

			sa_fmt(err, errlen, "line %zu: %lld s after the previous bar, where the series "
			       "steps by %lld s: mixed spacings make no series "
			       "(resample the file to one bar size)", line, (long long)dt, (long long)m);
			return -1;
		}
		if (k > 1) {
			f->gaps++;
			f->missing_bars += (size_t)(k - 1);
		}
		if (dt > f->largest_gap_s)
			f->largest_gap_s = dt;
	}
	return 0;
}
