/* report_live.h - the report's section "Live against the backtest": the live decisions (each bar
 * decided with only the bars up to it: lookahead.json "live") set beside the full-history
 * backtest the author saw, as the replay stage scored and replayed them (replay.json "scored",
 * "backtest", "live_vs_backtest"; equity.csv and backtest_equity.csv). Read, never computed. */
#ifndef RPT_LIVE_H
#define RPT_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>
#include <xlsxwriter.h>

#include "report_input.h"

/* Whether the section is shown: replay.json is ok and says what it "scored" (an audit of a
 * strategy). */
bool rpt_live_present(const struct rpt_input *in);

/* Adds "live" to the report model m: {present, scored_live, worth (the sentence on what the
 * difference is worth, or why the live decisions were not scored), decided (how the bars were
 * decided: every one live, or how many and the sample's bound; "" without a live object),
 * net_return_live, net_return_backtest, difference, differing_bars, trades_live,
 * trades_backtest, first_differences [{bar, time, backtest, live, confirmed}], has_first}. */
void rpt_live_model(cJSON *m, const struct rpt_input *in);

/* Adds to the workbook b, when the section is shown, the sheets Live (replay.json's figures of
 * the two replays, lookahead.json's counts of the live replay, one a row) and Live differences
 * (its first differences, one a row). Returns 0, or -1 when a sheet could not be added. */
struct rpt_book;
int rpt_live_sheet(struct rpt_book *b, const struct rpt_input *in);

/* The backtest's net equity as the replay stage wrote it into backtest_equity.csv (equity.csv's
 * columns). Returns 0 with s filled (release with rpt_series_release), or -1 with the reason in
 * why (the live decisions were not scored, an unreadable or empty file, out of memory). */
int rpt_live_backtest(const struct rpt_input *in, struct rpt_series *s, char *why, size_t whylen);

#endif
