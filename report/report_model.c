/* report_model.c - the report's view model: what each section says, formatted for people. */
#include "report_model.h"
#include "report_tearsheet.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "jsonio.h"
#include "msg.h"
#include "report_columns.h"
#include "report_figures.h"
#include "report_fmt.h"
#include "report_freqtrade.h"
#include "report_live.h"
#include "report_reconcile.h"
#include "timeutil.h"

#define MAX_ROWS 50  /* trades, events, flags and mismatches listed in the page; all are in the xlsx */
#define TAIL_ROWS 10 /* the last trades the PDF lists after the first ones */

const cJSON *rpt_get(const cJSON *obj, const char *key)
{
	return cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

#define get rpt_get
#define add_text rpt_add_text

#define is_num rpt_is_num

void rpt_add_text(cJSON *to, const char *as, const cJSON *obj, const char *key)
{
	const cJSON *v = get(obj, key);
	char buf[64];
	if (cJSON_IsString(v))
		cJSON_AddStringToObject(to, as, v->valuestring);
	else if (is_num(v))
		cJSON_AddStringToObject(to, as, sa_fmt(buf, sizeof buf, "%.10g", v->valuedouble));
	else if (cJSON_IsBool(v))
		cJSON_AddStringToObject(to, as, cJSON_IsTrue(v) ? "yes" : "no");
	else
		cJSON_AddStringToObject(to, as, "n/a");
}

static void add_pct(cJSON *to, const char *as, const cJSON *obj, const char *key, int dec)
{
	char buf[64];
	cJSON_AddStringToObject(to, as, rpt_fmt_pct(get(obj, key), dec, buf, sizeof buf));
}

static void add_num(cJSON *to, const char *as, const cJSON *obj, const char *key, int dec)
{
	char buf[64];
	cJSON_AddStringToObject(to, as, rpt_fmt_num(get(obj, key), dec, buf, sizeof buf));
}

/* An audit that stopped before its replay (unsafe, incomplete, nothing to replay) has one
 * reason, and every later stage and gate would only repeat it: the page says it once. */
bool rpt_stopped_early(const struct rpt_input *in)
{
	return !in->stage[RPT_REPLAY].ok;
}

/* The first stage that failed, whose reason the later ones inherit. */
static int first_failed(const struct rpt_input *in)
{
	for (int f = 0; f < RPT_NFILES; f++)
		if (!in->stage[f].ok)
			return f;
	return -1;
}

/* Says once why the audit stopped, and names the stage files that are missing because of it. */
static void add_stopped(cJSON *m, const struct rpt_input *in)
{
	int root = first_failed(in);
	char buf[600], also[256] = "";
	size_t used = 0;

	if (!rpt_stopped_early(in) || root < 0)
		return;
	for (int f = root + 1; f < RPT_NFILES; f++)
		if (!in->stage[f].ok && used < sizeof also)
			used += (size_t)snprintf(also + used, sizeof also - used, "%s%s", used ? ", " : "",
						 in->stage[f].file);
	cJSON_AddStringToObject(m, "stopped", sa_fmt(buf, sizeof buf, "The audit stopped early at %s: "
		"%s. Nothing after it could be measured (%s%sthe gates), so that reason is not "
		"repeated below.", in->stage[root].file, in->stage[root].reason, also, also[0] ? ", " : ""));
}

static void add_missing(cJSON *m, const struct rpt_input *in)
{
	cJSON *list = cJSON_AddArrayToObject(m, "missing");
	int root = rpt_stopped_early(in) ? first_failed(in) : -1;
	struct { const char *file, *reason; } extra[] = {
		{ "events.jsonl", in->events_reason }, { "trades.csv", in->trades_reason },
		{ "equity.csv", in->equity_reason }, { "strategy.py", in->source_reason },
		{ "price data", in->data_reason },
	};
	for (int f = 0; f < RPT_NFILES; f++) {
		/* after an early stop, "stopped" says the first reason and the later stages only inherit it */
		if (in->stage[f].ok || (root >= 0 && f >= root && f != RPT_VERDICT))
			continue;
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "file", in->stage[f].file);
		cJSON_AddStringToObject(o, "reason", in->stage[f].reason);
		cJSON_AddItemToArray(list, o);
	}
	for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
		if (!extra[i].reason[0])
			continue;
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "file", extra[i].file);
		cJSON_AddStringToObject(o, "reason", extra[i].reason);
		cJSON_AddItemToArray(list, o);
	}
}

/* Refusals made only in the look-ahead re-runs: an upload that misbehaves when shown less
 * history is contained there, and the report lists those rows after the full run's. */
static void add_rerun_events(cJSON *ev, const struct rpt_input *in, int *n)
{
	const cJSON *e;
	char detail[512];

	cJSON_ArrayForEach(e, get(in->stage[RPT_LOOKAHEAD].json, "events")) {
		if ((*n)++ >= MAX_ROWS)
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

static void add_containment(cJSON *m, const struct rpt_input *in)
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
		if (n++ >= MAX_ROWS)
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
	cJSON_AddBoolToObject(c, "more_events", n > MAX_ROWS);
}

/* The row of list for a mismatched bar, made on its first truncation point. */
static cJSON *bar_row(cJSON *list, const cJSON *it)
{
	cJSON *r;
	double bar = sa_json_num(it, "bar", NAN);

	cJSON_ArrayForEach(r, list)
		if (sa_json_num(r, "bar_n", NAN) == bar)
			return r;
	if (cJSON_GetArraySize(list) >= MAX_ROWS)
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
		if (strncmp(sa_json_str(it, "code", ""), "SA4", 3) || cJSON_GetArraySize(hints) >= MAX_ROWS)
			continue;
		cJSON *r = cJSON_CreateObject();
		static const char *const keys[] = { "code", "line", "message", "source" };
		for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
			add_text(r, keys[k], it, keys[k]);
		cJSON_AddItemToArray(hints, r);
	}
	cJSON_AddBoolToObject(o, "has_static_hints", cJSON_GetArraySize(hints) > 0);
}

static void add_lookahead(cJSON *m, const struct rpt_input *in)
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
static void add_robust(cJSON *m, const struct rpt_input *in)
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

/* What the sandbox ran, for a strategy written for a framework (inspect.json's strategy s). */
static const char *framework_shape(const cJSON *s, char *buf, size_t len)
{
	const char *kind = sa_json_str(s, "framework", ""), *tf = sa_json_str(s, "timeframe", NULL);
	const char *cls = sa_json_str(s, "framework_class", "?");

	if (!strcmp(kind, "freqtrade") && tf)
		return sa_fmt(buf, len, "a freqtrade IStrategy, %s, run by freqtrade's rules on %s candles "
			      "(built inside the sandbox from the data's bars when those are finer)", cls, tf);
	if (!strcmp(kind, "freqtrade"))
		return sa_fmt(buf, len, "a freqtrade IStrategy, %s, run by freqtrade's rules on the data's bars", cls);
	return sa_fmt(buf, len, "a backtesting.py Strategy, %s, its next() run bar by bar", cls);
}

/* Appends one value of a parameter as the report prints it. */
static void param_value(const cJSON *v, char *buf, size_t len)
{
	size_t n = strlen(buf);

	if (cJSON_IsBool(v))
		snprintf(buf + n, len - n, "%s", cJSON_IsTrue(v) ? "True" : "False");
	else if (cJSON_IsNumber(v))
		snprintf(buf + n, len - n, "%.10g", v->valuedouble);
	else if (cJSON_IsString(v))
		snprintf(buf + n, len - n, "'%s'", v->valuestring);
	else
		snprintf(buf + n, len - n, "(not a literal)");
}

/* The parameter values a freqtrade strategy ran with, each with where it came from, and what its
 * parameter file set (inspect.json's strategy.parameters), as one sentence; NULL when it has
 * none. */
static const char *framework_params(const cJSON *p, char *buf, size_t len)
{
	const cJSON *v, *f;
	const char *file = sa_json_str(p, "file", NULL), *ferr = sa_json_str(p, "file_error", NULL);
	size_t n;
	int k = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(v, get(p, "values")) {
		const char *from = sa_json_str(v, "from", "default");
		n = strlen(buf);
		snprintf(buf + n, len - n, "%s%s = ", k++ ? ", " : "", sa_json_str(v, "name", "?"));
		param_value(get(v, "value"), buf, len);
		n = strlen(buf);
		snprintf(buf + n, len - n, " (%s)", !strcmp(from, "file") ? "parameter file" : from);
	}
	n = strlen(buf);
	if (file && ferr)
		snprintf(buf + n, len - n, "%sthe parameter file %s is not applied: %s", k ? "; " : "", file, ferr);
	else if (file && cJSON_GetArraySize(get(p, "exits_from_file")) > 0) {
		snprintf(buf + n, len - n, "%sthe parameter file %s also sets", k ? "; " : "", file);
		cJSON_ArrayForEach(f, get(p, "exits_from_file")) {
			n = strlen(buf);
			snprintf(buf + n, len - n, " %s%s", cJSON_IsString(f) ? f->valuestring : "?", f->next ? "," : "");
		}
	}
	return buf[0] ? buf : NULL;
}

static void add_inspection(cJSON *m, const struct rpt_input *in)
{
	const cJSON *ins = rpt_stage_ok(in, RPT_INSPECT), *s = get(ins, "strategy"), *it;
	char buf[256];
	cJSON *o = cJSON_AddObjectToObject(m, "inspection");
	cJSON_AddBoolToObject(o, "present", ins != NULL);
	add_text(o, "flag_count", ins, "flag_count");
	if (cJSON_IsTrue(get(s, "shape_ok")) && cJSON_IsString(get(s, "framework"))) {
		char pbuf[4096];
		const char *ps = framework_params(get(s, "parameters"), pbuf, sizeof pbuf);
		cJSON_AddStringToObject(o, "shape_reason", framework_shape(s, buf, sizeof buf));
		if (ps)
			cJSON_AddStringToObject(o, "framework_params", ps);
	}
	else if (cJSON_IsTrue(get(s, "shape_ok")))
		cJSON_AddStringToObject(o, "shape_reason", "a top-level signals(df) with one parameter");
	else
		add_text(o, "shape_reason", s, "shape_reason");
	const cJSON *se = get(s, "syntax_error");
	if (cJSON_IsObject(se)) {
		cJSON *e = cJSON_AddObjectToObject(o, "syntax_error");
		add_text(e, "line", se, "line");
		add_text(e, "col", se, "col");
		add_text(e, "msg", se, "msg");
	}
	cJSON *flags = cJSON_AddArrayToObject(o, "flags");
	int n = 0;
	cJSON_ArrayForEach(it, get(s, "flags")) {
		if (n++ >= MAX_ROWS)
			break;
		cJSON *r = cJSON_CreateObject();
		static const char *const keys[] = { "code", "severity", "line", "col", "message", "source" };
		for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
			add_text(r, keys[k], it, keys[k]);
		cJSON_AddItemToArray(flags, r);
	}
	const cJSON *tl = get(ins, "tradelog");
	if (cJSON_IsTrue(get(tl, "present"))) {
		cJSON *t = cJSON_AddObjectToObject(o, "tradelog");
		add_text(t, "format", tl, "format");
		add_text(t, "rows", tl, "rows");
	}
	cJSON *errs = cJSON_AddArrayToObject(o, "tradelog_errors");
	n = 0;
	cJSON_ArrayForEach(it, get(get(ins, "tradelog"), "errors")) {
		if (n++ >= MAX_ROWS)
			break;
		cJSON *r = cJSON_CreateObject();
		add_text(r, "line", it, "line");
		add_text(r, "message", it, "message");
		cJSON_AddItemToArray(errs, r);
	}
}

/* The cost multiples' table, the figures as the costs chart labels them, the basis in words and
 * the break-even as the sentences and the chart print it. */
static void add_sensitivity(cJSON *o, const cJSON *st)
{
	cJSON *sens = cJSON_AddArrayToObject(o, "sensitivity");
	const cJSON *it;
	char b[64], said[320];

	cJSON_ArrayForEach(it, get(st, "cost_sensitivity")) {
		cJSON *r = cJSON_CreateObject();
		const cJSON *x = get(it, "multiple");
		cJSON_AddStringToObject(r, "multiple", rpt_fmt_multiple(is_num(x) ? x->valuedouble : NAN,
					b, sizeof b));
		add_num(r, "trades", it, "trades", 0);
		cJSON_AddStringToObject(r, "sharpe", rpt_fmt_row_sharpe(it, b, sizeof b));
		add_num(r, "psr", it, "psr", 3);
		cJSON_AddStringToObject(r, "net", rpt_fmt_row_net(it, b, sizeof b));
		cJSON_AddItemToArray(sens, r);
	}
	const char *basis = sa_json_str(st, "cost_basis", "");
	cJSON_AddStringToObject(o, "sensitivity_basis", !strcmp(basis, "replayed") ? "Each multiple "
		"is a replay of the signals with every cost scaled by it, so a path the account does "
		"not survive is ruined there (-100 %)." : !strcmp(basis, "rescaled") ? "The multiples "
		"rescale the costs of the trades as replayed (a trade log's are 0): a mark below zero "
		"inside a trade cannot be seen that way." : "");
	it = get(st, "breakeven_cost_multiple");
	cJSON_AddStringToObject(o, "breakeven", rpt_fmt_multiple(is_num(it) ? it->valuedouble : NAN,
				b, sizeof b));
	cJSON_AddStringToObject(o, "breakeven_said", !st ? "" : is_num(it) ? sa_fmt(said, sizeof said,
		"Break-even: %s the configured costs.", b) : sa_fmt(said, sizeof said, "No break-even: "
		"%s.", sa_json_str(get(st, "breakeven"), "reason", "none was computed")));
}

static void add_costs(cJSON *m, const struct rpt_input *in)
{
	const cJSON *rp = rpt_stage_ok(in, RPT_REPLAY), *st = rpt_stage_ok(in, RPT_STATS);
	cJSON *o = cJSON_AddObjectToObject(m, "costs");
	cJSON_AddBoolToObject(o, "present", rp != NULL);
	add_text(o, "mode", rp, "mode");
	cJSON_AddBoolToObject(o, "trusted_returns", sa_json_bool(rp, "trusted_returns", false));
	add_pct(o, "gross_return", rp, "gross_return", 2);
	add_pct(o, "net_return", rp, "net_return", 2);
	add_pct(o, "fees", get(rp, "costs"), "fees", 2);
	add_pct(o, "slippage", get(rp, "costs"), "slippage", 2);
	add_pct(o, "funding", get(rp, "costs"), "funding", 2);
	add_pct(o, "borrow", get(rp, "costs"), "borrow", 2);
	add_text(o, "fee_bps", get(rp, "costs"), "fee_bps");
	add_text(o, "slippage_bps", get(rp, "costs"), "slippage_bps");
	add_text(o, "cost_source", get(rp, "costs"), "cost_source");
	cJSON_AddStringToObject(o, "price_step_warning",
				sa_json_str(get(rp, "costs"), "price_step_warning", ""));
	cJSON_AddStringToObject(o, "slippage_note",
				sa_json_str(get(rp, "costs"), "slippage_note", ""));
	cJSON_AddStringToObject(o, "account", sa_json_str(get(rp, "account"), "statement", ""));
	add_text(o, "market", get(rp, "costs"), "market");
	add_text(o, "market_reason", get(rp, "costs"), "market_reason");
	add_text(o, "note", rp, "note");
	add_sensitivity(o, st);
}

/* One trade of trades.csv (row r) as the page shows it. */
static cJSON *trade_row(const struct rpt_table *tb, size_t r)
{
	int ce = rpt_table_col(tb, "entry_time"), cx = rpt_table_col(tb, "exit_time"), cs = rpt_table_col(tb, "side");
	int cg = rpt_table_col(tb, "gross_return"), cn = rpt_table_col(tb, "net_return"), cb = rpt_table_col(tb, "bars_held");
	cJSON *row = cJSON_CreateObject(), num;
	char b[64];
	double x;

	cJSON_AddStringToObject(row, "entry", rpt_table_get(tb, r, ce));
	cJSON_AddStringToObject(row, "exit", rpt_table_get(tb, r, cx));
	cJSON_AddStringToObject(row, "side", rpt_table_get(tb, r, cs));
	cJSON_AddStringToObject(row, "bars", rpt_table_get(tb, r, cb));
	cJSON_AddStringToObject(row, "why", rpt_table_get(tb, r, rpt_table_col(tb, "exit_reason")));
	memset(&num, 0, sizeof num);
	num.type = cJSON_Number;
	num.valuedouble = rpt_parse_num(rpt_table_get(tb, r, cg), &x) ? NAN : x;
	cJSON_AddStringToObject(row, "gross", rpt_fmt_pct(&num, 3, b, sizeof b));
	num.valuedouble = rpt_parse_num(rpt_table_get(tb, r, cn), &x) ? NAN : x;
	cJSON_AddStringToObject(row, "net", rpt_fmt_pct(&num, 3, b, sizeof b));
	cJSON_AddBoolToObject(row, "win", !isnan(num.valuedouble) && num.valuedouble > 0);
	return row;
}

/* "exits": the exits the replay filled inside the bar, in words ("stop-loss 2 % below a long's
 * entry, ..."), with what was declared and not read; "reasons": the trades by why they
 * closed. Both left out when there is nothing to say. */
static void add_exit_words(cJSON *o, const cJSON *rp)
{
	static const char *const names[][2] = {
		{ "signal", "on a signal change" }, { "stop_loss", "at the stop-loss" },
		{ "take_profit", "at the take-profit" }, { "roi", "at the ROI table" },
		{ "trailing_stop", "at the trailing stop" }, { "end", "at the data's end" },
		{ "ruin", "at ruin" },
	};
	const cJSON *x = get(rp, "exits"), *by = get(rp, "exit_reasons"), *t = get(x, "trailing"), *e;
	char buf[1024] = "", part[160];
	size_t n = 0;

	if (get(x, "stop_loss") && cJSON_IsNumber(get(x, "stop_loss")))
		n += (size_t)snprintf(buf + n, sizeof buf - n, "stop-loss %.4g %%, ", 100 * get(x, "stop_loss")->valuedouble);
	if (get(x, "take_profit") && cJSON_IsNumber(get(x, "take_profit")))
		n += (size_t)snprintf(buf + n, sizeof buf - n, "take-profit %.4g %%, ", 100 * get(x, "take_profit")->valuedouble);
	if (cJSON_IsObject(t))
		n += (size_t)snprintf(buf + n, sizeof buf - n, "trailing stop %.4g %% from the best price%s, ",
				      100 * sa_json_num(t, "distance", NAN), cJSON_IsNumber(get(t, "positive")) ?
				      " (tighter past its offset)" : "");
	cJSON_ArrayForEach(e, get(x, "roi"))
		if (n < sizeof buf - 64)
			n += (size_t)snprintf(buf + n, sizeof buf - n, "ROI %.4g %% from %.4g min, ",
					      100 * cJSON_GetArrayItem(e, 1)->valuedouble,
					      cJSON_GetArrayItem(e, 0)->valuedouble);
	cJSON_ArrayForEach(e, get(x, "unread"))
		if (n < sizeof buf - 80)
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%.40s not read (not a literal), ",
					      sa_json_str(e, "name", "?"));
	if (n >= 2) {
		buf[n - 2] = '\0';
		cJSON_AddStringToObject(o, "exits", buf);
	}
	n = 0;
	buf[0] = '\0';
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		double c = sa_json_num(by, names[k][0], 0);
		if (c > 0 && n < sizeof buf - sizeof part)
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%.0f %s", n ? ", " : "", c,
					      names[k][1]);
	}
	if (n && cJSON_IsObject(x))
		cJSON_AddStringToObject(o, "reasons", buf);
}

/* The first MAX_ROWS trades as "rows", and as "tail" the last TAIL_ROWS of those after the
 * first TAIL_ROWS (the PDF lists both ends). */
static void add_trades(cJSON *m, const struct rpt_input *in)
{
	const struct rpt_table *tb = &in->trades;
	size_t n = tb->rows ? tb->rows - 1 : 0;
	cJSON *o = cJSON_AddObjectToObject(m, "trades");
	cJSON *list = cJSON_AddArrayToObject(o, "rows"), *tail = cJSON_AddArrayToObject(o, "tail");
	char words[48];

	for (size_t r = 0; r < n && r < MAX_ROWS; r++)
		cJSON_AddItemToArray(list, trade_row(tb, r));
	for (size_t r = n > 2 * TAIL_ROWS ? n - TAIL_ROWS : n; r < n; r++)
		cJSON_AddItemToArray(tail, trade_row(tb, r));
	cJSON_AddNumberToObject(o, "total", (double)n);
	cJSON_AddStringToObject(o, "total_words", sa_fmt(words, sizeof words, "%zu closed trade%s", n, n == 1 ? "" : "s"));
	cJSON_AddNumberToObject(o, "shown", (double)(n < MAX_ROWS ? n : MAX_ROWS));
	cJSON_AddBoolToObject(o, "more", n > MAX_ROWS);
	add_exit_words(o, rpt_stage_ok(in, RPT_REPLAY));
}

/* Each upload as the user named it, beside the safe NAME it was audited under; "renamed" when
 * a name held a character make and the shell cannot, so the upload was copied in. */
/* Whether the data's bars are a day or longer, each at midnight UTC: a time of day on them says
 * nothing, so the page shows dates. */
static bool daily_bars(const struct rpt_input *in)
{
	const cJSON *fmt = get(rpt_stage_ok(in, RPT_FINGERPRINT), "data_format");

	return sa_json_num(fmt, "spacing_s", 0) >= 86400 &&
	       strstr(sa_json_str(fmt, "first", ""), "T00:00:00Z") && strstr(sa_json_str(fmt, "last", ""), "T00:00:00Z");
}

/* Drops "T00:00:00Z" after every ISO date in the model's strings (tables and sentences alike). */
static void dates_only(cJSON *node)
{
	cJSON *it;

	if (cJSON_IsString(node)) {
		char *s = node->valuestring, *w = s;

		/* in place: what is kept is read back from what was written, the date just before */
		for (const char *r = s; *r;) {
			if (w - s >= 10 && !strncmp(r, "T00:00:00Z", 10) && w[-3] == '-' && w[-6] == '-' &&
			    isdigit((unsigned char)w[-1]) && isdigit((unsigned char)w[-10])) {
				r += 10;
				continue;
			}
			*w++ = *r++;
		}
		*w = '\0';
		return;
	}
	cJSON_ArrayForEach(it, node)
		dates_only(it);
}

cJSON *rpt_model_build(const struct rpt_input *in, const char *name)
{
	cJSON *m = cJSON_CreateObject();
	if (!m)
		return NULL;
	cJSON_AddStringToObject(m, "name", name);
	add_missing(m, in);
	rpt_verdict_model(m, in);
	add_stopped(m, in);
	add_containment(m, in);
	add_lookahead(m, in);
	rpt_live_model(m, in);
	add_robust(m, in);
	add_inspection(m, in);
	add_costs(m, in);
	rpt_reconcile_model(m, in);
	rpt_stats_model(m, in);
	rpt_tearsheet_model(m, in);
	rpt_freqtrade_model(m, in);
	add_trades(m, in);
	rpt_data_model(m, in);
	cJSON_AddStringToObject(m, "version", SA_VERSION);
	if (daily_bars(in))
		dates_only(m);
	if (rpt_columns_model(m) < 0) {
		cJSON_Delete(m);
		return NULL;
	}
	return m;
}
