/* ohlcv.c - loads and validates an OHLCV file with libcsv, one column array per field: the
 * layouts users have (header synonyms, headerless klines, ',' ';' or tab, gzip), one series. */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "csvfield.h"
#include "fileio.h"
#include "gunzip.h"
#include "msg.h"
#include "ohlcv.h"
#include "ohlcv_shape.h"
#include "timeutil.h"

#define OHLCV_COLS_MAX 64  /* widest row accepted */
#define ROLE_NONE (-1)

#define WANT "a header naming time, open, high, low, close (and volume), or headerless klines"

static const char *const field_names[SA_BAR_FIELDS] = { "time", "open", "high", "low", "close",
							 "volume", "adj close" };

/* Header names a field goes by, compared case-insensitively after trimming spaces. */
static const char *const synonyms[SA_BAR_FIELDS][8] = {
	[SA_BAR_TIME] = { "time", "timestamp", "date", "datetime", "open_time", "open time",
			  "date_time", NULL },
	[SA_BAR_OPEN] = { "open", "o", NULL },
	[SA_BAR_HIGH] = { "high", "h", NULL },
	[SA_BAR_LOW] = { "low", "l", NULL },
	[SA_BAR_CLOSE] = { "close", "c", NULL },
	[SA_BAR_VOLUME] = { "volume", "vol", NULL },
	[SA_BAR_ADJ] = { "adj close", "adj_close", "adjclose", "adjusted close",
			 "adjusted_close", NULL },
};

struct load {
	struct sa_csv_pos pos;  /* first: the shared driver passes &pos as data */
	struct sa_ohlcv *s;
	bool adjusted;
	size_t cap;        /* allocated rows */
	int col;           /* field index within the row */
	int role[OHLCV_COLS_MAX];  /* column -> enum sa_ohlcv_field, or ROLE_NONE */
	bool have[SA_BAR_FIELDS];
	bool decided;      /* the first line was read as a header or as a bar */
	int64_t t;         /* this row's values, committed at end of row */
	double v[SA_BAR_FIELDS];
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
	sa_hint_hugepages(t + L->cap, (cap - L->cap) * sizeof(*t));
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		double *p = realloc(*cols[i], cap * sizeof(double));

		if (!p)
			return -1;
		*cols[i] = p;
		sa_hint_hugepages(p + L->cap, (cap - L->cap) * sizeof(double));
	}
	L->cap = cap;
	return 0;
}

/* The field a header name stands for, or ROLE_NONE. */
static int role_of(const char *name)
{
	size_t len;

	while (*name == ' ')
		name++;
	len = strlen(name);
	while (len && name[len - 1] == ' ')
		len--;
	for (int f = 0; f < SA_BAR_FIELDS; f++)
		for (int k = 0; synonyms[f][k]; k++)
			if (strlen(synonyms[f][k]) == len && !strncasecmp(name, synonyms[f][k], len))
				return f;
	return ROLE_NONE;
}

static void on_header_field(struct load *L, const char *name)
{
	int f = role_of(name);
	struct sa_ohlcv_format *fmt = &L->s->fmt;

	L->role[L->col] = f;
	if (f == ROLE_NONE)
		return;
	if (L->have[f])
		return sa_csv_fail(&L->pos, "columns '%s' and '%s' both name the %s (keep one)",
				   fmt->names[f], name, field_names[f]);
	L->have[f] = true;
	snprintf(fmt->names[f], sizeof(fmt->names[f]), "%s", name);
}

/* A first line whose first field is a time is a headerless kline file's first bar. */
static void decide_layout(struct load *L, const char *first)
{
	int64_t t;
	enum sa_time_form form;

	L->decided = true;
	L->s->fmt.header = sa_time_parse_bar(first, &t, &form, &L->tc) != 0;
	if (L->s->fmt.header)
		return;
	for (int c = 0; c < OHLCV_COLS_MAX; c++)
		L->role[c] = c <= SA_BAR_VOLUME ? c : ROLE_NONE;
}

static void on_value(struct load *L, int f, const char *text)
{
	enum sa_time_form form;

	if (f == SA_BAR_TIME) {
		if (sa_time_parse_bar(text, &L->t, &form, &L->tc))
			sa_csv_fail(&L->pos, "'%s' is not a time (want ISO-8601 like 2024-01-02T00:00:00Z, "
				    "2024-01-02, or epoch seconds or milliseconds; whole seconds)", text);
		else if (L->s->n == 0)
			L->s->fmt.time_form = (int)form;
	} else if (sa_csv_field_number(text, &L->v[f])) {
		sa_csv_fail(&L->pos, "%s '%s' is not a finite number", field_names[f], text);
	}
}

static void on_field(void *field, size_t len, void *data)
{
	struct load *L = data;
	char text[SA_CSV_FIELD_MAX + 1];

	if (L->pos.failed)
		return;
	if (L->col >= OHLCV_COLS_MAX)
		return sa_csv_fail(&L->pos, "more than %d fields", OHLCV_COLS_MAX);
	if (sa_csv_field_text(&L->pos, field, len, text, sizeof(text)))
		return sa_csv_fail(&L->pos, "field %d is too long or holds a NUL byte", L->col + 1);
	if (!L->decided)
		decide_layout(L, text);
	if (L->pos.line == 1 && L->s->fmt.header)
		on_header_field(L, text);
	else if (L->role[L->col] != ROLE_NONE)
		on_value(L, L->role[L->col], text);
	L->col++;
}

/* The header must name the time and the four prices; ADJUSTED needs the adj close. */
static void check_header(struct load *L)
{
	struct sa_ohlcv_format *fmt = &L->s->fmt;

	for (int f = SA_BAR_TIME; f <= SA_BAR_CLOSE; f++)
		if (!L->have[f])
			return sa_csv_fail(&L->pos, "no %s column in the header (want %s)", field_names[f],
					   WANT);
	if (L->adjusted && !L->have[SA_BAR_ADJ])
		return sa_csv_fail(&L->pos, "ADJUSTED=1 but the header has no 'Adj Close' column");
	fmt->volume = L->have[SA_BAR_VOLUME];
	fmt->adjusted = L->adjusted;
}

static void check_row(struct load *L)
{
	const double *v = L->v;
	struct sa_ohlcv *s = L->s;
	char now[21], prev[21];

	for (int c = SA_BAR_OPEN; c <= SA_BAR_CLOSE; c++)
		if (!(v[c] > 0))
			return sa_csv_fail(&L->pos, "%s must be a finite positive price", field_names[c]);
	if (s->fmt.volume && !(v[SA_BAR_VOLUME] >= 0))
		return sa_csv_fail(&L->pos, "volume must not be negative");
	if (v[SA_BAR_HIGH] < v[SA_BAR_OPEN] || v[SA_BAR_HIGH] < v[SA_BAR_CLOSE])
		return sa_csv_fail(&L->pos, "high %g is below the open or the close (are the columns in the "
				   "order the header says?)", v[SA_BAR_HIGH]);
	if (v[SA_BAR_LOW] > v[SA_BAR_OPEN] || v[SA_BAR_LOW] > v[SA_BAR_CLOSE])
		return sa_csv_fail(&L->pos, "low %g is above the open or the close (are the columns in the "
				   "order the header says?)", v[SA_BAR_LOW]);
	if (L->adjusted && !(v[SA_BAR_ADJ] > 0))
		return sa_csv_fail(&L->pos, "adj close must be a finite positive price");
	if (s->n > 0 && L->t == s->t[s->n - 1])
		return sa_csv_fail(&L->pos, "time %s repeats the previous bar's (remove the duplicate)",
				   sa_time_format(L->t, now));
	if (s->n > 0 && L->t < s->t[s->n - 1])
		return sa_csv_fail(&L->pos, "time %s comes before the previous bar's %s (sort the file "
				   "by time, oldest first)", sa_time_format(L->t, now),
				   sa_time_format(s->t[s->n - 1], prev));
}

static void commit_row(struct load *L)
{
	struct sa_ohlcv *s = L->s;
	/* adj close / close per bar: a positive factor keeps high >= open, close >= low */
	double k = L->adjusted ? L->v[SA_BAR_ADJ] / L->v[SA_BAR_CLOSE] : 1.0;

	if (s->n == L->cap && grow(L))
		return sa_csv_fail(&L->pos, "out of memory");
	s->t[s->n] = L->t;
	s->open[s->n] = L->adjusted ? L->v[SA_BAR_OPEN] * k : L->v[SA_BAR_OPEN];
	s->high[s->n] = L->adjusted ? L->v[SA_BAR_HIGH] * k : L->v[SA_BAR_HIGH];
	s->low[s->n] = L->adjusted ? L->v[SA_BAR_LOW] * k : L->v[SA_BAR_LOW];
	s->close[s->n] = L->adjusted ? L->v[SA_BAR_CLOSE] * k : L->v[SA_BAR_CLOSE];
	s->volume[s->n] = s->fmt.volume ? L->v[SA_BAR_VOLUME] : NAN;
	s->n++;
}

/* The first bar of a headerless file fixes the row width. */
static void first_bar_shape(struct load *L)
{
	struct sa_ohlcv_format *fmt = &L->s->fmt;

	if (L->col < 5)
		return sa_csv_fail(&L->pos, "%d fields; a headerless kline row needs time, open, high, "
				   "low, close (and volume)", L->col);
	if (L->adjusted)
		return sa_csv_fail(&L->pos, "ADJUSTED=1 needs a header with an 'Adj Close' column");
	fmt->columns = L->col;
	fmt->volume = L->col > SA_BAR_VOLUME;
}

static void on_row(int c, void *data)
{
	struct load *L = data;
	struct sa_ohlcv_format *fmt = &L->s->fmt;

	(void)c;
	if (L->pos.failed)
		goto next;
	if (L->pos.line == 1 && fmt->header) {
		fmt->columns = L->col;
		check_header(L);
		goto next;
	}
	if (L->pos.line == 1)
		first_bar_shape(L);
	else if (L->col != fmt->columns)
		sa_csv_fail(&L->pos, "%d fields where the %s has %d", L->col,
			    fmt->header ? "header" : "first row", fmt->columns);
	if (!L->pos.failed)
		check_row(L);
	if (!L->pos.failed)
		commit_row(L);
next:
	L->pos.line++;
	L->col = 0;
}

/* The delimiter the first line uses most (outside quotes): ',', ';' or a tab. */
static char sniff_delim(const char *buf, size_t len)
{
	size_t n[3] = { 0 };
	const char cand[3] = { ',', ';', '\t' };
	bool quoted = false;
	int best = 0;

	for (size_t i = 0; i < len && buf[i] != '\n'; i++) {
		if (buf[i] == '"')
			quoted = !quoted;
		for (int k = 0; k < 3 && !quoted; k++)
			n[k] += buf[i] == cand[k];
	}
	for (int k = 1; k < 3; k++)
		if (n[k] > n[best])
			best = k;
	return cand[best];
}

static int parse_text(const char *buf, size_t len, const struct sa_ohlcv_opts *opts,
		      struct sa_ohlcv *s, char *err, size_t errlen)
{
	struct load L = { .s = s, .pos = { .line = 1, .err = err, .errlen = errlen } };

	L.adjusted = opts && opts->adjusted;
	/* a byte-order mark, as spreadsheets write it */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) {
		buf += 3;
		len -= 3;
	}
	s->fmt.delim = sniff_delim(buf, len);
	if (sa_csv_parse_delim(buf, len, s->fmt.delim, on_field, on_row, &L.pos))
		return -1;
	if (L.pos.line == 1) {
		sa_fmt(err, errlen, "the file is empty (want %s)", WANT);
		return -1;
	}
	if (s->n < 2) {
		sa_fmt(err, errlen, "at least 2 bars are needed, found %zu", s->n);
		return -1;
	}
	return sa_ohlcv_shape(s, s->fmt.header ? 2 : 1, err, errlen);
}

int sa_ohlcv_parse_opts(const char *buf, size_t len, const struct sa_ohlcv_opts *opts,
			struct sa_ohlcv *s, char *err, size_t errlen)
{
	char *plain = NULL;
	size_t plain_len = 0;
	char why[256];
	int rc = -1;

	memset(s, 0, sizeof(*s));
	if (sa_is_gzip(buf, len)) {
		if (sa_gunzip(buf, len, SA_DATA_CAP, &plain, &plain_len, why, sizeof(why))) {
			sa_fmt(err, errlen, "gzip: %s", why);
			goto out;
		}
		buf = plain;
		len = plain_len;
	}
	rc = parse_text(buf, len, opts, s, err, errlen);
	s->fmt.gzip = plain != NULL;
out:
	free(plain);
	if (rc)
		sa_ohlcv_release(s);
	return rc;
}

int sa_ohlcv_parse(const char *buf, size_t len, struct sa_ohlcv *s, char *err, size_t errlen)
{
	return sa_ohlcv_parse_opts(buf, len, NULL, s, err, errlen);
}

int sa_ohlcv_load_opts(const char *path, const struct sa_ohlcv_opts *opts, struct sa_ohlcv *s,
		       char *err, size_t errlen)
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
	rc = sa_ohlcv_parse_opts(buf, len, opts, s, err, errlen);
	free(buf);
	return rc;
}

int sa_ohlcv_load(const char *path, struct sa_ohlcv *s, char *err, size_t errlen)
{
	return sa_ohlcv_load_opts(path, NULL, s, err, errlen);
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
