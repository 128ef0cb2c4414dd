/* report_chart.h - the report's PNG charts, drawn with cairo, reproducible byte for byte. */
#ifndef RPT_CHART_H
#define RPT_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cairo.h>
#include <cjson/cJSON.h>

#include "ohlcv.h"
#include "report_input.h"

/* Every chart function writes one PNG atomically to path and returns 0, or -1 with err set when
 * the file could not be written. Missing inputs are not errors: the chart then shows why it is
 * empty, so the report's set of images never changes shape. Arguments are borrowed. */

/* Each rpt_draw_* draws the chart of the same name onto cr, in a box of RPT_CHART_WIDTH x
 * RPT_CHART_HEIGHT units at cr's current transformation (a PNG at twice the density, a PDF page
 * scaled down), white background included. */
#define RPT_CHART_WIDTH 1000.0
#define RPT_CHART_HEIGHT 540.0

/* Net and gross equity over time, with buy and hold (bench, may be NULL) beside them and the
 * net drawdown in a panel below. */
/* Whether the equity chart of eq beside bench (either may have no points; borrowed) is drawn
 * on a log axis: its positive values span more than ten times over, where a linear axis
 * flattens the smaller lines. */
bool rpt_equity_log_axis(const struct rpt_series *eq, const struct rpt_series *bench);

int rpt_chart_equity(const char *path, const struct rpt_series *eq, const struct rpt_series *bench,
		     const char *why_missing, char *err, size_t errlen);
void rpt_draw_equity(cairo_t *cr, const struct rpt_series *eq, const struct rpt_series *bench,
		     const char *why_missing);

/* The distribution of per-trade net returns (gross as an outline), with zero and the mean. */
int rpt_chart_returns(const char *path, const struct rpt_returns *r, const char *why_missing,
		     char *err, size_t errlen);
void rpt_draw_returns(cairo_t *cr, const struct rpt_returns *r, const char *why_missing);

/* Sharpe and PSR as costs are scaled: sens is stats.json's cost_sensitivity array (may be NULL),
 * breakeven its breakeven_cost_multiple (NAN when there is none). */
int rpt_chart_costs(const char *path, const cJSON *sens, double breakeven, char *err, size_t errlen);
void rpt_draw_costs(cairo_t *cr, const cJSON *sens, double breakeven);

/* The close price with the position shaded (sig: px->n validated signals, or NULL with
 * why_no_signals saying why) and each look-ahead mismatch (lookahead.json's mismatches array,
 * may be NULL) marked. */
int rpt_chart_signals(const char *path, const struct da_ohlcv *px, const int8_t *sig,
		     const char *why_no_signals, const cJSON *mismatches, const char *why_missing,
		     char *err, size_t errlen);
void rpt_draw_signals(cairo_t *cr, const struct da_ohlcv *px, const int8_t *sig,
		      const char *why_no_signals, const cJSON *mismatches, const char *why_missing);

/* The net curve's fall below its running peak, with stats.json's drawdowns episodes (may be
 * NULL) shaded and numbered. */
int rpt_chart_underwater(const char *path, const struct rpt_series *eq, const cJSON *episodes,
			 const char *why_missing, char *err, size_t errlen);
void rpt_draw_underwater(cairo_t *cr, const struct rpt_series *eq, const cJSON *episodes,
			 const char *why_missing);

/* The rolling Sharpe ratio v[0..n) at times t (NAN where no full window), with the whole
 * period's (headline, may be NAN) as a dashed line. */
int rpt_chart_rolling(const char *path, const int64_t *t, const double *v, size_t n, size_t window,
		      double headline, const char *why_missing, char *err, size_t errlen);
void rpt_draw_rolling(cairo_t *cr, const int64_t *t, const double *v, size_t n, size_t window,
		      double headline, const char *why_missing);

/* Sharpe ratio and net return against the fill delay: stats.json's delay_sensitivity rows. */
/* rolling_vol.png: the annualised volatility over a moving window of bars (v as rolling.png's,
 * from st_rolling_annual), the whole period's as a dashed line; why_missing when there is none. */
int rpt_chart_rolling_vol(const char *path, const int64_t *t, const double *v, size_t n,
			  size_t window, double headline, const char *why_missing, char *err,
			  size_t errlen);
void rpt_draw_rolling_vol(cairo_t *cr, const int64_t *t, const double *v, size_t n, size_t window,
			  double headline, const char *why_missing);

int rpt_chart_delay(const char *path, const cJSON *rows, const char *why_missing, char *err,
		    size_t errlen);
void rpt_draw_delay(cairo_t *cr, const cJSON *rows, const char *why_missing);

/* The log against the code: the claimed equity and the replayed one (series of t and net),
 * each compounded, on one time axis. */
int rpt_chart_reconcile(const char *path, const struct rpt_series *claimed,
			const struct rpt_series *replayed, char *err, size_t errlen);

/* Live against the backtest: the backtest's net equity (backtest_equity.csv, dashed, "what the
 * backtest claimed") and the live decisions' (equity.csv, "what it would have done live"), each
 * compounded, on one time axis; why_missing (not empty) is shown instead when the live decisions
 * were not scored. */
int rpt_chart_live(const char *path, const struct rpt_series *backtest, const struct rpt_series *live,
		   const char *why_missing, char *err, size_t errlen);
void rpt_draw_live(cairo_t *cr, const struct rpt_series *backtest, const struct rpt_series *live,
		   const char *why_missing);

/* The permuted Sharpe ratios (robustness.json's permutation object, may be NULL) as a histogram,
 * the real one marked. */
int rpt_chart_permutation(const char *path, const cJSON *perm, const char *why_missing,
			  char *err, size_t errlen);

/* Where each warm-up run's signals differ from the full run's on the compared tail
 * (robustness.json's warmup object, may be NULL). */
int rpt_chart_warmup(const char *path, const cJSON *warm, const char *why_missing, char *err,
		     size_t errlen);

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
