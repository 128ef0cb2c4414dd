/* costs.h - the cost model as config.json gives it: fees and slippage per side, funding per 8 h
 * of held notional, read once for every stage that replays (replay, robust, variants, stats). */
#ifndef SA_COSTS_H
#define SA_COSTS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "replay_core.h"

/* Reads costs {fee_bps, slippage_bps, funding_bps_8h} from a config tree (borrowed), each
 * checked against its knob's range (the row's default when absent). Returns 0, or -1 with the
 * reason in err. */
int rp_read_costs(const cJSON *cfg, struct rp_costs *c, char *err, size_t errlen);

#endif
