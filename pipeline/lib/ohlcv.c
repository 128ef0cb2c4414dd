/* ohlcv.c - loads and validates an OHLCV csv with libcsv, one column array per field. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvfield.h"
#include "fileio.h"
#include "msg.h"
#include "ohlcv.h"
#include "timeutil.h"

enum { COL_TIME, COL_OPEN, COL_HIGH, COL_LOW, COL_CLOSE, COL_VOLUME, NCOLS };

#define WANT_HEADER "time,open,high,low,close,volume"

static const char *const col_names[NCOLS] = { "time", "open", "high", "low", "close", "volume" };

struct load {
	struct sa_csv_pos pos;  /* first: the shared driver passes &pos as data */
	struct sa_ohlcv *s;
	size_t cap;        /* allocated rows */
	int col;           /* field index within the row */
	int64_t t;         /* this row's values, committed at end of row */
	double v[NCOLS];
	struct sa_time_cache tc;
};


static int grow(struct load *L)
{
	struct sa_ohlcv *s = L->s;
	size_t cap = L->cap ? L->cap * 2 : 4096;
	double **cols[] = { &s->open, &s->high, &s->low, &s->close, &s->volume };
	int64_t *t = realloc(s->t, cap * sizeof(*t));

	if (!t)
		return -1;
	s->t = t;
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		double *p = realloc(*cols[i], cap * sizeof(double));

		if (!p)
			return -1;
		*cols[i] = p;
	}
	L->cap = cap;
	return 0;
}

static void on_header_field(struct load *L, const char *f, size_t len)
{
	if (L->col >= NCOLS) {
		sa_csv_fail(&L->pos, "unexpected extra column in the header (want %s)", WANT_HEADER);
		return;
	}
	if (strlen(col_names[L->col]) != len || memcmp(f, col_names[L->col], len))
		sa_csv_fail(&L->pos, "header column %d should be '%s' (want %s)", L->col + 1, col_names[L->col],
		     WANT_HEADER);
}

static void on_field(void *field, size_t len, void *data)
{
	struct load *L = data;
	char text[SA_CSV_FIELD_MAX + 1];

	if (L->pos.failed)
		return;
	if (L->pos.line == 1) {
		on_header_field(L, field, len);
		L->col++;
		return;
	}
	if (L->col >= NCOLS) {
		sa_csv_fail(&L->pos, "too many fields (want 6: %s)", WANT_HEADER);
		return;
	}
	if (sa_csv_field_text(field, len, text, sizeof(text))) {
		sa_csv_fail(&L->pos, "field '%s' is too long or holds a NUL byte", col_names[L->col]);
		return;
	}
	if (L->col == COL_TIME) {
		if (sa_time_parse_cached(text, &L->t, &L->tc))
			sa_csv_fail(&L->pos, "'%s' is not an ISO-8601 UTC timestamp (want 2024-01-01T00:00:00Z)", text);
	} else if (sa_csv_field_number(text, &L->v[L->col])) {
		sa_csv_fail(&L->pos, "%s '%s' is not a finite number", col_names[L->col], text);
	}
	L->col++;
}

static void check_row(struct load *L)
{
	const double *v = L->v;
	struct sa_ohlcv *s = L->s;
	char now[21], prev[21];

	for (int c = COL_OPEN; c <= COL_CLOSE; c++)
		if (!(v[c] > 0))
			return sa_csv_fail(&L->pos, "%s must be a finite positive price", col_names[c]);
	if (!(v[COL_VOLUME] >= 0))
		return sa_csv_fail(&L->pos, "volume must not be negative");
	if (v[COL_HIGH] < v[COL_OPEN] || v[COL_HIGH] < v[COL_CLOSE])
		return sa_csv_fail(&L->pos, "high %g is below the open or the close", v[COL_HIGH]);
	if (v[COL_LOW] > v[COL_OPEN] || v[COL_LOW] > v[COL_CLOSE])
		return sa_csv_fail(&L->pos, "low %g is above the open or the close", v[COL_LOW]);
	if (s->n > 0 && L->t <= s->t[s->n - 1])
		return sa_csv_fail(&L->pos, "time %s does not come after the previous bar's %s",
			    sa_time_format(L->t, now), sa_time_format(s->t[s->n - 1], prev));
}

static void on_row(int c, void *data)
{
	struct load *L = data;
	struct sa_ohlcv *s = L->s;

	(void)c;
	if (L->pos.failed)
		goto next;
	if (L->col != NCOLS) {
		if (L->pos.line == 1)
			sa_csv_fail(&L->pos, "the header should be %s", WANT_HEADER);
		else
			sa_csv_fail(&L->pos, "%d fields where 6 are expected (%s)", L->col, WANT_HEADER);
		goto next;
	}
	if (L->pos.line == 1)
		goto next;
	check_row(L);
	if (L->pos.failed)
		goto next;
	if (s->n == L->cap && grow(L)) {
		sa_csv_fail(&L->pos, "out of memory");
		goto next;
	}
	s->t[s->n] = L->t;
	s->open[s->n] = L->v[COL_OPEN];
	s->high[s->n] = L->v[COL_HIGH];
	s->low[s->n] = L->v[COL_LOW];
	s->close[s->n] = L->v[COL_CLOSE];
	s->volume[s->n] = L->v[COL_VOLUME];
	s->n++;
next:
	L->pos.line++;
	L->col = 0;
}

int sa_ohlcv_parse(const char *buf, size_t len, struct sa_ohlcv *s, char *err, size_t errlen)
{
	struct load L = { .s = s, .pos = { .line = 1, .err = err, .errlen = errlen } };
	int rc = -1;

	memset(s, 0, sizeof(*s));
	if (sa_csv_parse_all(buf, len, on_field, on_row, &L.pos))
		goto out;
	if (L.pos.line == 1) {
		sa_fmt(err, errlen, "the file is empty (want a header time,open,high,low,close,volume)");
		goto out;
	}
	if (s->n < 2) {
		sa_fmt(err, errlen, "at least 2 bars are needed, found %zu", s->n);
		goto out;
	}
	rc = 0;
out:
	if (rc)
		sa_ohlcv_release(s);
	return rc;
}

int sa_ohlcv_load(const char *path, struct sa_ohlcv *s, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len;
	enum sa_read_status st;
	int rc;

	memset(s, 0, sizeof(*s));
	st = sa_read_file(path, SA_DATA_CAP, &buf, &len);
	if (st != SA_READ_OK) {
		sa_read_strerror(st, path, SA_DATA_CAP, err, errlen);
		return -1;
	}
	rc = sa_ohlcv_parse(buf, len, s, err, errlen);
	free(buf);
	return rc;
}

void sa_ohlcv_release(struct sa_ohlcv *s)
{
	free(s->t);
	free(s->open);
	free(s->high);
	free(s->low);
	free(s->close);
	free(s->volume);
	memset(s, 0, sizeof(*s));
}
