/* report_calibration.c - the auditor's own error rates, as `make calibrate` last measured them
 * (scripts/calibrate writes the summary; the bundle carries its copy), in one sentence. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "jsonio.h"
#include "msg.h"
#include "report_calibration.h"

#define CALIBRATION_CAP ((size_t)256 * 1024)

/* The number item x when it is finite and in [0, hi], else NAN. */
static double bounded(const cJSON *x, double hi)
{
	double v = cJSON_IsNumber(x) ? x->valuedouble : NAN;

	return isfinite(v) && v >= 0 && v <= hi ? v : NAN;
}

/* A count or rate read from o: a finite number in [0, hi], else NAN. */
static double figure(const cJSON *o, const char *key, double hi)
{
	return bounded(cJSON_GetObjectItemCaseSensitive(o, key), hi);
}

/* ", edge E: READY a % at b bars, ..." for every power cell of one edge, appended to buf. */
static void power_words(const cJSON *power, double edge, char *buf, size_t len)
{
	const cJSON *cell;
	int first = 1;

	cJSON_ArrayForEach(cell, power) {
		double e = figure(cell, "edge_sharpe", 100), bars = figure(cell, "bars", 1e12);
		double r = figure(cell, "ready_rate", 1);

		if (e != edge || isnan(bars) || isnan(r))
			continue;
		size_t at = strlen(buf);
		if (first)
			snprintf(buf + at, len - at, "; a built-in per-trade Sharpe ratio of %g was READY in "
				 "%.0f %% of audits at %.0f bars", edge, r * 100, bars);
		else
			snprintf(buf + at, len - at, ", %.0f %% at %.0f", r * 100, bars);
		first = 0;
	}
}

/* The power table's distinct edges in order, each in words, appended to buf. */
static void power_table(const cJSON *power, char *buf, size_t len)
{
	double seen[16];
	size_t n = 0;
	const cJSON *cell;

	cJSON_ArrayForEach(cell, power) {
		double e = figure(cell, "edge_sharpe", 100);
		size_t k = 0;

		while (k < n && seen[k] != e)
			k++;
		if (isnan(e) || k < n || n == sizeof seen / sizeof seen[0])
			continue;
		seen[n++] = e;
		power_words(power, e, buf, len);
	}
}

/* The sentence from the summary's tree s; -1 when a figure it needs is missing. */
static int words(const cJSON *s, char *buf, size_t len)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(s, "null");
	const cJSON *la = cJSON_GetObjectItemCaseSensitive(s, "lookahead");
	const cJSON *ci = cJSON_GetObjectItemCaseSensitive(n, "ci95");
	const char *date = sa_json_str(s, "date", NULL);
	double audits = figure(n, "audits", 1e9), ready = figure(n, "ready", 1e9);
	double either = figure(n, "rate_ready_or_watch", 1), k = figure(s, "null_best_of", 1e9);
	double lo = bounded(cJSON_GetArrayItem(ci, 0), 1), hi = bounded(cJSON_GetArrayItem(ci, 1), 1);
	double leaks = figure(la, "leaks", 1e9), caught = figure(la, "caught", 1e9);
	double causal = figure(la, "causal", 1e9), alarms = figure(la, "false_alarms", 1e9);

	if (!date || cJSON_GetArraySize(ci) != 2 || isnan(audits) || audits < 1 || isnan(ready) ||
	    isnan(either) || isnan(k) || isnan(lo) || isnan(hi) || isnan(leaks) || isnan(caught) ||
	    isnan(causal) || isnan(alarms))
		return -1;
	snprintf(buf, len, "The auditor's own error rates, measured by make calibrate on %s through "
		 "the whole pipeline: on %.0f strategies with no edge (random indicator rules on a random "
		 "walk, half of them the best of %.0f, declared), READY_FOR_MICRO_LIVE came out %.0f "
		 "times (%.1f %%, 95 %% interval %.1f-%.1f %%; the promise is at most 5 %%) and READY or "
		 "WATCH %.1f %% of the time; %.0f of %.0f generated look-ahead leaks were rejected, and "
		 "%.0f of %.0f causal look-alikes were", date, audits, k, ready, ready / audits * 100,
		 lo * 100, hi * 100, either * 100, caught, leaks, alarms, causal);
	power_table(cJSON_GetObjectItemCaseSensitive(s, "power"), buf, len);
	size_t at = strlen(buf);
	snprintf(buf + at, len - at, ".");
	return 0;
}

int rpt_calibration_model(cJSON *model, const char *dir)
{
	char path[4096], err[512], buf[2048];
	cJSON *s = NULL, *o = cJSON_AddObjectToObject(model, "calibration");
	int rc = -1;

	if (!o)
		goto out;
	sa_fmt(path, sizeof path, "%s/calibration.json", dir);
	/* the reason names a path of this machine: the bundle says only what is wrong */
	s = access(path, F_OK) ? NULL : sa_json_read(path, CALIBRATION_CAP, err, sizeof err);
	if (access(path, F_OK))
		snprintf(buf, sizeof buf, "The auditor's own error rates were not measured for this "
			 "installation: make calibrate measures them and the bundle then quotes them.");
	else if (!s)
		snprintf(buf, sizeof buf, "The auditor's own error rates cannot be quoted: the bundle's "
			 "calibration.json cannot be read.");
	else if (words(s, buf, sizeof buf))
		snprintf(buf, sizeof buf, "The auditor's own error rates cannot be quoted: calibration.json "
			 "lacks a figure the sentence needs.");
	if (cJSON_AddStringToObject(o, "words", buf))
		rc = 0;
out:
	cJSON_Delete(s);
	return rc;
}
