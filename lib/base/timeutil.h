/* timeutil.h - ISO-8601 UTC timestamps <-> seconds since the epoch. */
#ifndef SA_TIMEUTIL_H
#define SA_TIMEUTIL_H

#include <stdint.h>

/* Parses "YYYY-MM-DDTHH:MM:SSZ": also a space for 'T', no seconds, zero fractional seconds
 * (".000"), a numeric offset for 'Z' ("+00:00", "-05:00", "+0530", "+01"; converted to UTC),
 * no zone at all (taken as UTC), or the date alone (its midnight, UTC). Returns 0 and sets
 * *epoch, or -1 if the text is not such a timestamp or not a valid date. */
int sa_time_parse(const char *s, int64_t *epoch);

/* A one-entry cache of the last date parsed: consecutive bars of a series share their date,
 * so the calendar arithmetic runs once a day instead of once a bar. Zero-initialise. */
struct sa_time_cache {
	char date[11];
	int64_t day_start;
};

/* sa_time_parse with a cache, for loaders reading millions of timestamps. */
int sa_time_parse_cached(const char *s, int64_t *epoch, struct sa_time_cache *c);

/* The forms a bar's time is written in. */
enum sa_time_form {
	SA_TIME_ISO,         /* 2024-01-02T00:00:00Z, or with a space, or no zone */
	SA_TIME_ISO_OFFSET,  /* 2024-01-02 00:00:00-05:00 */
	SA_TIME_DATE,        /* 2024-01-02 */
	SA_TIME_EPOCH_S,     /* 1704153600 */
	SA_TIME_EPOCH_MS,    /* 1704153600000 */
	SA_TIME_EPOCH_US,    /* 1704153600000000 */
	SA_TIME_DOTTED,      /* 2024.01.02 13:00:00 (MetaTrader), or the date alone */
	SA_TIME_DAY_FIRST,   /* 02.01.2024 13:00:00.000 (Dukascopy): day first, with dots */
};

/* A bar's time in any form above: ISO as sa_time_parse (its date also written with dots,
 * yyyy.mm.dd, or day first with dots, dd.mm.yyyy), or a count of whole seconds since the
 * epoch told apart by magnitude (seconds below 1e11, milliseconds below 1e14, microseconds
 * below 1e17; a fraction of a second is refused). A slashed date (01/02/2024) is refused:
 * nothing in it tells the day from the month. Returns 0 with *epoch and *form, or -1. */
int sa_time_parse_bar(const char *s, int64_t *epoch, enum sa_time_form *form,
		      struct sa_time_cache *c);

/* True when s starts with a slashed date (01/02/2024, 2024/01/02): refused as ambiguous. */
int sa_time_is_slashed(const char *s);

/* The form's name as fingerprint.json and the report write it ("epoch milliseconds"). */
const char *sa_time_form_name(enum sa_time_form form);

/* Formats epoch as "YYYY-MM-DDTHH:MM:SSZ" into buf (at least 21 bytes). Returns buf. */
char *sa_time_format(int64_t epoch, char buf[21]);

/* Formats as "YYYY-MM-DD HH:MM" for people. buf at least 17 bytes. Returns buf. */
char *sa_time_human(int64_t epoch, char buf[17]);

#endif
