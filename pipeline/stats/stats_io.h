/* stats_io.h - the stats stage's inputs (replay.json, trades.csv, equity.csv, trials) and its
 * stats.json. */
#ifndef STATS_IO_H
#define STATS_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "replay_core.h"
#include "signals.h"
#include "stats_core.h"
#include "stats_montecarlo.h"
#include "stats_walkforward.h"

/* Reads "trials" from a config tree (borrowed): an integer >= 1. Returns 0, or -1 with a
 * reason in err (missing, not a number, 0, fractional). */
int sts_read_trials(const cJSON *cfg, double *trials, char *err, size_t errlen);

/* Parses a trades.csv buffer written by replay (columns found by name; empty prices and
 * bars_held allowed, every return finite). Returns 0 and a new array in *trades (caller
 * frees) with its length in *n, or -1 with "trades.csv line N: reason" in err. With tags (may be
 * NULL), each trade's entry_tag is its place in tags' names, the entry_tag column's names in the
 * order met, at most DA_TAGS_MAX (tags released by the caller with da_tags_release); with
 * exit_tags (may be NULL) each trade's exit_tag likewise, in a table of its own. */
int sts_parse_trades(const char *buf, size_t len, struct rp_trade **trades, size_t *n,
		    struct da_tags *tags, struct da_tags *exit_tags, char *err, size_t errlen);

/* Parses an equity.csv buffer: the net_equity column, every value finite. Returns 0 and a new
 * array in *eq (caller frees), or -1 with "equity.csv line N: reason" in err. */
int sts_parse_equity(const char *buf, size_t len, double **eq, size_t *n, char *err,
		    size_t errlen);

/* Builds stats.json (caller frees; never NULL) from the replay tree (borrowed), the trials
 * and the summary s; cost_basis says how s's cost rows were made ("replayed" or "rescaled"). */
cJSON *sts_report(const cJSON *replay, const struct st_summary *s, const char *cost_basis);

/* What the curve files draw that stats.json summarises: the walk-forward's stretches and
 * choices, and the Monte Carlo's fan (STS_MC_FAN_POINTS rows of the 5th, 25th, 50th, 75th and
 * 95th percentiles), each with whether it was computed. */
struct sts_curves {
	bool has_wf, has_fan;
	struct sts_walkforward wf;
	double fan[STS_MC_FAN_POINTS * 5];
};

/* The stats stage's core: everything already read (all borrowed; a NULL tree or a non-empty
 * *_err means that input is unusable). Returns stats.json, "ok" false with the first reason
 * when an input is unusable. Caller frees. */
struct sts_stage_in {
	const cJSON *replay;
	const char *replay_err;
	const cJSON *config;
	const char *config_err;
	const struct rp_trade *trades;
	size_t n_trades;
	const struct da_tags *entry_tags;  /* the names trades' entry_tag places count in, or NULL */
	const struct da_tags *exit_tags;   /* the names their exit_tag places count in, or NULL */
	const char *trades_err;
	const double *eq_net;
	const int64_t *eq_time;   /* equity.csv's times, n_eq of them */
	size_t n_eq;
	const char *equity_err;
	/* For the tearsheet's benchmark and late fills; NULL with a reason when unusable. */
	const struct da_ohlcv *data;
	const char *data_err;
	const int8_t *signals;    /* data->n validated signals */
	const char *signals_err;
	const struct rp_calls *calls;  /* the live run's callback answers for those signals, or NULL */
	/* the declared variants: variants.json (NULL when there is none) and its return matrix
	 * (n_cols columns of m_bars; NULL with matrix_err when it could not be read) */
	const cJSON *variants;
	const char *variants_err;
	const double *matrix;
	size_t m_bars, m_cols;
	const char *matrix_err;
	/* the neighbourhood: neighbourhood.json (NULL when not given, with neighbourhood_err
	 * when unusable) and its return matrix (nb_cols columns of nb_bars; NULL with
	 * nb_matrix_err) */
	const cJSON *neighbourhood;
	const char *neighbourhood_err;
	const double *nb_matrix;
	size_t nb_bars, nb_cols;
	const char *nb_matrix_err;
	/* ledger.json when the trial ledger was used (NULL otherwise) */
	const cJSON *ledger;
	/* inspect.json (its strategy.hyperopt_space) and run.json (its declared_search), the
	 * searches the upload declares; NULL when not given */
	const cJSON *inspect, *run;
	/* when not NULL, receives the walk-forward and the Monte Carlo fan behind stats.json's
	 * figures, for the curve files (stats_curves.h) */
	struct sts_curves *curves;
};
cJSON *sts_stage(const struct sts_stage_in *in);

#endif
