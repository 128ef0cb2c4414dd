/* report_data_model.c - the report's Fingerprint, Data and Inspection sections: what was
 * uploaded, the libraries the run had, the fingerprint, the series' span, columns and warnings,
 * and what the static inspection found in the code. */
#include "report_model.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "jsonio.h"
#include "msg.h"
#include "report_input.h"

#define get rpt_get
#define add_text rpt_add_text

static bool is_num(const cJSON *v)
{
	return cJSON_IsNumber(v) && isfinite(v->valuedouble);
}

static void add_uploads(cJSON *to, const cJSON *up)
{
	static const char *const kinds[] = { "strategy", "tradelog", "data" };
	cJSON *list = cJSON_AddArrayToObject(to, "uploads");
	bool renamed = false;

	add_text(to, "audit_name", up, "name");
	for (size_t k = 0; list && k < sizeof kinds / sizeof kinds[0]; k++) {
		const cJSON *v = get(up, kinds[k]);
		cJSON *row;

		if (!cJSON_IsString(v))
			continue;
		row = cJSON_CreateObject();
		cJSON_AddStringToObject(row, "kind", kinds[k]);
		cJSON_AddStringToObject(row, "file", v->valuestring);
		cJSON_AddItemToArray(list, row);
		/* the characters scripts/inputs takes as they are; any other means a safe copy */
		if (v->valuestring[strspn(v->valuestring, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					  "0123456789._+-")])
			renamed = true;
	}
	cJSON_AddBoolToObject(to, "renamed", renamed);
}

/* "python 3.11.2, numpy 1.24.2, ...": what the strategy ran against. */
static void add_libraries(cJSON *to, const cJSON *libs)
{
	char buf[512] = "";
	size_t used = 0;
	const cJSON *v;

	if (!cJSON_IsObject(libs))
		libs = NULL;
	cJSON_ArrayForEach(v, libs) {
		if (used < sizeof buf)
			used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s %s", used ? ", " : "",
						 v->string, cJSON_IsString(v) ? v->valuestring
									      : "(not installed)");
	}
	cJSON_AddStringToObject(to, "libraries", used ? buf : "n/a");
}

static void add_fingerprint(cJSON *m, const struct rpt_input *in)
{
	const cJSON *fp = in->stage[RPT_FINGERPRINT].json;
	cJSON *o = cJSON_AddObjectToObject(m, "fingerprint");
	static const char *const keys[] = { "strategy_sha256", "tradelog_sha256", "data_sha256",
					    "config_sha256", "tool_version", "data_bars", "data_first",
					    "data_last" };
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
		add_text(o, keys[k], fp, keys[k]);
	add_text(o, "trials", rpt_stage_ok(in, RPT_CONFIG), "trials");
	add_uploads(o, get(fp, "uploads"));
	add_libraries(o, get(fp, "libraries"));
}

/* A span of seconds for people: "1 d", "4 h", "15 min", "90 s". */
static void add_span(cJSON *to, const char *as, const cJSON *obj, const char *key)
{
	const cJSON *v = get(obj, key);
	static const struct { long long unit; const char *name; } units[] = {
		{ 86400, "d" }, { 3600, "h" }, { 60, "min" }, { 1, "s" },
	};
	char buf[64];
	long long x;

	if (!is_num(v) || v->valuedouble < 1 || v->valuedouble > 1e15) {
		cJSON_AddStringToObject(to, as, "n/a");
		return;
	}
	x = (long long)v->valuedouble;
	for (size_t u = 0; u < sizeof units / sizeof units[0]; u++)
		if (x % units[u].unit == 0) {
			cJSON_AddStringToObject(to, as, sa_fmt(buf, sizeof buf, "%lld %s",
							       x / units[u].unit, units[u].name));
			return;
		}
}

/* The header names the loader matched, "time=Date, open=Open, ...", or "by position". */
static void add_data_columns(cJSON *to, const cJSON *fmt)
{
	static const char *const keys[] = { "time", "time_of_day", "open", "high", "low", "close",
					     "volume", "adj_close" };
	const cJSON *cols = get(fmt, "columns");
	char buf[512] = "";
	size_t used = 0;

	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		const cJSON *v = get(cols, keys[k]);

		if (cJSON_IsString(v) && used < sizeof buf)
			used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s=%s",
						 used ? ", " : "", keys[k], v->valuestring);
	}
	cJSON_AddStringToObject(to, "columns", used ? buf : "by position (no header)");
}

/* Which volume column was read when the file has more than one: "from 'Volume BTC', the base
 * asset's; 'Volume USDT' not used". Nothing when it had one. */
static void add_volume_choice(cJSON *to, const cJSON *fmt)
{
	const cJSON *left = get(fmt, "volume_left"), *used = get(get(fmt, "columns"), "volume");
	char buf[256];

	if (!cJSON_IsString(left) || !cJSON_IsString(used))
		return;
	cJSON_AddStringToObject(to, "volume_choice",
				sa_fmt(buf, sizeof buf, "from '%s'%s; '%s' not used", used->valuestring,
				       strncasecmp(used->valuestring, "volume ", 7) ? "" :
				       ", the base asset's", left->valuestring));
}

/* The delimiter in words: "comma (,)", "semicolon (;)", "tab". */
static const char *delimiter_words(const char *d)
{
	return !strcmp(d, ",") ? "comma (,)" : !strcmp(d, ";") ? "semicolon (;)" : !strcmp(d, "tab") ? "tab" :
	       d[0] ? d : "n/a";
}

/* What kind of file the bars came in, in words: a Feather or JSON file has no delimiter, a CSV
 * says its header rows (yfinance's three by name) and its delimiter. */
static const char *file_kind(const cJSON *fmt, char *buf, size_t len)
{
	const char *layout = sa_json_str(fmt, "layout", "");
	const char *delim = delimiter_words(sa_json_str(fmt, "delimiter", ""));
	double rows = sa_json_num(fmt, "header_rows", 1);

	if (!strcmp(layout, "freqtrade feather"))
		return sa_fmt(buf, len, "freqtrade's Feather file (Apache Arrow IPC, columns by name)");
	if (!strcmp(layout, "freqtrade json"))
		return sa_fmt(buf, len, "freqtrade's JSON (one array [time, open, high, low, close, volume] a bar)");
	if (!strcmp(layout, "header") && rows == 3)
		return sa_fmt(buf, len, "CSV with yfinance's three header rows (Price and the fields' names, "
			      "Ticker, the time column's name), delimiter %s", delim);
	if (!strcmp(layout, "header"))
		return sa_fmt(buf, len, "CSV with a header row, delimiter %s", delim);
	return sa_fmt(buf, len, "%s CSV, delimiter %s", layout[0] ? layout : "headerless", delim);
}

/* The file's format in one sentence, as the page and the PDF print it: its kind, whether it was
 * gzip-compressed, how its times were written, and whether date and time were joined. */
static void add_format(cJSON *to, const cJSON *fmt)
{
	char kind[200], buf[400];

	cJSON_AddStringToObject(to, "format", sa_fmt(buf, sizeof buf, "%s%s; times as %s%s",
			file_kind(fmt, kind, sizeof kind), cJSON_IsTrue(get(fmt, "gzip")) ? ", gzip-compressed" : "",
			sa_json_str(fmt, "time_form", "n/a"), cJSON_IsTrue(get(fmt, "joined")) ?
			", the date and the time of day in two columns joined" : ""));
}

/* data_format's warnings as the Data section lists them. */
static void add_data_warnings(cJSON *o, const cJSON *warnings)
{
	cJSON *list = cJSON_AddArrayToObject(o, "warnings");
	const cJSON *w;

	cJSON_ArrayForEach(w, warnings)
		if (cJSON_IsString(w)) {
			cJSON *item = cJSON_CreateObject();

			cJSON_AddStringToObject(item, "text", w->valuestring);
			cJSON_AddItemToArray(list, item);
		}
}

/* The data section: what fingerprint.json's data_format says the loader found. */
static void add_data(cJSON *m, const struct rpt_input *in)
{
	const cJSON *fmt = get(rpt_stage_ok(in, RPT_FINGERPRINT), "data_format");
	cJSON *o;

	if (!cJSON_IsObject(fmt))
		return;
	o = cJSON_AddObjectToObject(m, "data");
	for (size_t k = 0; k < 8; k++) {
		static const char *const keys[] = { "layout", "delimiter", "time_form", "bars",
						    "first", "last", "gaps", "missing_bars" };
		add_text(o, keys[k], fmt, keys[k]);
	}
	add_data_columns(o, fmt);
	add_volume_choice(o, fmt);
	if (cJSON_IsString(get(fmt, "skipped_line")))
		add_text(o, "skipped_line", fmt, "skipped_line");
	cJSON_AddBoolToObject(o, "joined", cJSON_IsTrue(get(fmt, "joined")));
	cJSON_AddBoolToObject(o, "reversed", cJSON_IsTrue(get(fmt, "reversed")));
	add_format(o, fmt);
	add_span(o, "spacing", fmt, "spacing_s");
	add_span(o, "largest_gap", fmt, "largest_gap_s");
	cJSON_AddBoolToObject(o, "gzip", cJSON_IsTrue(get(fmt, "gzip")));
	cJSON_AddBoolToObject(o, "no_volume", cJSON_IsFalse(get(fmt, "volume")));
	cJSON_AddBoolToObject(o, "adjusted", cJSON_IsTrue(get(fmt, "adjusted")));
	cJSON_AddBoolToObject(o, "sessions", !strcmp(sa_json_str(fmt, "calendar", ""), "weekday sessions"));
	cJSON_AddBoolToObject(o, "fx_week", !strcmp(sa_json_str(fmt, "calendar", ""), "fx week"));
	add_text(o, "bar", fmt, "bar");
	cJSON_AddBoolToObject(o, "pandas_index", cJSON_IsTrue(get(fmt, "pandas_index")));
	add_data_warnings(o, get(fmt, "warnings"));
}

void rpt_data_model(cJSON *m, const struct rpt_input *in)
{
	add_fingerprint(m, in);
	add_data(m, in);
}

/* What the sandbox ran, for a strategy written for a framework (inspect.json's strategy s). */
static const char *framework_shape(const cJSON *s, char *buf, size_t len)
{
	const char *kind = sa_json_str(s, "framework", ""), *tf = sa_json_str(s, "timeframe", NULL);
	const char *cls = sa_json_str(s, "framework_class", "?");

	if (!strcmp(kind, "freqtrade") && tf)
		return sa_fmt(buf, len, "a freqtrade IStrategy, %s, run by freqtrade's rules on %s candles "
			      "(built inside the sandbox from the data's bars when those are finer)", cls, tf);
	if (!strcmp(kind, "freqtrade"))
		return sa_fmt(buf, len, "a freqtrade IStrategy, %s, run by freqtrade's rules on the data's bars", cls);
	return sa_fmt(buf, len, "a backtesting.py Strategy, %s, its next() run bar by bar", cls);
}

/* Appends one value of a parameter as the report prints it. */
static void param_value(const cJSON *v, char *buf, size_t len)
{
	size_t n = strlen(buf);

	if (cJSON_IsBool(v))
		snprintf(buf + n, len - n, "%s", cJSON_IsTrue(v) ? "True" : "False");
	else if (cJSON_IsNumber(v))
		snprintf(buf + n, len - n, "%.10g", v->valuedouble);
	else if (cJSON_IsString(v))
		snprintf(buf + n, len - n, "'%s'", v->valuestring);
	else
		snprintf(buf + n, len - n, "(not a literal)");
}

/* The parameter values a freqtrade strategy ran with, each with where it came from, and what its
 * parameter file set (inspect.json's strategy.parameters), as one sentence; NULL when it has
 * none. */
static const char *framework_params(const cJSON *p, char *buf, size_t len)
{
	const cJSON *v, *f;
	const char *file = sa_json_str(p, "file", NULL), *ferr = sa_json_str(p, "file_error", NULL);
	size_t n;
	int k = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(v, get(p, "values")) {
		const char *from = sa_json_str(v, "from", "default");
		n = strlen(buf);
		snprintf(buf + n, len - n, "%s%s = ", k++ ? ", " : "", sa_json_str(v, "name", "?"));
		param_value(get(v, "value"), buf, len);
		n = strlen(buf);
		snprintf(buf + n, len - n, " (%s)", !strcmp(from, "file") ? "parameter file" : from);
	}
	n = strlen(buf);
	if (file && ferr)
		snprintf(buf + n, len - n, "%sthe parameter file %s is not applied: %s", k ? "; " : "", file, ferr);
	else if (file && cJSON_GetArraySize(get(p, "exits_from_file")) > 0) {
		snprintf(buf + n, len - n, "%sthe parameter file %s also sets", k ? "; " : "", file);
		cJSON_ArrayForEach(f, get(p, "exits_from_file")) {
			n = strlen(buf);
			snprintf(buf + n, len - n, " %s%s", cJSON_IsString(f) ? f->valuestring : "?", f->next ? "," : "");
		}
	}
	return buf[0] ? buf : NULL;
}

void rpt_inspection_model(cJSON *m, const struct rpt_input *in)
{
	const cJSON *ins = rpt_stage_ok(in, RPT_INSPECT), *s = get(ins, "strategy"), *it;
	char buf[256];
	cJSON *o = cJSON_AddObjectToObject(m, "inspection");
	cJSON_AddBoolToObject(o, "present", ins != NULL);
	add_text(o, "flag_count", ins, "flag_count");
	if (cJSON_IsTrue(get(s, "shape_ok")) && cJSON_IsString(get(s, "framework"))) {
		char pbuf[4096];
		const char *ps = framework_params(get(s, "parameters"), pbuf, sizeof pbuf);
		cJSON_AddStringToObject(o, "shape_reason", framework_shape(s, buf, sizeof buf));
		if (ps)
			cJSON_AddStringToObject(o, "framework_params", ps);
	}
	else if (cJSON_IsTrue(get(s, "shape_ok")))
		cJSON_AddStringToObject(o, "shape_reason", "a top-level signals(df) with one parameter");
	else
		add_text(o, "shape_reason", s, "shape_reason");
	const cJSON *se = get(s, "syntax_error");
	if (cJSON_IsObject(se)) {
		cJSON *e = cJSON_AddObjectToObject(o, "syntax_error");
		add_text(e, "line", se, "line");
		add_text(e, "col", se, "col");
		add_text(e, "msg", se, "msg");
	}
	cJSON *flags = cJSON_AddArrayToObject(o, "flags");
	int n = 0;
	cJSON_ArrayForEach(it, get(s, "flags")) {
		if (n++ >= RPT_MAX_ROWS)
			break;
		cJSON *r = cJSON_CreateObject();
		static const char *const keys[] = { "code", "severity", "line", "col", "message", "source" };
		for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
			add_text(r, keys[k], it, keys[k]);
		cJSON_AddItemToArray(flags, r);
	}
	const cJSON *tl = get(ins, "tradelog");
	if (cJSON_IsTrue(get(tl, "present"))) {
		cJSON *t = cJSON_AddObjectToObject(o, "tradelog");
		add_text(t, "format", tl, "format");
		add_text(t, "rows", tl, "rows");
	}
	cJSON *errs = cJSON_AddArrayToObject(o, "tradelog_errors");
	n = 0;
	cJSON_ArrayForEach(it, get(get(ins, "tradelog"), "errors")) {
		if (n++ >= RPT_MAX_ROWS)
			break;
		cJSON *r = cJSON_CreateObject();
		add_text(r, "line", it, "line");
		add_text(r, "message", it, "message");
		cJSON_AddItemToArray(errs, r);
	}
}
