/* timeutil.c - ISO-8601 UTC timestamps <-> seconds since the epoch (timegm, gmtime_r: no TZ). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "timeutil.h"

static int digits(const char *s, int n, int *out)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

static int days_in_month(int y, int m)
{
	static const int dim[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m == 2 ? 28 + leap : dim[m - 1];
}

/* Parses and range-checks the fields of a timestamp into f: year, month, day, h, m, s. */
static int parse_fields(const char *s, int f[6])
{
	const char *rest;

	f[5] = 0;
	if (strlen(s) < 16)
		return -1;
	if (digits(s, 4, &f[0]) || s[4] != '-' || digits(s + 5, 2, &f[1]) || s[7] != '-' ||
	    digits(s + 8, 2, &f[2]) || (s[10] != 'T' && s[10] != ' ') || digits(s + 11, 2, &f[3]) ||
	    s[13] != ':' || digits(s + 14, 2, &f[4]))
		return -1;
	rest = s + 16;
	if (*rest == ':') {
		if (digits(rest + 1, 2, &f[5]))
			return -1;
		rest += 3;
	}
	if (strcmp(rest, "Z") && strcmp(rest, "+00:00") && strcmp(rest, ""))
		return -1;
	if (f[1] < 1 || f[1] > 12 || f[2] < 1 || f[2] > days_in_month(f[0], f[1]) || f[3] > 23 ||
	    f[4] > 59 || f[5] > 59)
		return -1;
	return 0;
}

static int64_t midnight(const int f[6])
{
	struct tm tm = { .tm_year = f[0] - 1900, .tm_mon = f[1] - 1, .tm_mday = f[2] };

	return (int64_t)timegm(&tm); /* UTC whatever TZ says */
}

int sa_time_parse(const char *s, int64_t *epoch)
{
	int f[6];

	if (parse_fields(s, f))
		return -1;
	*epoch = midnight(f) + f[3] * 3600 + f[4] * 60 + f[5];
	return 0;
}

int sa_time_parse_cached(const char *s, int64_t *epoch, struct sa_time_cache *c)
{
	int f[6];

	if (parse_fields(s, f))
		return -1;
	if (!c->date[0] || memcmp(s, c->date, 10) != 0) {
		memcpy(c->date, s, 10);
		c->date[10] = '\0';
		c->day_start = midnight(f);
	}
	*epoch = c->day_start + f[3] * 3600 + f[4] * 60 + f[5];
	return 0;
}

static int split(int64_t epoch, struct tm *tm)
{
	time_t t = (time_t)epoch;

	return gmtime_r(&t, tm) ? 0 : -1;
}

char *sa_time_format(int64_t epoch, char buf[21])
{
	struct tm tm;

	if (split(epoch, &tm) || tm.tm_year + 1900 > 9999 || tm.tm_year + 1900 < 0)
		snprintf(buf, 21, "invalid-time");
	else
		strftime(buf, 21, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

char *sa_time_human(int64_t epoch, char buf[17])
{
	struct tm tm;

	if (split(epoch, &tm) || tm.tm_year + 1900 > 9999 || tm.tm_year + 1900 < 0)
		snprintf(buf, 17, "invalid-time");
	else
		strftime(buf, 17, "%Y-%m-%d %H:%M", &tm);
	return buf;
}

