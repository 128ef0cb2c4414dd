/* sealed_core.h - the score of a strategy on sealed bars (bars the uploader has never seen):
 * its signals replayed with the audit's costs, and what of it may be told back. The score stays
 * inside the stage; only one of a few outcomes leaves it, chosen by a reusable holdout
 * (Thresholdout, Dwork et al., Science 2015): the sealed edge is compared with the open one
 * beyond a noisy threshold, and told only as a bucket. Pure computation: no I/O, no sandbox,
 * no exit. */
#ifndef SEALED_CORE_H
#define SEALED_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "ohlcv.h"
#include "replay_core.h"

/* Aggregates of the sealed run: never written, only turned into an outcome. */
struct sl_score {
	size_t bars, trades;
	double net_return;                 /* compounded, as the replay's */
	double mean_net;                   /* mean net return per trade, NAN without trades */
	bool ruined;
	bool edge_holds;                   /* mean_net > 0 and net_return > 0, not ruined */
};

/* Replays signals (one valid value a bar of s) with costs c and fills *out. Returns 0, or -1
 * when memory ran out. */
int sl_score(const struct da_ohlcv *s, const int8_t *signals, const struct rp_costs *c,
	     struct sl_score *out);

/* Everything a sealed audit can tell back. The first two do not depend on the sealed bars (the
 * budget, an upload refused before); each of the other SL_STEERABLE can. */
enum sl_outcome {
	SL_SPENT,        /* the set's budget is used up: not run */
	SL_NOT_RUN,      /* the upload was refused or failed on the open data: not run */
	SL_FAILED,       /* the run gave no valid signals (it raised, crashed, ran out of memory) */
	SL_CUT_SHORT,    /* the run was stopped at a time limit */
	SL_REFUSED,      /* the sandbox refused an action of the run */
	SL_FAILS,        /* scored: the edge does not hold */
	SL_WEAKER,       /* scored: it holds, well under the open edge */
	SL_AS_OPEN,      /* scored: it holds, as on the open data */
	SL_STRONGER,     /* scored: it holds, well above the open edge */
	SL_OUTCOMES
};
#define SL_STEERABLE (SL_OUTCOMES - SL_FAILED)

/* The outcome's name in sealed.json ("spent", "as_open", ...). */
const char *sl_outcome_name(enum sl_outcome o);

/* Whether the sealed gate passes with this outcome. */
bool sl_outcome_holds(enum sl_outcome o);

/* The bound: log2 of the outcomes a run on the sealed bars can steer, in bits per audit. */
double sl_bound_bits(void);

/* The holdout's parameters, in units of the open edge (the open mean net return per trade). */
#define SL_THRESHOLD 0.5   /* T: an answer within this of the open edge is the open edge's */
#define SL_SIGMA 0.05      /* the noise's scale: threshold noise Lap(2s) + Lap(4s), answer Lap(s) */
#define SL_FLOOR 1e-4      /* the unit when the open data has no edge: 1 basis point a trade */

/* Three uniform draws in (0, 1) from the audit's secret source (sealed_budget.h). */
struct sl_draws {
	double gamma, eta, xi;
};

/* The query's value: the sealed edge in units of the open one (open_mean, the open mean net
 * return per trade; the unit is SL_FLOOR when it is not above 0), clamped to [-1, 3]; -1 when
 * the edge does not hold there (no trade, ruined, or a net return not above 0). */
double sl_query(const struct sl_score *sc, double open_mean);

/* Thresholdout for one query: the open answer (1 when the open edge holds, else -1) unless the
 * sealed value q differs from it by more than the noisy threshold, then q with noise. d holds
 * the draws. Returns the answer's bucket (SL_FAILS .. SL_STRONGER). */
enum sl_outcome sl_release(double q, bool open_holds, const struct sl_draws *d);

#endif
