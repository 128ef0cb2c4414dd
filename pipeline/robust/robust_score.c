/* robust_score.c - scores the robustness check's runs (robust_runs.json, robust_signals.bin, made
 * by robust) on the host: the warm-up compared with the full run, the permutation test's rank,
 * and hindsight's replays with the audit's costs. It runs nothing of the upload, so a changed
 * cost or threshold re-scores without a sandbox. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "config.h"
#include "exits.h"
#include "fileio.h"
#include "jsonio.h"
#include "stagefile.h"
#include "msg.h"
#include "ohlcv.h"
#include "ohlcv_json.h"
#include "robust_core.h"
#include "runsig.h"
#include "sbx_stage.h"
#include "signals.h"

/* Everything the scoring holds, so a single out: label can release it. */
struct job {
	cJSON *cfg, *run, *idx;
	struct sa_sf ix;  /* idx held to the stage-file table, its fields read by their rows */
	struct rp_exits exits;
	struct rb_config conf;
	struct da_ohlcv bars;
	struct da_runsig sigs;
	int8_t *full;
	struct rb_warmup warm;
	struct rb_permtest perm;
	struct rb_hindsight hind;
	size_t not_run;
};

/* One run of the index: its status, error line and signals (NULL: none). */
struct kept {
	const char *status, *error;
	const int8_t *sig;
	size_t n;
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: robust_score --runs robust_runs.json --signals robust_signals.bin --run run.json\n"
		"                    [--inspect inspect.json] --data OHLCV.csv --config config.json\n"
		"                    -o robustness.json\n"
		"\n"
		"Scores the runs robust made, on the host, running nothing of the upload: each warm-up\n"
		"start compared with run.json on the last %d %% of bars; the permutation test, each\n"
		"permuted copy (rebuilt from the index's seed) replayed with no costs and the real\n"
		"per-bar gross Sharpe ratio ranked among theirs, the real net return said beside it;\n"
		"hindsight, the moved and nudged copies replayed with config.json's costs. Every replay\n"
		"fills the exits the strategy declares (--inspect). The runs must have been made on the\n"
		"same bars (the index's bars_sha256) and the signals file be the index's (its sha256).\n"
		"An index that says \"ok\": false gives its reason.\n"
		"\n"
		"exit status: 0 robustness.json written (even when it says \"ok\": false),\n"
		"             2 bad command line, 3 the tool itself could not work\n", RB_TAIL_PCT);
}

/* The index's lists of runs: the row of each, and of its runs' status and error. */
enum list { WARMUP, HINDSIGHT, PERMUTATION };
static const enum sa_field_id list_rows[][3] = {
	[WARMUP] = { SA_FD_RBR_WARMUP, SA_FD_RBR_WARMUP_STATUS, SA_FD_RBR_WARMUP_ERROR },
	[HINDSIGHT] = { SA_FD_RBR_HINDSIGHT, SA_FD_RBR_HINDSIGHT_STATUS, SA_FD_RBR_HINDSIGHT_ERROR },
	[PERMUTATION] = { SA_FD_RBR_PERM, SA_FD_RBR_PERM_STATUS, SA_FD_RBR_PERM_ERROR },
};

/* The index's list, which must hold want entries. Returns it, or NULL with why. */
static const cJSON *list_of(struct job *j, enum list which, size_t want, char *why, size_t len)
{
	const cJSON *l = sa_sf_arr_or_null(&j->ix, NULL, list_rows[which][0]);

	if (j->ix.broken[0]) {
		sbx_stage_fail(why, len, "%s; run robust again", j->ix.broken);
		return NULL;
	}
	if (!l || (want != SIZE_MAX && (size_t)cJSON_GetArraySize(l) != want)) {
		sbx_stage_fail(why, len, "robust_runs.json %s does not hold the runs it must; run robust again",
			       sa_fields[list_rows[which][0]].key);
		return NULL;
	}
	return l;
}

/* Run i of list l (of the index's list which). Returns 0, or -1 with why. */
static int kept_run(struct job *j, const cJSON *l, enum list which, size_t i, struct kept *k,
		    char *why, size_t len)
{
	const cJSON *e = cJSON_GetArrayItem(l, (int)i);
	char err[256];

	k->status = sa_sf_str_or(&j->ix, e, list_rows[which][1], NULL);
	k->error = sa_sf_str_or(&j->ix, e, list_rows[which][2], "");
	if (j->ix.broken[0])
		return sbx_stage_fail(why, len, "%s; run robust again", j->ix.broken);
	if (!k->status || da_runsig_run(&j->sigs, e, &k->sig, &k->n, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "robust_runs.json: %s; run robust again", k->status ? err :
			    "a run has no status");
	if (k->sig && strcmp(k->status, "ok") != 0)
		return sbx_stage_fail(why, len, "robust_runs.json: a run with status '%s' has signals", k->status);
	return 0;
}

/* What the index says it ran: the offsets, the permutations asked, the seed. */
static int read_plan(struct job *j, char *why, size_t len)
{
	const cJSON *pct = sa_sf_arr_or_null(&j->ix, NULL, SA_FD_RBR_OFFSETS), *p;
	double perms = sa_sf_num_or(&j->ix, NULL, SA_FD_RBR_PERMUTATIONS, NAN);
	double seed = sa_sf_num_or(&j->ix, NULL, SA_FD_RBR_SEED, NAN);
	double not_run = sa_sf_num_or(&j->ix, NULL, SA_FD_RBR_NOT_RUN, NAN);

	if (j->ix.broken[0])
		return sbx_stage_fail(why, len, "%s; run robust again", j->ix.broken);
	if (!pct || cJSON_GetArraySize(pct) > RB_MAX_OFFSETS || !(perms >= 0) ||
	    perms > 1e9 || !(seed >= 0) || seed > 4294967295.0 || !(not_run >= 0) || not_run > 1e9)
		return sbx_stage_fail(why, len, "robust_runs.json does not say what it ran; run robust again");
	j->conf.n_offsets = 0;
	cJSON_ArrayForEach(p, pct) {
		if (!cJSON_IsNumber(p) || p->valuedouble < 1 || p->valuedouble > RB_MAX_OFFSET_PCT)
			return sbx_stage_fail(why, len, "robust_runs.json warmup_offsets holds a value out of range");
		j->conf.offset_pct[j->conf.n_offsets++] = (int)p->valuedouble;
	}
	j->conf.permutations = (size_t)perms;
	j->conf.seed = (unsigned long)seed;
	j->not_run = (size_t)not_run;
	return 0;
}

/* Reads config, the exits, the index, run.json, the data and the signals. Returns 0, or -1. */
static int prepare(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	char err[512], bars_sha[65];

	j->cfg = sa_json_read(o->config, SA_JSON_CAP, err, sizeof err);
	if (!j->cfg)
		return sbx_stage_fail(why, len, "config.json unusable: %s", err);
	if (rb_score_config_read(j->cfg, &j->conf, why, len) < 0)
		return -1;
	/* Exits declared wrong stop the check, as they stop the replay. */
	if (o->inspect && rp_exits_read_inspect(o->inspect, &j->exits, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "%s; robustness was not checked", err);
	if (o->inspect)
		j->conf.costs.exits = &j->exits;
	/* through the stage-file table: its head checked, each field by its row */
	j->idx = sa_sf_keep(&j->ix, o->runs, SA_SF_ROBUST_RUNS); /* the job releases the tree */
	if (!j->idx)
		return sbx_stage_fail(why, len, "robust_runs.json unusable (%s); robustness was not checked",
				      j->ix.status);
	if (!j->ix.ok)
		return sbx_stage_fail(why, len, "%s", j->ix.status);
	if (read_plan(j, why, len) < 0)
		return -1;
	if (rb_full_run_read(o->run, o->data, j->cfg, &j->run, &j->bars, &j->full, why, len) < 0)
		return -1;
	if (da_bars_sha256(&j->bars, bars_sha, why, len) < 0)
		return -1;
	if (strcmp(bars_sha, sa_sf_str_or(&j->ix, NULL, SA_FD_RBR_BARS_SHA, "")) != 0)
		return sbx_stage_fail(why, len, "robust_runs.json was made on other bars than '%s' gives; run robust "
			    "again", o->data);
	if (da_runsig_read(o->signals, sa_sf_str_or(&j->ix, NULL, SA_FD_RBR_SIGNALS_SHA, ""), &j->sigs,
			   err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "%s", err);
	j->perm.null = calloc(j->conf.permutations ? j->conf.permutations : 1, sizeof *j->perm.null);
	j->perm.trades = calloc(j->conf.permutations ? j->conf.permutations : 1, sizeof *j->perm.trades);
	if (!j->perm.null || !j->perm.trades)
		return sbx_stage_fail(why, len, "out of memory");
	return 0;
}

/* The warm-up starts compared with the full run on the tail, then past one measured warm-up. */
static int score_warmup(struct job *j, char *why, size_t len)
{
	struct rb_config *c = &j->conf;
	const cJSON *l = list_of(j, WARMUP, c->n_offsets, why, len);
	struct kept k[RB_MAX_OFFSETS];
	size_t n = j->bars.n;

	if (!l)
		return -1;
	j->warm.n_bars = n;
	j->warm.tail_start = rb_tail_start(n);
	j->warm.compared_bars = n - j->warm.tail_start;
	j->warm.n_runs = c->n_offsets;
	for (size_t i = 0; i < c->n_offsets; i++) {
		size_t offset = rb_offset_bar(n, c->offset_pct[i]);

		if (kept_run(j, l, WARMUP, i, &k[i], why, len) < 0)
			return -1;
		if (k[i].sig && k[i].n != n - offset)
			return sbx_stage_fail(why, len, "robust_runs.json: warm-up %d%% ran on %zu bars, not %zu",
				    c->offset_pct[i], k[i].n, n - offset);
		rb_warm_compare(j->full, n, offset, c->offset_pct[i], k[i].sig, k[i].n, k[i].status,
				k[i].error, &j->warm.run[i]);
	}
	rb_warm_finish(&j->warm, c->flag_share);
	/* a later start is judged only past one warm-up, measured on the earliest start */
	rb_warm_measure(&j->warm);
	for (size_t i = 0; i < c->n_offsets; i++)
		rb_later_compare(j->full, n, k[i].sig, j->warm.warmup_bars, &j->warm.run[i]);
	return 0;
}

/* One hindsight run on its copy s: its profit, 0 when it failed where the real run did not
 * (fail closed: on the same bars moved in time or a few ticks away it could not trade at all),
 * NAN when the budget cut it short (unfinished, not judged); on a moved copy (stay not NULL)
 * the bars where it holds another position than the real run are cleared in stay (a run that
 * failed showed no position that moved). */
static int hindsight_run(struct job *j, const struct da_ohlcv *s, const struct kept *k,
			 const struct rp_result *real, unsigned char *stay, double *profit, char *status)
{
	struct rp_result m;
	size_t trades;
	double t;
	int rc;

	snprintf(status, 32, "%s", k->status);
	*profit = NAN;
	if (!k->sig || k->n != s->n) {
		if (strcmp(k->status, "not_run") != 0)
			*profit = 0;
		return 0;
	}
	if (rp_replay(s, k->sig, &j->conf.costs, &m) < 0)
		return -1;
	rc = rb_profit_of(&m, profit, &trades, &t);
	if (stay)
		rb_stay_mark(real, &m, stay);
	rp_result_release(&m);
	return rc;
}

/* Hindsight: the real run's profit, the profit each perturbed copy leaves it, and where the
 * moved runs hold the real run's positions. */
static int score_hindsight(struct job *j, char *why, size_t len)
{
	struct rb_hindsight *h = &j->hind;
	struct rb_series copy[RB_ROTATIONS + 1] = {0};
	struct rp_result real = {0};
	unsigned char *stay = malloc(j->bars.n ? j->bars.n : 1);
	const cJSON *l;
	struct kept k;
	size_t i, ran = 0;
	int rc = -1;

	h->tick_profit = h->stay_share = h->stay_z = NAN;
	snprintf(h->tick_status, sizeof h->tick_status, "not_run");
	if (!stay || rp_replay(&j->bars, j->full, &j->conf.costs, &real) < 0 ||
	    rb_profit_of(&real, &h->real_profit, &h->real_trades, &h->real_t) < 0 ||
	    (ran = rb_hindsight_copies(&j->bars, j->conf.seed, h, copy)) == 0) {
		sbx_stage_fail(why, len, "out of memory");
		goto out;
	}
	if (!(l = list_of(j, HINDSIGHT, ran, why, len)))
		goto out;
	memset(stay, 1, j->bars.n);
	for (i = 0; i < ran; i++) {
		bool tick = i == h->n_rot;

		if (kept_run(j, l, HINDSIGHT, i, &k, why, len) < 0)
			goto out;
		if (hindsight_run(j, &copy[i].s, &k, &real, tick ? NULL : stay,
				  tick ? &h->tick_profit : &h->rot_profit[i],
				  tick ? h->tick_status : h->rot_status[i]) < 0) {
			sbx_stage_fail(why, len, "out of memory");
			goto out;
		}
	}
	if (h->n_rot > 0 && rb_stay_measure(&real, stay, h) < 0) {
		sbx_stage_fail(why, len, "out of memory");
		goto out;
	}
	rc = 0;
out:
	for (i = 0; i <= RB_ROTATIONS; i++)
		rb_series_release(&copy[i]);
	rp_result_release(&real);
	free(stay);
	return rc;
}

/* One permuted copy's run ranked: a failure counted, a run cut short left out. */
static int score_perm(struct job *j, const struct rb_perm *p, const struct kept *k)
{
	double sr;
	size_t trades;

	if (strcmp(k->status, "not_run") == 0)
		return 0;  /* cut short by the time budget: counted in runs_not_run, not a failure */
	if (!k->sig || k->n != p->s.n || j->perm.runs >= j->conf.permutations) {
		j->perm.failed_runs++;
		return 0;
	}
	if (rb_sharpe(&p->s, k->sig, j->conf.costs.exits, &sr, &trades) < 0)
		return -1;
	/* No trades, or no spread: no edge to rank, which is what 0 says. */
	if (!isfinite(sr))
		j->perm.undefined++;
	j->perm.trades[j->perm.runs] = trades;
	j->perm.null[j->perm.runs++] = isfinite(sr) ? sr : 0.0;
	return 0;
}

/* The permutation test: every permuted copy rebuilt in order from the one seeded generator, as
 * the runs built them, and each run's per-bar gross Sharpe ratio ranked. */
static int score_permutations(struct job *j, char *why, size_t len)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t *order = malloc(j->bars.n * sizeof *order);
	const cJSON *l = list_of(j, PERMUTATION, SIZE_MAX, why, len);
	size_t made = l ? (size_t)cJSON_GetArraySize(l) : 0;
	struct rb_perm p = {0};
	struct kept k;
	int rc = -1;

	if (!l)
		goto out;
	if (!rng || !order) {
		sbx_stage_fail(why, len, "out of memory");
		goto out;
	}
	if (made > j->conf.permutations) {
		sbx_stage_fail(why, len, "robust_runs.json holds more permutations than it asked for");
		goto out;
	}
	gsl_rng_set(rng, j->conf.seed);
	j->perm.requested = j->conf.permutations;
	if (rb_sharpe(&j->bars, j->full, j->conf.costs.exits, &j->perm.real_sharpe, &j->perm.real_trades) < 0 ||
	    rb_net_return(&j->bars, j->full, &j->conf.costs, &j->perm.real_net_return) < 0) {
		sbx_stage_fail(why, len, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < made; i++) {
		if (kept_run(j, l, PERMUTATION, i, &k, why, len) < 0)
			goto out;
		if (rb_perm_make(&j->bars, rng, order, &p) < 0 || score_perm(j, &p, &k) < 0) {
			sbx_stage_fail(why, len, "out of memory");
			goto out;
		}
		rb_perm_release(&p);
	}
	rb_perm_finish(&j->perm);
	rc = 0;
out:
	rb_perm_release(&p);
	free(order);
	gsl_rng_free(rng);
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
	rb_permtest_release(&j->perm);
	free(j->full);
	da_runsig_release(&j->sigs);
	da_ohlcv_release(&j->bars);
	cJSON_Delete(j->idx);
	cJSON_Delete(j->run);
	cJSON_Delete(j->cfg);
}

/* The index's item key, moved into res (the runs' refusals as they recorded them). */
static void move_item(cJSON *res, cJSON *idx, const char *key)
{
	cJSON *it = cJSON_DetachItemFromObjectCaseSensitive(idx, key);

	cJSON_AddItemToObject(res, key, it ? it : cJSON_CreateNull());
}

/* The whole scoring. Returns the robustness.json tree (caller frees); never NULL. */
static cJSON *score(const struct sbx_stage_args *o)
{
	static struct job j;
	char why[768];
	cJSON *res = NULL;

	memset(&j, 0, sizeof j);
	if (prepare(o, &j, why, sizeof why) < 0 || score_warmup(&j, why, sizeof why) < 0 ||
	    score_hindsight(&j, why, sizeof why) < 0 || score_permutations(&j, why, sizeof why) < 0)
		goto out;
	rb_hindsight_finish(&j.hind, j.perm.trades, j.perm.runs, warm_worst(&j.warm), j.warm.warmup_bars);
	res = sa_sf_new(SA_SF_ROBUSTNESS);
	cJSON_AddBoolToObject(res, "ok", true);
	/* Every run made: a finding resting on fewer runs than asked cannot let a verdict pass. */
	cJSON_AddBoolToObject(res, "complete", j.not_run == 0);
	cJSON_AddNumberToObject(res, "runs_not_run", (double)j.not_run);
	cJSON_AddNumberToObject(res, "n_bars", (double)j.bars.n);
	cJSON_AddItemToObject(res, "warmup", rb_warmup_json(&j.warm, j.conf.flag_share, j.bars.t));
	cJSON_AddItemToObject(res, "permutation", rb_perm_json(&j.perm, j.conf.seed));
	cJSON_AddItemToObject(res, "hindsight", rb_hindsight_json(&j.hind));
	move_item(res, j.idx, "blocked_actions");
	move_item(res, j.idx, "refusals");
	move_item(res, j.idx, "events");
out:
	if (!res) {
		res = sa_sf_new(SA_SF_ROBUSTNESS);
		sa_json_fail(res, why);
	}
	job_release(&j);
	return res;
}

static cJSON *score_stage(const struct sbx_stage_args *a, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	return score(a);
}

int main(int argc, char **argv)
{
	static const struct sbx_stage st = { "robust_score", SBX_STAGE_RUNS | SBX_STAGE_SIGNALS | SBX_STAGE_RUN |
					     SBX_STAGE_EXITS, usage, score_stage };

	return sbx_stage_main(&st, argc, argv);
}
