/* lookahead_json.c - what the look-ahead stage reads (config, run.json) and writes. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "config.h"
#include "jsonio.h"
#include "stagefile.h"
#include "lookahead_core.h"
#include "sbx_report.h"
#include "signals.h"
#include "timeutil.h"

int la_config_read(const cJSON *cfg, struct la_config *c, char *why, size_t whylen)
{
	long long max, seed, stop_after, audit_s, window, live_bars;

	if (sa_config_int(cfg, SA_K_LOOKAHEAD_MAX, &max, why, whylen) < 0 ||
	    sa_config_int(cfg, SA_K_LIVE_BARS, &live_bars, why, whylen) < 0 ||
	    sa_config_int(cfg, SA_K_LOOKAHEAD_WINDOW, &window, why, whylen) < 0 ||
	    sa_config_int(cfg, SA_K_LOOKAHEAD_SEED, &seed, why, whylen) < 0 ||
	    sa_config_int(cfg, SA_K_LOOKAHEAD_STOP_AFTER, &stop_after, why, whylen) < 0 ||
	    sa_config_int(cfg, SA_K_AUDIT_S, &audit_s, why, whylen) < 0)
		return -1;
	c->max = (size_t)max;
	c->seed = (unsigned long)seed;
	c->stop_after = (size_t)stop_after;
	c->window = (size_t)window;
	c->live_bars = (size_t)live_bars;
	c->audit_s = (double)audit_s;
	/* The sandbox stage's own reader: both stages run the upload under the same limits. */
	return sbx_limits_from_config(cfg, &c->lim, why, whylen);
}

int la_full_signals(const cJSON *run, size_t n_bars, int8_t **sig, char *why, size_t whylen)
{
	size_t used;

	if (da_run_signals(run, n_bars, DA_RUN_UNCONTAINED | DA_RUN_ENTRIES, sig, why, whylen) == 0)
		return 0;
	used = strlen(why);
	snprintf(why + used, whylen - used, "; look-ahead was not checked");
	return -1;
}

static void add_time(cJSON *obj, const char *key, const int64_t *times, size_t n, size_t i)
{
	char buf[21];

	if (i < n)
		cJSON_AddStringToObject(obj, key, sa_time_format(times[i], buf));
	else
		cJSON_AddNullToObject(obj, key);
}

static cJSON *mismatch_json(const struct la_mismatch *m, const int64_t *times, size_t n)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "point", (double)m->point);
	add_time(o, "point_time", times, n, m->point);
	cJSON_AddNumberToObject(o, "bar", (double)m->bar);
	add_time(o, "time", times, n, m->bar);
	cJSON_AddNumberToObject(o, "full", m->full);
	cJSON_AddNumberToObject(o, "truncated", m->truncated);
	return o;
}

static cJSON *failure_json(const struct la_failure *f, const int64_t *times, size_t n)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "point", (double)f->point);
	add_time(o, "point_time", times, n, f->point);
	cJSON_AddStringToObject(o, "status", f->status);
	cJSON_AddStringToObject(o, "error", f->error);
	return o;
}

static const char *stop_name(enum la_stop st)
{
	return st == LA_STOP_MISMATCHES ? "mismatches" : st == LA_STOP_BUDGET ? "budget" :
	       st == LA_STOP_LIVE ? "live" : NULL;
}

/* The failed runs that are findings: the bar (the last the run saw), its time and the error. */
static cJSON *failed_json(const struct la_report *rep, const int64_t *times, size_t n)
{
	cJSON *list = cJSON_CreateArray();

	for (size_t i = 0; i < rep->n_failed; i++) {
		const struct la_failure *f = &rep->failed[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddNumberToObject(o, "bar", (double)f->point);
		add_time(o, "time", times, n, f->point);
		cJSON_AddStringToObject(o, "status", f->status);
		cJSON_AddStringToObject(o, "error", f->error);
		cJSON_AddItemToArray(list, o);
	}
	return list;
}

cJSON *la_report_json(const struct la_report *rep, const int64_t *times, size_t n)
{
	cJSON *o = sa_sf_new(SA_SF_LOOKAHEAD);
	cJSON *ms, *fs;
	char text[1024];
	bool ok = rep->points_checked > 0 || rep->failed_count > 0 || rep->mismatch_count > 0;
	const char *stopped = stop_name(rep->stopped);

	cJSON_AddBoolToObject(o, "ok", ok);
	if (!ok)
		cJSON_AddStringToObject(o, "reason", "no truncated re-run completed, so look-ahead "
					"could not be checked; see failures");
	cJSON_AddBoolToObject(o, "clean", ok && rep->mismatch_count == 0 && rep->failed_count == 0);
	cJSON_AddBoolToObject(o, "complete", ok && rep->points_not_run == 0);
	cJSON_AddBoolToObject(o, "repeatable", !rep->unrepeatable);
	cJSON_AddBoolToObject(o, "newest_bar_only", la_newest_bar_noise(rep));
	if (stopped)
		cJSON_AddStringToObject(o, "stopped", stopped);
	else
		cJSON_AddNullToObject(o, "stopped");
	cJSON_AddNumberToObject(o, "stop_after", (double)rep->stop_after);
	cJSON_AddNumberToObject(o, "points_checked", (double)rep->points_checked);
	cJSON_AddNumberToObject(o, "points_run", (double)rep->points_run);
	cJSON_AddNumberToObject(o, "points_not_run", (double)rep->points_not_run);
	cJSON_AddNumberToObject(o, "candidate_points", (double)rep->candidate_points);
	cJSON_AddBoolToObject(o, "capped", rep->capped);
	cJSON_AddNumberToObject(o, "mismatch_count", (double)rep->mismatch_count);
	if (rep->n_mismatches > 0)
		cJSON_AddItemToObject(o, "first_mismatch", mismatch_json(&rep->mismatches[0], times, n));
	else
		cJSON_AddNullToObject(o, "first_mismatch");
	ms = cJSON_AddArrayToObject(o, "mismatches");
	for (size_t i = 0; i < rep->n_mismatches; i++)
		cJSON_AddItemToArray(ms, mismatch_json(&rep->mismatches[i], times, n));
	cJSON_AddNumberToObject(o, "failed_count", (double)rep->failed_count);
	cJSON_AddItemToObject(o, "failed", failed_json(rep, times, n));
	cJSON_AddNumberToObject(o, "failed_runs", (double)rep->failed_runs);
	fs = cJSON_AddArrayToObject(o, "failures");
	for (size_t i = 0; i < rep->n_failures; i++)
		cJSON_AddItemToArray(fs, failure_json(&rep->failures[i], times, n));
	cJSON_AddStringToObject(o, "explanation", la_explain(rep, times, n, text, sizeof text));
	return o;
}

cJSON *la_window_json(const struct la_window *w)
{
	cJSON *o = cJSON_CreateObject();
	char note[768];

	cJSON_AddNumberToObject(o, "bars", (double)w->initial);
	cJSON_AddStringToObject(o, "source", w->source ? w->source : "floor");
	cJSON_AddNumberToObject(o, "warmup", (double)w->initial_warm);
	cJSON_AddNumberToObject(o, "measured", (double)w->measured);
	cJSON_AddNumberToObject(o, "confirmations", (double)w->confirmations);
	cJSON_AddNumberToObject(o, "confirmed_leaks", (double)w->confirmed_leaks);
	cJSON_AddNumberToObject(o, "memory_mismatches", (double)w->memory_mismatches);
	cJSON_AddNumberToObject(o, "failed_windows", (double)w->failed_windows);
	cJSON_AddNumberToObject(o, "grown", (double)w->grown);
	cJSON_AddNumberToObject(o, "bars_final", (double)w->bars);
	cJSON_AddStringToObject(o, "note", la_window_note(w, note, sizeof note));
	return o;
}
