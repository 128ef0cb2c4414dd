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

/* A count from JSON, or -1 when it is missing or not a number. */
static long json_count(const cJSON *o, const char *key)
{
	double v = sa_json_num(o, key, -1);

	return isfinite(v) && v >= 0 ? (long)v : -1;
}

/* Takes only the verdicts this tool writes, so a doctored file cannot inject text. */
static void copy_verdict(char *dst, size_t len, const char *v)
{
	dst[0] = '\0';
	if (v && nightly_verdict_rank(v) > 0)
		snprintf(dst, len, "%s", v);
}

/* The forward figures of stats.json in a sentence, and whether they fell below their band. */
static void load_forward(struct nightly_row *r, const cJSON *f)
{
	const cJSON *band = cJSON_GetObjectItemCaseSensitive(f, "band");
	double net = sa_json_num(f, "net_return", NAN), lo = NAN, hi = NAN;

	if (!cJSON_IsObject(f))
		return;
	if (cJSON_GetArraySize(band) == 2) {
		lo = cJSON_GetArrayItem(band, 0)->valuedouble;
		hi = cJSON_GetArrayItem(band, 1)->valuedouble;
	}
	r->edge_decayed = isfinite(net) && isfinite(lo) && net < lo;
	snprintf(r->forward, sizeof r->forward, "%s%.0f bar%s since %s: %+.2f %% net over %.0f trade%s, "
		 "band %+.2f to %+.2f %%", r->edge_decayed ? "edge decayed: " : "",
		 sa_json_num(f, "bars", 0), sa_json_num(f, "bars", 0) == 1 ? "" : "s",
		 sa_json_str(f, "since", "?"), 100 * net,
		 sa_json_num(f, "trades", 0), sa_json_num(f, "trades", 0) == 1 ? "" : "s", 100 * lo, 100 * hi);
}

/* Appends text to buf (len bytes), cut to fit. */
static void append(char *buf, size_t len, const char *text)
{
	size_t used = strlen(buf);

	if (used + 1 < len)
		snprintf(buf + used, len - used, "%s", text);
}

/* The first line of s, into buf. */
static void first_line(char *buf, size_t len, const char *s)
{
	snprintf(buf, len, "%.*s", (int)strcspn(s, "\n"), s);
}

/* INCOMPLETE's cause: inspect.json's syntax error with its line, else run.json's error line
 * (the one naming a line when there is one). */
static void incomplete_reason(char *buf, size_t len, const char *dir)
{
	char path[4096], err[512], line[400];
	cJSON *ins, *run;
	const cJSON *se;
	const char *e, *at;

	sa_fmt(path, sizeof path, "%s/inspect.json", dir);
	ins = sa_json_read(path, SA_JSON_CAP, err, sizeof err);
	se = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(ins, "strategy"), "syntax_error");
	if (cJSON_IsObject(se)) {
		snprintf(line, sizeof line, "SyntaxError at line %.0f: %.300s", sa_json_num(se, "line", 0),
			 sa_json_str(se, "msg", "?"));
		append(buf, len, line);
		cJSON_Delete(ins);
		return;
	}
	cJSON_Delete(ins);
	sa_fmt(path, sizeof path, "%s/run.json", dir);
	run = sa_json_read(path, SA_JSON_CAP, err, sizeof err);
	e = sa_json_str(run, "error", "");
	at = strstr(e, "line ");
	while (at && at > e && at[-1] != '\n')
		at--;
	first_line(line, sizeof line, at ? at : e);
	if (line[0])
		append(buf, len, line);
	cJSON_Delete(run);
}

/* Why the verdict, in one line: each veto's finding, INCOMPLETE's error line, else the gates
 * that failed with why (or that every one passed). */
static void load_reason(struct nightly_row *r, const cJSON *v, const char *dir)
{
	const cJSON *it;
	char part[400];

	r->reason[0] = '\0';
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(v, "vetoes")) {
		snprintf(part, sizeof part, "%s%s: %s", r->reason[0] ? "; " : "", sa_json_str(it, "name", "veto"),
			 sa_json_str(it, "reason", ""));
		append(r->reason, sizeof r->reason, part);
	}
	if (r->reason[0])
		return;
	if (!strcmp(r->verdict, "INCOMPLETE")) {
		incomplete_reason(r->reason, sizeof r->reason, dir);
		return;
	}
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(v, "gates")) {
		if (sa_json_bool(it, "pass", true))
			continue;
		snprintf(part, sizeof part, "%sfails %s: %s", r->reason[0] ? "; " : "", sa_json_str(it, "name", "?"),
			 sa_json_str(it, "why", ""));
		append(r->reason, sizeof r->reason, part);
	}
	if (!r->reason[0])
		append(r->reason, sizeof r->reason, "every gate passed");
}

/* The data's first and last bar, as fingerprint.json records them. */
static void load_data_span(struct nightly_row *r, const char *dir)
{
	char path[4096], err[256];
	cJSON *fp = sa_json_read(sa_fmt(path, sizeof path, "%s/fingerprint.json", dir), SA_JSON_CAP, err, sizeof err);

	snprintf(r->data_first, sizeof r->data_first, "%s", sa_json_str(fp, "data_first", ""));
	snprintf(r->data_last, sizeof r->data_last, "%s", sa_json_str(fp, "data_last", ""));
	cJSON_Delete(fp);
}

/* The figures of stats.json the index shows, the Sharpe ratio as the report's headline. */
static void load_stats(struct nightly_row *r, const cJSON *s)
{
	r->sharpe = sa_json_num(cJSON_GetObjectItemCaseSensitive(s, "sharpe_annualised"), "value", NAN);
	r->sharpe_per_trade = sa_json_num(s, "sharpe", NAN);
	r->psr = sa_json_num(s, "psr", NAN);
	r->dsr = sa_json_num(s, "dsr", NAN);
	r->net_return = sa_json_num(s, "net_return", NAN);
	r->max_drawdown = sa_json_num(s, "max_drawdown", NAN);
	r->pbo = sa_json_num(cJSON_GetObjectItemCaseSensitive(s, "pbo"), "value", NAN);
	if (!isfinite(r->trades))
		r->trades = sa_json_num(s, "trades", NAN);
	da_ledger_sentence(s, r->ledger, sizeof r->ledger);
	load_forward(r, cJSON_GetObjectItemCaseSensitive(s, "forward"));
}

/* stats.json through the stage-file table: its figures, and the effective trials as the stats
 * stage decided them (the one count every reader after it shows). */
static void load_stats_file(struct nightly_row *r, const char *dir)
{
	struct sa_sf sf;
	double trials = NAN;

	if (sa_sf_open(&sf, dir, SA_SF_STATS)) {
		load_stats(r, sf.root);
		if (sa_sf_num(&sf, NULL, SA_FD_ST_TRIALS, &trials) == 1 && trials >= 1 && trials < 1e9)
			r->trials = (long)trials;
	}
	sa_sf_close(&sf);
}

void nightly_row_load_results(struct nightly_row *r, const char *dir)
{
	char path[4096], err[512];
	bool ok = false;
	cJSON *v = NULL;

	sa_fmt(path, sizeof path, "%s/verdict.json", dir);
	v = sa_json_read_stage(path, &ok, err, sizeof err);
	if (!v || !ok) {
		snprintf(r->verdict, sizeof r->verdict, "FAILED");
		sa_fmt(r->note, sizeof r->note, "no verdict: %s", err);
		goto out;
	}
	copy_verdict(r->verdict, sizeof r->verdict, sa_json_str(v, "verdict", NULL));
	if (!r->verdict[0]) {
		snprintf(r->verdict, sizeof r->verdict, "FAILED");
		snprintf(r->note, sizeof r->note, "verdict.json names no known verdict");
		goto out;
	}
	copy_verdict(r->gate_verdict, sizeof r->gate_verdict, sa_json_str(v, "gate_verdict", NULL));
	load_reason(r, v, dir);
	r->trades = sa_json_num(v, "trades", NAN);
	r->blocked = json_count(v, "blocked_actions");
	r->mismatches = json_count(v, "lookahead_mismatches");
	load_stats_file(r, dir);
out:
	load_data_span(r, dir);
	cJSON_Delete(v);
}

/* Adds a string, or null when it is empty. */
static void add_str_or_null(cJSON *o, const char *key, const char *s)
{
	if (s && *s)
		cJSON_AddStringToObject(o, key, s);
	else
		cJSON_AddNullToObject(o, key);
}

static cJSON *row_json(const struct nightly_row *r)
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
		cJSON_AddItemToArray(rows, row_json(&ix->rows[i]));
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
