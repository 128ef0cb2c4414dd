/* stats_curves.h - the curves the report draws, written beside stats.json as CSV files with a
 * header (every number with 10 significant digits, as equity.csv): the buy
 * and hold equity (benchmark.csv), the rolling Sharpe ratio and volatility (rolling.csv), the
 * walk-forward's two equity curves (walkforward.csv) and the Monte Carlo's fan
 * (montecarlo_fan.csv). A file with nothing to hold is its header alone; stats.json says why.
 * pipeline/README.md has the columns. */
#ifndef STATS_CURVES_H
#define STATS_CURVES_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "ohlcv.h"
#include "stats_io.h"

/* Where each file goes; a NULL path is not written. */
struct sts_curve_paths {
	const char *benchmark, *rolling, *walkforward, *fan;
};

/* Writes the files of p (atomically) from the stage's inputs (in, with in->curves filled by
 * sts_stage), the whole price series data (NULL when none: the benchmark then has no rows) and
 * stats.json's tree (the rolling window and annualisation factor as it prints them). Returns
 * 0, or -1 with err naming the file that could not be written. */
int sts_write_curves(const struct sts_curve_paths *p, const struct sts_stage_in *in,
		    const struct da_ohlcv *data, const cJSON *stats, char *err, size_t errlen);

#endif
