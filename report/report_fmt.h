/* report_fmt.h - the two number formats every part of the report prints JSON figures with, and
 * one formatter for each figure the report quotes in more than one place: the page's tables and
 * sentences, the PDF, the charts' labels and the XLSX's number formats all print it through
 * these, so the text says what the table and the chart show. It uses nothing of the report, so
 * any report file may include it. */
#ifndef RPT_FMT_H
#define RPT_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

/* Whether v is a finite number. */
bool rpt_is_num(const cJSON *v);

/* Formats v as a fixed-point percentage ("12.34 %"), or "n/a" when v is not a finite number.
 * Returns buf. */
char *rpt_fmt_pct(const cJSON *v, int decimals, char *buf, size_t len);

/* Formats a number with decimals places, or "n/a". Returns buf. */
char *rpt_fmt_num(const cJSON *v, int decimals, char *buf, size_t len);

/* Decimals a cost multiple is printed with: 0 from 100 up, 1 from 10, 2 from 1, and below 1
 * three significant figures (0.523, 0.0412); 0 for zero. */
int rpt_multiple_decimals(double x);

/* A cost multiple ("7.79x", "23.5x", "0.523x") with rpt_multiple_decimals, or "n/a" when x is
 * not finite. Returns buf. */
char *rpt_fmt_multiple(double x, char *buf, size_t len);

/* A replayed row's compounded net return (a delay_sensitivity or cost_sensitivity row):
 * "165.08 %", or "-100.00 % (ruined)" when the row says ruined. Returns buf. */
char *rpt_fmt_row_net(const cJSON *row, char *buf, size_t len);

/* A row's per-trade Sharpe ratio: four decimals ("0.3340"), or "n/a". Returns buf. */
char *rpt_fmt_row_sharpe(const cJSON *row, char *buf, size_t len);

/* The decimals of rpt_fmt_row_net's percentage and of rpt_fmt_row_sharpe, for the XLSX's
 * number formats. */
#define RPT_ROW_NET_DECIMALS 2
#define RPT_ROW_SHARPE_DECIMALS 4

#endif
