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

/* Reads what may follow the seconds: zero fractional digits (bars are whole seconds), then
 * nothing (UTC), 'Z', or an offset +HH:MM, +HHMM or +HH, into *off seconds east of UTC. */
static int parse_zone(const char *rest, int *off)
{
	int h = 0, m = 0, sign;

	*off = 0;
	if (*rest == '.') {
		if (!rest[1] || rest[1] < '0' || rest[1] > '9')
			return -1;
		for (rest++; *rest >= '0' && *rest <= '9'; rest++)
			if (*rest != '0')
				return -1;
	}
	if (!*rest || !strcmp(rest, "Z"))
		return 0;
	if (*rest != '+' && *rest != '-')
		return -1;
	sign = *rest++ == '-' ? -1 : 1;
	if (digits(rest, 2, &h))
		return -1;
	rest += 2;
	if (*rest == ':' && !*++rest)
		return -1;
	if (*rest && (digits(rest, 2, &m) || rest[2]))
		return -1;
	if (h > 23 || m > 59)
		return -1;
	*off = sign * (h * 3600 + m * 60);
	return 0;
}

/* Parses and range-checks the fields of a timestamp into f: year, month, day, h, m, s, and
 * f[6] the zone offset in seconds east of UTC. A date alone is its midnight, UTC. */
static int parse_fields(const char *s, int f[7])
{
	const char *rest;

	f[3] = f[4] = f[5] = f[6] = 0;
	if (strlen(s) < 10)
		return -1;
	if (digits(s, 4, &f[0]) || s[4] != '-' || digits(s + 5, 2, &f[1]) || s[7] != '-' ||
	    digits(s + 8, 2, &f[2]))
		return -1;
	if (s[10]) {
		if ((s[10] != 'T' && s[10] != ' ') || digits(s + 11, 2, &f[3]) || s[13] != ':' ||
		    digits(s + 14, 2, &f[4]))
			return -1;
		rest = s + 16;
		if (*rest == ':') {
			if (digits(rest + 1, 2, &f[5]))
				return -1;
			rest += 3;
		}
		if (parse_zone(rest, &f[6]))
			return -1;
	}
	if (f[1] < 1 || f[1] > 12 || f[2] < 1 || f[2] > days_in_month(f[0], f[1]) || f[3] > 23 ||
	    f[4] > 59 || f[5] > 59)
		return -1;
	return 0;
}

static int64_t midnight(const int f[7])
{
	struct tm tm = { .tm_year = f[0] - 1900, .tm_mon = f[1] - 1, .tm_mday = f[2] };

	return (int64_t)timegm(&tm); /* UTC whatever TZ says */
}

int sa_time_parse(const char *s, int64_t *epoch)
{
	int f[7];

	if (parse_fields(s, f))
		return -1;
	*epoch = midnight(f) + f[3] * 3600 + f[4] * 60 + f[5] - f[6];
	return 0;
}

int sa_time_parse_cached(const char *s, int64_t *epoch, struct sa_time_cache *c)
{
	int f[7];

	if (parse_fields(s, f))
		return -1;
	if (!c->date[0] || memcmp(s, c->date, 10) != 0) {
		memcpy(c->date, s, 10);
		c->date[10] = '\0';
		c->day_start = midnight(f);
	}
	*epoch = c->day_start + f[3] * 3600 + f[4] * 60 + f[5] - f[6];
	return 0;
}

/* Whole seconds from an epoch count: seconds below 1e11 (until the year 5138), milliseconds
 * below 1e14, microseconds below 1e17; a fraction of a second is refused. */
static int parse_epoch(const char *s, int64_t *epoch, enum sa_time_form *form)
{
	static const struct { int64_t below, unit; enum sa_time_form form; } scale[] = {
		{ 100000000000LL, 1, SA_TIME_EPOCH_S },
		{ 100000000000000LL, 1000, SA_TIME_EPOCH_MS },
		{ 100000000000000000LL, 1000000, SA_TIME_EPOCH_US },
	};
	int64_t v = 0;
	size_t n = strlen(s);

	if (!n || n > 17)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	for (size_t i = 0; i < sizeof(scale) / sizeof(scale[0]); i++)
		if (v < scale[i].below) {
			if (v % scale[i].unit)
				return -1;
			*epoch = v / scale[i].unit;
			*form = scale[i].form;
			return 0;
		}
	return -1;
}

static int all_digits(const char *s, int n)
{
	int v;

	return digits(s, n, &v) == 0;
}

/* A dotted date, yyyy.mm.dd or dd.mm.yyyy, rewritten as yyyy-mm-dd followed by the rest of s
 * into iso (at least 64 bytes). Returns the form, or -1 when s starts with no dotted date. */
static int undot(const char *s, char iso[64])
{
	size_t n = strlen(s);

	if (n >= 64 || n < 10)
		return -1;
	if (all_digits(s, 4) && s[4] == '.' && all_digits(s + 5, 2) && s[7] == '.' &&
	    all_digits(s + 8, 2)) {
		memcpy(iso, s, n + 1);
		iso[4] = iso[7] = '-';
		return SA_TIME_DOTTED;
	}
	if (all_digits(s, 2) && s[2] == '.' && all_digits(s + 3, 2) && s[5] == '.' &&
	    all_digits(s + 6, 4)) {
		memcpy(iso, s + 6, 4);
		iso[4] = '-';
		memcpy(iso + 5, s + 3, 2);
		iso[7] = '-';
		memcpy(iso + 8, s, 2);
		memcpy(iso + 10, s + 10, n - 10 + 1);
		return SA_TIME_DAY_FIRST;
	}
	return -1;
}

int sa_time_is_slashed(const char *s)
{
	size_t a = strspn(s, "0123456789"), b;

	if (a < 1 || a > 4 || s[a] != '/')
		return 0;
	b = strspn(s + a + 1, "0123456789");
	return b >= 1 && b <= 2 && s[a + 1 + b] == '/' && s[a + 2 + b] >= '0' && s[a + 2 + b] <= '9';
}

int sa_time_parse_bar(const char *s, int64_t *epoch, enum sa_time_form *form,
		      struct sa_time_cache *c)
{
	char iso[64];
	int dotted = undot(s, iso);

	if (dotted >= 0) {
		if (sa_time_parse_cached(iso, epoch, c))
			return -1;
		*form = (enum sa_time_form)dotted;
		return 0;
	}
	if (s[0] >= '0' && s[0] <= '9' && s[1] >= '0' && s[1] <= '9' && s[2] >= '0' &&
	    s[2] <= '9' && s[3] >= '0' && s[3] <= '9' && s[4] == '-') {
		if (sa_time_parse_cached(s, epoch, c))
			return -1;
		*form = !s[10] ? SA_TIME_DATE : strpbrk(s + 16, "+-") ? SA_TIME_ISO_OFFSET : SA_TIME_ISO;
		return 0;
	}
	return parse_epoch(s, epoch, form);
}

const char *sa_time_form_name(enum sa_time_form form)
{
	static const char *const names[] = {
		[SA_TIME_ISO] = "iso-8601 utc",
		[SA_TIME_ISO_OFFSET] = "iso-8601 with offset",
		[SA_TIME_DATE] = "date",
		[SA_TIME_EPOCH_S] = "epoch seconds",
		[SA_TIME_EPOCH_MS] = "epoch milliseconds",
		[SA_TIME_EPOCH_US] = "epoch microseconds",
		[SA_TIME_DOTTED] = "dotted date (yyyy.mm.dd)",
		[SA_TIME_DAY_FIRST] = "day-first dotted date (dd.mm.yyyy)",
	};

	return (unsigned)form < sizeof(names) / sizeof(names[0]) ? names[form] : "unknown";
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

