/* report_input.c - loads an audit directory for the report; nothing in it is trusted. */
#include "report_input.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvfield.h"
#include "csvtable.h"
#include "fileio.h"
#include "jsonio.h"
#include "msg.h"
#include "ohlcv_json.h"
#include "stagefile.h"
#include "timeutil.h"

/* The report's stage files as rows of the stage-file table. */
static const enum sa_sfile_id stage_files[RPT_NFILES] = {
	[RPT_CONFIG] = SA_SF_CONFIG,
	[RPT_FINGERPRINT] = SA_SF_FINGERPRINT,
	[RPT_INSPECT] = SA_SF_INSPECT,
	[RPT_RUN] = SA_SF_RUN,
	[RPT_LOOKAHEAD] = SA_SF_LOOKAHEAD,
	[RPT_ROBUST] = SA_SF_ROBUSTNESS,
	[RPT_REPLAY] = SA_SF_REPLAY,
	[RPT_STATS] = SA_SF_STATS,
	[RPT_VERDICT] = SA_SF_VERDICT,
};

static const char *const curve_files[RPT_NCURVES] = {
	[RPT_BENCHMARK] = "benchmark.csv",
	[RPT_ROLLING] = "rolling.csv",
	[RPT_WALKFORWARD] = "walkforward.csv",
	[RPT_FAN] = "montecarlo_fan.csv",
	[RPT_RECONCILE] = "reconcile.csv",
	[RPT_BACKTEST] = "backtest_equity.csv",
};

/* Rows are collected as strings while the shared table reader streams: cells grow by one
 * row at a time, row 0 being the header. */
struct table_acc {
	struct rpt_table *tb;
	size_t cap;  /* rows allocated */
};

static int push_row(struct rpt_table *tb, size_t *cap, const char (*vals)[SA_CSV_FIELD_MAX + 1])
{
	if (tb->rows == *cap) {
		size_t n = *cap ? *cap * 2 : 256;
		char **c = realloc(tb->cell, n * tb->cols * sizeof *c);

		if (!c)
			return -1;
		tb->cell = c;
		*cap = n;
	}
	for (size_t c = 0; c < tb->cols; c++) {
		char *v = strdup(vals[c]);

		if (!v) {
			while (c-- > 0)
				free(tb->cell[tb->rows * tb->cols + c]);
			return -1;
		}
		tb->cell[tb->rows * tb->cols + c] = v;
	}
	tb->rows++;
	return 0;
}

static int table_row(struct sa_csv_table *t, void *arg)
{
	struct table_acc *acc = arg;

	if (acc->tb->rows == 0) {
		acc->tb->cols = (size_t)t->cols;
		if (push_row(acc->tb, &acc->cap, t->header) < 0)
			goto nomem;
	}
	if (push_row(acc->tb, &acc->cap, t->vals) < 0)
		goto nomem;
	return 0;
nomem:
	sa_csv_table_fail(t, "out of memory");
	return -1;
}

int rpt_table_parse(const char *buf, size_t len, struct rpt_table *tb, char *err, size_t errlen)
{
	struct table_acc acc = { .tb = tb };
	struct sa_csv_table t = { .pos = { .err = err, .errlen = errlen }, .row = table_row,
				  .arg = &acc };

	memset(tb, 0, sizeof *tb);
	if (sa_csv_table_parse(&t, buf, len) < 0)
		goto fail;
	if (tb->rows == 0) {
		/* a header without rows still names its columns */
		tb->cols = (size_t)t.cols;
		if (push_row(tb, &acc.cap, t.header) < 0) {
			sa_fmt(err, errlen, "out of memory");
			goto fail;
		}
	}
	return 0;
fail:
	rpt_table_release(tb);
	return -1;
}

void rpt_table_release(struct rpt_table *tb)
{
	if (tb->cell)
		for (size_t i = 0; i < tb->rows * tb->cols; i++)
			free(tb->cell[i]);
	free(tb->cell);
	memset(tb, 0, sizeof *tb);
}

int rpt_table_col(const struct rpt_table *tb, const char *name)
{
	for (size_t c = 0; tb->rows && c < tb->cols; c++)
		if (strcmp(tb->cell[c], name) == 0)
			return (int)c;
	return -1;
}

const char *rpt_table_get(const struct rpt_table *tb, size_t r, int c)
{
	if (c < 0 || (size_t)c >= tb->cols || r + 1 >= tb->rows)
		return "";
	return tb->cell[(r + 1) * tb->cols + (size_t)c];
}

int rpt_parse_num(const char *s, double *x)
{
	/* the one number parser of every loader: plain finite decimals only */
	return sa_csv_field_number(s, x);
}

void rpt_series_release(struct rpt_series *s)
{
	free(s->t);
	free(s->pos);
	free(s->gross);
	free(s->net);
	memset(s, 0, sizeof *s);
}

int rpt_series_from_table(const struct rpt_table *tb, struct rpt_series *s, char *err, size_t errlen)
{
	int ct = rpt_table_col(tb, "time"), cp = rpt_table_col(tb, "position");
	int cg = rpt_table_col(tb, "gross_equity"), cn = rpt_table_col(tb, "net_equity");
	size_t n = tb->rows ? tb->rows - 1 : 0;
	int rc = -1;
	memset(s, 0, sizeof *s);
	if (ct < 0 || cp < 0 || cg < 0 || cn < 0) {
		sa_fmt(err, errlen, "header lacks time,position,gross_equity,net_equity");
		goto out;
	}
	s->t = malloc((n + 1) * sizeof *s->t);
	s->pos = malloc((n + 1) * sizeof *s->pos);
	s->gross = malloc((n + 1) * sizeof *s->gross);
	s->net = malloc((n + 1) * sizeof *s->net);
	if (!s->t || !s->pos || !s->gross || !s->net) {
		sa_fmt(err, errlen, "out of memory");
		goto out;
	}
	for (size_t r = 0; r < n; r++) {
		if (sa_time_parse(rpt_table_get(tb, r, ct), &s->t[r]) ||
		    rpt_parse_num(rpt_table_get(tb, r, cp), &s->pos[r]) ||
		    rpt_parse_num(rpt_table_get(tb, r, cg), &s->gross[r]) ||
		    rpt_parse_num(rpt_table_get(tb, r, cn), &s->net[r]) ||
		    (r > 0 && s->t[r] <= s->t[r - 1])) {
			sa_fmt(err, errlen, "line %zu: not a valid, time-ordered equity row", r + 2);
			goto out;
		}
	}
	s->n = n;
	rc = 0;
out:
	if (rc)
		rpt_series_release(s);
	return rc;
}

/* src into dst (len bytes); when it does not fit, cut after its last whole word that leaves room
 * for the mark " [...]", so a sentence quoting it never ends inside a word. */
static void copy_reason(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src), cut;

	if (n < len) {
		memcpy(dst, src, n + 1);
		return;
	}
	for (cut = len - 7; cut > 0 && src[cut] != ' '; cut--)
		;
	while (cut > 0 && strchr(" ,;:(", src[cut - 1]))
		cut--;
	snprintf(dst, len, "%.*s [...]", (int)cut, src);
}

/* A stage file through the stage-file table: its stage, schema and ok checked on open, a file
 * breaking them unusable with why; the tree is kept even when the stage failed. */
static void load_stage(struct rpt_stage *st, const char *dir, enum sa_sfile_id id)
{
	struct sa_sf sf;

	st->file = sa_sfiles[id].name;
	st->ok = sa_sf_open(&sf, dir, id);
	st->json = sf.root;
	sf.root = NULL; /* the report keeps the tree */
	if (!st->ok)
		copy_reason(st->reason, sizeof st->reason, sf.status);
	sa_sf_close(&sf);
}

/* Reads dir/file capped; a missing file leaves *buf NULL and why in reason. */
static int read_capped(const char *dir, const char *file, size_t cap, char **buf, size_t *len,
		       char *reason, size_t rlen)
{
	char path[4096], msg[256];
	sa_fmt(path, sizeof path, "%s/%s", dir, file);
	enum sa_read_status st = sa_read_file(path, cap, buf, len);
	if (st != SA_READ_OK)
		sa_fmt(reason, rlen, "%s", sa_read_strerror(st, file, cap, msg, sizeof msg));
	return st == SA_READ_NOMEM ? -1 : 0;
}

/* One JSON object per line; a bad line is skipped and counted, never fatal. */
static int load_events(struct rpt_input *in, const char *dir)
{
	char *buf = NULL;
	size_t len = 0, bad = 0;
	int rc = -1;
	if (!(in->events = cJSON_CreateArray()))
		goto out;
	if (read_capped(dir, "events.jsonl", SA_JSON_CAP, &buf, &len, in->events_reason,
			sizeof in->events_reason))
		goto out;
	for (char *line = buf, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!*line)
			continue;
		cJSON *ev = cJSON_Parse(line);
		if (cJSON_IsObject(ev))
			cJSON_AddItemToArray(in->events, ev);
		else {
			cJSON_Delete(ev);
			bad++;
		}
	}
	if (bad)
		sa_fmt(in->events_reason, sizeof in->events_reason, "%zu line(s) of events.jsonl were not JSON objects", bad);
	rc = 0;
out:
	free(buf);
	return rc;
}

static int load_table(const char *dir, const char *file, struct rpt_table *tb, char *reason, size_t rlen)
{
	char *buf = NULL, err[200];
	size_t len = 0;
	int rc = read_capped(dir, file, SA_JSON_CAP, &buf, &len, reason, rlen);
	if (rc == 0 && buf && rpt_table_parse(buf, len, tb, err, sizeof err))
		sa_fmt(reason, rlen, "%s: %s", file, err);
	free(buf);
	return rc;
}

static int load_returns(struct rpt_input *in)
{
	int cn = rpt_table_col(&in->trades, "net_return"), cg = rpt_table_col(&in->trades, "gross_return");
	size_t n = in->trades.rows ? in->trades.rows - 1 : 0;
	struct rpt_returns *r = &in->returns;
	if (!in->trades.rows)
		return 0;
	if (cn < 0 || cg < 0) {
		sa_fmt(in->trades_reason, sizeof in->trades_reason, "trades.csv lacks net_return or gross_return");
		return 0;
	}
	r->net = malloc((n + 1) * sizeof *r->net);
	r->gross = malloc((n + 1) * sizeof *r->gross);
	if (!r->net || !r->gross)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (rpt_parse_num(rpt_table_get(&in->trades, i, cn), &r->net[r->n]) == 0 &&
		    rpt_parse_num(rpt_table_get(&in->trades, i, cg), &r->gross[r->n]) == 0)
			r->n++;
	}
	if (r->n < n)
		sa_fmt(in->trades_reason, sizeof in->trades_reason, "%zu trade row(s) had no numeric return", n - r->n);
	return 0;
}

static int load_equity(struct rpt_input *in, const char *dir)
{
	struct rpt_table tb = { 0 };
	char err[200];
	int rc = load_table(dir, "equity.csv", &tb, in->equity_reason, sizeof in->equity_reason);
	if (rc == 0 && tb.rows && rpt_series_from_table(&tb, &in->equity, err, sizeof err))
		sa_fmt(in->equity_reason, sizeof in->equity_reason, "equity.csv %s", err);
	rpt_table_release(&tb);
	return rc;
}

static int load_source(struct rpt_input *in, const char *dir)
{
	size_t len = 0;
	return read_capped(dir, "strategy.py", SA_STRATEGY_CAP, &in->source, &len, in->source_reason,
			   sizeof in->source_reason);
}

static void load_data(struct rpt_input *in, const char *data_path)
{
	char err[200];
	if (!data_path) {
		sa_fmt(in->data_reason, sizeof in->data_reason, "no price data was given to the report");
		return;
	}
	if (da_ohlcv_load_config(data_path, in->stage[RPT_CONFIG].json, &in->data, err, sizeof err))
		sa_fmt(in->data_reason, sizeof in->data_reason, "price data unusable: %s", err);
}

/* variants.json and variants.csv: absent for an audit without a strategy. */
static int load_variants(struct rpt_input *in, const char *dir)
{
	struct rpt_stage st = { 0 };

	load_stage(&st, dir, SA_SF_VARIANTS);
	in->variants = st.json;
	return load_table(dir, "variants.csv", &in->variant_rows, in->variants_reason,
			  sizeof in->variants_reason);
}

/* A column's cells one by one through parse; 0, or -1 with err. */
static int table_column(const struct rpt_table *tb, const char *name, char *err, size_t errlen,
			int (*parse)(const char *, void *, size_t), void *out)
{
	int c = rpt_table_col(tb, name);

	if (c < 0) {
		sa_fmt(err, errlen, "no column %s", name);
		return -1;
	}
	for (size_t r = 0; tb->rows && r < tb->rows - 1; r++)
		if (parse(rpt_table_get(tb, r, c), out, r)) {
			sa_fmt(err, errlen, "line %zu: %s is not valid", r + 2, name);
			return -1;
		}
	return 0;
}

static int parse_num_cell(const char *s, void *out, size_t r)
{
	double *v = out;

	if (!*s) {
		v[r] = NAN;
		return 0;
	}
	return rpt_parse_num(s, &v[r]);
}

static int parse_time_cell(const char *s, void *out, size_t r)
{
	return sa_time_parse(s, &((int64_t *)out)[r]) ? -1 : 0;
}

int rpt_table_nums(const struct rpt_table *tb, const char *name, double *out, char *err,
		   size_t errlen)
{
	return table_column(tb, name, err, errlen, parse_num_cell, out);
}

int rpt_table_times(const struct rpt_table *tb, const char *name, int64_t *out, char *err,
		    size_t errlen)
{
	return table_column(tb, name, err, errlen, parse_time_cell, out);
}

static int load_curves(struct rpt_input *in, const char *dir)
{
	for (int k = 0; k < RPT_NCURVES; k++)
		if (load_table(dir, curve_files[k], &in->curve[k], in->curve_reason[k],
			       sizeof in->curve_reason[k]))
			return -1;
	return 0;
}

int rpt_input_views(struct rpt_input *in)
{
	const cJSON *tree[SA_SF_COUNT] = { [SA_SF_VARIANTS] = in->variants };

	free(in->sf);
	if (!(in->sf = calloc(2 * SA_SF_COUNT, sizeof *in->sf)))
		return -1;
	for (int f = 0; f < RPT_NFILES; f++)
		tree[stage_files[f]] = in->stage[f].json;
	for (int id = 0; id < SA_SF_COUNT; id++) {
		struct sa_sf *f = &in->sf[id], *ok = &in->sf[SA_SF_COUNT + id];

		sa_sf_view(f, tree[id], (enum sa_sfile_id)id);
		if (f->broken[0])
			sa_sf_view(f, NULL, (enum sa_sfile_id)id);
		sa_sf_view(ok, f->ok ? f->root : NULL, (enum sa_sfile_id)id);
	}
	return 0;
}

struct sa_sf *rpt_sf(const struct rpt_input *in, enum sa_sfile_id id)
{
	return &in->sf[id];
}

struct sa_sf *rpt_sf_ok(const struct rpt_input *in, enum sa_sfile_id id)
{
	return &in->sf[SA_SF_COUNT + id];
}

const char *rpt_input_broken(const struct rpt_input *in)
{
	for (int i = 0; in->sf && i < 2 * SA_SF_COUNT; i++)
		if (in->sf[i].broken[0])
			return in->sf[i].broken;
	return NULL;
}

int rpt_input_load(struct rpt_input *in, const char *dir, const char *data_path)
{
	memset(in, 0, sizeof *in);
	for (int f = 0; f < RPT_NFILES; f++)
		load_stage(&in->stage[f], dir, stage_files[f]);
	if (load_events(in, dir) || load_source(in, dir) ||
	    load_table(dir, "trades.csv", &in->trades, in->trades_reason, sizeof in->trades_reason) ||
	    load_returns(in) || load_equity(in, dir) || load_variants(in, dir) || load_curves(in, dir) ||
	    rpt_input_views(in))
		return -1;
	load_data(in, data_path);
	return 0;
}

void rpt_input_release(struct rpt_input *in)
{
	for (int f = 0; f < RPT_NFILES; f++)
		cJSON_Delete(in->stage[f].json);
	cJSON_Delete(in->events);
	rpt_table_release(&in->trades);
	rpt_table_release(&in->variant_rows);
	for (int k = 0; k < RPT_NCURVES; k++)
		rpt_table_release(&in->curve[k]);
	cJSON_Delete(in->variants);
	free(in->sf); /* views: the trees are the stages' */
	rpt_series_release(&in->equity);
	free(in->returns.net);
	free(in->returns.gross);
	free(in->source);
	da_ohlcv_release(&in->data);
	memset(in, 0, sizeof *in);
}

const cJSON *rpt_stage_ok(const struct rpt_input *in, enum rpt_file f)
{
	return in->stage[f].ok ? in->stage[f].json : NULL;
}
