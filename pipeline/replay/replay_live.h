/* replay_live.h - the live decisions scored: lookahead.json's "live" signals (each bar decided
 * with only the bars up to it) replayed as the headline, the full-history backtest replayed
 * beside them with the same costs, and what replay.json says of the two. */
#ifndef SA_REPLAY_LIVE_H
#define SA_REPLAY_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "calls.h"
#include "replay_core.h"
#include "replay_io.h"

/* Reads the live decisions of a lookahead.json tree (borrowed; NULL: it could not be read,
 * read_err says why) for n_bars bars into in (live_asked, live_state, live, live_err): *live
 * gets the array (caller frees) and err the reason (in->live_err points at it). A file that
 * could not be read is DA_LIVE_ERROR, as a malformed live object is (da_live_signals). */
void rpl_read_live(const cJSON *lookahead, const char *read_err, size_t n_bars,
		   struct rpl_inputs *in, int8_t **live, char *err, size_t errlen);

/* Whether in scores the live decisions: signals to replay, the live ones asked for and
 * usable. */
bool rpl_live_scored(const struct rpl_inputs *in);

/* Replays what in scores into r: the live decisions when rpl_live_scored (and then the
 * full-history signals into backtest), else the signals (backtest left zeroed). Returns 0, or
 * -1 when memory ran out (both released). */
int rpl_replay_scored(const struct rpl_inputs *in, struct rp_result *r, struct rp_result *backtest);

/* Adds to replay.json o, when in->live_asked: "scored" ("live" or "backtest"),
 * "scored_reason" (null, or why the backtest's signals were scored), "backtest" {trades,
 * net_return, gross_return} (the full-history signals' replay: backtest when the live ones
 * were scored, else r itself) and "live_vs_backtest" {differing_bars, net_return_live,
 * net_return_backtest, difference (backtest minus live)} or null. */
void rpl_add_live(cJSON *o, const struct rpl_inputs *in, const struct rp_result *r,
		  const struct rp_result *backtest);

#endif
