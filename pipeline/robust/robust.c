/* robust.c - re-runs a strategy in the sandbox started later in history and on permuted copies
 * of the data: does its signal depend on where history starts, and does its timing use the
 * order of the bars or only what luck gives on these returns. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_rng.h>

#include "fileio.h"
#include "jsonio.h"
#include "ohlcv_json.h"
#include "msg.h"
#include "ohlcv.h"
#include "config.h"
#include "exits.h"
#include "robust_core.h"
#include "sbx.h"
#include "sbx_progress.h"
#include "sbx_stage.h"
#include "signals.h"

/* Permuted copies built and run at once: bounds the memory a large PERMUTATIONS takes. */
#define RB_BATCH 50

/* The share of the audit's time budget (AUDIT_S) this stage may spend. */
#define RB_BUDGET_SHARE 0.2

/* Everything one check holds, so a single out: label can release it. */
struct job {
	cJSON *cfg, *run, *events, *inspect;
	struct rp_exits exits;
	struct rb_config conf;
	struct sa_ohlcv bars;
	int8_t *full;
	struct sbx_zygote *zyg;
	struct rb_warmup warm;
	struct rb_permtest perm;
	struct rb_hindsight hind;
	long blocked;
	struct sbx_rule_count *rules;  /* the runs' refusals per rule */
	size_t n_rules;
	bool rules_lost;               /* out of memory merging them */
	int listed;
	long deadline;      /* the stage's share of the time budget ends */
	size_t not_run;     /* runs the budget cut short or never started */
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: robust [--strategy FILE] [--inspect inspect.json] --run run.json --data OHLCV.csv\n"
		"              --config config.json [--jobs N] [--started EPOCH] [--timing] -o robustness.json\n"
		"\n"
		"Warm-up: re-runs signals(df[k:]) in the sandbox for each start offset k (config\n"
		"robust.warmup_offsets, %% of the bars) and compares each with run.json on the last %d %%\n"
		"of bars. Permutation test: re-runs it on robust.permutations copies of the data whose\n"
		"bar returns are shuffled (seeded by robust.seed), replays each with no costs (as the\n"
		"real run is, for the ranking) and ranks the real per-bar gross Sharpe ratio among\n"
		"theirs; the real net return is said beside it. Every replay fills the exits the\n"
		"strategy declares (--inspect). Refusals in any run are recorded.\n"
		"Without a strategy, or when run.json is missing, failed or was contained, nothing is\n"
		"run and robustness.json says \"ok\": false with the reason. --timing prints the wall\n"
		"time on stderr (never into the file). The stage spends at most its share of\n"
		"budget.audit_s (counted from --started, the audit's start); runs it could not make are\n"
		"counted and robustness.json says \"complete\": false.\n"
		"\n"
		"exit status: 0 robustness.json written (even when it says \"ok\": false),\n"
		"             2 bad command line, 3 the tool itself could not work\n", RB_TAIL_PCT);
}

/* The full run must have completed uncontained: a refused upload is not run again. */
static int full_signals(struct job *j, char *why, size_t len)
{
	size_t used;

	if (sa_run_signals(j->run, j->bars.n, SA_RUN_UNCONTAINED, &j->full, why, len) == 0)
		return 0;
	used = strlen(why);
	snprintf(why + used, len - used, "; robustness was not checked");
	return -1;
}

/* The strategy's declared exits (--inspect), attached to the cost model: the permutation test
 * replays with the same exits. Exits declared wrong stop the check, as they stop the replay. */
static int read_exits(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	char err[480];

	if (!o->inspect)
		return 0;
	j->inspect = sa_json_read(o->inspect, SA_JSON_CAP, err, sizeof err);
	if (!j->inspect)
		return sbx_stage_fail(why, len, "inspect.json unusable (%s), so the declared exits are "
				      "unknown; robustness was not checked", err);
	if (rp_exits_from_json(rp_exits_of_inspect(j->inspect), &j->exits, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "the strategy's exits cannot be replayed: %s; "
				      "robustness was not checked", err);
	j->conf.costs.exits = &j->exits;
	return 0;
}

/* Reads config, run.json and the data. Returns 0, or -1 with why. */
static int prepare(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	char err[512];
	long long audit_s;
	bool ok;

	if (!o->strategy)
		return sbx_stage_fail(why, len, "no strategy was uploaded, so there is nothing to re-run");
	j->cfg = sa_json_read(o->config, SA_JSON_CAP, err, sizeof err);
	if (!j->cfg)
		return sbx_stage_fail(why, len, "config.json unusable: %s", err);
	if (rb_config_read(j->cfg, &j->conf, why, len) < 0 || read_exits(o, j, why, len) < 0)
		return -1;
	j->run = sa_json_read_stage(o->run, &ok, err, sizeof err);
	if (!j->run)
		return sbx_stage_fail(why, len, "run.json unusable (%s); robustness was not checked", err);
	if (sa_ohlcv_load_config(o->data, j->cfg, &j->bars, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "data '%s' unusable: %s", o->data, err);
	if (full_signals(j, why, len) < 0)
		return -1;
	j->events = cJSON_CreateArray();
	j->perm.null = calloc(j->conf.permutations, sizeof *j->perm.null);
	j->perm.trades = calloc(j->conf.permutations, sizeof *j->perm.trades);
	if (!j->events || !j->perm.null || !j->perm.trades)
		return sbx_stage_fail(why, len, "out of memory");
	if (sa_config_int(j->cfg, SA_K_AUDIT_S, &audit_s, why, len) < 0)
		return -1;
	j->zyg = sbx_zygote_start(o->strategy, &j->conf.lim, err, sizeof err);
	if (!j->zyg)
		return sbx_stage_fail(why, len, "the sandbox could not start: %s", err);
	j->deadline = sbx_budget_deadline((double)audit_s, RB_BUDGET_SHARE, o->started);
	return 0;
}

/* Runs k jobs within the stage's share of the time budget, the batch's progress on stderr
 * under label; counts those it cut short. */
static int run_jobs(const struct sbx_stage_args *o, struct job *j, const char *label,
		    const struct sbx_job *jobs, size_t k, struct sbx_result *res, char *err, size_t errlen)
{
	struct sbx_progress prog;
	const struct sbx_batch_opts bo = { .jobs = o->jobs, .deadline_ms = j->deadline,
					   .on_done = sbx_progress_done, .arg = &prog };

	sbx_progress_start(&prog, label);
	if (sbx_run_batch(j->zyg, jobs, k, &bo, res, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < k; i++)
		if (res[i].status == SBX_NOT_RUN)
			j->not_run++;
	return 0;
}

/* Counts a run's refusals and lists the first RB_MAX_EVENTS, each named by its run. */
static void take_events(struct job *j, const char *run, const struct sbx_result *r)
{
	j->blocked += r->n_refusals;
	if (sbx_rules_merge(&j->rules, &j->n_rules, r) < 0)
		j->rules_lost = true;
	for (size_t e = 0; e < r->n_events && j->listed < RB_MAX_EVENTS; e++, j->listed++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "run", run);
		cJSON_AddStringToObject(o, "action", r->events[e].action);
		cJSON_AddStringToObject(o, "rule", r->events[e].rule);
		cJSON_AddStringToObject(o, "detail", r->events[e].detail);
		cJSON_AddItemToArray(j->events, o);
	}
}

/* The warm-up runs: one per offset, on its suffix of the bars. */
static int run_warmup(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	struct rb_config *c = &j->conf;
	struct sa_ohlcv view[RB_MAX_OFFSETS];
	struct sbx_job jobs[RB_MAX_OFFSETS] = {0};
	struct sbx_result res[RB_MAX_OFFSETS];
	size_t n = j->bars.n, k = c->n_offsets;
	char err[512], name[48];

	j->warm.n_bars = n;
	j->warm.tail_start = rb_tail_start(n);
	j->warm.compared_bars = n - j->warm.tail_start;
	j->warm.n_runs = k;
	for (size_t i = 0; i < k; i++) {
		view[i] = rb_suffix(&j->bars, rb_offset_bar(n, c->offset_pct[i]));
		jobs[i] = (struct sbx_job){ .s = &view[i], .n_visible = view[i].n };
	}
	if (run_jobs(o, j, "robust: warm-up", jobs, k, res, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "the sandbox failed: %s", err);
	for (size_t i = 0; i < k; i++) {
		const struct sbx_result *r = &res[i];
		bool ok = r->status == SBX_OK && r->signals;

		rb_warm_compare(j->full, n, n - view[i].n, c->offset_pct[i], ok ? r->signals : NULL,
				r->n, sbx_status_name(r->status), r->error, &j->warm.run[i]);
		take_events(j, sa_fmt(name, sizeof name, "warmup %d%%", c->offset_pct[i]), r);
		sbx_result_release(&res[i]);
	}
	rb_warm_finish(&j->warm, c->flag_share);
	return 0;
}

/* One batch of permuted copies: built from the one seeded generator in order, run, replayed. */
static int run_batch(const struct sbx_stage_args *o, struct job *j, gsl_rng *rng, size_t *order,
		     size_t first, size_t k, char *why, size_t len)
{
	struct rb_perm perm[RB_BATCH] = {0};
	struct sbx_job jobs[RB_BATCH] = {0};
	struct sbx_result res[RB_BATCH];
	char err[512], name[48];
	int rc = -1;

	for (size_t i = 0; i < k; i++) {
		if (rb_perm_make(&j->bars, rng, order, &perm[i]) < 0) {
			sbx_stage_fail(why, len, "out of memory");
			goto out;
		}
		jobs[i] = (struct sbx_job){ .s = &perm[i].s, .n_visible = perm[i].s.n };
	}
	if (run_jobs(o, j, "robust: permutation", jobs, k, res, err, sizeof err) < 0) {
		sbx_stage_fail(why, len, "the sandbox failed: %s", err);
		goto out;
	}
	for (size_t i = 0; i < k; i++) {
		const struct sbx_result *r = &res[i];
		double sr;
		size_t trades;

		take_events(j, sa_fmt(name, sizeof name, "permutation %zu", first + i + 1), r);
		if (r->status == SBX_NOT_RUN) {
			/* cut short by the time budget: counted in not_run, not a failure */
		} else if (r->status != SBX_OK || !r->signals || r->n != perm[i].s.n) {
			j->perm.failed_runs++;
		} else if (rb_sharpe(&perm[i].s, r->signals, j->conf.costs.exits, &sr, &trades) < 0) {
			sbx_stage_fail(why, len, "out of memory");
		} else {
			/* No trades, or no spread: no edge to rank, which is what 0 says. */
			if (!isfinite(sr))
				j->perm.undefined++;
			j->perm.trades[j->perm.runs] = trades;
			j->perm.null[j->perm.runs++] = isfinite(sr) ? sr : 0.0;
		}
		sbx_result_release(&res[i]);
	}
	rc = why[0] ? -1 : 0;
out:
	for (size_t i = 0; i < k; i++)
		rb_perm_release(&perm[i]);
	return rc;
}

static int run_permutations(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t *order = malloc(j->bars.n * sizeof *order);
	size_t total = j->conf.permutations, warm_not_run = j->not_run;
	int rc = -1;

	why[0] = '\0';
	if (!rng || !order) {
		sbx_stage_fail(why, len, "out of memory");
		goto out;
	}
	gsl_rng_set(rng, j->conf.seed);
	j->perm.requested = total;
	if (rb_sharpe(&j->bars, j->full, j->conf.costs.exits, &j->perm.real_sharpe, &j->perm.real_trades) < 0 ||
	    rb_net_return(&j->bars, j->full, &j->conf.costs, &j->perm.real_net_return) < 0) {
		sbx_stage_fail(why, len, "out of memory");
		goto out;
	}
	for (size_t done = 0; done < total && j->not_run == warm_not_run; done += RB_BATCH)
		if (run_batch(o, j, rng, order, done, total - done < RB_BATCH ? total - done : RB_BATCH,
			      why, len) < 0)
			goto out;
	/* Every permutation not made (cut short, or in a batch never started) is a run not made. */
	j->not_run = warm_not_run + (total - j->perm.runs - j->perm.failed_runs);
	rb_perm_finish(&j->perm);
	rc = 0;
out:
	free(order);
	gsl_rng_free(rng);
	return rc;
}

/* Hindsight: the same bars 28 years on, and the same bars nudged far below a tick in price,
 * each run once; the share of the full run's entries each keeps. */
static int run_hindsight(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	struct rb_hindsight *h = &j->hind;
	struct rb_series copy[2] = {0};
	struct sbx_job jobs[2] = {0};
	struct sbx_result res[2];
	double *kept[2] = { &h->shift_kept, &h->jitter_kept };
	char *status[2] = { h->shift_status, h->jitter_status };
	static const char *const names[2] = { "hindsight: shifted in time", "hindsight: nudged in price" };
	char err[512];
	size_t k = 0;
	int rc = -1;

	h->shift_kept = h->jitter_kept = NAN;
	snprintf(h->shift_status, sizeof h->shift_status, "not_run");
	snprintf(h->jitter_status, sizeof h->jitter_status, "not_run");
	h->weeks = rb_shift_weeks(&j->bars);
	h->jitter_size = rb_jitter_size(&j->bars, &h->jitter_resolution);
	if (rb_series_copy(&j->bars, &copy[0]) < 0 || rb_series_copy(&j->bars, &copy[1]) < 0) {
		sbx_stage_fail(why, len, "out of memory");
		goto out;
	}
	rb_shift_times(&copy[0], h->weeks);
	rb_jitter_prices(&copy[1], h->jitter_size);
	for (k = 0; k < 2; k++)
		jobs[k] = (struct sbx_job){ .s = &copy[k].s, .n_visible = j->bars.n };
	if (run_jobs(o, j, "robust: hindsight", jobs, 2, res, err, sizeof err) < 0) {
		sbx_stage_fail(why, len, "the sandbox failed: %s", err);
		goto out;
	}
	for (k = 0; k < 2; k++) {
		take_events(j, names[k], &res[k]);
		snprintf(status[k], 32, "%s", sbx_status_name(res[k].status));
		if (k == 0 && h->weeks == 0)
			snprintf(status[k], 32, "no_calendar_room");
		else if (res[k].status == SBX_OK && res[k].signals && res[k].n == j->bars.n)
			*kept[k] = rb_entries_kept(j->full, res[k].signals, j->bars.n, &h->entries);
		else if (res[k].status != SBX_NOT_RUN)
			/* fail closed: on the same bars at another date, or a hair away in price, it could
			 * not trade at all; a run the budget cut short is unfinished, not judged */
			*kept[k] = 0;
		sbx_result_release(&res[k]);
	}
	(void)rb_entries_kept(j->full, j->full, j->bars.n, &h->entries);
	rc = 0;
out:
	rb_series_release(&copy[0]);
	rb_series_release(&copy[1]);
	return rc;
}

/* The largest warm-up disagreement, NAN when no warm-up run completed. */
static double warm_worst(const struct rb_warmup *w)
{
	double worst = NAN;

	for (size_t i = 0; i < w->n_runs; i++)
		if (w->run[i].ok && (isnan(worst) || w->run[i].disagreement > worst))
			worst = w->run[i].disagreement;
	return worst;
}

static void job_release(struct job *j)
{
	sbx_zygote_stop(j->zyg);
	rb_permtest_release(&j->perm);
	free(j->full);
	free(j->rules);
	sa_ohlcv_release(&j->bars);
	cJSON_Delete(j->events);
	cJSON_Delete(j->run);
	cJSON_Delete(j->cfg);
	cJSON_Delete(j->inspect);
}

/* The whole check. Returns the robustness.json tree (caller frees); never NULL. */
static cJSON *check(const struct sbx_stage_args *o)
{
	static struct job j;
	char why[768];
	cJSON *res = NULL;

	memset(&j, 0, sizeof j);
	if (prepare(o, &j, why, sizeof why) < 0 || run_warmup(o, &j, why, sizeof why) < 0 ||
	    run_hindsight(o, &j, why, sizeof why) < 0 || run_permutations(o, &j, why, sizeof why) < 0)
		goto out;
	if (j.rules_lost) {
		sbx_stage_fail(why, sizeof why, "out of memory counting refusals");
		goto out;
	}
	rb_hindsight_finish(&j.hind, j.perm.trades, j.perm.runs, j.perm.real_trades, warm_worst(&j.warm));
	res = sa_json_stage("robust", RB_SCHEMA);
	cJSON_AddBoolToObject(res, "ok", true);
	/* Every run made: a finding resting on fewer runs than asked cannot let a verdict pass. */
	cJSON_AddBoolToObject(res, "complete", j.not_run == 0);
	cJSON_AddNumberToObject(res, "runs_not_run", (double)j.not_run);
	cJSON_AddNumberToObject(res, "n_bars", (double)j.bars.n);
	cJSON_AddItemToObject(res, "warmup", rb_warmup_json(&j.warm, j.conf.flag_share, j.bars.t));
	cJSON_AddItemToObject(res, "permutation", rb_perm_json(&j.perm, j.conf.seed));
	cJSON_AddItemToObject(res, "hindsight", rb_hindsight_json(&j.hind));
	/* Code that reaches for something only on other history is just as unsafe. */
	cJSON_AddNumberToObject(res, "blocked_actions", (double)j.blocked);
	cJSON_AddItemToObject(res, "refusals", sbx_rules_json(j.rules, j.n_rules));
	cJSON_AddItemToObject(res, "events", j.events);
	j.events = NULL;
out:
	if (!res) {
		res = sa_json_stage("robust", RB_SCHEMA);
		sa_json_fail(res, why);
	}
	job_release(&j);
	return res;
}

static cJSON *check_stage(const struct sbx_stage_args *a, bool *broken)
{
	(void)broken;
	return check(a);
}

int main(int argc, char **argv)
{
	static const struct sbx_stage st = { "robust", SBX_STAGE_RUN | SBX_STAGE_TIMING | SBX_STAGE_EXITS, usage,
					     check_stage };

	return sbx_stage_main(&st, argc, argv);
}
