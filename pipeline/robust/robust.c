/* robust.c - the robustness check's runs of the upload in the sandbox: started later in history,
 * on copies moved against the calendar or nudged by ticks, and on permuted copies of the data.
 * It keeps what each run gave (robust_runs.json, robust_signals.bin) and judges nothing: the
 * scoring (robust_score) reads those files, so a cost or a threshold never runs the upload again. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "config.h"
#include "fileio.h"
#include "jsonio.h"
#include "stagefile.h"
#include "msg.h"
#include "ohlcv.h"
#include "ohlcv_json.h"
#include "robust_core.h"
#include "runsig.h"
#include "sbx.h"
#include "sbx_progress.h"
#include "sbx_stage.h"
#include "signals.h"

/* Permuted copies built and run at once: bounds the memory a large PERMUTATIONS takes. */
#define RB_BATCH 50

/* The share of the audit's time budget (AUDIT_S) this stage may spend. */
#define RB_BUDGET_SHARE 0.2

/* Everything the runs hold, so a single out: label can release it. */
struct job {
	cJSON *cfg, *run, *events;
	cJSON *warm, *hind, *perm;     /* the index's lists of runs */
	struct rb_config conf;
	struct da_ohlcv bars;
	struct da_runsig sigs;
	struct sbx_zygote *zyg;
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
		"usage: robust [--strategy FILE] --run run.json --data OHLCV.csv --config config.json\n"
		"              [--jobs N] [--started EPOCH] [--timing] -o robust_runs.json\n"
		"              --signals robust_signals.bin\n"
		"\n"
		"Makes the robustness check's runs of the upload in the sandbox and keeps what each gave:\n"
		"signals(df[k:]) for each start offset k (config robust.warmup_offsets, %% of the bars);\n"
		"the copies the hindsight check moves against the calendar by whole weeks and nudges by\n"
		"ticks; and robust.permutations copies whose bar returns are shuffled (seeded by\n"
		"robust.seed). Each run's status, error line and the bars it ran on go to the index (-o),\n"
		"its signals to --signals (one int8 a bar, lib/data/runsig.h), refusals in any run to\n"
		"the index too; robust_score scores them. Without a strategy, or when run.json is\n"
		"missing, failed or was contained, nothing is run and the index says \"ok\": false with\n"
		"the reason. The stage spends at most its share of budget.audit_s (counted from\n"
		"--started, the audit's start); runs it could not make are counted (runs_not_run).\n"
		"--timing prints the wall time on stderr (never into a file).\n"
		"\n"
		"exit status: 0 the index written (even when it says \"ok\": false),\n"
		"             2 bad command line, 3 the tool itself could not work\n");
}

/* Reads config, run.json and the data, starts the zygote. Returns 0, or -1 with why. */
static int prepare(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	char err[512];
	long long audit_s;
	int8_t *full = NULL;

	if (!o->strategy)
		return sbx_stage_fail(why, len, "no strategy was uploaded, so there is nothing to re-run");
	j->cfg = sa_json_read(o->config, SA_JSON_CAP, err, sizeof err);
	if (!j->cfg)
		return sbx_stage_fail(why, len, "config.json unusable: %s", err);
	if (rb_runs_config_read(j->cfg, &j->conf, why, len) < 0)
		return -1;
	if (rb_full_run_read(o->run, o->data, j->cfg, &j->run, &j->bars, &full, why, len) < 0)
		return -1;
	free(full);
	j->events = cJSON_CreateArray();
	j->warm = cJSON_CreateArray();
	j->hind = cJSON_CreateArray();
	j->perm = cJSON_CreateArray();
	if (!j->events || !j->warm || !j->hind || !j->perm)
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

/* Keeps what run r (named run, given `given` bars) gave: its refusals counted and the first
 * RB_MAX_EVENTS listed; its status, error line, bars and, when it returned signals, where
 * they lie in the signals file, as one entry of list. Returns 0, or -1 when memory ran out. */
static int keep(struct job *j, cJSON *list, const char *run, const struct sbx_result *r, size_t given)
{
	cJSON *e = cJSON_CreateObject();
	bool sig = r->status == SBX_OK && r->signals;
	size_t at;

	j->blocked += r->n_refusals;
	if (sbx_rules_merge(&j->rules, &j->n_rules, r) < 0)
		j->rules_lost = true;
	for (size_t i = 0; i < r->n_events && j->listed < RB_MAX_EVENTS; i++, j->listed++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "run", run);
		cJSON_AddStringToObject(o, "action", r->events[i].action);
		cJSON_AddStringToObject(o, "rule", r->events[i].rule);
		cJSON_AddStringToObject(o, "detail", r->events[i].detail);
		cJSON_AddItemToArray(j->events, o);
	}
	if (!e || (sig && da_runsig_add(&j->sigs, r->signals, r->n, &at) < 0)) {
		cJSON_Delete(e);
		return -1;
	}
	cJSON_AddStringToObject(e, "run", run);
	cJSON_AddStringToObject(e, "status", sbx_status_name(r->status));
	cJSON_AddStringToObject(e, "error", r->error);
	cJSON_AddNumberToObject(e, "bars", (double)(sig ? r->n : given));
	if (sig)
		cJSON_AddNumberToObject(e, "at", (double)at);
	else
		cJSON_AddNullToObject(e, "at");
	cJSON_AddItemToArray(list, e);
	return 0;
}

/* The warm-up runs: one per offset, on its suffix of the bars. */
static int run_warmup(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	struct rb_config *c = &j->conf;
	struct da_ohlcv view[RB_MAX_OFFSETS];
	struct sbx_job jobs[RB_MAX_OFFSETS] = {0};
	struct sbx_result res[RB_MAX_OFFSETS];
	size_t k = c->n_offsets;
	char err[512], name[48];
	int rc = 0;

	for (size_t i = 0; i < k; i++) {
		view[i] = rb_suffix(&j->bars, rb_offset_bar(j->bars.n, c->offset_pct[i]));
		jobs[i] = (struct sbx_job){ .s = &view[i], .n_visible = view[i].n };
	}
	if (run_jobs(o, j, "robust: warm-up", jobs, k, res, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "the sandbox failed: %s", err);
	for (size_t i = 0; i < k; i++) {
		if (rc == 0 && keep(j, j->warm, sa_fmt(name, sizeof name, "warmup %d%%", c->offset_pct[i]),
				    &res[i], view[i].n) < 0)
			rc = sbx_stage_fail(why, len, "out of memory");
		sbx_result_release(&res[i]);
	}
	return rc;
}

/* The hindsight runs, on the copies moved against the calendar, then the one nudged by ticks. */
static int run_hindsight(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	struct rb_hindsight h = {0};
	struct rb_series copy[RB_ROTATIONS + 1] = {0};
	struct sbx_job jobs[RB_ROTATIONS + 1] = {0};
	struct sbx_result res[RB_ROTATIONS + 1];
	char err[512], name[48];
	size_t k, ran = rb_hindsight_copies(&j->bars, j->conf.seed, &h, copy);
	int rc = -1;

	if (ran == 0) {
		sbx_stage_fail(why, len, "out of memory");
		goto out;
	}
	for (k = 0; k < ran; k++)
		jobs[k] = (struct sbx_job){ .s = &copy[k].s, .n_visible = j->bars.n };
	if (run_jobs(o, j, "robust: hindsight", jobs, ran, res, err, sizeof err) < 0) {
		sbx_stage_fail(why, len, "the sandbox failed: %s", err);
		goto out;
	}
	rc = 0;
	for (k = 0; k < ran; k++) {
		if (k == h.n_rot)
			snprintf(name, sizeof name, "hindsight: nudged by ticks");
		else
			snprintf(name, sizeof name, "hindsight: moved %ld weeks", h.rot_weeks[k]);
		if (rc == 0 && keep(j, j->hind, name, &res[k], j->bars.n) < 0)
			rc = sbx_stage_fail(why, len, "out of memory");
		sbx_result_release(&res[k]);
	}
out:
	for (k = 0; k <= RB_ROTATIONS; k++)
		rb_series_release(&copy[k]);
	return rc;
}

/* One batch of permuted copies, built from the one seeded generator in order, and run. */
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
	rc = 0;
	for (size_t i = 0; i < k; i++) {
		if (rc == 0 && keep(j, j->perm, sa_fmt(name, sizeof name, "permutation %zu", first + i + 1),
				    &res[i], perm[i].s.n) < 0)
			rc = sbx_stage_fail(why, len, "out of memory");
		sbx_result_release(&res[i]);
	}
out:
	for (size_t i = 0; i < k; i++)
		rb_perm_release(&perm[i]);
	return rc;
}

/* The permuted copies, batch after batch, until every one is made or the budget cut one
 * short; every permutation not made is a run not made. */
static int run_permutations(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t *order = malloc(j->bars.n * sizeof *order);
	size_t total = j->conf.permutations, before = j->not_run, made = 0;
	int rc = -1;

	if (!rng || !order) {
		sbx_stage_fail(why, len, "out of memory");
		goto out;
	}
	gsl_rng_set(rng, j->conf.seed);
	for (size_t done = 0; done < total && j->not_run == before; done += RB_BATCH)
		if (run_batch(o, j, rng, order, done, total - done < RB_BATCH ? total - done : RB_BATCH,
			      why, len) < 0)
			goto out;
	for (int i = 0; i < cJSON_GetArraySize(j->perm); i++)
		if (strcmp(sa_json_str(cJSON_GetArrayItem(j->perm, i), "status", ""), "not_run") != 0)
			made++;
	j->not_run = before + (total - made);
	rc = 0;
out:
	free(order);
	gsl_rng_free(rng);
	return rc;
}

static void job_release(struct job *j)
{
	sbx_zygote_stop(j->zyg);
	free(j->rules);
	da_runsig_release(&j->sigs);
	da_ohlcv_release(&j->bars);
	cJSON_Delete(j->events);
	cJSON_Delete(j->warm);
	cJSON_Delete(j->hind);
	cJSON_Delete(j->perm);
	cJSON_Delete(j->run);
	cJSON_Delete(j->cfg);
}

/* The index of runs made, naming the signals file (sha: its hash). Caller frees. */
static cJSON *index_json(const struct sbx_stage_args *o, struct job *j, const char *bars_sha,
			 const char *sha)
{
	cJSON *res = sa_sf_new(SA_SF_ROBUST_RUNS), *pct;
	const char *base = strrchr(o->signals, '/');

	cJSON_AddBoolToObject(res, "ok", true);
	cJSON_AddNumberToObject(res, "bars", (double)j->bars.n);
	cJSON_AddStringToObject(res, "bars_sha256", bars_sha);
	cJSON_AddStringToObject(res, "signals", base ? base + 1 : o->signals);
	cJSON_AddStringToObject(res, "signals_sha256", sha);
	pct = cJSON_AddArrayToObject(res, "warmup_offsets");
	for (size_t i = 0; i < j->conf.n_offsets; i++)
		cJSON_AddItemToArray(pct, cJSON_CreateNumber(j->conf.offset_pct[i]));
	cJSON_AddNumberToObject(res, "permutations", (double)j->conf.permutations);
	cJSON_AddNumberToObject(res, "seed", (double)j->conf.seed);
	cJSON_AddNumberToObject(res, "runs_not_run", (double)j->not_run);
	cJSON_AddItemToObject(res, "warmup", j->warm);
	cJSON_AddItemToObject(res, "hindsight", j->hind);
	cJSON_AddItemToObject(res, "permutation", j->perm);
	j->warm = j->hind = j->perm = NULL;
	/* Code that reaches for something only on other history is just as unsafe. */
	cJSON_AddNumberToObject(res, "blocked_actions", (double)j->blocked);
	cJSON_AddItemToObject(res, "refusals", sbx_rules_json(j->rules, j->n_rules));
	cJSON_AddItemToObject(res, "events", j->events);
	j->events = NULL;
	return res;
}

/* Every run. Returns the index (caller frees; never NULL when the signals file was written),
 * or NULL with err when the signals file could not be written. */
static cJSON *runs(const struct sbx_stage_args *o, char *err, size_t errlen)
{
	static struct job j;
	char why[768], sha[65], bars_sha[65];
	cJSON *res = NULL;

	memset(&j, 0, sizeof j);
	if (prepare(o, &j, why, sizeof why) < 0 || run_warmup(o, &j, why, sizeof why) < 0 ||
	    run_hindsight(o, &j, why, sizeof why) < 0 || run_permutations(o, &j, why, sizeof why) < 0)
		goto fail;
	if (j.rules_lost) {
		sbx_stage_fail(why, sizeof why, "out of memory counting refusals");
		goto fail;
	}
	if (da_bars_sha256(&j.bars, bars_sha, why, sizeof why) < 0)
		goto fail;
	if (da_runsig_write(&j.sigs, o->signals, sha, err, errlen) == 0)
		res = index_json(o, &j, bars_sha, sha);
	job_release(&j);
	return res;
fail:
	/* an index that says why, beside an empty signals file, so make sees both written */
	da_runsig_release(&j.sigs);
	if (da_runsig_write(&j.sigs, o->signals, sha, err, errlen) == 0) {
		res = sa_sf_new(SA_SF_ROBUST_RUNS);
		sa_json_fail(res, why);
	}
	job_release(&j);
	return res;
}

int main(int argc, char **argv)
{
	static const struct sbx_stage st = { "robust", SBX_STAGE_RUN | SBX_STAGE_TIMING | SBX_STAGE_SIGNALS,
					     usage, runs };

	return sbx_stage_main(&st, argc, argv);
}
