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

/* The declared variants' per-trade Sharpe ratios (n of them, borrowed; sorted for the chart)
 * as bars, with the audited strategy's Sharpe ratio and SR0 marked; why_missing when n is 0. */
int rpt_chart_variants(const char *path, const double *sharpe, size_t n, double audited,
		       double sr0, const char *why_missing, char *err, size_t errlen);

/* The histogram of CSCV logits from stats.json's pbo object (NULL: why_missing is shown). */
int rpt_chart_pbo(const char *path, const cJSON *pbo, const char *why_missing, char *err,
		  size_t errlen);

/* Releases cairo's and the font library's process-wide caches, so a leak checker sees only real
 * leaks. Call once, after the last chart. */
void rpt_chart_cleanup(void);

#endif
