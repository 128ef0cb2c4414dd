/* report_model.c - the report's view model: what each section says, formatted for people. */
#include "report_model.h"
#include "report_tearsheet.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "jsonio.h"
#include "msg.h"
#include "report_columns.h"
#include "report_fmt.h"
#include "report_freqtrade.h"
#include "report_live.h"
#include "report_reconcile.h"
#include "timeutil.h"

#define TAIL_ROWS 10 /* the last trades the PDF lists after the first ones */

const cJSON *rpt_get(const cJSON *obj, const char *key)
{
	return cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

#define get rpt_get
#define add_text rpt_add_text
#define add_pct rpt_add_pct
#define add_num rpt_add_num

#define is_num rpt_is_num

void rpt_add_text(cJSON *to, const char *as, const cJSON *obj, const char *key)
{
	const cJSON *v = get(obj, key);
	char buf[64];
	if (cJSON_IsString(v))
		cJSON_AddStringToObject(to, as, v->valuestring);
	else if (is_num(v))
		cJSON_AddStringToObject(to, as, sa_fmt(buf, sizeof buf, "%.10g", v->valuedouble));
	else if (cJSON_IsBool(v))
		cJSON_AddStringToObject(to, as, cJSON_IsTrue(v) ? "yes" : "no");
	else
		cJSON_AddStringToObject(to, as, "n/a");
}

void rpt_add_pct(cJSON *to, const char *as, const cJSON *obj, const char *key, int dec)
{
	char buf[64];
	cJSON_AddStringToObject(to, as, rpt_fmt_pct(get(obj, key), dec, buf, sizeof buf));
}

void rpt_add_num(cJSON *to, const char *as, const cJSON *obj, const char *key, int dec)
{
	char buf[64];
	cJSON_AddStringToObject(to, as, rpt_fmt_num(get(obj, key), dec, buf, sizeof buf));
}

/* An audit that stopped before its replay (unsafe, incomplete, nothing to replay) has one
 * reason, and every later stage and gate would only repeat it: the page says it once. */
bool rpt_stopped_early(const struct rpt_input *in)
{
	return !in->stage[RPT_REPLAY].ok;
}

/* The first stage that failed, whose reason the later ones inherit. */
static int first_failed(const struct rpt_input *in)
{
	for (int f = 0; f < RPT_NFILES; f++)
		if (!in->stage[f].ok)
			return f;
	return -1;
}

/* Says once why the audit stopped, and names the stage files that are missing because of it. */
static void add_stopped(cJSON *m, const struct rpt_input *in)
{
	int root = first_failed(in);
	char buf[600], also[256] = "";
	size_t used = 0;

	if (!rpt_stopped_early(in) || root < 0)
		return;
	for (int f = root + 1; f < RPT_NFILES; f++)
		if (!in->stage[f].ok && used < sizeof also)
			used += (size_t)snprintf(also + used, sizeof also - used, "%s%s", used ? ", " : "",
						 in->stage[f].file);
	cJSON_AddStringToObject(m, "stopped", sa_fmt(buf, sizeof buf, "The audit stopped early at %s: "
		"%s. Nothing after it could be measured (%s%sthe gates), so that reason is not "
		"repeated below.", in->stage[root].file, in->stage[root].reason, also, also[0] ? ", " : ""));
}

static void add_missing(cJSON *m, const struct rpt_input *in)
{
	cJSON *list = cJSON_AddArrayToObject(m, "missing");
	int root = rpt_stopped_early(in) ? first_failed(in) : -1;
	struct { const char *file, *reason; } extra[] = {
		{ "events.jsonl", in->events_reason }, { "trades.csv", in->trades_reason },
		{ "equity.csv", in->equity_reason }, { "strategy.py", in->source_reason },
		{ "price data", in->data_reason },
	};
	for (int f = 0; f < RPT_NFILES; f++) {
		/* after an early stop, "stopped" says the first reason and the later stages only inherit it */
		if (in->stage[f].ok || (root >= 0 && f >= root && f != RPT_VERDICT))
			continue;
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "file", in->stage[f].file);
		cJSON_AddStringToObject(o, "reason", in->stage[f].reason);
		cJSON_AddItemToArray(list, o);
	}
	for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
		if (!extra[i].reason[0])
			continue;
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "file", extra[i].file);
		cJSON_AddStringToObject(o, "reason", extra[i].reason);
		cJSON_AddItemToArray(list, o);
	}
}

/* One trade of trades.csv (row r) as the page shows it. */
static cJSON *trade_row(const struct rpt_table *tb, size_t r)
{
	int ce = rpt_table_col(tb, "entry_time"), cx = rpt_table_col(tb, "exit_time"), cs = rpt_table_col(tb, "side");
	int cg = rpt_table_col(tb, "gross_return"), cn = rpt_table_col(tb, "net_return"), cb = rpt_table_col(tb, "bars_held");
	cJSON *row = cJSON_CreateObject(), num;
	char b[64];
	double x;

	cJSON_AddStringToObject(row, "entry", rpt_table_get(tb, r, ce));
	cJSON_AddStringToObject(row, "exit", rpt_table_get(tb, r, cx));
	cJSON_AddStringToObject(row, "side", rpt_table_get(tb, r, cs));
	cJSON_AddStringToObject(row, "bars", rpt_table_get(tb, r, cb));
	cJSON_AddStringToObject(row, "why", rpt_table_get(tb, r, rpt_table_col(tb, "exit_reason")));
	memset(&num, 0, sizeof num);
	num.type = cJSON_Number;
	num.valuedouble = rpt_parse_num(rpt_table_get(tb, r, cg), &x) ? NAN : x;
	cJSON_AddStringToObject(row, "gross", rpt_fmt_pct(&num, 3, b, sizeof b));
	num.valuedouble = rpt_parse_num(rpt_table_get(tb, r, cn), &x) ? NAN : x;
	cJSON_AddStringToObject(row, "net", rpt_fmt_pct(&num, 3, b, sizeof b));
	cJSON_AddBoolToObject(row, "win", !isnan(num.valuedouble) && num.valuedouble > 0);
	return row;
}

/* "exits": the exits the replay filled inside the bar, in words ("stop-loss 2 % below a long's
 * entry, ..."), with what was declared and not read; "reasons": the trades by why they
 * closed. Both left out when there is nothing to say. */
static void add_exit_words(cJSON *o, const cJSON *rp)
{
	static const char *const names[][2] = {
		{ "signal", "on a signal change" }, { "stop_loss", "at the stop-loss" },
		{ "take_profit", "at the take-profit" }, { "roi", "at the ROI table" },
		{ "trailing_stop", "at the trailing stop" }, { "end", "at the data's end" },
		{ "ruin", "at ruin" },
	};
	const cJSON *x = get(rp, "exits"), *by = get(rp, "exit_reasons"), *t = get(x, "trailing"), *e;
	char buf[1024] = "", part[160];
	size_t n = 0;

	if (get(x, "stop_loss") && cJSON_IsNumber(get(x, "stop_loss")))
		n += (size_t)snprintf(buf + n, sizeof buf - n, "stop-loss %.4g %%, ", 100 * get(x, "stop_loss")->valuedouble);
	if (get(x, "take_profit") && cJSON_IsNumber(get(x, "take_profit")))
		n += (size_t)snprintf(buf + n, sizeof buf - n, "take-profit %.4g %%, ", 100 * get(x, "take_profit")->valuedouble);
	if (cJSON_IsObject(t))
		n += (size_t)snprintf(buf + n, sizeof buf - n, "trailing stop %.4g %% from the best price%s, ",
				      100 * sa_json_num(t, "distance", NAN), cJSON_IsNumber(get(t, "positive")) ?
				      " (tighter past its offset)" : "");
	cJSON_ArrayForEach(e, get(x, "roi"))
		if (n < sizeof buf - 64)
			n += (size_t)snprintf(buf + n, sizeof buf - n, "ROI %.4g %% from %.4g min, ",
					      100 * cJSON_GetArrayItem(e, 1)->valuedouble,
					      cJSON_GetArrayItem(e, 0)->valuedouble);
	cJSON_ArrayForEach(e, get(x, "unread"))
		if (n < sizeof buf - 80)
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%.40s not read (not a literal), ",
					      sa_json_str(e, "name", "?"));
	if (n >= 2) {
		buf[n - 2] = '\0';
		cJSON_AddStringToObject(o, "exits", buf);
	}
	n = 0;
	buf[0] = '\0';
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		double c = sa_json_num(by, names[k][0], 0);
		if (c > 0 && n < sizeof buf - sizeof part)
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%.0f %s", n ? ", " : "", c,
					      names[k][1]);
	}
	if (n && cJSON_IsObject(x))
		cJSON_AddStringToObject(o, "reasons", buf);
}

/* The first RPT_MAX_ROWS trades as "rows", and as "tail" the last TAIL_ROWS of those after the
 * first TAIL_ROWS (the PDF lists both ends). */
static void add_trades(cJSON *m, const struct rpt_input *in)
{
	const struct rpt_table *tb = &in->trades;
	size_t n = tb->rows ? tb->rows - 1 : 0;
	cJSON *o = cJSON_AddObjectToObject(m, "trades");
	cJSON *list = cJSON_AddArrayToObject(o, "rows"), *tail = cJSON_AddArrayToObject(o, "tail");
	char words[48];

	for (size_t r = 0; r < n && r < RPT_MAX_ROWS; r++)
		cJSON_AddItemToArray(list, trade_row(tb, r));
	for (size_t r = n > 2 * TAIL_ROWS ? n - TAIL_ROWS : n; r < n; r++)
		cJSON_AddItemToArray(tail, trade_row(tb, r));
	cJSON_AddNumberToObject(o, "total", (double)n);
	cJSON_AddStringToObject(o, "total_words", sa_fmt(words, sizeof words, "%zu closed trade%s", n, n == 1 ? "" : "s"));
	cJSON_AddNumberToObject(o, "shown", (double)(n < RPT_MAX_ROWS ? n : RPT_MAX_ROWS));
	cJSON_AddBoolToObject(o, "more", n > RPT_MAX_ROWS);
	add_exit_words(o, rpt_stage_ok(in, RPT_REPLAY));
}

/* Each upload as the user named it, beside the safe NAME it was audited under; "renamed" when
 * a name held a character make and the shell cannot, so the upload was copied in. */
/* Whether the data's bars are a day or longer, each at midnight UTC: a time of day on them says
 * nothing, so the page shows dates. */
static bool daily_bars(const struct rpt_input *in)
{
	const cJSON *fmt = get(rpt_stage_ok(in, RPT_FINGERPRINT), "data_format");

	return sa_json_num(fmt, "spacing_s", 0) >= 86400 &&
	       strstr(sa_json_str(fmt, "first", ""), "T00:00:00Z") && strstr(sa_json_str(fmt, "last", ""), "T00:00:00Z");
}

/* Drops "T00:00:00Z" after every ISO date in the model's strings (tables and sentences alike). */
static void dates_only(cJSON *node)
{
	cJSON *it;

	if (cJSON_IsString(node)) {
		char *s = node->valuestring, *w = s;

		/* in place: what is kept is read back from what was written, the date just before */
		for (const char *r = s; *r;) {
			if (w - s >= 10 && !strncmp(r, "T00:00:00Z", 10) && w[-3] == '-' && w[-6] == '-' &&
			    isdigit((unsigned char)w[-1]) && isdigit((unsigned char)w[-10])) {
				r += 10;
				continue;
			}
			*w++ = *r++;
		}
		*w = '\0';
		return;
	}
	cJSON_ArrayForEach(it, node)
		dates_only(it);
}

cJSON *rpt_model_build(const struct rpt_input *in, const char *name)
{
	cJSON *m = cJSON_CreateObject();
	if (!m)
		return NULL;
	cJSON_AddStringToObject(m, "name", name);
	add_missing(m, in);
	rpt_verdict_model(m, in);
	add_stopped(m, in);
	rpt_containment_model(m, in);
	rpt_lookahead_model(m, in);
	rpt_live_model(m, in);
	rpt_robust_model(m, in);
	rpt_inspection_model(m, in);
	rpt_costs_model(m, in);
	rpt_reconcile_model(m, in);
	rpt_stats_model(m, in);
	rpt_tearsheet_model(m, in);
	rpt_freqtrade_model(m, in);
	add_trades(m, in);
	rpt_data_model(m, in);
	cJSON_AddStringToObject(m, "version", SA_VERSION);
	if (daily_bars(in))
		dates_only(m);
	if (rpt_columns_model(m) < 0) {
		cJSON_Delete(m);
		return NULL;
	}
	return m;
}
