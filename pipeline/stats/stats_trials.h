/* stats_trials.h - what the declared variants change in the statistics: the number of trials,
 * the variance of their Sharpe ratios in the DSR, and the PBO; and how stats.json says so. */
#ifndef STATS_TRIALS_H
#define STATS_TRIALS_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "stats_core.h"
#include "stats_pbo.h"

/* The family as variants.json describes it (borrowed tree). */
struct sts_family {
	bool declared;       /* VARIANTS was declared and read */
	bool usable;         /* variants.json is ok */
	size_t count, ran;   /* declared, and run and replayed */
	double *sharpe;      /* the per-trade Sharpe ratios of those that ran (finite ones) */
	size_t n_sharpe;
};

/* Reads the family from a variants.json tree (NULL: no file, as for a trade log). Returns 0,
 * or -1 when memory ran out. Release with sts_family_release. */
int sts_family_read(const cJSON *variants, struct sts_family *f);
void sts_family_release(struct sts_family *f);

/* The trials and the V[SR] of the DSR. */
struct sts_trials {
	double trials;              /* max(TRIALS, variants that ran) */
	const char *trials_source;  /* "declared", "variants", "ledger" or "declared_search" */
	bool has_v;                 /* false: the null 1 / (T - 1), from the trade count */
	double v;
	const char *v_source;       /* "variants", "knob" or "null" */
};

/* Chooses them: trials from the count the user declared and the variants that ran (variants
 * when they are at least as many); V from the variants' Sharpe ratios (sample variance, ddof 1,
 * at least 2), else the knob when it is above 0, else the null. */
void sts_trials_choose(double declared, double knob_v, const struct sts_family *f,
		      struct sts_trials *t);

/* Raises t's trials to the trial ledger's count for the lineage (ledger.json, borrowed; NULL:
 * none) when that is larger, with trials_source "ledger". */
void sts_trials_ledger(const cJSON *ledger, struct sts_trials *t);

/* The searches an upload declares. */
struct sts_search {
	bool hyperopt;          /* inspect.json declares a freqtrade hyperopt space */
	double hyperopt_grid;   /* its points; INFINITY when a range is continuous or unknown */
	double epochs;          /* HYPEROPT_EPOCHS: the points a hyperopt run tries */
	bool optimize;          /* run.json gives declared_search: an optimize() grid it ran */
	double optimize_grid;
	double counted;         /* min(hyperopt_grid, epochs), or optimize_grid, the larger;
				 * 0 when nothing is declared */
};

/* Reads the declared searches (inspect.json and run.json trees, borrowed; NULL: none) into s
 * and raises t's trials to s->counted when that is larger, with trials_source
 * "declared_search": the trials are at least what the file says was searched. */
void sts_trials_search(const cJSON *inspect, const cJSON *run, double epochs,
		       struct sts_trials *t, struct sts_search *s);

/* Adds "declared_search" {hyperopt, hyperopt_parameters, hyperopt_grid, hyperopt_epochs,
 * optimize_grid, counted} to a stats.json tree, or null when the file declares no search. */
void sts_trials_search_report(cJSON *o, const struct sts_search *s);

/* Adds "ledger" {lineage, version, versions, first_seen, trials} to a stats.json tree, or null
 * when no ledger was used. */
void sts_trials_ledger_report(cJSON *o, const cJSON *ledger);

/* PBO of the family from its return matrix (m_cols columns of m_bars; NULL with matrix_err
 * when unreadable): its details at PBO_BLOCKS from config into *p, its value at every block
 * count of the sweep into *sw (sts_pbo_sweep). Returns 0, or -1 with why: no variants, an
 * unreadable matrix, one that does not match variants.json, or sts_pbo_cscv's. */
int sts_trials_pbo(const cJSON *config, const struct sts_family *f, const double *m,
		  size_t m_bars, size_t m_cols, const char *matrix_err, struct sts_pbo *p,
		  struct sts_pbo_sweep *sw, char *why, size_t whylen);

/* Adds trials_source, sr_variance_source, variants {declared, count, ran, failed, sharpe_sd}
 * and pbo (the object, or null with pbo_reason) to a stats.json tree: pbo.value is the sweep's
 * median, the rest is at PBO_BLOCKS. p and sw are NULL when PBO was not computed; why then
 * says why. */
void sts_trials_report(cJSON *o, const struct sts_trials *t, const struct sts_family *f,
		      const struct sts_pbo *p, const struct sts_pbo_sweep *sw, const char *why);

/* Adds trials_variance_source ("measured", "knob", "null_floor" or "null") and
 * trials_variance_reason to a stats.json tree: which V[SR] the DSR used (v_used, at t_eff
 * effective trades) and why. A spread below the luck-only null is raised to it ("null_floor"). */
void sts_trials_variance_report(cJSON *o, const struct sts_trials *t, double v_used, double t_eff);

#endif
