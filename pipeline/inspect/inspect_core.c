/* inspect_core.c - inspect.json from the uploads: checks before the parse (size, NUL bytes,
 * UTF-8), the parse and walk in a child, then the flags made readable against the source. */
#include "inspect_core.h"
#include "inspect_ast.h"
#include "inspect_hyperopt.h"
#include "inspect_neighbours.h"
#include "inspect_params.h"
#include "inspect_rules.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "exits.h"
#include "fileio.h"
#include "jsonio.h"
#include "stagefile.h"
#include "text.h"
#include "tradelog.h"
#include "tradelog_formats.h"

/* Where each line of a buffer starts; start[n] is one past the end. */
struct lines {
	size_t n;
	size_t *start;
};

/* Sets obj[key] to item (taking it), keeping the key's place when it is already there. */
static void put(cJSON *obj, const char *key, cJSON *item)
{
	if (!cJSON_ReplaceItemInObjectCaseSensitive(obj, key, item))
		cJSON_AddItemToObject(obj, key, item);
}

static cJSON *take_variants(const cJSON *found);
static cJSON *take_exits(const cJSON *found);

static void put_num(cJSON *obj, const char *key, double x)
{
	put(obj, key, cJSON_CreateNumber(x));
}

static void put_str(cJSON *obj, const char *key, const char *s)
{
	put(obj, key, s ? cJSON_CreateString(s) : cJSON_CreateNull());
}

static void put_bool(cJSON *obj, const char *key, bool b)
{
	put(obj, key, cJSON_CreateBool(b));
}

cJSON *inspect_strategy_absent(void)
{
	cJSON *s = cJSON_CreateObject();

	cJSON_AddBoolToObject(s, "present", false);
	cJSON_AddNullToObject(s, "size");
	cJSON_AddNullToObject(s, "lines");
	cJSON_AddNullToObject(s, "utf8");
	cJSON_AddBoolToObject(s, "parsed", false);
	cJSON_AddNullToObject(s, "syntax_error");
	cJSON_AddBoolToObject(s, "has_signals", false);
	cJSON_AddBoolToObject(s, "shape_ok", false);
	cJSON_AddNullToObject(s, "shape_reason");
	cJSON_AddArrayToObject(s, "flags");
	cJSON_AddBoolToObject(s, "flags_truncated", false);
	cJSON_AddItemToObject(s, "variants", take_variants(NULL));
	cJSON_AddItemToObject(s, "exits", take_exits(NULL));
	cJSON_AddItemToObject(s, "hyperopt_space", inspect_hyperopt_take(NULL));
	cJSON_AddNullToObject(s, "normalised");
	cJSON_AddNullToObject(s, "framework");
	cJSON_AddNullToObject(s, "framework_class");
	cJSON_AddNullToObject(s, "timeframe");
	cJSON_AddNullToObject(s, "startup_candle_count");
	cJSON_AddNullToObject(s, "can_short");
	cJSON_AddNullToObject(s, "callbacks");
	cJSON_AddNullToObject(s, "parameters");
	cJSON_AddItemToObject(s, "neighbourhood", inspect_neighbours_take(NULL));
	inspect_neighbours_sets(s);
	cJSON_AddNullToObject(s, "error");
	return s;
}

cJSON *inspect_tradelog_absent(void)
{
	cJSON *t = cJSON_CreateObject();

	cJSON_AddBoolToObject(t, "present", false);
	cJSON_AddNullToObject(t, "size");
	cJSON_AddNullToObject(t, "utf8");
	cJSON_AddNullToObject(t, "rows");
	cJSON_AddArrayToObject(t, "columns");
	cJSON_AddArrayToObject(t, "errors");
	return t;
}

static int index_lines(const char *buf, size_t len, struct lines *L)
{
	size_t n = 1;

	for (size_t i = 0; i < len; i++)
		if (buf[i] == '\n' && i + 1 < len)
			n++;
	L->start = malloc((n + 1) * sizeof(*L->start));
	if (L->start == NULL)
		return -1;
	L->n = 0;
	L->start[L->n++] = 0;
	for (size_t i = 0; i < len; i++)
		if (buf[i] == '\n' && i + 1 < len)
			L->start[L->n++] = i + 1;
	L->start[L->n] = len;
	return 0;
}

/* Line count as an editor shows it: a final newline does not start another line. */
static size_t count_lines(const char *buf, size_t len)
{
	size_t n = len > 0;

	for (size_t i = 0; i + 1 < len; i++)
		n += buf[i] == '\n';
	return n;
}

/* Copies at most cap - 1 bytes of s[0..n) into dst, cut back to a character boundary. The
 * input is valid UTF-8, so only the cut can break a character. */
static void copy_cut(char *dst, size_t cap, const char *s, size_t n)
{
	if (n >= cap) {
		n = cap - 1;
		while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
	}
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* Line number (1-based) without its line break, cut to INSPECT_SOURCE_MAX; "" if out of range. */
static void source_line(const char *buf, const struct lines *L, long line, char *dst, size_t cap)
{
	size_t a, b;

	dst[0] = '\0';
	if (line < 1 || (size_t)line > L->n)
		return;
	a = L->start[line - 1];
	b = L->start[line];
	while (b > a && (buf[b - 1] == '\n' || buf[b - 1] == '\r'))
		b--;
	copy_cut(dst, cap, buf + a, b - a);
}

/* The parser's 0-based byte offset on a line as a 1-based character column. */
static long char_column(const char *buf, const struct lines *L, long line, long byte)
{
	long col = 1;
	size_t a, b;

	if (line < 1 || (size_t)line > L->n || byte < 0)
		return col;
	a = L->start[line - 1];
	b = L->start[line];
	for (size_t i = a; i < b && i < a + (size_t)byte; i++)
		col += ((unsigned char)buf[i] & 0xC0) != 0x80;
	return col;
}

/* A string from the child, made safe to quote: capped, and valid UTF-8 or replaced. */
static void child_text(const cJSON *item, char *dst, size_t cap)
{
	const char *s = cJSON_IsString(item) ? item->valuestring : "";

	copy_cut(dst, cap, s, strlen(s));
	if (!sa_utf8_valid(dst, strlen(dst), NULL))
		snprintf(dst, cap, "(not printable)");
}

/* One readable flag from the child's {code, line, col, detail}, or NULL when it is not one. */
static cJSON *finish_flag(const cJSON *raw, const char *buf, const struct lines *L)
{
	const cJSON *code = cJSON_GetObjectItemCaseSensitive(raw, "code");
	const cJSON *line = cJSON_GetObjectItemCaseSensitive(raw, "line");
	const cJSON *col = cJSON_GetObjectItemCaseSensitive(raw, "col");
	const struct inspect_rule *r;
	char detail[128], msg[512], src[INSPECT_SOURCE_MAX + 1];
	cJSON *f = NULL;
	long ln;

	if (!cJSON_IsString(code) || !(r = inspect_rule_find(code->valuestring)) ||
	    !cJSON_IsNumber(line) || !cJSON_IsNumber(col) || line->valuedouble < 1 ||
	    line->valuedouble > (double)L->n || col->valuedouble < 0 || col->valuedouble > (double)INT32_MAX)
		goto out;
	ln = (long)line->valuedouble;
	child_text(cJSON_GetObjectItemCaseSensitive(raw, "detail"), detail, sizeof(detail));
	source_line(buf, L, ln, src, sizeof(src));
	f = cJSON_CreateObject();
	cJSON_AddStringToObject(f, "code", r->code);
	cJSON_AddStringToObject(f, "severity", r->severity);
	cJSON_AddNumberToObject(f, "line", (double)ln);
	cJSON_AddNumberToObject(f, "col", (double)char_column(buf, L, ln, (long)col->valuedouble));
	cJSON_AddStringToObject(f, "message", inspect_rule_message(r, detail, msg, sizeof(msg)));
	cJSON_AddStringToObject(f, "source", src);
out:
	return f;
}

static int flag_cmp(const void *pa, const void *pb)
{
	const cJSON *a = *(const cJSON *const *)pa, *b = *(const cJSON *const *)pb;
	double la = sa_json_num(a, "line", 0), lb = sa_json_num(b, "line", 0);
	double ca = sa_json_num(a, "col", 0), cb = sa_json_num(b, "col", 0);

	if (la != lb)
		return la < lb ? -1 : 1;
	if (ca != cb)
		return ca < cb ? -1 : 1;
	return strcmp(sa_json_str(a, "code", ""), sa_json_str(b, "code", ""));
}

static bool same_flag(const cJSON *a, const cJSON *b)
{
	return flag_cmp(&a, &b) == 0 && strcmp(sa_json_str(a, "message", ""), sa_json_str(b, "message", "")) == 0;
}

/* The child's flags, checked, made readable, sorted by place and de-duplicated. */
static cJSON *finish_flags(const cJSON *raw, const char *buf, const struct lines *L)
{
	int n = cJSON_GetArraySize(raw), k = 0;
	cJSON **v = calloc((size_t)n + 1, sizeof(*v));
	cJSON *out = cJSON_CreateArray();
	const cJSON *item;

	if (v == NULL)
		goto out;
	cJSON_ArrayForEach(item, raw) {
		cJSON *f = finish_flag(item, buf, L);
		if (f != NULL)
			v[k++] = f;
	}
	qsort(v, (size_t)k, sizeof(*v), flag_cmp);
	for (int i = 0; i < k; i++) {
		if (i > 0 && same_flag(v[i - 1], v[i]))
			cJSON_Delete(v[i]);
		else
			cJSON_AddItemToArray(out, v[i]);
	}
out:
	free(v);
	return out;
}

/* True when every entry of params is an object (the child checked more; this is the host's
 * own check of what came back). */
static bool variants_shape_ok(const cJSON *params)
{
	const cJSON *d;

	if (!cJSON_IsArray(params) || cJSON_GetArraySize(params) > INSPECT_MAX_VARIANTS)
		return false;
	cJSON_ArrayForEach(d, params)
		if (!cJSON_IsObject(d))
			return false;
	return true;
}

/* The sorted union of the parameter names. */
static cJSON *variant_keys(const cJSON *params)
{
	cJSON *keys = cJSON_CreateArray();
	const cJSON *d, *m;
	const char *names[64];
	size_t n = 0;

	cJSON_ArrayForEach(d, params)
		cJSON_ArrayForEach(m, d) {
			size_t i = 0;

			while (i < n && strcmp(names[i], m->string) < 0)
				i++;
			if ((i < n && strcmp(names[i], m->string) == 0) || n == 64)
				continue;
			memmove(&names[i + 1], &names[i], (n - i) * sizeof names[0]);
			names[i] = m->string;
			n++;
		}
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(keys, cJSON_CreateString(names[i]));
	return keys;
}

/* strategy.variants from the child's finding: {declared, line, count, keys, params, error}. */
static cJSON *take_variants(const cJSON *found)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(found, "variants");
	const cJSON *params = cJSON_GetObjectItemCaseSensitive(v, "params");
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(v, "error");
	cJSON *o = cJSON_CreateObject();
	char text[256];
	bool ok;

	cJSON_AddBoolToObject(o, "declared", cJSON_IsObject(v));
	if (!cJSON_IsObject(v)) {
		cJSON_AddNullToObject(o, "line");
		cJSON_AddNumberToObject(o, "count", 0);
		cJSON_AddArrayToObject(o, "keys");
		cJSON_AddArrayToObject(o, "params");
		cJSON_AddNullToObject(o, "error");
		return o;
	}
	ok = !cJSON_IsString(err) && variants_shape_ok(params) && cJSON_GetArraySize(params) > 0;
	cJSON_AddNumberToObject(o, "line", sa_json_num(v, "line", 0));
	cJSON_AddNumberToObject(o, "count", ok ? cJSON_GetArraySize(params) : 0);
	cJSON_AddItemToObject(o, "keys", ok ? variant_keys(params) : cJSON_CreateArray());
	cJSON_AddItemToObject(o, "params", ok ? cJSON_Duplicate(params, true) : cJSON_CreateArray());
	child_text(err, text, sizeof(text));
	if (ok)
		cJSON_AddNullToObject(o, "error");
	else
		cJSON_AddStringToObject(o, "error", text[0] ? text : "is not a list of dicts");
	return o;
}

/* A fraction of the exits, or null when not declared (0). */
static void put_fraction(cJSON *o, const char *key, double x)
{
	put(o, key, x > 0 ? cJSON_CreateNumber(x) : cJSON_CreateNull());
}

/* The exits read back from the host's own check (rp_exits_from_json): numbers in range only. */
static void put_exit_levels(cJSON *o, const struct rp_exits *x)
{
	cJSON *roi = cJSON_CreateArray();

	put_fraction(o, "stop_loss", x->stop_loss);
	put_fraction(o, "take_profit", x->take_profit);
	if (x->trail > 0) {
		cJSON *t = cJSON_CreateObject();
		put_fraction(t, "distance", x->trail);
		put_fraction(t, "positive", x->trail_positive);
		cJSON_AddNumberToObject(t, "offset", x->trail_offset);
		put_bool(t, "only_offset", x->trail_only_offset);
		if (x->trail_best_first)
			put_bool(t, "best_first", true);  /* freqtrade's order (rp_exits) */
		put(o, "trailing", t);
	} else {
		put(o, "trailing", cJSON_CreateNull());
	}
	for (size_t k = 0; k < x->n_roi; k++) {
		const double step[2] = { x->roi[k].minutes, x->roi[k].ret };
		cJSON_AddItemToArray(roi, cJSON_CreateDoubleArray(step, 2));
	}
	put(o, "roi", roi);
	if (x->exit_profit_only) {  /* freqtrade's rules about the open trade, when set */
		put_bool(o, "exit_profit_only", true);
		cJSON_AddNumberToObject(o, "exit_profit_offset", x->exit_profit_offset);
	}
	if (x->ignore_roi_if_entry_signal)
		put_bool(o, "ignore_roi_if_entry_signal", true);
}

/* strategy.exits from the child's finding: {declared, source, class, line, stop_loss,
 * take_profit, trailing, roi, error, unread [{name, line, why}]}. */
static cJSON *take_exits(const cJSON *found)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(found, "exits"), *u;
	struct rp_exits ex;
	char err[320], text[320];
	cJSON *o = cJSON_CreateObject(), *unread = cJSON_CreateArray();
	bool declared = sa_json_bool(x, "declared", false);
	int bad = rp_exits_from_json(x, &ex, err, sizeof err);

	put_bool(o, "declared", declared);
	put_str(o, "source", !declared ? NULL :
		strcmp(sa_json_str(x, "source", ""), "freqtrade") ? "constants" : "freqtrade");
	child_text(cJSON_GetObjectItemCaseSensitive(x, "class"), text, sizeof text);
	put_str(o, "class", declared && text[0] ? text : NULL);
	put(o, "line", declared ? cJSON_CreateNumber(sa_json_num(x, "line", 0)) : cJSON_CreateNull());
	put_exit_levels(o, &ex);
	child_text(&(cJSON){ .type = cJSON_String, .valuestring = err }, text, sizeof text);
	put_str(o, "error", bad < 0 ? text : NULL);
	cJSON_ArrayForEach(u, cJSON_GetObjectItemCaseSensitive(x, "unread")) {
		cJSON *row = cJSON_CreateObject();
		child_text(cJSON_GetObjectItemCaseSensitive(u, "name"), text, sizeof text);
		put_str(row, "name", text);
		cJSON_AddNumberToObject(row, "line", sa_json_num(u, "line", 0));
		child_text(cJSON_GetObjectItemCaseSensitive(u, "why"), text, sizeof text);
		put_str(row, "why", text);
		cJSON_AddItemToArray(unread, row);
	}
	put(o, "unread", unread);
	return o;
}

/* strategy.callbacks from the child's finding: each of custom_stoploss, custom_exit and
 * confirm_trade_entry it names (a def of it in the class body), nothing else. */
static cJSON *take_callbacks(const cJSON *found)
{
	cJSON *a = cJSON_CreateArray();
	const cJSON *v;

	if (!cJSON_IsArray(found))
		return a;
	cJSON_ArrayForEach(v, found)
		if (cJSON_IsString(v) && (!strcmp(v->valuestring, "custom_stoploss") ||
					  !strcmp(v->valuestring, "custom_exit") ||
					  !strcmp(v->valuestring, "confirm_trade_entry")))
			cJSON_AddItemToArray(a, cJSON_CreateString(v->valuestring));
	return a;
}

/* strategy.framework and what the class declares as literals, from the child's finding: the
 * framework "freqtrade" or "backtesting" (null for a signals(df) file), its class, timeframe,
 * startup_candle_count and can_short (null where not declared as a literal). */
static void take_framework(cJSON *s, const cJSON *found)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(found, "framework");
	const char *kind = sa_json_str(f, "kind", "");
	const cJSON *tf = cJSON_GetObjectItemCaseSensitive(f, "timeframe");
	const cJSON *sc = cJSON_GetObjectItemCaseSensitive(f, "startup_candle_count");
	const cJSON *cs = cJSON_GetObjectItemCaseSensitive(f, "can_short");
	char text[128];
	bool ok = !strcmp(kind, "freqtrade") || !strcmp(kind, "backtesting");

	put_str(s, "framework", ok ? kind : NULL);
	child_text(cJSON_GetObjectItemCaseSensitive(f, "class"), text, sizeof text);
	put_str(s, "framework_class", ok && text[0] ? text : NULL);
	child_text(tf, text, sizeof text);
	put_str(s, "timeframe", ok && cJSON_IsString(tf) ? text : NULL);
	put(s, "startup_candle_count", ok && cJSON_IsNumber(sc) && sc->valuedouble >= 0 &&
	    sc->valuedouble < 1e6 ? cJSON_CreateNumber(sc->valuedouble) : cJSON_CreateNull());
	put(s, "can_short", ok && cJSON_IsBool(cs) ? cJSON_CreateBool(cJSON_IsTrue(cs)) : cJSON_CreateNull());
	put(s, "callbacks", ok ? take_callbacks(cJSON_GetObjectItemCaseSensitive(f, "callbacks")) : cJSON_CreateNull());
}

/* True for 64 lowercase hex digits. */
static bool is_sha256(const char *h)
{
	return h && strlen(h) == 64 && strspn(h, "0123456789abcdef") == 64;
}

/* strategy.normalised from the child's finding: {version_sha256, structure_sha256}, or null. */
static cJSON *take_normalised(const cJSON *found)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(found, "normalised");
	const char *v = sa_json_str(n, "version_sha256", NULL), *st = sa_json_str(n, "structure_sha256", NULL);
	cJSON *o;

	if (!is_sha256(v) || !is_sha256(st))
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "version_sha256", v);
	cJSON_AddStringToObject(o, "structure_sha256", st);
	return o;
}

/* Copies the child's findings into s; returns the reason the file cannot be audited, or NULL. */
static const char *take_findings(cJSON *s, const cJSON *found, const char *buf, size_t len,
				 char *why, size_t whylen)
{
	const cJSON *se = cJSON_GetObjectItemCaseSensitive(found, "syntax_error");
	const cJSON *limit = cJSON_GetObjectItemCaseSensitive(found, "limit");
	const cJSON *perr = cJSON_GetObjectItemCaseSensitive(found, "parse_error");
	struct lines L = {0};
	char text[256], src[INSPECT_SOURCE_MAX + 1];
	const char *reason = NULL;

	if (index_lines(buf, len, &L) < 0) {
		reason = "out of memory";
		goto out;
	}
	put_bool(s, "parsed", sa_json_bool(found, "parsed", false));
	put_bool(s, "has_signals", sa_json_bool(found, "has_signals", false));
	put_bool(s, "shape_ok", sa_json_bool(found, "shape_ok", false));
	child_text(cJSON_GetObjectItemCaseSensitive(found, "shape_reason"), text, sizeof(text));
	put_str(s, "shape_reason", text[0] ? text : NULL);
	put(s, "flags", finish_flags(cJSON_GetObjectItemCaseSensitive(found, "flags"), buf, &L));
	put_bool(s, "flags_truncated", sa_json_bool(found, "truncated", false));
	put(s, "variants", take_variants(found));
	put(s, "exits", take_exits(found));
	put(s, "hyperopt_space", inspect_hyperopt_take(found));
	put(s, "normalised", take_normalised(found));
	take_framework(s, found);
	put(s, "parameters", strcmp(sa_json_str(s, "framework", ""), "freqtrade") ? cJSON_CreateNull() :
	    inspect_params_take(found));
	put(s, "neighbourhood", inspect_neighbours_take(found));
	inspect_neighbours_sets(s);
	if (cJSON_IsObject(se)) {
		long line = (long)sa_json_num(se, "line", 0), col = (long)sa_json_num(se, "col", 0);
		cJSON *o = cJSON_CreateObject();
		child_text(cJSON_GetObjectItemCaseSensitive(se, "msg"), text, sizeof(text));
		source_line(buf, &L, line, src, sizeof(src));
		cJSON_AddNumberToObject(o, "line", (double)line);
		cJSON_AddNumberToObject(o, "col", (double)col);
		cJSON_AddStringToObject(o, "msg", text);
		cJSON_AddStringToObject(o, "source", src);
		put(s, "syntax_error", o);
		snprintf(why, whylen, "strategy: syntax error at line %ld, column %ld: %s", line, col, text);
		reason = why;
	} else if (cJSON_IsString(limit) || cJSON_IsString(perr)) {
		child_text(cJSON_IsString(limit) ? limit : perr, text, sizeof(text));
		put_str(s, "error", text);
		snprintf(why, whylen, "strategy: %s", text);
		reason = why;
	} else if (!sa_json_bool(found, "shape_ok", false)) {
		snprintf(why, whylen, "strategy: %s", sa_json_str(s, "shape_reason", "signals(df) not found"));
		reason = why;
	}
out:
	free(L.start);
	return reason;
}

/* The checks that need no parser. Returns the reason the file cannot be parsed, or NULL. */
static const char *precheck(cJSON *s, const char *buf, size_t len, char *why, size_t whylen)
{
	const char *nul = memchr(buf, '\0', len);
	int bad = 0;
	bool utf8 = sa_utf8_valid(buf, len, &bad);

	put_bool(s, "utf8", utf8);
	if (len == 0)
		return "the file is empty; it must define signals(df)";
	if (nul != NULL) {
		snprintf(why, whylen, "a binary file, not Python source (a NUL byte on line %zu)",
			 count_lines(buf, (size_t)(nul - buf) + 1));
		return why;
	}
	if (!utf8) {
		snprintf(why, whylen, "not valid UTF-8 (the first bad byte is on line %d); save it as UTF-8", bad);
		return why;
	}
	return NULL;
}

cJSON *inspect_strategy_buf(const char *buf, size_t len, const struct inspect_limits *lim,
			    char *reason, size_t reasonlen, bool *broken)
{
	cJSON *s = inspect_strategy_absent(), *found = NULL;
	char why[512], err[512];
	const char *problem;
	enum inspect_parse_status st;

	reason[0] = '\0';
	*broken = false;
	put_bool(s, "present", true);
	put_num(s, "size", (double)len);
	put_num(s, "lines", (double)count_lines(buf, len));
	problem = precheck(s, buf, len, why, sizeof(why));
	if (problem != NULL) {
		put_str(s, "error", problem);
		snprintf(reason, reasonlen, "strategy: %s", problem);
		goto out;
	}
	st = inspect_parse(buf, lim, &found, err, sizeof(err));
	if (st == INSPECT_PARSE_OK) {
		problem = take_findings(s, found, buf, len, why, sizeof(why));
		if (problem != NULL)
			snprintf(reason, reasonlen, "%s", problem);
	} else {
		/* A broken tool still leaves a JSON that says why. */
		*broken = st == INSPECT_PARSE_BROKEN;
		put_str(s, "error", err);
		snprintf(reason, reasonlen, "strategy: %s", err);
	}
out:
	cJSON_Delete(found);
	return s;
}

/* A reason for an upload that could not be read; size from stat when the file is too big. */
static void read_problem(enum sa_read_status st, const char *path, size_t cap, cJSON *obj, char *why,
			 size_t whylen)
{
	struct stat sb;

	if (st == SA_READ_TOOBIG && stat(path, &sb) == 0) {
		put_bool(obj, "present", true);
		put_num(obj, "size", (double)sb.st_size);
		snprintf(why, whylen, "the file is %lld bytes; uploads of its kind are capped at %zu bytes (%zu MB)",
			 (long long)sb.st_size, cap, cap >> 20);
	} else {
		sa_read_strerror(st, path, cap, why, whylen);
	}
	put_str(obj, "error", why);
}

cJSON *inspect_strategy_file(const char *path, const struct inspect_limits *lim,
			     char *reason, size_t reasonlen, bool *broken)
{
	char *buf = NULL, why[512];
	size_t len = 0;
	enum sa_read_status st = sa_read_file(path, SA_STRATEGY_CAP, &buf, &len);
	cJSON *s;

	*broken = false;
	if (st == SA_READ_OK) {
		s = inspect_strategy_buf(buf, len, lim, reason, reasonlen, broken);
		inspect_params_file(s, path);
		inspect_neighbours_sets(s);
		goto out;
	}
	s = inspect_strategy_absent();
	read_problem(st, path, SA_STRATEGY_CAP, s, why, sizeof(why));
	snprintf(reason, reasonlen, "strategy: %s", why);
	*broken = st == SA_READ_NOMEM;
out:
	free(buf);
	return s;
}

/* The header as the loader found it, one array item per column. */
static cJSON *column_list(const char *columns)
{
	cJSON *a = cJSON_CreateArray();
	char name[sizeof(((struct da_tradelog *)0)->columns)];

	while (*columns != '\0') {
		size_t n = strcspn(columns, ",");
		copy_cut(name, sizeof(name), columns, n);
		cJSON_AddItemToArray(a, cJSON_CreateString(name));
		columns += n + (columns[n] == ',');
	}
	return a;
}

static void add_error(cJSON *t, long line, const char *message)
{
	cJSON *e = cJSON_CreateObject();

	if (line > 0)
		cJSON_AddNumberToObject(e, "line", (double)line);
	else
		cJSON_AddNullToObject(e, "line");
	cJSON_AddStringToObject(e, "message", message);
	cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(t, "errors"), e);
}

/* The loader says "line N: what"; split it so the report can point at the line. */
static void add_loader_error(cJSON *t, const char *err)
{
	long line = 0;
	int used = 0;

	if (sscanf(err, "line %ld: %n", &line, &used) == 1 && used > 0)
		add_error(t, line, err + used);
	else
		add_error(t, 0, err);
}

/* The loader checks each row; the order of rows is checked here: a log whose entries go back in
 * time was edited or merged, and replaying it in file order would be wrong. Data row i is on
 * line i + 2, counted as the loader counts (one record a line). */
static long first_backwards(const struct da_tradelog *log)
{
	for (size_t i = 1; i < log->n; i++)
		if (log->trades[i].entry < log->trades[i - 1].entry)
			return (long)i + 2;
	return 0;
}

cJSON *inspect_tradelog_buf(const char *buf, size_t len, char *reason, size_t reasonlen)
{
	return inspect_tradelog_buf_map(buf, len, NULL, reason, reasonlen);
}

cJSON *inspect_tradelog_buf_map(const char *buf, size_t len, const char *colmap, char *reason,
				size_t reasonlen)
{
	cJSON *t = inspect_tradelog_absent();
	struct da_tradelog log = {0};
	char err[512];
	int bad = 0;
	long back;

	reason[0] = '\0';
	put_bool(t, "present", true);
	put_num(t, "size", (double)len);
	put_bool(t, "utf8", sa_utf8_valid(buf, len, &bad));
	if (memchr(buf, '\0', len) != NULL) {
		add_error(t, 0, "a binary file, not a CSV trade log (it holds a NUL byte)");
		goto fail;
	}
	if (!sa_json_bool(t, "utf8", false)) {
		snprintf(err, sizeof(err), "not valid UTF-8; save it as UTF-8");
		add_error(t, bad, err);
		goto fail;
	}
	if (da_tradelog_parse_any(buf, len, colmap, &log, err, sizeof(err)) != 0) {
		put(t, "format", cJSON_CreateString(log.format));
		put(t, "columns", column_list(log.columns));
		add_loader_error(t, err);
		goto fail;
	}
	put(t, "format", cJSON_CreateString(log.format));
	put(t, "columns", column_list(log.columns));
	put_num(t, "rows", (double)log.n);
	if ((back = first_backwards(&log)) > 0 && strcmp(log.format, "native")) {
		snprintf(err, sizeof(err), "trade %ld enters before the trade before it; sort the log by entry time", back - 1);
		add_error(t, 0, err);
		goto fail;
	}
	if (back > 0) {
		add_error(t, back, "entry_time goes backwards (earlier than the trade on the line before); sort the log by entry time");
		goto fail;
	}
	goto out;
fail:
	{
		const cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(t, "errors"), 0);
		double line = sa_json_num(e, "line", 0);
		if (line > 0)
			snprintf(reason, reasonlen, "trade log: line %.0f: %s", line, sa_json_str(e, "message", ""));
		else
			snprintf(reason, reasonlen, "trade log: %s", sa_json_str(e, "message", ""));
	}
out:
	da_tradelog_release(&log);
	return t;
}

cJSON *inspect_tradelog_file(const char *path, const char *colmap, char *reason, size_t reasonlen)
{
	char *buf = NULL, why[512];
	size_t len = 0;
	enum sa_read_status st = sa_read_file(path, SA_TRADELOG_CAP, &buf, &len);
	cJSON *t;

	if (st == SA_READ_OK) {
		t = inspect_tradelog_buf_map(buf, len, colmap, reason, reasonlen);
		goto out;
	}
	t = inspect_tradelog_absent();
	read_problem(st, path, SA_TRADELOG_CAP, t, why, sizeof(why));
	cJSON_DeleteItemFromObjectCaseSensitive(t, "error");
	add_error(t, 0, why);
	snprintf(reason, reasonlen, "trade log: %s", why);
out:
	free(buf);
	return t;
}

cJSON *inspect_report(cJSON *strategy, const char *sreason, cJSON *tradelog, const char *treason)
{
	cJSON *doc = sa_sf_new(SA_SF_INSPECT), *counts;
	const cJSON *flags = cJSON_GetObjectItemCaseSensitive(strategy, "flags"), *f;
	int n[3] = {0, 0, 0};
	char reason[1100];

	cJSON_AddBoolToObject(doc, "ok", true);
	if (sreason[0] != '\0' || treason[0] != '\0') {
		snprintf(reason, sizeof(reason), "%s%s%s", sreason, sreason[0] && treason[0] ? "; " : "", treason);
		sa_json_fail(doc, reason);
	}
	cJSON_ArrayForEach(f, flags) {
		const char *sev = sa_json_str(f, "severity", "");
		n[strcmp(sev, "error") == 0 ? 0 : strcmp(sev, "warning") == 0 ? 1 : 2]++;
	}
	cJSON_AddNumberToObject(doc, "flag_count", n[0] + n[1] + n[2]);
	counts = cJSON_AddObjectToObject(doc, "flag_counts");
	cJSON_AddNumberToObject(counts, "error", n[0]);
	cJSON_AddNumberToObject(counts, "warning", n[1]);
	cJSON_AddNumberToObject(counts, "hint", n[2]);
	cJSON_AddItemToObject(doc, "strategy", strategy);
	cJSON_AddItemToObject(doc, "tradelog", tradelog);
	return doc;
}
