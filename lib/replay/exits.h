/* exits.h - the exits a strategy declares (stop-loss, take-profit, trailing stop, ROI table),
 * read from the "exits" object the inspect stage writes (inspect.json strategy.exits, carried
 * on in replay.json exits), checked again as hostile, for every stage that replays. */
#ifndef SA_EXITS_H
#define SA_EXITS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "replay_core.h"

/* Fills x (zeroed first) from an exits object (borrowed): {declared, stop_loss, take_profit,
 * trailing {distance, positive, offset, only_offset, best_first (optional)} | null, roi [[minutes, return], ...],
 * exit_profit_only, exit_profit_offset, ignore_roi_if_entry_signal (optional: freqtrade's rules
 * about the open trade), source ("freqtrade": profits read with the fee, fee_in_profit),
 * error}. NULL or not declared: no exits, 0. Returns -1 with the reason in err when the
 * declaration was found bad ("error") or a value is out of its range: a stop-loss or trailing
 * distance not in (0, 1], a take-profit not above 0, a negative trail offset, ROI
 * minutes negative or not ascending, a ROI return below -1 or not finite, more than
 * RP_ROI_MAX steps, an exit_profit_offset below -1. */
int rp_exits_from_json(const cJSON *o, struct rp_exits *x, char *err, size_t errlen);

/* The exits object of an inspect.json tree (borrowed): strategy.exits, or NULL. */
const cJSON *rp_exits_of_inspect(const cJSON *inspect);

/* Reads the exits an inspect.json file at path declares into x (zeroed first; a file without
 * any: none). Returns 0, or -1 with the reason in err: the file unusable, or the exits bad as
 * rp_exits_from_json says. Holds nothing of the file after it returns. */
int rp_exits_read_inspect(const char *path, struct rp_exits *x, char *err, size_t errlen);

#endif
