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

void rpl_calls_release(struct rpl_calls *c)
{
	free(c->stop);
	free(c->exit);
	free(c->side);
	free(c->entry);
	memset(c, 0, sizeof *c);
}

/* One row of "calls", [bar, side, entry bar, asked, ratio or null, exit, reason], into c. Returns
 * its bar, or -1 when it is malformed. */
static long call_row(const cJSON *row, size_t n_bars, struct rpl_calls *c)
{
	const cJSON *v[7];
	double bar, side, entry, ex;

	if (!cJSON_IsArray(row) || cJSON_GetArraySize(row) != 7)
		return -1;
	for (int k = 0; k < 7; k++)
		v[k] = cJSON_GetArrayItem(row, k);
	for (int k = 0; k < 6; k++)
		if (!cJSON_IsNumber(v[k]) && !(k == 4 && cJSON_IsNull(v[k])))
			return -1;
	bar = v[0]->valuedouble;
	side = v[1]->valuedouble;
	entry = v[2]->valuedouble;
	ex = v[5]->valuedouble;
	if (!(bar >= 0 && bar < (double)n_bars && bar == floor(bar)) || (side != 1 && side != -1) ||
	    !(entry >= 0 && entry <= bar && entry == floor(entry)) || (ex != 0 && ex != 1))
		return -1;
	if (cJSON_IsNumber(v[4]) && !(isfinite(v[4]->valuedouble) && v[4]->valuedouble != 0 &&
				       fabs(v[4]->valuedouble) <= 1))
		return -1;
	c->side[(size_t)bar] = (int8_t)side;
	c->entry[(size_t)bar] = (uint32_t)entry;
	c->stop[(size_t)bar] = cJSON_IsNumber(v[4]) ? v[4]->valuedouble : NAN;
	c->exit[(size_t)bar] = (uint8_t)ex;
	return (long)bar;
}

int rpl_read_calls(const cJSON *lookahead, size_t n_bars, struct rpl_calls *c, char *err, size_t errlen)
{
	const cJSON *live = cJSON_GetObjectItemCaseSensitive(lookahead, "live");
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(live, "calls"), *row;
	size_t m = n_bars ? n_bars : 1;
	long last = -1;

	memset(c, 0, sizeof *c);
	if (!a)
		return 0;
	if (!cJSON_IsArray(a)) {
		sa_fmt(err, errlen, "lookahead.json live.calls is not an array");
		return -1;
	}
	c->stop = malloc(m * sizeof *c->stop);
	c->exit = calloc(m, 1);
	c->side = calloc(m, 1);
	c->entry = calloc(m, sizeof *c->entry);
	if (!c->stop || !c->exit || !c->side || !c->entry) {
		rpl_calls_release(c);
		sa_fmt(err, errlen, "out of memory reading lookahead.json live.calls");
		return -1;
	}
	for (size_t i = 0; i < n_bars; i++)
		c->stop[i] = NAN;
	c->fee_bps = sa_json_num(live, "calls_fee_bps", NAN);
	if (!(c->fee_bps >= 0)) {
		sa_fmt(err, errlen, "lookahead.json live.calls_fee_bps is not a fee");
		rpl_calls_release(c);
		return -1;
	}
	cJSON_ArrayForEach(row, a) {
		long bar = call_row(row, n_bars, c);

		if (bar <= last) {
			sa_fmt(err, errlen, "lookahead.json live.calls has a malformed row after bar %ld "
			       "(each [bar, side, entry bar, asked, ratio or null, exit, reason], bars in order)",
			       last);
			rpl_calls_release(c);
			return -1;
		}
		last = bar;
	}
	c->rc = (struct rp_calls){ .stop = c->stop, .exit = c->exit, .side = c->side, .entry = c->entry };
	return 1;
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
	if (rp_replay(in->data, in->signals, in->costs, backtest) < 0) {
		rp_result_release(r);
		return -1;
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
