/* replay_curves.h - reconcile.csv, the two equity curves the reconciliation set side by
 * side: the log's claims and the code's replay, each compounded alike (rpl_from_log). */
#ifndef REPLAY_CURVES_H
#define REPLAY_CURVES_H

#include <stdbool.h>
#include <stddef.h>

#include "replay_core.h"
#include "replay_log.h"
#include "tradelog.h"

/* Writes path atomically: the header "curve,time,net_equity", then, when reconciled (a trade
 * log uploaded beside the strategy, log its trades and r the replay's), the rows of curve
 * "claimed" (log's returns) and then of curve "replayed" (r's net returns as trades.csv prints
 * them), each starting at 1 at the first entry of either and holding one row per exit time,
 * every number with 17 significant digits. Returns 0, or -1 with the reason in err (cannot
 * write, out of memory). */
int rpl_write_reconcile(const char *path, bool reconciled, const struct da_tradelog *log,
		       const struct rp_result *r, char *err, size_t errlen);

#endif
