/* ohlcv_feather.h - freqtrade's Feather OHLCV: an Arrow IPC file (Feather version 2) of the
 * columns date (a timestamp), open, high, low, close and volume, its buffers plain or compressed
 * with LZ4 (frame) or ZSTD. Only what those columns need is read; anything else is refused with
 * its reason and the conversion line. */
#ifndef SA_OHLCV_FEATHER_H
#define SA_OHLCV_FEATHER_H

#include <stdbool.h>
#include <stddef.h>

/* The conversion line every refusal ends with. */
#define DA_FEATHER_CONVERT "write it as CSV (pandas: pd.read_feather(f).to_csv(\"prices.csv\"))"

/* An Arrow IPC file: "ARROW1" at both ends. */
bool da_is_feather(const char *buf, size_t len);

/* What the file held, for the loader's data_format. */
struct da_feather_info {
	char names[6][64];  /* the columns read: time, open, high, low, close, volume */
	const char *codec;  /* "lz4", "zstd" or "none" */
};

/* Reads the bars of buf[0..len), handing each (its index and [ms, open, high, low, close,
 * volume], the time in epoch milliseconds; the volume NaN in a batch whose volume column is
 * all missing, as freqtrade's mark candles have it) to bar, which returns -1 to stop. The decompressed
 * columns are bounded by cap bytes in all. Returns 0, or -1 with the reason in err (left alone
 * when bar stopped it). A file of trades (price and amount, no open) is named as such. */
int da_feather_bars(const char *buf, size_t len, size_t cap, struct da_feather_info *info,
		    int (*bar)(void *arg, size_t i, const double v[6]), void *arg, char *err,
		    size_t errlen);

#endif
