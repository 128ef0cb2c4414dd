/* report_tearsheet.h - the tearsheet part of the report: the buy and hold curve and the rolling
 * Sharpe ratio the charts draw, and the tables and sentences of stats.json's tearsheet fields. */
#ifndef RPT_TEARSHEET_H
#define RPT_TEARSHEET_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "report_input.h"

/* What the charts and the PDF draw besides the stage files. Release with rpt_extra_release. */
struct rpt_extra {
	struct rpt_series bench;        /* benchmark.csv's buy and hold (t and net); empty when none */
	double *rolling;                /* equity.n values, NAN where no full window; or NULL */
	double *rolling_vol;            /* the same for the rolling volatility; or NULL */
	double volatility_annualised;   /* stats.json's, for its chart; or NAN */
	size_t window;
	char rolling_why[128];          /* why rolling is NULL */
	double breakeven;               /* stats.json's breakeven_cost_multiple, or NAN */
	double sharpe_annualised;       /* the headline, for the rolling chart; or NAN */
	const cJSON *stats;             /* borrowed from the input; NULL when stats failed */
	struct rpt_series backtest;     /* backtest_equity.csv, beside the live decisions; empty when
					 * they were not scored (report_live.h) */
	char live_why[320];             /* why live.png draws no curves ("" when it draws them) */
};

/* Fills x from in (borrowed; x borrows from it, so release x first): the buy and hold of
 * benchmark.csv and the rolling figures of rolling.csv, both written by the stats stage,
 * stats.json's figures the charts quote, and the backtest's curve beside the live decisions
 * (the replay stage's backtest_equity.csv). Returns 0, or -1 when memory ran out. */
int rpt_extra_build(struct rpt_extra *x, const struct rpt_input *in);
void rpt_extra_release(struct rpt_extra *x);

/* Adds "tearsheet" to the template model m: benchmark, drawdowns, monthly, delay and trade
 * tables, each with the sentence that says what it means. */
void rpt_tearsheet_model(cJSON *m, const struct rpt_input *in);

/* One-sentence readings of stats.json's figures, into buf (returned); "" when the figures are
 * absent. Shared by the page and the PDF. */
char *rpt_say_benchmark(const cJSON *stats, char *buf, size_t len);
char *rpt_say_delay(const cJSON *stats, char *buf, size_t len);
char *rpt_say_breakeven(const cJSON *stats, char *buf, size_t len);
char *rpt_say_interval(const cJSON *stats, char *buf, size_t len);

#endif
