/* report_freqtrade.h - the report's section "As freqtrade reports it": stats.json's tables in
 * the shape of freqtrade's backtest report (the account in stake currency, the market's change,
 * the longest runs, the trades by exit reason and by entry tag), on the page, in the PDF and in
 * the XLSX. Read, never computed. */
#ifndef RPT_FREQTRADE_H
#define RPT_FREQTRADE_H

#include <cjson/cJSON.h>
#include <xlsxwriter.h>

#include "report_input.h"
#include "report_pdf_draw.h"

/* Adds "freqtrade" to the report model m: {present (stats.json is ok and has the tables),
 * sentence, rows [{label, value, meaning}], by_exit_reason and by_entry_tag [{key, trades,
 * mean_return, sum_return, mean_bars_held, wins, draws, losses}] as text, entry_tag_note}. */
void rpt_freqtrade_model(cJSON *m, const struct rpt_input *in);

/* Draws the section from the model m (borrowed) into the PDF, when present. */
void rpt_freqtrade_pdf(struct rpt_pdf *p, const cJSON *m);

/* Adds the sheets "Exit reasons", "Entry tags" and "Account" to wb, each one table under a
 * header row with an autofilter, the numbers as stats.json has them (head and pct borrowed).
 * Returns 0 (nothing added without the tables), or -1 when a sheet could not be added. */
int rpt_freqtrade_sheets(lxw_workbook *wb, lxw_format *head, lxw_format *pct, const struct rpt_input *in);

#endif
