/* variants_score.c - replays each declared variant's signals (variant_runs.json and
 * variant_signals.bin, kept by variants) with the audit's costs on the host and writes
 * variants.json, variants.csv and the per-bar return matrix. It runs nothing of the upload, so a
 * changed cost re-scores the family without a sandbox. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "costs.h"
#include "exits.h"
#include "fileio.h"
#include "jsonio.h"
#include "stagefile.h"
#include "msg.h"
#include "ohlcv.h"
#include "ohlcv_json.h"
#include "runsig.h"
#include "sbx_stage.h"
#include "variants_core.h"

/* Everything one family holds, so a single out: label can release it. */
struct job {
	cJSON *cfg, *insp, *idx;
	struct sa_sf ix;              /* idx through the stage-file table (the tree is the job's) */
	const cJSON *blocked, *refusals, *events;  /* the runs' refusals, in idx */
	struct rp_costs costs;
	struct rp_exits exits;        /* the declared exits, every variant's (costs.exits) */
	struct da_ohlcv bars;
	struct da_runsig sigs;
	size_t k, ran, not_run;
	struct vr_variant *v;
	double *matrix;               /* ran columns of bars.n values */
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: variants_score --runs variant_runs.json --signals variant_signals.bin\n"
		"                      --inspect inspect.json --data OHLCV.csv --config config.json\n"
		"                      -o variants.json --csv variants.csv --matrix variant_returns.bin\n"
		"                      [--family declared|neighbourhood]\n"
		"\n"
		"Replays the signals each declared variant gave in its run (variants kept them) with the\n"
		"config's costs and the declared exits, on the host, running nothing of the upload, and\n"
		"writes one row a variant to variants.csv and the per-bar net returns of those that ran\n"
		"to the matrix. The runs must have been made on the same bars (the index's bars_sha256)\n"
		"and the signals file be the index's (its sha256); an index that says \"ok\": false gives\n"
		"its reason, and both tables are left empty. --family names the family the index must\n"
		"hold (variants --family kept it; declared when not given) and variants.json says it.\n"
		"\n"
		"exit status: 0 variants.json written (even when it says \"ok\": false),\n"
		"             2 bad command line, 3 the tool itself could not work\n");
}

/* The index (variant_runs.json, or the family's) through the stage-file table: its family and
 * its count of sets. Returns 0, or -1 with why (a missing or mistyped field named). */
static int read_index(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	const char *family = o->family ? o->family : "declared", *held = "";
	const cJSON *list = NULL;
	double k = NAN, not_run = 0;

	j->idx = sa_sf_keep(&j->ix, o->runs, SA_SF_VARIANT_RUNS);
	if (!j->idx)
		return sbx_stage_fail(why, len, "variant_runs.json unusable (%s); the variants were not scored",
				      j->ix.status);
	if (!j->ix.ok)
		return sbx_stage_fail(why, len, "%s", j->ix.status);
	sa_sf_str(&j->ix, NULL, SA_FD_VRR_FAMILY, &held);
	sa_sf_arr(&j->ix, NULL, SA_FD_VRR_VARIANTS, &list);
	sa_sf_num(&j->ix, NULL, SA_FD_VRR_COUNT, &k);
	sa_sf_num(&j->ix, NULL, SA_FD_VRR_NOT_RUN, &not_run);
	sa_sf_item(&j->ix, NULL, SA_FD_VRR_BLOCKED, &j->blocked);
	sa_sf_item(&j->ix, NULL, SA_FD_VRR_REFUSALS, &j->refusals);
	sa_sf_item(&j->ix, NULL, SA_FD_VRR_EVENTS, &j->events);
	if (j->ix.broken[0])
		return sbx_stage_fail(why, len, "%s; run variants again", j->ix.broken);
	if (strcmp(held, family) != 0)
		return sbx_stage_fail(why, len, "%s holds the family '%s', not '%s'; run variants again",
				      o->runs, held, family);
	if (!(k >= 0) || k > VR_MAX_VARIANTS || (double)cJSON_GetArraySize(list) != k)
		return sbx_stage_fail(why, len, "variant_runs.json does not list the variants it ran; run variants again");
	j->k = (size_t)k;
	j->not_run = (size_t)fmax(0, not_run);
	return 0;
}

/* inspect.json's declared exits, by their row, into j->exits. Returns 0, or -1 with why. */
static int read_exits(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	char err[512];
	struct sa_sf in;
	const cJSON *exits;

	/* a failed inspection's record still holds the strategy's fields */
	j->insp = sa_sf_keep(&in, o->inspect, SA_SF_INSPECT);
	if (!j->insp)
		return sbx_stage_fail(why, len, "inspect.json unusable (%s); the variants were not scored", in.status);
	exits = sa_sf_obj_or_null(&in, NULL, SA_FD_IN_EXITS);
	if (in.broken[0])
		return sbx_stage_fail(why, len, "%s; the variants were not scored", in.broken);
	if (rp_exits_from_json(exits, &j->exits, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "the strategy's exits cannot be replayed: %s; the variants were not run", err);
	j->costs.exits = &j->exits;
	return 0;
}

/* Reads the index, the config, the exits, the data and the signals. Returns 0, or -1 with why. */
static int prepare(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	char err[512], bars_sha[65];
	const char *bars_held = "", *sig_sha = "";

	if (read_index(o, j, why, len) < 0)
		return -1;
	if (j->k == 0)
		return 0;
	j->cfg = sa_json_read(o->config, SA_JSON_CAP, err, sizeof err);
	if (!j->cfg)
		return sbx_stage_fail(why, len, "config.json unusable: %s", err);
	if (rp_read_costs(j->cfg, &j->costs, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "config.json unusable: %s", err);
	if (read_exits(o, j, why, len) < 0)
		return -1;
	if (da_ohlcv_load_config(o->data, j->cfg, &j->bars, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "data '%s' unusable: %s", o->data, err);
	rp_costs_floor(&j->costs, &j->bars, NULL);
	if (da_bars_sha256(&j->bars, bars_sha, why, len) < 0)
		return -1;
	sa_sf_str(&j->ix, NULL, SA_FD_VRR_BARS_SHA, &bars_held);
	sa_sf_str(&j->ix, NULL, SA_FD_VRR_SIGNALS_SHA, &sig_sha);
	if (j->ix.broken[0])
		return sbx_stage_fail(why, len, "%s; run variants again", j->ix.broken);
	if (strcmp(bars_sha, bars_held) != 0)
		return sbx_stage_fail(why, len, "variant_runs.json was made on other bars than '%s' gives; run "
			    "variants again", o->data);
	if (da_runsig_read(o->signals, sig_sha, &j->sigs, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "%s", err);
	j->v = calloc(j->k, sizeof *j->v);
	j->matrix = calloc(j->bars.n ? j->k * j->bars.n : 1, sizeof *j->matrix);
	if (!j->v || !j->matrix)
		return sbx_stage_fail(why, len, "out of memory");
	return 0;
}

/* Variant i as its run left it, replayed when it gave signals. Returns 0, or -1 with why. */
static int score_one(struct job *j, size_t i, char *why, size_t len)
{
	const cJSON *e = cJSON_GetArrayItem(sa_sf_arr_or_null(&j->ix, NULL, SA_FD_VRR_VARIANTS), (int)i);
	const char *status = sa_sf_str_or(&j->ix, e, SA_FD_VRR_VARIANTS_STATUS, NULL);
	const char *error = sa_sf_str_or(&j->ix, e, SA_FD_VRR_VARIANTS_ERROR, "");
	const cJSON *params = sa_sf_obj_or_null(&j->ix, e, SA_FD_VRR_VARIANTS_PARAMS);
	struct vr_variant *v = &j->v[i];
	struct rp_result rp = {0};
	const int8_t *sig;
	size_t n;
	char err[256];

	v->sharpe = v->net_return = NAN;
	if (j->ix.broken[0])
		return sbx_stage_fail(why, len, "%s (variant %zu); run variants again", j->ix.broken, i + 1);
	if (!e || !(v->params = cJSON_PrintUnformatted(params)))
		return sbx_stage_fail(why, len, "out of memory");
	if (da_runsig_run(&j->sigs, e, &sig, &n, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "variant_runs.json: %s; run variants again", err);
	/* a sandbox status name, printed as it is into variants.csv */
	if (strlen(status) > 31 || strspn(status, "abcdefghijklmnopqrstuvwxyz_") != strlen(status))
		return sbx_stage_fail(why, len, "variant_runs.json: variant %zu has a status that is no status name", i + 1);
	v->status = status;
	if (!sig) {
		snprintf(v->error, sizeof v->error, "%s", error[0] ? error : status);
		return 0;
	}
	if (strcmp(status, "ok") != 0 || n != j->bars.n)
		return sbx_stage_fail(why, len, "variant_runs.json: variant %zu kept %zu signals with status '%s'",
			    i + 1, n, status);
	if (rp_replay(&j->bars, sig, &j->costs, &rp) < 0 ||
	    vr_summarise(&rp, v, j->matrix + j->ran * j->bars.n, j->bars.n) < 0) {
		rp_result_release(&rp);
		return sbx_stage_fail(why, len, "out of memory replaying variant %zu", i + 1);
	}
	rp_result_release(&rp);
	v->ran = true;
	j->ran++;
	return 0;
}

static void job_release(struct job *j)
{
	for (size_t i = 0; j->v && i < j->k; i++)
		free(j->v[i].params);
	free(j->v);
	free(j->matrix);
	da_runsig_release(&j->sigs);
	da_ohlcv_release(&j->bars);
	cJSON_Delete(j->idx);
	cJSON_Delete(j->insp);
	cJSON_Delete(j->cfg);
}

/* A field of the index copied into res under key (the runs' refusals as they recorded them). */
static void copy_item(cJSON *res, const char *key, const cJSON *it)
{
	cJSON_AddItemToObject(res, key, it ? cJSON_Duplicate(it, true) : cJSON_CreateNull());
}

/* variants.json from a scored family. */
static cJSON *family_json(const struct sbx_stage_args *o, struct job *j)
{
	cJSON *res = sa_sf_new(SA_SF_VARIANTS), *list;
	const char *base = strrchr(o->matrix, '/');

	cJSON_AddBoolToObject(res, "ok", true);
	cJSON_AddStringToObject(res, "family", o->family ? o->family : "declared");
	cJSON_AddBoolToObject(res, "declared", j->k > 0);
	cJSON_AddBoolToObject(res, "complete", j->not_run == 0);
	cJSON_AddNumberToObject(res, "not_run", (double)j->not_run);
	cJSON_AddNumberToObject(res, "count", (double)j->k);
	cJSON_AddNumberToObject(res, "ran", (double)j->ran);
	cJSON_AddNumberToObject(res, "failed", (double)(j->k - j->ran));
	cJSON_AddNumberToObject(res, "bars", (double)(j->k ? j->bars.n : 0));
	cJSON_AddStringToObject(res, "matrix", base ? base + 1 : o->matrix);
	copy_item(res, "blocked_actions", j->blocked);
	copy_item(res, "refusals", j->refusals);
	copy_item(res, "events", j->events);
	list = cJSON_AddArrayToObject(res, "variants");
	for (size_t i = 0; i < j->k; i++) {
		const struct vr_variant *v = &j->v[i];
		cJSON *e = cJSON_CreateObject();

		cJSON_AddNumberToObject(e, "variant", (double)(i + 1));
		cJSON_AddItemToObject(e, "params", cJSON_Parse(v->params));
		cJSON_AddStringToObject(e, "status", v->status);
		if (v->ran) {
			cJSON_AddNullToObject(e, "error");
			cJSON_AddNumberToObject(e, "trades", (double)v->trades);
		} else {
			cJSON_AddStringToObject(e, "error", v->error);
			cJSON_AddNullToObject(e, "trades");
		}
		sa_json_add_num(e, "sharpe", v->ran ? v->sharpe : NAN, 10);
		sa_json_add_num(e, "net_return", v->ran ? v->net_return : NAN, 10);
		cJSON_AddItemToArray(list, e);
	}
	return res;
}

/* Writes the CSV and the matrix (ran columns; none when nothing ran); a family that could not
 * be scored (failed) leaves both empty. Returns 0, or -1 with the reason in err. */
static int write_tables(const struct sbx_stage_args *o, const struct job *j, bool failed, char *err, size_t errlen)
{
	size_t k = failed ? 0 : j->k, ran = failed ? 0 : j->ran;
	struct sa_atomic a = {0};

	if (sa_atomic_open(&a, o->csv, err, errlen) < 0)
		return -1;
	if (vr_csv_write(a.fp, j->v, k) < 0) {
		sa_fmt(err, errlen, "cannot write '%s': %s", o->csv, strerror(errno));
		sa_atomic_abort(&a);
		return -1;
	}
	if (sa_atomic_commit(&a, err, errlen) < 0 || sa_atomic_open(&a, o->matrix, err, errlen) < 0)
		return -1;
	if (da_vmatrix_write(a.fp, j->matrix, ran ? j->bars.n : 0, ran) < 0) {
		sa_fmt(err, errlen, "cannot write '%s': %s", o->matrix, strerror(errno));
		sa_atomic_abort(&a);
		return -1;
	}
	return sa_atomic_commit(&a, err, errlen);
}

/* The whole family scored into *res (never NULL after). Returns 0, or -1 with err when a table
 * could not be written. */
static int score(const struct sbx_stage_args *o, cJSON **res, char *err, size_t errlen)
{
	struct job j = {0};
	char why[768];
	bool failed = false;
	int rc;

	*res = NULL;
	if (prepare(o, &j, why, sizeof why) < 0)
		failed = true;
	for (size_t i = 0; !failed && i < j.k; i++)
		if (score_one(&j, i, why, sizeof why) < 0)
			failed = true;
	if (failed) {
		*res = sa_sf_new(SA_SF_VARIANTS);
		sa_json_fail(*res, why);
	} else {
		*res = family_json(o, &j);
	}
	rc = write_tables(o, &j, failed, err, errlen);
	job_release(&j);
	return rc;
}

static cJSON *score_stage(const struct sbx_stage_args *a, char *err, size_t errlen)
{
	cJSON *res = NULL;

	if (score(a, &res, err, errlen) < 0) {
		cJSON_Delete(res);
		return NULL;
	}
	return res;
}

int main(int argc, char **argv)
{
	static const struct sbx_stage st = { "variants_score", SBX_STAGE_RUNS | SBX_STAGE_SIGNALS |
					     SBX_STAGE_INSPECT | SBX_STAGE_TABLES | SBX_STAGE_FAMILY, usage, score_stage };

	return sbx_stage_main(&st, argc, argv);
}
