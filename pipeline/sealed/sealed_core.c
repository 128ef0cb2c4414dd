/* sealed_core.c - the sealed bars' aggregates and their gate. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jsonio.h"
#include "sealed_core.h"
#include "stats_core.h"

int sl_score(const struct da_ohlcv *s, const int8_t *signals, const struct rp_costs *c,
	     struct sl_score *out)
{
	struct rp_result r;
	struct st_moments m;
	double *net;

	memset(out, 0, sizeof *out);
	out->bars = s->n;
	if (rp_replay(s, signals, c, &r) < 0)
		return -1;
	net = rp_trade_nets(&r);
	if (!net) {
		rp_result_release(&r);
		return -1;
	}
	for (size_t i = 0; i < r.n_trades; i++)
		out->wins += net[i] > 0;
	st_moments(net, r.n_trades, &m);
	out->trades = r.n_trades;
	out->net_return = r.net_return;
	out->gross_return = r.gross_return;
	out->mean_net = r.n_trades ? m.mean : NAN;
	out->sharpe = st_sharpe(&m);
	out->psr = st_psr(out->sharpe, 0, (double)r.n_trades, m.skew, m.kurt);
	out->max_drawdown = st_max_drawdown(1, r.eq_net, r.n_eq);
	out->costs = r.fees + r.slippage + r.funding + r.borrow;
	out->ruined = r.ruined;
	/* the in-sample net_edge gate's test, on bars no memory of the chart has seen */
	out->edge_holds = r.n_trades > 0 && !r.ruined && out->mean_net > 0 && r.net_return > 0;
	free(net);
	rp_result_release(&r);
	return 0;
}

void sl_score_json(const struct sl_score *sc, cJSON *o)
{
	cJSON_AddNumberToObject(o, "bars", (double)sc->bars);
	cJSON_AddNumberToObject(o, "trades", (double)sc->trades);
	cJSON_AddNumberToObject(o, "winning_trades", (double)sc->wins);
	sa_json_add_num(o, "net_return", sc->net_return, ST_DIGITS);
	sa_json_add_num(o, "gross_return", sc->gross_return, ST_DIGITS);
	sa_json_add_num(o, "mean_net_return", sc->mean_net, ST_DIGITS);
	sa_json_add_num(o, "sharpe_per_trade", sc->sharpe, ST_DIGITS);
	sa_json_add_num(o, "psr", sc->psr, ST_DIGITS);
	sa_json_add_num(o, "max_drawdown", sc->max_drawdown, ST_DIGITS);
	sa_json_add_num(o, "costs", sc->costs, ST_DIGITS);
	cJSON_AddBoolToObject(o, "ruined", sc->ruined);
	cJSON_AddBoolToObject(o, "edge_holds", sc->edge_holds);
}
