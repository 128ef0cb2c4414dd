/* report_reconcile.c - the section "The log against the code": model, sheet and curves. */
#include "report_reconcile.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "jsonio.h"
#include "msg.h"
#include "replay_core.h"
#include "report_fmt.h"
#include "timeutil.h"
#include "tradelog.h"

/* The reconciliation object of replay.json, or NULL when there is none. */
static const cJSON *reconcile_of(const struct rpt_input *in)
{
	const cJSON *rc = cJSON_GetObjectItemCaseSensitive(rpt_stage_ok(in, RPT_REPLAY), "reconcile");

	return cJSON_IsObject(rc) ? rc : NULL;
}

static const cJSON *get(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* Copies o's number key as text: a count, or a percentage, or basis points. */
static void put_count(cJSON *to, const char *key, const cJSON *o)
{
	char b[64];

	cJSON_AddStringToObject(to, key, rpt_fmt_num(get(o, key), 0, b, sizeof b));
}

static void put_pct(cJSON *to, const char *as, const cJSON *o, const char *key)
{
	char b[64];

	cJSON_AddStringToObject(to, as, rpt_fmt_pct(get(o, key), 2, b, sizeof b));
}

/* A fraction as basis points with one decimal, "-" when unknown. */
static void put_bp(cJSON *to, const char *as, const cJSON *o, const char *key)
{
	const cJSON *v = get(o, key);
	char b[64];

	if (cJSON_IsNumber(v) && isfinite(v->valuedouble))
		sa_fmt(b, sizeof b, "%+.1f bp", 1e4 * v->valuedouble);
	else
		sa_fmt(b, sizeof b, "-");
	cJSON_AddStringToObject(to, as, b);
}

static void put_text(cJSON *to, const char *as, const cJSON *o, const char *key)
{
	const cJSON *v = get(o, key);

	cJSON_AddStringToObject(to, as, cJSON_IsString(v) ? v->valuestring : "-");
}

static void add_worst(cJSON *o, const cJSON *rc)
{
	cJSON *list = cJSON_AddArrayToObject(o, "worst");
	const cJSON *w;

	cJSON_ArrayForEach(w, get(rc, "worst")) {
		cJSON *row = cJSON_CreateObject();
		put_count(row, "line", w);
		put_text(row, "entry", w, "entry_time");
		put_text(row, "side", w, "side");
		put_text(row, "exit", w, "exit_time");
		put_text(row, "replay_exit", w, "replay_exit_time");
		put_pct(row, "claimed", w, "claimed");
		put_pct(row, "replayed", w, "replayed");
		put_bp(row, "gap", w, "gap");
		cJSON_AddItemToArray(list, row);
	}
}

void rpt_reconcile_model(cJSON *m, const struct rpt_input *in)
{
	const cJSON *rc = reconcile_of(in), *s;
	cJSON *o = cJSON_AddObjectToObject(m, "reconcile"), *list;
	char b[64];

	cJSON_AddBoolToObject(o, "present", rc != NULL);
	if (!rc)
		return;
	cJSON_AddBoolToObject(o, "consistent", sa_json_bool(rc, "consistent", false));
	put_text(o, "statement", rc, "statement");
	list = cJSON_AddArrayToObject(o, "statements");
	cJSON_ArrayForEach(s, get(rc, "statements"))
		if (cJSON_IsString(s))
			cJSON_AddItemToArray(list, cJSON_CreateString(s->valuestring));
	static const char *const counts[] = { "claimed_trades", "replay_trades", "matched",
					      "claimed_only", "replay_only", "exit_mismatches",
					      "gaps_over_tolerance" };
	for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
		put_count(o, counts[k], rc);
	cJSON_AddStringToObject(o, "tolerance", rpt_fmt_num(get(rc, "tolerance_bps"), 2, b, sizeof b));
	put_bp(o, "mean_gap", rc, "mean_gap");
	put_bp(o, "sd_gap", rc, "sd_gap");
	cJSON_AddStringToObject(o, "t_gap", rpt_fmt_num(get(rc, "t_gap"), 1, b, sizeof b));
	put_pct(o, "claimed_total", rc, "claimed_total");
	put_pct(o, "replay_total", rc, "replay_total");
	add_worst(o, rc);
}

/* One label and a number from rc (as a fraction with fmt, or plain). */
static void sheet_row(lxw_worksheet *ws, int r, const char *label, const cJSON *v, lxw_format *f)
{
	worksheet_write_string(ws, (lxw_row_t)r, 0, label, NULL);
	if (cJSON_IsNumber(v) && isfinite(v->valuedouble))
		worksheet_write_number(ws, (lxw_row_t)r, 1, v->valuedouble, f);
	else if (cJSON_IsBool(v))
		worksheet_write_boolean(ws, (lxw_row_t)r, 1, cJSON_IsTrue(v), NULL);
}

static int sheet_worst(lxw_worksheet *ws, int r, lxw_format *head, lxw_format *pct, const cJSON *rc)
{
	static const char *const heads[] = { "line", "entry_time", "side", "exit_time",
					     "replay_exit_time", "claimed", "replayed", "gap" };
	const cJSON *w;

	for (int c = 0; c < 8; c++)
		worksheet_write_string(ws, (lxw_row_t)r, (lxw_col_t)c, heads[c], head);
	r++;
	cJSON_ArrayForEach(w, get(rc, "worst")) {
		for (int c = 0; c < 8; c++) {
			const cJSON *v = get(w, heads[c]);
			if (cJSON_IsString(v))
				worksheet_write_string(ws, (lxw_row_t)r, (lxw_col_t)c, v->valuestring, NULL);
			else if (cJSON_IsNumber(v))
				worksheet_write_number(ws, (lxw_row_t)r, (lxw_col_t)c, v->valuedouble,
						       c >= 5 ? pct : NULL);
		}
		r++;
	}
	return r;
}

int rpt_reconcile_sheet(lxw_workbook *wb, lxw_format *head, lxw_format *pct,
			const struct rpt_input *in)
{
	const cJSON *rc = reconcile_of(in), *s;
	lxw_worksheet *ws;
	int r = 0;

	if (!rc)
		return 0;
	ws = workbook_add_worksheet(wb, "Reconcile");
	if (!ws)
		return -1;
	worksheet_set_column(ws, 0, 0, 30, NULL);
	worksheet_set_column(ws, 1, 7, 20, NULL);
	worksheet_write_string(ws, (lxw_row_t)r, 0, "figure", head);
	worksheet_write_string(ws, (lxw_row_t)r++, 1, "value", head);
	static const char *const plain[] = { "consistent", "claimed_trades", "replay_trades", "matched",
					     "claimed_only", "replay_only", "exit_mismatches",
					     "gaps_over_tolerance", "tolerance_bps", "t_gap" };
	for (size_t k = 0; k < sizeof plain / sizeof plain[0]; k++)
		sheet_row(ws, r++, plain[k], get(rc, plain[k]), NULL);
	static const char *const fractions[] = { "mean_gap", "sd_gap", "claimed_total", "replay_total",
						 "total_difference" };
	for (size_t k = 0; k < sizeof fractions / sizeof fractions[0]; k++)
		sheet_row(ws, r++, fractions[k], get(rc, fractions[k]), pct);
	r++;
	cJSON_ArrayForEach(s, get(rc, "statements"))
		if (cJSON_IsString(s))
			worksheet_write_string(ws, (lxw_row_t)r++, 0, s->valuestring, NULL);
	r++;
	sheet_worst(ws, r, head, pct, rc);
	return 0;
}

/* The trades of trades.csv as a log of their net returns, to compound as the claims are. */
static int table_as_log(const struct rpt_table *tb, struct sa_tradelog *log, char *why, size_t len)
{
	int ce = rpt_table_col(tb, "entry_time"), cx = rpt_table_col(tb, "exit_time");
	int cs = rpt_table_col(tb, "side"), cn = rpt_table_col(tb, "net_return");
	size_t n = tb->rows ? tb->rows - 1 : 0;

	memset(log, 0, sizeof *log);
	log->trades = calloc(n ? n : 1, sizeof *log->trades);
	if (!log->trades) {
		sa_fmt(why, len, "out of memory");
		return -1;
	}
	for (size_t r = 0; r < n; r++) {
		struct sa_trade *t = &log->trades[r];
		if (sa_time_parse(rpt_table_get(tb, r, ce), &t->entry) ||
		    sa_time_parse(rpt_table_get(tb, r, cx), &t->exit) ||
		    rpt_parse_num(rpt_table_get(tb, r, cn), &t->ret)) {
			sa_fmt(why, len, "trades.csv row %zu is not a trade", r + 1);
			return -1;
		}
		t->side = strcasecmp(rpt_table_get(tb, r, cs), "short") ? 1 : -1;
		t->line = r + 2;
	}
	log->n = n;
	return 0;
}

/* The compounded curve of log as a series starting at 1 at start. */
static int curve_of(const struct sa_tradelog *log, int64_t start, struct rpt_series *s)
{
	struct rp_result r;
	int rc = -1;

	memset(s, 0, sizeof *s);
	if (rp_from_log(log, NULL, &r) < 0)
		return -1;
	s->t = malloc((r.n_eq + 1) * sizeof *s->t);
	s->net = malloc((r.n_eq + 1) * sizeof *s->net);
	if (!s->t || !s->net)
		goto out;
	s->t[0] = start;
	s->net[0] = 1.0;
	for (size_t k = 0; k < r.n_eq; k++) {
		s->t[k + 1] = r.eq_time[k];
		s->net[k + 1] = r.eq_net[k];
	}
	s->n = r.n_eq + 1;
	rc = 0;
out:
	rp_result_release(&r);
	return rc;
}

static int64_t first_entry(const struct sa_tradelog *a, const struct sa_tradelog *b)
{
	int64_t t = INT64_MAX;

	for (size_t i = 0; i < a->n; i++)
		t = a->trades[i].entry < t ? a->trades[i].entry : t;
	for (size_t i = 0; i < b->n; i++)
		t = b->trades[i].entry < t ? b->trades[i].entry : t;
	return t == INT64_MAX ? 0 : t;
}

int rpt_reconcile_curves(const struct rpt_input *in, const char *dir, struct rpt_series *claimed,
			 struct rpt_series *replayed, char *why, size_t whylen)
{
	struct sa_tradelog log = { 0 }, rep = { 0 };
	char path[4096], err[512];
	int rc = -1;
	int64_t start;

	memset(claimed, 0, sizeof *claimed);
	memset(replayed, 0, sizeof *replayed);
	if (!reconcile_of(in)) {
		sa_fmt(why, whylen, "no trade log was reconciled with a replay");
		goto out;
	}
	if (sa_tradelog_load(sa_fmt(path, sizeof path, "%s/tradelog.csv", dir), &log, err, sizeof err)) {
		sa_fmt(why, whylen, "tradelog.csv: %s", err);
		goto out;
	}
	if (table_as_log(&in->trades, &rep, why, whylen))
		goto out;
	start = first_entry(&log, &rep);
	if (curve_of(&log, start, claimed) || curve_of(&rep, start, replayed)) {
		sa_fmt(why, whylen, "out of memory");
		goto out;
	}
	rc = 0;
out:
	sa_tradelog_release(&log);
	sa_tradelog_release(&rep);
	if (rc) {
		rpt_series_release(claimed);
		rpt_series_release(replayed);
	}
	return rc;
}
