/* ohlcv.c - loads and validates an OHLCV file with libcsv, one column array per field: the
 * layouts users have (header synonyms, a date and a time column joined, headerless klines and
 * MetaTrader rows, ',' ';' or tab, a title line, newest first, gzip; freqtrade's JSON through
 * ohlcv_bytes.c, its Feather through ohlcv_feather.c), one series. */
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
#include "ohlcv_bytes.h"
#include "ohlcv_feather.h"
#include "ohlcv_shape.h"
#include "ohlcv_sniff.h"
#include "timeutil.h"

#define OHLCV_COLS_MAX 64  /* widest row accepted */
#define ROLE_NONE (-1)
#define ROLE_CLOCK DA_BAR_FIELDS  /* the time of day, joined to the date column's */
#define ROLE_SWAP (DA_BAR_FIELDS + 1)  /* swap_long; ROLE_SWAP + 1 swap_short */
#define SWAP_MAX_BPS 100000.0  /* a swap column's bound, bps a year, the knobs' */

#define WANT "the layouts read are in the README's table, 'Give real data'"

static const char *const field_names[DA_BAR_FIELDS] = { "time", "open", "high", "low", "close",
							 "volume", "adj close" };

/* Header names a field goes by, compared case-insensitively after trimming spaces and <>. */
static const char *const synonyms[DA_BAR_FIELDS][9] = {
	[DA_BAR_TIME] = { "time", "timestamp", "date", "datetime", "open_time", "open time",
			  "date_time", "gmt time", NULL },
	[DA_BAR_OPEN] = { "open", "o", NULL },
	[DA_BAR_HIGH] = { "high", "h", NULL },
	[DA_BAR_LOW] = { "low", "l", NULL },
	[DA_BAR_CLOSE] = { "close", "c", NULL },
	[DA_BAR_VOLUME] = { "volume", "vol", "tickvol", "tick volume", "tick_volume", NULL },
	[DA_BAR_ADJ] = { "adj close", "adj_close", "adjclose", "adjusted close",
			 "adjusted_close", NULL },
};

struct load {
	struct sa_csv_pos pos;  /* first: the shared driver passes &pos as data */
	struct da_ohlcv *s;
	bool adjusted;
	size_t cap;        /* allocated rows */
	size_t first_line; /* the file line of the table's first line (2 after a skipped title) */
	int col;           /* field index within the row */
	int role[OHLCV_COLS_MAX];  /* column -> enum da_ohlcv_field, ROLE_CLOCK or ROLE_NONE */
	/* the first line's fields, kept until it is known to be a header or a bar */
	char first[OHLCV_COLS_MAX][SA_CSV_FIELD_MAX + 1];
	char ttext[SA_CSV_FIELD_MAX + 1], ctext[SA_CSV_FIELD_MAX + 1];  /* this row's time */
	bool have[DA_BAR_FIELDS];
	bool newest_first; /* the second bar came before the first */
	bool yfinance;     /* yfinance's header: lines 2 and 3 after the first are no bars */
	char index_name[SA_CSV_FIELD_MAX + 1];  /* yfinance's third line: the time column's name */
	int64_t t;         /* this row's values, committed at end of row */
	double v[DA_BAR_FIELDS];
	double swap[2];    /* swap_long, swap_short */
	struct sa_time_cache tc;
};

static int grow(struct load *L)
{
	struct da_ohlcv *s = L->s;
	size_t cap = L->cap ? L->cap * 2 : 4096;
	double **cols[] = { &s->open, &s->high, &s->low, &s->close, &s->volume, &s->swap_long,
			    &s->swap_short };
	size_t n_cols = s->fmt.swap ? 7 : 5;
	int64_t *t = realloc(s->t, cap * sizeof(*t));

	if (!t)
		return -1;
	s->t = t;
	sa_hint_hugepages(t + L->cap, (cap - L->cap) * sizeof(*t));
	for (size_t i = 0; i < n_cols; i++) {
		double *p = realloc(*cols[i], cap * sizeof(double));

		if (!p)
			return -1;
		*cols[i] = p;
		sa_hint_hugepages(p + L->cap, (cap - L->cap) * sizeof(double));
	}
	L->cap = cap;
	return 0;
}

/* name without the spaces around it and MetaTrader's <>, into out. */
static void clean_name(const char *name, char out[SA_CSV_FIELD_MAX + 1])
{
	size_t len;

	while (*name == ' ')
		name++;
	len = strlen(name);
	while (len && name[len - 1] == ' ')
		len--;
	if (len >= 2 && name[0] == '<' && name[len - 1] == '>') {
		name++;
		len -= 2;
	}
	memcpy(out, name, len);
	out[len] = '\0';
}

/* The field a (clean) header name stands for, or ROLE_NONE. A "volume X" column (X an asset,
 * as CryptoDataDownload names them) is a volume too. */
static int role_of(const char *name)
{
	for (int f = 0; f < DA_BAR_FIELDS; f++)
		for (int k = 0; synonyms[f][k]; k++)
			if (!strcasecmp(name, synonyms[f][k]))
				return f;
	if (!strncasecmp(name, "volume ", 7) && name[7])
		return DA_BAR_VOLUME;
	return ROLE_NONE;
}

/* How much a volume column is preferred, lower first: volume/vol, the first "volume X" (the
 * base asset: CryptoDataDownload writes it before the quote's), tick volume. */
static int volume_rank(const char *name)
{
	if (!strcasecmp(name, "volume") || !strcasecmp(name, "vol"))
		return 0;
	return strncasecmp(name, "volume ", 7) ? 2 : 1;
}

static bool is_date_name(const char *name)
{
	return !strcasecmp(name, "date") || !strcasecmp(name, "day");
}

/* A date column and a "time" column: the time is the two joined. Returns true when joined. */
static bool join_time(struct load *L, int a, int b, const char *na, const char *nb)
{
	struct da_ohlcv_format *fmt = &L->s->fmt;
	int date = is_date_name(na) && !strcasecmp(nb, "time") ? a :
		   is_date_name(nb) && !strcasecmp(na, "time") ? b : -1;
	int clock = date == a ? b : a;

	if (date < 0)
		return false;
	L->role[date] = DA_BAR_TIME;
	L->role[clock] = ROLE_CLOCK;
	snprintf(fmt->names[DA_BAR_TIME], sizeof(fmt->names[0]), "%s", L->first[date]);
	snprintf(fmt->clock_name, sizeof(fmt->clock_name), "%s", L->first[clock]);
	fmt->joined = true;
	return true;
}

/* Picks the volume column among cols[0..n) by rank; the first other one is said. */
static void pick_volume(struct load *L, const int *cols, int n, char clean[][SA_CSV_FIELD_MAX + 1])
{
	struct da_ohlcv_format *fmt = &L->s->fmt;
	int best = -1;

	for (int k = 0; k < n; k++) {
		if (best < 0 || volume_rank(clean[cols[k]]) < volume_rank(clean[best]))
			best = cols[k];
		L->role[cols[k]] = ROLE_NONE;
	}
	if (best < 0)
		return;
	for (int k = 0; k < n && !fmt->volume_left[0]; k++)
		if (cols[k] != best)
			snprintf(fmt->volume_left, sizeof(fmt->volume_left), "%s", L->first[cols[k]]);
	L->role[best] = DA_BAR_VOLUME;
	L->have[DA_BAR_VOLUME] = true;
	snprintf(fmt->names[DA_BAR_VOLUME], sizeof(fmt->names[0]), "%s", L->first[best]);
}

/* A funding column (funding, funding_rate, fundingRate) says the bars are a perpetual's. */
static void note_funding(struct load *L, char clean[][SA_CSV_FIELD_MAX + 1])
{
	struct da_ohlcv_format *fmt = &L->s->fmt;

	for (int c = 0; c < fmt->columns && !fmt->perpetual[0]; c++)
		if (!strcasecmp(clean[c], "funding") || !strcasecmp(clean[c], "funding_rate") ||
		    !strcasecmp(clean[c], "fundingrate") || !strcasecmp(clean[c], "funding rate"))
			snprintf(fmt->perpetual, sizeof fmt->perpetual, "a funding column, '%.40s'",
				 L->first[c]);
}

/* swap_long and swap_short (or "swap long", "swaplong": MetaTrader's symbol sheet), both or
 * neither: the FX rollover by bar. */
static void note_swap(struct load *L, char clean[][SA_CSV_FIELD_MAX + 1])
{
	static const char *const side[2] = { "long", "short" };
	struct da_ohlcv_format *fmt = &L->s->fmt;
	int at[2] = { -1, -1 };

	for (int c = 0; c < fmt->columns && !L->pos.failed; c++)
		for (int k = 0; k < 2; k++) {
			const char *x = clean[c];

			if (strncasecmp(x, "swap", 4))
				continue;
			x += 4 + (x[4] == '_' || x[4] == ' ');
			if (strcasecmp(x, side[k]))
				continue;
			if (at[k] >= 0)
				return sa_csv_fail(&L->pos, "columns '%s' and '%s' both name the swap_%s "
						   "(keep one)", L->first[at[k]], L->first[c], side[k]);
			at[k] = c;
		}
	if (L->pos.failed || (at[0] < 0 && at[1] < 0))
		return;
	if (at[0] < 0 || at[1] < 0)
		return sa_csv_fail(&L->pos, "a '%s' column without a swap_%s one: the FX rollover "
				   "columns come as a pair, bps a year by side", L->first[at[0] < 0 ? at[1] : at[0]],
				   side[at[0] < 0 ? 0 : 1]);
	L->role[at[0]] = ROLE_SWAP;
	L->role[at[1]] = ROLE_SWAP + 1;
	fmt->swap = true;
}

/* A header of trades: a price and an amount (a trade's size), no open or close. */
static bool names_trades(char clean[][SA_CSV_FIELD_MAX + 1], int n)
{
	static const char *const sizes[] = { "amount", "qty", "quantity", "size", "vol", "volume" };
	bool price = false, size = false;

	for (int c = 0; c < n; c++) {
		price |= !strcmp(clean[c], "price");
		for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
			size |= !strcmp(clean[c], sizes[k]);
	}
	return price && size;
}

/* The header's roles: one column a field (a date and a time column joined; the volume
 * chosen by rank), then the time and the four prices must be there. */
static void resolve_header(struct load *L)
{
	struct da_ohlcv_format *fmt = &L->s->fmt;
	char clean[OHLCV_COLS_MAX][SA_CSV_FIELD_MAX + 1];
	int seen[DA_BAR_FIELDS], times[2], vols[OHLCV_COLS_MAX], n_times = 0, n_vols = 0;

	for (int f = 0; f < DA_BAR_FIELDS; f++)
		seen[f] = -1;
	if (L->yfinance)  /* "Price" heads the fields' names; the time's is on the third line */
		memcpy(L->first[0], L->index_name, sizeof(L->first[0]));
	for (int c = 0; c < fmt->columns && !L->pos.failed; c++) {
		int f;

		clean_name(L->first[c], clean[c]);
		f = L->role[c] = role_of(clean[c]);
		if (f == DA_BAR_VOLUME)
			vols[n_vols++] = c;
		else if (f == DA_BAR_TIME && n_times == 2)
			sa_csv_fail(&L->pos, "columns '%s', '%s' and '%s' all name the time (keep one)",
				    L->first[times[0]], L->first[times[1]], L->first[c]);
		else if (f == DA_BAR_TIME)
			times[n_times++] = c;
		else if (f != ROLE_NONE && seen[f] >= 0)
			sa_csv_fail(&L->pos, "columns '%s' and '%s' both name the %s (keep one)",
				    L->first[seen[f]], L->first[c], field_names[f]);
		if (f != ROLE_NONE)
			seen[f] = c;
	}
	if (L->pos.failed)
		return;
	if (n_times == 0 && (!clean[0][0] || !strcasecmp(clean[0], "unnamed: 0")) &&
	    L->role[0] == ROLE_NONE) {
		/* pandas' to_csv() writes its index first, its header field empty (or, read back and
		 * written again, "Unnamed: 0"): the time when it parses as one (read_time says) */
		times[n_times++] = 0;
		L->role[0] = DA_BAR_TIME;
		fmt->index_time = true;
	}
	note_funding(L, clean);
	note_swap(L, clean);
	if (L->pos.failed)
		return;
	if (n_times == 2 && !join_time(L, times[0], times[1], clean[times[0]], clean[times[1]]))
		return sa_csv_fail(&L->pos, "columns '%s' and '%s' both name the time (keep one, or "
				   "name them date and time to join them)", L->first[times[0]],
				   L->first[times[1]]);
	if (n_times == 1)
		snprintf(fmt->names[DA_BAR_TIME], sizeof(fmt->names[0]), "%s", L->first[times[0]]);
	L->have[DA_BAR_TIME] = n_times > 0;
	pick_volume(L, vols, n_vols, clean);
	for (int f = DA_BAR_OPEN; f < DA_BAR_FIELDS; f++)
		if (f != DA_BAR_VOLUME && seen[f] >= 0) {
			L->have[f] = true;
			snprintf(fmt->names[f], sizeof(fmt->names[0]), "%s", L->first[seen[f]]);
		}
	if (!L->have[DA_BAR_TIME] && sa_time_is_slashed(L->first[0]))
		return sa_csv_fail(&L->pos, "'%s' is ambiguous, day or month first (write the date "
				   "as 2024-01-02)", L->first[0]);
	if (!L->have[DA_BAR_OPEN] && !L->have[DA_BAR_CLOSE] && names_trades(clean, fmt->columns))
		return sa_csv_fail(&L->pos, DA_TRADES_NOT_BARS, "a price and an amount a row");
	for (int f = DA_BAR_TIME; f <= DA_BAR_CLOSE; f++)
		if (!L->have[f])
			return sa_csv_fail(&L->pos, "no %s column in the header (%s)", field_names[f], WANT);
	if (L->adjusted && !L->have[DA_BAR_ADJ])
		return sa_csv_fail(&L->pos, "ADJUSTED=1 but the header has no 'Adj Close' column");
	fmt->volume = L->have[DA_BAR_VOLUME];
	fmt->adjusted = L->adjusted;
}

/* "13:00" or "13:00:00": a time of day, as MetaTrader writes it beside the date. */
static bool is_clock(const char *s)
{
	size_t n = strlen(s);

	return (n == 5 || n == 8) && isdigit((unsigned char)s[0]) && isdigit((unsigned char)s[1]) &&
	       s[2] == ':' && isdigit((unsigned char)s[3]) && isdigit((unsigned char)s[4]) &&
	       (n == 5 || (s[5] == ':' && isdigit((unsigned char)s[6]) && isdigit((unsigned char)s[7])));
}

static void on_value(struct load *L, int f, const char *text)
{
	if (f == DA_BAR_TIME)
		memcpy(L->ttext, text, sizeof(L->ttext));
	else if (f == ROLE_CLOCK)
		memcpy(L->ctext, text, sizeof(L->ctext));
	else if (f >= ROLE_SWAP) {
		if (sa_csv_field_number(text, &L->swap[f - ROLE_SWAP]))
			sa_csv_fail(&L->pos, "swap_%s '%s' is not a finite number (the FX rollover, bps "
				    "a year of the notional, a value every bar)",
				    f == ROLE_SWAP ? "long" : "short", text);
	} else if (sa_csv_field_number(text, &L->v[f]))
		sa_csv_fail(&L->pos, "%s '%s' is not a finite number", field_names[f], text);
}

/* A headerless file's first bar fixes its shape: klines (time, o, h, l, c[, v], ...), or
 * MetaTrader's rows (a date alone, a time of day, o, h, l, c[, v]). */
static void headerless(struct load *L)
{
	struct da_ohlcv_format *fmt = &L->s->fmt;
	bool mt = strlen(L->first[0]) == 10 && L->col > 1 && is_clock(L->first[1]);
	int skip = mt ? 1 : 0;

	fmt->layout = mt ? DA_LAYOUT_METATRADER : DA_LAYOUT_KLINES;
	fmt->joined = mt;
	for (int c = 0; c < OHLCV_COLS_MAX; c++)
		L->role[c] = c <= DA_BAR_VOLUME + skip ? c - skip : ROLE_NONE;
	L->role[0] = DA_BAR_TIME;
	if (mt)
		L->role[1] = ROLE_CLOCK;
	if (!mt && L->col == 3)  /* Kraken's trade history: time, price, volume */
		return sa_csv_fail(&L->pos, DA_TRADES_NOT_BARS, "time, price, amount a row, as "
				   "Kraken's trade history");
	if (L->col < 5 + skip)
		return sa_csv_fail(&L->pos, "%d fields; a headerless %s row needs %stime, open, high, "
				   "low, close (and volume)", L->col, mt ? "MetaTrader" : "kline",
				   mt ? "date, " : "");
	if (L->adjusted)
		return sa_csv_fail(&L->pos, "ADJUSTED=1 needs a header with an 'Adj Close' column");
	fmt->columns = L->col;
	fmt->volume = L->col > DA_BAR_VOLUME + skip;
	for (int c = 0; c < L->col && !L->pos.failed; c++)
		if (L->role[c] != ROLE_NONE)
			on_value(L, L->role[c], L->first[c]);
}

/* The table's first line: a header, or, when its first field is already a time, a bar. */
static void first_line(struct load *L)
{
	int64_t t;
	enum sa_time_form form;
	struct da_ohlcv_format *fmt = &L->s->fmt;

	fmt->header = sa_time_parse_bar(L->first[0], &t, &form, &L->tc) != 0;
	fmt->header_rows = !fmt->header ? 0 : L->yfinance ? 3 : 1;
	fmt->columns = L->col;
	if (fmt->header)
		resolve_header(L);
	else
		headerless(L);
}

/* Lines 2 and 3 of yfinance's header. */
static bool yfinance_row(const struct load *L)
{
	return L->yfinance && L->pos.line > L->first_line && L->pos.line <= L->first_line + 2;
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
		return sa_csv_fail(&L->pos, "field %d is longer than %d bytes or holds a NUL byte "
				   "(is this a CSV file?)", L->col + 1, SA_CSV_FIELD_MAX);
	if (L->pos.line == L->first_line)
		memcpy(L->first[L->col], text, sizeof(text));
	else if (yfinance_row(L))
		;  /* the Ticker and the index's name: no bar */
	else if (L->role[L->col] != ROLE_NONE)
		on_value(L, L->role[L->col], text);
	L->col++;
}

/* pandas writes a RangeIndex as 0, 1, 2: row numbers, never epoch times. */
static bool index_is_number(enum sa_time_form form)
{
	return form == SA_TIME_EPOCH_S || form == SA_TIME_EPOCH_MS || form == SA_TIME_EPOCH_US;
}

/* This row's time from its text: the date and time-of-day columns joined when there are two. */
static void read_time(struct load *L)
{
	struct da_ohlcv_format *fmt = &L->s->fmt;
	char joined[2 * SA_CSV_FIELD_MAX + 2];
	enum sa_time_form form;

	if (fmt->joined) {
		snprintf(joined, sizeof(joined), "%s %s", L->ttext, L->ctext);
		if (strlen(L->ttext) != 10 || !L->ctext[0] || strlen(joined) > SA_CSV_FIELD_MAX ||
		    sa_time_parse_bar(joined, &L->t, &form, &L->tc))
			return sa_csv_fail(&L->pos, "date '%s' and time '%s' make no time (want a date "
					   "like 2024.01.02 and a time of day like 13:00:00)",
					   L->ttext, L->ctext);
	} else if (sa_time_is_slashed(L->ttext)) {
		return sa_csv_fail(&L->pos, "'%s' is ambiguous, day or month first (write the date "
				   "as 2024-01-02)", L->ttext);
	} else if (fmt->index_time && (sa_time_parse_bar(L->ttext, &L->t, &form, &L->tc) ||
				       index_is_number(form))) {
		return sa_csv_fail(&L->pos, "'%s' in the first column, unnamed (pandas' index), is not "
				   "a time (write the frame with its DatetimeIndex, or name the time "
				   "column)", L->ttext);
	} else if (sa_time_parse_bar(L->ttext, &L->t, &form, &L->tc)) {
		return sa_csv_fail(&L->pos, "'%s' is not a time (write 2024-01-02T13:00:00Z or epoch "
				   "seconds, in whole seconds)", L->ttext);
	}
	if (L->s->n == 0)
		fmt->time_form = (int)form;
}

/* Bars strictly oldest first, or strictly newest first (reversed at the end). */
static void check_order(struct load *L)
{
	const struct da_ohlcv *s = L->s;
	char now[21], prev[21];
	int64_t last = s->n ? s->t[s->n - 1] : 0;

	if (s->n == 0)
		return;
	if (L->t == last)
		return sa_csv_fail(&L->pos, "time %s repeats the previous bar's (remove the duplicate)",
				   sa_time_format(L->t, now));
	if (s->n == 1 && L->t < last)
		L->newest_first = true;
	else if (!L->newest_first && L->t < last)
		return sa_csv_fail(&L->pos, "time %s comes before the previous bar's %s (sort the file "
				   "by time, oldest first)", sa_time_format(L->t, now),
				   sa_time_format(last, prev));
	else if (L->newest_first && L->t > last)
		return sa_csv_fail(&L->pos, "time %s comes after the previous bar's %s, where the rows "
				   "before run newest first (sort the file by time)",
				   sa_time_format(L->t, now), sa_time_format(last, prev));
}

static void check_row(struct load *L)
{
	const double *v = L->v;
	struct da_ohlcv *s = L->s;

	for (int c = DA_BAR_OPEN; c <= DA_BAR_CLOSE; c++)
		if (!(v[c] > 0))
			return sa_csv_fail(&L->pos, "%s must be a finite positive price", field_names[c]);
	if (s->fmt.volume && !(v[DA_BAR_VOLUME] >= 0))
		return sa_csv_fail(&L->pos, "volume must not be negative");
	if (v[DA_BAR_HIGH] < v[DA_BAR_OPEN] || v[DA_BAR_HIGH] < v[DA_BAR_CLOSE])
		return sa_csv_fail(&L->pos, "high %g is below the open or the close (are the columns in the "
				   "order the header says?)", v[DA_BAR_HIGH]);
	if (v[DA_BAR_LOW] > v[DA_BAR_OPEN] || v[DA_BAR_LOW] > v[DA_BAR_CLOSE])
		return sa_csv_fail(&L->pos, "low %g is above the open or the close (are the columns in the "
				   "order the header says?)", v[DA_BAR_LOW]);
	if (L->adjusted && !(v[DA_BAR_ADJ] > 0))
		return sa_csv_fail(&L->pos, "adj close must be a finite positive price");
	for (int k = 0; k < 2 && s->fmt.swap; k++)
		if (fabs(L->swap[k]) > SWAP_MAX_BPS)
			return sa_csv_fail(&L->pos, "swap_%s %g is beyond %g bps a year either way (the "
					   "columns hold bps a year of the notional: convert MetaTrader's "
					   "points first, the README's 'Costs that fit the market')",
					   k ? "short" : "long", L->swap[k], SWAP_MAX_BPS);
	check_order(L);
}

static void commit_row(struct load *L)
{
	struct da_ohlcv *s = L->s;
	/* adj close / close per bar: a positive factor keeps high >= open, close >= low */
	double k = L->adjusted ? L->v[DA_BAR_ADJ] / L->v[DA_BAR_CLOSE] : 1.0;

	if (s->n == L->cap && grow(L))
		return sa_csv_fail(&L->pos, "out of memory");
	s->t[s->n] = L->t;
	s->open[s->n] = L->adjusted ? L->v[DA_BAR_OPEN] * k : L->v[DA_BAR_OPEN];
	s->high[s->n] = L->adjusted ? L->v[DA_BAR_HIGH] * k : L->v[DA_BAR_HIGH];
	s->low[s->n] = L->adjusted ? L->v[DA_BAR_LOW] * k : L->v[DA_BAR_LOW];
	s->close[s->n] = L->adjusted ? L->v[DA_BAR_CLOSE] * k : L->v[DA_BAR_CLOSE];
	s->volume[s->n] = s->fmt.volume ? L->v[DA_BAR_VOLUME] : NAN;
	if (s->fmt.swap) {
		s->swap_long[s->n] = L->swap[0];
		s->swap_short[s->n] = L->swap[1];
	}
	s->n++;
}

/* One bar read: checked, then kept. */
static void take_bar(struct load *L)
{
	read_time(L);
	if (!L->pos.failed)
		check_row(L);
	if (!L->pos.failed)
		commit_row(L);
}

static void on_row(int c, void *data)
{
	struct load *L = data;
	struct da_ohlcv_format *fmt = &L->s->fmt;

	(void)c;
	if (L->pos.failed)
		goto next;
	if (L->pos.line == L->first_line) {
		first_line(L);
		if (fmt->header)
			goto next;
	} else if (yfinance_row(L)) {
		goto next;
	} else if (L->col != fmt->columns) {
		sa_csv_fail(&L->pos, "%d fields where the %s has %d", L->col,
			    fmt->header ? "header" : "first row", fmt->columns);
	}
	if (!L->pos.failed)
		take_bar(L);
next:
	L->pos.line++;
	L->col = 0;
}

static void reverse(struct da_ohlcv *s)
{
	double *cols[] = { s->open, s->high, s->low, s->close, s->volume, s->swap_long,
			   s->swap_short };
	size_t n_cols = s->fmt.swap ? 7 : 5;

	for (size_t i = 0, j = s->n - 1; i < j; i++, j--) {
		int64_t t = s->t[i];

		s->t[i] = s->t[j];
		s->t[j] = t;
		for (size_t k = 0; k < n_cols; k++) {
			double x = cols[k][i];

			cols[k][i] = cols[k][j];
			cols[k][j] = x;
		}
	}
	s->fmt.reversed = true;
}

/* What every reader does with the bars it took: at least 2, in time order, then their shape
 * (first_line is the file line of the first row, for the messages). Returns 0, or -1 with err. */
static int finish_bars(struct da_ohlcv *s, bool newest_first, size_t first_line, char *err, size_t errlen)
{
	if (s->n < 2) {
		sa_fmt(err, errlen, "at least 2 bars are needed, found %zu", s->n);
		return -1;
	}
	if (newest_first)
		reverse(s);
	return da_ohlcv_shape(s, first_line, err, errlen);
}

static int parse_text(const char *buf, size_t len, const struct da_ohlcv_opts *opts,
		      struct da_ohlcv *s, char *err, size_t errlen)
{
	struct load *L = calloc(1, sizeof(*L));
	size_t skip;
	int rc = -1;

	if (!L) {
		sa_fmt(err, errlen, "out of memory");
		return -1;
	}
	*L = (struct load){ .s = s, .first_line = 1, .pos = { .line = 1, .err = err, .errlen = errlen } };
	L->adjusted = opts && opts->adjusted;
	/* a byte-order mark, as spreadsheets write it */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) {
		buf += 3;
		len -= 3;
	}
	skip = da_ohlcv_title_line(buf, len, s->fmt.skipped);
	if (skip) {
		buf += skip;
		len -= skip;
		L->first_line = L->pos.line = 2;
	}
	s->fmt.delim = da_ohlcv_sniff_delim(buf, len);
	L->yfinance = da_ohlcv_yfinance_header(buf, len, s->fmt.delim, L->index_name);
	if (sa_csv_parse_delim(buf, len, s->fmt.delim, on_field, on_row, &L->pos))
		goto out;
	if (L->pos.line == L->first_line) {
		sa_fmt(err, errlen, "the file is empty (%s)", WANT);
		goto out;
	}
	rc = finish_bars(s, L->newest_first, L->first_line + (size_t)s->fmt.header_rows, err, errlen);
out:
	free(L);
	return rc;
}

/* One bar of freqtrade's JSON: [ms, open, high, low, close, volume]. */
static int on_json_bar(void *arg, size_t i, const double v[6])
{
	static const char *const what[6] = { "time", "open", "high", "low", "close", "volume" };
	struct load *L = arg;

	L->pos.line = i + 1;
	for (int k = 0; k < 6; k++)
		if (!isfinite(v[k]))
			sa_csv_fail(&L->pos, "%s %g is not a finite number", what[k], v[k]);
	if (!L->pos.failed && (!(v[0] >= 0 && v[0] < 1e14) || fmod(v[0], 1000) != 0))
		sa_csv_fail(&L->pos, "time %.17g is not a whole second in epoch milliseconds", v[0]);
	if (L->pos.failed)
		return -1;
	L->t = (int64_t)(v[0] / 1000);
	for (int f = DA_BAR_OPEN; f <= DA_BAR_VOLUME; f++)
		L->v[f] = v[f];
	if (L->s->n == 0)
		L->s->fmt.time_form = SA_TIME_EPOCH_MS;
	check_row(L);
	if (!L->pos.failed)
		commit_row(L);
	return L->pos.failed ? -1 : 0;
}

/* "line N: ..." as "bar N: ...": a JSON file's bars are not its lines. */
static void lines_as_bars(char *err)
{
	char tmp[512];

	if (strncmp(err, "line ", 5))
		return;
	snprintf(tmp, sizeof(tmp), "bar %s", err + 5);
	strcpy(err, tmp);
}

/* One bar of freqtrade's Feather: as one of its JSON, but a volume all missing (NaN from the
 * first bar on) is read as no volume. */
static int on_feather_bar(void *arg, size_t i, const double v[6])
{
	struct load *L = arg;
	double w[6];

	memcpy(w, v, sizeof w);
	if (i == 0 && isnan(v[5]))
		L->s->fmt.volume = false;
	if (!L->s->fmt.volume && isnan(v[5]))
		w[5] = 0;  /* not kept: commit_row stores NaN for a series without volume */
	return on_json_bar(arg, i, w);
}

/* freqtrade's JSON or Feather OHLCV, bar by bar, through the checks every bar of a CSV passes. */
static int parse_freqtrade(const char *buf, size_t len, const struct da_ohlcv_opts *opts,
			   bool feather, struct da_ohlcv *s, char *err, size_t errlen)
{
	struct load *L = calloc(1, sizeof(*L));
	struct da_feather_info info;
	const char *kind = feather ? "feather: " : "";
	char why[512] = "";
	int rc = -1;

	if (!L) {
		sa_fmt(err, errlen, "out of memory");
		return -1;
	}
	*L = (struct load){ .s = s, .pos = { .line = 1, .err = why, .errlen = sizeof(why) } };
	s->fmt.layout = feather ? DA_LAYOUT_FEATHER : DA_LAYOUT_FREQTRADE;
	s->fmt.delim = ',';
	s->fmt.columns = 6;
	s->fmt.volume = true;
	if (opts && opts->adjusted) {
		sa_fmt(err, errlen, "ADJUSTED=1 needs a header with an 'Adj Close' column, which "
		       "freqtrade's %s has not", feather ? "Feather file" : "JSON");
		goto out;
	}
	if (feather ? da_feather_bars(buf, len, SA_DATA_CAP, &info, on_feather_bar, L, why, sizeof(why))
		    : da_freqtrade_bars(buf, len, on_json_bar, L, why, sizeof(why))) {
		lines_as_bars(why);
		sa_fmt(err, errlen, "%s%s", kind, why);
		goto out;
	}
	for (int k = DA_BAR_TIME; feather && k <= DA_BAR_VOLUME; k++)
		snprintf(s->fmt.names[k], sizeof s->fmt.names[k], "%s", info.names[k]);
	rc = finish_bars(s, L->newest_first, 1, why, sizeof(why));
	lines_as_bars(why);
	if (rc)
		sa_fmt(err, errlen, "%s%s", kind, why);
out:
	free(L);
	return rc;
}

int da_ohlcv_parse_opts(const char *buf, size_t len, const struct da_ohlcv_opts *opts,
			struct da_ohlcv *s, char *err, size_t errlen)
{
	char *plain = NULL;
	size_t plain_len = 0;
	char why[512];
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
	switch (da_data_kind(buf, len, why, sizeof(why))) {
	case DA_DATA_FOREIGN:
		sa_fmt(err, errlen, "%s", why);
		break;
	case DA_DATA_JSON:
		rc = parse_freqtrade(buf, len, opts, false, s, err, errlen);
		break;
	case DA_DATA_FEATHER:
		rc = parse_freqtrade(buf, len, opts, true, s, err, errlen);
		break;
	default:
		rc = parse_text(buf, len, opts, s, err, errlen);
		break;
	}
	s->fmt.gzip = plain != NULL;
out:
	free(plain);
	if (rc)
		da_ohlcv_release(s);
	return rc;
}

int da_ohlcv_parse(const char *buf, size_t len, struct da_ohlcv *s, char *err, size_t errlen)
{
	return da_ohlcv_parse_opts(buf, len, NULL, s, err, errlen);
}

/* freqtrade names a futures pair's candles PAIR-TIMEFRAME-futures.EXT (BTC_USDT_USDT-1h-futures.json). */
static void note_futures_name(const char *path, struct da_ohlcv_format *fmt)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (!fmt->perpetual[0] && strstr(base, "-futures."))
		snprintf(fmt->perpetual, sizeof fmt->perpetual, "the file name says futures, '%.40s'",
			 base);
}

int da_ohlcv_load_opts(const char *path, const struct da_ohlcv_opts *opts, struct da_ohlcv *s,
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
	rc = da_ohlcv_parse_opts(buf, len, opts, s, err, errlen);
	free(buf);
	if (rc == 0)
		note_futures_name(path, &s->fmt);
	return rc;
}

int da_ohlcv_load(const char *path, struct da_ohlcv *s, char *err, size_t errlen)
{
	return da_ohlcv_load_opts(path, NULL, s, err, errlen);
}

void da_ohlcv_release(struct da_ohlcv *s)
{
	free(s->t);
	free(s->open);
	free(s->high);
	free(s->low);
	free(s->close);
	free(s->volume);
	free(s->swap_long);
	free(s->swap_short);
	memset(s, 0, sizeof(*s));
}
