/* stats_io.c - reading replay's files (libcsv) and writing stats.json. */
#include "stats_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "csvtable.h"
#include "jsonio.h"
#include "stagefile.h"
#include "msg.h"
#include "costs.h"
#include "exits.h"
#include "stats_forward.h"
#include "stats_freqtrade.h"
#include "stats_quant.h"
#include "stats_market.h"
#include "stats_metrics.h"
#include "stats_rerun.h"
#include "stats_spread.h"
#include "stats_tearsheet.h"
#include "stats_checks.h"
#include "stats_neighbourhood.h"
#include "stats_trials.h"
#include "timeutil.h"

/* A growable array of T rows, doubled as needed. */
struct growth {
	void *items;
	size_t n, cap, size;
};

static void *grow_one(struct growth *g)
{
	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 1024;
		void *p = realloc(g->items, cap * g->size);
		if (!p)
			return NULL;
		g->items = p;
		g->cap = cap;
	}
	return (char *)g->items + g->size * g->n++;
}

enum { T_ENTRY, T_EXIT, T_SIDE, T_EPX, T_XPX, T_BARS, T_GROSS, T_FEES, T_SLIP, T_FUND, T_BORROW,
       T_NET, T_END, T_REASON, T_ETAG, T_XTAG, T_N };
static const char *const trade_cols[T_N] = {
	"entry_time", "exit_time", "side", "entry_px", "exit_px", "bars_held", "gross_return",
	"fees", "slippage", "funding", "borrow", "net_return", "open_at_end", "exit_reason",
	"entry_tag", "exit_tag",
};

/* What trade_row fills: the trades, and the entry and the exit tags' names met (NULL: not
 * kept). */
struct trade_rows {
	struct growth g;
	struct da_tags *tags, *exit_tags;
};

/* The place from 1 of the tag name in tb's column w among t's names, added when new ("" is 0;
 * t NULL: 0). Returns -1 past DA_TAGS_MAX names. */
static int tag_place(struct sa_csv_table *tb, int w, struct da_tags *t, unsigned char *out)
{
	const char *v = tb->vals[w];
	size_t k;

	*out = 0;
	if (!t || !*v)
		return 0;
	for (k = 0; k < t->n_names && strcmp(t->names[k], v); k++)
		;
	if (k == t->n_names) {
		if (k == DA_TAGS_MAX || strlen(v) > DA_TAG_NAME_MAX) {
			sa_csv_table_fail(tb, "%s '%.64s' is past the %d tags of at most %d "
					  "characters a replay writes", trade_cols[w], v, DA_TAGS_MAX,
					  DA_TAG_NAME_MAX);
			return -1;
		}
		if (!t->names && !(t->names = calloc(DA_TAGS_MAX, sizeof *t->names))) {
			sa_csv_table_fail(tb, "out of memory");
			return -1;
		}
		strcpy(t->names[t->n_names++], v);
	}
	*out = (unsigned char)(k + 1);
	return 0;
}

/* exit_reason by its name in trades.csv ("" when unknown, as in a trade log). */
static int trade_reason(struct sa_csv_table *tb, struct rp_trade *t)
{
	for (int e = 0; e < RP_EXIT_N; e++)
		if (!strcmp(tb->vals[T_REASON], rp_exit_reason_name(e))) {
			t->exit_reason = (unsigned char)e;
			return 0;
		}
	sa_csv_table_fail(tb, "exit_reason is not one the replay writes, '%s'", tb->vals[T_REASON]);
	return -1;
}

static int trade_times(struct sa_csv_table *tb, struct rp_trade *t)
{
	if (sa_time_parse(tb->vals[T_ENTRY], &t->entry) < 0 ||
	    sa_time_parse(tb->vals[T_EXIT], &t->exit) < 0) {
		sa_csv_table_fail(tb, "entry_time or exit_time is not an ISO-8601 UTC time");
		return -1;
	}
	if (!strcmp(tb->vals[T_SIDE], "long") || !strcmp(tb->vals[T_SIDE], "short")) {
		t->side = tb->vals[T_SIDE][0] == 'l' ? 1 : -1;
		return 0;
	}
	sa_csv_table_fail(tb, "side is not long or short");
	return -1;
}

static int trade_row(struct sa_csv_table *tb, void *arg)
{
	struct trade_rows *rows = arg;
	struct rp_trade *t = grow_one(&rows->g);
	double bars;

	if (!t) {
		sa_csv_table_fail(tb, "out of memory");
		return -1;
	}
	memset(t, 0, sizeof(*t));
	if (trade_times(tb, t) < 0 || sa_csv_table_num(tb, T_EPX, true, &t->entry_px) < 0 ||
	    sa_csv_table_num(tb, T_XPX, true, &t->exit_px) < 0 || sa_csv_table_num(tb, T_BARS, true, &bars) < 0 ||
	    sa_csv_table_num(tb, T_GROSS, false, &t->gross) < 0 || sa_csv_table_num(tb, T_FEES, false, &t->fees) < 0 ||
	    sa_csv_table_num(tb, T_SLIP, false, &t->slippage) < 0 ||
	    sa_csv_table_num(tb, T_FUND, false, &t->funding) < 0 ||
	    sa_csv_table_num(tb, T_BORROW, false, &t->borrow) < 0 || sa_csv_table_num(tb, T_NET, false, &t->net) < 0 ||
	    trade_reason(tb, t) < 0 || tag_place(tb, T_ETAG, rows->tags, &t->entry_tag) < 0 ||
	    tag_place(tb, T_XTAG, rows->exit_tags, &t->exit_tag) < 0)
		return -1;
	t->bars_held = isfinite(bars) && bars >= 0 ? (long)bars : -1;
	t->open_at_end = !strcmp(tb->vals[T_END], "1");
	return 0;
}

int sts_parse_trades(const char *buf, size_t len, struct rp_trade **trades, size_t *n,
		    struct da_tags *tags, struct da_tags *exit_tags, char *err, size_t errlen)
{
	struct trade_rows rows = { .g = { .size = sizeof(struct rp_trade) }, .tags = tags,
				   .exit_tags = exit_tags };
	struct sa_csv_table tb = { .pos = { .file = "trades.csv", .err = err, .errlen = errlen },
			    .want = trade_cols, .n_want = T_N, .row = trade_row, .arg = &rows };
	int rc;

	if (tags)
		memset(tags, 0, sizeof *tags);
	if (exit_tags)
		memset(exit_tags, 0, sizeof *exit_tags);
	rc = sa_csv_table_parse(&tb, buf, len);
	*trades = NULL;
	*n = 0;
	if (rc < 0) {
		free(rows.g.items);
		if (tags)
			da_tags_release(tags);
		if (exit_tags)
			da_tags_release(exit_tags);
		return -1;
	}
	*trades = rows.g.items;
	*n = rows.g.n;
	return 0;
}

static const char *const equity_cols[] = { "net_equity" };

static int equity_row(struct sa_csv_table *tb, void *arg)
{
	struct growth *g = arg;
	double *x = grow_one(g);

	if (!x) {
		sa_csv_table_fail(tb, "out of memory");
		return -1;
	}
	return sa_csv_table_num(tb, 0, false, x);
}

int sts_parse_equity(const char *buf, size_t len, double **eq, size_t *n, char *err,
		    size_t errlen)
{
	struct growth g = { .size = sizeof(double) };
	struct sa_csv_table tb = { .pos = { .file = "equity.csv", .err = err, .errlen = errlen },
			    .want = equity_cols, .n_want = 1, .row = equity_row, .arg = &g };
	int rc = sa_csv_table_parse(&tb, buf, len);

	*eq = NULL;
	*n = 0;
	if (rc < 0) {
		free(g.items);
		return -1;
	}
	*eq = g.items;
	*n = g.n;
	return 0;
}

int sts_read_trials(const cJSON *cfg, double *trials, char *err, size_t errlen)
{
	return sa_config_num(cfg, SA_K_TRIALS, trials, err, errlen);
}

static void add_num(cJSON *o, const char *key, double x)
{
	sa_json_add_num(o, key, x, ST_DIGITS);
}

/* Why a figure is null, in words, so the verdict and report can say it. */
static void add_notes(cJSON *o, const struct st_summary *s)
{
	cJSON *notes = cJSON_AddArrayToObject(o, "notes");

	if (s->trades == 0)
		cJSON_AddItemToArray(notes, cJSON_CreateString("no closed trades: every statistic of "
			"returns is undefined"));
	else if (s->trades == 1)
		cJSON_AddItemToArray(notes, cJSON_CreateString("one closed trade: its standard "
			"deviation, and so the Sharpe ratio, PSR, DSR and MinTRL, are undefined"));
	else if (s->m.sd == 0)
		cJSON_AddItemToArray(notes, cJSON_CreateString("every trade returned the same: zero "
			"variance leaves the Sharpe ratio, PSR, DSR and MinTRL undefined"));
	else if (!(s->sharpe > 0))
		cJSON_AddItemToArray(notes, cJSON_CreateString("the Sharpe ratio is not positive: "
			"MinTRL is undefined, no track record would make it significant"));
	if (s->trades >= 2 && isfinite(s->sharpe) && !isfinite(s->psr))
		cJSON_AddItemToArray(notes, cJSON_CreateString("the PSR variance term "
			"1 - skew*SR + (kurtosis-1)/4*SR^2 is not positive for these moments"));
	if (s->trades > 0 && !(s->conc.mean_without > 0))
		cJSON_AddItemToArray(notes, cJSON_CreateString("without its best trades (the best "
			"5 %, at least one) the strategy has no edge: the mean net return of the rest "
			"is not positive"));
	if (!isfinite(s->profit_factor) && s->trades > 0)
		cJSON_AddItemToArray(notes, cJSON_CreateString("no losing trade: the profit factor "
			"is unbounded"));
}

/* Trades open at once: a log that enters the same trade three times carries one trade's
 * evidence at three times the exposure. */
static void add_overlap(cJSON *o, const struct st_summary *s)
{
	const struct st_overlap *v = &s->dep.overlap;
	cJSON *a = cJSON_AddObjectToObject(o, "overlap");

	cJSON_AddNumberToObject(a, "trades_overlapping", (double)v->trades_overlapping);
	cJSON_AddNumberToObject(a, "max_concurrent", (double)v->max_concurrent);
	add_num(a, "exposure_multiple", v->exposure_multiple);
	add_num(a, "effective_trades", v->shares_sum);
	cJSON_AddStringToObject(a, "method", "each trade open over [entry, exit); its share is 1 / "
				"the most trades open at one instant of its life (itself included), so "
				"the shares open at any instant add up to at most 1; effective_trades is "
				"the sum of the shares; exposure_multiple the summed time in trades over "
				"the time at least one is open; a trade log's compounded equity applies "
				"each trade's return to its share of the equity at its entry");
}

/* Serial dependence, and what the PSR, DSR and MinTRL do about it. */
static void add_dependence(cJSON *o, const struct st_summary *s)
{
	cJSON *a = cJSON_AddObjectToObject(o, "autocorrelation");

	add_num(a, "trades_lag1", s->dep.trades_lag1);
	add_num(a, "bars_lag1", s->dep.bars_lag1);
	add_num(a, "effective_trades", s->dep.autocorr_trades);
	cJSON_AddNumberToObject(a, "lags", (double)s->dep.lags);
	cJSON_AddStringToObject(a, "method", "effective sample size: trades / (1 + 2 sum over "
				"k = 1..lags of (1 - k / (lags + 1)) rho_k), Bartlett weights (a "
				"Newey-West long-run variance), lags = trades^(1/3) rounded (the bootstrap's "
				"mean block), the denominator at least 1");
	add_overlap(o, s);
	add_num(o, "effective_trades", s->dep.effective_trades);
	cJSON_AddStringToObject(o, "effective_trades_basis", "the smaller of "
				"autocorrelation.effective_trades and overlap.effective_trades (each "
				"discounts the same dependence its own way; their product would count it "
				"twice); psr, dsr, min_trl, the null V[SR] and the trades gate count it, "
				"psr_iid, dsr_iid and min_trl_iid every trade");
}

static void add_annualised(cJSON *o, const struct st_summary *s)
{
	cJSON *a = cJSON_AddObjectToObject(o, "sharpe_annualised"), *lo;

	add_num(a, "value", s->sharpe_annualised);
	add_num(a, "factor", s->annual_factor);
	add_num(a, "bars_per_year", s->bars_per_year);
	add_num(a, "per_bar", s->sharpe_bar);
	cJSON_AddStringToObject(a, "basis", "per-bar returns of compounded net equity, eq[i] / "
				"eq[i-1] - 1 (the first over 1), up to and including a ruin bar: mean / "
				"sample standard deviation, times sqrt(bars per year), bars per year = "
				"365.25 days / mean bar spacing");
	/* sqrt(bars per year) holds for independent bars only: Lo's correction is beside it */
	cJSON_AddBoolToObject(a, "lo_corrected", false);
	cJSON_AddStringToObject(a, "lo_note", "not Lo (2002) corrected: the square-root-of-time "
				"scaling assumes independent bar returns; sharpe_annualised_lo is the same "
				"Sharpe ratio scaled with Lo's correction for their autocorrelation");
	lo = cJSON_AddObjectToObject(o, "sharpe_annualised_lo");
	add_num(lo, "value", s->lo.sharpe);
	add_num(lo, "factor", s->lo.factor);
	if (s->lo.lags)
		cJSON_AddNumberToObject(lo, "lags", (double)s->lo.lags);
	else
		cJSON_AddNullToObject(lo, "lags");
	add_num(lo, "autocorrelation_sum", s->lo.rho_sum);
	cJSON_AddStringToObject(lo, "method", "Lo (2002) eq. 19: per_bar x q / sqrt(q + 2 sum_{k=1}^"
				"{lags} (q - k) rho_k), q = bars_per_year, rho_k the lag-k autocorrelation "
				"of the per-bar returns, lags = bars^(1/3) rounded (the rest taken as 0); "
				"autocorrelation_sum = sum (1 - k / q) rho_k, so factor = sqrt(q / (1 + 2 "
				"autocorrelation_sum)); null when 1 + 2 autocorrelation_sum is not positive");
}

static void add_sensitivity(cJSON *o, const struct st_summary *s, const char *basis)
{
	cJSON *arr = cJSON_AddArrayToObject(o, "cost_sensitivity");

	for (size_t k = 0; k < ST_N_MULTIPLES; k++) {
		cJSON *row = cJSON_CreateObject();
		add_num(row, "multiple", s->cost[k].multiple);
		cJSON_AddNumberToObject(row, "trades", (double)s->cost[k].trades);
		add_num(row, "sharpe", s->cost[k].sharpe);
		add_num(row, "psr", s->cost[k].psr);
		add_num(row, "net_return", s->cost[k].net_return);
		add_num(row, "sum_net_return", s->cost[k].sum_net_return);
		cJSON_AddBoolToObject(row, "ruined", s->cost[k].ruined);
		cJSON_AddItemToArray(arr, row);
	}
	cJSON_AddStringToObject(o, "cost_basis", basis);
}

/* What the best trades carry (stats_core.h), and whether an edge is left without them: the
 * verdict's net_edge gate needs a positive mean net return without the best trades. */
static void add_concentration(cJSON *o, const struct st_summary *s)
{
	const struct st_concentration *c = &s->conc;
	cJSON *a = cJSON_AddObjectToObject(o, "concentration");

	add_num(a, "fraction", ST_CONC_FRACTION);
	cJSON_AddNumberToObject(a, "removed", (double)c->removed);
	cJSON_AddNumberToObject(a, "trades_without", (double)c->trades_without);
	add_num(a, "best_trade_net_return", c->best_trade);
	add_num(a, "best_trade_share", c->best_share);
	add_num(a, "best_5pct_share", c->top_share);
	add_num(a, "mean_net_return_without", c->mean_without);
	add_num(a, "sharpe_without", c->sharpe_without);
	add_num(a, "psr_without", c->psr_without);
	add_num(a, "dsr_without", c->dsr_without);
	cJSON_AddBoolToObject(a, "edge_without", c->mean_without > 0);
	cJSON_AddStringToObject(a, "basis", "shares of the plain sum of per-trade net returns (null "
				"when that sum is not positive); the figures without the best "
				"max(1, ceil(5 % of the trades)) trades are those of the trades left, "
				"deflated for the same trials");
}

/* ruined, and when: the curve says whether; the replay, whose curve it is, says when. */
static void add_ruin(cJSON *o, const cJSON *replay, const struct st_summary *s)
{
	const char *when = sa_json_str(replay, "ruin_time", NULL);

	cJSON_AddBoolToObject(o, "ruined", s->ruined);
	if (s->ruined && when)
		cJSON_AddStringToObject(o, "ruin_time", when);
	else
		cJSON_AddNullToObject(o, "ruin_time");
}

cJSON *sts_report(const cJSON *replay, const struct st_summary *s, const char *cost_basis)
{
	cJSON *o = sa_sf_new(SA_SF_STATS);

	cJSON_AddBoolToObject(o, "ok", true);
	cJSON_AddStringToObject(o, "mode", sa_json_str(replay, "mode", "signals"));
	cJSON_AddBoolToObject(o, "trusted_returns", sa_json_bool(replay, "trusted_returns", false));
	/* whose decisions the figures are: the live ones or the full-history backtest's */
	if (sa_json_str(replay, "scored", NULL))
		cJSON_AddStringToObject(o, "scored", sa_json_str(replay, "scored", ""));
	/* the trades by why they closed, as the replay counted them (trades.csv exit_reason) */
	if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(replay, "exit_reasons")))
		cJSON_AddItemToObject(o, "exit_reasons", cJSON_Duplicate(
			cJSON_GetObjectItemCaseSensitive(replay, "exit_reasons"), true));
	cJSON_AddNumberToObject(o, "trades", (double)s->trades);
	add_num(o, "trials", s->trials);
	add_num(o, "mean_net_return", s->mean_net_return);
	add_num(o, "sd_net_return", s->m.sd);
	add_num(o, "sharpe", s->sharpe);
	add_num(o, "skew", s->m.skew);
	add_num(o, "kurtosis", s->m.kurt);
	add_num(o, "psr", s->psr);
	add_num(o, "dsr", s->dsr);
	add_num(o, "sr0", s->sr0);
	add_num(o, "sr_variance", s->v_sr);
	add_num(o, "min_trl", s->min_trl);
	add_num(o, "psr_iid", s->psr_iid);
	add_num(o, "dsr_iid", s->dsr_iid);
	add_num(o, "sr0_iid", s->sr0_iid);
	add_num(o, "sr_variance_iid", s->v_sr_iid);
	add_num(o, "min_trl_iid", s->min_trl_iid);
	add_dependence(o, s);
	add_num(o, "net_return", s->net_return);
	add_num(o, "sum_net_return", s->sum_net_return);
	add_num(o, "gross_return", s->gross_return);
	add_num(o, "sum_gross_return", s->sum_gross_return);
	cJSON_AddStringToObject(o, "return_basis", "net_return and gross_return are compounded "
				"(each trade's return applies to the equity at its entry); "
				"sum_net_return and sum_gross_return add the per-trade returns; Sharpe, "
				"PSR, DSR and MinTRL are per trade; every annualised figure (the Sharpe "
				"ratio, the volatility, the rolling ones, the benchmark's) is of the "
				"per-bar returns of compounded net equity");
	add_ruin(o, replay, s);
	add_num(o, "mean_gross_return", s->mean_gross_return);
	add_num(o, "max_drawdown", s->max_drawdown);
	add_num(o, "win_rate", s->win_rate);
	add_num(o, "profit_factor", s->profit_factor);
	add_num(o, "avg_bars_held", s->avg_bars_held);
	add_num(o, "exposure", s->exposure);
	add_num(o, "turnover", s->turnover);
	add_annualised(o, s);
	add_sensitivity(o, s, cost_basis);
	add_concentration(o, s);
	add_notes(o, s);
	return o;
}

/* trades.csv and equity.csv are found by place, so check they come from this replay.json:
 * the same counts and the same net total. Returns NULL or the reason in buf. */
static const char *mismatch(const struct sts_stage_in *in, char *buf, size_t len)
{
	/* a replay.json from before compounding has only the sum, as net_return */
	double claimed = sa_json_num(in->replay, "sum_net_return",
				     sa_json_num(in->replay, "net_return", NAN)), sum = 0.0;
	double trades = sa_json_num(in->replay, "trades", -1);
	double rows = sa_json_num(in->replay, "equity_rows", -1);

	for (size_t i = 0; i < in->n_trades; i++)
		sum += in->trades[i].net;
	if (trades != (double)in->n_trades)
		return sa_fmt(buf, len, "trades.csv holds %zu trades but replay.json says %g: the files "
			      "are not from the same replay", in->n_trades, trades);
	if (rows != (double)in->n_eq)
		return sa_fmt(buf, len, "equity.csv holds %zu rows but replay.json says %g: the files "
			      "are not from the same replay", in->n_eq, rows);
	if (!(fabs(sum - claimed) <= 1e-6 * (1.0 + fabs(claimed))))
		return sa_fmt(buf, len, "trades.csv net returns sum to %.10g but replay.json says %.10g: "
			      "the files are not from the same replay", sum, claimed);
	return NULL;
}

/* The first unusable input, as a reason; NULL when all are usable. */
static const char *first_problem(const struct sts_stage_in *in, char *buf, size_t len)
{
	const char *why = NULL;

	if (!in->replay)
		why = sa_fmt(buf, len, "replay.json is unusable: %s", in->replay_err);
	else if (!sa_json_bool(in->replay, "ok", false))
		why = sa_fmt(buf, len, "the replay did not succeed: %s",
			     sa_json_str(in->replay, "reason", "no reason given"));
	else if (!in->config)
		why = sa_fmt(buf, len, "config.json is unusable: %s", in->config_err);
	else if (in->trades_err && *in->trades_err)
		why = in->trades_err;
	else if (in->equity_err && *in->equity_err)
		why = in->equity_err;
	else
		why = mismatch(in, buf, len);
	return why;
}

/* Whether the trades are a replay of signals that are here with their prices, so that other
 * conditions can be replayed too (a trade log's trades cannot be). */
static bool replayable(const struct sts_stage_in *in)
{
	return in->data && in->signals && strcmp(sa_json_str(in->replay, "mode", "signals"),
						 "tradelog") != 0;
}

/* The fills the replay made: config.json's cost model and the exits replay.json replayed (x
 * holds them; c->exits points at it). Returns 0, or -1 with the reason in err. */
static int replay_costs(const struct sts_stage_in *in, struct rp_costs *c, struct rp_exits *x,
			char *err, size_t errlen)
{
	if (rp_read_costs(in->config, c, err, errlen) < 0 ||
	    rp_exits_from_json(cJSON_GetObjectItemCaseSensitive(in->replay, "exits"), x, err,
			       errlen) < 0)
		return -1;
	c->exits = x;
	c->calls = in->calls;  /* every re-replay of the live trades carries the bot's answers */
	/* the replay's floor: slippage never below half the spread these bars imply */
	rp_costs_floor(c, in->data, NULL);
	return 0;
}

/* The cost rows on the replay's own basis when it can be replayed: the 1x row is the
 * headline's (trades.csv and equity.csv), each other row a replay with every cost times its
 * multiple (ruined there, -100 %, when the account does not survive it). Otherwise the rows
 * st_summarise rescaled stay. Returns the basis, "replayed" or "rescaled", or NULL with the
 * reason in err. */
static const char *cost_rows(const struct sts_stage_in *in, struct st_summary *s, char *err,
			     size_t errlen)
{
	struct rp_costs c;
	struct rp_exits exits;

	if (!replayable(in))
		return "rescaled";
	if (replay_costs(in, &c, &exits, err, errlen) < 0)
		return NULL;
	for (size_t k = 0; k < ST_N_MULTIPLES; k++) {
		struct st_sensitivity *row = &s->cost[k];
		struct sts_rerun x;
		if (row->multiple == 1.0) {
			*row = (struct st_sensitivity){ .multiple = 1.0, .sharpe = s->sharpe,
				.psr = s->psr_iid, .net_return = s->net_return,
				.sum_net_return = s->sum_net_return, .trades = s->trades,
				.ruined = s->ruined };
			continue;
		}
		if (sts_rerun(in->data, in->signals, &c, 0, row->multiple, &x) < 0) {
			sa_fmt(err, errlen, "out of memory replaying at other costs");
			return NULL;
		}
		*row = (struct st_sensitivity){ .multiple = row->multiple, .sharpe = x.sharpe,
			.psr = x.psr, .net_return = x.net_return, .sum_net_return = x.sum_net_return,
			.trades = x.trades, .ruined = x.ruined };
	}
	return "replayed";
}

/* The tearsheet's figures, added to o. Returns 0, or -1 with the reason in err. */
static int tearsheet(cJSON *o, const struct sts_stage_in *in, const struct st_summary *s,
		     char *err, size_t errlen)
{
	struct sts_tearsheet_in t = {
		.trades = in->trades, .n_trades = in->n_trades, .eq_net = in->eq_net,
		.eq_time = in->eq_time, .n_eq = in->n_eq,
		.eq_per_bar = !strcmp(sa_json_str(in->replay, "equity_basis", "bar"), "bar"),
		.bar_seconds = sa_json_num(in->replay, "bar_seconds", 0),
		.max_drawdown = s->max_drawdown, .sharpe = s->sharpe, .net_return = s->net_return,
		.ruined = s->ruined,
		.annual_factor = s->annual_factor, .sharpe_annualised = s->sharpe_annualised,
		.data = in->data, .data_err = in->data_err,
		.signals = in->signals, .signals_err = in->signals_err,
	};
	long long seed;
	struct rp_exits x;

	/* The headline figures stand without it; the tearsheet needs the bars' times. */
	if (!in->eq_time && in->n_eq > 0) {
		cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(o, "notes"), cJSON_CreateString(
			"tearsheet: no equity times were given, so no benchmark, drawdown episodes, "
			"calendar returns or late fills"));
		return 0;
	}
	if (replay_costs(in, &t.costs, &x, err, errlen) < 0 ||
	    sa_config_int(in->config, SA_K_ROLLING_WINDOW, &t.rolling_knob, err, errlen) < 0 ||
	    sa_config_int(in->config, SA_K_BOOTSTRAP_SEED, &seed, err, errlen) < 0)
		return -1;
	t.seed = (unsigned long)seed;
	if (sts_tearsheet(o, &t) < 0 || sts_metrics(o, &t) < 0) {
		sa_fmt(err, errlen, "out of memory computing the tearsheet");
		return -1;
	}
	return 0;
}

/* stats.json tradeable_prices and bounce: the replay's own floor, its fills moved a bar. */
static int spread(cJSON *o, const struct sts_stage_in *in, double net_return, char *err,
		  size_t errlen)
{
	struct rp_costs c;
	struct rp_exits x;
	bool replays = replayable(in);

	if (!in->data)
		return sts_spread_report(o, NULL, NULL, NULL, NAN, in->data_err);
	if (replay_costs(in, &c, &x, err, errlen) < 0)
		return -1;
	if (sts_spread_report(o, in->data, replays ? in->signals : NULL, &c, net_return, NULL) < 0) {
		sa_fmt(err, errlen, "out of memory replaying the fills a bar later");
		return -1;
	}
	return 0;
}

/* stats.json "forward": the bars since this version's first audit, when the ledger knows it. */
static int forward(cJSON *o, const struct sts_stage_in *in)
{
	struct sts_forward_in f = {
		.trades = in->trades, .n_trades = in->n_trades, .eq_net = in->eq_net,
		.eq_time = in->eq_time, .n_eq = in->n_eq,
		.bar_seconds = sa_json_num(in->replay, "bar_seconds", 0),
	};
	long long seed = 0;
	char err[256];

	if (in->ledger && sa_config_int(in->config, SA_K_BOOTSTRAP_SEED, &seed, err, sizeof(err)) < 0)
		seed = 0;
	f.seed = (unsigned long)seed;
	return sts_forward_report(o, in->ledger, &f);
}

cJSON *sts_stage(const struct sts_stage_in *in)
{
	struct st_input si = { 0 };
	struct st_summary s;
	struct sts_family fam = { 0 };
	struct sts_trials tr;
	struct sts_pbo pbo;
	struct sts_pbo_sweep sweep;
	char buf[1024], err[512], pbo_why[512];
	const char *why = first_problem(in, buf, sizeof(buf)), *cost_basis;
	double knob_v, keep_min, span;
	struct sts_nb nb = { 0 };
	long long epochs;
	struct sts_search search;
	bool has_pbo;
	cJSON *o = NULL;

	if (why)
		goto fail;
	if (sts_read_trials(in->config, &si.trials, err, sizeof(err)) < 0 ||
	    sa_config_num(in->config, SA_K_TRIALS_SR_VARIANCE, &knob_v, err, sizeof(err)) < 0) {
		why = err;
		goto fail;
	}
	if (sts_family_read(in->variants, &fam) < 0) {
		why = "out of memory reading the variants";
		goto fail;
	}
	sts_trials_choose(si.trials, knob_v, &fam, &tr);
	sts_trials_ledger(in->ledger, &tr);
	if (sa_config_int(in->config, SA_K_HYPEROPT_EPOCHS, &epochs, err, sizeof(err)) < 0) {
		why = err;
		goto fail;
	}
	sts_trials_search(in->inspect, in->run, (double)epochs, &tr, &search);
	if (sa_config_num(in->config, SA_K_NEIGHBOUR_KEEP, &keep_min, err, sizeof(err)) < 0) {
		why = err;
		goto fail;
	}
	if (sa_config_num(in->config, SA_K_NEIGHBOUR_SPAN, &span, err, sizeof(err)) < 0) {
		why = err;
		goto fail;
	}
	if (sts_nb_measure(in->inspect, in->neighbourhood, in->neighbourhood_err, in->nb_matrix,
			   in->nb_bars, in->nb_cols, in->nb_matrix_err, keep_min, span, &nb) < 0) {
		why = "out of memory measuring the neighbourhood";
		goto fail;
	}
	sts_nb_trials(&nb, &tr);
	si.trials = tr.trials;
	si.has_sr_variance = tr.has_v;
	si.sr_variance = tr.v;
	si.trades = in->trades;
	si.n_trades = in->n_trades;
	si.eq_net = in->eq_net;
	si.n_eq = in->n_eq;
	si.eq_per_bar = !strcmp(sa_json_str(in->replay, "equity_basis", "bar"), "bar");
	si.bar_seconds = sa_json_num(in->replay, "bar_seconds", 0);
	si.exposure = sa_json_num(in->replay, "exposure", NAN);
	si.turnover = sa_json_num(in->replay, "turnover", NAN);
	if (!(si.trials >= 1) || si.trials != floor(si.trials)) {
		sa_fmt(err, sizeof(err), "the effective number of trials is %g: it must be a whole "
		       "number of at least 1", si.trials);
		why = err;
		goto fail;
	}
	if (st_summarise(&si, &s) < 0) {
		why = "out of memory computing the statistics";
		goto fail;
	}
	cost_basis = cost_rows(in, &s, err, sizeof(err));
	if (!cost_basis) {
		why = err;
		goto fail;
	}
	o = sts_report(in->replay, &s, cost_basis);
	if (tearsheet(o, in, &s, err, sizeof(err)) < 0) {
		cJSON_Delete(o);
		o = NULL;
		why = err;
		goto fail;
	}
	if (spread(o, in, s.net_return, err, sizeof(err)) < 0) {
		cJSON_Delete(o);
		o = NULL;
		why = err;
		goto fail;
	}
	sts_tail_report(o, in, &s);
	if (sts_quant_report(o, in->trades, in->n_trades, in->eq_net, in->n_eq, s.net_return,
			     s.max_drawdown) < 0) {
		cJSON_Delete(o);
		o = NULL;
		why = "out of memory measuring the trades' durations";
		goto fail;
	}
	if (sts_freqtrade_report(o, in, s.net_return, err, sizeof(err)) < 0) {
		cJSON_Delete(o);
		o = NULL;
		why = err;
		goto fail;
	}
	if (sts_market_report(o, in) < 0) {
		cJSON_Delete(o);
		o = NULL;
		why = "out of memory regressing on the instrument";
		goto fail;
	}
	if (in->variants_err && *in->variants_err && !fam.declared)
		sa_fmt(pbo_why, sizeof(pbo_why), "variants.json is unusable: %s", in->variants_err);
	has_pbo = !(in->variants_err && *in->variants_err && !fam.declared) &&
		sts_trials_pbo(in->config, &fam, in->matrix, in->m_bars, in->m_cols, in->matrix_err,
			      &pbo, &sweep, pbo_why, sizeof(pbo_why)) == 0;
	sts_trials_report(o, &tr, &fam, has_pbo ? &pbo : NULL, has_pbo ? &sweep : NULL, pbo_why);
	sts_trials_ledger_report(o, in->ledger);
	sts_trials_search_report(o, &search);
	sts_nb_report(o, &nb, in->inspect, in->neighbourhood);
	sts_trials_variance_report(o, &tr, s.v_sr, s.dep.effective_trades);
	if (forward(o, in) < 0) {
		cJSON_Delete(o);
		o = NULL;
		why = "out of memory scoring the bars since the first audit";
		goto fail;
	}
	if (sts_checks_report(o, in, s.annual_factor) < 0) {
		cJSON_Delete(o);
		o = NULL;
		why = "out of memory resampling the trades";
		goto fail;
	}
	goto out;
fail:
	o = sa_sf_new(SA_SF_STATS);
	sa_json_fail(o, why);
out:
	sts_family_release(&fam);
	sts_nb_release(&nb);
	return o;
}
