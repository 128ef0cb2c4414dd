/* lookahead_compare.c - truncated runs against the full run, and the sentence that explains it. */
#include <stdio.h>
#include <string.h>

#include "lookahead_core.h"
#include "timeutil.h"

static void copy_text(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

static void set_failure(struct la_failure *f, size_t point, const char *status, const char *error)
{
	f->point = point;
	copy_text(f->status, sizeof f->status, status ? status : "error");
	copy_text(f->error, sizeof f->error, error);
}

/* A run that failed where the full run held a position (held != 0) is more than a failure: the
 * full run completed on all the bars within the same limits, yet shown only the bars known at
 * that time the strategy gave no signal, so the position it backtested could not have been
 * taken then (a lookup of a later date or index, a length check, a stall on short history). */
static void add_failure(struct la_report *rep, size_t point, int held, const char *status,
			const char *error)
{
	rep->failed_runs++;
	if (held != 0 && rep->failed_in_position++ == 0) {
		set_failure(&rep->first_held, point, status, error);
		rep->first_held_signal = held;
	}
	if (rep->n_failures >= LA_LISTED_MAX)
		return;
	set_failure(&rep->failures[rep->n_failures++], point, status, error);
}

static void add_mismatch(struct la_report *rep, size_t n, size_t point, size_t bar, int full,
			 int trunc)
{
	if (point + 1 == n && !rep->unrepeatable) {
		rep->unrepeatable = true;
		rep->repeat = (struct la_mismatch){
			.point = point, .bar = bar, .full = full, .truncated = trunc,
		};
	}
	rep->mismatch_count++;
	if (rep->n_mismatches >= LA_LISTED_MAX)
		return;
	rep->mismatches[rep->n_mismatches++] = (struct la_mismatch){
		.point = point, .bar = bar, .full = full, .truncated = trunc,
	};
}

/* One run at point t: a failure, a mismatch at its first differing bar, or a match. */
static void compare_one(const int8_t *full, size_t n, size_t t, const struct la_run *r,
			struct la_report *rep)
{
	char why[96];

	if (!r->ok || !r->signals) {
		add_failure(rep, t, full[t], r->status, r->error);
		return;
	}
	if (r->n != t + 1) {
		snprintf(why, sizeof why, "returned %zu signals for %zu bars", r->n, t + 1);
		add_failure(rep, t, full[t], "bad_output", why);
		return;
	}
	rep->points_checked++;
	for (size_t b = 0; b <= t; b++) {
		if (r->signals[b] != full[b]) {
			add_mismatch(rep, n, t, b, full[b], r->signals[b]);
			return;
		}
	}
}

int la_compare(const int8_t *full, size_t n, const struct la_points *p,
	       const struct la_run *runs, struct la_report *rep)
{
	int rc = -1;

	memset(rep, 0, sizeof *rep);
	for (size_t i = 0; i < p->n; i++)
		if (p->t[i] >= n)
			goto out;
	rep->points_run = p->n;
	rep->candidate_points = p->candidates;
	rep->capped = p->capped;
	for (size_t i = 0; i < p->n; i++)
		compare_one(full, n, p->t[i], &runs[i], rep);
	rc = 0;
out:
	return rc;
}

const char *la_signal_word(int s)
{
	return s > 0 ? "long" : s < 0 ? "short" : "flat";
}

/* "14:00" when b falls on the same day as a, else the whole "2024-03-06 09:00". */
static const char *when_after(int64_t a, int64_t b, char out[17])
{
	char ha[17];

	sa_time_human(a, ha);
	sa_time_human(b, out);
	if (strncmp(ha, out, 10) == 0)
		memmove(out, out + 11, 6);
	return out;
}

/* The last bar hides nothing, so a difference there means the strategy is not repeatable
 * (randomness, clock, leftover state), which no backtest can trust. */
static void explain_unrepeatable(const struct la_report *rep, const struct la_mismatch *m,
				 const int64_t *times, char *buf, size_t len)
{
	char at[17];

	sa_time_human(times[m->bar], at);
	snprintf(buf, len, "At %s the strategy said %s in one run and %s in another on the "
		 "same history: its signals are not repeatable. %zu of %zu re-runs disagreed.",
		 at, la_signal_word(m->full), la_signal_word(m->truncated),
		 rep->mismatch_count, rep->points_checked);
}

static void explain_mismatch(const struct la_report *rep, const int64_t *times, size_t n,
			     char *buf, size_t len)
{
	const struct la_mismatch *m = &rep->mismatches[0];
	char at[17], cut[17], from[17];

	/* Once the run that hides nothing disagreed, the other differences may be the same
	 * noise, so they are not blamed on the future. */
	if (rep->unrepeatable && rep->repeat.bar < n) {
		explain_unrepeatable(rep, &rep->repeat, times, buf, len);
		return;
	}
	if (m->point + 1 >= n) {
		explain_unrepeatable(rep, m, times, buf, len);
		return;
	}
	sa_time_human(times[m->bar], at);
	when_after(times[m->bar], times[m->point], cut);
	when_after(times[m->bar], times[m->point + 1], from);
	snprintf(buf, len, "At %s the strategy said %s using prices from %s that were not "
		 "known yet: shown history only up to %s, it said %s there instead. "
		 "%zu of %zu re-runs with the future hidden disagreed.",
		 at, la_signal_word(m->full), from, cut, la_signal_word(m->truncated),
		 rep->mismatch_count, rep->points_checked);
}

static void explain_failed_held(const struct la_report *rep, const int64_t *times, char *buf,
				size_t len)
{
	const struct la_failure *f = &rep->first_held;
	char at[17];

	sa_time_human(times[f->point], at);
	snprintf(buf, len, "At %s the backtest was %s, but shown only the prices known by then "
		 "the strategy gave no signal at all (%s: %.120s), so that position could not have "
		 "been taken; it needs bars from later. %zu of %zu re-runs with the future hidden "
		 "failed where the backtest held a position.",
		 at, la_signal_word(rep->first_held_signal), f->status,
		 f->error[0] ? f->error : "no detail", rep->failed_in_position, rep->points_run);
}

char *la_explain(const struct la_report *rep, const int64_t *times, size_t n,
		 char *buf, size_t len)
{
	char failed[128] = "";

	if (rep->failed_runs > 0)
		snprintf(failed, sizeof failed, " %zu re-run%s failed and could not be compared.",
			 rep->failed_runs, rep->failed_runs == 1 ? "" : "s");
	if (rep->n_mismatches > 0 && rep->mismatches[0].bar < n && rep->mismatches[0].point < n)
		explain_mismatch(rep, times, n, buf, len);
	else if (rep->failed_in_position > 0 && rep->first_held.point < n)
		explain_failed_held(rep, times, buf, len);
	else if (rep->points_checked == 0)
		snprintf(buf, len, "No re-run with the future hidden completed, so look-ahead could "
			 "not be checked.%s", failed);
	else if (rep->capped)
		snprintf(buf, len, "The strategy gave the same signals with the future hidden at all "
			 "%zu points checked (spread evenly over %zu candidate bars), so no look-ahead "
			 "was found.%s", rep->points_checked, rep->candidate_points, failed);
	else
		snprintf(buf, len, "The strategy gave the same signals with the future hidden at all "
			 "%zu points checked, so no look-ahead was found.%s",
			 rep->points_checked, failed);
	return buf;
}
