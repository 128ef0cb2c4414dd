/* lookahead_core.h - the look-ahead check: which truncated histories to re-run, how their
 * signals compare with the full-history run, and how to say what was found. */
#ifndef LOOKAHEAD_CORE_H
#define LOOKAHEAD_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "sbx.h"

#define LA_SCHEMA 1
#define LA_RANDOM_POINTS 32   /* seeded random bars added to the position changes */
#define LA_LISTED_MAX 50      /* mismatches and failures listed in full; the rest are counted */

/* The truncation points: bar indices t, sorted and distinct; a run at t sees bars [0, t]. */
struct la_points {
	size_t n;
	size_t *t;          /* n entries, owned; free with la_points_release */
	size_t candidates;  /* distinct points before the cap */
	bool capped;        /* candidates > max, so n == max points were spread evenly */
};

/* Chooses the points for a full run of n signals. The primary points are every bar whose
 * position differs from the bar before (bar 0 when it is not flat), n_random bars drawn with
 * GSL's mt19937 seeded with seed (the same on every machine), and the last bar; when more than
 * max, keeps max of them spread evenly over the sorted list, always keeping the last. When they
 * fit, the bar before each change fills the budget left (spread evenly when it does not all
 * fit): a peek that delays a change, holding a position because the next bar is known to pay,
 * acts on a bar where the full run does not change, and the last such bar is the one before
 * the change. candidates counts both kinds. Returns 0 and fills *p (release with
 * la_points_release), or -1 when n or max is 0 or memory ran out (*p is then empty). */
int la_points_choose(const int8_t *full, size_t n, size_t max, unsigned long seed,
		     size_t n_random, struct la_points *p);

/* Frees the points and zeroes *p. Safe on a zeroed or released struct. */
void la_points_release(struct la_points *p);

/* What one truncated run gave back, as the host saw it. Every pointer is borrowed. */
struct la_run {
	bool ok;                /* the run completed and returned valid signals */
	size_t n;               /* signals returned (must be t + 1 to be compared) */
	const int8_t *signals;  /* n values in {-1, 0, 1} when ok */
	const char *status;     /* "ok", "error", "killed_wall_clock", ... */
	const char *error;      /* why, when not ok; may be NULL */
};

/* A truncated run that disagreed with the full run: its first disagreeing bar. */
struct la_mismatch {
	size_t point;       /* the run saw bars [0, point] */
	size_t bar;         /* first bar in [0, point] whose signal differs */
	int full, truncated;
};

/* A truncated run that could not be compared (raised, hit a limit, bad output). */
struct la_failure {
	size_t point;
	char status[32];
	char error[240];
};

/* What the comparison found. Plain data, no heap: zero it, fill it with la_compare. */
struct la_report {
	/* The run at the last bar hides nothing, so a difference there means the signals are not
	 * repeatable (randomness, clock, leftover state); repeat holds that run's first one. */
	bool unrepeatable;
	struct la_mismatch repeat;
	/* Failed runs at a point where the full run held a position: the backtest traded a signal
	 * the strategy could not give from the history known then. first_held is the first. */
	size_t failed_in_position;
	struct la_failure first_held;
	int first_held_signal;   /* the full run's signal at first_held.point */
	size_t points_run;       /* runs attempted (the number of points) */
	size_t points_checked;   /* runs that completed and were compared */
	size_t candidate_points;
	bool capped;
	size_t mismatch_count;   /* runs whose signals in [0, t] differ from the full run */
	size_t failed_runs;      /* runs that did not complete; not mismatches */
	size_t n_mismatches;     /* listed below, in point order, at most LA_LISTED_MAX */
	struct la_mismatch mismatches[LA_LISTED_MAX];
	size_t n_failures;
	struct la_failure failures[LA_LISTED_MAX];
};

/* Compares runs[i] (the run at p->t[i]) with the full signals full[0..n). A run that did not
 * complete, or returned other than t + 1 signals, is a failure, not a mismatch; one at a bar
 * where the full run is not flat is also counted in failed_in_position. Returns 0 and
 * fills *rep, or -1 when a point lies outside the full run (*rep is then zeroed). */
int la_compare(const int8_t *full, size_t n, const struct la_points *p,
	       const struct la_run *runs, struct la_report *rep);

/* "long", "short" or "flat" for +1, -1, 0 (anything else is "flat"). Static string. */
const char *la_signal_word(int s);

/* Writes the one-line explanation of rep for a person who is not a quant into buf (always
 * NUL-terminated). times[0..n) are the bar times (seconds since the epoch, UTC). Returns buf. */
char *la_explain(const struct la_report *rep, const int64_t *times, size_t n,
		 char *buf, size_t len);

/* What the stage needs from config.json. */
struct la_config {
	size_t max;
	unsigned long seed;
	struct sbx_limits lim;  /* as the sandbox stage reads them */
};

/* Reads lookahead {max, seed} and limits {...} from a config tree, with defaults for what is
 * absent. Returns 0, or -1 with a reason in why when a value is present but unusable. */
int la_config_read(const cJSON *cfg, struct la_config *c, char *why, size_t whylen);

/* Takes the full-history signals out of a run.json tree that must describe a completed,
 * uncontained run over n_bars bars. Returns 0 with *sig (caller frees) holding n_bars values,
 * or -1 with *sig NULL and a reason a person can act on in why. */
int la_full_signals(const cJSON *run, size_t n_bars, int8_t **sig, char *why, size_t whylen);

/* Builds lookahead.json from rep: ok, clean, counts, first_mismatch, mismatches, failures and
 * the explanation. clean needs no mismatch and no failed run where the full run held a
 * position. Returns a new tree (caller frees with cJSON_Delete). */
cJSON *la_report_json(const struct la_report *rep, const int64_t *times, size_t n);

#endif
