/* sealed_core.h - the score of a strategy on sealed bars (bars the uploader has never seen):
 * its signals replayed with the audit's costs, kept only as aggregates, and its gate (the net
 * edge must hold there). Pure computation: no I/O, no sandbox, no exit. */
#ifndef SEALED_CORE_H
#define SEALED_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "ohlcv.h"
#include "replay_core.h"

#define SL_SCHEMA 1

/* Aggregates only: nothing here names a bar, a time or a trade of the sealed set. */
struct sl_score {
	size_t bars, trades, wins;
	double net_return, gross_return;   /* compounded, as the replay's */
	double mean_net;                   /* mean net return per trade, NAN without trades */
	double sharpe, psr;                /* per trade; PSR(SR* = 0); NAN where undefined */
	double max_drawdown;               /* of compounded net equity, a fraction */
	double costs;                      /* fees, slippage and holding costs summed over trades */
	bool ruined;
	bool edge_holds;                   /* the gate: mean_net > 0 and net_return > 0, not ruined */
};

/* Replays signals (one valid value a bar of s) with costs c and fills *out. Returns 0, or -1
 * when memory ran out. */
int sl_score(const struct da_ohlcv *s, const int8_t *signals, const struct rp_costs *c,
	     struct sl_score *out);

/* The aggregates as JSON members of o. */
void sl_score_json(const struct sl_score *sc, cJSON *o);

#endif
