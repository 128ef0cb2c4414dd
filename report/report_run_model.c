/* report_run_model.c - what the runs of the upload showed, as the report says it: how the
 * sandbox contained them (its refusals, the cgroup's limits, the run's stderr), the look-ahead
 * check's re-runs and mismatching bars, and the robustness runs (later starts, permutations,
 * hindsight). */
#include "report_model.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "jsonio.h"
#include "msg.h"
#include "report_fmt.h"

#define get rpt_get
#define add_text rpt_add_text

/* Refusals made only in the look-ahead re-runs: an upload that misbehaves when shown less
 * history is contained there, and the report lists those rows after the full run's. */
static void add_rerun_events(cJSON *ev, const struct rpt_input *in, int *n)
{
	const cJSON *e;
	char detail[512];

	cJSON_ArrayForEach(e, get(in->stage[RPT_LOOKAHEAD].json, "events")) {
		if ((*n)++ >= RPT_MAX_ROWS)
			break;
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "seq", "re-run");
		add_text(o, "action", e, "action");
		add_text(o, "rule", e, "rule");
		snprintf(detail, sizeof detail, "history up to %s: %s",
			 cJSON_IsString(get(e, "point_time")) ? get(e, "point_time")->valuestring : "?",
			 cJSON_IsString(get(e, "detail")) ? get(e, "detail")->valuestring : "");
		cJSON_AddStringToObject(o, "detail", detail);
		cJSON_AddItemToArray(ev, o);
	}
}

/* One line on the cgroup the runs were in, or why there was none (run.json limits.cgroup). */
static void add_cgroup(cJSON *c, const cJSON *run)
{
	const cJSON *l = get(run, "limits"), *cg = get(l, "cgroup"), *why = get(l, "cgroup_reason");
	char line[400];

	if (cJSON_IsObject(cg)) {
		int n = snprintf(line, sizeof line, "cgroup v%d: %g MB resident memory, %g processes and %g CPU a run",
				 (int)cJSON_GetNumberValue(get(cg, "version")),
				 cJSON_GetNumberValue(get(cg, "mem_mb_per_run")),
				 cJSON_GetNumberValue(get(cg, "pids_per_run")),
				 cJSON_GetNumberValue(get(cg, "cpus_per_run")));
		if (cJSON_IsNumber(get(cg, "cpus_zygote")) && n > 0 && (size_t)n < sizeof line)
			snprintf(line + n, sizeof line - (size_t)n, ", and %g CPU for the zygote that forks them",
				 cJSON_GetNumberValue(get(cg, "cpus_zygote")));
	}
	else if (cJSON_IsString(why))
		snprintf(line, sizeof line, "no cgroup (%.300s): only the rlimits bounded memory, processes and CPU",
			 why->valuestring);
	else
		snprintf(line, sizeof line, "no cgroup recorded: only the rlimits bounded memory, processes and CPU");
	cJSON_AddStringToObject(c, "cgroup", line);
}

/* Every kind of refusal (run.json's and the re-running stages' "refusals", summed by rule): the
 * count, the first action, and the latest action with its detail, so no flood of one kind hides
 * another. */
static void add_kinds(cJSON *c, const struct rpt_input *in)
{
	static const enum rpt_file from[] = { RPT_RUN, RPT_LOOKAHEAD, RPT_ROBUST };
	cJSON *kinds = cJSON_AddArrayToObject(c, "kinds"), *k;
	const cJSON *e;
	char buf[32];

	for (size_t s = 0; s < sizeof from / sizeof from[0]; s++)
		cJSON_ArrayForEach(e, get(in->stage[from[s]].json, "refusals")) {
			const cJSON *rule = get(e, "rule");
			double n = cJSON_GetNumberValue(get(e, "count"));

			if (!cJSON_IsString(rule) || !(n >= 1 && n < 1e15))
				continue;
			cJSON_ArrayForEach(k, kinds)
				if (strcmp(get(k, "rule")->valuestring, rule->valuestring) == 0)
					break;
			if (!k) {
				k = cJSON_CreateObject();
				cJSON_AddStringToObject(k, "rule", rule->valuestring);
				cJSON_AddNumberToObject(k, "n", 0);
				add_text(k, "first", get(e, "first"), "action");
				cJSON_AddItemToArray(kinds, k);
			}
			cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(k, "n"), cJSON_GetNumberValue(get(k, "n")) + n);
			cJSON_DeleteItemFromObject(k, "latest");
			cJSON_DeleteItemFromObject(k, "latest_detail");
			add_text(k, "latest", get(e, "last"), "action");
			add_text(k, "latest_detail", get(e, "last"), "detail");
		}
	cJSON_ArrayForEach(k, kinds)
		cJSON_AddStringToObject(k, "count", sa_fmt(buf, sizeof buf, "%.0f", cJSON_GetNumberValue(get(k, "n"))));
	cJSON_AddBoolToObject(c, "has_kinds", cJSON_GetArraySize(kinds) > 0);
}

/* The Python warnings in a run's standard error, by category, in the order first met. */
#define WARN_KINDS 6
struct warn_count {
	char name[48];
	size_t n;
};

/* The category of a warning line ("file:12: PerformanceWarning: text"), into name; 0 if none. */
static int warning_of(const char *line, size_t len, char *name, size_t namelen)
{
	for (size_t i = 0; i + 9 <= len; i++) {
		size_t a = i;

		if (memcmp(line + i, "Warning: ", 9))
			continue;
		while (a > 0 && (isalnum((unsigned char)line[a - 1]) || line[a - 1] == '_'))
			a--;
		if (a == i || !isupper((unsigned char)line[a]) || i + 7 - a >= namelen)
			continue;
		memcpy(name, line + a, i + 7 - a);
		name[i + 7 - a] = '\0';
		return 1;
	}
	return 0;
}

/* One line on what the run printed to standard error: its lines and, when it holds Python
 * warnings, how many of each kind ("412 PerformanceWarnings"), so the text itself can fold away. */
static void stderr_summary(cJSON *c, const char *text)
{
	struct warn_count w[WARN_KINDS] = { 0 };
	size_t lines = 0, kinds = 0, other = 0, at = 0;
	char name[48], line[600];

	for (const char *p = text, *nl; *p; p = nl ? nl + 1 : p + strlen(p)) {
		size_t k;

		nl = strchr(p, '\n');
		lines++;
		if (!warning_of(p, nl ? (size_t)(nl - p) : strlen(p), name, sizeof name))
			continue;
		for (k = 0; k < kinds && strcmp(w[k].name, name); k++)
			;
		if (k == kinds && kinds < WARN_KINDS)
			snprintf(w[kinds++].name, sizeof w[0].name, "%s", name);
		if (k < kinds)
			w[k].n++;
		else
			other++;
	}
	/* the sandbox keeps an excerpt of the log: the counts are of what it kept */
	at = (size_t)snprintf(line, sizeof line, "The run's standard error, as far as the sandbox kept "
			      "it: %zu line%s%s", lines, lines == 1 ? "" : "s", kinds ? ", among them " : ".");
	for (size_t k = 0; k < kinds && at < sizeof line; k++)
		at += (size_t)snprintf(line + at, sizeof line - at, "%s%zu %s%s",
				       k == 0 ? "" : k + 1 == kinds && !other ? " and " : ", ",
				       w[k].n, w[k].name, w[k].n == 1 ? "" : "s");
	if (other && at < sizeof line)
		at += (size_t)snprintf(line + at, sizeof line - at, " and %zu warning%s of other kinds",
				       other, other == 1 ? "" : "s");
	if (kinds && at < sizeof line)
		snprintf(line + at, sizeof line - at, ".");
	cJSON_AddStringToObject(c, "stderr_summary", line);
}

void rpt_containment_model(cJSON *m, const struct rpt_input *in)
{
	const cJSON *run = in->stage[RPT_RUN].json, *e;
	cJSON *c = cJSON_AddObjectToObject(m, "containment");
	add_text(c, "status", run, "status");
	add_text(c, "blocked", run, "blocked_actions");
	if (sa_json_num(run, "nan_as_flat", 0) >= 1)
		add_text(c, "nan_as_flat", run, "nan_as_flat");
	add_cgroup(c, run);
	add_kinds(c, in);
	if (cJSON_IsString(get(run, "error")) && get(run, "error")->valuestring[0])
		add_text(c, "error", run, "error");
	if (cJSON_IsString(get(run, "stderr")) && get(run, "stderr")->valuestring[0])
	{
		add_text(c, "stderr", run, "stderr");
		stderr_summary(c, get(run, "stderr")->valuestring);
	}
	cJSON *ev = cJSON_AddArrayToObject(c, "events");
	int n = 0;
	cJSON_ArrayForEach(e, in->events) {
		if (n++ >= RPT_MAX_ROWS)
			break;
		cJSON *o = cJSON_CreateObject();
		add_text(o, "seq", e, "seq");
		add_text(o, "action", e, "action");
		add_text(o, "rule", e, "rule");
		add_text(o, "detail", e, "detail");
		cJSON_AddItemToArray(ev, o);
	}
	add_rerun_events(ev, in, &n);
	cJSON_AddNumberToObject(c, "event_count", cJSON_GetArraySize(in->events) +
			       cJSON_GetArraySize(get(in->stage[RPT_LOOKAHEAD].json, "events")));
	cJSON_AddBoolToObject(c, "more_events", n > RPT_MAX_ROWS);
}

/* The row of list for a mismatched bar, made on its first truncation point. */
static cJSON *bar_row(cJSON *list, const cJSON *it)
{
	cJSON *r;
	double bar = sa_json_num(it, "bar", NAN);

	cJSON_ArrayForEach(r, list)
		if (sa_json_num(r, "bar_n", NAN) == bar)
			return r;
	if (cJSON_GetArraySize(list) >= RPT_MAX_ROWS)
		return NULL;
	r = cJSON_CreateObject();
	cJSON_AddNumberToObject(r, "bar_n", bar);
	add_text(r, "bar", it, "bar");
	add_text(r, "time", it, "time");
	add_text(r, "full", it, "full");
	add_text(r, "truncated", it, "truncated");
	add_text(r, "first_point", it, "point");
	cJSON_AddNumberToObject(r, "points_n", 0);
	cJSON_AddItemToArray(list, r);
	return r;
}

/* Each mismatched bar once: its signals, and the truncation points that saw it (a strategy
 * that normalises by the whole frame differs at one early bar on every point). */
static void add_mismatch_bars(cJSON *o, const cJSON *mismatches)
{
	cJSON *list = cJSON_AddArrayToObject(o, "mismatches"), *r;
	const cJSON *it;
	char buf[48];

	cJSON_ArrayForEach(it, mismatches) {
		if (!(r = bar_row(list, it)))
			continue;
		cJSON *n = cJSON_GetObjectItemCaseSensitive(r, "points_n");
		cJSON_SetNumberValue(n, n->valuedouble + 1);
		cJSON_DeleteItemFromObjectCaseSensitive(r, "last_point");
		add_text(r, "last_point", it, "point");
		if (strcmp(cJSON_GetStringValue(get(r, "truncated")), sa_json_str(it, "truncated", "")) &&
		    !get(r, "truncated_varies"))
			cJSON_AddBoolToObject(r, "truncated_varies", true);
	}
	cJSON_ArrayForEach(r, list) {
		double k = sa_json_num(r, "points_n", 0);

		snprintf(buf, sizeof buf, "%.0f", k);
		cJSON_AddStringToObject(r, "points", buf);
		cJSON_AddBoolToObject(r, "many_points", k > 1);
		cJSON_DeleteItemFromObjectCaseSensitive(r, "bar_n");
		cJSON_DeleteItemFromObjectCaseSensitive(r, "points_n");
	}
}

/* inspect's look-ahead hints (SA4xx), the static evidence beside the runs' */
static void add_static_hints(cJSON *o, const cJSON *ins)
{
	cJSON *hints = cJSON_AddArrayToObject(o, "static_hints");
	const cJSON *it;

	cJSON_ArrayForEach(it, get(get(ins, "strategy"), "flags")) {
		if (strncmp(sa_json_str(it, "code", ""), "SA4", 3) || cJSON_GetArraySize(hints) >= RPT_MAX_ROWS)
			continue;
		cJSON *r = cJSON_CreateObject();
		static const char *const keys[] = { "code", "line", "message", "source" };
		for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
			add_text(r, keys[k], it, keys[k]);
		cJSON_AddItemToArray(hints, r);
	}
	cJSON_AddBoolToObject(o, "has_static_hints", cJSON_GetArraySize(hints) > 0);
}

void rpt_lookahead_model(cJSON *m, const struct rpt_input *in)
{
	const cJSON *la = rpt_stage_ok(in, RPT_LOOKAHEAD), *it;
	cJSON *o = cJSON_AddObjectToObject(m, "lookahead");
	cJSON_AddBoolToObject(o, "present", la != NULL);
	cJSON_AddBoolToObject(o, "clean", sa_json_bool(la, "clean", false));
	add_text(o, "points_checked", la, "points_checked");
	add_text(o, "candidate_points", la, "candidate_points");
	add_text(o, "mismatch_count", la, "mismatch_count");
	add_text(o, "failed_runs", la, "failed_runs");
	add_text(o, "failed_count", la, "failed_count");
	add_text(o, "points_run", la, "points_run");
	cJSON_AddBoolToObject(o, "capped", sa_json_bool(la, "capped", false));
	/* a check that does not say it finished did not */
	cJSON_AddBoolToObject(o, "complete", sa_json_bool(la, "complete", false));
	add_text(o, "explanation", la, "explanation");
	cJSON_AddBoolToObject(o, "any_failed", cJSON_GetArraySize(get(la, "failed")) > 0);
	cJSON *failed = cJSON_AddArrayToObject(o, "failed");
	cJSON_ArrayForEach(it, get(la, "failed")) {
		cJSON *r = cJSON_CreateObject();
		add_text(r, "bar", it, "bar");
		add_text(r, "time", it, "time");
		add_text(r, "status", it, "status");
		add_text(r, "error", it, "error");
		cJSON_AddItemToArray(failed, r);
	}
	add_mismatch_bars(o, get(la, "mismatches"));
	add_static_hints(o, rpt_stage_ok(in, RPT_INSPECT));
}

/* The robustness findings: shown beside the verdict, never scored. */
void rpt_robust_model(cJSON *m, const struct rpt_input *in)
{
	const cJSON *rb = rpt_stage_ok(in, RPT_ROBUST), *w = get(rb, "warmup"), *p = get(rb, "permutation");
	const cJSON *fd = get(w, "first_disagreement"), *it;
	cJSON *o = cJSON_AddObjectToObject(m, "robust");
	cJSON_AddBoolToObject(o, "present", rb != NULL);
	add_text(o, "reason", in->stage[RPT_ROBUST].json, "reason");
	add_text(o, "blocked_actions", rb, "blocked_actions");
	cJSON_AddBoolToObject(o, "flagged", sa_json_bool(w, "flagged", false));
	add_text(o, "compared_bars", w, "compared_bars");
	add_text(o, "warmup_failed", w, "failed_runs");
	add_text(o, "warmup_explanation", w, "explanation");
	add_text(o, "first_bar", fd, "bar");
	add_text(o, "first_time", fd, "time");
	cJSON *list = cJSON_AddArrayToObject(o, "offsets");
	cJSON_ArrayForEach(it, get(w, "runs")) {
		cJSON *r = cJSON_CreateObject();
		char buf[32];
		add_text(r, "percent", it, "percent");
		add_text(r, "offset", it, "offset");
		add_text(r, "status", it, "status");
		add_text(r, "differing_bars", it, "differing_bars");
		cJSON_AddStringToObject(r, "disagreement", rpt_fmt_pct(get(it, "disagreement"), 2, buf, sizeof buf));
		add_text(r, "first_time", it, "first_time");
		cJSON_AddItemToArray(list, r);
	}
	add_text(o, "perm_runs", p, "runs");
	add_text(o, "perm_requested", p, "requested");
	add_text(o, "perm_failed", p, "failed_runs");
	add_text(o, "perm_explanation", p, "explanation");
	add_text(o, "perm_does_not_catch", p, "does_not_catch");
	char buf[32];
	cJSON_AddStringToObject(o, "real_sharpe", rpt_fmt_num(get(p, "real_sharpe"), 3, buf, sizeof buf));
	cJSON_AddStringToObject(o, "null_mean", rpt_fmt_num(get(p, "null_mean"), 3, buf, sizeof buf));
	cJSON_AddStringToObject(o, "null_p95", rpt_fmt_num(get(p, "null_p95"), 3, buf, sizeof buf));
	cJSON_AddStringToObject(o, "p_value", rpt_fmt_num(get(p, "p_value"), 3, buf, sizeof buf));
	/* hindsight: keyed to this data's dates or prices is a veto; the three numbers behind it */
	const cJSON *h = get(rb, "hindsight");
	cJSON_AddBoolToObject(o, "hindsight_present", h != NULL);
	cJSON_AddBoolToObject(o, "hindsight_flagged", sa_json_bool(h, "flagged", false));
	cJSON_AddStringToObject(o, "hind_profit", rpt_fmt_pct(get(get(h, "real"), "net_profit"), 1, buf, sizeof buf));
	cJSON_AddStringToObject(o, "calendar_kept", rpt_fmt_pct(get(get(h, "calendar"), "profit_kept"), 0, buf, sizeof buf));
	cJSON_AddStringToObject(o, "tick_kept", rpt_fmt_pct(get(get(h, "ticks"), "profit_kept"), 0, buf, sizeof buf));
	add_text(o, "ticks_max", get(h, "ticks"), "ticks_max");
	add_text(o, "surrogate_median", get(h, "surrogate_trades"), "median");
	add_text(o, "surrogate_real", get(h, "surrogate_trades"), "real");
	add_text(o, "hindsight_reason", h, "reason");
}

