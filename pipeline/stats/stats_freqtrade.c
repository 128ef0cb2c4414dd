/* stats_freqtrade.c - the tables of freqtrade's backtest report, from trades.csv and the prices. */
#include "stats_freqtrade.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "jsonio.h"
#include "msg.h"
#include "ohlcv.h"
#include "stats_core.h"

void sts_ft_row_add(struct sts_ft_row *row, double r, long bars)
{
	row->trades++;
	row->sum_return += r;
	if (r > 0)
		row->wins++;
	else if (r < 0)
		row->losses++;
	else
		row->draws++;
	if (bars >= 0) {
		row->bars_known++;
		row->sum_bars += (double)bars;
	}
}

/* Trades by entry time, then by their place in trades.csv, so equal entries keep their order. */
struct ordered {
	int64_t entry;
	size_t at;
};

static int by_entry(const void *a, const void *b)
{
	const struct ordered *x = a, *y = b;

	if (x->entry != y->entry)
		return x->entry < y->entry ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

int sts_ft_streaks(const struct rp_trade *t, size_t n, size_t *wins, size_t *losses)
{
	struct ordered *o = n ? malloc(n * sizeof(*o)) : NULL;
	size_t run = 0;
	int last = 0;  /* 1 win, -1 loss, 0 none yet */

	*wins = *losses = 0;
	if (!n)
		return 0;
	if (!o)
		return -1;
	for (size_t i = 0; i < n; i++)
		o[i] = (struct ordered){ t[i].entry, i };
	qsort(o, n, sizeof(*o), by_entry);
	for (size_t i = 0; i < n; i++) {
		int kind = t[o[i].at].net > 0 ? 1 : -1;

		run = kind == last ? run + 1 : 1;
		last = kind;
		if (kind > 0 && run > *wins)
			*wins = run;
		if (kind < 0 && run > *losses)
			*losses = run;
	}
	free(o);
	return 0;
}

/* A table's row with its key, for sorting. */
struct keyed {
	const char *key;
	struct sts_ft_row row;
};

static int by_sum_desc(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->row.sum_return != y->row.sum_return)
		return x->row.sum_return > y->row.sum_return ? -1 : 1;
	return strcmp(x->key, y->key);
}

static cJSON *row_json(const struct keyed *k)
{
	cJSON *r = cJSON_CreateObject();
	const struct sts_ft_row *w = &k->row;

	if (!r)
		return NULL;
	cJSON_AddStringToObject(r, "key", k->key);
	cJSON_AddNumberToObject(r, "trades", (double)w->trades);
	sa_json_add_num(r, "mean_return", w->trades ? w->sum_return / (double)w->trades : NAN, ST_DIGITS);
	sa_json_add_num(r, "sum_return", w->sum_return, ST_DIGITS);
	sa_json_add_num(r, "mean_bars_held", w->bars_known ? w->sum_bars / (double)w->bars_known : NAN,
			ST_DIGITS);
	cJSON_AddNumberToObject(r, "wins", (double)w->wins);
	cJSON_AddNumberToObject(r, "draws", (double)w->draws);
	cJSON_AddNumberToObject(r, "losses", (double)w->losses);
	return r;
}

/* The rows of k[0..n) that hold trades, most summed return first, as an array. */
static cJSON *table_json(struct keyed *k, size_t n)
{
	cJSON *a = cJSON_CreateArray();

	if (!a)
		return NULL;
	qsort(k, n, sizeof(*k), by_sum_desc);
	for (size_t i = 0; i < n; i++) {
		cJSON *r;

		if (!k[i].row.trades)
			continue;
		if (!(r = row_json(&k[i]))) {
			cJSON_Delete(a);
			return NULL;
		}
		cJSON_AddItemToArray(a, r);
	}
	return a;
}

/* The row of k[0..*m) keyed name, added when new. */
static struct sts_ft_row *row_of(struct keyed *k, size_t *m, const char *name)
{
	size_t i;

	for (i = 0; i < *m && strcmp(k[i].key, name); i++)
		;
	if (i == *m)
		k[(*m)++] = (struct keyed){ name, { 0 } };
	return &k[i].row;
}

/* by_exit_reason: replay's exit reasons by name; a trade log's, which it does not say, are
 * "unknown", as replay.json's exit_reasons counts them. A custom exit whose custom_exit named
 * its reason (trades.csv exit_tag) is that reason's, as freqtrade's trade.exit_reason is the
 * string custom_exit returned, so one named as another reason shares its row; a plain True
 * stays "custom_exit". */
static cJSON *exit_table(const struct rp_trade *t, size_t n, const struct da_tags *xtags)
{
	struct keyed k[RP_EXIT_N + DA_TAGS_MAX];
	size_t m = 0, names = xtags ? xtags->n_names : 0;

	for (int e = 0; e < RP_EXIT_N; e++)
		(void)row_of(k, &m, e == RP_EXIT_UNKNOWN ? "unknown" : rp_exit_reason_name(e));
	for (size_t i = 0; i < n; i++) {
		unsigned e = t[i].exit_reason < RP_EXIT_N ? t[i].exit_reason : RP_EXIT_UNKNOWN;
		bool named = e == RP_EXIT_CUSTOM && t[i].exit_tag && t[i].exit_tag <= names;
		const char *key = named ? xtags->names[t[i].exit_tag - 1] : k[e].key;

		sts_ft_row_add(row_of(k, &m, key), t[i].net, t[i].bars_held);
	}
	return table_json(k, m);
}

/* by_entry_tag: one row a tag (trades.csv entry_tag, a framework run's enter_tag), the
 * untagged trades in the row "" (freqtrade prints it OTHER). */
static cJSON *tag_table(const struct rp_trade *t, size_t n, const struct da_tags *tags)
{
	struct keyed k[DA_TAGS_MAX + 1];
	size_t m = tags ? tags->n_names : 0;

	for (size_t i = 0; i <= m; i++)
		k[i] = (struct keyed){ i ? tags->names[i - 1] : "", { 0 } };
	for (size_t i = 0; i < n; i++)
		sts_ft_row_add(&k[t[i].entry_tag <= m ? t[i].entry_tag : 0].row, t[i].net, t[i].bars_held);
	return table_json(k, m + 1);
}

/* market_change: the instrument's close at the last bar over its close at the first - 1, over
 * the bars the audit scored (a trade log's own span), as freqtrade's market change of one pair. */
static void market_change(cJSON *o, const struct sts_stage_in *in)
{
	const struct da_ohlcv *d = in->data;

	if (!d || d->n < 2 || !(d->close[0] > 0)) {
		cJSON_AddNullToObject(o, "market_change");
		cJSON_AddStringToObject(o, "market_change_note",
					d ? "the first close is not positive" :
					in->data_err && *in->data_err ? in->data_err : "no price data");
		return;
	}
	sa_json_add_num(o, "market_change", d->close[d->n - 1] / d->close[0] - 1.0, ST_DIGITS);
}

static int balance(cJSON *o, const struct sts_stage_in *in, double net_return, char *err,
		   size_t errlen)
{
	cJSON *b;
	double stake;

	if (sa_config_num(in->config, SA_K_STAKE, &stake, err, errlen) < 0)
		return -1;
	if (!(b = cJSON_AddObjectToObject(o, "balance")))
		goto oom;
	sa_json_add_num(b, "stake", stake, ST_DIGITS);
	sa_json_add_num(b, "starting_balance", stake, ST_DIGITS);
	sa_json_add_num(b, "final_balance", stake * (1.0 + net_return), ST_DIGITS);
	sa_json_add_num(b, "profit_abs", stake * net_return, ST_DIGITS);
	cJSON_AddStringToObject(b, "basis", "the whole balance in every trade at the replay's unit "
				"notional, compounded: final_balance = stake x (1 + net_return)");
	return 0;
oom:
	sa_fmt(err, errlen, "out of memory");
	return -1;
}

/* What by_entry_tag's rows are: the strategy's tags, with or without a row of untagged trades,
 * or none recorded. */
static const char *tag_note(const cJSON *tag, bool tagged)
{
	const cJSON *r;

	if (!tagged)
		return "No entry tag was recorded: the strategy set no enter_tag on a candle a trade "
		       "entered from, and a trade log's tags are not read, so every trade is untagged "
		       "(freqtrade's OTHER).";
	cJSON_ArrayForEach(r, tag) {
		const cJSON *k = cJSON_GetObjectItemCaseSensitive(r, "key");

		if (cJSON_IsString(k) && !*k->valuestring)
			return "Entry tags are the strategy's enter_tag on the candle each trade entered "
			       "from (trades.csv entry_tag); the row \"\" holds the untagged trades "
			       "(freqtrade's OTHER).";
	}
	return "Entry tags are the strategy's enter_tag on the candle each trade entered from "
	       "(trades.csv entry_tag); every trade carries one.";
}

int sts_freqtrade_report(cJSON *o, const struct sts_stage_in *in, double net_return, char *err,
			 size_t errlen)
{
	cJSON *ex = exit_table(in->trades, in->n_trades, in->exit_tags);
	cJSON *tag = tag_table(in->trades, in->n_trades, in->entry_tags);
	bool tagged = in->entry_tags && in->entry_tags->n_names > 0;
	size_t wins, losses;

	if (!ex || !tag || sts_ft_streaks(in->trades, in->n_trades, &wins, &losses) < 0) {
		cJSON_Delete(ex);
		cJSON_Delete(tag);
		sa_fmt(err, errlen, "out of memory tabling the trades");
		return -1;
	}
	cJSON_AddItemToObject(o, "by_exit_reason", ex);
	cJSON_AddItemToObject(o, "by_entry_tag", tag);
	cJSON_AddStringToObject(o, "entry_tag_note", tag_note(tag, tagged));
	cJSON_AddNumberToObject(o, "max_consecutive_wins", (double)wins);
	cJSON_AddNumberToObject(o, "max_consecutive_losses", (double)losses);
	market_change(o, in);
	return balance(o, in, net_return, err, errlen);
}
