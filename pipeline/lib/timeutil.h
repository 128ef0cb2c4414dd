/* timeutil.h - ISO-8601 UTC timestamps <-> seconds since the epoch. */
#ifndef SA_TIMEUTIL_H
#define SA_TIMEUTIL_H

#include <stdint.h>

/* Parses "YYYY-MM-DDTHH:MM:SSZ" (also a space for 'T', and "+00:00" for 'Z', and a bare
 * "YYYY-MM-DD HH:MM:SS" taken as UTC). Returns 0 and sets *epoch, or -1 if the text is not such
 * a timestamp or not a valid date. */
int sa_time_parse(const char *s, int64_t *epoch);

/* A one-entry cache of the last date parsed: consecutive bars of a series share their date,
 * so the calendar arithmetic runs once a day instead of once a bar. Zero-initialise. */
struct sa_time_cache {
	char date[11];
	int64_t day_start;
};

/* sa_time_parse with a cache, for loaders reading millions of timestamps. */
int sa_time_parse_cached(const char *s, int64_t *epoch, struct sa_time_cache *c);

/* Formats epoch as "YYYY-MM-DDTHH:MM:SSZ" into buf (at least 21 bytes). Returns buf. */
char *sa_time_format(int64_t epoch, char buf[21]);

/* Formats as "YYYY-MM-DD HH:MM" for people. buf at least 17 bytes. Returns buf. */
char *sa_time_human(int64_t epoch, char buf[17]);

#endif
