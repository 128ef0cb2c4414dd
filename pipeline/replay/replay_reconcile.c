/* replay_reconcile.c - a trade log set against the code's honest replay, one trade at a time
 * (replay_log.h, rpl_reconcile). */
#include "replay_core.h"
#include "replay_log.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* First replay trade with entry >= at (trades are in entry order). */
static size_t first_entry_from(const struct rp_result *rp, int64_t at)
{
	size_t lo = 0, hi = rp->n_trades;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (rp->trades[mid].entry < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int64_t abs_diff(int64_t a, int64_t b)
{
	return a > b ? a - b : b - a;
}

/* The nearest unused replay trade of this side whose entry is within win seconds of lt's,
 * the earliest among equals; rp->n_trades when none. */
static size_t nearest_unused(const struct rp_result *rp, const unsigned char *used,
			     const struct da_trade *lt, int64_t win)
{
	size_t best = rp->n_trades;

	for (size_t j = first_entry_from(rp, lt->entry - win);
	     j < rp->n_trades && rp->trades[j].entry <= lt->entry + win; j++) {
		if (used[j] || rp->trades[j].side != lt->side)
			continue;
		if (best == rp->n_trades ||
		    abs_diff(rp->trades[j].entry, lt->entry) < abs_diff(rp->trades[best].entry, lt->entry))
			best = j;
	}
	return best;
}

/* Keeps the RPL_WORST largest gaps, largest first (ties: the earlier trade stays ahead). */
static void keep_worst(struct rpl_reconcile *o, const struct rpl_pair *p)
{
	size_t k = o->n_worst < RPL_WORST ? o->n_worst++ : RPL_WORST;

	if (k == RPL_WORST && !(fabs(p->gap) > fabs(o->worst[RPL_WORST - 1].gap)))
		return;
	if (k == RPL_WORST)
		k = RPL_WORST - 1;
	while (k > 0 && fabs(p->gap) > fabs(o->worst[k - 1].gap)) {
		o->worst[k] = o->worst[k - 1];
		k--;
	}
	o->worst[k] = *p;
}

/* The pair for claimed trade lt and its match t (NULL when unmatched). */
static struct rpl_pair make_pair(const struct da_trade *lt, const struct rp_trade *t)
{
	struct rpl_pair p = {
		.line = lt->line, .entry = lt->entry, .exit = lt->exit, .side = lt->side,
		.claimed = lt->ret, .replayed = t ? t->net : NAN,
		.gap = t ? lt->ret - t->net : NAN, .replay_exit = t ? t->exit : 0,
	};
	return p;
}

/* Mean, sd (ddof 1) and t statistic of the matched gaps, from their sum and sum of squares
 * about the mean. */
static void gap_moments(struct rpl_reconcile *o, const double *gaps)
{
	double ss = 0.0, sum = 0.0;
	size_t n = o->matched;

	o->mean_gap = o->sd_gap = o->t_gap = NAN;
	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++)
		sum += gaps[i];
	o->mean_gap = sum / (double)n;
	if (n < 2)
		return;
	for (size_t i = 0; i < n; i++)
		ss += (gaps[i] - o->mean_gap) * (gaps[i] - o->mean_gap);
	o->sd_gap = sqrt(ss / (double)(n - 1));
	if (o->sd_gap > 0)
		o->t_gap = o->mean_gap / (o->sd_gap / sqrt((double)n));
}

/* The replay trades no claimed trade matched. */
static void count_replay_only(const struct rp_result *rp, const unsigned char *used,
			      struct rpl_reconcile *o)
{
	for (size_t j = 0; j < rp->n_trades; j++) {
		const struct rp_trade *t = &rp->trades[j];
		if (used[j])
			continue;
		if (o->replay_only++ == 0)
			o->first_replay_only = (struct rpl_pair){
				.entry = t->entry, .exit = t->exit, .side = t->side,
				.claimed = NAN, .replayed = t->net, .gap = NAN, .replay_exit = t->exit,
			};
	}
}

int rpl_reconcile(const struct da_tradelog *log, const struct rp_result *replay, double tolerance,
		 struct rpl_reconcile *out)
{
	unsigned char *used = calloc(replay->n_trades ? replay->n_trades : 1, 1);
	double *gaps = malloc((log->n ? log->n : 1) * sizeof(*gaps));
	int64_t win = replay->bar_seconds > 0 ? (int64_t)llround(replay->bar_seconds) : 0;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!used || !gaps)
		goto out;
	out->claimed_trades = log->n;
	out->replay_trades = replay->n_trades;
	out->tolerance = tolerance;
	for (size_t i = 0; i < log->n; i++) {
		const struct da_trade *lt = &log->trades[i];
		size_t j = nearest_unused(replay, used, lt, win);
		const struct rp_trade *t = j < replay->n_trades ? &replay->trades[j] : NULL;
		struct rpl_pair p = make_pair(lt, t);

		out->claimed_total += lt->ret;
		if (!t) {
			if (out->claimed_only++ == 0)
				out->first_claimed_only = p;
			continue;
		}
		used[j] = 1;
		gaps[out->matched++] = p.gap;
		if (abs_diff(t->exit, lt->exit) > win && out->exit_mismatches++ == 0)
			out->first_exit_mismatch = p;
		if (!(fabs(p.gap) <= tolerance))
			out->gaps_over++;
		keep_worst(out, &p);
	}
	count_replay_only(replay, used, out);
	gap_moments(out, gaps);
	out->replay_total = replay->sum_net_return;
	out->claimed_mean = log->n ? out->claimed_total / (double)log->n : NAN;
	out->replay_mean = replay->n_trades ? replay->sum_net_return / (double)replay->n_trades : NAN;
	out->total_difference = out->claimed_total - out->replay_total;
	out->consistent = out->claimed_only == 0 && out->replay_only == 0 &&
		out->exit_mismatches == 0 && out->gaps_over == 0;
	rc = 0;
out:
	free(used);
	free(gaps);
	return rc;
}
