/* variants.c - runs every declared variant of a strategy in the sandbox, replays each with the
 * audit's costs, and writes variants.json, variants.csv and the per-bar return matrix. */
#include <errno.h>
#include <math.h>
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
#include "costs.h"
#include "sbx.h"
#include "sbx_progress.h"
#include "sbx_stage.h"
#include "sbx_report.h"
#include "exits.h"
#include "variants_core.h"

/* The share of the audit's time budget (AUDIT_S) this stage may spend. */
#define VR_BUDGET_SHARE 0.2

/* Everything one family holds, so a single out: label can release it. */
struct job {
	cJSON *cfg, *insp;
	const cJSON *params;          /* borrowed from insp */
	struct sbx_limits lim;
	struct rp_costs costs;
	struct rp_exits exits;        /* the declared exits, every variant's (costs.exits) */
	struct da_ohlcv bars;
	size_t k, ran;
	char **text;                  /* each variant's compact JSON */
	size_t *n_visible;
	struct sbx_result *results;
	struct vr_variant *v;
	double *matrix;               /* ran columns of bars.n values */
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
		"                --config config.json [--jobs N] [--started EPOCH] -o variants.json\n"
		"                --csv variants.csv --matrix variant_returns.bin\n"
		"                [--family declared|neighbourhood]\n"
		"\n"
		"Runs signals(df, **params) in the sandbox for every parameter set the strategy declares\n"
		"in VARIANTS (as inspect.json read it, never by running the file), each a fresh run with\n"
		"the limits of the main run, replays each with the config's costs and the declared exits,\n"
		"and writes one row a\n"
		"variant to variants.csv and the per-bar net returns of those that ran to the matrix.\n"
		"Without VARIANTS nothing runs: variants.json says \"declared\": false. The stage spends\n"
		"at most its share of budget.audit_s (from --started, the audit's start); variants it\n"
		"could not run in time are counted and variants.json says \"complete\": false.\n"
		"With --family neighbourhood it runs inspect.json's strategy.neighbourhood.params instead\n"
		"(the audited parameters moved to nearby values, the centre first), the same way.\n"
		"\n"
		"exit status: 0 variants.json written (even when it says \"ok\": false),\n"
		"             2 bad command line, 3 the tool itself could not work\n");
}

/* The object of inspect.json's strategy that holds the family's parameter sets, or NULL for an
 * unknown family. */
static const char *family_key(const struct sbx_stage_args *o)
{
	if (!o->family || !strcmp(o->family, "declared"))
		return "variants";
	if (!strcmp(o->family, "neighbourhood"))
		return "neighbourhood";
	return NULL;
}

/* Reads inspect.json's strategy.variants (or the family's sets); k = 0 when none are declared
 * or they are malformed. Returns 0, or -1 with why. */
static int read_declared(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	char err[512];
	bool ok;
	const cJSON *s, *v;

	j->insp = sa_json_read_stage(o->inspect, &ok, err, sizeof err);
	if (!j->insp)
		return sbx_stage_fail(why, len, "inspect.json unusable (%s); the variants were not run", err);
	if (!family_key(o))
		return sbx_stage_fail(why, len, "unknown family '%s' (declared or neighbourhood)", o->family);
	s = cJSON_GetObjectItemCaseSensitive(j->insp, "strategy");
	v = cJSON_GetObjectItemCaseSensitive(s, family_key(o));
	j->params = cJSON_GetObjectItemCaseSensitive(v, "params");
	if (!cJSON_IsArray(j->params))
		j->params = NULL;
	j->k = j->params && sa_json_bool(v, "declared", false) && !cJSON_IsString(
		cJSON_GetObjectItemCaseSensitive(v, "error")) ? (size_t)cJSON_GetArraySize(j->params) : 0;
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
	if (sbx_limits_from_config(j->cfg, &j->lim, err, sizeof err) < 0 ||
	    rp_read_costs(j->cfg, &j->costs, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "config.json unusable: %s", err);
	if (rp_exits_from_json(rp_exits_of_inspect(j->insp), &j->exits, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "the strategy's exits cannot be replayed: %s; the "
				      "variants were not run", err);
	j->costs.exits = &j->exits;
	if (da_ohlcv_load_config(o->data, j->cfg, &j->bars, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "data '%s' unusable: %s", o->data, err);
	rp_costs_floor(&j->costs, &j->bars, NULL);
	j->text = calloc(j->k, sizeof *j->text);
	j->n_visible = calloc(j->k, sizeof *j->n_visible);
	j->results = calloc(j->k, sizeof *j->results);
	j->v = calloc(j->k, sizeof *j->v);
	j->matrix = calloc(j->k && j->bars.n ? j->k * j->bars.n : 1, sizeof *j->matrix);
	if (!j->text || !j->n_visible || !j->results || !j->v || !j->matrix)
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

/* Runs every variant, then replays those that returned signals. Returns 0 or -1 with why. */
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
		struct vr_variant *v = &j->v[i];
		struct rp_result rp = {0};

		v->params = j->text[i];
		v->status = sbx_status_name(r->status);
		v->sharpe = v->net_return = NAN;
		j->blocked += r->n_refusals;
		if (sbx_rules_merge(&j->rules, &j->n_rules, r) < 0)
			j->rules_lost = true;
		if (r->status == SBX_NOT_RUN)
			j->not_run++;
		if (r->status != SBX_OK || !r->signals) {
			snprintf(v->error, sizeof v->error, "%s", r->error[0] ? r->error : v->status);
			continue;
		}
		if (rp_replay(&j->bars, r->signals, &j->costs, &rp) < 0 ||
		    vr_summarise(&rp, v, j->matrix + j->ran * j->bars.n, j->bars.n) < 0) {
			rp_result_release(&rp);
			return sbx_stage_fail(why, len, "out of memory replaying variant %zu", i + 1);
		}
		rp_result_release(&rp);
		v->ran = true;
		j->ran++;
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
	free(j->v);
	free(j->matrix);
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

/* variants.json from a finished family. */
static cJSON *family_json(const struct sbx_stage_args *o, const struct job *j)
{
	cJSON *res = sa_sf_new(SA_SF_VARIANTS), *list;

	cJSON_AddBoolToObject(res, "ok", true);
	cJSON_AddStringToObject(res, "family", o->family ? o->family : "declared");
	cJSON_AddBoolToObject(res, "declared", j->k > 0);
	cJSON_AddBoolToObject(res, "complete", j->not_run == 0);
	cJSON_AddNumberToObject(res, "not_run", (double)j->not_run);
	cJSON_AddNumberToObject(res, "count", (double)j->k);
	cJSON_AddNumberToObject(res, "ran", (double)j->ran);
	cJSON_AddNumberToObject(res, "failed", (double)(j->k - j->ran));
	cJSON_AddNumberToObject(res, "bars", (double)(j->k ? j->bars.n : 0));
	cJSON_AddStringToObject(res, "matrix", strrchr(o->matrix, '/') ? strrchr(o->matrix, '/') + 1 : o->matrix);
	cJSON_AddNumberToObject(res, "blocked_actions", (double)j->blocked);
	cJSON_AddItemToObject(res, "refusals", sbx_rules_json(j->rules, j->n_rules));
	add_events(res, j);
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
 * be run (failed) leaves both empty. Returns 0, or -1 with the reason in err. */
static int write_tables(const struct sbx_stage_args *o, const struct job *j, bool failed,
			char *err, size_t errlen)
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

/* The whole family. Returns 0 with *res (caller frees; never NULL), or -1 with the reason in
 * err when a table could not be written. */
static int family(const struct sbx_stage_args *o, cJSON **res, char *err, size_t errlen)
{
	struct job j = {0};
	char why[768];
	bool failed;
	int rc;

	*res = NULL;
	if (read_declared(o, &j, why, sizeof why) == 0 &&
	    (j.k == 0 || (prepare(o, &j, why, sizeof why) == 0 && run_all(o, &j, why, sizeof why) == 0))) {
		if (j.rules_lost)
			sbx_stage_fail(why, sizeof why, "out of memory counting refusals");
		else
			*res = family_json(o, &j);
	}
	failed = !*res;
	if (failed) {
		*res = sa_sf_new(SA_SF_VARIANTS);
		sa_json_fail(*res, why);
	}
	rc = write_tables(o, &j, failed, err, errlen);
	job_release(&j);
	return rc;
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
	static const struct sbx_stage st = { "variants", SBX_STAGE_INSPECT | SBX_STAGE_TABLES | SBX_STAGE_FAMILY, usage,
					     check_stage };

	return sbx_stage_main(&st, argc, argv);
}
