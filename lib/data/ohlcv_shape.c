/* ohlcv_shape.c - median bar spacing, gaps, and the refusal of mixed spacings. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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
static int median_sorted(const struct da_ohlcv *s, int64_t *median)
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
static int median_step(const struct da_ohlcv *s, int64_t *median)
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
#define WEEK_S (7 * DAY_S)

/* Days since the epoch of t (floor, for any sign). */
static int64_t day_of(int64_t t)
{
	return t >= 0 ? t / DAY_S : -((-t + DAY_S - 1) / DAY_S);
}

/* The weekday of day d since the epoch (a Thursday): 0 Monday .. 6 Sunday. */
static int weekday(int64_t d)
{
	return (int)(((d % 7) + 7 + 3) % 7);
}

/* Whether day d is a Saturday or a Sunday. */
static bool weekend(int64_t d)
{
	return weekday(d) >= 5;
}

/* The hour of the day (UTC) at which t falls. */
static int hour_of(int64_t t)
{
	return (int)((t - day_of(t) * DAY_S) / 3600);
}

/* Months since January 1970 of t, and its day of the month in *mday. */
static int64_t month_of(int64_t t, int *mday)
{
	struct tm tm;
	time_t x = (time_t)t;

	gmtime_r(&x, &tm);
	*mday = tm.tm_mday;
	return (int64_t)tm.tm_year * 12 + tm.tm_mon;
}

/* The calendar a median step m stands for: weeks (6 to 8 days), months (27 to 32), else a
 * fixed step. */
static int period_of(int64_t m)
{
	if (m >= 6 * DAY_S && m <= 8 * DAY_S)
		return DA_PERIOD_WEEK;
	if (m >= 27 * DAY_S && m <= 32 * DAY_S)
		return DA_PERIOD_MONTH;
	return DA_PERIOD_FIXED;
}

/* How many bars of the calendar the step from a to b spans, or 0 when it is none: weeks
 * within three days of a whole number (a bar moved to its week's first or last trading day),
 * months by the calendar (28 to 31 days each, four days either way). */
static int64_t calendar_steps(int period, int64_t a, int64_t b)
{
	int64_t dt = b - a, k, off;
	int da, db;

	if (period == DA_PERIOD_WEEK) {
		k = (dt + WEEK_S / 2) / WEEK_S;
		off = dt - k * WEEK_S;
		return k >= 1 && off <= 3 * DAY_S + 3600 && off >= -3 * DAY_S - 3600 ? k : 0;
	}
	k = month_of(b, &db) - month_of(a, &da);
	return k >= 1 && dt >= k * 28 * DAY_S - 4 * DAY_S && dt <= k * 31 * DAY_S + 4 * DAY_S ? k : 0;
}

/* Weekdays strictly between days a and b. */
static int64_t weekdays_between(int64_t a, int64_t b)
{
	int64_t n = 0;

	for (int64_t d = a + 1; d < b; d++)  /* the steps' days add up to the series' span */
		n += !weekend(d);
	return n;
}

/* Whether every bar opens on a weekday. */
static bool weekdays_only(const struct da_ohlcv *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (weekend(day_of(s->t[i])))
			return false;
	return true;
}

/* Weekly or monthly bars of a session calendar: on weekdays alone, and not all on one rhythm
 * (a week's bar moved by a holiday, months labelled on different days: trading days). */
static bool calendar_sessions(const struct da_ohlcv *s, int period)
{
	int mday0, mday;

	if (!weekdays_only(s))
		return false;
	month_of(s->t[0], &mday0);
	for (size_t i = 1; i < s->n; i++) {
		if (period == DA_PERIOD_WEEK && (s->t[i] - s->t[i - 1]) % WEEK_S)
			return true;
		if (period == DA_PERIOD_MONTH && (month_of(s->t[i], &mday), mday != mday0))
			return true;
	}
	return false;
}

/* A session calendar: bars of a day or less, spanning a week or more, none on a weekend;
 * weekly or monthly bars by calendar_sessions. */
static bool session_calendar(const struct da_ohlcv *s, int64_t m, int period)
{
	if (period != DA_PERIOD_FIXED)
		return calendar_sessions(s, period);
	if (m > DAY_S || s->t[s->n - 1] - s->t[0] < 7 * DAY_S)
		return false;
	return weekdays_only(s);
}

/* The FX week: bars of less than a day spanning a week or more, none opening on a Saturday,
 * some on a Sunday and those from 20:00 UTC (the week opens in Sydney), Friday's before 22:00
 * (it closes in New York). */
static bool fx_calendar(const struct da_ohlcv *s, int64_t m)
{
	bool sunday = false;

	if (m >= DAY_S || s->t[s->n - 1] - s->t[0] < 7 * DAY_S)
		return false;
	for (size_t i = 0; i < s->n; i++) {
		int w = weekday(day_of(s->t[i])), h = hour_of(s->t[i]);

		if (w == 5 || (w == 6 && h < 20) || (w == 4 && h >= 22))
			return false;
		sunday |= w == 6;
	}
	return sunday;
}

/* The bar size said as traders write it: 1M, 1w, 1d, 4h, 5m, 30s. */
static void bar_label(struct da_ohlcv_format *f)
{
	int64_t m = f->spacing_s;

	if (f->period == DA_PERIOD_MONTH)
		snprintf(f->bar, sizeof f->bar, "1M");
	else if (f->period == DA_PERIOD_WEEK)
		snprintf(f->bar, sizeof f->bar, "1w");
	else if (m % DAY_S == 0)
		snprintf(f->bar, sizeof f->bar, "%lldd", (long long)(m / DAY_S));
	else if (m % 3600 == 0)
		snprintf(f->bar, sizeof f->bar, "%lldh", (long long)(m / 3600));
	else if (m % 60 == 0)
		snprintf(f->bar, sizeof f->bar, "%lldm", (long long)(m / 60));
	else
		snprintf(f->bar, sizeof f->bar, "%llds", (long long)m);
}

/* Whether a Saturday lies between days a and b. */
static bool crosses_saturday(int64_t a, int64_t b)
{
	int64_t to_saturday = (5 - weekday(a) + 7) % 7;

	return (to_saturday ? to_saturday : 7) < b - a;
}

/* Counts the step from bar i - 1 to bar i, k bars long, among the gaps. In the FX week a step
 * over a Saturday skips the weekend's 48 hours (two hours either way, as the clocks change). */
static void count_gap(struct da_ohlcv_format *f, const struct da_ohlcv *s, size_t i, int64_t k)
{
	int64_t a = day_of(s->t[i - 1]), b = day_of(s->t[i]), skipped, dt = s->t[i] - s->t[i - 1];

	if (f->sessions && b > a && f->period == DA_PERIOD_FIXED) {
		skipped = weekdays_between(a, b);
		if (skipped <= DA_HOLIDAY_WEEKDAYS)
			return;
		f->gaps++;
		f->missing_bars += f->spacing_s >= DAY_S - 3600 ? (size_t)skipped : (size_t)(k - 1);
		return;
	}
	if (f->fx_week && crosses_saturday(a, b)) {
		if (dt <= 50 * 3600 + f->spacing_s)
			return;
		k = (dt - 48 * 3600) / f->spacing_s;
	}
	if (k > 1) {
		f->gaps++;
		f->missing_bars += (size_t)(k - 1);
	}
}

/* The refusal of a step that is no bar of the series. */
static void mixed(const struct da_ohlcv *s, size_t first_line, size_t i, char *err, size_t errlen)
{
	const struct da_ohlcv_format *f = &s->fmt;
	/* the later row of the file: bar i, or bar i - 1 when the rows were reversed */
	size_t line = f->reversed ? first_line + s->n - i : first_line + i;
	char by[40];

	if (f->period == DA_PERIOD_FIXED)
		snprintf(by, sizeof by, "%lld s", (long long)f->spacing_s);
	else
		snprintf(by, sizeof by, "calendar %s", f->period == DA_PERIOD_WEEK ? "weeks" : "months");
	sa_fmt(err, errlen, "line %zu: %lld s after the previous bar, where the series steps by %s: "
	       "mixed spacings make no series (resample the file to one bar size)", line,
	       (long long)(s->t[i] - s->t[i - 1]), by);
}

int da_ohlcv_shape(struct da_ohlcv *s, size_t first_line, char *err, size_t errlen)
{
	struct da_ohlcv_format *f = &s->fmt;
	int64_t m;

	if (median_step(s, &m)) {
		sa_fmt(err, errlen, "out of memory");
		return -1;
	}
	f->spacing_s = m;
	f->period = period_of(m);
	f->sessions = session_calendar(s, m, f->period);
	f->fx_week = !f->sessions && fx_calendar(s, m);
	f->gaps = f->missing_bars = 0;
	f->largest_gap_s = 0;
	bar_label(f);
	for (size_t i = 1; i < s->n; i++) {
		int64_t dt = s->t[i] - s->t[i - 1];
		int64_t k = f->period == DA_PERIOD_FIXED ? multiple(dt, m) :
			    calendar_steps(f->period, s->t[i - 1], s->t[i]);

		if (!k) {
			mixed(s, first_line, i, err, errlen);
			return -1;
		}
		count_gap(f, s, i, k);
		if (dt > f->largest_gap_s)
			f->largest_gap_s = dt;
	}
	return 0;
}
