/* replay_live.c - the live decisions against the backtest (replay_live.h). */
#include "replay_live.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jsonio.h"
#include "msg.h"
#include "signals.h"

void rpl_read_live(const cJSON *lookahead, const char *read_err, size_t n_bars,
		   struct rpl_inputs *in, int8_t **live, char *err, size_t errlen)
{
	*live = NULL;
	in->live_asked = true;
	in->live_err = err;
	if (!lookahead) {
		sa_fmt(err, errlen, "lookahead.json: %s", read_err);
		in->live_state = DA_LIVE_ERROR;
		return;
	}
	in->live_state = da_live_signals(lookahead, n_bars, DA_RUN_ENTRIES, live, err, errlen);
	in->live = *live;
}

bool rpl_live_scored(const struct rpl_inputs *in)
{
	return in->costs && in->data && in->signals && in->live_asked &&
	       in->live_state == DA_LIVE_OK && in->live;
}

int rpl_replay_scored(const struct rpl_inputs *in, struct rp_result *r, struct rp_result *backtest)
{
	memset(backtest, 0, sizeof *backtest);
	struct rp_costs live = *in->costs;

	if (!rpl_live_scored(in))
		return rp_replay(in->data, in->signals, in->costs, r);
	live.calls = in->calls;  /* the callbacks answered the live run's trades alone */
	if (rp_replay(in->data, in->live, &live, r) < 0)
		return -1;
	live.calls = in->claimed_calls;  /* the backtest the author saw, its callbacks called */
	if (rp_replay(in->data, in->signals, in->claimed_calls ? &live : in->costs, backtest) < 0) {
		rp_result_release(r);
		return -1;
	}
	if (in->claimed_calls && backtest->calls_mismatch) {
		/* answers asked for another trade than these signals hold: not the backtest's */
		rp_result_release(backtest);
		if (rp_replay(in->data, in->signals, in->costs, backtest) < 0) {
			rp_result_release(r);
			return -1;
		}
	}
	return 0;
}

/* Bars whose live decision is not the backtest's. */
static size_t differing_bars(const struct rpl_inputs *in)
{
	size_t n = 0;

	for (size_t i = 0; i < in->data->n; i++)
		n += in->live[i] != in->signals[i];
	return n;
}

void rpl_add_live(cJSON *o, const struct rpl_inputs *in, const struct rp_result *r,
		  const struct rp_result *backtest)
{
	bool live = rpl_live_scored(in);
	const struct rp_result *bt = live ? backtest : r;
	cJSON *b, *d;

	if (!in->live_asked)
		return;
	cJSON_AddStringToObject(o, "scored", live ? "live" : "backtest");
	if (live)
		cJSON_AddNullToObject(o, "scored_reason");
	else
		cJSON_AddStringToObject(o, "scored_reason", in->live_err ? in->live_err : "");
	b = cJSON_AddObjectToObject(o, "backtest");
	cJSON_AddNumberToObject(b, "trades", (double)bt->n_trades);
	sa_json_add_num(b, "net_return", bt->net_return, RPL_DIGITS);
	sa_json_add_num(b, "gross_return", bt->gross_return, RPL_DIGITS);
	if (!live) {
		cJSON_AddNullToObject(o, "live_vs_backtest");
		return;
	}
	d = cJSON_AddObjectToObject(o, "live_vs_backtest");
	cJSON_AddNumberToObject(d, "differing_bars", (double)differing_bars(in));
	sa_json_add_num(d, "net_return_live", r->net_return, RPL_DIGITS);
	sa_json_add_num(d, "net_return_backtest", bt->net_return, RPL_DIGITS);
	sa_json_add_num(d, "difference", bt->net_return - r->net_return, RPL_DIGITS);
}
