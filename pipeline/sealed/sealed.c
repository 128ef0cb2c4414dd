/* sealed.c - runs the strategy once on sealed bars (SEALED: bars the uploader has never seen) and
 * keeps what the run gave in the ledger's history (sealed_budget.h), beside the set's secret key:
 * never in the audit's folder, whose files a bundle publishes. sealed_run.json says only that the
 * run was made and under which key; sealed_score scores it on the host. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fileio.h"
#include "jsonio.h"
#include "stagefile.h"
#include "ohlcv.h"
#include "ohlcv_json.h"
#include "sbx.h"
#include "sbx_report.h"
#include "sbx_stage.h"
#include "sealed_budget.h"
#include "sealed_core.h"
#include "signals.h"

/* The share of the audit's time budget (AUDIT_S) this stage may spend: one run. */
#define SL_BUDGET_SHARE 0.1

struct job {
	cJSON *cfg, *run;
	struct da_ohlcv bars;
	struct sbx_limits lim;
	struct sbx_zygote *zyg;
	struct sbx_result res;
	bool ran;
	char set[65], key[65];
	sqlite3 *db;
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: sealed --strategy FILE --run run.json --data SEALED.csv --config config.json\n"
		"              [--started EPOCH] -o sealed_run.json\n"
		"\n"
		"Runs the upload once in the sandbox on the sealed bars (a full run: every bar seen) and\n"
		"keeps what it gave in the ledger's history (LEDGER), beside the set's secret key: its\n"
		"signals, or that it failed, was cut short or refused, and its refusals counted per rule\n"
		"for the operator. Nothing of the sealed bars goes into sealed_run.json: it says whether\n"
		"the run was made (\"ran\": false when the full run on the audit's data did not finish\n"
		"uncontained, so nothing was run here), the run's key (the upload's sha256 and the knobs\n"
		"this stage reads) and the sealed set's size. sealed_score scores the run.\n"
		"\n"
		"exit status: 0 sealed_run.json written (even when it says \"ok\": false),\n"
		"             2 bad command line, 3 the tool itself could not work\n");
}

/* The history that keeps the run. Returns 0, or -1 with why. */
static int open_history(struct job *j, char *why, size_t len)
{
	char err[768];
	const char *ledger = "";

	if (sa_config_str(j->cfg, SA_K_LEDGER, &ledger, why, len) < 0)
		return -1;
	if (!*ledger)
		return sbx_stage_fail(why, len, "SEALED needs LEDGER: the sealed set's budget and the key "
				      "of its noise are kept in the ledger's history");
	if (sl_budget_open(ledger, &j->db, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "%s", err);
	return 0;
}

/* Reads what the run needs. Returns 0, 1 when the upload is not to be run, or -1 with why. */
static int prepare(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	char err[512];
	int8_t *full = NULL;
	struct sa_sf run;
	double n_bars = 0;
	int rc;

	if (!o->strategy)
		return sbx_stage_fail(why, len, "no strategy was uploaded, so there is nothing to run");
	j->cfg = sa_json_read(o->config, SA_JSON_CAP, err, sizeof err);
	if (!j->cfg)
		return sbx_stage_fail(why, len, "config.json unusable: %s", err);
	if (sbx_limits_from_config(j->cfg, &j->lim, why, len) < 0)
		return -1;
	/* through the stage-file table: its head checked; a failed run's record is still read */
	j->run = sa_sf_keep(&run, o->run, SA_SF_RUN);
	sa_sf_num(&run, NULL, SA_FD_RUN_N_BARS, &n_bars);
	if (!j->run || run.broken[0])
		return sbx_stage_fail(why, len, "run.json unusable (%s); the sealed bars were not run",
				      run.broken[0] ? run.broken : run.status);
	if (da_ohlcv_load_config(o->data, j->cfg, &j->bars, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "sealed data unusable: %s", err);
	/* a refused upload is not run again, on any data */
	rc = da_run_signals(j->run, (size_t)fmax(0, n_bars),
			    DA_RUN_UNCONTAINED, &full, why, len);
	free(full);
	if (rc < 0)
		return 1;
	if (open_history(j, why, len) < 0)
		return -1;
	if (sa_sha256_file(o->data, j->set, err, sizeof err) < 0 ||
	    sl_run_key(o->strategy, j->cfg, j->key, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "cannot hash the run's files: %s", err);
	return 0;
}

/* The one run, within the stage's share of the budget. What the sandbox says of a failure is
 * not carried: it may hold the run's own words. */
static int run_once(const struct sbx_stage_args *o, struct job *j, char *why, size_t len)
{
	char err[512];
	long long audit_s;
	struct sbx_job job = { .s = &j->bars, .n_visible = j->bars.n };
	struct sbx_batch_opts bo = { .jobs = 1 };

	if (sa_config_int(j->cfg, SA_K_AUDIT_S, &audit_s, why, len) < 0)
		return -1;
	bo.deadline_ms = sbx_budget_deadline((double)audit_s, SL_BUDGET_SHARE, o->started);
	j->zyg = sbx_zygote_start(o->strategy, &j->lim, err, sizeof err);
	if (!j->zyg)
		return sbx_stage_fail(why, len, "the sandbox could not start: %s", err);
	if (sbx_run_batch(j->zyg, &job, 1, &bo, &j->res, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "the sandbox failed on the sealed bars");
	j->ran = true;
	return 0;
}

/* Keeps the run in the history: a refusal first, then a run stopped at a limit of time, then no
 * valid signals, else its signals. */
static int keep(struct job *j, char *why, size_t len)
{
	const struct sbx_result *r = &j->res;
	const char *status = "ran";
	struct sbx_rule_count *rules = NULL;
	size_t n_rules = 0;
	char err[768];
	int rc;

	if (r->n_refusals > 0)
		status = sl_outcome_name(SL_REFUSED);
	else if (r->status == SBX_KILLED_WALL_CLOCK || r->status == SBX_KILLED_CPU)
		status = sl_outcome_name(SL_CUT_SHORT);
	else if (r->status != SBX_OK || !r->signals || r->n != j->bars.n)
		status = sl_outcome_name(SL_FAILED);
	if (sbx_rules_merge(&rules, &n_rules, r) < 0)
		return sbx_stage_fail(why, len, "out of memory counting refusals");
	rc = sl_runs_put(j->db, j->set, j->key, status, strcmp(status, "ran") ? NULL : r->signals,
			 j->bars.n, rules, n_rules, err, sizeof err);
	free(rules);
	return rc < 0 ? sbx_stage_fail(why, len, "%s", err) : 0;
}

static cJSON *check(const struct sbx_stage_args *o, char *err, size_t errlen)
{
	static struct job j;
	char why[768] = "";
	cJSON *res = sa_sf_new(SA_SF_SEALED_RUN);
	int rc;

	(void)err, (void)errlen;
	memset(&j, 0, sizeof j);
	rc = prepare(o, &j, why, sizeof why);
	if (rc == 0)
		rc = run_once(o, &j, why, sizeof why) < 0 || keep(&j, why, sizeof why) < 0 ? -1 : 0;
	if (rc >= 0) {
		cJSON_AddBoolToObject(res, "ok", true);
		cJSON_AddNullToObject(res, "reason");
		cJSON_AddBoolToObject(res, "ran", rc == 0);
		if (rc == 0)
			cJSON_AddStringToObject(res, "run", j.key);
		else
			cJSON_AddNullToObject(res, "run");
		cJSON_AddNumberToObject(res, "bars", (double)j.bars.n);
	} else
		sa_json_fail(res, why);
	if (j.ran)
		sbx_result_release(&j.res);
	sbx_zygote_stop(j.zyg);
	sqlite3_close(j.db);
	da_ohlcv_release(&j.bars);
	cJSON_Delete(j.run);
	cJSON_Delete(j.cfg);
	return res;
}

int main(int argc, char **argv)
{
	static const struct sbx_stage st = { "sealed", SBX_STAGE_RUN, usage, check };

	return sbx_stage_main(&st, argc, argv);
}
