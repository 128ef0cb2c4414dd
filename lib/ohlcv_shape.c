/* ohlcv_shape.c - median bar spacing, gaps, and the refusal of mixed spacings. */
#include <stdbool.h>
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

#define DAY_S 86400

/* Days since the epoch of t (floor, for any sign). */
static int64_t day_of(int64_t t)
{
	return t >= 0 ? t / DAY_S : -((-t + DAY_S - 1) / DAY_S);
}

/* Whether day d (since the epoch, a Thursday) is a Saturday or a Sunday. */
static bool weekend(int64_t d)
{
	int64_t w = ((d % 7) + 7 + 3) % 7;  /* 0 Monday .. 6 Sunday */

	return w >= 5;
}

/* Weekdays strictly between days a and b. */
static int64_t weekdays_between(int64_t a, int64_t b)
{
	int64_t n = 0;

	for (int64_t d = a + 1; d < b; d++)  /* the steps' days add up to the series' span */
		n += !weekend(d);
	return n;
}

/* A session calendar: bars of a day or less, spanning a week or more, none on a weekend. */
static bool session_calendar(const struct sa_ohlcv *s, int64_t m)
{
	if (m > DAY_S || s->t[s->n - 1] - s->t[0] < 7 * DAY_S)
		return false;
	for (size_t i = 0; i < s->n; i++)
		if (weekend(day_of(s->t[i])))
			return false;
	return true;
}

/* Counts the step from bar i - 1 to bar i, k spacings long, among the gaps. */
static void count_gap(struct sa_ohlcv_format *f, const struct sa_ohlcv *s, size_t i, int64_t k)
{
	int64_t a = day_of(s->t[i - 1]), b = day_of(s->t[i]), skipped;

	if (f->sessions && b > a) {
		skipped = weekdays_between(a, b);
		if (skipped <= SA_HOLIDAY_WEEKDAYS)
			return;
		f->gaps++;
		f->missing_bars += f->spacing_s >= DAY_S - 3600 ? (size_t)skipped : (size_t)(k - 1);
		return;
	}
	if (k > 1) {
		f->gaps++;
		f->missing_bars += (size_t)(k - 1);
	}
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
	f->sessions = session_calendar(s, m);
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
		count_gap(f, s, i, k);
		if (dt > f->largest_gap_s)
			f->largest_gap_s = dt;
	}
	return 0;
}
