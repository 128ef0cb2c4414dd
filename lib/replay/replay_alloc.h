/* replay_alloc.h - the result's columns as the replay core and the replay stage's log mode
 * (pipeline/replay/replay_log.c) allocate them (replay_core.c); no other user. */
#ifndef SA_REPLAY_ALLOC_H
#define SA_REPLAY_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#include "replay_core.h"

/* Allocates an equity curve of n_eq rows in r, with its own time column unless times are
 * borrowed; large columns on huge pages. Released by rp_result_release. Returns 0 or -1. */
int rp_columns_alloc(struct rp_result *r, size_t n_eq, const int64_t *times);

/* The trade array of n_trades, uninitialised: every trade is written whole when it is made.
 * Returns 0 or -1. */
int rp_trades_alloc(struct rp_result *r, size_t n_trades);

#endif
