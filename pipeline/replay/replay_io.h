/* replay_io.h - the replay stage's inputs (config costs, run.json signals, validated as
 * hostile) and its outputs (replay.json, trades.csv, equity.csv). */
#ifndef REPLAY_IO_H
#define REPLAY_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "ohlcv.h"
#include "costs.h"
#include "replay_core.h"
#include "signals.h"
#include "tradelog.h"

/* Significant digits of every number replay writes (JSON and CSV). */
#define RPL_DIGITS 10


/* Validates a run.json tree (borrowed) against n_bars bars of data: "ok" true, "status" "ok",
 * "n_bars" equal to n_bars, and "signals" an array of n_bars integers each -1, 0 or 1.
 * Returns 0 and a new array in *signals (caller frees), or -1 with the reason in err and
 * *signals NULL. */
int rpl_read_signals(const cJSON *run, size_t n_bars, int8_t **signals, char *err,
		    size_t errlen);

/* What the stage was given, each already loaded or with the reason it could not be. All
 * borrowed. A NULL pointer means absent or unusable; its *_err says why ("" when simply not
 * uploaded). */
struct rpl_inputs {
	const struct rp_costs *costs;     /* NULL when config.json was unusable */
	const char *config_err;
	const struct da_ohlcv *data;      /* NULL when the data did not load */
	const char *data_err;
	const int8_t *signals;            /* validated, data->n values; NULL when unusable */
	const cJSON *exits;               /* the declared exits (inspect.json's), checked and in
					   * costs->exits; NULL when none were read */
	const char *signals_err;
	/* The live decisions (lookahead.json "live", --lookahead): live_asked when the file was
	 * given; live_state DA_LIVE_OK (live holds data->n decisions, scored instead of signals,
	 * which are then replayed beside them as the backtest), DA_LIVE_NONE (signals scored,
	 * live_err says why) or DA_LIVE_ERROR (the stage fails with live_err: never a default). */
	bool live_asked;
	int live_state;
	const int8_t *live;
	const char *live_err;
	const struct rp_calls *calls;     /* a class with per-trade callbacks: the answers its live
					   * run gave (lookahead.json "live"."calls"), replayed with the
					   * live decisions only; NULL when none */
	double calls_fee_bps;             /* the fee a side those trades were sent with */
	const struct rp_calls *claimed_calls;  /* and the answers the claimed run gave (its
					   * backtest, "live"."claimed_calls"), replayed with the
					   * backtest's signals; NULL when none */
	const struct da_tradelog *log;    /* NULL when not uploaded or not loadable */
	const char *log_err;
	double reconcile_bps;             /* knob RECONCILE_BPS: the largest gap per trade */
};

/* The replay stage's core: picks the mode (signals, tradelog, both), replays or audits into r
 * (caller releases with rp_result_release; zeroed when nothing could be replayed) and returns
 * the replay.json tree (caller frees). Never NULL (aborts on out of memory, like
 * sa_json_stage); "ok" false with a reason when neither input is usable, or when the live
 * decisions were asked for and are unusable. When the live decisions are scored (replay.json
 * "scored": "live"), backtest gets the replay of the full-history signals (in->signals) with
 * the same costs and exits; else it is zeroed and r is the backtest's own replay. The caller
 * releases backtest too. */
cJSON *rpl_stage(const struct rpl_inputs *in, struct rp_result *r, struct rp_result *backtest);

/* Writes trades.csv / equity.csv for r atomically (headers only when r is empty); trades.csv's
 * entry_tag and exit_tag are the trades' tags' names in tags (NULL or none: empty). Return 0,
 * or -1 with the reason in err. */
int rpl_write_trades(const char *path, const struct rp_result *r, const struct da_tags *tags,
		     char *err, size_t errlen);
int rpl_write_equity(const char *path, const struct rp_result *r, char *err, size_t errlen);

#endif
