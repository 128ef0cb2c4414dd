/* tradelog.c - loads an uploaded trade log with libcsv: entry_time,exit_time,side,return. */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "csvfield.h"
#include "fileio.h"
#include "msg.h"
#include "timeutil.h"
#include "tradelog.h"

/* The four a row needs, then an account log's stake and profit (both or neither). */
enum { F_ENTRY, F_EXIT, F_SIDE, F_RETURN, NREQUIRED, F_STAKE = NREQUIRED, F_PNL, NFIELDS };

static const char *const field_names[NFIELDS] = { "entry_time", "exit_time", "side", "return",
						   "stake", "pnl" };

#define MAX_COLS 64

struct load {
	struct sa_csv_pos pos;  /* first: the shared driver passes &pos as data */
	struct da_tradelog *log;
	size_t cap;
	int col;
	int where[MAX_COLS];   /* header column -> field, or -1 for an ignored column */
	int seen;              /* bit per field found in this row */
	struct da_trade cur;
};


static void header_field(struct load *L, const char *name)
{
	struct da_tradelog *log = L->log;
	size_t used = strlen(log->columns);

	if (L->col >= MAX_COLS)
		return sa_csv_fail(&L->pos, "more than %d columns", MAX_COLS);
	L->where[L->col] = -1;
	for (int f = 0; f < NFIELDS; f++)
		if (!strcmp(name, field_names[f])) {
			if (L->seen & (1 << f))
				return sa_csv_fail(&L->pos, "column '%s' appears twice", name);
			L->seen |= 1 << f;
			L->where[L->col] = f;
		}
	/* keep the header as found, for the inspect report; cut rather than overflow */
	if (used + strlen(name) + 2 < sizeof(log->columns)) {
		if (used)
			strcat(log->columns, ",");
		strcat(log->columns, name);
	}
}

static void data_field(struct load *L, int f, const char *text)
{
	struct da_trade *t = &L->cur;

	switch (f) {
	case F_ENTRY:
	case F_EXIT:
		if (sa_time_parse(text, f == F_ENTRY ? &t->entry : &t->exit))
			sa_csv_fail(&L->pos, "%s '%s' is not an ISO-8601 UTC timestamp (want 2024-01-01T00:00:00Z)",
			     field_names[f], text);
		break;
	case F_SIDE:
		if (!strcasecmp(text, "long"))
			t->side = 1;
		else if (!strcasecmp(text, "short"))
			t->side = -1;
		else
			sa_csv_fail(&L->pos, "side '%s' should be long or short", text);
		break;
	case F_RETURN:
		if (sa_csv_field_number(text, &t->ret))
			sa_csv_fail(&L->pos, "return '%s' is not a finite number (a fraction: 0.01 is 1 %%)", text);
		else if (t->ret <= -1)
			sa_csv_fail(&L->pos, "return %g would lose more than everything (a fraction: -0.05 is -5 %%)", t->ret);
		break;
	case F_STAKE:
		if (sa_csv_field_number(text, &t->stake) || !(t->stake > 0))
			sa_csv_fail(&L->pos, "stake '%s' is not a positive number", text);
		break;
	case F_PNL:
		if (sa_csv_field_number(text, &t->pnl))
			sa_csv_fail(&L->pos, "pnl '%s' is not a finite number", text);
		break;
	}
}

static void on_field(void *field, size_t len, void *data)
{
	struct load *L = data;
	char text[SA_CSV_FIELD_MAX + 1];

	if (L->pos.failed)
		return;
	if (sa_csv_field_text(&L->pos, field, len, text, sizeof(text))) {
		sa_csv_fail(&L->pos, "field %d is longer than %d bytes or holds a NUL byte", L->col + 1, SA_CSV_FIELD_MAX);
		return;
	}
	if (L->pos.line == 1)
		header_field(L, text);
	else if (L->col < MAX_COLS && L->where[L->col] >= 0)
		data_field(L, L->where[L->col], text);
	L->col++;
}

static int push(struct load *L)
{
	struct da_tradelog *log = L->log;

	if (log->n == L->cap) {
		size_t cap = L->cap ? L->cap * 2 : 256;
		struct da_trade *p = realloc(log->trades, cap * sizeof(*p));

		if (!p)
			return -1;
		log->trades = p;
		L->cap = cap;
	}
	log->trades[log->n++] = L->cur;
	return 0;
}

static void header_done(struct load *L)
{
	for (int f = 0; f < NREQUIRED; f++)
		if (!(L->seen & (1 << f)))
			return sa_csv_fail(&L->pos, "missing column '%s' (want entry_time,exit_time,side,return; found %s)",
				    field_names[f], L->log->columns[0] ? L->log->columns : "nothing");
	if (!(L->seen & (1 << F_STAKE)) != !(L->seen & (1 << F_PNL)))
		return sa_csv_fail(&L->pos, "a column '%s' without '%s': an account log gives both, "
				   "each trade's stake and its profit", field_names[L->seen & (1 << F_STAKE) ?
				   F_STAKE : F_PNL], field_names[L->seen & (1 << F_STAKE) ? F_PNL : F_STAKE]);
	L->log->account.on = L->seen & (1 << F_STAKE);
	L->seen = L->col; /* from here on: how many columns a row must have */
}

static void on_row(int c, void *data)
{
	struct load *L = data;

	(void)c;
	if (L->pos.failed)
		goto next;
	if (L->pos.line == 1) {
		header_done(L);
		goto next;
	}
	if (L->col != L->seen) {
		sa_csv_fail(&L->pos, "%d fields where the header has %d", L->col, L->seen);
		goto next;
	}
	if (L->cur.exit < L->cur.entry) {
		sa_csv_fail(&L->pos, "exit_time is before entry_time");
		goto next;
	}
	L->cur.line = L->pos.line;
	L->cur.trade_ret = L->cur.ret;
	if (!L->log->account.on)
		L->cur.stake = L->cur.pnl = NAN;
	if (push(L))
		sa_csv_fail(&L->pos, "out of memory");
next:
	memset(&L->cur, 0, sizeof(L->cur));
	L->pos.line++;
	L->col = 0;
}

/* Orders trade indexes by entry, exit, side, return, then line: equal rows end up adjacent. */
static int by_row(const void *a, const void *b, void *base)
{
	const struct da_trade *x = (const struct da_trade *)base + *(const size_t *)a;
	const struct da_trade *y = (const struct da_trade *)base + *(const size_t *)b;

	if (x->entry != y->entry)
		return x->entry < y->entry ? -1 : 1;
	if (x->exit != y->exit)
		return x->exit < y->exit ? -1 : 1;
	if (x->side != y->side)
		return x->side < y->side ? -1 : 1;
	if (x->ret != y->ret)
		return x->ret < y->ret ? -1 : 1;
	return x->line < y->line ? -1 : (x->line > y->line);
}

/* Refuses a row that repeats an earlier one exactly (the same trade counted twice), naming
 * both lines; of several, the pair whose later line comes first. Returns 0 or -1. */
static int refuse_duplicates(const struct da_tradelog *log, char *err, size_t errlen)
{
	size_t *order = malloc((log->n ? log->n : 1) * sizeof(*order));
	size_t first = 0, second = 0;
	int rc = -1;

	if (!order) {
		sa_fmt(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < log->n; i++)
		order[i] = i;
	qsort_r(order, log->n, sizeof(*order), by_row, log->trades);
	for (size_t k = 1; k < log->n; k++) {
		const struct da_trade *x = &log->trades[order[k - 1]], *y = &log->trades[order[k]];
		if (x->entry != y->entry || x->exit != y->exit || x->side != y->side || x->ret != y->ret)
			continue;
		if (!second || y->line < second) {
			first = x->line;
			second = y->line;
		}
	}
	if (second) {
		sa_fmt(err, errlen, "line %zu: the same trade as line %zu (entry, exit, side and return "
		       "all equal); a trade is listed once", second, first);
		goto out;
	}
	rc = 0;
out:
	free(order);
	return rc;
}

/* Refuses returns whose compounded equity would not be a finite number: the sum of log(1 + r)
 * bounds the equity whatever order the trades compound in. Returns 0 or -1. */
static int refuse_unbounded(const struct da_tradelog *tl, char *err, size_t errlen)
{
	double logsum = 0.0;

	for (size_t i = 0; i < tl->n; i++) {
		logsum += log1p(tl->trades[i].ret);
		if (!(logsum < log(1e300))) {
			sa_fmt(err, errlen, "line %zu: return %g takes the compounded equity past 1e300; "
			       "returns are fractions (0.01 is 1 %%)", tl->trades[i].line,
			       tl->trades[i].ret);
			return -1;
		}
	}
	return 0;
}

int da_tradelog_parse(const char *buf, size_t len, struct da_tradelog *log, char *err, size_t errlen)
{
	struct load L = { .log = log, .pos = { .line = 1, .err = err, .errlen = errlen } };
	int rc = -1;

	memset(log, 0, sizeof(*log));
	if (sa_csv_parse_all(buf, len, on_field, on_row, &L.pos))
		goto out;
	if (L.pos.line == 1) {
		sa_fmt(err, errlen, "the file is empty (want a header entry_time,exit_time,side,return)");
		goto out;
	}
	if (refuse_duplicates(log, err, errlen) < 0 || refuse_unbounded(log, err, errlen) < 0)
		goto out;
	rc = 0;
out:
	if (rc) {
		char keep[sizeof(log->columns)];

		memcpy(keep, log->columns, sizeof(keep));
		da_tradelog_release(log);
		memcpy(log->columns, keep, sizeof(keep));
	}
	return rc;
}

int da_tradelog_load(const char *path, struct da_tradelog *log, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len;
	enum sa_read_status st;
	int rc;

	memset(log, 0, sizeof(*log));
	st = sa_read_file(path, SA_UPLOAD_CAP, &buf, &len);
	if (st != SA_READ_OK) {
		sa_read_strerror(st, path, SA_UPLOAD_CAP, err, errlen);
		return -1;
	}
	rc = da_tradelog_parse(buf, len, log, err, errlen);
	free(buf);
	return rc;
}

void da_tradelog_release(struct da_tradelog *log)
{
	free(log->trades);
	memset(log, 0, sizeof(*log));
}
