/* report_freqtrade.c - the section "As freqtrade reports it" (report_freqtrade.h). */
#include "report_freqtrade.h"
#include "report_columns.h"
#include "report_fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "jsonio.h"
#include "msg.h"

static const cJSON *get(const cJSON *o, const char *k)
{
	return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

/* stats.json when it holds the tables, else NULL. */
static const cJSON *tables_of(const struct rpt_input *in)
{
	const cJSON *st = rpt_stage_ok(in, RPT_STATS);

	return cJSON_IsArray(get(st, "by_exit_reason")) && cJSON_IsArray(get(st, "by_entry_tag")) ? st : NULL;
}

/* How a table's key reads: the untagged row as freqtrade prints it. */
static const char *key_words(const char *key)
{
	if (!*key)
		return "OTHER (untagged)";
	if (!strcmp(key, "unknown"))
		return "unknown (the log does not say)";
	return key;
}

static cJSON *table_rows(const cJSON *rows)
{
	cJSON *list = cJSON_CreateArray();
	const cJSON *it;
	char b[64];

	cJSON_ArrayForEach(it, rows) {
		cJSON *r = cJSON_CreateObject();

		if (!r)
			break;
		cJSON_AddStringToObject(r, "key", key_words(sa_json_str(it, "key", "")));
		cJSON_AddStringToObject(r, "trades", rpt_fmt_num(get(it, "trades"), 0, b, sizeof b));
		cJSON_AddStringToObject(r, "mean_return", rpt_fmt_pct(get(it, "mean_return"), 3, b, sizeof b));
		cJSON_AddStringToObject(r, "sum_return", rpt_fmt_pct(get(it, "sum_return"), 2, b, sizeof b));
		cJSON_AddStringToObject(r, "mean_bars_held", rpt_fmt_num(get(it, "mean_bars_held"), 1, b, sizeof b));
		cJSON_AddStringToObject(r, "wins", rpt_fmt_num(get(it, "wins"), 0, b, sizeof b));
		cJSON_AddStringToObject(r, "draws", rpt_fmt_num(get(it, "draws"), 0, b, sizeof b));
		cJSON_AddStringToObject(r, "losses", rpt_fmt_num(get(it, "losses"), 0, b, sizeof b));
		cJSON_AddItemToArray(list, r);
	}
	return list;
}

static void row(cJSON *list, const char *label, const char *value, const char *meaning)
{
	cJSON *r = cJSON_CreateObject();

	cJSON_AddStringToObject(r, "label", label);
	cJSON_AddStringToObject(r, "value", value);
	cJSON_AddStringToObject(r, "meaning", meaning);
	cJSON_AddItemToArray(list, r);
}

/* "a run" or "3 trades in a row" said with the noun agreeing with the count. */
static const char *run_words(const cJSON *v, char *buf, size_t len)
{
	double n = cJSON_IsNumber(v) ? v->valuedouble : NAN;

	if (!isfinite(n))
		return sa_fmt(buf, len, "n/a");
	return sa_fmt(buf, len, "%.0f trade%s", n, n == 1 ? "" : "s");
}

static void add_rows(cJSON *o, const cJSON *st)
{
	const cJSON *bal = get(st, "balance");
	cJSON *l = cJSON_AddArrayToObject(o, "rows");
	char b[64], mc[400];

	row(l, "Starting balance", rpt_fmt_num(get(bal, "starting_balance"), 2, b, sizeof b),
	    "the STAKE knob, in stake currency: what the account starts with");
	row(l, "Final balance", rpt_fmt_num(get(bal, "final_balance"), 2, b, sizeof b),
	    "the whole balance in every trade, compounded after costs: the starting balance x (1 + the net return)");
	row(l, "Absolute profit", rpt_fmt_num(get(bal, "profit_abs"), 2, b, sizeof b),
	    "the final balance less the starting one, in stake currency");
	sa_fmt(mc, sizeof mc, "the instrument's last close over its first, over the bars the audit scored%s%s",
	       cJSON_IsNumber(get(st, "market_change")) ? "" : ": ",
	       cJSON_IsNumber(get(st, "market_change")) ? "" : sa_json_str(st, "market_change_note", ""));
	row(l, "Market change", rpt_fmt_pct(get(st, "market_change"), 2, b, sizeof b), mc);
	row(l, "Most wins in a row", run_words(get(st, "max_consecutive_wins"), b, sizeof b),
	    "the longest run of trades with a net return above zero, in the order they were opened");
	row(l, "Most losses in a row", run_words(get(st, "max_consecutive_losses"), b, sizeof b),
	    "the longest run of the others (a flat trade ends a run of wins, as freqtrade counts it)");
}

void rpt_freqtrade_model(cJSON *m, const struct rpt_input *in)
{
	const cJSON *st = tables_of(in), *bal, *mc;
	cJSON *o = cJSON_AddObjectToObject(m, "freqtrade");
	char s[400], a[64], f[64], pr[64], net[64], mk[200];

	if (!o)
		return;
	cJSON_AddBoolToObject(o, "present", st != NULL);
	if (!st)
		return;
	bal = get(st, "balance");
	mc = get(st, "market_change");
	if (cJSON_IsNumber(mc))
		sa_fmt(mk, sizeof mk, "; the market changed %s over the same bars",
		       rpt_fmt_pct(mc, 2, a, sizeof a));
	else
		mk[0] = '\0';
	sa_fmt(s, sizeof s, "Starting with %s in stake currency, the account ends at %s: %s (%s)%s.",
	       rpt_fmt_num(get(bal, "starting_balance"), 2, a, sizeof a),
	       rpt_fmt_num(get(bal, "final_balance"), 2, f, sizeof f),
	       rpt_fmt_num(get(bal, "profit_abs"), 2, pr, sizeof pr),
	       rpt_fmt_pct(get(st, "net_return"), 2, net, sizeof net), mk);
	cJSON_AddStringToObject(o, "sentence", s);
	add_rows(o, st);
	cJSON_AddItemToObject(o, "by_exit_reason", table_rows(get(st, "by_exit_reason")));
	cJSON_AddItemToObject(o, "by_entry_tag", table_rows(get(st, "by_entry_tag")));
	cJSON_AddStringToObject(o, "entry_tag_note", sa_json_str(st, "entry_tag_note", ""));
}

/* --- the PDF ---------------------------------------------------------------------------- */

void rpt_freqtrade_pdf(struct rpt_pdf *p, const cJSON *m)
{
	static const struct rpt_pdf_col stats[] = { { "figure", "label", 0.26 },
		{ "value", "value", 0.16 }, { "what it means", "meaning", 0.58 } };
	const cJSON *o = rpt_pdf_get(m, "freqtrade");
	struct rpt_pdf_col c[RPT_TAG_COLS];

	if (!cJSON_IsTrue(rpt_pdf_get(o, "present")))
		return;
	rpt_pdf_heading(p, "As freqtrade reports it", 1);
	rpt_pdf_paraf(p, "%s", rpt_pdf_str(o, "sentence"));
	rpt_pdf_table(p, rpt_pdf_get(o, "rows"), stats, sizeof stats / sizeof stats[0], NULL);
	rpt_pdf_heading(p, "By exit reason", 2);
	rpt_pdf_table(p, rpt_pdf_get(o, "by_exit_reason"), c, rpt_pdf_cols(rpt_exit_cols, RPT_TAG_COLS, c),
		      "No closed trade.");
	rpt_pdf_heading(p, "By entry tag", 2);
	rpt_pdf_table(p, rpt_pdf_get(o, "by_entry_tag"), c, rpt_pdf_cols(rpt_tag_cols, RPT_TAG_COLS, c),
		      "No closed trade.");
	rpt_pdf_para(p, rpt_pdf_str(o, "entry_tag_note"), 8.5, false, true);
}

/* --- the XLSX --------------------------------------------------------------------------- */

/* A sheet holding one table: the header row, then rows. */
static lxw_worksheet *table_sheet(lxw_workbook *wb, const char *name, const struct rpt_col *t, int n,
				  lxw_format *head)
{
	lxw_worksheet *ws = workbook_add_worksheet(wb, name);

	for (int c = 0; ws && c < n; c++) {
		worksheet_write_string(ws, 0, (lxw_col_t)c, t[c].column, head);
		worksheet_set_column(ws, (lxw_col_t)c, (lxw_col_t)c, t[c].xlsx_width, NULL);
	}
	if (ws)
		worksheet_freeze_panes(ws, 1, 0);
	return ws;
}

static void put(lxw_worksheet *ws, int r, int c, const cJSON *v, lxw_format *f)
{
	if (cJSON_IsNumber(v) && isfinite(v->valuedouble))
		worksheet_write_number(ws, (lxw_row_t)r, (lxw_col_t)c, v->valuedouble, f);
	else if (cJSON_IsString(v))
		worksheet_write_string(ws, (lxw_row_t)r, (lxw_col_t)c, v->valuestring, NULL);
}

static int tag_sheet(lxw_workbook *wb, const char *name, const struct rpt_col *t, const cJSON *rows,
		     lxw_format *head, lxw_format *pct)
{
	lxw_worksheet *ws = table_sheet(wb, name, t, RPT_TAG_COLS, head);
	const cJSON *it;
	int r = 0;

	if (!ws)
		return -1;
	cJSON_ArrayForEach(it, rows) {
		r++;
		for (int c = 0; c < RPT_TAG_COLS; c++)
			put(ws, r, c, get(it, t[c].column), t[c].cell == RPT_CELL_PCT ? pct : NULL);
	}
	worksheet_autofilter(ws, 0, 0, (lxw_row_t)r, RPT_TAG_COLS - 1);
	return 0;
}

static int account_sheet(lxw_workbook *wb, const cJSON *st, lxw_format *head, lxw_format *pct)
{
	static const struct rpt_col kv[] = {
		{ { NULL, NULL, 0 }, "figure", RPT_CELL_TEXT, 28, "" },
		{ { NULL, NULL, 0 }, "value", RPT_CELL_NUM, 16, "" },
	};
	static const char *const bal[] = { "stake", "starting_balance", "final_balance", "profit_abs" };
	static const char *const top[] = { "net_return", "market_change", "max_consecutive_wins",
					   "max_consecutive_losses" };
	lxw_worksheet *ws = table_sheet(wb, "Account", kv, 2, head);
	char label[64];
	int r = 0;

	if (!ws)
		return -1;
	for (size_t k = 0; k < sizeof bal / sizeof bal[0]; k++) {
		worksheet_write_string(ws, (lxw_row_t)++r, 0, sa_fmt(label, sizeof label, "balance.%s", bal[k]), NULL);
		put(ws, r, 1, get(get(st, "balance"), bal[k]), NULL);
	}
	for (size_t k = 0; k < sizeof top / sizeof top[0]; k++) {
		worksheet_write_string(ws, (lxw_row_t)++r, 0, top[k], NULL);
		put(ws, r, 1, get(st, top[k]), k < 2 ? pct : NULL);
	}
	worksheet_autofilter(ws, 0, 0, (lxw_row_t)r, 1);
	return 0;
}

int rpt_freqtrade_sheets(lxw_workbook *wb, lxw_format *head, lxw_format *pct, const struct rpt_input *in)
{
	const cJSON *st = tables_of(in);

	if (!st)
		return 0;
	if (tag_sheet(wb, "Exit reasons", rpt_exit_cols, get(st, "by_exit_reason"), head, pct) < 0 ||
	    tag_sheet(wb, "Entry tags", rpt_tag_cols, get(st, "by_entry_tag"), head, pct) < 0)
		return -1;
	return account_sheet(wb, st, head, pct);
}
