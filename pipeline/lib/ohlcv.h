/* ohlcv.h - the OHLCV series and its validating loader (libcsv). */
#ifndef SA_OHLCV_H
#define SA_OHLCV_H

#include <stddef.h>
#include <stdint.h>

/* A bar series held as columns (struct of arrays). */
struct sa_ohlcv {
	size_t n;
	int64_t *t;  /* bar open time, seconds since the epoch, UTC, strictly increasing */
	double *open, *high, *low, *close, *volume;
};

/* Loads path: header exactly "time,open,high,low,close,volume", strictly increasing ISO-8601
 * UTC timestamps, finite positive prices, high >= max(open, close), low <= min(open, close),
 * volume >= 0 and finite; at least 2 bars. Returns 0 and fills *s (release with
 * sa_ohlcv_release), or -1 with "line N: reason" in err and *s empty. */
int sa_ohlcv_load(const char *path, struct sa_ohlcv *s, char *err, size_t errlen);

/* Same, from a buffer in memory (len bytes). */
int sa_ohlcv_parse(const char *buf, size_t len, struct sa_ohlcv *s, char *err, size_t errlen);

/* Frees the columns and zeroes *s. Safe on a zeroed or released struct. */
void sa_ohlcv_release(struct sa_ohlcv *s);

#endif
