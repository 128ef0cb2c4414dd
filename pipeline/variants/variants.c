/* variants.c - runs every declared variant of a strategy in the sandbox and keeps what each gave
 * (variant_runs.json, variant_signals.bin); variants_score replays them with the audit's costs
 * and writes variants.json, variants.csv and the per-bar return matrix, so a cost never runs the
 * upload again. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fileio.h"
#include "jsonio.h"
#include "stagefile.h"
#include "ohlcv_json.h"
#include "msg.h"
#include "ohlcv.h"
#include "runsig.h"
#include "sbx.h"
#include "sbx_progress.h"
#include "sbx_stage.h"
#include "sbx_report.h"
#include "variants_core.h"

/* The share of the audit's time budget (AUDIT_S) this stage may spend. */
#define VR_BUDGET_SHARE 0.2

/* Everything one family holds, so a single out: label can release it. */
struct job {
	cJSON *cfg, *insp;
	const cJSON *params;          /* borrowed from insp */
	struct sbx_limits lim;
	struct da_ohlcv bars;
	size_t k;
	char **text;                  /* each variant's compact JSON */
	size_t *n_visible;
	struct sbx_result *results;
	struct da_runsig sigs;        /* the signals of the variants that ran */
	struct sbx_zygote *zyg;
	long blocked;
	struct sbx_rule_count *rules;  /* the variant runs' refusals per rule */
	size_t n_rules;
	bool rules_lost;               /* out of memory merging them */
	size_t not_run;               /* variants the time budget left unrun */
};

/* How many refusals of the variant runs variants.json lists (all are counted). */
#define VR_MAX_EVENTS 50

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: variants [--strategy FILE] --inspect inspect.json --data OHLCV.csv\n"
		"                --config config.json [--jobs N] [--started EPOCH] -o variant_runs.json\n"
		"                --signals variant_signals.bin [--family declared|neighbourhood]\n"
		"\n"
		"Runs signals(df, **params) in the sandbox for every parameter set the strategy declares\n"
		"in VARIANTS (as inspect.json read it, never by running the file), each a fresh run with\n"
		"the limits of the main run, and keeps what each gave: its status, error line and bars in\n"
		"the index (-o), its signals in --signals (one int8 a bar, lib/data/runsig.h), refusals in\n"
		"the index too; variants_score replays them with the costs and the declared exits.\n"
		"Without VARIANTS nothing runs: the index says \"declared\": false. The stage spends\n"
		"at most its share of budget.audit_s (from --started, the audit's start); variants it\n"
		"could not run in time are counted (not_run).\n"
		"With --family neighbourhood it runs inspect.json's strategy.neighbourhood.params instead\n"
		"(the audited parameters moved to nearby values, the centre first), the same way.\n"
		"\n"
		"exit status: 0 the index written (even when it says \"ok\": false),\n"
		"             2 bad command line, 3 the tool itself could not work\n");
}

/* The rows of inspect.json's strategy that hold the family's parameter sets. */
struct family_rows {
	enum sa_field_id obj, declared, params, error;
};

/* The family's rows, or NULL for an unknown family. */
static const struct family_rows *family_rows(const struct sbx_stage_args *o)
{
	static const struct family_rows declared = { SA_FD_IN_VARIANTS, SA_FD_IN_VARIANTS_DECLARED,
						     SA_FD_IN_VARIANTS_PARAMS, SA_FD_IN_VARIANTS_ERROR };
	static const struct family_rows neighbourhood = { SA_FD_IN_NB, SA_FD_IN_NB_DECLARED,
							  SA_FD_IN_NB_PARAMS, SA_FD_IN_NB_ERROR };

	if (!o->family || !strcmp(o->family, "declared"))
		return &declared;
	if (!strcmp(o->family, "neighbourhood"))
		return &neighbourhood;
	return NULL;
}

/* Reads inspect.json's strategy.variants (or the family's sets) by their rows of the stage-file
 * table; k = 0 when none are declared or they are malformed. Returns 0, or -1 with why (a
 * missing or mistyped field named). */
static int read_declared(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	const struct family_rows *r = family_rows(o);
	const char *error = NULL;
	bool declared = false;
	struct sa_sf in;

	/* a failed inspection's record still holds the strategy's fields */
	j->insp = sa_sf_keep(&in, o->inspect, SA_SF_INSPECT);
	if (!j->insp)
		return sbx_stage_fail(why, len, "inspect.json unusable (%s); the variants were not run", in.status);
	if (!r)
		return sbx_stage_fail(why, len, "unknown family '%s' (declared or neighbourhood)", o->family);
	if (sa_sf_obj_or_null(&in, NULL, r->obj)) {
		sa_sf_bool(&in, NULL, r->declared, &declared);
		j->params = sa_sf_arr_or_null(&in, NULL, r->params);
		error = sa_sf_str_or(&in, NULL, r->error, NULL);
	}
	if (in.broken[0])
		return sbx_stage_fail(why, len, "%s; the variants were not run", in.broken);
	j->k = j->params && declared && !error ? (size_t)cJSON_GetArraySize(j->params) : 0;
	if (j->k > VR_MAX_VARIANTS)
		return sbx_stage_fail(why, len, "inspect.json lists %zu variants, more than %d", j->k, VR_MAX_VARIANTS);
	return 0;
}

/* Reads config and data and turns each parameter set into its JSON text. Returns 0 or -1. */
static int prepare(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	char err[512];
	size_t i = 0;
	const cJSON *d;

	if (!o->strategy)
		return sbx_stage_fail(why, len, "no strategy was uploaded, so there is no variant to run");
	j->cfg = sa_json_read(o->config, SA_JSON_CAP, err, sizeof err);
	if (!j->cfg)
		return sbx_stage_fail(why, len, "config.json unusable: %s", err);
	if (sbx_limits_from_config(j->cfg, &j->lim, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "config.json unusable: %s", err);
	if (da_ohlcv_load_config(o->data, j->cfg, &j->bars, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "data '%s' unusable: %s", o->data, err);
	j->text = calloc(j->k, sizeof *j->text);
	j->n_visible = calloc(j->k, sizeof *j->n_visible);
	j->results = calloc(j->k, sizeof *j->results);
	if (!j->text || !j->n_visible || !j->results)
		return sbx_stage_fail(why, len, "out of memory");
	cJSON_ArrayForEach(d, j->params) {
		if (i == j->k)
			break;
		j->text[i] = cJSON_PrintUnformatted(d);
		if (!j->text[i])
			return sbx_stage_fail(why, len, "out of memory");
		j->n_visible[i] = j->bars.n;
		i++;
	}
	return 0;
}

/* Runs every variant and keeps the signals of those that returned them. Returns 0 or -1 with
 * why. */
static int run_all(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	char err[512];
	struct sbx_job *jobs = calloc(j->k ? j->k : 1, sizeof *jobs);
	struct sbx_progress prog;
	struct sbx_batch_opts bo = { .jobs = o->jobs, .on_done = sbx_progress_done, .arg = &prog };
	long long audit_s;
	int rc;

	if (!jobs)
		return sbx_stage_fail(why, len, "out of memory");
	for (size_t i = 0; i < j->k; i++)
		jobs[i] = (struct sbx_job){ .s = &j->bars, .n_visible = j->n_visible[i], .params = j->text[i] };
	if (sa_config_int(j->cfg, SA_K_AUDIT_S, &audit_s, why, len) < 0) {
		free(jobs);
		return -1;
	}
	j->zyg = sbx_zygote_start(o->strategy, &j->lim, err, sizeof err);
	if (!j->zyg) {
		free(jobs);
		return sbx_stage_fail(why, len, "the sandbox could not start: %s", err);
	}
	bo.deadline_ms = sbx_budget_deadline((double)audit_s, VR_BUDGET_SHARE, o->started);
	sbx_progress_start(&prog, "variants");
	rc = sbx_run_batch(j->zyg, jobs, j->k, &bo, j->results, err, sizeof err);
	free(jobs);
	if (rc < 0)
		return sbx_stage_fail(why, len, "the sandbox failed: %s", err);
	for (size_t i = 0; i < j->k; i++) {
		const struct sbx_result *r = &j->results[i];

		j->blocked += r->n_refusals;
		if (sbx_rules_merge(&j->rules, &j->n_rules, r) < 0)
			j->rules_lost = true;
		if (r->status == SBX_NOT_RUN)
			j->not_run++;
	}
	return 0;
}

static void job_release(struct job *j)
{
	for (size_t i = 0; i < j->k; i++) {
		if (j->results)
			sbx_result_release(&j->results[i]);
		if (j->text)
			free(j->text[i]);
	}
	sbx_zygote_stop(j->zyg);
	free(j->text);
	free(j->n_visible);
	free(j->results);
	da_runsig_release(&j->sigs);
	free(j->rules);
	da_ohlcv_release(&j->bars);
	cJSON_Delete(j->insp);
	cJSON_Delete(j->cfg);
}

/* The first refusals of the variant runs, each with the variant whose run made it. */
static void add_events(cJSON *res, const struct job *j)
{
	cJSON *list = cJSON_AddArrayToObject(res, "events");
	int shown = 0;

	for (size_t i = 0; i < j->k && shown < VR_MAX_EVENTS; i++) {
		const struct sbx_result *r = &j->results[i];

		for (size_t e = 0; e < r->n_events && shown < VR_MAX_EVENTS; e++, shown++) {
			cJSON *o = cJSON_CreateObject();

			cJSON_AddNumberToObject(o, "variant", (double)(i + 1));
			cJSON_AddStringToObject(o, "action", r->events[e].action);
			cJSON_AddStringToObject(o, "rule", r->events[e].rule);
			cJSON_AddStringToObject(o, "detail", r->events[e].detail);
			cJSON_AddItemToArray(list, o);
		}
	}
}

/* One variant's entry of the index: its parameters, status and error line, the bars it ran on
 * and where its signals lie (null: it gave none). Returns NULL when memory ran out. */
static cJSON *variant_entry(struct job *j, size_t i)
{
	const struct sbx_result *r = &j->results[i];
	bool sig = r->status == SBX_OK && r->signals && r->n == j->bars.n;
	cJSON *e = cJSON_CreateObject();
	size_t at;

	if (!e || (sig && da_runsig_add(&j->sigs, r->signals, r->n, &at) < 0)) {
		cJSON_Delete(e);
		return NULL;
	}
	cJSON_AddNumberToObject(e, "variant", (double)(i + 1));
	cJSON_AddItemToObject(e, "params", cJSON_Parse(j->text[i]));
	cJSON_AddStringToObject(e, "status", sbx_status_name(r->status));
	cJSON_AddStringToObject(e, "error", r->error);
	cJSON_AddNumberToObject(e, "bars", (double)(sig ? r->n : j->n_visible[i]));
	if (sig)
		cJSON_AddNumberToObject(e, "at", (double)at);
	else
		cJSON_AddNullToObject(e, "at");
	return e;
}

/* The index of a finished family (the signals kept in j->sigs). Returns NULL when memory ran
 * out. */
static cJSON *family_json(const struct sbx_stage_args *o, struct job *j)
{
	cJSON *res = sa_sf_new(SA_SF_VARIANT_RUNS), *list;
	char why[128];

	cJSON_AddBoolToObject(res, "ok", true);
	cJSON_AddStringToObject(res, "family", o->family ? o->family : "declared");
	cJSON_AddBoolToObject(res, "declared", j->k > 0);
	cJSON_AddNumberToObject(res, "not_run", (double)j->not_run);
	cJSON_AddNumberToObject(res, "count", (double)j->k);
	cJSON_AddNumberToObject(res, "bars", (double)(j->k ? j->bars.n : 0));
	if (j->k) {
		char hex[65];

		if (da_bars_sha256(&j->bars, hex, why, sizeof why) < 0) {
			cJSON_Delete(res);
			return NULL;
		}
		cJSON_AddStringToObject(res, "bars_sha256", hex);
	} else {
		cJSON_AddNullToObject(res, "bars_sha256");
	}
	cJSON_AddNumberToObject(res, "blocked_actions", (double)j->blocked);
	cJSON_AddItemToObject(res, "refusals", sbx_rules_json(j->rules, j->n_rules));
	add_events(res, j);
	list = cJSON_AddArrayToObject(res, "variants");
	for (size_t i = 0; i < j->k; i++) {
		cJSON *e = variant_entry(j, i);

		if (!e) {
			cJSON_Delete(res);
			return NULL;
		}
		cJSON_AddItemToArray(list, e);
	}
	return res;
}

/* The whole family. Returns 0 with *res (caller frees; never NULL), or -1 with the reason in
 * err when the signals file could not be written (an index that says why sits beside an empty
 * one when the family could not be run). */
static int family(const struct sbx_stage_args *o, cJSON **res, char *err, size_t errlen)
{
	struct job j = {0};
	char why[768], sha[65];
	const char *base = strrchr(o->signals, '/');
	bool ok = false;

	*res = NULL;
	if (read_declared(o, &j, why, sizeof why) == 0 &&
	    (j.k == 0 || (prepare(o, &j, why, sizeof why) == 0 && run_all(o, &j, why, sizeof why) == 0))) {
		if (j.rules_lost)
			sbx_stage_fail(why, sizeof why, "out of memory counting refusals");
		else if (!(*res = family_json(o, &j)))
			sbx_stage_fail(why, sizeof why, "out of memory");
		ok = *res != NULL;
	}
	if (!*res) {
		da_runsig_release(&j.sigs);
		*res = sa_sf_new(SA_SF_VARIANT_RUNS);
		sa_json_fail(*res, why);
	}
	if (da_runsig_write(&j.sigs, o->signals, sha, err, errlen) < 0) {
		job_release(&j);
		return -1;
	}
	if (ok) {
		cJSON_AddStringToObject(*res, "signals", base ? base + 1 : o->signals);
		cJSON_AddStringToObject(*res, "signals_sha256", sha);
	}
	job_release(&j);
	return 0;
}

static cJSON *check_stage(const struct sbx_stage_args *a, char *err, size_t errlen)
{
	cJSON *res = NULL;

	if (family(a, &res, err, errlen) < 0) {
		cJSON_Delete(res);
		return NULL;
	}
	return res;
}

int main(int argc, char **argv)
{
	static const struct sbx_stage st = { "variants", SBX_STAGE_INSPECT | SBX_STAGE_SIGNALS | SBX_STAGE_FAMILY, usage,
					     check_stage };

	return sbx_stage_main(&st, argc, argv);
}
