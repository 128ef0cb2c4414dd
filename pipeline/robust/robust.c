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
	cJSON *cfg, *run, *events;
	struct rp_exits exits;
	struct rb_config conf;
	struct da_ohlcv bars;
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

	if (da_run_signals(j->run, j->bars.n, DA_RUN_UNCONTAINED | DA_RUN_ENTRIES, &j->full, why, len) == 0)
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
	if (rp_exits_read_inspect(o->inspect, &j->exits, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "%s; robustness was not checked", err);
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
	if (da_ohlcv_load_config(o->data, j->cfg, &j->bars, err, sizeof err) < 0)
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
	struct da_ohlcv view[RB_MAX_OFFSETS];
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
	}
	rb_warm_finish(&j->warm, c->flag_share);
	/* a later start is judged only past one warm-up, measured on the earliest start */
	rb_warm_measure(&j->warm);
	for (size_t i = 0; i < k; i++) {
		rb_later_compare(j->full, n, res[i].signals, j->warm.warmup_bars, &j->warm.run[i]);
		sbx_result_release(&res[i]);
	}
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

/* Fills the copies the hindsight runs see: the prices moved against the calendar by whole weeks,
 * then every price nudged by whole ticks. Returns how many copies, 0 when memory ran out. */
static size_t hindsight_copies(struct job *j, struct rb_series *copy)
{
	struct rb_hindsight *h = &j->hind;
	size_t k = 0, n = j->bars.n, period;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	h->week_bars = rb_week_bars(&j->bars);
	period = h->week_bars && n > 1 ? (n - 1) / h->week_bars * h->week_bars : 0;
	h->n_rot = period ? rb_rotation_weeks(period / h->week_bars, h->rot_weeks) : 0;
	h->tick = rb_resolution(j->bars.close, n);
	h->ticks_max = rb_ticks_max(&j->bars, h->tick);
	if (!rng)
		return 0;
	for (; k < h->n_rot; k++) {
		if (rb_series_copy(&j->bars, &copy[k]) < 0)
			goto out;
		rb_rotate_prices(&j->bars, (size_t)h->rot_weeks[k] * h->week_bars, period, &copy[k]);
	}
	if (rb_series_copy(&j->bars, &copy[k]) < 0)
		goto out;
	gsl_rng_set(rng, j->conf.seed);
	rb_nudge_ticks(&copy[k++], h->tick, h->ticks_max, rng);
out:
	gsl_rng_free(rng);
	return k == h->n_rot + 1 ? k : 0;
}

/* One hindsight run on its copy: its profit, 0 when it failed where the real run did not (fail
 * closed: on the same bars moved in time or a few ticks away it could not trade at all), NAN
 * when the budget cut it short (unfinished, not judged); on a moved copy (stay not NULL) the
 * bars where it holds another position than the real run are cleared in stay (a run that
 * failed showed no position that moved). */
static int hindsight_run(struct job *j, const struct da_ohlcv *s, const struct sbx_result *r,
			 const struct rp_result *real, unsigned char *stay, double *profit, char *status)
{
	struct rp_result m;
	size_t trades;
	double t;
	int rc;

	snprintf(status, 32, "%s", sbx_status_name(r->status));
	*profit = NAN;
	if (r->status != SBX_OK || !r->signals || r->n != s->n) {
		if (r->status != SBX_NOT_RUN)
			*profit = 0;
		return 0;
	}
	if (rp_replay(s, r->signals, &j->conf.costs, &m) < 0)
		return -1;
	rc = rb_profit_of(&m, profit, &trades, &t);
	if (stay)
		rb_stay_mark(real, &m, stay);
	rp_result_release(&m);
	return rc;
}

/* Hindsight: the real run's profit, the profit each perturbed copy leaves it, and where the
 * moved runs hold the real run's positions. */
static int run_hindsight(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	struct rb_hindsight *h = &j->hind;
	struct rb_series copy[RB_ROTATIONS + 1] = {0};
	struct sbx_job jobs[RB_ROTATIONS + 1] = {0};
	struct sbx_result res[RB_ROTATIONS + 1];
	struct rp_result real = {0};
	unsigned char *stay = malloc(j->bars.n ? j->bars.n : 1);
	char err[512], name[48];
	size_t k, ran = 0;
	int rc = -1;

	h->tick_profit = h->stay_share = h->stay_z = NAN;
	snprintf(h->tick_status, sizeof h->tick_status, "not_run");
	if (!stay || rp_replay(&j->bars, j->full, &j->conf.costs, &real) < 0 ||
	    rb_profit_of(&real, &h->real_profit, &h->real_trades, &h->real_t) < 0 ||
	    (ran = hindsight_copies(j, copy)) == 0) {
		sbx_stage_fail(why, len, "out of memory");
		goto out;
	}
	memset(stay, 1, j->bars.n);
	for (k = 0; k < ran; k++)
		jobs[k] = (struct sbx_job){ .s = &copy[k].s, .n_visible = j->bars.n };
	if (run_jobs(o, j, "robust: hindsight", jobs, ran, res, err, sizeof err) < 0) {
		sbx_stage_fail(why, len, "the sandbox failed: %s", err);
		goto out;
	}
	rc = 0;
	for (k = 0; k < ran; k++) {
		bool tick = k == h->n_rot;

		if (tick)
			snprintf(name, sizeof name, "hindsight: nudged by ticks");
		else
			snprintf(name, sizeof name, "hindsight: moved %ld weeks", h->rot_weeks[k]);
		take_events(j, name, &res[k]);
		if (hindsight_run(j, &copy[k].s, &res[k], &real, tick ? NULL : stay,
				  tick ? &h->tick_profit : &h->rot_profit[k],
				  tick ? h->tick_status : h->rot_status[k]) < 0)
			rc = sbx_stage_fail(why, len, "out of memory");
		sbx_result_release(&res[k]);
	}
	if (rc == 0 && h->n_rot > 0 && rb_stay_measure(&real, stay, h) < 0)
		rc = sbx_stage_fail(why, len, "out of memory");
out:
	for (k = 0; k <= RB_ROTATIONS; k++)
		rb_series_release(&copy[k]);
	rp_result_release(&real);
	free(stay);
	return rc;
}

/* The largest disagreement past one measured warm-up, NAN when no start was judged. */
static double warm_worst(const struct rb_warmup *w)
{
	double worst = NAN;

	for (size_t i = 0; i < w->n_runs; i++)
		if (w->run[i].ok && isfinite(w->run[i].later_disagreement) &&
		    (isnan(worst) || w->run[i].later_disagreement > worst))
			worst = w->run[i].later_disagreement;
	return worst;
}

static void job_release(struct job *j)
{
	sbx_zygote_stop(j->zyg);
	rb_permtest_release(&j->perm);
	free(j->full);
	free(j->rules);
	da_ohlcv_release(&j->bars);
	cJSON_Delete(j->events);
	cJSON_Delete(j->run);
	cJSON_Delete(j->cfg);
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
	rb_hindsight_finish(&j.hind, j.perm.trades, j.perm.runs, warm_worst(&j.warm), j.warm.warmup_bars);
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

static cJSON *check_stage(const struct sbx_stage_args *a, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	return check(a);
}

int main(int argc, char **argv)
{
	static const struct sbx_stage st = { "robust", SBX_STAGE_RUN | SBX_STAGE_TIMING | SBX_STAGE_EXITS, usage,
					     check_stage };

	return sbx_stage_main(&st, argc, argv);
}
