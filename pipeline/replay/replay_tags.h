/* replay_tags.h - a framework run's entry and exit tags (run.json "tags") put on the replayed
 * trades, for trades.csv's entry_tag and exit_tag. */
#ifndef REPLAY_TAGS_H
#define REPLAY_TAGS_H

#include <stdint.h>

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

#endif
