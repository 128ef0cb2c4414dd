/* signals.h - the one check of what crosses the trust boundary: a run's signals array, and the
 * one reader of run.json's full run that every stage and the report go through. */
#ifndef SA_SIGNALS_H
#define SA_SIGNALS_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/* Reads arr (borrowed; a run.json "signals" array) as exactly n_bars signals, each a JSON
 * number equal to -1, 0 or 1; anything else (a string, 0.5, 2, too few, too many) is refused,
 * never rounded. Returns 0 and a new array in *out (n_bars bytes, caller frees), or -1 with
 * *out NULL and "run.json ..." in err. */
int da_signals_read(const cJSON *arr, size_t n_bars, int8_t **out, char *err, size_t errlen);

/* The refusals run.json records: blocked_actions as a count (the number, or the length of a
 * list an older writer gave). 0 when absent; never negative. */
long da_run_blocked(const cJSON *run);

/* A framework run's signal (its file says "signal_entries": true) is its position plus 3 times
 * its candle's events, -1 to DA_SIGNAL_EVENTS_MAX (the sandbox's wire, SBX_EV_*): freqtrade's
 * uncancelled entry signal and effective exit signal of each side, and (DA_EV_LONG_SIGNAL,
 * only from a strategy that sets ignore_roi_if_entry_signal) its long entry signal as set,
 * cancelled or not, which sets an open long's ROI aside. A plain position (-1, 0, 1) carries no
 * event. */
enum {
	DA_EV_ENTER_LONG = 1,
	DA_EV_ENTER_SHORT = 2,
	DA_EV_EXIT_LONG = 4,
	DA_EV_EXIT_SHORT = 8,
	DA_EV_LONG_SIGNAL = 16,
	DA_SIGNAL_EVENTS_MAX = 1 + 3 * 31,
};

/* The position a signal holds (-1, 0, 1), and its events (DA_EV_*). */
static inline int da_position(int v)
{
	return (v + 1) % 3 - 1;
}

static inline int da_events(int v)
{
	return (v + 1) / 3;
}

/* What a reader of run.json needs of the full run (flags of da_run_signals). */
enum {
	DA_RUN_UNCONTAINED = 1,  /* also refuse a run the sandbox contained: it is never run again */
	DA_RUN_ENTRIES = 2,      /* keep a framework run's events (its file says "signal_entries":
				  * true), which a replay with exits follows; without it each value is
				  * its position (da_position) */
};

/* Takes the full run's signals out of run.json (borrowed): it must say it finished (status
 * "ok" and ok true), over n_bars bars (its n_bars), with one valid signal a bar; with
 * DA_RUN_UNCONTAINED, it must also have been refused nothing. Returns 0 with *sig (n_bars
 * bytes, caller frees), or -1 with *sig NULL and the reason in err ("the strategy run did not
 * finish cleanly (status 'error')", ...), to which the caller adds what follows from it. A run
 * whose "signal_entries" is true may hold values with events (DA_RUN_ENTRIES). */
int da_run_signals(const cJSON *run, size_t n_bars, unsigned flags, int8_t **sig, char *err,
		   size_t errlen);

/* A framework run's entry and exit tags (run.json "tags": freqtrade's enter_tag and exit_tag on
 * the bars that carry their candle's events): names, each 1 to DA_TAG_NAME_MAX printable ASCII
 * bytes, at most DA_TAGS_MAX, no two the same; enter and exit n_bars bytes each, 0 for no tag,
 * else a name's place counted from 1. Release with da_tags_release. */
#define DA_TAGS_MAX 64
#define DA_TAG_NAME_MAX 64
struct da_tags {
	size_t n_names;
	char (*names)[DA_TAG_NAME_MAX + 1];
	uint8_t *enter, *exit;
};

/* Takes run.json's "tags" (run borrowed) over n_bars bars into t (zeroed first): absent or null
 * gives no tags and 0; else it must be {names: [string ...], enter: [[bar, place from 0] ...],
 * exit: [...]}, each name as above, bars ascending below n_bars, places below the names' count,
 * or -1 with "run.json tags ..." in err and t empty. */
int da_run_tags(const cJSON *run, size_t n_bars, struct da_tags *t, char *err, size_t errlen);

/* A tag's name: t's name at place k (from 1), "" for 0 or past the names. */
const char *da_tag_name(const struct da_tags *t, unsigned k);

/* Frees t's arrays and zeroes it; safe on a zeroed struct. */
void da_tags_release(struct da_tags *t);

/* What lookahead.json's "live" object gives a stage that scores it (da_live_signals). */
enum da_live {
	DA_LIVE_ERROR = -1, /* a live object that is not what it must be: an error, never a default */
	DA_LIVE_NONE = 0,   /* no usable live object: no "live", or live.ok false */
	DA_LIVE_OK = 1,     /* live.ok true and live.signals valid */
};

/* Takes the live decisions (each bar decided with only the bars up to it) out of a
 * lookahead.json tree (borrowed). DA_LIVE_OK with *sig (n_bars bytes, caller frees) when "live"
 * is an object with "ok" true and "signals" exactly n_bars values, each -1, 0 or 1;
 * DA_LIVE_NONE with why in err when there is no usable live object ("live" absent or null,
 * or its "ok" false: its "reason" quoted); DA_LIVE_ERROR with err naming the file and field
 * ("lookahead.json live.signals holds 4 values for 5 bars ...") for anything else (a tree that
 * is no object, a live that is no object, an ok that is no boolean, a bad signals array). *sig is
 * NULL unless DA_LIVE_OK. A live object whose "signal_entries" is true may hold values with
 * events, taken as flags says (DA_RUN_ENTRIES, as da_run_signals). */
int da_live_signals(const cJSON *lookahead, size_t n_bars, unsigned flags, int8_t **sig, char *err,
		    size_t errlen);

#endif
