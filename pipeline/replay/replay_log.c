/* replay_log.c - a trade log's claimed returns as a result (replay_log.h, rpl_from_log): its
 * trades in exit order, concurrent ones as shares of one account, the equity marked at exits. */
#include "replay_alloc.h"
#include "replay_core.h"
#include "replay_log.h"
#include "stats_overlap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t rpl_bar_at_or_after(const struct da_ohlcv *s, int64_t at)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->t[mid] < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Bars whose open time falls in [entry, exit), when the data is known. */
static long bars_between(const struct da_ohlcv *s, int64_t entry, int64_t exit)
{
	if (!s || s->n == 0)
		return -1;
	return (long)(rpl_bar_at_or_after(s, exit) - rpl_bar_at_or_after(s, entry));
}

/* Bars covered by at least one logged trade, so overlapping trades are not double counted. */
static size_t bars_covered(const struct da_tradelog *log, const struct da_ohlcv *s)
{
	size_t covered = 0;
	unsigned char *in = calloc(s->n ? s->n : 1, 1);

	if (!in)
		return 0;
	for (size_t i = 0; i < log->n; i++) {
		size_t a = rpl_bar_at_or_after(s, log->trades[i].entry);
		size_t b = rpl_bar_at_or_after(s, log->trades[i].exit);
		for (size_t j = a; j < b; j++)
			in[j] = 1;
	}
	for (size_t j = 0; j < s->n; j++)
		covered += in[j];
	free(in);
	return covered;
}

/* Trades that close at one time close together: the curve keeps one row per exit time, the
 * equity after all of them (in-between rows would show an order the log does not have).
 * Returns the rows kept. */
static size_t one_row_per_time(struct rp_result *r, size_t rows)
{
	size_t k = 0;

	for (size_t i = 0; i < rows; i++) {
		if (k && r->eq_time_owned[k - 1] == r->eq_time_owned[i])
			k--;
		r->eq_time_owned[k] = r->eq_time_owned[i];
		r->eq_pos[k] = r->eq_pos[i];
		r->eq_gross[k] = r->eq_gross[i];
		r->eq_net[k] = r->eq_net[i];
		k++;
	}
	return k;
}

/* Whether log trade i is among the first rows of order. */
static bool closed_by(const size_t *order, size_t rows, size_t i)
{
	for (size_t k = 0; k < rows; k++)
		if (order[k] == i)
			return true;
	return false;
}

/* Orders trade indexes by exit time, then entry time, then log order (stable and total). */
static int by_exit(const void *a, const void *b, void *base)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct da_trade *x = (const struct da_trade *)base + i;
	const struct da_trade *y = (const struct da_trade *)base + j;

	if (x->exit != y->exit)
		return x->exit < y->exit ? -1 : 1;
	if (x->entry != y->entry)
		return x->entry < y->entry ? -1 : 1;
	return i < j ? -1 : (i > j);
}

/* The equity after the first k rows of a per-exit curve at time at: the last row with time
 * <= at, or the starting 1 when there is none. */
static double equity_at(const struct rp_result *r, size_t k, int64_t at)
{
	size_t lo = 0, hi = k;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->eq_time_owned[mid] <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? r->eq_net[lo - 1] : 1.0;
}

/* The log's trades in exit order, compounded: each claimed return applies to the trade's
 * share (share[i], stats_overlap.h: 1 / the most trades open at once in its life) of the
 * equity at its entry, so concurrent trades are shares of one account. Stops at ruin (equity
 * at or below zero); returns how many rows were written, and keeps in r only the trades those
 * rows close. */
static size_t log_curve(const struct da_tradelog *log, const size_t *order, const double *share,
			struct rp_result *r)
{
	double eq = 1.0;
	size_t k;

	for (k = 0; k < log->n; k++) {
		const struct da_trade *lt = &log->trades[order[k]];
		eq += equity_at(r, k, lt->entry) * share[order[k]] * lt->ret;
		r->eq_time_owned[k] = lt->exit;
		r->eq_pos[k] = (int8_t)lt->side;
		if (!(eq > 0)) {
			eq = 0.0;
			r->ruined = true;
			r->ruin_time = lt->exit;
		}
		r->eq_gross[k] = r->eq_net[k] = eq;
		if (r->ruined)
			return k + 1;
	}
	return k;
}

/* Each log trade's share of the account (stats_overlap.h) into share[0..log->n); an account
 * log's returns are already of the whole account (da_tradelog_to_account), each share 1.
 * Returns 0, or -1 when memory ran out. */
static int log_shares(const struct da_tradelog *log, double *share)
{
	int64_t *entry = NULL, *exit = NULL;
	struct st_overlap o;
	int rc = -1;

	if (log->account.on) {
		for (size_t i = 0; i < log->n; i++)
			share[i] = 1.0;
		return 0;
	}
	entry = malloc((log->n + 1) * sizeof *entry);
	exit = malloc((log->n + 1) * sizeof *exit);
	if (!entry || !exit)
		goto out;
	for (size_t i = 0; i < log->n; i++) {
		entry[i] = log->trades[i].entry;
		exit[i] = log->trades[i].exit;
	}
	rc = st_overlap_spans(entry, exit, log->n, &o, share);
out:
	free(entry);
	free(exit);
	return rc;
}

int rpl_from_log(const struct da_tradelog *log, const struct da_ohlcv *s, struct rp_result *r)
{
	size_t *order = NULL, rows;
	double *share = NULL;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	order = malloc((log->n ? log->n : 1) * sizeof(*order));
	share = malloc((log->n ? log->n : 1) * sizeof(*share));
	if (!order || !share || rp_trades_alloc(r, log->n) < 0 || rp_columns_alloc(r, log->n, NULL) < 0 ||
	    log_shares(log, share) < 0)
		goto out;
	for (size_t i = 0; i < log->n; i++)
		order[i] = i;
	qsort_r(order, log->n, sizeof(*order), by_exit, log->trades);
	rows = log_curve(log, order, share, r);
	r->n_eq = one_row_per_time(r, rows);
	/* After ruin nothing trades: the trades kept are those the curve closed, in log order. */
	for (size_t i = 0; i < log->n; i++) {
		const struct da_trade *lt = &log->trades[i];
		if (r->ruined && (lt->exit > r->ruin_time ||
				  (lt->exit == r->ruin_time && !closed_by(order, rows, i))))
			continue;
		r->trades[r->n_trades++] = (struct rp_trade){
			.entry = lt->entry, .exit = lt->exit, .side = lt->side,
			.entry_px = NAN, .exit_px = NAN,
			.bars_held = bars_between(s, lt->entry, lt->exit),
			.gross = lt->ret, .net = lt->ret,
		};
		r->sum_gross_return += lt->ret;
		r->sum_net_return += lt->ret;
	}
	r->gross_return = r->net_return = (rows ? r->eq_net[rows - 1] : 1.0) - 1.0;
	r->units_traded = 2.0 * (double)r->n_trades;
	r->exits[RP_EXIT_UNKNOWN] = r->n_trades;
	if (s && s->n >= 2) {
		r->bars_in_market = bars_covered(log, s);
		r->bar_seconds = (double)(s->t[s->n - 1] - s->t[0]) / (double)(s->n - 1);
	}
	rc = 0;
out:
	free(order);
	free(share);
	if (rc < 0)
		rp_result_release(r);
	return rc;
}
