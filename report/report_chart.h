/* report_chart.h - the report's PNG charts, drawn with cairo, reproducible byte for byte. */
#ifndef RPT_CHART_H
#define RPT_CHART_H

#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "ohlcv.h"
#include "report_input.h"

/* Every chart function writes one PNG atomically to path and returns 0, or -1 with err set when
 * the file could not be written. Missing inputs are not errors: the chart then shows why it is
 * empty, so the report's set of images never changes shape. Arguments are borrowed. */

/* Net and gross equity over time, with the net drawdown in a panel below. */
int rpt_chart_equity(const char *path, const struct rpt_series *eq, const char *why_missing,
		    char *err, size_t errlen);

/* The distribution of per-trade net returns (gross as an outline), with zero and the mean. */
int rpt_chart_returns(const char *path, const struct rpt_returns *r, const char *why_missing,
		     char *err, size_t errlen);

/* Sharpe and PSR as costs are scaled: sens is stats.json's cost_sensitivity array (may be NULL). */
int rpt_chart_costs(const char *path, const cJSON *sens, char *err, size_t errlen);

/* The close price with the position shaded (sig: px->n validated signals, or NULL with
 * why_no_signals saying why) and each look-ahead mismatch (lookahead.json's mismatches array,
 * may be NULL) marked. */
int rpt_chart_signals(const char *path, const struct sa_ohlcv *px, const int8_t *sig,
		     const char *why_no_signals, const cJSON *mismatches, const char *why_missing,
		     char *err, size_t errlen);

/* The permuted Sharpe ratios (robustness.json's permutation object, may be NULL) as a histogram,
 * the real one marked. */
int rpt_chart_permutation(const char *path, const cJSON *perm, const char *why_missing,
			  char *err, size_t errlen);

/* Where each warm-up run's signals differ from the full run's on the compared tail
 * (robustness.json's warmup object, may be NULL). */
int rpt_chart_warmup(const char *path, const cJSON *warm, const char *why_missing, char *err,
		     size_t errlen);

/* Releases cairo's and the font library's process-wide caches, so a leak checker sees only real
 * leaks. Call once, after the last chart. */
void rpt_chart_cleanup(void);

#endif
