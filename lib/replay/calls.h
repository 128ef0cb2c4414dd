/* calls.h - a freqtrade class's per-trade callbacks as its live run answered them
 * (lookahead.json "live"."calls", one row a bar where the host held a trade), read once for
 * every stage that replays the live decisions (the replay, the statistics' re-replays). */
#ifndef SA_CALLS_H
#define SA_CALLS_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "replay_core.h"

/* The answers as read: rc points into the arrays, for rp_costs.calls. */
struct rp_calls_read {
	struct rp_calls rc;
	double fee_bps;      /* the fee a side the trades were sent to the callbacks with */
	double *stop;
	uint8_t *exit;
	uint8_t *refused;    /* confirm_trade_entry refused the bar's entry */
	int8_t *side;
	uint32_t *entry;
	const char **reason; /* custom_exit's reason on the bar ("" none), borrowed from the tree */
};

/* Reads lookahead.json's "live"."calls" (borrowed tree, which must outlive c: the reasons point
 * into it) for n_bars bars into c. Returns 1 when there are calls, 0 when the live run had none
 * (c zeroed), -1 with err when they are malformed (a bar out of order or range, a side or ratio
 * out of range, a reason that is no string, a refusal that is not 0 or 1, or 1 with an answer
 * beside it or where the trade did not enter on the bar). Release with rp_calls_read_release. */
int rp_read_calls(const cJSON *lookahead, size_t n_bars, struct rp_calls_read *c, char *err,
		  size_t errlen);
void rp_calls_read_release(struct rp_calls_read *c);

#endif
