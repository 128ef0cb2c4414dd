/* tradelog.h - an uploaded trade log (one closed trade per row) and its loader (libcsv). */
#ifndef SA_TRADELOG_H
#define SA_TRADELOG_H

#include <stddef.h>
#include <stdint.h>

struct sa_trade {
	int64_t entry, exit;  /* seconds since the epoch, UTC; exit >= entry */
	int side;             /* +1 long, -1 short */
	double ret;           /* claimed return as a fraction (0.01 = 1 %) */
	size_t line;          /* the file's line it came from (1 is the header) */
};

struct sa_tradelog {
	size_t n;
	struct sa_trade *trades;
	char columns[256];    /* the header as found, for the inspect report */
	char format[32];      /* the layout it was read as (tradelog_formats.h), "" when unknown */
};

/* Loads path: a header holding at least entry_time,exit_time,side,return (any order, extra
 * columns ignored); side is long/short (any case); return a plain finite fraction above -1.
 * Refused as well: a row that repeats another exactly (both lines named), and returns whose
 * compounded equity would not stay finite. Returns 0 and
 * fills *log (release with sa_tradelog_release), or -1 with "line N: reason" in err. */
int sa_tradelog_load(const char *path, struct sa_tradelog *log, char *err, size_t errlen);
int sa_tradelog_parse(const char *buf, size_t len, struct sa_tradelog *log, char *err, size_t errlen);

/* Frees and zeroes. Safe on a zeroed or released struct. */
void sa_tradelog_release(struct sa_tradelog *log);

#endif
