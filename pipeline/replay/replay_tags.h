/* replay_tags.h - a framework run's entry and exit tags (run.json "tags") put on the replayed
 * trades, for trades.csv's entry_tag and exit_tag. */
#ifndef REPLAY_TAGS_H
#define REPLAY_TAGS_H

#include <stdint.h>

#include "calls.h"
#include "ohlcv.h"
#include "replay_core.h"
#include "signals.h"

/* Sets each trade of r (replayed over s from the values replayed, n = s->n each) as freqtrade
 * tags it: entry_tag the tag of the bar before its entry (the candle whose entry event opened
 * it), exit_tag, for a trade an exit signal closed at a bar's open, the tag of the bar before.
 * Tags belong to the full run (full): a bar whose replayed value is not the full run's own (a
 * live decision that differs) gives none. Any of tags, replayed or full NULL: no tags. */
void rpl_tag_trades(struct rp_result *r, const struct da_ohlcv *s, const struct da_tags *tags,
		    const int8_t *replayed, const int8_t *full);

/* Sets exit_tag of each trade of r that custom_exit closed (RP_EXIT_CUSTOM) with a named reason
 * (calls' reason on its exit bar), as freqtrade stamps that string as the trade's exit reason:
 * the name is added to tags when new (past the run's own DA_TAGS_MAX, up to 255 names, the
 * places a trade's exit_tag holds). calls NULL: nothing. Returns 0, or -1 when the table is
 * full or memory ran out. */
int rpl_tag_custom_exits(struct rp_result *r, const struct da_ohlcv *s, struct da_tags *tags,
			 const struct rp_calls_read *calls);

#endif
