/* costs.h - the cost model as config.json gives it: fees and slippage per side, the market and
 * its holding costs (a perp's funding per 8 h, a short's borrow on stock and spot), read once
 * for every stage that replays (replay, robust, sealed, variants, stats). */
#ifndef SA_COSTS_H
#define SA_COSTS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "replay_core.h"

/* Reads costs {fee_bps, slippage_bps, funding_bps_8h, funding_income, borrow_bps_year, market}
 * from a config tree (borrowed), each checked against its knob's range (the row's default when
 * absent); market stays RP_MARKET_AUTO when unset. Returns 0, or -1 with the reason in err. */
int rp_read_costs(const cJSON *cfg, struct rp_costs *c, char *err, size_t errlen);

#endif
