/* ohlcv_json.h - the series' data_format as JSON, and loading it with config.json's knobs. */
#ifndef SA_OHLCV_JSON_H
#define SA_OHLCV_JSON_H

#include <stddef.h>

#include "ohlcv.h"

struct cJSON;

/* data_format of a loaded series: layout, delimiter, gzip, time form, columns (time_of_day:
 * a time column joined to the date's), joined, volume_left (a volume column not used),
 * skipped_line (a first line no part of the table), reversed (rows newest first), volume,
 * adjusted, bars, first, last, spacing_s, gaps, missing_bars, largest_gap_s. Returns a new
 * object (caller frees), or NULL when out of memory. */
struct cJSON *da_ohlcv_format_json(const struct da_ohlcv *s);

/* da_ohlcv_load_opts with the options config.json (borrowed) gives: data.adjusted. Returns 0,
 * or -1 with err set (a bad knob or a bad file). */
int da_ohlcv_load_config(const char *path, const struct cJSON *cfg, struct da_ohlcv *s,
			 char *err, size_t errlen);

#endif
