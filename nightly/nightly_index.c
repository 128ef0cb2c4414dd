/* nightly_index.c - gathering one night's rows and writing them as JSON and plain text. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "jsonio.h"
#include "ledger.h"
#include "msg.h"
#include "nightly_index.h"
#include "stagefile.h"

static const char *const verdict_order[] = {
	"FAILED", "REJECTED_UNSAFE", "INCOMPLETE", "REJECTED_LOOKAHEAD", "NOT_READY", "WATCH",
	"READY_FOR_MICRO_LIVE",
};
#define N_VERDICTS (sizeof verdict_order / sizeof verdict_order[0])

int nightly_verdict_rank(const char *verdict)
{
	for (size_t i = 0; i < N_VERDICTS; i++)
		if (strcmp(verdict, verdict_order[i]) == 0)
			return (int)i;
	return 0;
}

const char *nightly_news_name(enum nightly_news n)
{
	return n == NIGHTLY_NEW ? "new" : n == NIGHTLY_CHANGED ? "changed" : "unchanged";
}

/* Changed rows are news, new rows nearly so; unchanged rows come last within a verdict. */
static int news_rank(enum nightly_news n)
{
	return n == NIGHTLY_CHANGED ? 0 : n == NIGHTLY_NEW ? 1 : 2;
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct nightly_row *a = pa, *b = pb;
	int d = nightly_verdict_rank(a->verdict) - nightly_verdict_rank(b->verdict);

	if (d == 0)
		d = news_rank(a->news) - news_rank(b->news);
	if (d == 0)
		d = strcmp(a->name, b->name);
	return d;
}

void nightly_index_sort(struct nightly_index *ix)
{
	if (ix->n > 1)
		qsort(ix->rows, ix->n, sizeof ix->rows[0], row_cmp);
}

struct nightly_row *nightly_index_add(struct nightly_index *ix)
{
	struct nightly_row *rows = realloc(ix->rows, (ix->n + 1) * sizeof *rows), *r;

	if (!rows)
		return NULL;
	ix->rows = rows;
	r = &rows[ix->n++];
	memset(r, 0, sizeof *r);
	snprintf(r->verdict, sizeof r->verdict, "FAILED");
	r->trades = r->sharpe = r->psr = r->dsr = NAN;
	r->sharpe_per_trade = r->net_return = r->max_drawdown = NAN;
	r->blocked = r->mismatches = -1;
	r->trials = 1;
	r->pbo = NAN;
	return r;
}

void nightly_index_release(struct nightly_index *ix)
{
	free(ix->rows);
	ix->rows = NULL;
	ix->n = 0;
}

/* Appends text to buf (len bytes), cut to fit. */
static void append(char *buf, size_t len, const char *text)
{
	size_t used = strlen(buf);

	if (used + 1 < len)
		snprintf(buf + used, len - used, "%.*s", (int)(len - used - 1), text);
}

/* A stage file that broke the table (a field missing or of another type) named in the row's
 * note, file and field: what the row could not read, never a default in its place. */
static void note_break(struct nightly_row *r, const struct sa_sf *f)
{
	if (!f->broken[0] || strstr(r->note, f->broken))
		return;
	append(r->note, sizeof r->note, r->note[0] ? "; " : "");
	append(r->note, sizeof r->note, f->broken);
}

/* A count of verdict.json, or -1 when it is not there or not a count. */
static long count_field(struct sa_sf *v, enum sa_field_id k)
{
	double x = -1;

	sa_sf_num(v, NULL, k, &x);
	return isfinite(x) && x >= 0 ? (long)x : -1;
}

/* Takes only the verdicts this tool writes, so a doctored file cannot inject text. */
static void copy_verdict(char *dst, size_t len, const char *v)
{
	dst[0] = '\0';
	if (v && nightly_verdict_rank(v) > 0)
		snprintf(dst, len, "%s", v);
}

/* stats.json's forward figures in a sentence, and whether they fell below their band. */
static void load_forward(struct nightly_row *r, struct sa_sf *s)
{
	const cJSON *band;
	const char *since = "?";
	double net = NAN, lo = NAN, hi = NAN, bars = 0, trades = 0;

	if (!sa_sf_obj_or_null(s, NULL, SA_FD_ST_FORWARD))
		return;
	sa_sf_str(s, NULL, SA_FD_ST_FORWARD_SINCE, &since);
	sa_sf_num(s, NULL, SA_FD_ST_FORWARD_BARS, &bars);
	sa_sf_num(s, NULL, SA_FD_ST_FORWARD_TRADES, &trades);
	sa_sf_num(s, NULL, SA_FD_ST_FORWARD_NET, &net);
	band = sa_sf_arr_or_null(s, NULL, SA_FD_ST_FORWARD_BAND);
	if (s->broken[0])
		return;
	if (cJSON_GetArraySize(band) == 2 && cJSON_IsNumber(cJSON_GetArrayItem(band, 0)) &&
	    cJSON_IsNumber(cJSON_GetArrayItem(band, 1))) {
		lo = cJSON_GetArrayItem(band, 0)->valuedouble;
		hi = cJSON_GetArrayItem(band, 1)->valuedouble;
	}
	r->edge_decayed = isfinite(net) && isfinite(lo) && net < lo;
	snprintf(r->forward, sizeof r->forward, "%s%.0f bar%s since %s: %+.2f %% net over %.0f trade%s, "
		 "band %+.2f to %+.2f %%", r->edge_decayed ? "edge decayed: " : "",
		 bars, bars == 1 ? "" : "s", since, 100 * net, trades, trades == 1 ? "" : "s",
		 100 * lo, 100 * hi);
}

/* The first line of s, into buf. */
static void first_line(char *buf, size_t len, const char *s)
{
	snprintf(buf, len, "%.*s", (int)strcspn(s, "\n"), s);
}

/* inspect.json's syntax error with its line, into line; false when there is none. */
static bool syntax_error(struct nightly_row *r, const char *dir, char *line, size_t len)
{
	struct sa_sf ins;
	double at = 0;
	const char *msg = "?";
	bool found;

	sa_sf_open(&ins, dir, SA_SF_INSPECT);
	found = sa_sf_obj_or_null(&ins, NULL, SA_FD_IN_SYNTAX) != NULL;
	if (found) {
		sa_sf_num(&ins, NULL, SA_FD_IN_SYNTAX_LINE, &at);
		sa_sf_str(&ins, NULL, SA_FD_IN_SYNTAX_MSG, &msg);
		found = !ins.broken[0];
	}
	if (found)
		snprintf(line, len, "SyntaxError at line %.0f: %.300s", at, msg);
	note_break(r, &ins);
	sa_sf_close(&ins);
	return found;
}

/* INCOMPLETE's cause: inspect.json's syntax error with its line, else run.json's error line
 * (the one naming a line when there is one). */
static void incomplete_reason(struct nightly_row *r, const char *dir)
{
	char line[400];
	struct sa_sf run;
	const char *e = "", *at;

	if (syntax_error(r, dir, line, sizeof line)) {
		append(r->reason, sizeof r->reason, line);
		return;
	}
	sa_sf_open(&run, dir, SA_SF_RUN);
	sa_sf_str(&run, NULL, SA_FD_RUN_ERROR, &e);
	at = strstr(e, "line ");
	while (at && at > e && at[-1] != '\n')
		at--;
	first_line(line, sizeof line, at ? at : e);
	if (line[0])
		append(r->reason, sizeof r->reason, line);
	note_break(r, &run);
	sa_sf_close(&run);
}

/* Why the verdict, in one line: each veto's finding, INCOMPLETE's error line, else the gates
 * that failed with why (or that every one passed). */
static void load_reason(struct nightly_row *r, struct sa_sf *v, const char *dir)
{
	const cJSON *it;
	char part[400];

	r->reason[0] = '\0';
	cJSON_ArrayForEach(it, sa_sf_arr_or_null(v, NULL, SA_FD_VD_VETOES)) {
		const char *name = "veto", *why = "";

		sa_sf_str(v, it, SA_FD_VD_VETOES_NAME, &name);
		sa_sf_str(v, it, SA_FD_VD_VETOES_REASON, &why);
		snprintf(part, sizeof part, "%s%s: %s", r->reason[0] ? "; " : "", name, why);
		append(r->reason, sizeof r->reason, part);
	}
	if (r->reason[0])
		return;
	if (!strcmp(r->verdict, "INCOMPLETE")) {
		incomplete_reason(r, dir);
		return;
	}
	cJSON_ArrayForEach(it, sa_sf_arr_or_null(v, NULL, SA_FD_VD_GATES)) {
		const char *name = "?", *why = "";
		bool pass = true;

		sa_sf_bool(v, it, SA_FD_VD_GATES_PASS, &pass);
		if (pass)
			continue;
		sa_sf_str(v, it, SA_FD_VD_GATES_NAME, &name);
		sa_sf_str(v, it, SA_FD_VD_GATES_WHY, &why);
		snprintf(part, sizeof part, "%sfails %s: %s", r->reason[0] ? "; " : "", name, why);
		append(r->reason, sizeof r->reason, part);
	}
	if (!r->reason[0])
		append(r->reason, sizeof r->reason, "every gate passed");
}

/* The data's first and last bar, as fingerprint.json records them. */
static void load_data_span(struct nightly_row *r, const char *dir)
{
	struct sa_sf fp;
	const char *first = "", *last = "";

	sa_sf_open(&fp, dir, SA_SF_FINGERPRINT);
	sa_sf_str(&fp, NULL, SA_FD_FP_DATA_FIRST, &first);
	sa_sf_str(&fp, NULL, SA_FD_FP_DATA_LAST, &last);
	if (!fp.broken[0]) {
		snprintf(r->data_first, sizeof r->data_first, "%s", first);
		snprintf(r->data_last, sizeof r->data_last, "%s", last);
	}
	note_break(r, &fp);
	sa_sf_close(&fp);
}

bool nightly_row_fingerprint_matches(const char *dir, const struct nightly_key *k)
{
	struct sa_sf fp;
	const char *code = "", *log = "", *data = "";
	bool same;

	sa_sf_open(&fp, dir, SA_SF_FINGERPRINT);
	sa_sf_str(&fp, NULL, SA_FD_FP_STRATEGY_SHA, &code);
	sa_sf_str(&fp, NULL, SA_FD_FP_TRADELOG_SHA, &log);
	sa_sf_str(&fp, NULL, SA_FD_FP_DATA_SHA, &data);
	same = sa_sf_present(&fp) && !fp.broken[0] && nightly_fingerprint_matches(k, code, log, data);
	sa_sf_close(&fp);
	return same;
}

/* The figures of stats.json the index shows, the Sharpe ratio as the report's headline; all
 * unknown when the file breaks the table. */
static void load_stats(struct nightly_row *r, struct sa_sf *s)
{
	double trades = NAN, trials = NAN;

	/* each object first: a field under a missing object is that object's row's break */
	sa_sf_obj_or_null(s, NULL, SA_FD_ST_SHARPE_ANN);
	sa_sf_obj_or_null(s, NULL, SA_FD_ST_PBO);
	sa_sf_num(s, NULL, SA_FD_ST_SHARPE_ANN_VALUE, &r->sharpe);
	sa_sf_num(s, NULL, SA_FD_ST_SHARPE, &r->sharpe_per_trade);
	sa_sf_num(s, NULL, SA_FD_ST_PSR, &r->psr);
	sa_sf_num(s, NULL, SA_FD_ST_DSR, &r->dsr);
	sa_sf_num(s, NULL, SA_FD_ST_NET_RETURN, &r->net_return);
	sa_sf_num(s, NULL, SA_FD_ST_MAX_DD, &r->max_drawdown);
	sa_sf_num(s, NULL, SA_FD_ST_PBO_VALUE, &r->pbo);
	sa_sf_num(s, NULL, SA_FD_ST_TRADES, &trades);
	/* the effective trials as the stats stage decided them: the one count every reader shows */
	sa_sf_num(s, NULL, SA_FD_ST_TRIALS, &trials);
	da_ledger_sentence(s, r->ledger, sizeof r->ledger);
	load_forward(r, s);
	if (s->broken[0]) {
		r->sharpe = r->sharpe_per_trade = r->psr = r->dsr = NAN;
		r->net_return = r->max_drawdown = r->pbo = NAN;
		r->ledger[0] = r->forward[0] = '\0';
		r->edge_decayed = false;
		return;
	}
	if (!isfinite(r->trades))
		r->trades = trades;
	if (trials >= 1 && trials < 1e9)
		r->trials = (long)trials;
}

static void load_stats_file(struct nightly_row *r, const char *dir)
{
	struct sa_sf sf;

	if (sa_sf_open(&sf, dir, SA_SF_STATS))
		load_stats(r, &sf);
	note_break(r, &sf);
	sa_sf_close(&sf);
}

/* verdict.json's verdict and the counts beside it; false, the row FAILED with why in its note,
 * when there is none to read. */
static bool load_verdict(struct nightly_row *r, struct sa_sf *v, const char *dir)
{
	const char *verdict = NULL, *gate = NULL;

	if (!sa_sf_open(v, dir, SA_SF_VERDICT)) {
		sa_fmt(r->note, sizeof r->note, "no verdict: %s", v->status);
		return false;
	}
	sa_sf_str(v, NULL, SA_FD_VD_VERDICT, &verdict);
	copy_verdict(r->verdict, sizeof r->verdict, verdict);
	if (!v->broken[0] && !r->verdict[0]) {
		snprintf(r->verdict, sizeof r->verdict, "FAILED");
		snprintf(r->note, sizeof r->note, "verdict.json names no known verdict");
		return false;
	}
	sa_sf_str(v, NULL, SA_FD_VD_GATE_VERDICT, &gate);
	copy_verdict(r->gate_verdict, sizeof r->gate_verdict, gate);
	load_reason(r, v, dir);
	sa_sf_num(v, NULL, SA_FD_VD_TRADES, &r->trades);
	r->blocked = count_field(v, SA_FD_VD_BLOCKED);
	r->mismatches = count_field(v, SA_FD_VD_MISMATCHES);
	if (v->broken[0]) {
		/* a verdict whose file breaks the table is no verdict the index can stand behind */
		snprintf(r->verdict, sizeof r->verdict, "FAILED");
		r->gate_verdict[0] = r->reason[0] = '\0';
		r->trades = NAN;
		r->blocked = r->mismatches = -1;
		sa_fmt(r->note, sizeof r->note, "no verdict: %s", v->broken);
		return false;
	}
	return true;
}

void nightly_row_load_results(struct nightly_row *r, const char *dir)
{
	struct sa_sf v;

	if (load_verdict(r, &v, dir))
		load_stats_file(r, dir);
	else
		snprintf(r->verdict, sizeof r->verdict, "FAILED");
	load_data_span(r, dir);
	sa_sf_close(&v);
}

/* Adds a string, or null when it is empty. */
static void add_str_or_null(cJSON *o, const char *key, const char *s)
{
	if (s && *s)
		cJSON_AddStringToObject(o, key, s);
	else
		cJSON_AddNullToObject(o, key);
}

cJSON *nightly_row_json(const struct nightly_row *r)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "name", r->name);
	cJSON_AddStringToObject(o, "verdict", r->verdict);
	add_str_or_null(o, "gate_verdict", r->gate_verdict);
	sa_json_add_num(o, "trades", r->trades, 10);
	sa_json_add_num(o, "sharpe", r->sharpe, 6);
	sa_json_add_num(o, "sharpe_per_trade", r->sharpe_per_trade, 6);
	sa_json_add_num(o, "net_return", r->net_return, 10);
	sa_json_add_num(o, "max_drawdown", r->max_drawdown, 10);
	sa_json_add_num(o, "psr", r->psr, 6);
	sa_json_add_num(o, "dsr", r->dsr, 6);
	sa_json_add_num(o, "blocked_actions", r->blocked >= 0 ? (double)r->blocked : NAN, 12);
	sa_json_add_num(o, "lookahead_mismatches", r->mismatches >= 0 ? (double)r->mismatches : NAN, 12);
	cJSON_AddNumberToObject(o, "trials", (double)r->trials);
	sa_json_add_num(o, "pbo", r->pbo, 6);
	cJSON_AddStringToObject(o, "news", nightly_news_name(r->news));
	add_str_or_null(o, "change", r->change);
	if (r->version > 0)
		cJSON_AddNumberToObject(o, "version", (double)r->version);
	else
		cJSON_AddNullToObject(o, "version");
	cJSON_AddBoolToObject(o, "audited", r->audited);
	add_str_or_null(o, "bundle", r->bundle);
	add_str_or_null(o, "bundle_sha256", r->bundle_sha);
	cJSON_AddNumberToObject(o, "bundle_size", (double)r->bundle_size);
	add_str_or_null(o, "code_sha256", r->key.code);
	add_str_or_null(o, "tradelog_sha256", r->key.tradelog);
	add_str_or_null(o, "data", r->data);
	add_str_or_null(o, "data_sha256", r->key.data);
	add_str_or_null(o, "data_first", r->data_first);
	add_str_or_null(o, "data_last", r->data_last);
	add_str_or_null(o, "config_sha256", r->key.config);
	add_str_or_null(o, "tool", r->key.tool);
	add_str_or_null(o, "note", r->note);
	add_str_or_null(o, "ledger", r->ledger);
	add_str_or_null(o, "forward", r->forward);
	cJSON_AddBoolToObject(o, "edge_decayed", r->edge_decayed);
	add_str_or_null(o, "reason", r->reason);
	add_str_or_null(o, "report", r->report);
	return o;
}

int nightly_index_write_json(const struct nightly_index *ix, const char *path)
{
	cJSON *root = sa_json_stage("nightly", 1), *rows;
	char summary[512], err[1024];
	int rc;

	cJSON_AddBoolToObject(root, "ok", 1);
	cJSON_AddStringToObject(root, "summary", nightly_index_summary(ix, summary, sizeof summary));
	cJSON_AddNumberToObject(root, "strategies", (double)ix->n);
	rows = cJSON_AddArrayToObject(root, "rows");
	for (size_t i = 0; i < ix->n; i++)
		cJSON_AddItemToArray(rows, nightly_row_json(&ix->rows[i]));
	rc = sa_json_write(path, root, err, sizeof err);
	if (rc)
		sa_error("%s", err);
	cJSON_Delete(root);
	return rc;
}

/* A figure for people: "-" when unknown. */
static const char *fig(char *buf, size_t len, double x, const char *fmt)
{
	if (!isfinite(x))
		return "-";
	snprintf(buf, len, fmt, x);
	return buf;
}

/* The news column: "new", "unchanged" or "changed: <what>". */
static const char *news_text(const struct nightly_row *r, char *buf, size_t len)
{
	if (r->news != NIGHTLY_CHANGED)
		return nightly_news_name(r->news);
	snprintf(buf, len, "changed: %s", r->change);
	return buf;
}

/* A fraction as a percentage for people, "-" when unknown. */
static const char *pct(char *buf, size_t len, double x, bool sign)
{
	if (!isfinite(x))
		return "-";
	snprintf(buf, len, sign ? "%+.2f %%" : "%.2f %%", 100 * x);
	return buf;
}

/* "data: prices.csv, 2024-01-01T00:00:00Z to 2025-12-31T23:00:00Z", or "" without a data file. */
char *nightly_row_data_text(const struct nightly_row *r, char *buf, size_t len)
{
	buf[0] = '\0';
	if (r->data[0] && r->data_first[0])
		snprintf(buf, len, "%s, %s to %s", r->data, r->data_first, r->data_last);
	else if (r->data[0])
		snprintf(buf, len, "%s", r->data);
	return buf;
}

int nightly_index_write_text(const struct nightly_index *ix, const char *path)
{
	struct sa_atomic a = {0};
	char summary[512], b1[32], b2[32], b3[32], b4[32], b5[32], b6[32], b7[32], news[300], data[400];
	char err[1024];

	if (sa_atomic_open(&a, path, err, sizeof err) != 0)
		return sa_error("%s", err);
	fprintf(a.fp, "strataudit nightly index\n%s\n\n", nightly_index_summary(ix, summary, sizeof summary));
	fprintf(a.fp, "%-24s %-22s %7s %8s %11s %9s %6s %6s %6s %5s %7s %9s  %s\n", "strategy", "verdict",
		"trades", "sharpe", "net return", "drawdown", "psr", "dsr", "trials", "pbo", "blocked",
		"lookahead", "news");
	for (size_t i = 0; i < ix->n; i++) {
		const struct nightly_row *r = &ix->rows[i];

		fprintf(a.fp, "%-24s %-22s %7s %8s %11s %9s %6s %6s %6ld %5s %7ld %9ld  %s\n", r->name, r->verdict,
			fig(b1, sizeof b1, r->trades, "%.0f"), fig(b2, sizeof b2, r->sharpe, "%.3f"),
			pct(b6, sizeof b6, r->net_return, true), pct(b7, sizeof b7, r->max_drawdown, false),
			fig(b3, sizeof b3, r->psr, "%.3f"), fig(b4, sizeof b4, r->dsr, "%.3f"), r->trials,
			fig(b5, sizeof b5, r->pbo, "%.2f"),
			r->blocked < 0 ? 0 : r->blocked, r->mismatches < 0 ? 0 : r->mismatches,
			news_text(r, news, sizeof news));
		if (r->reason[0])
			fprintf(a.fp, "%-24s why: %s\n", "", r->reason);
		if (nightly_row_data_text(r, data, sizeof data)[0])
			fprintf(a.fp, "%-24s data: %s\n", "", data);
		if (r->note[0])
			fprintf(a.fp, "%-24s %s\n", "", r->note);
		if (r->ledger[0])
			fprintf(a.fp, "%-24s %s\n", "", r->ledger);
		if (r->forward[0])
			fprintf(a.fp, "%-24s %s\n", "", r->forward);
	}
	fprintf(a.fp, "\nSharpe: the report's headline, annualised over per-bar returns. "
		"A verdict is evidence for a decision, never a promise of returns.\n");
	if (sa_atomic_commit(&a, err, sizeof err) != 0)
		return sa_error("%s", err);
	return 0;
}

char *nightly_index_summary(const struct nightly_index *ix, char *buf, size_t len)
{
	size_t count[N_VERDICTS] = {0}, used;
	bool first = true;

	for (size_t i = 0; i < ix->n; i++)
		count[nightly_verdict_rank(ix->rows[i].verdict)]++;
	snprintf(buf, len, "%zu %s", ix->n, ix->n == 1 ? "strategy" : "strategies");
	for (size_t v = 0; v < N_VERDICTS; v++) {
		if (!count[v])
			continue;
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s %zu %s", first ? ":" : ",", count[v], verdict_order[v]);
		first = false;
	}
	return buf;
}
