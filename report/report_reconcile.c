/* report_reconcile.c - the section "The log against the code": model, sheet, and the curves of
 * the replay stage's reconcile.csv. */
#include "report_reconcile.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonio.h"
#include "msg.h"
#include "report_columns.h"
#include "report_fmt.h"
#include "report_xlsx_book.h"
#include "timeutil.h"

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

/* Sheet Worst gaps: the worst trades under rpt_worst_cols' headers. */
static int sheet_worst(struct rpt_book *b, const cJSON *rc)
{
	lxw_worksheet *ws = rpt_xlsx_table_sheet(b, "Worst gaps", rpt_worst_cols, RPT_WORST_COLS);
	const cJSON *w;
	int r = 1;

	if (!ws)
		return -1;
	cJSON_ArrayForEach(w, get(rc, "worst")) {
		for (int c = 0; c < RPT_WORST_COLS; c++)
			rpt_xlsx_json(ws, r, c, get(w, rpt_worst_cols[c].column),
				      rpt_worst_cols[c].cell == RPT_CELL_PCT ? b->pct : NULL);
		r++;
	}
	rpt_xlsx_filter(ws, r - 1, RPT_WORST_COLS);
	return 0;
}

int rpt_reconcile_sheet(struct rpt_book *b, const struct rpt_input *in)
{
	static const char *const plain[] = { "consistent", "claimed_trades", "replay_trades", "matched",
					     "claimed_only", "replay_only", "exit_mismatches",
					     "gaps_over_tolerance", "tolerance_bps", "t_gap" };
	static const char *const fractions[] = { "mean_gap", "sd_gap", "claimed_total", "replay_total",
						 "total_difference" };
	const cJSON *rc = reconcile_of(in), *s;
	struct rpt_kv kv;

	if (!rc)
		return 0;
	if (rpt_xlsx_kv_open(b, "Reconcile", 30, &kv))
		return -1;
	for (size_t k = 0; k < sizeof plain / sizeof plain[0]; k++)
		rpt_xlsx_kv(&kv, plain[k], get(rc, plain[k]), NULL);
	for (size_t k = 0; k < sizeof fractions / sizeof fractions[0]; k++)
		rpt_xlsx_kv(&kv, fractions[k], get(rc, fractions[k]), b->pct);
	cJSON_ArrayForEach(s, get(rc, "statements"))
		rpt_xlsx_kv(&kv, "statement", s, NULL);
	rpt_xlsx_kv_close(&kv);
	return sheet_worst(b, rc);
}

/* The rows of reconcile.csv whose curve is name, as a series. Returns 0, or -1 with why. */
static int curve_of(const struct rpt_table *tb, const char *name, struct rpt_series *s, char *why,
		    size_t len)
{
	size_t n = tb->rows ? tb->rows - 1 : 0, k = 0;
	int cc = rpt_table_col(tb, "curve"), ct = rpt_table_col(tb, "time");
	int cn = rpt_table_col(tb, "net_equity");

	memset(s, 0, sizeof *s);
	s->t = malloc((n ? n : 1) * sizeof *s->t);
	s->net = malloc((n ? n : 1) * sizeof *s->net);
	if (!s->t || !s->net) {
		sa_fmt(why, len, "out of memory");
		return -1;
	}
	for (size_t r = 0; r < n; r++) {
		if (strcmp(rpt_table_get(tb, r, cc), name))
			continue;
		if (sa_time_parse(rpt_table_get(tb, r, ct), &s->t[k]) ||
		    rpt_parse_num(rpt_table_get(tb, r, cn), &s->net[k])) {
			sa_fmt(why, len, "reconcile.csv line %zu is not a point of a curve", r + 2);
			return -1;
		}
		k++;
	}
	s->n = k;
	if (k == 0)
		sa_fmt(why, len, "reconcile.csv %s", cc < 0 || ct < 0 || cn < 0 ?
		       "lacks its columns" : "holds no curve");
	return k ? 0 : -1;
}

int rpt_reconcile_curves(const struct rpt_input *in, struct rpt_series *claimed,
			 struct rpt_series *replayed, char *why, size_t whylen)
{
	const struct rpt_table *tb = &in->curve[RPT_RECONCILE];

	memset(claimed, 0, sizeof *claimed);
	memset(replayed, 0, sizeof *replayed);
	if (!reconcile_of(in)) {
		sa_fmt(why, whylen, "no trade log was reconciled with a replay");
		return -1;
	}
	if (in->curve_reason[RPT_RECONCILE][0]) {
		sa_fmt(why, whylen, "%s", in->curve_reason[RPT_RECONCILE]);
		return -1;
	}
	if (curve_of(tb, "claimed", claimed, why, whylen) || curve_of(tb, "replayed", replayed, why, whylen)) {
		rpt_series_release(claimed);
		rpt_series_release(replayed);
		return -1;
	}
	return 0;
}
