/* lookahead_json.c - what the look-ahead stage reads (config, run.json) and writes. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "jsonio.h"
#include "lookahead_core.h"
#include "sbx_report.h"
#include "timeutil.h"

/* An integer in [lo, hi] under key of obj, or def when absent. -1 when present but not one. */
static int get_int(const cJSON *obj, const char *key, double lo, double hi, double def,
		   double *out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = def;
	if (!it || cJSON_IsNull(it))
		return 0;
	if (!cJSON_IsNumber(it) || it->valuedouble != floor(it->valuedouble) ||
	    it->valuedouble < lo || it->valuedouble > hi)
		return -1;
	*out = it->valuedouble;
	return 0;
}

int la_config_read(const cJSON *cfg, struct la_config *c, char *why, size_t whylen)
{
	int rc = -1;
	const cJSON *la = cJSON_GetObjectItemCaseSensitive(cfg, "lookahead");
	double v;

	if (get_int(la, "max", 1, 1e7, LA_DEFAULT_MAX, &v) < 0) {
		snprintf(why, whylen, "config.json: lookahead.max must be a whole number from 1 to 10000000");
		goto out;
	}
	c->max = (size_t)v;
	if (get_int(la, "seed", 0, 4294967295.0, 1, &v) < 0) {
		snprintf(why, whylen, "config.json: lookahead.seed must be a whole number from 0 to 4294967295");
		goto out;
	}
	c->seed = (unsigned long)v;
	/* The sandbox stage's own reader: both stages run the upload under the same limits. */
	if (sbx_limits_from_config(cfg, &c->lim, why, whylen) < 0)
		goto out;
	rc = 0;
out:
	return rc;
}

/* blocked_actions may be a count or the list itself; either way, nonzero means contained. */
static double blocked_count(const cJSON *run)
{
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(run, "blocked_actions");

	if (cJSON_IsArray(b))
		return cJSON_GetArraySize(b);
	if (cJSON_IsNumber(b))
		return b->valuedouble;
	return 0;
}

/* Copies the signals array, distrusting every element. Returns 0 or -1 with why. */
static int copy_signals(const cJSON *arr, size_t n_bars, int8_t *sig, char *why, size_t whylen)
{
	size_t i = 0;
	const cJSON *it;

	if (!cJSON_IsArray(arr) || (size_t)cJSON_GetArraySize(arr) != n_bars) {
		snprintf(why, whylen, "run.json holds %d signals for %zu bars of data, so they cannot "
			 "be compared; look-ahead was not checked",
			 cJSON_IsArray(arr) ? cJSON_GetArraySize(arr) : 0, n_bars);
		return -1;
	}
	cJSON_ArrayForEach(it, arr) {
		double v = cJSON_IsNumber(it) ? it->valuedouble : NAN;

		if (v != -1 && v != 0 && v != 1) {
			snprintf(why, whylen, "run.json signal %zu is not -1, 0 or 1; look-ahead was "
				 "not checked", i);
			return -1;
		}
		sig[i++] = (int8_t)v;
	}
	return 0;
}

int la_full_signals(const cJSON *run, size_t n_bars, int8_t **sig, char *why, size_t whylen)
{
	int rc = -1;
	const char *status = sa_json_str(run, "status", "missing");
	double blocked = blocked_count(run);
	int8_t *s = NULL;

	*sig = NULL;
	if (strcmp(status, "ok") != 0) {
		snprintf(why, whylen, "the full-history run did not complete (status '%.40s'), so "
			 "there is nothing to compare; look-ahead was not checked", status);
		goto out;
	}
	if (blocked > 0) {
		snprintf(why, whylen, "the full-history run was contained (%.0f blocked action%s), so "
			 "the upload is not run again; look-ahead was not checked",
			 blocked, blocked == 1 ? "" : "s");
		goto out;
	}
	s = malloc(n_bars ? n_bars : 1);
	if (!s) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	if (copy_signals(cJSON_GetObjectItemCaseSensitive(run, "signals"), n_bars, s, why, whylen) < 0)
		goto out;
	*sig = s;
	s = NULL;
	rc = 0;
out:
	free(s);
	return rc;
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

cJSON *la_report_json(const struct la_report *rep, const int64_t *times, size_t n)
{
	cJSON *o = sa_json_stage("lookahead", LA_SCHEMA);
	cJSON *ms, *fs;
	char text[768];
	bool ok = rep->points_checked > 0;

	cJSON_AddBoolToObject(o, "ok", ok);
	if (!ok)
		cJSON_AddStringToObject(o, "reason", "no truncated re-run completed, so look-ahead "
					"could not be checked; see failures");
	cJSON_AddBoolToObject(o, "clean", ok && rep->mismatch_count == 0 &&
			      rep->failed_in_position == 0);
	cJSON_AddBoolToObject(o, "repeatable", !rep->unrepeatable);
	cJSON_AddNumberToObject(o, "points_checked", (double)rep->points_checked);
	cJSON_AddNumberToObject(o, "points_run", (double)rep->points_run);
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
	cJSON_AddNumberToObject(o, "failed_runs", (double)rep->failed_runs);
	cJSON_AddNumberToObject(o, "failed_in_position", (double)rep->failed_in_position);
	fs = cJSON_AddArrayToObject(o, "failures");
	for (size_t i = 0; i < rep->n_failures; i++)
		cJSON_AddItemToArray(fs, failure_json(&rep->failures[i], times, n));
	cJSON_AddStringToObject(o, "explanation", la_explain(rep, times, n, text, sizeof text));
	return o;
}
