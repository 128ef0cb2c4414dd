/* report_input.c - loads an audit directory for the report; nothing in it is trusted. */
#include "report_input.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "jsonio.h"
#include "msg.h"
#include "timeutil.h"

static const char *const stage_files[RP_NFILES] = {
	[RP_CONFIG] = "config.json",
	[RP_FINGERPRINT] = "fingerprint.json",
	[RP_INSPECT] = "inspect.json",
	[RP_RUN] = "run.json",
	[RP_LOOKAHEAD] = "lookahead.json",
	[RP_REPLAY] = "replay.json",
	[RP_STATS] = "stats.json",
	[RP_VERDICT] = "verdict.json",
};

/* Rows and fields are collected into growing arrays while libcsv calls back. */
struct csv_acc {
	char **cells;
	size_t n, cap;
	size_t *rowlen;  /* fields in each finished row */
	size_t rows, rowcap;
	size_t cur;      /* fields in the row being read */
	bool nomem;
};

static void on_field(void *data, size_t len, void *acc_)
{
	struct csv_acc *acc = acc_;
	if (acc->nomem)
		return;
	if (acc->n == acc->cap) {
		size_t cap = acc->cap ? acc->cap * 2 : 256;
		char **c = realloc(acc->cells, cap * sizeof *c);
		if (!c) {
			acc->nomem = true;
			return;
		}
		acc->cells = c;
		acc->cap = cap;
	}
	char *s = malloc(len + 1);
	if (!s) {
		acc->nomem = true;
		return;
	}
	memcpy(s, data, len);
	s[len] = '\0';
	acc->cells[acc->n++] = s;
	acc->cur++;
}

static void on_row(int c, void *acc_)
{
	struct csv_acc *acc = acc_;
	(void)c;
	if (acc->nomem)
		return;
	if (acc->rows == acc->rowcap) {
		size_t cap = acc->rowcap ? acc->rowcap * 2 : 256;
		size_t *r = realloc(acc->rowlen, cap * sizeof *r);
		if (!r) {
			acc->nomem = true;
			return;
		}
		acc->rowlen = r;
		acc->rowcap = cap;
	}
	acc->rowlen[acc->rows++] = acc->cur;
	acc->cur = 0;
}

/* Lays the ragged rows out as a rectangle as wide as the header. */
static int acc_to_table(struct csv_acc *acc, struct rp_table *tb)
{
	int rc = -1;
	size_t cols = acc->rows ? acc->rowlen[0] : 0;
	if (cols == 0)
		goto out;
	tb->cell = calloc(acc->rows * cols, sizeof *tb->cell);
	if (!tb->cell)
		goto out;
	tb->rows = acc->rows;
	tb->cols = cols;
	size_t k = 0;
	for (size_t r = 0; r < acc->rows; r++) {
		for (size_t c = 0; c < acc->rowlen[r]; c++, k++) {
			if (c < cols) {
				tb->cell[r * cols + c] = acc->cells[k];
				acc->cells[k] = NULL;
			}
		}
	}
	for (size_t i = 0; i < tb->rows * cols; i++)
		if (!tb->cell[i] && !(tb->cell[i] = strdup("")))
			goto out;
	rc = 0;
out:
	return rc;
}

int rp_table_parse(const char *buf, size_t len, struct rp_table *tb, char *err, size_t errlen)
{
	struct csv_parser p;
	struct csv_acc acc = { 0 };
	int rc = -1;
	memset(tb, 0, sizeof *tb);
	if (csv_init(&p, CSV_APPEND_NULL) != 0) {
		sa_fmt(err, errlen, "out of memory");
		return -1;
	}
	if (csv_parse(&p, buf, len, on_field, on_row, &acc) != len || csv_fini(&p, on_field, on_row, &acc)) {
		sa_fmt(err, errlen, "not valid CSV (%s)", csv_strerror(csv_error(&p)));
		goto out;
	}
	if (acc.nomem) {
		sa_fmt(err, errlen, "out of memory");
		goto out;
	}
	if (acc_to_table(&acc, tb)) {
		sa_fmt(err, errlen, acc.rows ? "out of memory" : "empty file");
		rp_table_release(tb);
		goto out;
	}
	rc = 0;
out:
	csv_free(&p);
	for (size_t i = 0; i < acc.n; i++)
		free(acc.cells[i]);
	free(acc.cells);
	free(acc.rowlen);
	return rc;
}

void rp_table_release(struct rp_table *tb)
{
	if (tb->cell)
		for (size_t i = 0; i < tb->rows * tb->cols; i++)
			free(tb->cell[i]);
	free(tb->cell);
	memset(tb, 0, sizeof *tb);
}

int rp_table_col(const struct rp_table *tb, const char *name)
{
	for (size_t c = 0; tb->rows && c < tb->cols; c++)
		if (strcmp(tb->cell[c], name) == 0)
			return (int)c;
	return -1;
}

const char *rp_table_get(const struct rp_table *tb, size_t r, int c)
{
	if (c < 0 || (size_t)c >= tb->cols || r + 1 >= tb->rows)
		return "";
	return tb->cell[(r + 1) * tb->cols + (size_t)c];
}

int rp_parse_num(const char *s, double *x)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v))
		return -1;
	*x = v;
	return 0;
}

void rp_series_release(struct rp_series *s)
{
	free(s->t);
	free(s->pos);
	free(s->gross);
	free(s->net);
	memset(s, 0, sizeof *s);
}

int rp_series_from_table(const struct rp_table *tb, struct rp_series *s, char *err, size_t errlen)
{
	int ct = rp_table_col(tb, "time"), cp = rp_table_col(tb, "position");
	int cg = rp_table_col(tb, "gross_equity"), cn = rp_table_col(tb, "net_equity");
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
		if (sa_time_parse(rp_table_get(tb, r, ct), &s->t[r]) ||
		    rp_parse_num(rp_table_get(tb, r, cp), &s->pos[r]) ||
		    rp_parse_num(rp_table_get(tb, r, cg), &s->gross[r]) ||
		    rp_parse_num(rp_table_get(tb, r, cn), &s->net[r]) ||
		    (r > 0 && s->t[r] <= s->t[r - 1])) {
			sa_fmt(err, errlen, "line %zu: not a valid, time-ordered equity row", r + 2);
			goto out;
		}
	}
	s->n = n;
	rc = 0;
out:
	if (rc)
		rp_series_release(s);
	return rc;
}

static void load_stage(struct rp_stage *st, const char *dir, const char *file)
{
	char path[4096], err[256] = "";
	st->file = file;
	sa_fmt(path, sizeof path, "%s/%s", dir, file);
	st->json = sa_json_read_stage(path, &st->ok, err, sizeof err);
	if (!st->json)
		sa_fmt(st->reason, sizeof st->reason, "%s", err[0] ? err : "unreadable");
	else if (!st->ok)
		sa_fmt(st->reason, sizeof st->reason, "%s", sa_json_str(st->json, "reason", "the stage failed"));
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
static int load_events(struct rp_input *in, const char *dir)
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

static int load_table(const char *dir, const char *file, struct rp_table *tb, char *reason, size_t rlen)
{
	char *buf = NULL, err[200];
	size_t len = 0;
	int rc = read_capped(dir, file, SA_JSON_CAP, &buf, &len, reason, rlen);
	if (rc == 0 && buf && rp_table_parse(buf, len, tb, err, sizeof err))
		sa_fmt(reason, rlen, "%s: %s", file, err);
	free(buf);
	return rc;
}

static int load_returns(struct rp_input *in)
{
	int cn = rp_table_col(&in->trades, "net_return"), cg = rp_table_col(&in->trades, "gross_return");
	size_t n = in->trades.rows ? in->trades.rows - 1 : 0;
	struct rp_returns *r = &in->returns;
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
		if (rp_parse_num(rp_table_get(&in->trades, i, cn), &r->net[r->n]) == 0 &&
		    rp_parse_num(rp_table_get(&in->trades, i, cg), &r->gross[r->n]) == 0)
			r->n++;
	}
	if (r->n < n)
		sa_fmt(in->trades_reason, sizeof in->trades_reason, "%zu trade row(s) had no numeric return", n - r->n);
	return 0;
}

static int load_equity(struct rp_input *in, const char *dir)
{
	struct rp_table tb = { 0 };
	char err[200];
	int rc = load_table(dir, "equity.csv", &tb, in->equity_reason, sizeof in->equity_reason);
	if (rc == 0 && tb.rows && rp_series_from_table(&tb, &in->equity, err, sizeof err))
		sa_fmt(in->equity_reason, sizeof in->equity_reason, "equity.csv %s", err);
	rp_table_release(&tb);
	return rc;
}

static int load_source(struct rp_input *in, const char *dir)
{
	size_t len = 0;
	return read_capped(dir, "strategy.py", SA_UPLOAD_CAP, &in->source, &len, in->source_reason,
			   sizeof in->source_reason);
}

static void load_data(struct rp_input *in, const char *data_path)
{
	char err[200];
	if (!data_path) {
		sa_fmt(in->data_reason, sizeof in->data_reason, "no price data was given to the report");
		return;
	}
	if (sa_ohlcv_load(data_path, &in->data, err, sizeof err))
		sa_fmt(in->data_reason, sizeof in->data_reason, "price data unusable: %s", err);
}

int rp_input_load(struct rp_input *in, const char *dir, const char *data_path)
{
	memset(in, 0, sizeof *in);
	for (int f = 0; f < RP_NFILES; f++)
		load_stage(&in->stage[f], dir, stage_files[f]);
	if (load_events(in, dir) || load_source(in, dir) ||
	    load_table(dir, "trades.csv", &in->trades, in->trades_reason, sizeof in->trades_reason) ||
	    load_returns(in) || load_equity(in, dir))
		return -1;
	load_data(in, data_path);
	return 0;
}

void rp_input_release(struct rp_input *in)
{
	for (int f = 0; f < RP_NFILES; f++)
		cJSON_Delete(in->stage[f].json);
	cJSON_Delete(in->events);
	rp_table_release(&in->trades);
	rp_series_release(&in->equity);
	free(in->returns.net);
	free(in->returns.gross);
	free(in->source);
	sa_ohlcv_release(&in->data);
	memset(in, 0, sizeof *in);
}

const cJSON *rp_stage_ok(const struct rp_input *in, enum rp_file f)
{
	return in->stage[f].ok ? in->stage[f].json : NULL;
}
