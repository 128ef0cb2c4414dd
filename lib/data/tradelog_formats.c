/* tradelog_formats.c - the trade-log layouts people export, on the shared CSV table reader and
 * cJSON: freqtrade (JSON, CSV), TradingView's "List of trades", a column map, the native one. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "csvtable.h"
#include "fileio.h"
#include "msg.h"
#include "timeutil.h"
#include "tradelog_formats.h"

enum { K_ENTRY, K_EXIT, K_SIDE, K_RETURN, K_COUNT };

static const char *const map_keys[K_COUNT] = { "entry", "exit", "side", "return" };

/* What a CSV layout is read with. */
struct layout {
	const char *want[6];
	int n_want;
	bool pct;                  /* the return column is in percent */
	struct da_tradelog *log;
	size_t cap;
	/* TradingView: the trade being assembled from its rows */
	double tv_no;
	struct da_trade tv;
	bool tv_entry, tv_exit, tv_open;
	size_t tv_open_count;
};

static int push(struct da_tradelog *log, size_t *cap, const struct da_trade *t)
{
	if (log->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 256;
		struct da_trade *p = realloc(log->trades, ncap * sizeof(*p));

		if (!p)
			return -1;
		log->trades = p;
		*cap = ncap;
	}
	log->trades[log->n++] = *t;
	return 0;
}

/* The rules every layout's trade meets, as the native loader's. Returns NULL or why not. */
static const char *check_trade(const struct da_trade *t)
{
	if (t->exit < t->entry)
		return "the exit is before the entry";
	if (!(t->ret > -1))
		return "a return at or below -100 % would lose more than everything";
	return NULL;
}

/* A return cell: a finite number, in percent when pct (a trailing '%' is allowed then). */
static int parse_return(const char *text, bool pct, double *out)
{
	char num[SA_CSV_FIELD_MAX + 1];
	size_t n = strlen(text);

	snprintf(num, sizeof num, "%s", text);
	if (pct && n && num[n - 1] == '%')
		num[n - 1] = '\0';
	if (sa_csv_field_number(num, out))
		return -1;
	if (pct)
		*out /= 100.0;
	return 0;
}

static int parse_side(const char *text, int *side)
{
	static const struct { const char *word; int side; } words[] = {
		{ "long", 1 }, { "buy", 1 }, { "1", 1 }, { "short", -1 }, { "sell", -1 }, { "-1", -1 },
	};

	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (!strcasecmp(text, words[i].word)) {
			*side = words[i].side;
			return 0;
		}
	return -1;
}

static int parse_bool(const char *text, bool *out)
{
	if (!strcasecmp(text, "true") || !strcmp(text, "1"))
		*out = true;
	else if (!strcasecmp(text, "false") || !strcmp(text, "0") || !*text)
		*out = false;
	else
		return -1;
	return 0;
}

static int commit(struct sa_csv_table *tb, struct layout *L, const struct da_trade *t)
{
	const char *why = check_trade(t);

	if (why) {
		sa_csv_table_fail(tb, "%s", why);
		return -1;
	}
	if (push(L->log, &L->cap, t)) {
		sa_csv_table_fail(tb, "out of memory");
		return -1;
	}
	return 0;
}

static int time_cell(struct sa_csv_table *tb, int w, int64_t *t)
{
	if (sa_time_parse(tb->vals[w], t) == 0)
		return 0;
	sa_csv_table_fail(tb, "%s '%s' is not a date and time (want 2024-01-02 14:30 or ISO-8601)",
			  tb->want[w], tb->vals[w]);
	return -1;
}

/* freqtrade CSV: open_date, close_date, profit_ratio[, is_short]. */
static int row_freqtrade(struct sa_csv_table *tb, void *arg)
{
	struct layout *L = arg;
	struct da_trade t = { .side = 1 };
	bool is_short = false;

	if (time_cell(tb, 0, &t.entry) || time_cell(tb, 1, &t.exit))
		return -1;
	if (sa_csv_table_num(tb, 2, false, &t.ret))
		return -1;
	if (L->n_want > 3 && parse_bool(tb->vals[3], &is_short)) {
		sa_csv_table_fail(tb, "is_short '%s' should be true or false", tb->vals[3]);
		return -1;
	}
	t.side = is_short ? -1 : 1;
	return commit(tb, L, &t);
}

/* The column map's layout: entry, exit, side, return, in that order. */
static int row_mapped(struct sa_csv_table *tb, void *arg)
{
	struct layout *L = arg;
	struct da_trade t = { 0 };

	if (time_cell(tb, K_ENTRY, &t.entry) || time_cell(tb, K_EXIT, &t.exit))
		return -1;
	if (parse_side(tb->vals[K_SIDE], &t.side)) {
		sa_csv_table_fail(tb, "%s '%s' should be long or short (or buy, sell, 1, -1)",
				  tb->want[K_SIDE], tb->vals[K_SIDE]);
		return -1;
	}
	if (parse_return(tb->vals[K_RETURN], L->pct, &t.ret)) {
		sa_csv_table_fail(tb, "%s '%s' is not a finite number%s", tb->want[K_RETURN],
				  tb->vals[K_RETURN], L->pct ? " (in percent)" : "");
		return -1;
	}
	return commit(tb, L, &t);
}

/* TradingView: the pending trade is complete; an open one is left out (and counted). */
static int tv_flush(struct sa_csv_table *tb, struct layout *L)
{
	int rc = 0;

	if (L->tv_open)
		L->tv_open_count++;
	else if (L->tv_entry != L->tv_exit) {
		sa_csv_table_fail(tb, "trade %.0f has %s row but no %s row", L->tv_no,
				  L->tv_entry ? "an entry" : "an exit", L->tv_entry ? "exit" : "entry");
		rc = -1;
	} else if (L->tv_entry) {
		rc = commit(tb, L, &L->tv);
	}
	memset(&L->tv, 0, sizeof L->tv);
	L->tv_entry = L->tv_exit = L->tv_open = false;
	return rc;
}

/* TradingView "List of trades": Trade #, Type ("Entry long", "Exit short"), Date/Time, the
 * percent column, Signal ("Open" on the exit row of a trade still open). */
static int row_tradingview(struct sa_csv_table *tb, void *arg)
{
	struct layout *L = arg;
	const char *type = tb->vals[1];
	bool entry = !strncasecmp(type, "Entry ", 6), is_exit = !strncasecmp(type, "Exit ", 5);
	double no;
	int side = 0;

	if (sa_csv_table_num(tb, 0, false, &no))
		return -1;
	if ((!entry && !is_exit) || parse_side(type + (entry ? 6 : 5), &side)) {
		sa_csv_table_fail(tb, "Type '%s' should be Entry long, Exit long, Entry short or Exit short",
				  type);
		return -1;
	}
	if ((L->tv_entry || L->tv_exit) && no != L->tv_no && tv_flush(tb, L))
		return -1;
	L->tv_no = no;
	if ((entry ? L->tv_entry : L->tv_exit) || (L->tv.side && L->tv.side != side)) {
		sa_csv_table_fail(tb, "trade %.0f has two %s rows, or rows of both sides", no,
				  entry ? "entry" : "exit");
		return -1;
	}
	L->tv.side = side;
	if (time_cell(tb, 2, entry ? &L->tv.entry : &L->tv.exit))
		return -1;
	if (entry) {
		L->tv_entry = true;
		return 0;
	}
	L->tv_exit = true;
	L->tv_open = L->n_want > 4 && !strcasecmp(tb->vals[4], "Open");
	if (!L->tv_open && parse_return(tb->vals[3], true, &L->tv.ret)) {
		sa_csv_table_fail(tb, "%s '%s' is not a finite number", tb->want[3], tb->vals[3]);
		return -1;
	}
	return 0;
}

/* A row after the header, when only the header is wanted: libcsv ends a record at '\r' too. */
static int stop_after_header(struct sa_csv_table *tb, void *arg)
{
	(void)arg;
	sa_csv_table_fail(tb, "header read");
	return -1;
}

/* Reads the header line alone into hd (want NULL: every column); its error goes to err. */
static int read_header(const char *buf, size_t len, struct sa_csv_table *hd, char *err,
		       size_t errlen)
{
	const char *nl = memchr(buf, '\n', len);

	memset(hd, 0, sizeof *hd);
	hd->pos.err = err;
	hd->pos.errlen = errlen;
	hd->row = stop_after_header;
	(void)sa_csv_table_parse(hd, buf, nl ? (size_t)(nl - buf + 1) : len);
	return hd->cols > 0 ? 0 : -1;
}

static bool has_col(const struct sa_csv_table *hd, const char *name)
{
	for (int k = 0; k < hd->cols; k++)
		if (!strcmp(hd->header[k], name))
			return true;
	return false;
}

/* Parses "entry=COL,exit=COL,side=COL,return=COL[%]" into L->want. Returns 0 or -1 with err. */
static int parse_colmap(const char *map, struct layout *L, char names[K_COUNT][SA_CSV_FIELD_MAX + 1],
			char *err, size_t errlen)
{
	const char *p = map;

	while (*p) {
		size_t n = strcspn(p, ","), eq = strcspn(p, "=");
		int k = -1;

		for (int i = 0; i < K_COUNT && eq < n; i++)
			if (strlen(map_keys[i]) == eq && !strncmp(p, map_keys[i], eq))
				k = i;
		if (k < 0 || n - eq - 1 == 0 || n - eq - 1 > SA_CSV_FIELD_MAX) {
			sa_fmt(err, errlen, "TRADES_COLUMNS '%s': want entry=COL,exit=COL,side=COL,return=COL "
			       "(a trailing %% on COL: percent)", map);
			return -1;
		}
		memcpy(names[k], p + eq + 1, n - eq - 1);
		names[k][n - eq - 1] = '\0';
		if (k == K_RETURN && names[k][n - eq - 2] == '%') {
			names[k][n - eq - 2] = '\0';
			L->pct = true;
		}
		p += n + (p[n] == ',');
	}
	for (int k = 0; k < K_COUNT; k++) {
		if (!names[k][0]) {
			sa_fmt(err, errlen, "TRADES_COLUMNS '%s' names no %s column", map, map_keys[k]);
			return -1;
		}
		L->want[k] = names[k];
	}
	L->n_want = K_COUNT;
	return 0;
}

static int run_table(const char *buf, size_t len, struct layout *L,
		     int (*row)(struct sa_csv_table *, void *), char *err, size_t errlen)
{
	struct sa_csv_table *tb = calloc(1, sizeof *tb);
	int rc = -1;

	if (!tb) {
		sa_fmt(err, errlen, "out of memory");
		return -1;
	}
	tb->pos.err = err;
	tb->pos.errlen = errlen;
	tb->want = L->want;
	tb->n_want = L->n_want;
	tb->row = row;
	tb->arg = L;
	if (sa_csv_table_parse(tb, buf, len) == 0 && (row != row_tradingview || !tv_flush(tb, L)))
		rc = 0;
	free(tb);
	return rc;
}

/* freqtrade's JSON trade list: the array of trades within root. */
static const cJSON *json_trades(const cJSON *root, char *err, size_t errlen)
{
	const cJSON *strategies = cJSON_GetObjectItemCaseSensitive(root, "strategy");

	if (cJSON_IsArray(root))
		return root;
	if (cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "trades")))
		return cJSON_GetObjectItemCaseSensitive(root, "trades");
	if (cJSON_IsObject(strategies) && cJSON_GetArraySize(strategies) == 1 &&
	    cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(strategies->child, "trades")))
		return cJSON_GetObjectItemCaseSensitive(strategies->child, "trades");
	if (cJSON_IsObject(strategies) && cJSON_GetArraySize(strategies) > 1)
		sa_fmt(err, errlen, "the backtest holds %d strategies; export one (freqtrade "
		       "backtesting --strategy NAME)", cJSON_GetArraySize(strategies));
	else
		sa_fmt(err, errlen, "a JSON trade log should be freqtrade's backtest export "
		       "({\"strategy\": {NAME: {\"trades\": [...]}}})");
	return NULL;
}

/* freqtrade's stake_amount and profit_abs, when the export has both (NAN otherwise: a log
 * that lacks them on any trade is scored per trade, not as an account). */
static int json_stake(const cJSON *j, struct da_trade *t, const char **why)
{
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(j, "stake_amount"),
		    *pa = cJSON_GetObjectItemCaseSensitive(j, "profit_abs");

	t->stake = t->pnl = NAN;
	if (!cJSON_IsNumber(st) || !cJSON_IsNumber(pa))
		return 0;
	*why = "stake_amount should be a positive number and profit_abs a finite one";
	if (!(st->valuedouble > 0) || !isfinite(pa->valuedouble))
		return -1;
	t->stake = st->valuedouble;
	t->pnl = pa->valuedouble;
	return 0;
}

/* What freqtrade's export says of the account: its starting balance and its own figures. */
static void json_account(const cJSON *root, struct da_tradelog *log)
{
	const cJSON *strategies = cJSON_GetObjectItemCaseSensitive(root, "strategy");
	const cJSON *o = cJSON_IsObject(strategies) ? strategies->child : root;
	const cJSON *sb = cJSON_GetObjectItemCaseSensitive(o, "starting_balance"),
		    *pt = cJSON_GetObjectItemCaseSensitive(o, "profit_total"),
		    *dd = cJSON_GetObjectItemCaseSensitive(o, "max_drawdown_account");
	bool stakes = log->n > 0;

	for (size_t i = 0; i < log->n; i++)
		stakes &= !isnan(log->trades[i].stake);
	log->account.on = stakes;
	log->account.claimed_profit_total = cJSON_IsNumber(pt) ? pt->valuedouble : NAN;
	log->account.claimed_max_drawdown_account = cJSON_IsNumber(dd) ? dd->valuedouble : NAN;
	if (stakes && cJSON_IsNumber(sb) && sb->valuedouble > 0) {
		log->account.balance = sb->valuedouble;
		snprintf(log->account.balance_from, sizeof log->account.balance_from,
			 "the export's starting_balance");
	}
}

static int json_trade(const cJSON *j, struct da_trade *t, const char **why)
{
	const cJSON *od = cJSON_GetObjectItemCaseSensitive(j, "open_date"),
		    *cd = cJSON_GetObjectItemCaseSensitive(j, "close_date"),
		    *sh = cJSON_GetObjectItemCaseSensitive(j, "is_short"),
		    *pr = cJSON_GetObjectItemCaseSensitive(j, "profit_ratio");

	*why = "open_date and close_date should be dates (2024-01-02 14:30:00+00:00)";
	if (!cJSON_IsString(od) || !cJSON_IsString(cd) || sa_time_parse(od->valuestring, &t->entry) ||
	    sa_time_parse(cd->valuestring, &t->exit))
		return -1;
	*why = "profit_ratio should be a finite number";
	if (!cJSON_IsNumber(pr) || !isfinite(pr->valuedouble))
		return -1;
	*why = "is_short should be true or false";
	if (sh && !cJSON_IsBool(sh))
		return -1;
	t->ret = t->trade_ret = pr->valuedouble;
	t->side = cJSON_IsTrue(sh) ? -1 : 1;
	return (*why = check_trade(t)) ? -1 : json_stake(j, t, why);
}

static int parse_json(const char *buf, size_t len, struct da_tradelog *log, char *err,
		      size_t errlen)
{
	cJSON *root = cJSON_ParseWithLengthOpts(buf, len, NULL, false);
	const cJSON *list, *j;
	size_t cap = 0, i = 0;
	int rc = -1;

	if (!root) {
		sa_fmt(err, errlen, "not valid JSON (near byte %zu)",
		       cJSON_GetErrorPtr() ? (size_t)(cJSON_GetErrorPtr() - buf) : (size_t)0);
		goto out;
	}
	if (!(list = json_trades(root, err, errlen)))
		goto out;
	cJSON_ArrayForEach(j, list) {
		struct da_trade t = { 0 };
		const char *why;

		i++;
		if (json_trade(j, &t, &why)) {
			sa_fmt(err, errlen, "trade %zu: %s", i, why);
			goto out;
		}
		if (push(log, &cap, &t)) {
			sa_fmt(err, errlen, "out of memory");
			goto out;
		}
	}
	snprintf(log->columns, sizeof log->columns, "open_date,close_date,is_short,profit_ratio");
	json_account(root, log);
	if (log->account.on)
		strcat(log->columns, ",stake_amount,profit_abs");
	rc = 0;
out:
	cJSON_Delete(root);
	return rc;
}

/* TradingView lists trades newest first or oldest first: oldest first, as every other layout. */
static int by_entry(const void *a, const void *b)
{
	const struct da_trade *x = a, *y = b;

	return (x->entry > y->entry) - (x->entry < y->entry);
}

/* Picks the CSV layout from the header and reads the rows with it. */
static int parse_csv(const char *buf, size_t len, const char *colmap, struct da_tradelog *log,
		     char *err, size_t errlen)
{
	struct sa_csv_table *hd = calloc(1, sizeof *hd);
	char names[K_COUNT][SA_CSV_FIELD_MAX + 1] = { { 0 } };
	struct layout L = { .log = log };
	char hd_err[64];
	bool native = false;
	int rc = -1;

	if (!hd) {
		sa_fmt(err, errlen, "out of memory");
		return -1;
	}
	if (colmap && *colmap) {
		snprintf(log->format, sizeof log->format, "column map");
		if (!parse_colmap(colmap, &L, names, err, errlen))
			rc = run_table(buf, len, &L, row_mapped, err, errlen);
	} else if (read_header(buf, len, hd, hd_err, sizeof hd_err) == 0 && has_col(hd, "open_date") &&
		   has_col(hd, "close_date") && has_col(hd, "profit_ratio")) {
		const char *w[] = { "open_date", "close_date", "profit_ratio", "is_short" };

		snprintf(log->format, sizeof log->format, "freqtrade csv");
		L.n_want = has_col(hd, "is_short") ? 4 : 3;
		memcpy(L.want, w, sizeof w);
		rc = run_table(buf, len, &L, row_freqtrade, err, errlen);
	} else if (has_col(hd, "Trade #") && has_col(hd, "Type") && has_col(hd, "Date/Time")) {
		const char *pct = has_col(hd, "Net P&L %") ? "Net P&L %" : "Profit %";
		const char *w[] = { "Trade #", "Type", "Date/Time", pct, "Signal" };

		snprintf(log->format, sizeof log->format, "tradingview");
		L.n_want = has_col(hd, "Signal") ? 5 : 4;
		memcpy(L.want, w, sizeof w);
		rc = run_table(buf, len, &L, row_tradingview, err, errlen);
		if (rc == 0 && log->n > 1)
			qsort(log->trades, log->n, sizeof *log->trades, by_entry);
	} else {
		native = true;
		rc = da_tradelog_parse(buf, len, log, err, errlen);
		snprintf(log->format, sizeof log->format, "native");
		if (rc && !strncmp(err, "line 1: ", 8))
			sa_fmt(err + strlen(err), errlen - strlen(err), "; or give freqtrade's backtest "
			       "export, TradingView's List of trades, or TRADES_COLUMNS=entry=COL,exit=COL,"
			       "side=COL,return=COL");
	}
	for (int k = 0; rc == 0 && !native && k < L.n_want; k++)
		if (strlen(log->columns) + strlen(L.want[k]) + 2 < sizeof log->columns)
			strcat(strcat(log->columns, k ? "," : ""), L.want[k]);
	free(hd);
	return rc;
}

int da_tradelog_parse_any(const char *buf, size_t len, const char *colmap,
			  struct da_tradelog *log, char *err, size_t errlen)
{
	size_t skip = 0;
	int rc;

	memset(log, 0, sizeof(*log));
	while (skip < len && strchr(" \t\r\n", buf[skip]))
		skip++;
	if (skip < len && (buf[skip] == '{' || buf[skip] == '[')) {
		snprintf(log->format, sizeof log->format, "freqtrade json");
		rc = parse_json(buf, len, log, err, errlen);
	} else {
		rc = parse_csv(buf, len, colmap, log, err, errlen);
		log->account.claimed_profit_total = log->account.claimed_max_drawdown_account = NAN;
	}
	for (size_t i = 0; rc == 0 && !log->account.on && i < log->n; i++) {
		log->trades[i].trade_ret = log->trades[i].ret;
		log->trades[i].stake = log->trades[i].pnl = NAN;
	}
	if (rc == 0 && log->account.on)
		rc = da_tradelog_to_account(log, err, errlen);
	if (rc) {
		char fmt[sizeof log->format];

		memcpy(fmt, log->format, sizeof fmt);
		free(log->trades);
		log->trades = NULL;
		log->n = 0;
		memcpy(log->format, fmt, sizeof fmt);
	}
	return rc;
}

int da_tradelog_load_any(const char *path, const char *colmap, struct da_tradelog *log,
			 char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len;
	enum sa_read_status st;
	int rc;

	memset(log, 0, sizeof(*log));
	st = sa_read_file(path, SA_TRADELOG_CAP, &buf, &len);
	if (st != SA_READ_OK) {
		sa_read_strerror(st, path, SA_TRADELOG_CAP, err, errlen);
		return -1;
	}
	rc = da_tradelog_parse_any(buf, len, colmap, log, err, errlen);
	free(buf);
	return rc;
}
