/* ohlcv_bytes.h - a data file told by its first bytes: text for the CSV reader, freqtrade's
 * JSON OHLCV (read with cJSON, one bar at a time), or a kind of file the loader names and
 * refuses (an Excel workbook, Parquet, Feather version 1, other JSON). */
#ifndef SA_OHLCV_BYTES_H
#define SA_OHLCV_BYTES_H

#include <stddef.h>

enum da_data_kind {
	DA_DATA_TEXT,     /* for the CSV reader */
	DA_DATA_JSON,     /* starts with '[': freqtrade's layout, or refused by the JSON reader */
	DA_DATA_FEATHER,  /* an Arrow IPC file (Feather version 2): ohlcv_feather.c reads it */
	DA_DATA_FOREIGN,  /* a kind of file the loader does not read: err names it and the fix */
};

/* The kind of buf[0..len) (already decompressed); for DA_DATA_FOREIGN one sentence in err. */
enum da_data_kind da_data_kind(const char *buf, size_t len, char *err, size_t errlen);

/* Longest bar of freqtrade's JSON read: one [ms, o, h, l, c, v] is parsed at a time. */
#define DA_FREQTRADE_BAR_MAX 512

/* Reads freqtrade's JSON OHLCV, [[ms, open, high, low, close, volume], ...], handing each bar
 * (its index and its six numbers as cJSON parsed them) to bar, which returns -1 to stop.
 * Each bar is parsed alone (at most DA_FREQTRADE_BAR_MAX bytes), so memory stays one bar's
 * whatever the file's size. Returns 0, or -1 with "bar N: ..." or the layout's refusal in err
 * (err is left alone when bar stopped it). */
int da_freqtrade_bars(const char *buf, size_t len,
		      int (*bar)(void *arg, size_t i, const double v[6]), void *arg, char *err,
		      size_t errlen);

#endif
