/* stats_rerun.c - cost multiples, late fills and the cost break-even, each a replay of its own. */
#include "stats_rerun.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats_core.h"

/* Sharpe and PSR of the replay's per-trade net returns. Returns 0 or -1 (memory). */
static int trade_figures(const struct rp_result *r, struct sts_rerun *out)
{
	double *x = rp_trade_nets(r);
	struct st_moments m;

	if (!x)
		return -1;
	st_moments(x, r->n_trades, &m);
	out->sharpe = st_sharpe(&m);
	out->psr = st_psr(out->sharpe, 0.0, (double)r->n_trades, m.skew, m.kurt);
	free(x);
	return 0;
}

/* The replay of signals delay bars later at k times the costs, into r (caller releases).
 * Returns 0 or -1 (memory). */
static int replay_at(const struct da_ohlcv *s, const int8_t *signals, const struct rp_costs *c,
		     size_t delay, double k, struct rp_result *r)
{
	struct rp_costs ck = rp_costs_scaled(c, k);
	int8_t *late = NULL;
	int rc;

	if (delay == 0)
		return rp_replay(s, signals, &ck, r);
	late = calloc(s->n ? s->n : 1, 1);
	if (!late)
		return -1;
	if (delay < s->n)
		memcpy(late + delay, signals, s->n - delay);
	rc = rp_replay(s, late, &ck, r);
	free(late);
	return rc;
}

int sts_rerun(const struct da_ohlcv *s, const int8_t *signals, const struct rp_costs *c,
	     size_t delay, double k, struct sts_rerun *out)
{
	struct rp_result r;
	int rc = -1;

	*out = (struct sts_rerun){ .sharpe = NAN, .psr = NAN, .net_return = NAN,
				  .sum_net_return = NAN };
	if (c->calls && delay) {
		out->unanswered = true;
		return 0;
	}
	if (replay_at(s, signals, c, delay, k, &r) < 0)
		return -1;
	if (r.calls_mismatch) {
		out->unanswered = true;
		rp_result_release(&r);
		return 0;
	}
	out->trades = r.n_trades;
	/* equity is exactly 0 after ruin, so this is -1 there */
	out->net_return = r.net_return;
	out->sum_net_return = r.sum_net_return;
	out->ruined = r.ruined;
	rc = trade_figures(&r, out);
	rp_result_release(&r);
	return rc;
}

/* --- the break-even -------------------------------------------------------------------- */

/* Why the net return is non-increasing in k, which the bisection rests on. The positions are
 * the signals' whatever the costs, so every replay enters and leaves the same trades at the
 * same bars until it is ruined. Each charge is non-negative and proportional to k: fees and
 * slippage per unit traded, funding |rate| per instant held (when it is never income), borrow
 * per second a short is held. A mark or an exit is E_entry * (1 + g - k * costs so far), g the
 * trade's price move, so by induction over the trades E_entry is non-negative and
 * non-increasing in k, the factor is non-increasing in k, and so is their product while it is
 * positive. A mark at or below zero is ruin: at any larger k that mark is at or below zero too,
 * so ruin comes at the same bar or earlier, and equity stays at 0 from there. Hence the end
 * equity, and the net return, never rise with k. Funding that can be income breaks this (a
 * short earns more as k grows), and such a cost model gets no figure. */
struct search {
	const struct da_ohlcv *s;
	const int8_t *signals;
	const struct rp_costs *c;
	size_t replays;
	bool mismatch;  /* a replay held a trade the callbacks' answers were not for */
};

/* The net return at k, and whether the account is ruined there. Returns 0 or -1 (memory). */
static int net_at(struct search *q, double k, double *net, bool *ruined)
{
	struct rp_result r;

	if (replay_at(q->s, q->signals, q->c, 0, k, &r) < 0)
		return -1;
	q->replays++;
	q->mismatch |= r.calls_mismatch;
	*net = r.net_return;
	if (ruined)
		*ruined = r.ruined;
	rp_result_release(&r);
	return 0;
}

/* Why the cost model or the replay at 1x (r1) gives no break-even, or NULL. */
static const char *no_breakeven(const struct da_ohlcv *s, const struct rp_costs *c,
				const struct rp_result *r1)
{
	if (rp_market_of(c, s) == RP_MARKET_PERP && c->funding_income && c->funding_bps_8h != 0)
		return "funding is income in this cost model (FUNDING_INCOME): scaled with the charges "
		       "a short's income grows too, so the net return need not fall as costs rise "
		       "and no one multiple is the break-even";
	if (r1->n_trades == 0)
		return "no trades: nothing pays the costs";
	if (!(r1->fees + r1->slippage + r1->funding + r1->borrow > 0))
		return "the trades paid no costs, so scaling them changes nothing";
	return NULL;
}

/* Bisects [lo, hi] (net > 0 at lo, <= 0 at hi, ruined there or not) to STS_BE_TOL; the net
 * return is monotone in k (above), so the crossing stays inside. Returns 0 or -1 (memory). */
static int bisect(struct search *q, bool ruined_hi, struct sts_breakeven *out)
{
	while (out->hi - out->lo > STS_BE_TOL * out->hi) {
		double mid = out->lo + (out->hi - out->lo) / 2, net;
		bool ruined;
		if (net_at(q, mid, &net, &ruined) < 0)
			return -1;
		if (net > 0) {
			out->lo = mid;
		} else {
			out->hi = mid;
			ruined_hi = ruined;
		}
	}
	out->at_ruin = ruined_hi;
	out->multiple = out->lo + (out->hi - out->lo) / 2;
	return 0;
}

/* Brackets the crossing from the net return at 1x: [0, 1] when 1x already loses, else
 * doubling from 1 until a multiple loses. Returns 0 (out->reason set when nothing loses up to
 * STS_BE_MAX), or -1 (memory). */
static int bracket(struct search *q, double net1, bool ruined1, bool *ruined_hi,
		   struct sts_breakeven *out)
{
	double net = net1;

	out->lo = 0.0;
	out->hi = 1.0;
	*ruined_hi = ruined1;
	while (net > 0) {
		if (out->hi >= STS_BE_MAX) {
			out->lo = out->hi = NAN;
			out->reason = "the net return stays positive up to 1e12 times the costs";
			return 0;
		}
		out->lo = out->hi;
		out->hi *= 2;
		if (net_at(q, out->hi, &net, ruined_hi) < 0)
			return -1;
	}
	return 0;
}

/* The search once the 1x replay allows one. Returns 0 or -1 (memory). */
static int search(struct search *q, double net1, bool ruined1, struct sts_breakeven *out)
{
	double gross;
	bool ruined_hi;

	if (net_at(q, 0.0, &gross, NULL) < 0)
		return -1;
	if (!(gross > 0)) {
		out->reason = "the gross return (no costs at all) is not positive, so no cost multiple "
			      "leaves a profit";
		return 0;
	}
	if (bracket(q, net1, ruined1, &ruined_hi, out) < 0)
		return -1;
	return out->reason ? 0 : bisect(q, ruined_hi, out);
}

int sts_breakeven(const struct da_ohlcv *s, const int8_t *signals, const struct rp_costs *c,
		 struct sts_breakeven *out)
{
	struct search q = { .s = s, .signals = signals, .c = c, .replays = 1 };
	struct rp_result r1;
	double net1;
	bool ruined1;
	int rc = 0;

	*out = (struct sts_breakeven){ .multiple = NAN, .lo = NAN, .hi = NAN };
	if (replay_at(s, signals, c, 0, 1.0, &r1) < 0)
		return -1;
	net1 = r1.net_return;
	ruined1 = r1.ruined;
	out->reason = no_breakeven(s, c, &r1);
	if (!out->reason && r1.calls_mismatch)
		out->reason = "the replay at 1x holds a trade the callbacks were not asked about";
	rp_result_release(&r1);
	if (!out->reason)
		rc = search(&q, net1, ruined1, out);
	if (rc == 0 && q.mismatch) {
		out->multiple = out->lo = out->hi = NAN;
		out->reason = "a replay at another cost multiple holds a trade the callbacks were not "
			      "asked about, so the break-even would be another strategy's";
	}
	out->replays = q.replays;
	return rc;
}
