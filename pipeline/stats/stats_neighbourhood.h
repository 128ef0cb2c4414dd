/* stats_neighbourhood.h - plateau or peak: the audited parameters' neighbours (inspect.json's
 * strategy.neighbourhood, run by the variants stage into neighbourhood.json and its return
 * matrix) against the centre, the audited set itself run the same way. A real edge sits on a
 * plateau (its neighbours keep most of it); a pick from a search sits on a peak. */
#ifndef STATS_NEIGHBOURHOOD_H
#define STATS_NEIGHBOURHOOD_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "stats_trials.h"

/* The grid a peak implies was searched: STS_NB_LEVELS values a moved parameter. */
#define STS_NB_LEVELS 5
#define STS_NB_MAX_IMPLIED 100000.0

/* The measure. */
struct sts_nb {
	bool measured;          /* false: why says why (no parameter, no file, too few ran) */
	char why[256];
	size_t moved;           /* parameters moved */
	size_t sets, ran, failed, not_run;  /* neighbours (the centre not counted) */
	double centre;          /* the centre's per-bar Sharpe ratio (mean / sd, ddof 1) */
	double median;          /* the neighbours' median per-bar Sharpe ratio (a failed run: 0) */
	double keep;            /* median / centre; NAN when the centre has no edge (<= 0) */
	double keep_min;        /* NEIGHBOUR_KEEP */
	bool peak;              /* keep < keep_min */
	double implied;         /* STS_NB_LEVELS ^ moved, at most STS_NB_MAX_IMPLIED, when a peak */
	double span;            /* NEIGHBOUR_SPAN: the factor a searched parameter is assumed to span */
	double family;          /* the family's independent trials over that span: the product over
				 * the moved parameters of 1 + decay ln(span), rounded down to a
				 * whole number, at most STS_NB_MAX_IMPLIED; counted only when the centre
				 * has an edge */
	double *decay;          /* per moved parameter (inspect's order): -ln(correlation with the
				 * centre) per unit of |ln(value / centre's)|, least squares through 0
				 * over the sets that move it alone; NAN when none ran; owned */
	size_t n_decay;
	double *sharpe;         /* every set's per-bar Sharpe ratio (set 0 the centre), NAN when it
				 * did not run; sets + 1 of them; owned */
};

/* Measures the neighbourhood from inspect.json (its sets' steps), neighbourhood.json (each
 * set's outcome, NULL when not given or nbjson_err says why it is unusable) and its matrix
 * (m: cols columns of bars, NULL with matrix_err). keep_min is NEIGHBOUR_KEEP. Fills nb (never
 * fails: an unmeasured neighbourhood has measured false and why). Release with
 * sts_nb_release. span is NEIGHBOUR_SPAN (family, decay). Returns -1 only when memory ran out. */
int sts_nb_measure(const cJSON *inspect, const cJSON *nbjson, const char *nbjson_err,
		   const double *m, size_t bars, size_t cols, const char *matrix_err,
		   double keep_min, double span, struct sts_nb *nb);
void sts_nb_release(struct sts_nb *nb);

/* Raises t's trials to the family's independent trials over the span (trials_source
 * "neighbourhood_family"), then to the search a peak implies (trials_source "neighbourhood"). */
void sts_nb_trials(const struct sts_nb *nb, struct sts_trials *t);

/* Adds "neighbourhood" to a stats.json tree: {measured, reason, shape ("plateau", "peak",
 * "no_edge" or null), parameters [{name, from, value, decay}], grid, centre_sharpe, median_sharpe,
 * keep, keep_min, implied_trials, span, family_trials, neighbours, ran, failed, not_run, sets [{set, steps,
 * params, status, sharpe, net_return, keep}], rule}. */
void sts_nb_report(cJSON *o, const struct sts_nb *nb, const cJSON *inspect, const cJSON *nbjson);

#endif
