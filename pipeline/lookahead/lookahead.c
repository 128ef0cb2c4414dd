/* lookahead.c - re-runs a strategy in the sandbox on truncated histories and flags every signal
 * that changes when the future is hidden. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "jsonio.h"
#include "stagefile.h"
#include "lookahead_core.h"
#include "msg.h"
#include "ohlcv.h"
#include "ohlcv_json.h"
#include "sbx.h"
#include "sbx_progress.h"
#include "sbx_stage.h"
#include "timeutil.h"

/* The share of the audit's time budget (AUDIT_S) this stage may spend. */
#define LA_BUDGET_SHARE 0.6

/* Everything one check holds, so a single out: label can release it. */
struct job {
	cJSON *cfg, *run;
	struct la_config conf;
	struct da_ohlcv bars;
	int8_t *full;
	struct la_points pts;
	struct sbx_result *results;
	struct la_run *runs;
	bool *agrees;  /* run i agreed with the full run everywhere; its signals were dropped */
	size_t *order; /* the schedule: job i is the run at point order[i] */
	int *slot;
	struct sbx_job *jobs;
	size_t mismatches;  /* seen so far, as results come */
	bool stopped;       /* stopped on proof */
	bool cross_check;   /* the live replay settled every bar: the points' first pass alone ran */
	long deadline;
	struct sbx_zygote *zyg;
	long blocked;
	struct sbx_rule_count *rules;  /* the truncated runs' refusals per rule */
	size_t n_rules;
	struct la_window win;
	struct sbx_result *prefix;  /* prefix[i]: the whole-prefix run that decided job i's window */
	bool *confirmed;          /* prefix[i] holds that run */
	size_t first_traded;      /* the full run's first non-flat bar (n when none) */
	size_t startup;           /* inspect.json's startup_candle_count, 0 when none */
	struct la_live live;      /* the live replay */
	struct rp_costs calls_costs;  /* a class with per-trade callbacks: its trade's costs, */
	struct rp_exits calls_exits;  /* and exits (la_live_calls_costs) */
};

/* How many refusals of the truncated runs lookahead.json lists (all are counted). */
#define LA_MAX_EVENTS 50

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: lookahead [--strategy FILE] --run run.json [--inspect inspect.json] --data OHLCV.csv\n"
		"                 --config config.json [--jobs N] [--started EPOCH] -o lookahead.json\n"
		"\n"
		"Re-runs signals(df[:t+1]) in the sandbox at every bar t where the full-history position\n"
		"changes, plus seeded random bars and the last bar (config lookahead.max caps the count),\n"
		"and requires each truncated run to agree with run.json on every bar it saw.\n"
		"Each run is given a window of the last lookahead.window bars up to its point (0: twice\n"
		"what later starts need to agree with run.json, or inspect.json's startup_candle_count,\n"
		"at least %d) and compared after its warm-up; one that disagrees or fails is run again\n"
		"over the whole prefix, which alone decides. The window doubles for the later passes\n"
		"when such a run agrees (the strategy remembers more than its window).\n"
		"Each run is forked from a data zygote that has been sent the bars up to its point and no\n"
		"further. Points go from coarse to fine over the whole history; the runs at once are far\n"
		"apart in it. The stage stops after lookahead.stop_after mismatches, or when its share of\n"
		"budget.audit_s (counted from --started, the audit's start) is spent, and says so.\n"
		"Without a strategy, or when run.json is missing, failed or was contained, nothing is run\n"
		"and lookahead.json says \"ok\": false with the reason.\n"
		"\n"
		"exit status: 0 lookahead.json written (even when it says \"ok\": false or finds a leak),\n"
		"             2 bad command line, 3 the tool itself could not work\n", LA_WINDOW_FLOOR);
}

/* What on_result needs: the job whose runs these are, where this pass's jobs start among them
 * (or, for the whole-prefix runs that confirm windows, which job each is: map), and the
 * progress line. */
struct collect {
	struct job *j;
	size_t base;
	const size_t *map;
	struct sbx_progress *prog;
};

/* Counts a whole-prefix run that disagrees with the full run on a bar it saw, and drops the
 * signals of a run that agrees (its view is the full run's own), so an audit of a million bars
 * never holds every run's signals at once. A window that disagrees is no finding: it is run
 * again over the whole prefix, so its signals go too. Never stops a pass: where a check stops
 * must not depend on which run finished first. */
static bool on_result(size_t i, struct sbx_result *r, size_t done, size_t total, void *arg)
{
	struct collect *c = arg;
	struct job *j = c->j;
	size_t at = c->map ? c->map[i] : c->base + i;
	size_t first = c->map ? 0 : j->jobs[at].first, t = j->jobs[at].n_visible - 1;

	if (r->status == SBX_OK && r->signals) {
		if (la_window_agrees(j->full, t, first, j->win.warm, r->signals, r->n)) {
			j->agrees[at] = true;
		} else if (first == 0) {
			j->mismatches++;
			return false;
		}
		free(r->signals);
		r->signals = NULL;
	}
	if (!c->map)
		sbx_progress_done(c->base + done, j->pts.n, c->prog);
	(void)total;
	return false;
}

/* The warm-up a framework strategy declares (freqtrade's startup_candle_count), when
 * inspect.json was given and states one: its row of the stage-file table, a missing or mistyped
 * one named. Returns 0, or -1 with why. */
static int read_startup(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	struct sa_sf in;
	cJSON *tree;
	double n = 0;

	if (!o->inspect)
		return 0;
	/* a failed inspection's record still holds the strategy's fields */
	if (!(tree = sa_sf_keep(&in, o->inspect, SA_SF_INSPECT)))
		return sbx_stage_fail(why, len, "inspect.json unusable (%s); look-ahead was not checked", in.status);
	sa_sf_num(&in, NULL, SA_FD_IN_STARTUP, &n);
	cJSON_Delete(tree);
	if (in.broken[0])
		return sbx_stage_fail(why, len, "%s; look-ahead was not checked", in.broken);
	if (n >= 0 && n < 1e9)
		j->startup = (size_t)n;
	return 0;
}

/* Reads config, run.json and the data, and picks the points. Returns 0, or -1 with why. */
static int prepare(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	char err[512];
	struct sa_sf run;

	if (!o->strategy)
		return sbx_stage_fail(why, len, "no strategy was uploaded, so there is nothing to re-run");
	j->cfg = sa_json_read(o->config, SA_JSON_CAP, err, sizeof err);
	if (!j->cfg)
		return sbx_stage_fail(why, len, "config.json unusable: %s", err);
	if (la_config_read(j->cfg, &j->conf, why, len) < 0)
		return -1;
	j->run = sa_sf_keep(&run, o->run, SA_SF_RUN);
	if (!j->run)
		return sbx_stage_fail(why, len, "run.json unusable (%s); look-ahead was not checked", run.status);
	if (da_ohlcv_load_config(o->data, j->cfg, &j->bars, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "data '%s' unusable: %s", o->data, err);
	if (la_full_signals(j->run, j->bars.n, &j->full, why, len) < 0)
		return -1;
	if (!run.ok)
		return sbx_stage_fail(why, len, "the full-history run reported a failure (%s); look-ahead "
				"was not checked", run.status);
	if (la_points_choose(j->full, j->bars.n, j->conf.max, j->conf.seed, LA_RANDOM_POINTS,
			     &j->pts) < 0)
		return sbx_stage_fail(why, len, "could not choose truncation points");
	for (j->first_traded = 0; j->first_traded < j->bars.n && j->full[j->first_traded] == 0;)
		j->first_traded++;
	return read_startup(o, j, why, len);
}

/* The schedule: job i is the run at point order[i], in slot[i]. Returns 0, or -1 with why. */
static int plan(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	size_t k = j->pts.n;

	j->results = calloc(k, sizeof *j->results);
	j->runs = calloc(k, sizeof *j->runs);
	j->agrees = calloc(k, sizeof *j->agrees);
	j->order = calloc(k, sizeof *j->order);
	j->slot = calloc(k, sizeof *j->slot);
	j->jobs = calloc(k, sizeof *j->jobs);
	j->prefix = calloc(k, sizeof *j->prefix);
	j->confirmed = calloc(k, sizeof *j->confirmed);
	if (!j->results || !j->runs || !j->agrees || !j->order || !j->slot || !j->jobs || !j->prefix ||
	    !j->confirmed ||
	    la_schedule(&j->pts, o->jobs, j->order, j->slot) < 0)
		return sbx_stage_fail(why, len, "out of memory");
	for (size_t i = 0; i < k; i++)
		j->jobs[i] = (struct sbx_job){ .s = &j->bars, .n_visible = j->pts.t[j->order[i]] + 1 };
	j->deadline = sbx_budget_deadline(j->conf.audit_s, LA_BUDGET_SHARE, o->started);
	return 0;
}

/* Cuts the pass of jobs [lo, hi) again at the fixed price the runs before it cost, so its
 * stretches take about equal time (the first pass's guess is for a strategy whose own compute
 * is most of a run). */
static void resplit(struct job *j, size_t lo, size_t hi, int jobs)
{
	size_t *bars = malloc(lo * sizeof *bars), m = 0;
	double *ms = malloc(lo * sizeof *ms);

	if (bars && ms) {
		for (size_t i = 0; i < lo; i++)
			if (j->results[i].status == SBX_OK) {
				bars[m] = j->jobs[i].n_visible - j->jobs[i].first;
				ms[m++] = (double)j->results[i].wall_ms;
			}
		la_split(&j->pts, j->order + lo, hi - lo, jobs, la_fixed_bars(bars, ms, m), j->slot + lo);
	}
	free(bars);
	free(ms);
}

/* Adds a run's refusals to the stage's. Returns 0, or -1 out of memory. */
static int count_refusals(struct job *j, const struct sbx_result *r)
{
	j->blocked += r->n_refusals;
	return sbx_rules_merge(&j->rules, &j->n_rules, r);
}

/* The window's size, before the first pass: from LOOKAHEAD_WINDOW, or measured from the
 * strategy itself. LA_PROBES runs started later in the history, each over up to LA_PROBE_BARS
 * bars, say how many bars a later start needs before its signals agree with the full run; one
 * that fails says nothing, so its whole length counts. No probe is run when every window would
 * hold the whole prefix anyway. Returns 0, or -1 with why. */
static int measure_window(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	struct sbx_job pj[LA_PROBES];
	struct sbx_result pr[LA_PROBES] = {0};
	struct sbx_batch_opts bo = { .jobs = o->jobs, .deadline_ms = j->deadline };
	size_t n = j->bars.n, memory = 0;
	char err[512];
	int rc = 0;

	if ((j->conf.window == 0 && n <= LA_WINDOW_FLOOR) || (j->conf.window > 0 && j->conf.window >= n)) {
		la_window_choose(&j->win, j->conf.window, j->startup, 0);
		return 0;
	}
	for (size_t i = 0; i < LA_PROBES; i++) {
		size_t first = n * (i + 1) / (LA_PROBES + 1);

		pj[i] = (struct sbx_job){ .s = &j->bars, .first = first,
			.n_visible = n - first < LA_PROBE_BARS ? n : first + LA_PROBE_BARS };
	}
	if (sbx_run_batch(j->zyg, pj, LA_PROBES, &bo, pr, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "the sandbox failed: %s", err);
	for (size_t i = 0; i < LA_PROBES; i++) {
		size_t need = pr[i].status == SBX_OK && pr[i].signals && pr[i].n == pj[i].n_visible - pj[i].first
			      ? la_probe_memory(j->full, pj[i].first, pr[i].signals, pr[i].n,
						pj[i].n_visible < n ? LA_PROBE_TAIL : 0) : pr[i].n;

		memory = need > memory ? need : memory;
		if (count_refusals(j, &pr[i]) < 0)
			rc = sbx_stage_fail(why, len, "out of memory counting refusals");
		sbx_result_release(&pr[i]);
	}
	la_window_choose(&j->win, j->conf.window, j->startup, memory);
	return rc;
}

/* Orders idx[0..m) (jobs of one pass) by their points, so a slot's stretch is in time order. */
static void sort_by_point(const struct job *j, size_t *idx, size_t m)
{
	for (size_t a = 1; a < m; a++)
		for (size_t b = a; b > 0 && j->order[idx[b - 1]] > j->order[idx[b]]; b--) {
			size_t x = idx[b];

			idx[b] = idx[b - 1];
			idx[b - 1] = x;
		}
}

/* How the whole-prefix run of job i settled its window: a leak, the strategy's memory (it
 * agreed), or neither (not run, or a failure in the flat warm-up, which is no finding). */
static void tally_confirmation(struct job *j, size_t i, size_t *memory)
{
	const struct sbx_result *r = &j->prefix[i];
	size_t t = j->jobs[i].n_visible - 1;

	if (r->status == SBX_NOT_RUN)
		return;
	j->win.confirmations++;
	if (j->agrees[i]) {
		j->win.memory_mismatches++;
		(*memory)++;
	} else if (r->status == SBX_OK || t >= j->first_traded) {
		j->win.confirmed_leaks++;
	}
}

/* Runs again over the whole prefix every window of the pass [lo, hi) that disagreed with the
 * full run or failed; that run alone decides the point. Grows the window when one of them
 * agreed (the window was shorter than the strategy's memory). Returns 0, or -1 with why. */
static int confirm_pass(const struct sbx_stage_args *o, struct job *j, size_t lo, size_t hi,
			struct sbx_progress *prog, char *why, size_t len)
{
	size_t m = 0, memory = 0, *idx = malloc((hi - lo) * sizeof *idx), *pt = NULL;
	struct sbx_job *cj = malloc((hi - lo) * sizeof *cj);
	struct sbx_result *cr = calloc(hi - lo, sizeof *cr);
	int *slot = malloc((hi - lo) * sizeof *slot), rc = -1;
	struct collect col = { j, 0, idx, prog };
	struct sbx_batch_opts bo = { .jobs = o->jobs, .deadline_ms = j->deadline, .on_result = on_result,
				     .arg = &col };
	char err[512];

	if (!idx || !cj || !cr || !slot || !(pt = malloc((hi - lo) * sizeof *pt))) {
		sbx_stage_fail(why, len, "out of memory");
		goto out;
	}
	for (size_t i = lo; i < hi; i++) {
		if (j->jobs[i].first == 0 || j->agrees[i] || j->results[i].status == SBX_NOT_RUN)
			continue;
		if (j->results[i].status != SBX_OK)
			j->win.failed_windows++;
		idx[m++] = i;
	}
	sort_by_point(j, idx, m);
	for (size_t i = 0; i < m; i++) {
		cj[i] = (struct sbx_job){ .s = &j->bars, .n_visible = j->jobs[idx[i]].n_visible };
		pt[i] = j->order[idx[i]];
	}
	la_split(&j->pts, pt, m, o->jobs, 0, slot);
	bo.slot = slot;
	if (m > 0 && sbx_run_batch(j->zyg, cj, m, &bo, cr, err, sizeof err) < 0) {
		sbx_stage_fail(why, len, "the sandbox failed: %s", err);
		goto out;
	}
	for (size_t i = 0; i < m; i++) {
		j->prefix[idx[i]] = cr[i];
		j->confirmed[idx[i]] = true;
		tally_confirmation(j, idx[i], &memory);
	}
	if (memory > 0 && hi < j->pts.n)
		la_window_grow(&j->win, hi);
	rc = 0;
out:
	free(idx);
	free(pt);
	free(cj);
	free(cr);
	free(slot);
	return rc;
}

/* Marks the jobs of a pass [lo, hi) not run, saying why. */
static void skip_pass(struct job *j, size_t lo, size_t hi, const char *why)
{
	for (size_t i = lo; i < hi; i++) {
		j->results[i] = (struct sbx_result){ .status = SBX_NOT_RUN, .n = j->jobs[i].n_visible };
		snprintf(j->results[i].error, sizeof j->results[i].error, "not run: %s", why);
	}
}

/* Turns the results into borrowed la_run views, in point order: the whole-prefix run where a
 * window was confirmed, the full run's own signals where a run agreed with it. */
static int take_views(struct job *j, char *why, size_t len)
{
	for (size_t i = 0; i < j->pts.n; i++) {
		const struct sbx_result *w = &j->results[i];
		const struct sbx_result *r = j->confirmed[i] ? &j->prefix[i] : w;
		const int8_t *sig = j->agrees[i] ? j->full : r->signals;

		j->runs[j->order[i]] = (struct la_run){ .ok = r->status == SBX_OK && sig,
			.not_run = r->status == SBX_NOT_RUN,
			.n = j->agrees[i] ? j->jobs[i].n_visible : r->n, .signals = sig,
			.status = sbx_status_name(r->status), .error = r->error };
		if (count_refusals(j, w) < 0 || (j->confirmed[i] && count_refusals(j, &j->prefix[i]) < 0))
			return sbx_stage_fail(why, len, "out of memory counting refusals");
	}
	return 0;
}

/* The schedule, the zygote and the window: what the live replay and the points share. Returns 0,
 * or -1 with why. */
static int start(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	struct sbx_limits lim = j->conf.lim;
	char err[512];

	if (plan(o, j, why, len) < 0)
		return -1;
	j->zyg = sbx_zygote_start(o->strategy, &lim, err, sizeof err);
	if (!j->zyg)
		return sbx_stage_fail(why, len, "the sandbox could not start: %s", err);
	return measure_window(o, j, why, len);
}

/* The live replay first: it alone decides what the backtest would have done live. */
static int run_live(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	if (la_live_wants_calls(o->inspect)) {
		if (la_live_calls_costs(j->cfg, o->inspect, &j->bars, &j->calls_costs, &j->calls_exits,
					why, len) < 0)
			return -1;
		j->live.calls = &j->calls_costs;
	}
	if (la_live_run(j->zyg, &j->bars, j->full, j->first_traded, &j->conf, j->win.bars, o->jobs,
			j->deadline, &j->live, why, len) < 0)
		return -1;
	j->blocked += j->live.blocked;
	{
		struct sbx_result all = { .rules = j->live.rules, .n_rules = j->live.n_rules };

		if (sbx_rules_merge(&j->rules, &j->n_rules, &all) < 0)
			return sbx_stage_fail(why, len, "out of memory counting refusals");
	}
	return 0;
}

/* True when every run of the jobs [0, lo) agreed with the full run (over its window, or over the
 * whole prefix that confirmed it). */
static bool all_agreed(const struct job *j, size_t lo)
{
	for (size_t i = 0; i < lo; i++)
		if (!j->agrees[i])
			return false;
	return true;
}

/* Runs every point in the sandbox as scheduled, each over its window (confirmed over the whole
 * prefix where it disagreed or failed), and turns the results into borrowed la_run views. */
static int run_points(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	struct sbx_progress prog;
	char err[512];
	size_t k = j->pts.n;
	struct collect col = { j, 0, NULL, &prog };
	struct sbx_batch_opts bo = { .jobs = o->jobs, .on_result = on_result, .arg = &col };

	bo.deadline_ms = j->deadline;
	sbx_progress_start(&prog, "lookahead");
	/* Pass by pass: once a pass ends with the leak established, no further pass runs. Where it
	 * stops is a fact of the passes, the same on every machine, whichever run ended first. */
	for (size_t lo = 0, hi; lo < k; lo = hi) {
		int pass = la_pass_of(j->order[lo], k);

		for (hi = lo; hi < k && la_pass_of(j->order[hi], k) == pass; hi++)
			;
		if (j->mismatches >= j->conf.stop_after) {
			j->stopped = true;
			skip_pass(j, lo, hi, "the leak was established before this pass");
			continue;
		}
		/* After a first pass that agreed everywhere, a live replay that settled every bar has
		 * checked what the later passes would. */
		if (j->cross_check || (lo > 0 && all_agreed(j, lo) && la_live_settled(&j->live))) {
			j->cross_check = true;
			skip_pass(j, lo, hi, "the live replay had settled every bar");
			continue;
		}
		for (size_t i = lo; i < hi; i++)
			j->jobs[i].first = la_window_first(&j->win, j->jobs[i].n_visible - 1);
		col.base = lo;
		if (lo > 0)
			resplit(j, lo, hi, o->jobs);
		bo.slot = j->slot + lo;
		if (sbx_run_batch(j->zyg, j->jobs + lo, hi - lo, &bo, j->results + lo, err, sizeof err) < 0)
			return sbx_stage_fail(why, len, "the sandbox failed: %s", err);
		if (confirm_pass(o, j, lo, hi, &prog, why, len) < 0)
			return -1;
	}
	return take_views(j, why, len);
}

static void job_release(struct job *j)
{
	if (j->results)
		for (size_t i = 0; i < j->pts.n; i++)
			sbx_result_release(&j->results[i]);
	sbx_zygote_stop(j->zyg);
	free(j->results);
	free(j->runs);
	free(j->agrees);
	free(j->order);
	free(j->slot);
	if (j->prefix)
		for (size_t i = 0; i < j->pts.n; i++)
			sbx_result_release(&j->prefix[i]);
	free(j->prefix);
	free(j->confirmed);
	free(j->jobs);
	free(j->rules);
	la_points_release(&j->pts);
	la_live_release(&j->live);
	free(j->full);
	da_ohlcv_release(&j->bars);
	cJSON_Delete(j->run);
	cJSON_Delete(j->cfg);
}

/* Lists the first refusals of the truncated runs, each with the point whose run made it, so the
 * report can show them beside the full run's. */
static void add_events(cJSON *res, const struct job *j)
{
	cJSON *list = cJSON_AddArrayToObject(res, "events");
	char t[21];
	int shown = 0;

	size_t *at = calloc(j->pts.n ? j->pts.n : 1, sizeof *at);  /* point -> its job */

	for (size_t i = 0; at && i < j->pts.n; i++)
		at[j->order[i]] = i;
	for (size_t p = 0; at && p < j->pts.n && shown < LA_MAX_EVENTS; p++) {
		const struct sbx_result *r = &j->results[at[p]];

		for (size_t e = 0; e < r->n_events && shown < LA_MAX_EVENTS; e++, shown++) {
			cJSON *o = cJSON_CreateObject();

			cJSON_AddNumberToObject(o, "point", (double)j->pts.t[p]);
			cJSON_AddStringToObject(o, "point_time", sa_time_format(j->bars.t[j->pts.t[p]], t));
			cJSON_AddStringToObject(o, "action", r->events[e].action);
			cJSON_AddStringToObject(o, "rule", r->events[e].rule);
			cJSON_AddStringToObject(o, "detail", r->events[e].detail);
			cJSON_AddItemToArray(list, o);
		}
	}
	free(at);
}

/* The whole check. Returns the lookahead.json tree (caller frees); never NULL. */
static cJSON *check(const struct sbx_stage_args *o)
{
	struct job j = {0};
	static struct la_report rep;
	char why[768];
	cJSON *res = NULL;

	if (prepare(o, &j, why, sizeof why) < 0 || start(o, &j, why, sizeof why) < 0 ||
	    run_live(o, &j, why, sizeof why) < 0 || run_points(o, &j, why, sizeof why) < 0)
		goto out;
	if (la_compare(j.full, j.bars.n, &j.pts, j.runs, &rep) < 0) {
		snprintf(why, sizeof why, "a truncation point lies outside the data");
		goto out;
	}
	rep.stop_after = j.conf.stop_after;
	if (j.stopped && rep.points_not_run > 0)
		rep.stopped = LA_STOP_MISMATCHES;
	else if (j.cross_check && rep.points_not_run > 0)
		rep.stopped = LA_STOP_LIVE;
	else if (rep.points_not_run > 0 && sbx_clock_ms() >= j.deadline)
		rep.stopped = LA_STOP_BUDGET;
	res = la_report_json(&rep, j.bars.t, j.bars.n);
	la_live_merge(res, &j.live, j.bars.t);
	/* A run that reaches for something only when shown less history is worth knowing about. */
	cJSON_AddItemToObject(res, "window", la_window_json(&j.win));
	cJSON_AddNumberToObject(res, "blocked_actions", (double)j.blocked);
	cJSON_AddItemToObject(res, "refusals", sbx_rules_json(j.rules, j.n_rules));
	add_events(res, &j);
out:
	if (!res) {
		res = sa_sf_new(SA_SF_LOOKAHEAD);
		sa_json_fail(res, why);
	}
	job_release(&j);
	return res;
}

static cJSON *check_stage(const struct sbx_stage_args *a, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	return check(a);
}

int main(int argc, char **argv)
{
	static const struct sbx_stage st = { "lookahead", SBX_STAGE_RUN | SBX_STAGE_EXITS, usage,
					      check_stage };

	return sbx_stage_main(&st, argc, argv);
}
