/* lookahead_compare.c - truncated runs against the full run, and the sentence that explains it. */
#include <stdbool.h>
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

/* A run that failed once the full run had held a position on a bar it saw is a finding: the
 * full run completed on all the bars within the same limits, yet shown only the bars known at
 * that time the strategy gave no signal at all, so what the backtest traded could not have been
 * computed then (a lookup of a later date or index, a length check, a stall on short history,
 * a detector that raises when it thinks it is being checked). A failure inside the flat warm-up
 * before the first position is listed, not a finding: nothing traded rested on it. */
static void add_failure(struct la_report *rep, size_t point, const char *status, const char *error)
{
	rep->failed_runs++;
	if (point >= rep->first_traded && rep->failed_count++ < LA_FAILED_SHOWN)
		set_failure(&rep->failed[rep->n_failed++], point, status, error);
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

	if (r->not_run) {
		rep->points_not_run++;
		return;
	}
	if (!r->ok || !r->signals) {
		add_failure(rep, t, r->status, r->error);
		return;
	}
	if (r->n != t + 1) {
		snprintf(why, sizeof why, "returned %zu signals for %zu bars", r->n, t + 1);
		add_failure(rep, t, "bad_output", why);
		return;
	}
	rep->points_checked++;
	for (size_t b = 0; b <= t; b++) {
		if (r->signals[b] != full[b]) {
			if (b != t)
				rep->newest_only = false;
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
	rep->newest_only = true;
	rep->first_traded = n;
	for (size_t b = 0; b < n && rep->first_traded == n; b++)
		if (full[b] != 0)
			rep->first_traded = b;
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

/* The last bar hides nothing, so a difference there means the strategy is not repeatable:
 * randomness without a seed, most often, which no backtest can trust and no future explains. */
static void explain_unrepeatable(const struct la_report *rep, const struct la_mismatch *m,
				 const int64_t *times, char *buf, size_t len)
{
	char at[17];

	sa_time_human(times[m->bar], at);
	snprintf(buf, len, "At %s the strategy said %s in one run and %s in another on exactly "
		 "the same bars: its signals are not repeatable, so no backtest of it can be trusted. "
		 "That is randomness without a seed, not prices from the future: give every random "
		 "source a fixed seed (np.random.default_rng(0), random_state=0) and audit again. "
		 "%zu of %zu re-runs disagreed.",
		 at, la_signal_word(m->full), la_signal_word(m->truncated),
		 rep->mismatch_count, rep->points_checked);
}

/* Every mismatch on its run's newest bar alone, and few of them: the strategy computes the
 * last bar another way than the same bar with more history after it. */
static bool newest_bar_noise(const struct la_report *rep)
{
	return rep->newest_only && rep->mismatch_count > 0 &&
	       rep->mismatch_count * LA_RARE <= rep->points_checked;
}

static void explain_newest(const struct la_report *rep, const int64_t *times, char *buf, size_t len)
{
	char bars[3][17];
	size_t k = rep->n_mismatches < 3 ? rep->n_mismatches : 3;

	for (size_t i = 0; i < 3; i++)
		if (i < k)
			sa_time_human(times[rep->mismatches[i].bar], bars[i]);
		else
			bars[i][0] = '\0';
	snprintf(buf, len, "On %zu of %zu shorter histories the strategy changed only its newest "
		 "signal (at %s%s%s%s%s%s): it computes the latest bar differently from how it "
		 "computed the same bar with more history behind it (a rolling fit updated step by "
		 "step, as statsmodels' RollingOLS does, fits the last window exactly and earlier ones "
		 "by updates). That needs no future price, but a strategy that cannot reproduce its "
		 "own past signals cannot be traded as backtested.",
		 rep->mismatch_count, rep->points_checked, bars[0], k > 1 ? ", " : "", bars[1],
		 k > 2 ? ", " : "", bars[2], rep->mismatch_count > k ? ", ..." : "");
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
	if (newest_bar_noise(rep)) {
		explain_newest(rep, times, buf, len);
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

static void explain_failed(const struct la_report *rep, const int64_t *times, char *buf, size_t len)
{
	const struct la_failure *f = &rep->failed[0];
	char at[17];

	sa_time_human(times[f->point], at);
	snprintf(buf, len, "On %zu of %zu shorter histories the strategy could not run at all: it "
		 "needs bars that had not happened yet. Shown the prices up to %s, by when the "
		 "backtest had already taken a position, it gave no signal (%s: %.120s), so what the "
		 "backtest traded could not have been computed at the time.",
		 rep->failed_count, rep->points_checked + rep->failed_runs, at, f->status,
		 f->error[0] ? f->error : "no detail");
}

/* What the check did not get to, appended to buf. */
static void explain_stop(const struct la_report *rep, char *buf, size_t len)
{
	size_t used = strlen(buf);

	if (rep->stopped == LA_STOP_MISMATCHES)
		snprintf(buf + used, len - used, " Stopped after %zu mismatches: the leak is "
			 "established.", rep->mismatch_count);
	else if (rep->stopped == LA_STOP_BUDGET)
		snprintf(buf + used, len - used, " The time budget ran out with %zu of %zu points "
			 "checked (spread evenly over the history), so the check is unfinished and the "
			 "verdict cannot pass; a faster strategy or a larger AUDIT_S would finish it.",
			 rep->points_checked, rep->points_run);
	else if (rep->stopped == LA_STOP_LIVE)
		snprintf(buf + used, len - used, " The live replay had decided every bar with only the "
			 "past, each as the backtest did, so the truncated re-runs stopped after their first "
			 "pass: %zu of %zu points, spread evenly over the history, as a cross-check.",
			 rep->points_run - rep->points_not_run, rep->points_run);
	else if (rep->points_not_run > 0)
		snprintf(buf + used, len - used, " %zu of %zu re-runs could not be started, so the "
			 "check is unfinished.", rep->points_not_run, rep->points_run);
}

char *la_explain(const struct la_report *rep, const int64_t *times, size_t n,
		 char *buf, size_t len)
{
	char failed[160] = "";

	if (rep->failed_runs > 0)
		snprintf(failed, sizeof failed, " %zu re-run%s failed before the first position was "
			 "taken (a warm-up that needs more history) and could not be compared.",
			 rep->failed_runs, rep->failed_runs == 1 ? "" : "s");
	if (rep->n_mismatches > 0 && rep->mismatches[0].bar < n && rep->mismatches[0].point < n)
		explain_mismatch(rep, times, n, buf, len);
	else if (rep->failed_count > 0 && rep->failed[0].point < n)
		explain_failed(rep, times, buf, len);
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
	explain_stop(rep, buf, len);
	return buf;
}

bool la_newest_bar_noise(const struct la_report *rep)
{
	return newest_bar_noise(rep);
}
